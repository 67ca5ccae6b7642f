// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QObject>

class QWidget;

namespace RankScope {

class BlockMapView;
class TimelineView;

/// Ranks A and B of a comparison side by side: their timelines on one shared axis and memory scale, and their block
/// maps at the comparison point, with a finding marked in all of them. The main window and the export page both
/// show ranks through it, so both draw the same. It owns the views' state, not their places: each host puts the
/// views in its own layout (resizable splitters in the window, fixed proportions on an exported page, whose
/// pictures must not move by a pixel when the window's layout changes).
class RankPair : public QObject
{
    Q_OBJECT
public:
    enum Part
    {
        Timelines = 1,
        BlockMaps = 2,
        Both = Timelines | BlockMaps,
    };
    /// Makes the views of `parts`, as children of `viewParent` until a host lays them out.
    RankPair(Part parts, QWidget* viewParent);

    /// nullptr when this pair has no timelines.
    TimelineView* timelines() const
    {
        return m_timelines;
    }
    /// Side 0 is A, 1 is B; nullptr when this pair has no block maps.
    BlockMapView* blockMap(int side) const
    {
        return side == 0 ? m_mapA : m_mapB;
    }

    /// Shows ranks A and B of `comparison` (B may be -1) at their comparison points; nothing when A is not a rank of
    /// it. Any marked finding is cleared.
    void showRanks(const ComparisonPtr& comparison, int rankA, int rankB);
    /// Marks finding `finding` of the shown comparison (-1: none): its site lit everywhere, its address runs outlined
    /// on the block map of the rank that holds them.
    void markFinding(int finding);
    void clear();
    /// True while a view still replays or lays out its data.
    bool isBusy() const;

signals:
    /// A block of A's (side 0) or B's (side 1) map was clicked.
    void blockClicked(int side, uint64_t address, StackId stack);

private:
    TimelineView* m_timelines = nullptr;
    BlockMapView* m_mapA = nullptr;
    BlockMapView* m_mapB = nullptr;
    ComparisonPtr m_comparison;
    int m_rankA = -1;
    int m_rankB = -1;
};

} // namespace RankScope
