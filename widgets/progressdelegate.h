// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace RankScope {

/// Draws a progress bar in a cell while its row loads (RankListModel::ProgressRole ≥ 0) and failed rows' text in
/// the error colour.
class ProgressDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace RankScope
