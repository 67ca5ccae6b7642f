// SPDX-License-Identifier: MIT
#include "findingsfiltermodel.h"

namespace RankScope {

FindingsFilterModel::FindingsFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(FindingsModel::SortRole);
    setFilterKeyColumn(-1);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void FindingsFilterModel::setSourceModel(QAbstractItemModel* source)
{
    m_findings = qobject_cast<const FindingsModel*>(source);
    Q_ASSERT(m_findings || !source);
    QSortFilterProxyModel::setSourceModel(source);
}

void FindingsFilterModel::setFilterText(const QString& text)
{
    setFilterFixedString(text);
    // Rows that stay may now match in a cell, or in another frame: their site cells change without a row moving.
    if (rowCount() > 0)
        emit dataChanged(index(0, FindingsModel::SiteColumn), index(rowCount() - 1, FindingsModel::SiteColumn),
            { Qt::DisplayRole, Qt::ToolTipRole, MatchedFrameRole });
}

bool FindingsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent)
        || frameMatch(sourceRow, sourceParent).depth >= 0;
}

FindingsModel::FrameMatch FindingsFilterModel::frameMatch(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!m_findings || filterRegularExpression().pattern().isEmpty()
        || QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent))
        return {};
    return m_findings->matchFrame(
        m_findings->findingAt(m_findings->index(sourceRow, 0, sourceParent)), filterRegularExpression());
}

QVariant FindingsFilterModel::data(const QModelIndex& index, int role) const
{
    const bool marked = role == MatchedFrameRole
        || (index.column() == FindingsModel::SiteColumn && (role == Qt::DisplayRole || role == Qt::ToolTipRole));
    if (!marked || !index.isValid())
        return QSortFilterProxyModel::data(index, role);
    const QModelIndex source = mapToSource(index);
    const FindingsModel::FrameMatch match = frameMatch(source.row(), source.parent());
    if (role == MatchedFrameRole)
        return match.text;
    const QString text = QSortFilterProxyModel::data(index, role).toString();
    if (match.depth < 0)
        return text;
    if (role == Qt::DisplayRole)
        return tr("%1 — found in %2").arg(text, match.brief);
    return QString(text + QLatin1String("\n\n")
        + tr("The filter found frame %1 of this finding's stack (counted from where it allocates):\n%2")
              .arg(match.depth + 1)
              .arg(match.text));
}

} // namespace RankScope
