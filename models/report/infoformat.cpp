// SPDX-License-Identifier: MIT
#include "infoformat.h"

#include <nlohmann/json.hpp>

namespace RankScope {

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
        if (const HostMemory& h = file.host; h.recorded) {
            out += "  pinned host memory (not a GPU's): segments " + std::to_string(h.segments) + ", reserved_bytes "
                + std::to_string(h.reservedBytes) + ", allocated_bytes " + std::to_string(h.allocatedBytes)
                + ", trace_entries " + std::to_string(h.traceEntries) + ", peak_allocated_bytes "
                + std::to_string(h.peakAllocatedBytes) + "\n";
        }
    }
    return out;
}

nlohmann::ordered_json hostMemoryJson(const HostMemory& host)
{
    return {
        { "segments", host.segments },
        { "reserved_bytes", host.reservedBytes },
        { "allocated_bytes", host.allocatedBytes },
        { "trace_entries", host.traceEntries },
        { "peak_allocated_bytes", host.peakAllocatedBytes },
    };
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
        if (file.host.recorded)
            f["host_memory"] = hostMemoryJson(file.host);
        out["files"].push_back(std::move(f));
    }
    return out.dump(2) + "\n";
}

} // namespace InfoFormat

} // namespace RankScope
