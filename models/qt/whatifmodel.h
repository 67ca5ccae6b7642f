// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include "translatedtablemodel.h"

namespace RankScope {

/// What a rank's peak would have been had some of its allocations not been made (RankHoldings::whatIf), one row per
/// site or category left out: what it holds at the moment looked at, the peak without it and what that saves.
class WhatIfModel : public TranslatedTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        WithoutColumn,
        HeldColumn,
        PeakColumn,
        SavedColumn,
        NUM_COLUMNS
    };
    enum Roles
    {
        SortRole = Qt::UserRole,
    };

    explicit WhatIfModel(QObject* parent = nullptr);

    /// Shows `holdings` of a rank of `comparison` (nullptr: nothing).
    void setHoldings(ComparisonPtr comparison, RankHoldings holdings);
    const RankHoldings& holdings() const
    {
        return m_holdings;
    }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // What the rank holds of a row's site or category at the moment looked at.
    int64_t held(const WhatIf::Result& row) const;

    ComparisonPtr m_comparison;
    RankHoldings m_holdings;
};

} // namespace RankScope
