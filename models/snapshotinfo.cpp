// SPDX-License-Identifier: MIT
#include "snapshotinfo.h"

#include "devicehistory.h"

#include <nlohmann/json.hpp>

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
        if (d < snapshot.deviceTraces.size() && !snapshot.deviceTraces[d].empty()
            && snapshot.deviceTraces[d].front().timeUs != 0) {
            info.hasTimes = true;
            info.firstTimeUs = snapshot.deviceTraces[d].front().timeUs;
            info.lastTimeUs = snapshot.deviceTraces[d].back().timeUs;
        }
    }
    for (size_t d = 0; d < snapshot.deviceTraces.size(); ++d) {
        devices[d].traceEntries = int64_t(snapshot.deviceTraces[d].size());
        for (const TraceEntry& e : snapshot.deviceTraces[d])
            devices[d].oomEvents += e.action() == TraceAction::Oom;
    }
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

namespace InfoFormat {

std::string text(const std::vector<FileInfoEntry>& files)
{
    std::string out;
    for (const FileInfoEntry& file : files) {
        out += file.path.toStdString() + " (rank " + std::to_string(file.rank) + ")\n";
        if (!file.error.isEmpty()) {
            out += "  error: " + file.error.toStdString() + "\n";
            continue;
        }
        if (file.devices.empty())
            out += "  no devices\n";
        for (const DeviceInfo& d : file.devices) {
            out += "  device " + std::to_string(d.device) + ": segments " + std::to_string(d.segments) + ", blocks "
                + std::to_string(d.blocks) + ", trace_entries " + std::to_string(d.traceEntries) + ", reserved_bytes "
                + std::to_string(d.reservedBytes) + ", allocated_bytes " + std::to_string(d.allocatedBytes)
                + ", active_bytes " + std::to_string(d.activeBytes) + ", requested_bytes "
                + std::to_string(d.requestedBytes) + ", oom_events " + std::to_string(d.oomEvents)
                + ", peak_allocated_bytes " + std::to_string(d.peakAllocatedBytes) + " (event "
                + std::to_string(d.peakEventIndex) + ")" + (d.traceIncomplete ? ", trace incomplete" : "") + "\n";
        }
    }
    return out;
}

std::string json(const std::vector<FileInfoEntry>& files)
{
    nlohmann::ordered_json out;
    out["files"] = nlohmann::ordered_json::array();
    for (const FileInfoEntry& file : files) {
        nlohmann::ordered_json f;
        f["path"] = file.path.toStdString();
        f["rank"] = file.rank;
        if (!file.error.isEmpty())
            f["error"] = file.error.toStdString();
        f["devices"] = nlohmann::ordered_json::array();
        for (const DeviceInfo& d : file.devices) {
            nlohmann::ordered_json device = {
                { "device", d.device },
                { "segments", d.segments },
                { "blocks", d.blocks },
                { "trace_entries", d.traceEntries },
                { "reserved_bytes", d.reservedBytes },
                { "allocated_bytes", d.allocatedBytes },
                { "active_bytes", d.activeBytes },
                { "requested_bytes", d.requestedBytes },
                { "oom_events", d.oomEvents },
                { "peak_allocated_bytes", d.peakAllocatedBytes },
                { "peak_event_index", d.peakEventIndex },
                { "trace_incomplete", d.traceIncomplete },
            };
            if (d.hasTimes) {
                device["first_time_us"] = d.firstTimeUs;
                device["last_time_us"] = d.lastTimeUs;
            }
            f["devices"].push_back(std::move(device));
        }
        out["files"].push_back(std::move(f));
    }
    return out.dump(2) + "\n";
}

} // namespace InfoFormat

} // namespace RankScope
