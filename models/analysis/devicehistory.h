// SPDX-License-Identifier: MIT
#pragma once

#include "allocatorstate.h"
#include "bigallocator.h"
#include "snapshot.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace RankScope {

/// Event indices of one device's trace. `BeforeTrace` is the state before the first event.
using EventIndex = int64_t;
constexpr EventIndex BeforeTrace = -1;

/// One allocation of the Active Memory Timeline: from its alloc (or from before the trace) to its free_completed
/// (or the end of the trace).
struct Allocation
{
    static constexpr uint32_t NoEvent = 0xffffffffu;

    uint64_t addr = 0;
    /// Requested bytes: the alloc's `size`, or a ghost block's `requested_size`.
    int64_t size = 0;
    /// The alloc event, or NoEvent when the allocation existed before the trace began.
    uint32_t allocEvent = NoEvent;
    /// The free_completed event, or NoEvent when still live at the end.
    uint32_t freeEvent = NoEvent;
    StackId stack = EmptyStack;
    uint32_t streamIndex = 0;
    /// Index into DeviceHistory::pools(); 0 is the default pool (0, 0).
    uint32_t poolIndex = 0;
    /// Allocated before the trace began: freed without an alloc in the trace, or a live block with none (ghost).
    bool initial = false;
    /// A live block of the final snapshot with no alloc in the trace (the viewer's "ghost block").
    bool ghost = false;

    bool liveAfter(EventIndex event) const
    {
        const bool allocated = allocEvent == NoEvent || EventIndex(allocEvent) <= event;
        const bool freed = freeEvent != NoEvent && EventIndex(freeEvent) <= event;
        return allocated && !freed;
    }
    /// Live after some event of [first, last].
    bool liveDuring(EventIndex first, EventIndex last) const
    {
        const bool allocatedBy = allocEvent == NoEvent || EventIndex(allocEvent) <= last;
        const bool freedAfter = freeEvent == NoEvent || EventIndex(freeEvent) > first;
        return allocatedBy && freedAfter;
    }
};

/// A point on one device's timeline where the state can be looked at.
struct TimelinePoint
{
    enum Kind
    {
        Peak,
        Snapshot,
        Oom,
        Event,
        StepStart,
        StepEnd,
    };
    Kind kind = Peak;
    /// The state after this event (BeforeTrace: before the first).
    EventIndex event = BeforeTrace;

    /// Parses "peak", "snapshot" (or "end"), "oom", "event:<i>", "event:<i>@<rank>" (rank's event i, every other
    /// rank at the same moment of its own trace), "step:<N>" (= its start) or "step:<N>:end". Returns nullopt for
    /// text that is none of these.
    struct Spec
    {
        Kind kind = Peak;
        int64_t number = 0;
        /// For Event: the rank whose event it is, the others looked at at the same moment; -1: every rank's event.
        int rank = -1;
    };
    static std::optional<Spec> parse(const std::string& text);
    /// A moment inside the trace (an event or a step), as opposed to the peak, the snapshot or an OOM: the points a
    /// digest cannot show.
    static bool insideTrace(Kind kind)
    {
        return kind == Event || kind == StepStart || kind == StepEnd;
    }
};

/// An `oom` event: the allocation that failed and what the driver still had free.
struct OomMarker
{
    uint32_t event = 0;
    int64_t requestedBytes = 0;
    int64_t deviceFreeBytes = 0;
    /// Where the failed allocation was asked for.
    StackId stack = EmptyStack;
};

/// A `snapshot` event: `_snapshot()` ran here; `size` is the total active bytes at that moment.
struct SnapshotMarker
{
    uint32_t event = 0;
    int64_t activeBytes = 0;
};

/// A START/END annotation pair (`record_function` scopes such as `ProfilerStep#12`), mapped onto trace events by
/// time: `startEvent` is the last event before the scope began, `endEvent` the last one before it ended (either
/// may be BeforeTrace). An unmatched START or END has only its own side.
struct AnnotationSpan
{
    StringId name = EmptyString;
    int64_t startUs = 0;
    int64_t endUs = 0;
    EventIndex startEvent = BeforeTrace;
    EventIndex endEvent = BeforeTrace;
    bool hasStart = false;
    bool hasEnd = false;
};

