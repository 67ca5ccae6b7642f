// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include "translatedtablemodel.h"

namespace RankScope {

/// The findings of a comparison as a table, largest excess first: what each rank holds beyond its baseline, where.
class FindingsModel : public TranslatedTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        SiteColumn, ///< first: which line of code is what a user looks for
        RankColumn,
        KindColumn,
        /// What the memory is for (parameters, activations …).
        CategoryColumn,
        ExcessColumn,
        RankBytesColumn,
        BaselineBytesColumn,
        CountColumn,
        BaselineCountColumn,
        RunsColumn,
        NUM_COLUMNS
    };
    enum Roles
    {
        SortRole = Qt::UserRole,
        /// The finding's stack, one "file:line name" per frame, innermost first.
        StackRole,
        /// The index of the finding in Comparison::findings().
        FindingIndexRole,
    };

    explicit FindingsModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Shows a comparison's findings (nullptr: none).
    void setComparison(ComparisonPtr comparison);
    const ComparisonPtr& comparison() const
    {
        return m_comparison;
    }

private:
    ComparisonPtr m_comparison;
};

} // namespace RankScope
