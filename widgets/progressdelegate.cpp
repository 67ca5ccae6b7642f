// SPDX-License-Identifier: MIT
#include "progressdelegate.h"

#include "ranklistmodel.h"

#include <QApplication>
#include <QPainter>

namespace RankScope {

void ProgressDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const int progress = index.data(RankListModel::ProgressRole).toInt();
    if (progress >= 0 && index.data(RankListModel::ProgressRole).isValid()) {
        QStyleOptionProgressBar bar;
        bar.rect = option.rect.adjusted(2, 2, -2, -2);
        bar.minimum = 0;
        bar.maximum = 1000;
        bar.progress = progress;
        bar.text = index.data().toString();
        bar.textVisible = true;
        bar.state = option.state | QStyle::State_Horizontal;
        const QStyle* style = option.widget ? option.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ProgressBar, &bar, painter, option.widget);
        return;
    }
    QStyleOptionViewItem opt = option;
    if (!index.data(RankListModel::ErrorRole).toString().isEmpty())
        opt.palette.setColor(QPalette::Text, QColor(0xc0, 0x39, 0x2b));
    QStyledItemDelegate::paint(painter, opt, index);
}

} // namespace RankScope
