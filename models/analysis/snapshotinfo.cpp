// SPDX-License-Identifier: MIT
#include "snapshotinfo.h"

#include "devicehistory.h"

#include <algorithm>

namespace RankScope {

std::vector<DeviceInfo> DeviceInfo::compute(const SnapshotPtr& snapshotPtr)
{
    const Snapshot& snapshot = *snapshotPtr;
    // The peak needs only a running maximum, not a full replay: `info` on a 1 GB file stays small.
    std::vector<DeviceInfo> devices(size_t(snapshot.deviceCount()));
    for (size_t d = 0; d < devices.size(); ++d) {
        DeviceInfo& info = devices[d];
        info.device = int(d);
        const DeviceHistory::PeakSummary peak = DeviceHistory::summarize(snapshot, int(d));
        info.peakAllocatedBytes = peak.peakBytes;
        info.peakEventIndex = peak.peakEvent;
        info.traceIncomplete = peak.traceIncomplete;
        info.oomEvents = peak.oomEvents;
        if (const TraceTimes* times = snapshot.timesOf(int(d)); times && !times->empty() && times->front() != 0) {
            info.hasTimes = true;
            info.firstTimeUs = times->front();
            info.lastTimeUs = times->back();
        }
    }
    for (size_t d = 0; d < snapshot.deviceTraces.size(); ++d)
        devices[d].traceEntries = int64_t(snapshot.deviceTraces[d].size());
    for (const Segment& seg : snapshot.segments) {
        DeviceInfo& info = devices[size_t(seg.device)];
        ++info.segments;
        info.reservedBytes += seg.totalSize;
        for (const Block& b : snapshot.blocksOf(seg)) {
            ++info.blocks;
            if (b.state == BlockState::ActiveAllocated) {
                info.allocatedBytes += b.size;
                info.activeBytes += b.size;
                info.requestedBytes += b.requestedSize;
            } else if (b.state == BlockState::ActivePendingFree) {
                info.activeBytes += b.size;
            }
        }
    }
    return devices;
}

HostMemory HostMemory::of(const Snapshot& snapshot)
{
    HostMemory host;
    host.recorded = snapshot.hasHostMemory;
    for (const Segment& seg : snapshot.hostSegments) {
        ++host.segments;
        host.reservedBytes += seg.totalSize;
        int64_t allocated = 0;
        for (const Block& b : snapshot.blocksOf(seg))
            allocated += b.state == BlockState::ActiveAllocated ? b.size : 0;
        // Segments listed without their blocks still say what they hold.
        host.allocatedBytes += seg.blockCount > 0 ? allocated : seg.allocatedSize;
    }
    // The trace's changes since its start; what was held before it is what the end holds beyond them.
    int64_t net = 0;
    int64_t highest = 0;
    for (const TraceEntry& e : snapshot.hostTrace) {
        ++host.traceEntries;
        if (e.action() == TraceAction::Alloc)
            net += e.size;
        else if (e.action() == TraceAction::FreeCompleted)
            net -= e.size;
        highest = std::max(highest, net);
    }
    const int64_t before = std::max<int64_t>(0, host.allocatedBytes - net);
    host.peakAllocatedBytes = std::max(host.allocatedBytes, before + highest);
    return host;
}

} // namespace RankScope
