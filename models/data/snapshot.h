// SPDX-License-Identifier: MIT
#pragma once

#include "bigallocator.h"
#include "traceentries.h"
#include "tracetimes.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace RankScope {

using StringId = uint32_t;
using FrameId = uint32_t;

/// Id 0 of every table: the empty string (and the empty stack, EmptyStack).
constexpr StringId EmptyString = 0;

/// Every StringTable starts with the keys and values of the snapshot schema, in this order, so a string's id tells
/// which key or value it is without a lookup.
namespace Known {
enum : StringId
{
    K_None = 0,
    K_segments,
    K_device_traces,
    K_allocator_settings,
    K_external_annotations,
    K_device,
    K_address,
    K_total_size,
    K_allocated_size,
    K_active_size,
    K_requested_size,
    K_stream,
    K_segment_type,
    K_segment_pool_id,
    K_is_expandable,
    K_frames,
    K_blocks,
    K_size,
    K_state,
    K_history,
    K_real_size,
    K_addr,
    K_action,
    K_device_free,
    K_time_us,
    K_compile_context,
    K_user_metadata,
    K_name,
    K_filename,
    K_line,
    K_stage,
    K_active_allocated,
    K_active_pending_free,
    K_inactive,
    K_small,
    K_START,
    K_alloc,
    K_free_requested,
    K_free_completed,
    K_segment_alloc,
    K_segment_free,
    K_segment_map,
    K_segment_unmap,
    K_snapshot,
    K_oom,
    K_rankscope_digest,
    K_category,
    K_fx_original_trace,
    K_rankscope_category,
    K_host_segments,
    K_host_traces,
    K_pool_id,
    K_Count
};
}

/// Interned byte strings. Snapshot strings are UTF-8 that may carry lone surrogates, so bytes are kept as they are
/// and decoded leniently only when shown.
class StringTable
{
public:
    StringTable();
    // The index holds views into m_strings: a copy would point into the original.
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;
    StringId intern(std::string_view text);
    std::string_view view(StringId id) const
    {
        return m_strings[id];
    }
    size_t size() const
    {
        return m_strings.size();
    }

private:
    // A deque never moves its elements, so the views used as map keys stay valid, short strings included.
    std::deque<std::string> m_strings;
    std::unordered_map<std::string_view, StringId> m_index;
};

/// One stack frame as PyTorch writes it: {'name', 'filename', 'line'}, and for a frame in code torch.compile
/// generated, the model source it was compiled from when the snapshot carries it (`fx_original_trace`, a Python
/// traceback of the FX node, written with `augment_with_fx_traces=True`).
struct Frame
{
    StringId name = EmptyString;
    StringId filename = EmptyString;
    int64_t line = 0;
    StringId original = EmptyString;
    bool operator==(const Frame&) const = default;
};

/// Interned frames: the thousands of shared frame dicts of a snapshot become a few hundred ids.
class FrameTable
{
public:
    FrameId intern(const Frame& frame);
    const Frame& frame(FrameId id) const
    {
        return m_frames[id];
    }
    size_t size() const
    {
        return m_frames.size();
    }

private:
    struct Hash
    {
        size_t operator()(const Frame& f) const
        {
            return (size_t(f.name) * 0x9E3779B97F4A7C15ull) ^ (size_t(f.filename) << 1) ^ size_t(f.line)
                ^ (size_t(f.original) << 17);
        }
    };
    std::vector<Frame> m_frames;
    std::unordered_map<Frame, FrameId, Hash> m_index;
};

/// Interned stacks (innermost frame first, as in the file). Identical stacks share one id; id 0 is the empty stack.
class StackTable
{
public:
    StackTable();
    StackId intern(std::span<const FrameId> frames)
    {
        return intern(frames, hashOf(frames));
    }
    /// The same, with hashOf(frames) already computed by the caller.
    StackId intern(std::span<const FrameId> frames, uint64_t hash);
    static constexpr uint64_t EmptyHash = 1469598103934665603ull;
    /// Two ids per multiply: the hash of every frame list of a file is one chain of multiplies, a fifth of reading
    /// its frames. Only the index's probing depends on it; ids are given in the order stacks first appear.
    static uint64_t hashOf(std::span<const FrameId> frames)
    {
        constexpr uint64_t odd = 0x9e3779b97f4a7c15ull;
        uint64_t hash = EmptyHash;
        size_t i = 0;
        for (; i + 1 < frames.size(); i += 2)
            hash = (hash ^ (uint64_t(frames[i]) | uint64_t(frames[i + 1]) << 32)) * odd;
        if (i < frames.size())
            hash = (hash ^ frames[i]) * odd;
        return hash;
    }
    std::span<const FrameId> frames(StackId id) const
    {
        return { m_frames.data() + m_offsets[id], m_offsets[id + 1] - m_offsets[id] };
    }
    size_t size() const
    {
        return m_offsets.size() - 1;
    }

private:
    std::vector<FrameId> m_frames;
    std::vector<uint32_t> m_offsets;
    // Open addressing, linear probing: a stack's hash (high half) and id; 0 is a free slot (the empty stack is never
    // looked up). Millions of lookups per large file, nearly all hits.
    std::vector<uint64_t> m_index;
};

