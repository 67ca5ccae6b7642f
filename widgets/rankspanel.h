// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QWidget>

#include <functional>

class QLabel;
class QSortFilterProxyModel;
class QTreeView;

namespace RankScope {

class RankChart;
class RankListModel;
class StackPane;
class StepPeaksChart;

/// Every rank at a glance, the main window's left column: each rank's peak and point as bars (a click picks it as A,
/// Shift+click as B), its peak per training step for a folder of several steps, the rank table (loading progress,
/// figures, a failed file's reason) and, under them where the column has room at any size, the stack of what is
/// selected: a finding, an allocation or an OOM on a timeline, a block.
class RanksPanel : public QWidget
{
    Q_OBJECT
public:
    /// Shows `model`, which the job it belongs to fills.
    explicit RanksPanel(RankListModel* model, QWidget* parent = nullptr);

    QTreeView* table() const
    {
        return m_table;
    }
    StackPane* stackPane() const
    {
        return m_stackPane;
    }

    /// The table's columns for this comparison (coordinates with a layout, pinned host memory where recorded), fitted
    /// to the rows; nullptr: no comparison (the columns stay).
    void showComparison(const ComparisonPtr& comparison);
    /// Ranks A and B in the peaks per step.
    void showRanks(const ComparisonPtr& comparison, int rankA, int rankB);
    /// Fits the columns to the rows as they are now (a file has loaded or failed).
    void fitColumns();
    /// The width this column needs for every column of its table in sight (RankTableUtil::neededWidth).
    int neededWidth() const;
    /// The width this column needs for its table's key columns, the rank to the excess (RankTableUtil::keyWidth).
    int keyWidth() const;

    /// A finding's stack; `otherRank` is the shown rank it is compared with.
    void showFinding(const Comparison& comparison, size_t finding, int otherRank);
    /// The failed request of the `oom`-th OOM of a rank.
    void showOom(const DeviceHistoryPtr& history, int rank, size_t oom);
    void showAllocation(const DeviceHistoryPtr& history, int rank, uint32_t allocation);
    void showBlock(const DeviceHistoryPtr& history, int rank, uint64_t address, StackId stack);
    void clearStack();
    /// The rank whose out-of-memory, allocation or block the stack pane shows; -1 for a finding or nothing.
    int stackRank() const
    {
        return m_stackRank;
    }
    /// Whether that is an out-of-memory's failed request.
    bool stackShowsOom() const
    {
        return m_stackOom;
    }
    /// Ends the job's stack: the pane emptied, its modes (All frames, Native frames) back to the shown frames folded.
    void closeJob();

signals:
    /// The user picked `rank` as A (side 0) or B (side 1): on its bar, its row or the row's menu.
    void rankPicked(int rank, int side);
    /// Loading the file of the model's row `row` should stop.
    void cancelRequested(int row);

private:
    /// Shows `show`'s stack and keeps it to show again when the language changes.
    void reshowAs(std::function<void()> show);
    void showContextMenu(const QPoint& pos);
    void showColumnMenu(const QPoint& pos);
    /// The legend of the ⚠ on incomplete traces, while a row shows one, and the files that did not load with why.
    void updateLegend();

    RankListModel* m_model;
    QSortFilterProxyModel* m_proxy;
    RankChart* m_chart = nullptr;
    StepPeaksChart* m_stepPeaks = nullptr;
    QTreeView* m_table = nullptr;
    QLabel* m_incompleteLegend = nullptr;
    /// Which files did not load and why, under the table: a failed row's reason is under its name, in the last column,
    /// out of sight on a narrow window.
    QLabel* m_failedNote = nullptr;
    StackPane* m_stackPane = nullptr;
    /// How the stack pane's content was made, while it is an OOM's, an allocation's or a block's.
    std::function<void()> m_reshow;
    int m_stackRank = -1;
    bool m_stackOom = false;
    /// The comparison shown, for the ranks it compares.
    ComparisonPtr m_comparison;
};

} // namespace RankScope
