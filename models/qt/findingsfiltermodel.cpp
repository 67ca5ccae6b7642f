// SPDX-License-Identifier: MIT
#include "findingsfiltermodel.h"

namespace RankScope {

FindingsFilterModel::FindingsFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(FindingsModel::SortRole);
    setFilterKeyColumn(-1);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    // A group's row stays where any of its ranks matches: typing a rank finds the group it is in.
    setRecursiveFilteringEnabled(true);
}

void FindingsFilterModel::setSourceModel(QAbstractItemModel* source)
{
    m_findings = qobject_cast<const FindingsModel*>(source);
    Q_ASSERT(m_findings || !source);
    QSortFilterProxyModel::setSourceModel(source);
}

void FindingsFilterModel::setFilterText(const QString& text)
{
    // "on:K" or "on:K-M" anywhere in the text, as `--present-on K[-M]` takes it; the rest is searched as written.
    static const QRegularExpression onWord(
        QStringLiteral("(?:^|\\s)on:(\\S*)"), QRegularExpression::CaseInsensitiveOption);
    QString searched = text;
    std::optional<std::pair<int, int>> presentOn;
    if (const QRegularExpressionMatch on = onWord.match(text); on.hasMatch()) {
        presentOn = ComparisonOptions::parsePresentOn(on.captured(1).toStdString());
        if (presentOn)
            searched = QString(text.left(on.capturedStart()) + text.mid(on.capturedEnd())).trimmed();
    }
    if (presentOn != m_presentOn) {
        m_presentOn = presentOn;
        invalidateRowsFilter();
    }
    setFilterFixedString(searched);
    // Rows that stay may now match in a cell, or in another frame: their site cells change without a row moving.
    // A group's ranks under its row too.
    const auto sitesChanged = [this](const QModelIndex& parent) {
        if (rowCount(parent) > 0)
            emit dataChanged(index(0, FindingsModel::SiteColumn, parent),
                index(rowCount(parent) - 1, FindingsModel::SiteColumn, parent),
                { Qt::DisplayRole, Qt::ToolTipRole, MatchedFrameRole });
    };
    sitesChanged({});
    for (int row = 0; row < rowCount(); ++row)
        sitesChanged(index(row, 0));
}

bool FindingsFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (!left.parent().isValid())
        return QSortFilterProxyModel::lessThan(left, right);
    // Sorted descending, the proxy asks whether right < left: either way the ranks read upwards.
    const int a = left.siblingAtColumn(FindingsModel::RankColumn).data(FindingsModel::SortRole).toInt();
    const int b = right.siblingAtColumn(FindingsModel::RankColumn).data(FindingsModel::SortRole).toInt();
    return sortOrder() == Qt::AscendingOrder ? a < b : a > b;
}

bool FindingsFilterModel::isFiltering() const
{
    return m_presentOn || !filterRegularExpression().pattern().isEmpty();
}

bool FindingsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_presentOn && m_findings) {
        const int finding = m_findings->findingAt(m_findings->index(sourceRow, 0, sourceParent));
        const int ranks = m_findings->comparison()->findings()[size_t(finding)].ranksWithSite;
        if (ranks < m_presentOn->first || ranks > m_presentOn->second)
            return false;
    }
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