enum class BlockState : uint8_t
{
    Inactive,
    ActiveAllocated,
    ActivePendingFree,
    Unknown,
};

/// A block inside a segment. Addresses are computed from the segment when the file has none (legacy format).
struct Block
{
    uint64_t address = 0;
    int64_t size = 0;
    /// Bytes the caller asked for; stale for inactive blocks (see the format doc), so only meaningful when active.
    int64_t requestedSize = 0;
    StackId stack = EmptyStack;
    BlockState state = BlockState::Unknown;
};

/// One cudaMalloc'd (or mapped, for expandable segments) range, with its blocks stored in Snapshot::blocks.
struct Segment
{
    int64_t device = 0;
    uint64_t address = 0;
    int64_t totalSize = 0;
    int64_t allocatedSize = 0;
    int64_t activeSize = 0;
    int64_t requestedSize = 0;
    int64_t stream = 0;
    int64_t poolId[2] = { 0, 0 };
    StackId stack = EmptyStack;
    uint32_t firstBlock = 0;
    uint32_t blockCount = 0;
    bool isLargePool = true;
    bool isExpandable = false;
};

/// The action written for `action`, as the string table's known id; EmptyString for Other.
constexpr StringId knownActionName(TraceAction action)
{
    using namespace Known;
    constexpr StringId names[] = { K_alloc, K_free_requested, K_free_completed, K_segment_alloc, K_segment_free,
        K_segment_map, K_segment_unmap, K_snapshot, K_oom, EmptyString };
    return names[size_t(action)];
}

/// What an action's name means: Other for every name this version does not know.
constexpr TraceAction traceActionOf(StringId actionName)
{
    using namespace Known;
    switch (actionName) {
    case K_alloc:
        return TraceAction::Alloc;
    case K_free_requested:
        return TraceAction::FreeRequested;
    case K_free_completed:
        return TraceAction::FreeCompleted;
    case K_segment_alloc:
        return TraceAction::SegmentAlloc;
    case K_segment_free:
        return TraceAction::SegmentFree;
    case K_segment_map:
        return TraceAction::SegmentMap;
    case K_segment_unmap:
        return TraceAction::SegmentUnmap;
    case K_snapshot:
        return TraceAction::Snapshot;
    case K_oom:
        return TraceAction::Oom;
    default:
        return TraceAction::Other;
    }
}

/// What a trace entry is besides its numbers and its stack: its action as written (so unknown actions keep their
/// name), its stream (an index into Snapshot::streams) and its context (into Snapshot::entryContexts). A trace has a
/// handful of them, so each entry holds an index into Snapshot::entryKinds instead.
struct EntryKind
{
    StringId actionName = EmptyString;
    uint32_t streamIndex = 0;
    uint32_t contextIndex = 0;
    bool operator==(const EntryKind&) const = default;
};

/// `compile_context` and `user_metadata` of trace entries; nearly every entry shares one pair.
struct EntryContext
{
    StringId compileContext = EmptyString;
    StringId userMetadata = EmptyString;
    /// What the allocation is for, when the file says: a profile's `category` (PyTorch's memory profiler) or a
    /// digest's `rankscope_category`.
    StringId category = EmptyString;
    /// The entry's own `pool_id` (PyTorch 2.12 and later): the private pool (CUDA graph, MemPool) it was made in,
    /// (0, 0) for the default pool. Files without it leave the pool to the segment that holds the address.
    int64_t pool[2] = { 0, 0 };
    bool hasPool = false;
};

/// A `record_function` START or END mark (`external_annotations`).
struct Annotation
{
    StringId name = EmptyString;
    int64_t device = 0;
    int64_t timeUs = 0;
    bool isStart = true;
};

