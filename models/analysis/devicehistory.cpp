// SPDX-License-Identifier: MIT
#include "devicehistory.h"

#include "addressmap.h"
#include "pageahead.h"
#include "platform.h"
#include "profilerstep.h"
#include "sidebyside.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <limits>
#include <unordered_map>

namespace RankScope {

namespace {

bool parseNumber(std::string_view text, int64_t& value)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

TraceView traceOf(const Snapshot& s, int device)
{
    return size_t(device) < s.deviceTraces.size() ? TraceView(s.deviceTraces[size_t(device)]) : TraceView();
}

// What a trace event tells about its block; an alloc's own, or a free's when the alloc was not recorded.
Allocation allocationOf(const Snapshot& s, const TraceEntry& e)
{
    Allocation a;
    a.addr = e.addr;
    a.size = e.size;
    a.stack = e.stack;
    a.streamIndex = s.kindOf(e).streamIndex;
    return a;
}

// The viewer's pairing (process_alloc_data) over events [from, to), from the live allocations `live` holds: each alloc
// is matched with the next free_completed at its address; a free without an alloc is memory from before (the trace,
// when the walk starts at its beginning). Lone free_requested events change nothing. Calls alloc(i, e) → the payload to
// keep for the address, pairedFree(i, e, payload), unpairedFree(i, e), then after(i, e, net) for every event with the
// change of the total since `from`. Returns that change over the whole stretch.
template <typename Payload, typename Alloc, typename PairedFree, typename UnpairedFree, typename After>
int64_t walkEvents(TraceView events, size_t from, size_t to, AddressMap<std::pair<Payload, int64_t>>& live, Alloc alloc,
    PairedFree pairedFree, UnpairedFree unpairedFree, After after)
{
    int64_t net = 0;
    for (size_t i = from; i < to; ++i) {
        const TraceEntry e = events[i];
        const TraceAction action = e.action();
        if (action == TraceAction::Alloc) {
            live.set(e.addr, { alloc(i, e), e.size });
            net += e.size;
        } else if (action == TraceAction::FreeCompleted) {
            if (const auto freed = live.take(e.addr)) {
                pairedFree(i, e, freed->first);
                net -= freed->second;
            } else {
                unpairedFree(i, e);
                net -= e.size;
            }
        }
        after(i, e, net);
    }
    return net;
}

// ghost(block) for each live block of the final snapshot that the walk of the whole trace did not leave live
// (`isLive`): memory from before the trace that no event mentions.
template <typename IsLive, typename Ghost> void forGhosts(const Snapshot& s, int device, IsLive isLive, Ghost ghost)
{
    for (const Segment& seg : s.segments) {
        if (seg.device != device)
            continue;
        for (const Block& b : s.blocksOf(seg)) {
            if (b.state == BlockState::ActiveAllocated && !isLive(b.address))
                ghost(b);
        }
    }
}

// walkEvents over the whole trace, then ghost(block) for each ghost.
template <typename Payload, typename Alloc, typename PairedFree, typename UnpairedFree, typename After, typename Ghost>
void walkTrace(const Snapshot& s, int device, TraceView events, Alloc alloc, PairedFree pairedFree,
    UnpairedFree unpairedFree, After after, Ghost ghost)
{
    AddressMap<std::pair<Payload, int64_t>> live; // address → payload, size
    walkEvents(events, 0, events.size(), live, alloc, pairedFree, unpairedFree, after);
    forGhosts(
        s, device, [&](uint64_t address) { return live.contains(address); }, ghost);
}

// One stretch of a trace walked for its peak alone, from no live allocation.
struct Stretch
{
    AddressMap<std::pair<char, int64_t>> live; // address → size, at its end
    int64_t net = 0; ///< the change of the total over it
    int64_t maxNet = 0; ///< its highest change from its start, first reached after maxAt
    EventIndex maxAt = BeforeTrace; ///< BeforeTrace: never above the `floor` it was walked with
    int64_t ooms = 0;
    int64_t unpairedBytes = 0; ///< of the frees of allocations it did not see
    bool unpairedAny = false;
    struct Free
    {
        size_t event;
        uint64_t addr;
        int64_t size;
    };
    std::vector<Free> unpaired; ///< those frees in order, for a second half only
};

// A first half (or a whole trace) only counts the frees it cannot pair. A second half lists them, and notes in
// `watched` the first event that allocates at each of its addresses, which hold SIZE_MAX until then. A parameter of
// the template, so that the one walk of a short trace pays for neither.
template <bool Second>
Stretch walkStretch(TraceView events, size_t from, size_t to, int64_t floor, AddressMap<size_t>* watched = nullptr)
{
    Stretch st;
    int64_t maxNet = floor;
    EventIndex maxAt = BeforeTrace;
    int64_t ooms = 0;
    st.net = walkEvents(
        events, from, to, st.live,
        [&](size_t i, const TraceEntry& e) {
            if constexpr (Second) {
                if (size_t* first = watched->find(e.addr); first && *first == SIZE_MAX)
                    *first = i;
            }
            return char(0);
        },
        [](size_t, const TraceEntry&, char) {},
        [&](size_t i, const TraceEntry& e) {
            if constexpr (Second)
                st.unpaired.push_back({ i, e.addr, e.size });
            st.unpairedBytes += e.size;
            st.unpairedAny = true;
        },
        [&](size_t i, const TraceEntry& e, int64_t net) {
            if (net > maxNet) {
                maxNet = net;
                maxAt = EventIndex(i);
            }
            ooms += e.action() == TraceAction::Oom;
        });
    st.maxNet = maxNet;
    st.maxAt = maxAt;
    st.ooms = ooms;
    return st;
}

// Below this many events one walk is cheaper than starting a thread for half of it.
constexpr size_t halvesFrom = size_t(1) << 20;

} // namespace

DeviceHistory::PeakSummary DeviceHistory::summarize(const Snapshot& s, int device)
{
    // The same walk as a full replay, keeping only the running maximum: memory grows with the live allocations,
    // not with the events. On a long trace it is the last step of a load, on one core while the other waits: the
    // halves of the trace are walked on both.
    const size_t n = traceOf(s, device).size();
    return summarizeInHalves(s, device, n >= halvesFrom && Platform::usableCores() > 1 ? n / 2 : n);
}

DeviceHistory::PeakSummary DeviceHistory::summarizeInHalves(const Snapshot& s, int device, size_t split)
{
    const TraceView events = traceOf(s, device);
    const size_t n = events.size();
    split = std::min(split, n);
    // With a second half, the final snapshot's live blocks, each with its first alloc there: a block the first half
    // left live and the second never touched is live at the end, one it allocated over is not (unless it is again).
    AddressMap<size_t> finalBlocks;
    if (split < n)
        forGhosts(
            s, device, [](uint64_t) { return false; }, [&](const Block& b) { finalBlocks.set(b.address, SIZE_MAX); });
    // Each half from no live allocation, the second on a thread of its own. The second half's curve is then the
    // whole walk's less the first half's change, except where a free it could not pair is the first event at an
    // allocation the first half left live: the whole walk pairs the two, which changes the curve only if their sizes
    // differ.
    Stretch first;
    Stretch second;
    if (split < n) {
        sideBySide(
            [&] { second = walkStretch<true>(events, split, n, std::numeric_limits<int64_t>::min(), &finalBlocks); },
            [&] { first = walkStretch<false>(events, 0, split, 0); });
    } else {
        first = walkStretch<false>(events, 0, n, 0);
    }

    // The second half's first free at each address the first left live pairs with that allocation, unless the second
    // allocated there before it: those allocs are looked for up to the last such free (the final blocks' are known).
    struct Check
    {
        size_t firstFree = SIZE_MAX;
        size_t firstAlloc = SIZE_MAX;
    };
    AddressMap<Check> checks;
    size_t scanTo = split;
    for (const Stretch::Free& f : second.unpaired) {
        if (!first.live.contains(f.addr) || checks.contains(f.addr))
            continue;
        const size_t* known = finalBlocks.find(f.addr);
        checks.set(f.addr, { f.event, known ? *known : SIZE_MAX });
        if (!known)
            scanTo = std::max(scanTo, f.event);
    }
    for (size_t i = split; i < scanTo; ++i) {
        const TraceEntry e = events[i];
        if (e.action() != TraceAction::Alloc)
            continue;
        if (Check* c = checks.find(e.addr); c && c->firstAlloc == SIZE_MAX)
            c->firstAlloc = i;
    }

    PeakSummary summary;
    int64_t initial = first.unpairedBytes;
    summary.traceIncomplete = first.unpairedAny;
    for (const Stretch::Free& f : second.unpaired) {
        const Check* c = checks.find(f.addr);
        if (c && c->firstFree == f.event && c->firstAlloc > f.event) {
            // Paired by the whole walk, which takes the alloc's size off the curve where the half took the free's.
            if (first.live.find(f.addr)->second != f.size)
                return summarizeInHalves(s, device, n);
            first.live.take(f.addr);
            continue;
        }
        initial += f.size;
        summary.traceIncomplete = true;
    }
    forGhosts(
        s, device,
        [&](uint64_t address) {
            if (second.live.contains(address))
                return true;
            const size_t* secondAlloc = finalBlocks.find(address);
            return first.live.contains(address) && !(secondAlloc && *secondAlloc != SIZE_MAX);
        },
        [&](const Block& b) { initial += b.requestedSize; });

    int64_t maxNet = first.maxNet;
    summary.peakEvent = first.maxAt;
    if (second.maxAt != BeforeTrace && first.net + second.maxNet > maxNet) {
        maxNet = first.net + second.maxNet;
        summary.peakEvent = second.maxAt;
    }
    summary.peakBytes = initial + maxNet;
    summary.oomEvents = first.ooms + second.ooms;
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
        const size_t events = traceOf(s, d).size();
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
    if (view.starts_with("event:")) {
        const std::string_view rest = view.substr(6);
        const size_t at = rest.find('@');
        int64_t rank = -1;
        if (parseNumber(rest.substr(0, at), n)
            && (at == std::string_view::npos
                || (parseNumber(rest.substr(at + 1), rank) && rank >= 0 && rank < (1 << 24))))
            return Spec { Event, n, int(rank) };
    }
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
    h->m_events = traceOf(*h->m_snapshot, device);
    h->m_times = h->m_snapshot->timesOf(device);
    h->replay(); // and the OOM and snapshot markers, on the same walk
    h->collectAnnotations();
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

    // Pools: an entry's own `pool_id` where the file has it (PyTorch 2.12 on); otherwise the pool of the segment that
    // holds the address at the end (the default pool when that segment is gone), as the viewer does.
    m_pools.emplace_back(0, 0);
    const auto poolIndex = [this](const int64_t(&id)[2]) {
        const std::pair<int64_t, int64_t> pool(id[0], id[1]);
        const auto found = std::find(m_pools.begin(), m_pools.end(), pool);
        const auto index = uint32_t(found - m_pools.begin());
        if (found == m_pools.end())
            m_pools.push_back(pool);
        return index;
    };
    int64_t finalReserved = 0;
    size_t blocks = 0;
    for (const Segment& seg : s.segments) {
        if (seg.device != m_device)
            continue;
        finalReserved += seg.totalSize;
        blocks += s.blocksOf(seg).size();
        m_segmentRanges.emplace_back(seg.address, seg.address + uint64_t(seg.totalSize), poolIndex(seg.poolId));
    }
    std::sort(m_segmentRanges.begin(), m_segmentRanges.end());
    // Every segment in the default pool, as in most files: every address's pool is the default, found with no search
    // per allocation (a fifth of the replay's instructions on the 50 MB test rank).
    if (std::all_of(m_segmentRanges.begin(), m_segmentRanges.end(), [](const auto& r) { return std::get<2>(r) == 0; }))
        m_segmentRanges.clear();

    size_t allocs = 0;
    size_t frees = 0;
    for (const TraceEntry& e : m_events) {
        allocs += e.action() == TraceAction::Alloc;
        frees += e.action() == TraceAction::FreeCompleted;
    }
    // Room for the allocations from before the trace too, which are known only at the end of the walk (a free
    // without its alloc, a block of the snapshot without one): at most a free or a block each. Appending them past
    // a capacity of `allocs` copied the whole array into fresh pages. Pages beyond what is written are never touched.
    m_allocations.reserve(allocs + frees + blocks);
    m_netAfter.reserve(n);
    // Fresh pages cost the kernel's zeroing on first touch, as much as the walk itself on a large trace: the other
    // core takes it.
    const PagesInBackground pages(
        { { m_netAfter.data(), n * sizeof(int64_t) }, { m_allocations.data(), allocs * sizeof(Allocation) } });
    std::vector<Allocation> initial;
    int64_t reservedNet = 0;
    int64_t maxNet = 0; // the peak is first reached after m_peakEvent (BeforeTrace: the initial state)
    int64_t maxReservedNet = 0;
    m_peakEvent = BeforeTrace;
    // An allocation's pool, from its own event (the event at hand for one the trace allocates) or from the state at
    // the end.
    const auto poolOfAllocation = [&](const Allocation& a, const EntryContext& context) {
        return context.hasPool ? poolIndex(context.pool) : poolOf(a.addr);
    };
    walkTrace<uint32_t>(
        s, m_device, m_events,
        [&](size_t i, const TraceEntry& e) {
            Allocation a = allocationOf(s, e);
            a.allocEvent = uint32_t(i);
            a.poolIndex = poolOfAllocation(a, s.context(e));
            m_allocations.push_back(a);
            return uint32_t(m_allocations.size() - 1);
        },
        [&](size_t i, const TraceEntry&, uint32_t index) { m_allocations[index].freeEvent = uint32_t(i); },
        [&](size_t i, const TraceEntry& e) {
            Allocation a = allocationOf(s, e);
            a.freeEvent = uint32_t(i);
            a.initial = true;
            initial.push_back(a);
            m_traceIncomplete = true;
        },
        [&](size_t i, const TraceEntry& e, int64_t net) {
            switch (e.action()) {
            case TraceAction::Oom:
                m_ooms.push_back({ uint32_t(i), e.size, int64_t(e.addr), e.stack });
                break;
            case TraceAction::Snapshot:
                m_snapshotMarkers.push_back({ uint32_t(i), e.size });
                break;
            case TraceAction::SegmentAlloc:
            case TraceAction::SegmentMap:
                reservedNet += e.size;
                m_reservedSteps.emplace_back(EventIndex(i), reservedNet);
                break;
            case TraceAction::SegmentFree:
            case TraceAction::SegmentUnmap:
                reservedNet -= e.size;
                m_reservedSteps.emplace_back(EventIndex(i), reservedNet);
                break;
            default:
                break;
            }
            // Changes since the start: the initial figures are known only at the end (ghosts), so they are added
            // where the curves are read instead of in another pass over the array.
            m_netAfter.push_back(net);
            if (net > maxNet) {
                maxNet = net;
                m_peakEvent = EventIndex(i);
            }
            maxReservedNet = std::max(maxReservedNet, reservedNet);
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
    m_peakBytes = m_initialTotal + maxNet;
    m_initialReserved = finalReserved - reservedNet;
    m_peakReserved = m_initialReserved + maxReservedNet;

    // Those from before the trace after the others, so that pools are numbered in the same order as ever: as first
    // met going through the allocations.
    for (Allocation& a : initial) {
        a.poolIndex = poolOfAllocation(
            a, a.freeEvent != Allocation::NoEvent ? s.context(m_events[a.freeEvent]) : s.entryContexts.front());
    }
    m_allocations.insert(m_allocations.end(), initial.begin(), initial.end());
    m_hasTimes = n > 0 && timeUs(0) != 0;
}

void DeviceHistory::collectAnnotations()
{
    // The state at a moment in time is the state after the last event recorded before it (times are monotonic
    // within a file).
    auto eventBefore = [this](int64_t t) -> EventIndex {
        // The first event at t or later, by halving (the times are apart from the events, read by index).
        EventIndex first = 0;
        for (EventIndex count = EventIndex(m_events.size()); count > 0;) {
            const EventIndex half = count / 2;
            if (timeUs(first + half) < t) {
                first += half + 1;
                count -= half + 1;
            } else {
                count = half;
            }
        }
        return first - 1;
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

namespace {
// The final snapshot of the device with the events after `event` undone, last first.
AllocatorState undoneTo(const Snapshot& snapshot, int device, EventIndex event, bool segmentsOnly)
{
    AllocatorReplay replay(snapshot, device, segmentsOnly);
    const TraceView events = traceOf(snapshot, device);
    for (EventIndex i = EventIndex(events.size()) - 1; i > event; --i)
        replay.undo(events[size_t(i)]);
    return replay.state();
}
} // namespace

AllocatorState DeviceHistory::stateAt(const Snapshot& snapshot, int device, EventIndex event)
{
    return undoneTo(snapshot, device, event, false);
}

std::vector<StateSegment> DeviceHistory::segmentsAt(EventIndex event) const
{
    return undoneTo(*m_snapshot, m_device, event, true).segments;
}

namespace {
// How much of a column the bands must cover where allocations smaller than a pixel add up, and at how many columns
// spread over the window (plus the tallest) that is checked.
constexpr double CoveredShare = 0.97;
constexpr int SampledColumns = 16;
} // namespace

TimelineLod DeviceHistory::lod(
    EventIndex first, EventIndex last, int columns, int64_t pixelBytes, size_t maxBands, TimelineLod recycled) const
{
    TimelineLod lod;
    lod.runColumn = std::move(recycled.runColumn);
    lod.runOffset = std::move(recycled.runOffset);
    lod.runColumn.clear();
    lod.runOffset.clear();
    const EventIndex lastEvent = EventIndex(m_events.size()) - 1;
    first = std::clamp<EventIndex>(first, BeforeTrace, lastEvent);
    last = std::clamp<EventIndex>(last, first, lastEvent);
    const EventIndex span = last - first + 1;
    columns = int(std::clamp<EventIndex>(columns, 1, span));
    lod.first = first;
    lod.last = last;
    lod.columns = columns;
    lod.minBandBytes = std::max<int64_t>(pixelBytes, 1);
    lod.minTotal.assign(size_t(columns), 0);
    lod.maxTotal.assign(size_t(columns), 0);

    // Pass 1: min and max of the curve per column, and the moment of each column's maximum.
    std::vector<EventIndex> peakAt(static_cast<size_t>(columns));
    for (int c = 0; c < columns; ++c) {
        const EventIndex begin = lod.columnBegin(c);
        const EventIndex end = lod.columnBegin(c + 1); // exclusive
        int64_t lo = totalAfter(begin);
        int64_t hi = lo;
        EventIndex at = begin;
        for (EventIndex i = begin + 1; i < end; ++i) {
            const int64_t v = m_initialTotal + m_netAfter[size_t(i)];
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

    // Every allocation at least a pixel tall that is live at some column's highest moment is a band. Where smaller
    // ones make up much of the memory (thousands of tensors of a few MiB on a plot where a pixel is 40 MiB), they
    // become bands too, down to the size that leaves at most CoveredShare of sampled columns to the remainder: each
    // is then a sliver of a pixel, but together they are drawn where they are instead of as one grey mass.
    const int64_t floorBytes = std::max<int64_t>(1, lod.minBandBytes / 64);
    // The first column whose highest moment is at or after `event`: the column holding the event, or the next one.
    const auto columnOf = [&](uint32_t raw) {
        if (raw == Allocation::NoEvent)
            return columns;
        const EventIndex event = EventIndex(raw);
        if (event <= first)
            return 0;
        if (event > last)
            return columns;
        const int c = lod.columnOf(event);
        return peakAt[size_t(c)] >= event ? c : c + 1;
    };
    struct Candidate
    {
        int64_t size;
        uint32_t index;
        int from;
        int to;
    };
    // The sampled columns: the tallest and some spread over the window.
    std::vector<int> samples;
    samples.push_back(int(std::max_element(lod.maxTotal.begin(), lod.maxTotal.end()) - lod.maxTotal.begin()));
    for (int i = 0; i < SampledColumns; ++i)
        samples.push_back(int(int64_t(columns) * int64_t(2 * i + 1) / int64_t(2 * SampledColumns)));
    std::sort(samples.begin(), samples.end());
    samples.erase(std::unique(samples.begin(), samples.end()), samples.end());
    // Per sampled column, the bytes of sub-pixel allocations live there by power-of-two size class, and the bytes of
    // those a pixel or more: counters, not lists, for the million allocations of a long trace.
    constexpr int SizeClasses = 64;
    std::vector<std::array<int64_t, SizeClasses>> sampledSmall(samples.size());
    for (auto& classes : sampledSmall)
        classes.fill(0);
    std::vector<int64_t> sampledLarge(samples.size(), 0);
    std::vector<Candidate> candidates;
    for (uint32_t i = 0; i < uint32_t(m_allocations.size()); ++i) {
        const Allocation& a = m_allocations[i];
        if (a.size < floorBytes)
            continue;
        // A digest's stand-in for what it left out is many short, large allocations: as bands they would crowd out
        // the allocations the digest kept, so it stays in the remainder.
        if (!a.liveDuring(first, last) || m_snapshot->isLeftOut(a.addr))
            continue;
        // Live after the moments from its alloc event up to, not including, its free event.
        const int from = a.allocEvent == Allocation::NoEvent ? 0 : columnOf(a.allocEvent);
        const int to = columnOf(a.freeEvent);
        if (from >= to)
            continue;
        candidates.push_back({ a.size, i, from, to });
        const bool large = a.size >= lod.minBandBytes;
        const int sizeClass = std::bit_width(uint64_t(a.size)) - 1;
        for (auto s = std::lower_bound(samples.begin(), samples.end(), from); s != samples.end() && *s < to; ++s) {
            const size_t k = size_t(s - samples.begin());
            if (large)
                sampledLarge[k] += a.size;
            else
                sampledSmall[k][size_t(sizeClass)] += a.size;
        }
    }
    // The size down to which sub-pixel allocations must be bands for every sampled column to be covered, by whole
    // size classes (a few more bands than the least that would do).
    int64_t threshold = lod.minBandBytes;
    for (size_t k = 0; k < samples.size(); ++k) {
        const int64_t target = int64_t(double(lod.maxTotal[size_t(samples[k])]) * CoveredShare);
        int64_t covered = sampledLarge[k];
        for (int sizeClass = SizeClasses - 1; sizeClass >= 0 && covered < target; --sizeClass) {
            if (sampledSmall[k][size_t(sizeClass)] == 0)
                continue;
            covered += sampledSmall[k][size_t(sizeClass)];
            threshold = std::min(threshold, std::max(floorBytes, int64_t(1) << sizeClass));
        }
    }
    lod.minBandBytes = threshold;
    std::erase_if(candidates, [threshold](const Candidate& c) { return c.size < threshold; });
    if (candidates.size() > maxBands) {
        std::nth_element(candidates.begin(), candidates.begin() + ptrdiff_t(maxBands), candidates.end(),
            [](const Candidate& a, const Candidate& b) { return a.size > b.size; });
        candidates.resize(maxBands);
    }
    std::sort(candidates.begin(), candidates.end(), [this](const Candidate& a, const Candidate& b) {
        const bool ia = m_allocations[a.index].initial;
        const bool ib = m_allocations[b.index].initial;
        return ia != ib ? ia : a.index < b.index;
    });

    // Pass 2: stack the bands column by column in that order; what is left of each column's maximum is the
    // remainder.
    lod.bandsTop.assign(size_t(columns), 0);
    lod.bands.reserve(candidates.size());
    lod.firstColumn.reserve(candidates.size());
    lod.columnCount.reserve(candidates.size());
    lod.runStart.reserve(candidates.size() + 1);
    // At most a run per column a band spans: reserved, pages are only touched as runs are written, and the arrays
    // (millions of runs for a long trace) are never copied while they grow.
    size_t spanned = 0;
    for (const Candidate& band : candidates)
        spanned += size_t(band.to - band.from);
    const int* recycledRuns = lod.runColumn.data();
    lod.runColumn.reserve(spanned);
    lod.runOffset.reserve(spanned);
    // Fresh arrays' pages (the first decimation's, an export's) took as long to fault in as the bands take to stack:
    // the other core faults them in ahead. Recycled ones are in already as far as the decimation they served wrote.
    std::optional<PagesAheadOfFill> pages;
    if (lod.runColumn.data() != recycledRuns)
        pages.emplace(std::vector<PagesAheadOfFill::Array> { { lod.runColumn.data(), sizeof(int), spanned },
                          { lod.runOffset.data(), sizeof(int64_t), spanned } },
            size_t(4) << 20);
    for (const Candidate& band : candidates) {
        if (pages)
            pages->filled(lod.runColumn.size());
        lod.bands.push_back(band.index);
        lod.firstColumn.push_back(band.from);
        lod.columnCount.push_back(band.to - band.from);
        lod.runStart.push_back(lod.runColumn.size());
        int64_t previous = -1;
        for (int c = band.from; c < band.to; ++c) {
            const int64_t offset = lod.bandsTop[size_t(c)];
            if (offset != previous) {
                lod.runColumn.push_back(c);
                lod.runOffset.push_back(offset);
                previous = offset;
            }
            lod.bandsTop[size_t(c)] = offset + band.size;
        }
    }
    lod.runStart.push_back(lod.runColumn.size());
    return lod;
}

} // namespace RankScope