/// The curve decimated for drawing a window of events at a given width, with every allocation at least a pixel tall
/// as a band of its own (as the official viewer draws each allocation as a polygon). Where smaller allocations add up
/// to much of the memory, they are bands too, down to the size that leaves at most 3 % of the columns to the
/// remainder: slivers of a pixel each, drawn where they are. Each column is sampled at its highest moment: bands
/// stack from the bottom in the viewer's order (allocations from before the trace first, then in allocation order)
/// and whatever else is live there is the remainder on top, so band tops plus the remainder meet the column's
/// maximum.
struct TimelineLod
{
    EventIndex first = 0;
    EventIndex last = 0;
    int columns = 0;
    /// The least size a band has (a pixel's worth, or less where small allocations add up): allocations smaller than
    /// this are in the remainder.
    int64_t minBandBytes = 0;
    std::vector<int64_t> minTotal; ///< per column
    std::vector<int64_t> maxTotal; ///< per column
    /// Indices into DeviceHistory::allocations(), bottom to top.
    std::vector<uint32_t> bands;
    /// Per band: the columns where it is drawn, [firstColumn, firstColumn + columnCount) (an allocation lives one
    /// stretch of time).
    std::vector<int> firstColumn;
    std::vector<int> columnCount;
    /// Per band, its bottom from the columns where it changes on: runs [runStart[k], runStart[k + 1]) of runColumn
    /// and runOffset, the first at firstColumn. Most bands move a few times over thousands of columns.
    std::vector<size_t> runStart;
    /// Millions of runs on a long trace (2.9 million, 35 MB, for the 1 GB rank's exported timeline), written in
    /// order. On 4 KiB pages: fresh huge pages took the export 0.15 s to fault in, where 4 KiB pages take a
    /// decimation 10 ms; a view's next decimation writes into the arrays of the one it replaced (lod()'s `recycled`),
    /// whose pages are in already.
    BigVector<int> runColumn;
    BigVector<int64_t> runOffset;
    /// Per column: the top of the bands, where the remainder starts.
    std::vector<int64_t> bandsTop;

    bool operator==(const TimelineLod&) const = default;

    /// The first event of a column: column c covers [columnBegin(c), columnBegin(c + 1)).
    EventIndex columnBegin(int column) const
    {
        return first + (last - first + 1) * column / columns;
    }
    /// The column holding `event` (clamped to the window).
    int columnOf(EventIndex event) const
    {
        const EventIndex e = std::clamp(event, first, last);
        int c = int(std::min<EventIndex>((e - first) * columns / (last - first + 1), columns - 1));
        while (c > 0 && columnBegin(c) > e)
            --c;
        while (c + 1 < columns && columnBegin(c + 1) <= e)
            ++c;
        return c;
    }
    /// The bottom of band `band` at `column`, or -1 where it is not drawn.
    int64_t offset(size_t band, int column) const
    {
        if (column < firstColumn[band] || column >= firstColumn[band] + columnCount[band])
            return -1;
        const auto begin = runColumn.begin() + ptrdiff_t(runStart[band]);
        const auto end = runColumn.begin() + ptrdiff_t(runStart[band + 1]);
        return runOffset[size_t(std::upper_bound(begin, end, column) - runColumn.begin()) - 1];
    }
    /// Bytes of a column in allocations too small for a band.
    int64_t remainder(int column) const
    {
        return maxTotal[size_t(column)] - bandsTop[size_t(column)];
    }
};

/// Replays one device's trace of a snapshot, as the official viewer's Active Memory Timeline and Allocator State
/// History do, and answers questions about any moment: the total curve and its peak, every allocation's interval,
/// the live set and the allocator's segments and blocks at any event, markers, statistics, and level-of-detail
/// data for drawing. Immutable after build; share it as std::shared_ptr<const DeviceHistory>.
class DeviceHistory
{
public:
    static std::shared_ptr<const DeviceHistory> build(SnapshotPtr snapshot, int device);
    /// The device a rank's snapshot is about: the one with the longest trace, else the most reserved memory.
    static int mainDevice(const Snapshot& snapshot);

    /// The peak of the timeline without building the history (for `info`): same figures as peakBytes(),
    /// peakEvent() and traceIncomplete().
    struct PeakSummary
    {
        int64_t peakBytes = 0;
        EventIndex peakEvent = BeforeTrace;
        bool traceIncomplete = false;
        int64_t oomEvents = 0; ///< counted on the same walk: `info` reads the trace once
    };
    static PeakSummary summarize(const Snapshot& snapshot, int device);
    /// summarize() with the trace walked in two halves, events [0, split) and the rest, on two threads: the same
    /// summary whatever the split (summarize() splits a long trace at its middle; a split at or past the end is one
    /// walk).
    static PeakSummary summarizeInHalves(const Snapshot& snapshot, int device, size_t split);

    const Snapshot& snapshot() const
    {
        return *m_snapshot;
    }
    int device() const
    {
        return m_device;
    }
    TraceView events() const
    {
        return m_events;
    }
    /// Per event, the total's change since before the first event: totalAfter(i) - initialTotal(), for walks over
    /// the whole curve.
    std::span<const int64_t> netAfter() const
    {
        return m_netAfter;
    }
    size_t eventCount() const
    {
        return m_events.size();
    }

