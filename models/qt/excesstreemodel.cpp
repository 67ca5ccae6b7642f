// SPDX-License-Identifier: MIT
#include "excesstreemodel.h"

#include "formatting.h"

#include <QCoreApplication>
#include <QEvent>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace RankScope {

ExcessTreeModel::ExcessTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{
    if (QCoreApplication::instance())
        QCoreApplication::instance()->installEventFilter(this);
}

bool ExcessTreeModel::eventFilter(QObject* watched, QEvent* event)
{
    // Cells are frames and figures; only the headers are words.
    if (event->type() == QEvent::LanguageChange && watched == QCoreApplication::instance())
        emit headerDataChanged(Qt::Horizontal, 0, NUM_COLUMNS - 1);
    return false;
}

void ExcessTreeModel::setTree(std::shared_ptr<const ExcessNode> root, ExcessTree::Scope scope)
{
    beginResetModel();
    m_root = std::move(root);
    m_scope = scope;
    endResetModel();
}

const ExcessNode* ExcessTreeModel::node(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<const ExcessNode*>(index.internalPointer()) : m_root.get();
}

QModelIndex ExcessTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    const ExcessNode* p = node(parent);
    if (!p || row < 0 || column < 0 || column >= NUM_COLUMNS || size_t(row) >= p->children.size())
        return {};
    return createIndex(row, column, const_cast<ExcessNode*>(&p->children[size_t(row)]));
}

QModelIndex ExcessTreeModel::parent(const QModelIndex& child) const
{
    const ExcessNode* n = child.isValid() ? node(child) : nullptr;
    if (!n || !n->parent || n->parent == m_root.get())
        return {};
    return createIndex(n->parent->row, 0, const_cast<ExcessNode*>(n->parent));
}

int ExcessTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.column() > 0)
        return 0;
    const ExcessNode* p = node(parent);
    return p ? int(p->children.size()) : 0;
}

int ExcessTreeModel::columnCount(const QModelIndex&) const
{
    return NUM_COLUMNS;
}

QVariant ExcessTreeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ExcessNode& n = *node(index);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case FrameColumn:
            if (n.native)
                return nativeText();
            if (n.noStack)
                return noStackText();
            return QStringLiteral("%1  %2:%3")
                .arg(QString::fromStdString(n.name), Formatting::fileName(n.file))
                .arg(n.line);
        case InclusiveColumn:
            return Formatting::bytes(n.inclusiveBytes);
        case SelfColumn:
            return n.selfBytes > 0 ? Formatting::bytes(n.selfBytes) : QString();
        case SitesColumn:
            return qint64(n.sites);
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case FrameColumn:
            return n.native ? nativeText() : n.noStack ? noStackText() : QString::fromStdString(n.name);
        case InclusiveColumn:
            return qint64(n.inclusiveBytes);
        case SelfColumn:
            return qint64(n.selfBytes);
        case SitesColumn:
            return qint64(n.sites);
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == FrameColumn && n.native)
            return tr("The C++, CPython and allocator frames below the Python frames, folded: expand to see them\n%1 "
                      "through them")
                .arg(Formatting::bytes(n.inclusiveBytes));
        if (index.column() == FrameColumn && n.noStack)
            return tr("Allocations recorded without a stack (made before the recording began, as parameters often "
                      "are)\n%1 held")
                .arg(Formatting::bytes(n.inclusiveBytes));
        if (index.column() == FrameColumn)
            return tr("%1 (%2:%3)\n%4 through this frame, %5 allocated in it")
                .arg(QString::fromStdString(n.name), QString::fromStdString(n.file))
                .arg(n.line)
                .arg(Formatting::bytes(n.inclusiveBytes), Formatting::bytes(n.selfBytes));
        return {};
    case OthersRole:
        return !n.native && !n.noStack && StackOrder::isOthers(n.kind);
    case Qt::ForegroundRole:
        // Others' frames (torch's, a package's, native ones) dimmed around the user's, never moved.
        if (data(index, OthersRole).toBool() && qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
            return QGuiApplication::palette().color(QPalette::PlaceholderText);
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == FrameColumn ? QVariant() : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QString ExcessTreeModel::nativeText()
{
    return tr("Native frames");
}

QString ExcessTreeModel::noStackText()
{
    return tr("<no stack recorded>");
}

QModelIndex ExcessTreeModel::readingStart() const
{
    // Down the largest branch of frames to the user's first frame: top-down their outermost, bottom-up their innermost.
    const ExcessNode* n = m_root.get();
    QModelIndex index;
    while (n) {
        const auto next = std::find_if(n->children.begin(), n->children.end(),
            [](const ExcessNode& child) { return !child.native && !child.noStack; });
        if (next == n->children.end())
            return {};
        n = &*next;
        index = this->index(n->row, FrameColumn, index);
        if (!StackOrder::isOthers(n->kind))
            return index;
    }
    return {};
}

QVariant ExcessTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case FrameColumn:
            return tr("Frame");
        case InclusiveColumn:
            return m_scope == ExcessTree::Excess ? tr("Excess") : tr("Held");
        case SelfColumn:
            return tr("Self");
        case SitesColumn:
            return tr("Sites");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case InclusiveColumn:
            return m_scope == ExcessTree::Excess
                ? tr("What the rank holds beyond its baseline through this frame and everything it calls")
                : tr("What the rank holds at the point through this frame and everything it calls");
        case SelfColumn:
            return m_scope == ExcessTree::Excess ? tr("Beyond the baseline at sites whose allocating frame this is")
                                                 : tr("At sites whose allocating frame this is");
        case SitesColumn:
            return m_scope == ExcessTree::Excess ? tr("Findings whose stack passes through this frame")
                                                 : tr("Sites whose stack passes through this frame");
        }
    }
    return {};
}

} // namespace RankScope