/// What a RankScope digest (`rankscope digest`) says about the file it was made from. A digest is itself a
/// snapshot: one device's final segments and the part of its trace that decides the comparison (see Digest).
struct DigestInfo
{
    /// The address of the stand-in allocation that carries the curve of the allocations a digest leaves out.
    static constexpr uint64_t leftOutAddress = PackedEntry::standInAddress;
    int64_t version = 0;
    /// The rank the digest was made for, -1 when unknown.
    int64_t rank = -1;
    /// The source's main device (its figures are the scalar fields below; version 1 digests keep only that one).
    int64_t device = 0;
    /// The source file's name (no folder), size and trace length.
    StringId source = EmptyString;
    int64_t sourceBytes = 0;
    int64_t sourceEvents = 0;
    /// The source's peak and last OOM as event indices of the source (-1: before the trace, or no OOM).
    int64_t sourcePeakEvent = -1;
    int64_t sourceOomEvent = -1;
    /// The same three figures for each GPU the digest keeps (version 2: every GPU of the source).
    struct DeviceSource
    {
        int64_t device = 0;
        int64_t events = 0;
        int64_t peakEvent = -1;
        int64_t oomEvent = -1;
    };
    std::vector<DeviceSource> devices;
    /// Version 4: every GPU's gate profile (GateProfile::toJson), EmptyString before.
    StringId gate = EmptyString;
    /// The figures of `device` in the source; the scalar fields when the digest does not list it.
    DeviceSource sourceOf(int64_t device) const;
};

/// A parsed snapshot file: plain data, immutable once the reader hands it out.
struct Snapshot
{
    std::vector<Segment> segments;
    std::vector<Block> blocks;
    std::vector<TraceEntries> deviceTraces;
    /// Each device trace's entry times (epoch microseconds, 0 when the writer predates `time_us`), by entry index.
    std::vector<TraceTimes> deviceTimes;
    /// Pinned host memory (`host_segments`, `host_traces`: `_record_memory_history(record_host=True)`): the host
    /// caching allocator's segments and its trace, kept apart from every GPU's. Host blocks sit in `blocks` too.
    std::vector<Segment> hostSegments;
    TraceEntries hostTrace;
    TraceTimes hostTimes;
    bool hasHostMemory = false;
    std::vector<Annotation> annotations;
    /// `allocator_settings` flattened to (key, value) text; nested dicts become `outer.inner` keys.
    std::vector<std::pair<StringId, StringId>> allocatorSettings;
    /// Raw stream handles (0 is the default stream) that EntryKind::streamIndex refers to; index 0 is stream 0.
    std::vector<int64_t> streams = { 0 };
    /// EntryKind::contextIndex refers here; index 0 is no compile context and no metadata.
    std::vector<EntryContext> entryContexts = { EntryContext {} };
    /// TraceEntry::kind refers here; the first are EntryKinds::plain() of each action, in TraceAction's order.
    std::vector<EntryKind> entryKinds = plainKinds();
    StringTable strings;
    FrameTable frames;
    StackTable stacks;
    /// Whether the file had `device_traces` at all (pre-2.0 snapshots are a bare list of segments).
    bool hasDeviceTraces = false;
    /// Set when the file is a digest rather than a full snapshot.
    std::optional<DigestInfo> digest;
    /// Whether trace entries carry a `category`: the file was made from a profile (`_profile_to_snapshot`), whose
    /// last device trace is host memory.
    bool profilerDerived = false;

    const EntryKind& kindOf(const TraceEntry& e) const
    {
        return entryKinds[e.kindIndex()];
    }
    /// The action's name as written.
    StringId actionName(const TraceEntry& e) const
    {
        return kindOf(e).actionName;
    }
    int64_t stream(const TraceEntry& e) const
    {
        return streams[kindOf(e).streamIndex];
    }
    const EntryContext& context(const TraceEntry& e) const
    {
        return entryContexts[kindOf(e).contextIndex];
    }
    /// The times of `device`'s trace; none for a device without them (a snapshot made by hand).
    const TraceTimes* timesOf(int device) const
    {
        return device >= 0 && size_t(device) < deviceTimes.size() ? &deviceTimes[size_t(device)] : nullptr;
    }
    static std::vector<EntryKind> plainKinds();
    std::span<const Block> blocksOf(const Segment& segment) const
    {
        return { blocks.data() + segment.firstBlock, segment.blockCount };
    }
    /// Devices 0 … max(len(device_traces), max segment device + 1) - 1.
    int deviceCount() const;
    /// The device index that stands for host memory in a profiler-derived file, -1 in every other file.
    int hostDevice() const
    {
        return profilerDerived && !deviceTraces.empty() ? int(deviceTraces.size()) - 1 : -1;
    }
    /// The GPUs with any allocation, trace event or segment, in order (host memory is never one).
    std::vector<int> gpuDevices() const;
    /// No segment and no trace event on any device or the host: a snapshot taken before anything was allocated or
    /// recorded. It is said to be empty, never compared as a rank that holds nothing alike.
    bool isEmpty() const;
    /// Whether `address` is a digest's stand-in for the allocations it left out (never a real block).
    bool isLeftOut(uint64_t address) const
    {
        return digest && address == DigestInfo::leftOutAddress;
    }
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

} // namespace RankScope