    /// Total requested bytes of live allocations before the first event.
    int64_t initialTotal() const
    {
        return m_initialTotal;
    }
    /// Total after event i (the viewer's curve, one value per trace event).
    int64_t totalAfter(EventIndex event) const
    {
        return event < 0 ? m_initialTotal : m_initialTotal + m_netAfter[size_t(event)];
    }
    /// The maximum of the curve, equal to the viewer's max(max_at_time).
    int64_t peakBytes() const
    {
        return m_peakBytes;
    }
    /// The event after which the peak is first reached, or BeforeTrace when it is the initial state.
    EventIndex peakEvent() const
    {
        return m_peakEvent;
    }
    /// Reserved bytes (sum of segments) after event i, from segment events replayed back from the snapshot.
    int64_t reservedAfter(EventIndex event) const
    {
        const auto after = std::upper_bound(m_reservedSteps.begin(), m_reservedSteps.end(), event,
            [](EventIndex e, const std::pair<EventIndex, int64_t>& step) { return e < step.first; });
        return m_initialReserved + (after == m_reservedSteps.begin() ? 0 : std::prev(after)->second);
    }
    int64_t peakReservedBytes() const
    {
        return m_peakReserved;
    }
    /// Epoch microseconds of event i, 0 when the writer recorded none.
    int64_t timeUs(EventIndex event) const
    {
        return event < 0 || !m_times || size_t(event) >= m_times->size() ? 0 : (*m_times)[size_t(event)];
    }
    bool hasTimes() const
    {
        return m_hasTimes;
    }

    /// Allocations in order of their alloc event, then those from before the trace (Allocation::initial).
    std::span<const Allocation> allocations() const
    {
        return m_allocations;
    }
    /// Indices of the allocations live after `event`.
    std::vector<uint32_t> liveSet(EventIndex event) const;

    const std::vector<OomMarker>& ooms() const
    {
        return m_ooms;
    }
    const std::vector<SnapshotMarker>& snapshotMarkers() const
    {
        return m_snapshotMarkers;
    }
    const std::vector<AnnotationSpan>& annotations() const
    {
        return m_annotations;
    }
    /// True when the trace frees blocks it never allocated: recording started late or the ring buffer wrapped, so
    /// the start of the curve misses what was allocated before.
    bool traceIncomplete() const
    {
        return m_traceIncomplete;
    }
    /// The alloc entry's `compile_context`, `user_metadata` and category; the empty context for an allocation made
    /// before the trace began.
    const EntryContext& contextOf(const Allocation& a) const
    {
        return a.allocEvent == Allocation::NoEvent ? m_snapshot->entryContexts.front()
                                                   : m_snapshot->context(m_events[a.allocEvent]);
    }
    /// (first, second) of `segment_pool_id` for Allocation::poolIndex.
    const std::vector<std::pair<int64_t, int64_t>>& pools() const
    {
        return m_pools;
    }

    /// Resolves a point; nullopt when this device has no such point (no OOM, no such step, event out of range).
    std::optional<TimelinePoint> point(const TimelinePoint::Spec& spec) const;
    /// The allocator's segments and blocks after `event`, undoing events from the final snapshot backwards.
    AllocatorState stateAt(EventIndex event) const
    {
        return stateAt(*m_snapshot, m_device, event);
    }
    /// The same without a history: it needs only the snapshot's trace of the device.
    static AllocatorState stateAt(const Snapshot& snapshot, int device, EventIndex event);
    /// Only the segments after `event` (cheap: block events are skipped).
    std::vector<StateSegment> segmentsAt(EventIndex event) const;

    /// Level of detail for drawing events [first, last] in `columns` pixel columns where a pixel is `pixelBytes`
    /// tall: every allocation of at least a pixel is a band, smaller ones where they add up (see TimelineLod), the
    /// largest `maxBands` of them when there are more. The runs are written into `recycled`'s arrays (a decimation
    /// no longer drawn) where they are large enough: the result is the same.
    TimelineLod lod(EventIndex first, EventIndex last, int columns, int64_t pixelBytes, size_t maxBands,
        TimelineLod recycled = {}) const;

private:
    DeviceHistory() = default;
    void replay();
    void collectAnnotations();
    uint32_t poolOf(uint64_t address) const;

    SnapshotPtr m_snapshot;
    int m_device = 0;
    TraceView m_events;
    const TraceTimes* m_times = nullptr; ///< the events' times; none in a snapshot made by hand
    // Per event, the change of the total since before the first event. Written once in order and read in order
    // (a decimation reads a column's stretch): 4 KiB pages, as the parse's arrays. On huge pages, the replay of the
    // 1 GB rank waited 0.4 s for them to be faulted in.
    BigVector<int64_t> m_netAfter;
    // The events that change the reserved bytes (segments mapped and freed: at most 152 of 10,307 events in the real
    // files), each with the change since before the first event; a per-event array took as much memory as m_netAfter.
    std::vector<std::pair<EventIndex, int64_t>> m_reservedSteps;
    BigVector<Allocation> m_allocations;
    std::vector<OomMarker> m_ooms;
    std::vector<SnapshotMarker> m_snapshotMarkers;
    std::vector<AnnotationSpan> m_annotations;
    std::vector<std::pair<int64_t, int64_t>> m_pools;
    // Final segments of this device sorted by address, for pool lookups: (address, end, pool index).
    std::vector<std::tuple<uint64_t, uint64_t, uint32_t>> m_segmentRanges;
    int64_t m_initialTotal = 0;
    int64_t m_peakBytes = 0;
    EventIndex m_peakEvent = BeforeTrace;
    int64_t m_initialReserved = 0;
    int64_t m_peakReserved = 0;
    bool m_traceIncomplete = false;
    bool m_hasTimes = false;
};

using DeviceHistoryPtr = std::shared_ptr<const DeviceHistory>;

} // namespace RankScope
