// SPDX-License-Identifier: MIT
#include "whatifmodel.h"

#include "formatting.h"
#include "verdicttext.h"

namespace RankScope {

WhatIfModel::WhatIfModel(QObject* parent)
    : TranslatedTableModel(parent)
{ }

void WhatIfModel::setHoldings(ComparisonPtr comparison, RankHoldings holdings)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    m_holdings = m_comparison ? std::move(holdings) : RankHoldings {};
    endResetModel();
}

int WhatIfModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_comparison ? 0 : int(m_holdings.whatIf.size());
}

int WhatIfModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

int64_t WhatIfModel::held(const WhatIf::Result& row) const
{
    const Composition& c = m_holdings.composition;
    if (row.without.kind == WhatIf::Candidate::CategoryOf)
        return c.categoryBytes[size_t(row.without.category)];
    for (const Holding& h : c.sites) {
        if (h.site == row.without.site)
            return h.bytes;
    }
    return 0;
}

QVariant WhatIfModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const WhatIf::Result& row = m_holdings.whatIf[size_t(index.row())];
    const bool site = row.without.kind == WhatIf::Candidate::Site;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case WithoutColumn: {
            const QString without = site
                ? VerdictText::siteLabel(m_comparison->sites().label(row.without.site), VerdictText::Translated)
                : tr("every allocation of %1")
                      .arg(VerdictText::category(row.without.category, VerdictText::Translated));
            return row.withRequest ? tr("%1, and the failed request").arg(without) : without;
        }
        case HeldColumn:
            return Formatting::bytes(held(row));
        case PeakColumn:
            // Within what the GPU offered at the OOM: that change alone would have fit.
            return m_holdings.fits(row.peakBytes) ? QStringLiteral("\u2713 ") + Formatting::bytes(row.peakBytes)
                                                  : Formatting::bytes(row.peakBytes);
        case SavedColumn:
            // The column says it is saved: a plain amount (a minus sign read as the peak growing).
            return Formatting::bytes(row.savedBytes);
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case WithoutColumn:
            return index.row(); // sites largest first, then the categories, as computed
        case HeldColumn:
            return qint64(held(row));
        case PeakColumn:
            return qint64(row.peakBytes);
        case SavedColumn:
            return qint64(row.savedBytes);
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == WithoutColumn && site)
            return VerdictText::siteLabel(m_comparison->sites().label(row.without.site, 12), VerdictText::Translated)
                .replace(QStringLiteral(" \u2190 "), QStringLiteral("\n\u2190 "));
        if (index.column() == PeakColumn && m_holdings.fitLimitBytes > 0)
            return tr("The highest total over the trace had these allocations not been made (%1 with them); ✓: "
                      "within the %2 of the %3 the GPU offered at the OOM (PyTorch's reserve and the free memory) "
                      "that were not stranded in the reserve")
                .arg(Formatting::bytes(m_holdings.peakBytes), Formatting::bytes(m_holdings.fitLimitBytes),
                    Formatting::bytes(m_holdings.margin.offeredBytes));
        if (index.column() == PeakColumn)
            return tr("The highest total over the trace had these allocations not been made (%1 with them)")
                .arg(Formatting::bytes(m_holdings.peakBytes));
        if (index.column() == SavedColumn && row.withRequest)
            return tr("The failed request goes with these allocations: what is saved counts it too");
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == WithoutColumn ? QVariant() : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant WhatIfModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case WithoutColumn:
            return tr("Without");
        case HeldColumn:
            return tr("Held there");
        case PeakColumn:
            return tr("Peak without");
        case SavedColumn:
            return tr("Saved");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case WithoutColumn:
            return tr("A site (the largest at the moment looked at) or a category left out of the replay");
        case HeldColumn:
            return tr("What the rank holds there at the moment looked at");
        case PeakColumn:
            return tr("The rank's peak with the trace replayed without these allocations (a failed request counts "
                      "as allocated at its OOM)");
        case SavedColumn:
            return tr("How much lower that peak is");
        }
    }
    return {};
}

} // namespace RankScope
