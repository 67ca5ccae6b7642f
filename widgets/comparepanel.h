// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QSettings;

namespace RankScope {

class BlockMapView;
class RankPair;
class TimelineView;

/// Ranks A and B of the comparison side by side: their timelines (the panel itself) and block maps (RankPair), and the
/// bar that chooses them, the point they are compared at and, for a folder of several training steps, the step. The
/// panel owns which ranks are A and B and what its views show; clicks on them come out resolved to a rank and its
/// history. Two parts are widgets of their own for the window to place: the bar (in the menu bar's corner it costs
/// the timelines no row) and the block maps (in the window's splitter between the timelines and the findings, so the
/// user sizes the three against each other).
class ComparePanel : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePanel(QWidget* parent = nullptr);
    ~ComparePanel() override;

    /// Step, point, ranks A and B; made without a parent, for the window to place.
    QWidget* bar() const
    {
        return m_bar;
    }
    /// The block maps of A and B side by side; made without a parent, for the window to place.
    QWidget* blockMaps() const
    {
        return m_maps;
    }
    TimelineView* timelines() const;
    /// Side 0 is A, 1 is B.
    BlockMapView* blockMap(int side) const;

    /// Shows `comparison` (nullptr: none, and no ranks): ranks A and B as chosen where they are still compared, else
    /// its default pair, and the points it can be compared at.
    void showComparison(const ComparisonPtr& comparison);
    /// Ranks shown as A and B (-1: none).
    int rankA() const
    {
        return m_rankA;
    }
    int rankB() const
    {
        return m_rankB;
    }
    void setRanks(int a, int b);
    /// Shows a compared `rank` as A (side 0) or B (side 1); the other side keeps its rank unless it is the same one.
    void pickRank(int rank, int side);
    void swapRanks();
    /// Shows `rank` as A, B kept, unless A or B is that rank already; true when the ranks changed.
    bool bringIn(int rank);
    /// Marks finding `finding` of the comparison on the timelines and block maps (-1: none).
    void markFinding(int finding);
    /// True while a view still replays or lays out its data.
    bool isBusy() const;

    /// A new job: no ranks until it is compared; the training steps of the opened folder in the step box (none: a job
    /// of one step, no box), `step` chosen.
    void startJob(const std::vector<int64_t>& steps, int64_t step);
    /// Forgets what belonged to the closed job: its points, the words for its own moment, and the point chosen for it,
    /// back to aligned. Returns that point's words, empty when it was aligned already.
    QString closeJob();
    /// The point to compare at, from the point box.
    void readOptions(ComparisonOptions& options) const;
    /// The point box's words for the point compared at.
    QString pointText() const;
    /// The point box's words for the job's own moment (its latest comparison at no named point), empty before one.
    QString jobPointText() const
    {
        return m_alignedPointText;
    }
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

signals:
    /// The user (or setRanks) chose other ranks; not for a comparison's default pair.
    void ranksChanged(int rankA, int rankB);
    /// The user chose another point in the box.
    void pointChosen();
    /// The user picked an event on a timeline, now the point in the box: compare there now.
    void pointPicked();
    /// The user chose another training step of the job.
    void stepChosen(int64_t step);
    void allocationClicked(const DeviceHistoryPtr& history, int rank, uint32_t allocation);
    /// The `oom`-th OOM marker of a rank's timeline was clicked.
    void oomClicked(const DeviceHistoryPtr& history, int rank, size_t oom);
    void blockClicked(const DeviceHistoryPtr& history, int rank, uint64_t address, StackId stack);

protected:
    void changeEvent(QEvent* event) override;

private:
    int rankIndexOf(int rank) const;
    void chooseDefaultRanks();
    void fillRankCombos();
    void fillPointCombo();
    void pickPoint(int track, EventIndex event);
    /// Lays the bar out again after its boxes grew with their items.
    void refitBar();

    RankPair* m_pair = nullptr;
    QPointer<QWidget> m_bar;
    QPointer<QWidget> m_maps;
    QComboBox* m_pointCombo = nullptr;
    QComboBox* m_aCombo = nullptr;
    QComboBox* m_bCombo = nullptr;
    /// The training step whose snapshots are shown, when the opened folder holds several (iteration_<N>/ …).
    QComboBox* m_stepCombo = nullptr;
    QLabel* m_stepLabel = nullptr;
    ComparisonPtr m_comparison;
    int m_rankA = -1;
    int m_rankB = -1;
    /// The point box's words for the job's own moment, from its last comparison at no named point: a picked point or
    /// another point box choice is compared at that point, which says nothing of where "aligned" would look.
    QString m_alignedPointText;
    // Set while the panel itself changes its boxes, so their signals do not count as the user's choice.
    bool m_updating = false;
};

} // namespace RankScope
