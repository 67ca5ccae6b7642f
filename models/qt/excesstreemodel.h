// SPDX-License-Identifier: MIT
#pragma once

#include "excesstree.h"

#include <QAbstractItemModel>

namespace RankScope {

/// What a rank holds by frame as a tree (ExcessTree, top-down or bottom-up; its excess or everything at the point),
/// in the shape of hotspot's caller/callee views: frame, inclusive and self bytes, sites; children largest first;
/// frames in the order they were called, others' dimmed. The native run below a site's Python frames is one node that
/// expands to its frames; what was recorded without a stack one row of its own.
class ExcessTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Columns
    {
        FrameColumn,
        InclusiveColumn,
        SelfColumn,
        SitesColumn,
        NUM_COLUMNS
    };
    enum Roles
    {
        SortRole = Qt::UserRole,
        /// Whether the frame is someone else's (StackOrder::isOthers), which the view dims.
        OthersRole,
    };
    explicit ExcessTreeModel(QObject* parent = nullptr);

    /// Shows a tree (nullptr: nothing) of `scope`, which names the figures' column.
    void setTree(std::shared_ptr<const ExcessNode> root, ExcessTree::Scope scope = ExcessTree::Excess);
    ExcessTree::Scope scope() const
    {
        return m_scope;
    }
    const ExcessNode* root() const
    {
        return m_root.get();
    }
    const ExcessNode* node(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// How a tree names the folded run of native frames (ExcessNode::native), in the flame graph too.
    static QString nativeText();
    /// How a tree names the allocations recorded without a stack (ExcessNode::noStack), in the flame graph too.
    static QString noStackText();
    /// Where reading the tree starts: the user's first frame along its largest branch (invalid without one), for a
    /// view to expand to and scroll to.
    QModelIndex readingStart() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::shared_ptr<const ExcessNode> m_root;
    ExcessTree::Scope m_scope = ExcessTree::Excess;
};

} // namespace RankScope
