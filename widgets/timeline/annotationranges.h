// SPDX-License-Identifier: MIT
#pragma once

#include "devicehistory.h"

#include <QString>

#include <functional>
#include <utility>
#include <vector>

namespace RankScope {

/// The annotated ranges of a timeline: every START/END annotation span that is not a profiler step (other
/// `record_function` scopes, NCCL collectives), drawn as a named strip from its start to its end in a few rows near the
/// top of a plot, under its title. Only steps get a line across the plot: a training job's trace holds thousands of
/// collectives, and as lines they would all look like steps. Laid out here, apart from the drawing, so the layout can
/// be tested.
namespace AnnotationRanges {

/// Rows a plot gives the ranges; ranges nested deeper share the last one.
constexpr int MaxRows = 3;
/// Strips narrower than this many pixels are drawn as a line, and merge with their neighbours in the same column.
constexpr double MinWidth = 2;

/// The name a span was recorded with: a range's, or a profiler step's (ProfilerStep#3).
QString name(const DeviceHistory& history, const AnnotationSpan& span);
/// Whether `span` is drawn as a range: it is no profiler step, and the trace has the times that place it.
bool isRange(const DeviceHistory& history, const AnnotationSpan& span);
/// Whether `history` has any span drawn as a range.
bool any(const DeviceHistory& history);
/// The events a range covers, [first, end): from its start event (BeforeTrace without a START) to the event after
/// its end event (the end of the trace without an END), as the bands of those events are drawn.
std::pair<EventIndex, EventIndex> extent(const DeviceHistory& history, const AnnotationSpan& span);

/// A range and its row.
struct Placed
{
    /// Index into DeviceHistory::annotations().
    uint32_t span = 0;
    int row = 0;
};
/// Every range of `history` in rows by time: a range takes the first row free when it starts, so nested and
/// overlapping ranges go a row down, and those deeper than `maxRows` share the last row. In order of start (ranges
/// without a START first), an enclosing range before those it encloses.
std::vector<Placed> place(const DeviceHistory& history, int maxRows = MaxRows);

/// One strip to draw: a range, or ranges of one row that fall in one pixel column, merged.
struct Strip
{
    /// The first range it stands for (index into DeviceHistory::annotations()), and how many.
    uint32_t span = 0;
    int count = 1;
    /// Whether every range of it has the first one's name.
    bool oneName = true;
    /// Whether every range of it is narrower than MinWidth.
    bool narrow = false;
    int row = 0;
    /// Pixels, clipped to [left, right] of the plot.
    double left = 0;
    double right = 0;
};
/// The strips of `placed` that show between pixels `left` and `right`, `x` placing an event on the plot. A range
/// narrower than MinWidth merges with the strip before it in its row when it starts less than a pixel after that
/// strip's end and that strip is narrow too or has its name; so however many ranges a trace holds, a row has a strip
/// per pixel column at most. In order of row, then of start.
std::vector<Strip> layout(const DeviceHistory& history, const std::vector<Placed>& placed,
    const std::function<double(EventIndex)>& x, double left, double right);

} // namespace AnnotationRanges
} // namespace RankScope
