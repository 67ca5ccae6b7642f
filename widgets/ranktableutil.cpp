// SPDX-License-Identifier: MIT
#include "ranktableutil.h"

#include "ranklistmodel.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTreeView>

#include <algorithm>

namespace RankScope {

namespace {

// The file's column: as wide as the longest name (its first line; a failed file's reason may be elided), within limits.
int fileWidth(const QTreeView* view)
{
    const QAbstractItemModel* model = view->model();
    const QFontMetrics metrics = view->fontMetrics();
    int width = metrics.horizontalAdvance(model->headerData(RankListModel::FileColumn, Qt::Horizontal).toString());
    for (int row = 0; row < model->rowCount(); ++row) {
        const QString text = model->index(row, RankListModel::FileColumn).data().toString();
        width = std::max(width, metrics.horizontalAdvance(text.section(QLatin1Char('\n'), 0, 0)));
    }
    return std::clamp(width + 24, 120, 360);
}

} // namespace

void RankTableUtil::fitColumns(QTreeView* view)
{
    QAbstractItemModel* model = view->model();
    if (!model)
        return;
    for (int column = 0; column < model->columnCount(); ++column) {
        if (column != RankListModel::FileColumn)
            view->resizeColumnToContents(column);
    }
    view->setColumnWidth(RankListModel::FileColumn, fileWidth(view));
}

void RankTableUtil::showColumnsOf(QTreeView* view, const Comparison& comparison)
{
    QHeaderView* header = view->header();
    header->moveSection(header->visualIndex(RankListModel::FileColumn), RankListModel::NUM_COLUMNS - 1);
    view->setColumnHidden(RankListModel::CoordinatesColumn, !comparison.layout());
    view->setColumnHidden(RankListModel::HostColumn,
        std::none_of(comparison.ranks().begin(), comparison.ranks().end(),
            [](const RankSummary& r) { return r.host.recorded; }));
}

int RankTableUtil::neededWidth(const QTreeView* view)
{
    const QAbstractItemModel* model = view->model();
    if (!model)
        return 0;
    // The last section stretches to the view's width: the file's own width is what it needs.
    int width = 2 * view->frameWidth() + view->verticalScrollBar()->sizeHint().width();
    for (int column = 0; column < model->columnCount(); ++column) {
        if (!view->isColumnHidden(column))
            width += column == RankListModel::FileColumn ? fileWidth(view) : view->header()->sectionSize(column);
    }
    return width;
}

int RankTableUtil::keyWidth(const QTreeView* view)
{
    const QAbstractItemModel* model = view->model();
    if (!model)
        return 0;
    const QHeaderView* header = view->header();
    const int last = header->visualIndex(RankListModel::ExcessColumn);
    int width = 2 * view->frameWidth() + view->verticalScrollBar()->sizeHint().width();
    for (int column = 0; column < model->columnCount(); ++column) {
        if (!view->isColumnHidden(column) && header->visualIndex(column) <= last)
            width += std::max(header->sectionSize(column), header->sectionSizeHint(column));
    }
    return width;
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
