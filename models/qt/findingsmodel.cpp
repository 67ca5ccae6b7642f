// SPDX-License-Identifier: MIT
#include "findingsmodel.h"

#include "alikeranks.h"
#include "formatting.h"
#include "stacktext.h"
#include "verdicttext.h"

#include <algorithm>

namespace RankScope {

FindingsModel::FindingsModel(QObject* parent)
    : TranslatedTableModel(parent)
{ }

// Internal ids: 0 for a top-level row, g + 1 for a child of group g's row.
QModelIndex FindingsModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, parent.isValid() ? quintptr(parent.row()) + 1 : quintptr(0));
}

QModelIndex FindingsModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

QModelIndex FindingsModel::sibling(int row, int column, const QModelIndex& index) const
{
    return this->index(row, column, parent(index));
}

bool FindingsModel::hasChildren(const QModelIndex& parent) const
{
    return rowCount(parent) > 0;
}

Qt::ItemFlags FindingsModel::flags(const QModelIndex& index) const
{
    // A table's rows never have children; a group's row has its other ranks (a view would not open it).
    const Qt::ItemFlags flags = TranslatedTableModel::flags(index);
    return m_grouped && index.isValid() && index.internalId() == 0 ? flags & ~Qt::ItemNeverHasChildren : flags;
}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    if (!m_comparison)
        return 0;
    if (!parent.isValid())
        return int(m_grouped ? m_comparison->alike().findingGroups.size() : m_comparison->findings().size());
    if (!m_grouped || parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return int(m_comparison->alike().findingGroups[size_t(parent.row())].members.size()) - 1;
}

int FindingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() && (!m_grouped || parent.internalId() != 0) ? 0 : NUM_COLUMNS;
}

int FindingsModel::findingAt(const QModelIndex& index) const
{
    if (!m_comparison || !index.isValid() || index.model() != this)
        return -1;
    if (!m_grouped)
        return index.row();
    const std::vector<AlikeRanks::Group>& groups = m_comparison->alike().findingGroups;
    if (index.internalId() == 0)
        return int(groups[size_t(index.row())].first());
    return int(groups[size_t(index.internalId() - 1)].members[size_t(index.row()) + 1]);
}

QModelIndex FindingsModel::indexOf(size_t finding, int column) const
{
    if (!m_comparison || finding >= m_comparison->findings().size())
        return {};
    if (!m_grouped)
        return index(int(finding), column);
    const AlikeRanks& alike = m_comparison->alike();
    const size_t group = alike.findingGroupOf[finding];
    const std::vector<size_t>& members = alike.findingGroups[group].members;
    const auto at = size_t(std::find(members.begin(), members.end(), finding) - members.begin());
    return at == 0 ? index(int(group), column) : index(int(at) - 1, column, index(int(group), 0));
}

