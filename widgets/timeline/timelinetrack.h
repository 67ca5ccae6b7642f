// SPDX-License-Identifier: MIT
#pragma once

#include "annotationranges.h"
#include "timelineaxis.h"
#include "timelinedetail.h"
#include "timelineview.h"

#include <optional>
#include <vector>

class QCPAxisRect;
class QCPTextElement;

namespace RankScope {

class TimelineBands;

/// What the view keeps of each track it shows: its axis, its plot, and what that plot draws.
struct TimelineView::Track
{
    explicit Track(TimelineAxis axis)
        : axis(std::move(axis))
    { }
    TimelineAxis axis;
    QCPAxisRect* rect = nullptr;
    QCPTextElement* title = nullptr;
    TimelineBands* bands = nullptr;
    std::optional<TimelineDetail> detail;
    /// The detail `detail` replaced: the next detail job writes into its run arrays (tens of MB for a long trace),
    /// whose pages are in already, instead of faulting in fresh ones on every zoom.
    TimelineDetail recycled;
    /// What `detail` was computed for, or is being computed for while a job runs.
    std::optional<TimelineDetail::Request> requested;
    std::optional<uint32_t> selected;
    /// The annotated ranges in their rows, laid out once per track: only their pixels change with the zoom.
    std::vector<AnnotationRanges::Placed> ranges;
};

} // namespace RankScope
