// SPDX-License-Identifier: MIT
#include "snapshot.h"

#include <algorithm>
#include <array>

namespace RankScope {

namespace {
constexpr std::array<std::string_view, Known::K_Count> knownStrings = {
    "",
    "segments",
    "device_traces",
    "allocator_settings",
    "external_annotations",
    "device",
    "address",
    "total_size",
    "allocated_size",
    "active_size",
    "requested_size",
    "stream",
    "segment_type",
    "segment_pool_id",
    "is_expandable",
    "frames",
    "blocks",
    "size",
    "state",
    "history",
    "real_size",
    "addr",
    "action",
    "device_free",
    "time_us",
    "compile_context",
    "user_metadata",
    "name",
    "filename",
    "line",
    "stage",
    "active_allocated",
    "active_pending_free",
    "inactive",
    "small",
    "START",
    "alloc",
    "free_requested",
    "free_completed",
    "segment_alloc",
    "segment_free",
    "segment_map",
    "segment_unmap",
    "snapshot",
    "oom",
    "rankscope_digest",
    "category",
    "fx_original_trace",
    "rankscope_category",
    "host_segments",
    "host_traces",
    "pool_id",
};

} // namespace

StringTable::StringTable()
{
    for (std::string_view s : knownStrings)
        intern(s);
}

StringId StringTable::intern(std::string_view text)
{
    if (auto it = m_index.find(text); it != m_index.end())
        return it->second;
    const auto id = StringId(m_strings.size());
    const std::string& stored = m_strings.emplace_back(text);
    m_index.emplace(std::string_view(stored), id);
    return id;
}

FrameId FrameTable::intern(const Frame& frame)
{
    auto [it, inserted] = m_index.try_emplace(frame, FrameId(m_frames.size()));
    if (inserted)
        m_frames.push_back(frame);
    return it->second;
}

StackTable::StackTable()
{
    m_offsets = { 0, 0 };
}

StackId StackTable::intern(std::span<const FrameId> frames, uint64_t hash)
{
    if (frames.empty())
        return EmptyStack;
    // Stacks are interned once per distinct frame list object, not per reference. The index keeps the high half of
    // the hash with the id and starts probing from it, so it can grow without hashing the stacks again.
    constexpr uint64_t high = ~uint64_t(0xffffffffu);
    if (m_index.size() < 2 * size() + 16) {
        std::vector<uint64_t> old(std::max<size_t>(64, m_index.size() * 2), 0);
        old.swap(m_index);
        const size_t mask = m_index.size() - 1;
        for (const uint64_t entry : old) {
            size_t i = size_t(entry >> 32) & mask;
            while (entry != 0 && m_index[i] != 0)
                i = (i + 1) & mask;
            if (entry != 0)
                m_index[i] = entry;
        }
    }
    const size_t mask = m_index.size() - 1;
    size_t i = size_t(hash >> 32) & mask;
    for (; m_index[i] != 0; i = (i + 1) & mask) {
        if ((m_index[i] & high) != (hash & high))
            continue;
        const auto existing = this->frames(StackId(m_index[i]));
        if (std::equal(existing.begin(), existing.end(), frames.begin(), frames.end()))
            return StackId(m_index[i]);
    }
    const auto id = StackId(size());
    m_frames.insert(m_frames.end(), frames.begin(), frames.end());
    m_offsets.push_back(uint32_t(m_frames.size()));
    m_index[i] = (hash & high) | id;
    return id;
}

std::vector<EntryKind> Snapshot::plainKinds()
{
    std::vector<EntryKind> kinds;
    for (int a = 0; a <= int(TraceAction::Other); ++a)
        kinds.push_back({ knownActionName(TraceAction(a)), 0, 0 });
    return kinds;
}

int Snapshot::deviceCount() const
{
    int64_t count = int64_t(deviceTraces.size());
    for (const Segment& segment : segments)
        count = std::max(count, segment.device + 1);
    return int(count);
}

DigestInfo::DeviceSource DigestInfo::sourceOf(int64_t d) const
{
    for (const DeviceSource& source : devices) {
        if (source.device == d)
            return source;
    }
    return { d, sourceEvents, sourcePeakEvent, sourceOomEvent };
}

bool Snapshot::isEmpty() const
{
    return segments.empty() && hostSegments.empty() && hostTrace.empty()
        && std::all_of(deviceTraces.begin(), deviceTraces.end(), [](const TraceEntries& t) { return t.empty(); });
}

std::vector<int> Snapshot::gpuDevices() const
{
    std::vector<char> used(size_t(deviceCount()), 0);
    for (size_t d = 0; d < deviceTraces.size(); ++d)
        used[d] = !deviceTraces[d].empty();
    for (const Segment& segment : segments)
        used[size_t(segment.device)] = 1;
    std::vector<int> devices;
    for (size_t d = 0; d < used.size(); ++d) {
        if (used[d] && int(d) != hostDevice())
            devices.push_back(int(d));
    }
    return devices;
}

} // namespace RankScope
