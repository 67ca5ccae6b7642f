// SPDX-License-Identifier: MIT
#include "devicehistory.h"

#include "profilerstep.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

namespace RankScope {

namespace {

bool parseNumber(std::string_view text, int64_t& value)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

// What a trace event tells about its block; an alloc's own, or a free's when the alloc was not recorded.
Allocation allocationOf(const TraceEntry& e)
{
    Allocation a;
    a.addr = e.addr;
    a.size = e.size;
    a.stack = e.stack;
    a.streamIndex = e.streamIndex;
    return a;
}

// The viewer's pairing (process_alloc_data): each alloc is matched with the next free_completed at its address; a
// free without an alloc, and a live block of the final snapshot without one ("ghost"), are memory from before the
// trace. Lone free_requested events change nothing. Calls alloc(i, e) → the payload to keep for the address,
// pairedFree(i, e, payload), unpairedFree(i, e), then after(i, e, net) for every event with the change of the total
// since the start, and ghost(block) for each ghost at the end.
template <typename Payload, typename Alloc, typename PairedFree, typename UnpairedFree, typename After, typename Ghost>
void walkTrace(const Snapshot& s, int device, std::span<const TraceEntry> events, Alloc alloc, PairedFree pairedFree,
    UnpairedFree unpairedFree, After after, Ghost ghost)
{
    std::unordered_map<uint64_t, std::pair<Payload, int64_t>> live; // address → payload, size
    int64_t net = 0;
    for (size_t i = 0; i < events.size(); ++i) {
        const TraceEntry& e = events[i];
        const TraceAction action = e.action();
        if (action == TraceAction::Alloc) {
            live[e.addr] = { alloc(i, e), e.size };
            net += e.size;
        } else if (action == TraceAction::FreeCompleted) {
            if (auto it = live.find(e.addr); it != live.end()) {
                pairedFree(i, e, it->second.first);
                net -= it->second.second;
                live.erase(it);
            } else {
                unpairedFree(i, e);
                net -= e.size;
            }
        }
        after(i, e, net);
    }
    for (const Segment& seg : s.segments) {
        if (seg.device != device)
            continue;
        for (const Block& b : s.blocksOf(seg)) {
            if (b.state == BlockState::ActiveAllocated && !live.count(b.address))
                ghost(b);
        }
    }
}

} // namespace

DeviceHistory::PeakSummary DeviceHistory::summarize(const Snapshot& s, int device)
{
    // The same walk as a full replay, keeping only the running maximum: memory grows with the live allocations,
    // not with the events.
    const std::span<const TraceEntry> events = size_t(device) < s.deviceTraces.size()
        ? std::span<const TraceEntry>(s.deviceTraces[size_t(device)])
        : std::span<const TraceEntry>();
    PeakSummary summary;
    int64_t initial = 0;
    int64_t maxNet = 0;
    walkTrace<char>(
        s, device, events, [](size_t, const TraceEntry&) { return char(0); }, [](size_t, const TraceEntry&, char) {},
        [&](size_t, const TraceEntry& e) {
            initial += e.size;
            summary.traceIncomplete = true;
        },
        [&](size_t i, const TraceEntry&, int64_t net) {
            if (net > maxNet) {
                maxNet = net;
                summary.peakEvent = EventIndex(i);
            }
        },
        [&](const Block& b) { initial += b.requestedSize; });
    summary.peakBytes = initial + maxNet;
    return summary;
}

// The viewer picks the longest trace too; with CUDA_VISIBLE_DEVICES every rank is device 0 anyway. The comparison
// decides per rank with DeviceRoles; this is for a file shown on its own.
int DeviceHistory::mainDevice(const Snapshot& s)
{
    int best = 0;
    size_t bestEvents = 0;
    int64_t bestReserved = -1;
    for (int d = 0; d < s.deviceCount(); ++d) {
        if (d == s.hostDevice())
            continue; // a profile's host memory is not a GPU
        const size_t events = size_t(d) < s.deviceTraces.size() ? s.deviceTraces[size_t(d)].size() : 0;
        int64_t reserved = 0;
        for (const Segment& seg : s.segments)
            reserved += seg.device == d ? seg.totalSize : 0;
        if (events > bestEvents || (events == bestEvents && reserved > bestReserved)) {
            best = d;
            bestEvents = events;
            bestReserved = reserved;
        }
    }
    return best;
}

std::optional<TimelinePoint::Spec> TimelinePoint::parse(const std::string& text)
{
    if (text == "peak")
        return Spec { Peak, 0 };
    if (text == "snapshot" || text == "end")
        return Spec { Snapshot, 0 };
    if (text == "oom")
        return Spec { Oom, 0 };
    const std::string_view view(text);
    int64_t n = 0;
    if (view.starts_with("event:") && parseNumber(view.substr(6), n))
        return Spec { Event, n };
    if (view.starts_with("step:")) {
        std::string_view rest = view.substr(5);
        Kind kind = StepStart;
        for (std::string_view suffix : { std::string_view(":end"), std::string_view(":start") }) {
            if (rest.ends_with(suffix)) {
                kind = suffix == ":end" ? StepEnd : StepStart;
                rest.remove_suffix(suffix.size());
            }
        }
        if (parseNumber(rest, n) && n >= 0)
            return Spec { kind, n };
    }
    return std::nullopt;
}

std::shared_ptr<const DeviceHistory> DeviceHistory::build(SnapshotPtr snapshot, int device)
{
    std::shared_ptr<DeviceHistory> h(new DeviceHistory);
    h->m_snapshot = std::move(snapshot);
    h->m_device = device;
    if (size_t(device) < h->m_snapshot->deviceTraces.size())
        h->m_events = h->m_snapshot->deviceTraces[size_t(device)];
    h->replay();
    h->collectMarkers();
    return h;
}

uint32_t DeviceHistory::poolOf(uint64_t address) const
{
    auto it = std::upper_bound(m_segmentRanges.begin(), m_segmentRanges.end(), address,
        [](uint64_t a, const auto& range) { return a < std::get<0>(range); });
    if (it == m_segmentRanges.begin())
        return 0;
    --it;
    return address < std::get<1>(*it) ? std::get<2>(*it) : 0;
}

void DeviceHistory::replay()
{
    const Snapshot& s = *m_snapshot;
    const size_t n = m_events.size();

    // Pools come from the final segments: trace events carry none, so an allocation gets the pool of the segment
    // that holds its address at the end (the default pool when that segment is gone), as the viewer does.
    m_pools.emplace_back(0, 0);
    int64_t finalReserved = 0;
    for (const Segment& seg : s.segments) {
        if (seg.device != m_device)
            continue;
        finalReserved += seg.totalSize;
        const std::pair<int64_t, int64_t> pool(seg.poolId[0], seg.poolId[1]);
        auto found = std::find(m_pools.begin(), m_pools.end(), pool);
        const auto index = uint32_t(found - m_pools.begin());
        if (found == m_pools.end())
            m_pools.push_back(pool);
        m_segmentRanges.emplace_back(seg.address, seg.address + uint64_t(seg.totalSize), index);
    }
    std::sort(m_segmentRanges.begin(), m_segmentRanges.end());

    size_t allocs = 0;
    for (const TraceEntry& e : m_events)
        allocs += e.action() == TraceAction::Alloc;
    m_allocations.reserve(allocs);
    m_totalAfter.reserve(n);
    m_reservedAfter.reserve(n);
    std::vector<Allocation> initial;
    int64_t reservedNet = 0;
    walkTrace<uint32_t>(
        s, m_device, m_events,
        [&](size_t i, const TraceEntry& e) {
            Allocation a = allocationOf(e);
            a.allocEvent = uint32_t(i);
            m_allocations.push_back(a);
            return uint32_t(m_allocations.size() - 1);
        },
        [&](size_t i, const TraceEntry&, uint32_t index) { m_allocations[index].freeEvent = uint32_t(i); },
        [&](size_t i, const TraceEntry& e) {
            Allocation a = allocationOf(e);
            a.freeEvent = uint32_t(i);
            a.initial = true;
            initial.push_back(a);
            m_traceIncomplete = true;
        },
        [&](size_t, const TraceEntry& e, int64_t net) {
            switch (e.action()) {
            case TraceAction::SegmentAlloc:
            case TraceAction::SegmentMap:
                reservedNet += e.size;
                break;
            case TraceAction::SegmentFree:
            case TraceAction::SegmentUnmap:
                reservedNet -= e.size;
                break;
            default:
                break;
            }
            m_totalAfter.push_back(net); // made absolute below, once the initial total is known
            m_reservedAfter.push_back(reservedNet);
        },
        [&](const Block& b) {
            Allocation a;
            a.addr = b.address;
            a.size = b.requestedSize;
            a.stack = b.stack;
            a.initial = true;
            a.ghost = true;
            initial.push_back(a);
        });

    m_initialTotal = 0;
    for (const Allocation& a : initial)
        m_initialTotal += a.size;
    m_peakBytes = m_initialTotal;
    m_peakEvent = BeforeTrace;
    m_initialReserved = finalReserved - reservedNet;
    m_peakReserved = m_initialReserved;
    for (size_t i = 0; i < n; ++i) {
        m_totalAfter[i] += m_initialTotal;
        m_reservedAfter[i] += m_initialReserved;
        if (m_totalAfter[i] > m_peakBytes) {
            m_peakBytes = m_totalAfter[i];
            m_peakEvent = EventIndex(i);
        }
        m_peakReserved = std::max(m_peakReserved, m_reservedAfter[i]);
    }

    m_allocations.insert(m_allocations.end(), initial.begin(), initial.end());
    for (Allocation& a : m_allocations)
        a.poolIndex = poolOf(a.addr);
    m_hasTimes = n > 0 && m_events[0].timeUs != 0;
}

void DeviceHistory::collectMarkers()
{
    for (size_t i = 0; i < m_events.size(); ++i) {
        const TraceEntry& e = m_events[i];
        if (e.action() == TraceAction::Oom)
            m_ooms.push_back({ uint32_t(i), e.size, int64_t(e.addr) });
        else if (e.action() == TraceAction::Snapshot)
            m_snapshotMarkers.push_back({ uint32_t(i), e.size });
    }
    // The state at a moment in time is the state after the last event recorded before it (times are monotonic
    // within a file).
    auto eventBefore = [this](int64_t timeUs) -> EventIndex {
        auto it = std::lower_bound(
            m_events.begin(), m_events.end(), timeUs, [](const TraceEntry& e, int64_t t) { return e.timeUs < t; });
        return EventIndex(it - m_events.begin()) - 1;
    };
    // START/END pairs nest per name (a scope can recur), so match each END with the latest open START.
    std::unordered_map<StringId, std::vector<size_t>> open;
    for (const Annotation& a : m_snapshot->annotations) {
        if (a.device != m_device)
            continue;
        if (a.isStart) {
            AnnotationSpan span;
            span.name = a.name;
            span.startUs = a.timeUs;
            span.startEvent = m_hasTimes ? eventBefore(a.timeUs) : BeforeTrace;
            span.hasStart = true;
            open[a.name].push_back(m_annotations.size());
            m_annotations.push_back(span);
            continue;
        }
        auto& starts = open[a.name];
        const EventIndex endEvent = m_hasTimes ? eventBefore(a.timeUs + 1) : BeforeTrace;
        if (starts.empty()) {
            AnnotationSpan span;
            span.name = a.name;
            span.endUs = a.timeUs;
            span.endEvent = endEvent;
            span.hasEnd = true;
            m_annotations.push_back(span);
        } else {
            AnnotationSpan& span = m_annotations[starts.back()];
            starts.pop_back();
            span.endUs = a.timeUs;
            span.endEvent = endEvent;
            span.hasEnd = true;
        }
    }
}

std::vector<uint32_t> DeviceHistory::liveSet(EventIndex event) const
{
    std::vector<uint32_t> result;
    for (size_t i = 0; i < m_allocations.size(); ++i) {
        if (m_allocations[i].liveAfter(event))
            result.push_back(uint32_t(i));
    }
    return result;
}

std::optional<TimelinePoint> DeviceHistory::point(const TimelinePoint::Spec& spec) const
{
    const EventIndex last = EventIndex(m_events.size()) - 1;
    // A digest's trace keeps only what decides its peak, snapshot and OOMs; any other moment would be wrong there.
    if (m_snapshot->digest && TimelinePoint::insideTrace(spec.kind))
        return std::nullopt;
    switch (spec.kind) {
    case TimelinePoint::Peak:
        return TimelinePoint { spec.kind, m_peakEvent };
    case TimelinePoint::Snapshot:
        return TimelinePoint { spec.kind, last };
    case TimelinePoint::Oom:
        if (m_ooms.empty())
            return std::nullopt;
        return TimelinePoint { spec.kind, EventIndex(m_ooms.back().event) };
    case TimelinePoint::Event:
        if (spec.number < BeforeTrace || spec.number > last)
            return std::nullopt;
        return TimelinePoint { spec.kind, spec.number };
    case TimelinePoint::StepStart:
    case TimelinePoint::StepEnd: {
        for (const ProfilerStep::Step& step : ProfilerStep::steps(*this)) {
            if (step.number != spec.number)
                continue;
            if (spec.kind == TimelinePoint::StepStart && step.span->hasStart)
                return TimelinePoint { spec.kind, step.span->startEvent };
            if (spec.kind == TimelinePoint::StepEnd && step.span->hasEnd)
                return TimelinePoint { spec.kind, step.span->endEvent };
        }
        return std::nullopt;
    }
    }
    return std::nullopt;
}

AllocatorState DeviceHistory::stateAt(EventIndex event) const
{
    AllocatorReplay replay(*m_snapshot, m_device);
    for (EventIndex i = EventIndex(m_events.size()) - 1; i > event; --i)
        replay.undo(m_events[size_t(i)]);
    return replay.state();
}

std::vector<StateSegment> DeviceHistory::segmentsAt(EventIndex event) const
{
    AllocatorReplay replay(*m_snapshot, m_device, true);
    for (EventIndex i = EventIndex(m_events.size()) - 1; i > event; --i)
        replay.undo(m_events[size_t(i)]);
    return replay.state().segments;
}

TimelineLod DeviceHistory::lod(EventIndex first, EventIndex last, int columns, int maxBands) const
{
    TimelineLod lod;
    const EventIndex lastEvent = EventIndex(m_events.size()) - 1;
    first = std::clamp<EventIndex>(first, BeforeTrace, lastEvent);
    last = std::clamp<EventIndex>(last, first, lastEvent);
    const EventIndex span = last - first + 1;
    columns = int(std::clamp<EventIndex>(columns, 1, span));
    lod.first = first;
    lod.last = last;
    lod.columns = columns;
    lod.minTotal.assign(size_t(columns), 0);
    lod.maxTotal.assign(size_t(columns), 0);

    // Pass 1: min and max of the curve per column, and the moment of each column's maximum.
    std::vector<EventIndex> peakAt(static_cast<size_t>(columns));
    for (int c = 0; c < columns; ++c) {
        const EventIndex begin = first + span * c / columns;
        const EventIndex end = first + span * (c + 1) / columns; // exclusive
        int64_t lo = totalAfter(begin);
        int64_t hi = lo;
        EventIndex at = begin;
        for (EventIndex i = begin + 1; i < end; ++i) {
            const int64_t v = m_totalAfter[size_t(i)];
            lo = std::min(lo, v);
            if (v > hi) {
                hi = v;
                at = i;
            }
        }
        lod.minTotal[size_t(c)] = lo;
        lod.maxTotal[size_t(c)] = hi;
        peakAt[size_t(c)] = at;
    }

    // The largest allocations live at some moment of the window become bands, in allocation order.
    std::vector<std::pair<int64_t, uint32_t>> candidates;
    for (size_t i = 0; i < m_allocations.size(); ++i) {
        const Allocation& a = m_allocations[i];
        // A digest's stand-in for what it left out is many short, large allocations: as bands they would crowd out
        // the allocations the digest kept, so it stays in the summarized band.
        if (m_snapshot->isLeftOut(a.addr))
            continue;
        const bool startsBy = a.allocEvent == Allocation::NoEvent || EventIndex(a.allocEvent) <= last;
        const bool endsAfter = a.freeEvent == Allocation::NoEvent || EventIndex(a.freeEvent) > first;
        if (startsBy && endsAfter && a.size > 0)
            candidates.emplace_back(a.size, uint32_t(i));
    }
    const size_t keep = std::min(candidates.size(), size_t(std::max(maxBands, 0)));
    std::nth_element(candidates.begin(), candidates.begin() + ptrdiff_t(keep), candidates.end(),
        [](const auto& a, const auto& b) { return a.first > b.first; });
    candidates.resize(keep);
    for (const auto& [size, index] : candidates)
        lod.bands.push_back(index);
    // Allocations from before the trace at the bottom, then in allocation order, as the viewer stacks them.
    std::sort(lod.bands.begin(), lod.bands.end(), [this](uint32_t a, uint32_t b) {
        const bool ia = m_allocations[a].initial;
        const bool ib = m_allocations[b].initial;
        return ia != ib ? ia : a < b;
    });

    // Pass 2: stack the bands at each column's highest moment; whatever else is live is the summarized band.
    const size_t bands = lod.bands.size();
    lod.bandOffsets.assign(size_t(columns) * bands, -1);
    lod.summarized.assign(size_t(columns), 0);
    for (int c = 0; c < columns; ++c) {
        const EventIndex at = peakAt[size_t(c)];
        int64_t offset = 0;
        for (size_t k = 0; k < bands; ++k) {
            const Allocation& a = m_allocations[lod.bands[k]];
            if (!a.liveAfter(at))
                continue;
            lod.bandOffsets[size_t(c) * bands + k] = offset;
            offset += a.size;
        }
        lod.summarized[size_t(c)] = lod.maxTotal[size_t(c)] - offset;
    }
    return lod;
}

} // namespace RankScope
