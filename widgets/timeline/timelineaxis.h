// SPDX-License-Identifier: MIT
#pragma once

#include "timelineview.h"

namespace RankScope {

/// One track's x axis: where an event of its trace is on the axis the timelines use (its index, seconds since the
/// rank's first event, profiler steps stretched to one unit each, or the top track's trace by TraceAlignment), and
/// which event is at a key. Copied into detail jobs, so it holds what it needs by value.
class TimelineAxis
{
public:
    /// `anchors`: on the aligned axis, where the track's events are in the top track's trace (none for the top one).
    TimelineAxis(TimelineView::XAxis axis, DeviceHistoryPtr history, TimelineView::Anchors anchors = {});

    const DeviceHistoryPtr& history() const
    {
        return m_history;
    }
    /// The x key of an event.
    double key(EventIndex event) const;
    /// The last event at or before a key.
    EventIndex eventAt(double key) const;

    /// The profiler steps of `history` that started in its trace, by start event: (start event, step number).
    static std::vector<std::pair<EventIndex, int64_t>> steps(const DeviceHistory& history);
    /// For the aligned axis, per track: where its events are in the top track's trace, at 512 moments (none for the
    /// top track, and none at all for fewer than two tracks). `site` is the comparison's.
    static std::vector<TimelineView::Anchors> align(const std::vector<TimelineTrack>& tracks, const SiteOptions& site);

private:
    double alignedKey(EventIndex event) const;

    TimelineView::XAxis m_axis;
    DeviceHistoryPtr m_history;
    /// Step axis: the event after which each profiler step starts, then the last event; and the first step's number.
    std::vector<EventIndex> m_stepBounds;
    int64_t m_firstStep = 0;
    /// Aligned axis: (event of the top track, event of this one) pairs, increasing in both.
    TimelineView::Anchors m_aligned;
};

} // namespace RankScope
