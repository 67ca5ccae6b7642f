// SPDX-License-Identifier: MIT
#include "allocatorstate.h"

#include <algorithm>

namespace RankScope {

namespace {

// Per segment: its largest gap between live blocks, its free bytes, and whether it holds any live block; its gaps
// are appended to `gaps` when given.
template <typename Visit>
void visitFreeSpace(const AllocatorState& state, Visit visit, std::vector<FreeSpace::Gap>* gaps = nullptr)
{
    auto block = state.blocks.begin();
    for (const StateSegment& seg : state.segments) {
        // Free space is every gap between live blocks inside the segment.
        const uint64_t end = seg.addr + uint64_t(seg.size);
        uint64_t cursor = seg.addr;
        int64_t largest = 0;
        int64_t free = 0;
        bool holdsBlocks = false;
        const size_t firstGap = gaps ? gaps->size() : 0;
        const auto gap = [&](uint64_t from, uint64_t to) {
            largest = std::max(largest, int64_t(to - from));
            free += int64_t(to - from);
            if (gaps)
                gaps->push_back({ from, int64_t(to - from) });
        };
        while (block != state.blocks.end() && block->addr < seg.addr)
            ++block;
        for (; block != state.blocks.end() && block->addr < end; ++block) {
            holdsBlocks = true;
            if (block->addr > cursor)
                gap(cursor, block->addr);
            cursor = std::max(cursor, block->addr + uint64_t(block->size));
        }
        if (end > cursor)
            gap(cursor, end);
        // An entirely free segment is not a gap between live blocks: the allocator releases it before an OOM.
        if (gaps && !holdsBlocks)
            gaps->resize(firstGap);
        visit(seg, largest, free, holdsBlocks);
    }
}

} // namespace

FreeSpace AllocatorState::freeInUsedSegments() const
{
    FreeSpace f;
    visitFreeSpace(
        *this,
        [&f](const StateSegment& seg, int64_t largest, int64_t free, bool holdsBlocks) {
            if (!holdsBlocks || free == 0)
                return;
            f.bytes += free;
            f.largest = std::max(f.largest, largest);
            f.segments.push_back(seg.addr);
        },
        &f.gaps);
    return f;
}

DeviceStats AllocatorState::stats() const
{
    DeviceStats s;
    s.segments = int64_t(segments.size());
    s.blocks = int64_t(blocks.size());
    for (const StateSegment& seg : segments)
        s.reserved += seg.size;
    // The gaps between live blocks, as the block map draws them, rather than reserved − active: where a trace was
    // recorded from a wrapped ring buffer (or edited) blocks replayed backwards can overlap, and the difference would
    // then read as a negative reserve.
    visitFreeSpace(*this, [&s](const StateSegment&, int64_t largest, int64_t free, bool) {
        s.largestFree = std::max(s.largestFree, largest);
        s.inactive += free;
        s.segmentsWithFree += free > 0 ? 1 : 0;
    });
    for (const StateBlock& b : blocks) {
        s.active += b.size;
        if (!b.pendingFree) {
            s.allocated += b.size;
            s.requested += b.requested;
        }
    }
    return s;
}

AllocatorReplay::AllocatorReplay(const Snapshot& snapshot, int device, bool segmentsOnly)
    : m_snapshot(snapshot)
    , m_segmentsOnly(segmentsOnly)
{
    for (const Segment& seg : snapshot.segments) {
        if (seg.device != device)
            continue;
        m_segments[seg.address] = { seg.address, seg.totalSize, seg.stream, seg.stack };
        if (segmentsOnly)
            continue;
        for (const Block& b : snapshot.blocksOf(seg)) {
            if (b.state == BlockState::ActiveAllocated || b.state == BlockState::ActivePendingFree)
                m_blocks.set(b.address,
                    { b.address, b.size, b.requestedSize, b.stack, b.state == BlockState::ActivePendingFree });
        }
    }
}

void AllocatorReplay::addRange(uint64_t addr, int64_t size, int64_t stream, StackId stack)
{
    // A mapped range joins address-adjacent ranges of the same stream: they are one expandable segment.
    uint64_t start = addr;
    uint64_t end = addr + uint64_t(size);
    auto next = m_segments.lower_bound(addr);
    if (next != m_segments.begin()) {
        auto prev = std::prev(next);
        if (prev->second.addr + uint64_t(prev->second.size) == start && prev->second.stream == stream) {
            start = prev->second.addr;
            stack = prev->second.stack;
            m_segments.erase(prev);
        }
    }
    next = m_segments.lower_bound(addr);
    if (next != m_segments.end() && next->first == end && next->second.stream == stream) {
        end = next->second.addr + uint64_t(next->second.size);
        m_segments.erase(next);
    }
    m_segments[start] = { start, int64_t(end - start), stream, stack };
}

void AllocatorReplay::removeRange(uint64_t addr, int64_t size)
{
    // Trim the range off the segment that contains it: from its front, its back, or out of its middle.
    auto it = m_segments.upper_bound(addr);
    if (it == m_segments.begin())
        return;
    --it;
    StateSegment seg = it->second;
    const uint64_t segEnd = seg.addr + uint64_t(seg.size);
    const uint64_t end = addr + uint64_t(size);
    if (addr >= segEnd)
        return;
    m_segments.erase(it);
    if (addr > seg.addr)
        m_segments[seg.addr] = { seg.addr, int64_t(addr - seg.addr), seg.stream, seg.stack };
    if (end < segEnd)
        m_segments[end] = { end, int64_t(segEnd - end), seg.stream, seg.stack };
}

bool AllocatorReplay::skips(const TraceEntry& e) const
{
    const TraceAction action = e.action();
    const bool blockEvent =
        action == TraceAction::Alloc || action == TraceAction::FreeRequested || action == TraceAction::FreeCompleted;
    // A digest's stand-in for what it left out lives in no segment: it shapes the curve, not the block map.
    return blockEvent && (m_segmentsOnly || m_snapshot.isLeftOut(e.addr));
}

void AllocatorReplay::undo(const TraceEntry& e)
{
    if (skips(e))
        return;
    const TraceAction action = e.action();
    const int64_t stream = m_snapshot.stream(e);
    switch (action) {
    case TraceAction::Alloc:
        m_blocks.take(e.addr);
        break;
    case TraceAction::FreeRequested:
        if (StateBlock* block = m_blocks.find(e.addr))
            block->pendingFree = false;
        break;
    case TraceAction::FreeCompleted:
        // Until free_completed the block was live, waiting for its streams: pending, unless free_requested's undo
        // clears that too.
        m_blocks.set(e.addr, { e.addr, e.size, e.size, e.stack, true });
        break;
    case TraceAction::SegmentAlloc:
        m_segments.erase(e.addr);
        break;
    case TraceAction::SegmentFree:
        m_segments[e.addr] = { e.addr, e.size, stream, e.stack };
        break;
    case TraceAction::SegmentMap:
        removeRange(e.addr, e.size);
        break;
    case TraceAction::SegmentUnmap:
        addRange(e.addr, e.size, stream, e.stack);
        break;
    case TraceAction::Snapshot:
    case TraceAction::Oom:
    case TraceAction::Other:
        break;
    }
}

void AllocatorReplay::redo(const TraceEntry& e)
{
    if (skips(e))
        return;
    const TraceAction action = e.action();
    const int64_t stream = m_snapshot.stream(e);
    switch (action) {
    case TraceAction::Alloc:
        m_blocks.set(e.addr, { e.addr, e.size, e.size, e.stack, false });
        break;
    case TraceAction::FreeRequested:
        if (StateBlock* block = m_blocks.find(e.addr))
            block->pendingFree = true;
        break;
    case TraceAction::FreeCompleted:
        m_blocks.take(e.addr);
        break;
    case TraceAction::SegmentAlloc:
        m_segments[e.addr] = { e.addr, e.size, stream, e.stack };
        break;
    case TraceAction::SegmentFree:
        m_segments.erase(e.addr);
        break;
    case TraceAction::SegmentMap:
        addRange(e.addr, e.size, stream, e.stack);
        break;
    case TraceAction::SegmentUnmap:
        removeRange(e.addr, e.size);
        break;
    case TraceAction::Snapshot:
    case TraceAction::Oom:
    case TraceAction::Other:
        break;
    }
}

AllocatorState AllocatorReplay::state() const
{
    AllocatorState state;
    state.segments.reserve(m_segments.size());
    for (const auto& [addr, seg] : m_segments)
        state.segments.push_back(seg);
    state.blocks.reserve(m_blocks.size());
    m_blocks.forEach([&](uint64_t, const StateBlock& block) { state.blocks.push_back(block); });
    std::sort(state.blocks.begin(), state.blocks.end(),
        [](const StateBlock& a, const StateBlock& b) { return a.addr < b.addr; });
    return state;
}

} // namespace RankScope
