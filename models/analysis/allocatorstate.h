// SPDX-License-Identifier: MIT
#pragma once

#include "addressmap.h"
#include "snapshot.h"

#include <map>
#include <vector>

namespace RankScope {

/// A live block in the allocator's block map. Blocks recreated from trace events carry the requested size as
/// their size, as the official viewer does (the trace has no rounded size); blocks from the snapshot itself carry
/// both.
struct StateBlock
{
    uint64_t addr = 0;
    int64_t size = 0;
    int64_t requested = 0;
    StackId stack = EmptyStack;
    /// Freed by the program but still used by another stream (`active_pending_free`).
    bool pendingFree = false;
    bool operator==(const StateBlock&) const = default;
};

/// A mapped address range of the allocator (a cudaMalloc, or a mapped part of an expandable segment).
struct StateSegment
{
    uint64_t addr = 0;
    int64_t size = 0;
    int64_t stream = 0;
    StackId stack = EmptyStack;
    bool operator==(const StateSegment&) const = default;
};

/// Figures of one device at one moment. Fragmentation is `1 - largest_free / total_free` (0 without free space).
struct DeviceStats
{
    int64_t reserved = 0;
    int64_t allocated = 0;
    int64_t active = 0;
    int64_t requested = 0;
    int64_t inactive = 0; ///< free bytes inside segments
    int64_t largestFree = 0;
    int64_t segmentsWithFree = 0; ///< segments holding any of `inactive`
    int64_t segments = 0;
    int64_t blocks = 0;
};

/// Free space in segments that hold live blocks: what is left in reserve when the allocator, about to report an OOM,
/// has released its entirely free segments and retried.
struct FreeSpace
{
    int64_t bytes = 0;
    int64_t largest = 0; ///< the largest single gap between live blocks
    std::vector<uint64_t> segments; ///< addresses of the segments holding that free space
    /// Every gap between live blocks (and segment ends) of those segments, by address.
    struct Gap
    {
        uint64_t addr = 0;
        int64_t size = 0;
    };
    std::vector<Gap> gaps;
};

/// The allocator's segments and live blocks at one moment, both sorted by address.
struct AllocatorState
{
    std::vector<StateSegment> segments;
    std::vector<StateBlock> blocks;

    DeviceStats stats() const;
    FreeSpace freeInUsedSegments() const;
};

/// The official viewer's MemoryView: starts from the final snapshot of one device and moves through the trace by
/// undoing events (backwards) or redoing them (forwards), including expandable segments' map/unmap splits and merges
/// and the pending state between free_requested and free_completed.
class AllocatorReplay
{
public:
    /// With `segmentsOnly`, blocks are neither loaded nor replayed: enough to know which segment held an address.
    AllocatorReplay(const Snapshot& snapshot, int device, bool segmentsOnly = false);
    void undo(const TraceEntry& event);
    void redo(const TraceEntry& event);
    AllocatorState state() const;

private:
    bool skips(const TraceEntry& event) const;
    void addRange(uint64_t addr, int64_t size, int64_t stream, StackId stack);
    void removeRange(uint64_t addr, int64_t size);

    const Snapshot& m_snapshot;
    bool m_segmentsOnly = false;
    std::map<uint64_t, StateSegment> m_segments;
    AddressMap<StateBlock> m_blocks; // ordered by address only when the state is taken
};

} // namespace RankScope
