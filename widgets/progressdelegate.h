// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace RankScope {

/// Draws a progress bar with a cancel button in a cell while its row loads (RankListModel::ProgressRole ≥ 0), and
/// failed rows' text in the error colour. Clicking the button emits cancelRequested with the source row.
class ProgressDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    bool editorEvent(QEvent* event, QAbstractItemModel* model, const QStyleOptionViewItem& option,
        const QModelIndex& index) override;
    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
        const QModelIndex& index) override;

    /// Where the cancel button of a cell is drawn.
    static QRect cancelRect(const QRect& cell);

signals:
    /// The cancel button of a loading row was clicked; `index` is the cell's index in the view's model.
    void cancelRequested(const QModelIndex& index);
};

} // namespace RankScope
