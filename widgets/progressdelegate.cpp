// SPDX-License-Identifier: MIT
#include "progressdelegate.h"

#include "ranklistmodel.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace RankScope {

namespace {

bool isLoading(const QModelIndex& index)
{
    const QVariant progress = index.data(RankListModel::ProgressRole);
    return progress.isValid() && progress.toInt() >= 0;
}

} // namespace

QRect ProgressDelegate::cancelRect(const QRect& cell)
{
    const int side = std::max(12, cell.height() - 6);
    return QRect(cell.right() - side - 2, cell.center().y() - side / 2, side, side);
}

void ProgressDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    if (isLoading(index)) {
        const QRect cancel = cancelRect(option.rect);
        QStyleOptionProgressBar bar;
        bar.rect = option.rect.adjusted(2, 2, -(option.rect.right() - cancel.left()) - 4, -2);
        bar.minimum = 0;
        bar.maximum = 1000;
        bar.progress = index.data(RankListModel::ProgressRole).toInt();
        bar.text = index.data().toString();
        bar.textVisible = true;
        bar.state = option.state | QStyle::State_Horizontal;
        const QStyle* style = option.widget ? option.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ProgressBar, &bar, painter, option.widget);
        // A small ✕ that cancels this file only.
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(QPen(option.palette.color(QPalette::Text), 1.6));
        const QRectF cross = QRectF(cancel).adjusted(3, 3, -3, -3);
        painter->drawLine(cross.topLeft(), cross.bottomRight());
        painter->drawLine(cross.topRight(), cross.bottomLeft());
        painter->restore();
        return;
    }
    QStyleOptionViewItem opt = option;
    if (!index.data(RankListModel::ErrorRole).toString().isEmpty())
        opt.palette.setColor(QPalette::Text, QColor(0xc0, 0x39, 0x2b));
    QStyledItemDelegate::paint(painter, opt, index);
}

bool ProgressDelegate::editorEvent(
    QEvent* event, QAbstractItemModel* model, const QStyleOptionViewItem& option, const QModelIndex& index)
{
    if (event->type() == QEvent::MouseButtonRelease && isLoading(index)) {
        auto* mouse = static_cast<QMouseEvent*>(event);
        if (mouse->button() == Qt::LeftButton && cancelRect(option.rect).contains(mouse->position().toPoint())) {
            emit cancelRequested(index);
            return true;
        }
    }
    return QStyledItemDelegate::editorEvent(event, model, option, index);
}

bool ProgressDelegate::helpEvent(
    QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option, const QModelIndex& index)
{
    if (isLoading(index) && cancelRect(option.rect).contains(event->pos())) {
        QToolTip::showText(event->globalPos(), tr("Cancel loading this file"), view);
        return true;
    }
    return QStyledItemDelegate::helpEvent(event, view, option, index);
}

} // namespace RankScope