void FindingsModel::setGrouped(bool grouped)
{
    if (grouped == m_grouped)
        return;
    beginResetModel();
    m_grouped = grouped;
    endResetModel();
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case RankColumn:
            return tr("Rank");
        case RanksColumn:
            return tr("Ranks");
        case KindColumn:
            return tr("Kind");
        case CategoryColumn:
            return tr("Category");
        case ExcessColumn:
            return tr("Excess");
        case RankBytesColumn:
            return tr("On rank");
        case BaselineBytesColumn:
            return tr("Baseline");
        case CountColumn:
            return tr("Allocations");
        case BaselineCountColumn:
            return tr("Baseline allocations");
        case RunsColumn:
            return tr("Runs");
        case SiteColumn:
            return tr("Site");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case RanksColumn:
            return tr("How many of the compared ranks allocate at this site: 1 of 8 is on one rank only, 7 of 8 on "
                      "all but one. Filter with on:K or on:K-M, as --present-on takes it");
        case KindColumn:
            return tr(
                "Only on this rank: no other rank allocates at this site (extra work). More or larger: every rank "
                "does, this one holds more or bigger tensors there (uneven input). Grows every step: more than at the "
                "same moment of the step before, at every step (tensors kept across steps).");
        case CategoryColumn:
            return tr("What most of the rank's memory at this site is for, from its stacks and lifetimes: parameters, "
                      "gradients, optimizer state, activations, temporaries or other (outside the training step)");
        case ExcessColumn:
            return tr("Bytes this rank holds at the site beyond its baseline, at the comparison point");
        case BaselineBytesColumn:
            return tr("The median over the other ranks at this site, or the chosen baseline rank's bytes");
        case RunsColumn:
            return tr("Address ranges of the extra blocks, adjacent blocks of one segment merged");
        case SiteColumn:
            return tr("Where the memory was allocated: the innermost frames of your own code, else of the package or "
                      "torch code that allocated it; hover a site for its stack, your frames first");
        default:
            break;
        }
    } else if (role == Qt::TextAlignmentRole && section != KindColumn && section != CategoryColumn
        && section != SiteColumn) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int finding = findingAt(index);
    const Finding& f = m_comparison->findings()[size_t(finding)];
    const int column = index.column();
    const AlikeRanks::Group& group =
        m_comparison->alike().findingGroups[m_comparison->alike().findingGroupOf[size_t(finding)]];
    // A group's row says its ranks: its children are the others of them.
    const bool groupRow = m_grouped && index.internalId() == 0 && group.members.size() > 1;
    if (role == FindingIndexRole)
        return finding;
    if (role == AlikeRanksRole) {
        std::vector<int> ranks;
        for (size_t i : group.members)
            ranks.push_back(m_comparison->findings()[i].rank);
        return Formatting::ranks(ranks);
    }
    if (role == StackRole)
        return QStringList(StackText::lines(StackText::siteFrames(m_comparison->sites(), f.site)).lines);
    if (role == Qt::TextAlignmentRole && column != KindColumn && column != CategoryColumn && column != SiteColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (column) {
        case RankColumn:
            return f.rank;
        case RanksColumn:
            return f.ranksWithSite;
        case KindColumn:
            return int(f.kind);
        case CategoryColumn:
            return int(f.category);
        case ExcessColumn:
            return qint64(f.excessBytes);
        case RankBytesColumn:
            return qint64(f.rankBytes);
        case BaselineBytesColumn:
            return qint64(f.baselineBytes);
        case CountColumn:
            return qint64(f.rankCount);
        case BaselineCountColumn:
            return qint64(f.baselineCount);
        case RunsColumn:
            return qint64(f.runs.size());
        case SiteColumn:
            return QString::fromStdString(m_comparison->sites().label(f.site));
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        // Sizes and kinds are formatted; counts, ranks and the site read the same as they sort.
        switch (column) {
        case RankColumn:
            if (groupRow)
                return tr("%1 (%n alike)", nullptr, int(group.members.size()))
                    .arg(data(index, AlikeRanksRole).toString());
            // Where ranks use several GPUs (or each its own number), which one the allocations are on.
            if (m_comparison->namesDevices())
                return tr("%1 · cuda:%2").arg(f.rank).arg(f.device);
            return f.rank;
        case RanksColumn:
            return tr("%1 of %2").arg(f.ranksWithSite).arg(qsizetype(m_comparison->ranks().size()));
        case SiteColumn:
            // "<no stack recorded>" and the like in the user's language; the sort keeps the label as recorded.
            return VerdictText::siteLabel(m_comparison->sites().label(f.site), VerdictText::Translated);
        case KindColumn:
            return VerdictText::findingKind(f.kind, VerdictText::Translated);
        case CategoryColumn:
            return VerdictText::category(f.category, VerdictText::Translated);
        case ExcessColumn:
            return QString(QLatin1Char('+') + Formatting::bytes(f.excessBytes));
        case RankBytesColumn:
            return Formatting::bytes(f.rankBytes);
        case BaselineBytesColumn:
            return Formatting::bytes(f.baselineBytes);
        default:
            return data(index, SortRole);
        }
    }
    if (role == Qt::ToolTipRole) {
        if (column >= ExcessColumn && column <= BaselineBytesColumn)
            return Formatting::bytesExact(data(index, SortRole).toLongLong());
        if (column == SiteColumn)
            return data(index, StackRole).toStringList().join(QLatin1Char('\n'));
        if (column == RankColumn && groupRow)
            return tr("Ranks %1 hold alike at this site (within the threshold): the figures are rank %2's, the "
                      "largest; expand the row for each rank")
                .arg(data(index, AlikeRanksRole).toString())
                .arg(f.rank);
    }
    return {};
}

void FindingsModel::setComparison(ComparisonPtr comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    m_frameTexts.assign(m_comparison ? m_comparison->findings().size() : 0, {});
    endResetModel();
}

namespace {

// The frames a finding's search looks at: one of its stacks as the rank recorded it, or its site's kept frames.
std::vector<StackText::Frame> searchedFrames(const Comparison& c, const Finding& f)
{
    const int rank = c.rankIndex(f.rank);
    if (rank >= 0 && f.stack != EmptyStack)
        return StackText::stackFrames(c.history(size_t(rank)).snapshot(), f.stack, false).frames;
    return StackText::siteFrames(c.sites(), f.site).frames;
}

} // namespace

FindingsModel::FrameMatch FindingsModel::matchFrame(int row, const QRegularExpression& pattern) const
{
    if (!m_comparison || row < 0 || size_t(row) >= m_frameTexts.size() || pattern.pattern().isEmpty())
        return {};
    const Finding& f = m_comparison->findings()[size_t(row)];
    QStringList& texts = m_frameTexts[size_t(row)];
    if (texts.isEmpty()) {
        // The whole path, so that a folder ("metrics/") or "file.py:88" finds the frame as well as a function does.
        for (const StackText::Frame& frame : searchedFrames(*m_comparison, f))
            texts.append(QStringLiteral("%1:%2 %3")
                             .arg(Formatting::text(frame.file))
                             .arg(frame.line)
                             .arg(Formatting::text(frame.name)));
    }
    for (qsizetype i = 0; i < texts.size(); ++i) {
        if (pattern.match(texts[i]).hasMatch()) {
            const StackText::Frame frame = searchedFrames(*m_comparison, f)[size_t(i)];
            const QString file = Formatting::text(frame.file);
            const qsizetype slash = std::max(file.lastIndexOf(QLatin1Char('/')), file.lastIndexOf(QLatin1Char('\\')));
            return { int(i), StackText::lines(StackText::Frames { { frame } }).lines.value(0),
                QStringLiteral("%1 (%2:%3)").arg(Formatting::text(frame.name), file.mid(slash + 1)).arg(frame.line) };
        }
    }
    return {};
}

} // namespace RankScope
