// SPDX-License-Identifier: MIT
#include "ranktableutil.h"

#include "ranklistmodel.h"

#include <QHeaderView>
#include <QTreeView>

#include <algorithm>

namespace RankScope {

void RankTableUtil::fitColumns(QTreeView* view)
{
    QAbstractItemModel* model = view->model();
    if (!model)
        return;
    for (int column = 0; column < model->columnCount(); ++column) {
        if (column != RankListModel::FileColumn)
            view->resizeColumnToContents(column);
    }
    const QFontMetrics metrics = view->fontMetrics();
    int width = metrics.horizontalAdvance(model->headerData(RankListModel::FileColumn, Qt::Horizontal).toString());
    for (int row = 0; row < model->rowCount(); ++row) {
        const QString text = model->index(row, RankListModel::FileColumn).data().toString();
        width = std::max(width, metrics.horizontalAdvance(text.section(QLatin1Char('\n'), 0, 0)));
    }
    view->setColumnWidth(RankListModel::FileColumn, std::clamp(width + 24, 120, 360));
}

void RankTableUtil::fitWidth(QTreeView* view)
{
    using M = RankListModel;
    static const int dropOrder[] = { M::AllocatedColumn, M::SegmentsColumn, M::TraceEntriesColumn, M::StatusColumn,
        M::TemporaryColumn, M::OtherColumn, M::ReservedColumn, M::GradientColumn, M::OptimizerStateColumn,
        M::TraceColumn, M::UnallocatedColumn, M::PeakColumn, M::OomColumn, M::ParameterColumn, M::ActivationColumn,
        M::CoordinatesColumn };
    // The last section stretches to fill the view: what the columns need is their contents' width.
    auto needed = [view] {
        int total = 0;
        for (int column = 0; column < RankListModel::NUM_COLUMNS; ++column) {
            if (!view->isColumnHidden(column))
                total += std::max(view->columnWidth(column), view->header()->sectionSizeHint(column));
        }
        return total;
    };
    for (int column : dropOrder) {
        if (needed() <= view->viewport()->width())
            break;
        view->setColumnHidden(column, true);
    }
}

} // namespace RankScope
