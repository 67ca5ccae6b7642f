// SPDX-License-Identifier: MIT
#include "ranktableview.h"

#include "ranklistmodel.h"

#include <QHeaderView>
#include <QTreeView>

#include <algorithm>

namespace RankScope {

void RankTableView::fitColumns(QTreeView* view)
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

} // namespace RankScope
