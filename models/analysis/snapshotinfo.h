// SPDX-License-Identifier: MIT
#pragma once

#include "snapshot.h"

#include <string>
#include <vector>

namespace RankScope {

/// The per-device figures of `rankscope info`, summed exactly as PyTorch defines them: reserved is the sum of segment
/// `total_size`; allocated, active and requested come from the blocks' states.
struct DeviceInfo
{
    int device = 0;
    int64_t segments = 0;
    int64_t blocks = 0;
    int64_t traceEntries = 0;
    int64_t reservedBytes = 0;
    int64_t allocatedBytes = 0;
    int64_t activeBytes = 0;
    int64_t requestedBytes = 0;
    int64_t oomEvents = 0;
    /// The maximum of the official viewer's Active Memory Timeline (its `max_at_time`).
    int64_t peakAllocatedBytes = 0;
    /// The event after which that peak is first reached; -1 when it is the state before the first event.
    int64_t peakEventIndex = -1;
    bool traceIncomplete = false;
    bool hasTimes = false;
    int64_t firstTimeUs = 0;
    int64_t lastTimeUs = 0;

    static std::vector<DeviceInfo> compute(const SnapshotPtr& snapshot);
};

/// Pinned host memory of one file (`record_host=True`): the host caching allocator's segments at the snapshot and
/// the highest it held over its trace. A process's own host memory, shown beside its GPUs and never compared with
/// them.
struct HostMemory
{
    /// Whether the file has `host_segments` or `host_traces` at all.
    bool recorded = false;
    int64_t segments = 0;
    int64_t reservedBytes = 0;
    int64_t allocatedBytes = 0;
    int64_t traceEntries = 0;
    /// The most allocated at once over the host trace (the snapshot's figure when the trace holds less).
    int64_t peakAllocatedBytes = 0;

    static HostMemory of(const Snapshot& snapshot);
};

} // namespace RankScope
