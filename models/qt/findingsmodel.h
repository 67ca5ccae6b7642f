// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include "translatedtablemodel.h"

#include <QRegularExpression>

#include <vector>

namespace RankScope {

/// The findings of a comparison as a table, largest excess first: what each rank holds beyond its baseline, where.
/// Grouped (setGrouped), the findings of several ranks alike (AlikeRanks) are one row with their ranks, the figures
/// of the largest, and the others as its children, so a view lists what differs rather than every rank.
class FindingsModel : public TranslatedTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        SiteColumn, ///< first: which line of code is what a user looks for
        RankColumn,
        /// "k of N": how many of the compared ranks allocate at the finding's site (Finding::ranksWithSite).
        RanksColumn,
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
        /// The ranks of the finding's group of findings alike ("0–31"), its own rank where it has none.
        AlikeRanksRole,
    };

    explicit FindingsModel(QObject* parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex& index) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
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
    /// One row for each group of findings alike, its other findings as children (false: a row per finding).
    void setGrouped(bool grouped);
    bool grouped() const
    {
        return m_grouped;
    }
    /// The index into Comparison::findings() of a row (FindingIndexRole), -1 for none.
    int findingAt(const QModelIndex& index) const;
    /// The row of a finding: top-level where it leads its group (or ungrouped), else under its group's row.
    QModelIndex indexOf(size_t finding, int column = 0) const;

    /// A frame of a finding's stack that a search found.
    struct FrameMatch
    {
        /// Its place in the stack searched, innermost first; -1 when no frame matched.
        int depth = -1;
        /// The frame as the stack pane shows it: "function  file:line  (folder)".
        QString text;
        /// "function (file:line)" without the folder: short enough to follow a site's label in its cell.
        QString brief;
    };
    /// The innermost frame of finding `row`'s (an index into Comparison::findings()) recorded stack (every frame, C++
    /// and library ones too) whose "path:line function" `pattern` matches; the site's kept frames where the rank's
    /// snapshot is not at hand.
    FrameMatch matchFrame(int row, const QRegularExpression& pattern) const;

private:
    ComparisonPtr m_comparison;
    bool m_grouped = false;
    // Each finding's frames as matchFrame searches them, made on the first search: a filter runs at every keystroke.
    mutable std::vector<QStringList> m_frameTexts;
};

} // namespace RankScope
