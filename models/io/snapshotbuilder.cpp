// SPDX-License-Identifier: MIT
#include "snapshotbuilder.h"

#include "sidebyside.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace RankScope {

namespace {

using namespace Known;

const char* kindName(const BuilderValue& v)
{
    switch (v.kind) {
    case BuilderValue::None:
        return "None";
    case BuilderValue::Bool:
        return "a bool";
    case BuilderValue::Int:
        return "an int";
    case BuilderValue::Float:
        return "a float";
    case BuilderValue::String:
        return "a string";
    case BuilderValue::Bytes:
        return "bytes";
    case BuilderValue::Dict:
        return "a dict";
    case BuilderValue::List:
        return "a list";
    }
    return "a value";
}

StringId keyId(const BuilderValue* key)
{
    return key && key->kind == BuilderValue::String ? key->a : StringId(K_None);
}

constexpr int maxMaterializeDepth = 64;

} // namespace

SnapshotBuilder::SnapshotBuilder()
    : m_snapshot(std::make_shared<Snapshot>())
{ }

BuilderValue SnapshotBuilder::string(std::string_view text)
{
    // A field that is not memoized as a reference (compile_context's "N/A") repeats in every entry: no hashing.
    if (text == m_lastString.first)
        return BuilderValue::text(m_lastString.second);
    const StringId id = m_snapshot->strings.intern(text);
    if (m_part && id < m_stringPlaceholderOf.size() && m_stringPlaceholderOf[id])
        refuseForeign("a string alike a placeholder");
    if (text.size() <= 64)
        m_lastString = { std::string(text), id };
    return BuilderValue::text(id);
}

SchemaContext SnapshotBuilder::contextFor(bool isDict, const BuilderValue* parent, const BuilderValue* key) const
{
    using C = SchemaContext;
    if (parent == unknownParent())
        return C::Generic;
    if (!parent)
        return m_rootSet ? C::Ignore : (isDict ? C::TopDict : C::SegmentList);
    const StringId k = keyId(key);
    switch (parent->ctx) {
    case C::Generic:
        return C::Generic;
    case C::TopDict:
        if (k == K_segments && !isDict)
            return C::SegmentList;
        if (k == K_device_traces && !isDict)
            return C::DeviceTraces;
        if (k == K_external_annotations && !isDict)
            return C::AnnotationList;
        if (k == K_allocator_settings && isDict)
            return C::Settings;
        if (k == K_rankscope_digest && isDict)
            return C::Digest;
        if (k == K_host_segments && !isDict)
            return C::HostSegmentList;
        if (k == K_host_traces && !isDict)
            return C::HostTraces;
        return C::Ignore;
    case C::SegmentList:
    case C::HostSegmentList:
        return isDict ? C::Segment : C::Ignore;
    case C::Segment:
        if (k == K_blocks && !isDict)
            return C::BlockList;
        if (k == K_frames && !isDict)
            return C::FrameList;
        if (k == K_segment_pool_id && !isDict)
            return C::PoolId;
        return C::Ignore;
    case C::BlockList:
        return isDict ? C::Block : C::Ignore;
    case C::Block:
        if (k == K_frames && !isDict)
            return C::FrameList;
        if (k == K_history && !isDict)
            return C::HistoryList;
        return C::Ignore;
    case C::HistoryList:
        return isDict ? C::HistoryEntry : C::Ignore;
    case C::HistoryEntry:
        return k == K_frames && !isDict ? C::FrameList : C::Ignore;
    case C::TraceEntry:
        if (k == K_pool_id && !isDict)
            return C::EntryPool;
        return k == K_frames && !isDict ? C::FrameList : C::Ignore;
    case C::FrameList:
        return isDict ? C::Frame : C::Ignore;
    case C::DeviceTraces:
        return isDict ? C::Ignore : C::TraceList;
    case C::TraceList:
        return isDict ? C::TraceEntry : C::Ignore;
    case C::HostTraces:
        // Either the host's entries themselves or a list of them per device, as `device_traces` has.
        return isDict ? C::TraceEntry : C::TraceList;
    case C::AnnotationList:
        return isDict ? C::Annotation : C::Ignore;
    case C::Settings:
        return isDict ? C::Settings : C::Ignore;
    case C::Ignore:
    case C::PoolId:
    case C::Frame:
    case C::Annotation:
    case C::Digest:
    case C::EntryPool:
        return C::Ignore;
    }
    return C::Ignore;
}

BuilderValue SnapshotBuilder::newContainer(bool isDict, const BuilderValue* parent, const BuilderValue* key)
{
    using C = SchemaContext;
    BuilderValue v;
    v.kind = isDict ? BuilderValue::Dict : BuilderValue::List;
    // The two a large file makes millions of, typed here as contextFor() types them: an entry dict in a trace list,
    // an entry's frame list.
    if (isDict && parent && parent->ctx == C::TraceList)
        v.ctx = C::TraceEntry;
    else if (!isDict && parent && parent->ctx == C::TraceEntry && keyId(key) == K_frames)
        v.ctx = C::FrameList;
    else
        v.ctx = contextFor(isDict, parent, key);
    Snapshot& s = *m_snapshot;
    switch (v.ctx) {
    case C::Generic:
        v.a = uint32_t(m_generics.size());
        m_generics.push_back({ {}, isDict });
        break;
    case C::Segment:
        v.a = uint32_t(m_segments.size());
        m_segments.emplace_back();
        m_segments.back().forHost = parent && parent->ctx == C::HostSegmentList;
        break;
    case C::PoolId:
    case C::BlockList:
        v.a = parent->a; // the segment
        break;
    case C::Block:
        v.a = uint32_t(m_blocks.size());
        m_blocks.emplace_back();
        m_blocks.back().segment = parent->a;
        break;
    case C::HistoryList:
        v.a = parent->a; // the block
        break;
    case C::HistoryEntry:
        v.a = parent->a;
        v.b = m_blocks[parent->a].historyEntries++;
        break;
    case C::FrameList:
        v.a = newFrameList();
        break;
    case C::Frame:
        reserveForEntries(m_frames);
        v.a = uint32_t(m_frames.size());
        m_frames.emplace_back();
        break;
    case C::TraceList:
    case C::HostTraces:
        // Host entries go into a trace list of their own too; finish() sets them apart.
        v.a = uint32_t(s.deviceTraces.size());
        s.deviceTraces.emplace_back();
        s.deviceTimes.emplace_back();
        m_confirmedTrace.push_back(0);
        m_traceListedIn.push_back(NotListed);
        if (v.ctx == C::HostTraces || (parent && parent->ctx == C::HostTraces)) {
            m_traceListedIn.back() = ListedForHost;
            s.hasHostMemory = true;
        } else {
            reserveForEntries(s.deviceTraces.back());
            reserveForEntries(s.deviceTimes.back());
        }
        break;
    case C::EntryPool: {
        const uint64_t stamp = ++m_pendingPoolStamp;
        v.a = uint32_t(stamp % m_pendingPools.size());
        v.b = stamp;
        m_pendingPools[v.a] = PendingPool { stamp, { 0, 0 }, 0 };
        break;
    }
    case C::TraceEntry:
        v.a = parent->a;
        v.b = s.deviceTraces[parent->a].size();
        s.deviceTraces[parent->a].push_back({});
        s.deviceTimes[parent->a].push_back(0);
        break;
    case C::Annotation:
        v.a = uint32_t(s.annotations.size());
        s.annotations.emplace_back();
        break;
    case C::Settings:
        // Nested settings dicts (roundup_power2_divisions) keep their key as a prefix.
        v.a = uint32_t(m_settingPrefixes.size());
        if (parent && parent->ctx == C::Settings && key) {
            const std::string prefix = m_settingPrefixes[parent->a] == EmptyString
                ? settingText(*key)
                : std::string(s.strings.view(m_settingPrefixes[parent->a])) + '.' + settingText(*key);
            m_settingPrefixes.push_back(s.strings.intern(prefix));
        } else {
            m_settingPrefixes.push_back(EmptyString);
        }
        break;
    case C::Digest:
        s.digest.emplace();
        break;
    case C::Ignore:
    case C::TopDict:
    case C::SegmentList:
    case C::DeviceTraces:
    case C::AnnotationList:
        break;
    case C::HostSegmentList:
        s.hasHostMemory = true;
        break;
    }
    return v;
}

void SnapshotBuilder::setRoot(const BuilderValue& root)
{
    using C = SchemaContext;
    // Materialize before marking the root as set: the root's own context depends on it not being set yet.
    const BuilderValue value = root.ctx == C::Generic ? materialize(root, BuilderValue {}, nullptr, 0) : root;
    m_rootSet = true;
    m_rootIsList = value.ctx == C::SegmentList;
    if (value.ctx == C::SegmentList) {
        m_hasSegments = true; // pre-2.0 snapshots are a bare list of segments
        return;
    }
    if (value.ctx != C::TopDict)
        throw SchemaError(std::string("not a PyTorch memory snapshot: the top-level object is ") + kindName(value)
            + ", expected a dict with 'segments' or a list of segments");
    if (!m_hasSegments)
        throw SchemaError("not a PyTorch memory snapshot: the top-level dict has no 'segments' key");
}

BuilderValue SnapshotBuilder::materialize(
    const BuilderValue& generic, const BuilderValue& parent, const BuilderValue* key, int depth)
{
    if (depth > maxMaterializeDepth)
        throw SchemaError("objects nested too deeply for a memory snapshot");
    const bool topLevel = parent.kind == BuilderValue::None;
    BuilderValue typed = newContainer(generic.kind == BuilderValue::Dict, topLevel ? nullptr : &parent, key);
    // Copy: materializing children may grow m_generics.
    const std::vector<BuilderValue> items = m_generics[generic.a].items;
    m_materializeBudget += items.size();
    // A memo reference can make the same generic object be placed many times; bound the total work.
    if (m_materializeBudget > 16 * (m_generics.size() + 1) + (1u << 20))
        throw SchemaError("too many references to the same objects");
    if (typed.kind == BuilderValue::Dict) {
        for (size_t i = 0; i + 1 < items.size(); i += 2)
            setItem(typed, items[i], place(typed, &items[i], items[i + 1], depth + 1));
    } else {
        for (const BuilderValue& item : items)
            append(typed, place(typed, nullptr, item, depth + 1));
    }
    return typed;
}

BuilderValue SnapshotBuilder::place(const BuilderValue& parent, const BuilderValue* key, BuilderValue value, int depth)
{
    if (value.ctx == SchemaContext::Generic && value.isContainer() && parent.ctx != SchemaContext::Generic
        && parent.ctx != SchemaContext::Ignore)
        return materialize(value, parent, key, depth);
    return value;
}

void SnapshotBuilder::publishArrays(PageAhead& pages) const
{
    // A file whose entries share their frame lists makes few: a megabyte ahead is several chunks' worth of either.
    pages.publish(PageAhead::FrameLists, m_frameLists.data(), m_frameLists.size() * sizeof(FrameListBuild),
        m_frameLists.capacity() * sizeof(FrameListBuild), size_t(1) << 20);
    pages.publish(PageAhead::Frames, m_frames.data(), m_frames.size() * sizeof(FrameBuild),
        m_frames.capacity() * sizeof(FrameBuild), size_t(1) << 20);
    if (m_snapshot->deviceTraces.empty())
        return;
    const TraceEntries& trace = m_snapshot->deviceTraces.back();
    pages.publish(PageAhead::Trace, trace.data(), trace.bytes(), trace.capacityBytes());
    const TraceTimes& times = m_snapshot->deviceTimes.back();
    pages.publish(PageAhead::Times, times.data(), times.bytes(), times.capacityBytes());
}

int64_t SnapshotBuilder::intOf(const BuilderValue& value, const char* field) const
{
    if (value.kind == BuilderValue::Int || value.kind == BuilderValue::Bool)
        return value.i;
    throw SchemaError(std::string("'") + field + "' should be an int, found " + kindName(value));
}

StackId SnapshotBuilder::stackOf(const BuilderValue& value)
{
    if (value.ctx != SchemaContext::FrameList)
        return EmptyStack; // None or an ignored shape (a dict from before a part too, whatever it is): no frames
    FrameListBuild& list = m_frameLists[value.a];
    if (!list.interned) {
        if (!list.preinterned) {
            auto it = m_listFrames.find(value.a);
            list.id = it == m_listFrames.end() ? EmptyStack : m_snapshot->stacks.intern(it->second);
            if (it != m_listFrames.end())
                m_listFrames.erase(it);
        }
        list.interned = true;
    }
    return list.id;
}

void SnapshotBuilder::wrongItem(const char* expected, const BuilderValue& got) const
{
    throw SchemaError(std::string("expected ") + expected + ", found " + kindName(got));
}

void SnapshotBuilder::setItem(const BuilderValue& dict, const BuilderValue& key, BuilderValue value)
{
    using C = SchemaContext;
    if (dict.isForeign())
        refuseForeign("a dict from before the part changed in it");
    value = place(dict, &key, value);
    const StringId k = keyId(&key);
    Snapshot& s = *m_snapshot;
    switch (dict.ctx) {
    case C::Ignore:
        return;
    case C::Generic:
        m_generics[dict.a].items.push_back(key);
        m_generics[dict.a].items.push_back(value);
        return;
    case C::TopDict:
        if (k == K_segments) {
            if (value.ctx != C::SegmentList)
                throw SchemaError(std::string("'segments' should be a list, found ") + kindName(value));
            m_hasSegments = true;
        } else if (k == K_device_traces && value.ctx == C::DeviceTraces) {
            s.hasDeviceTraces = true;
        }
        return;
    case C::Segment:
        setSegmentField(m_segments[dict.a], k, value);
        return;
    case C::Block:
        setBlockField(m_blocks[dict.a], k, value);
        return;
    case C::HistoryEntry:
        // Only the first history entry matters: legacy blocks take their frames and size from it.
        if (dict.b == 0) {
            if (k == K_frames)
                m_blocks[dict.a].historyStack = stackOf(value);
            else if (k == K_real_size)
                m_blocks[dict.a].historyRealSize = intOf(value, "real_size");
        }
        return;
    case C::Frame: {
        FrameBuild& frame = m_frames[dict.a];
        if (frame.interned)
            throw SchemaError("a frame dict was changed after it was used");
        if (k == K_name && value.kind == BuilderValue::String)
            frame.frame.name = value.a;
        else if (k == K_filename && value.kind == BuilderValue::String)
            frame.frame.filename = value.a;
        else if (k == K_line)
            frame.frame.line = intOf(value, "line");
        else if (k == K_fx_original_trace && value.kind == BuilderValue::String)
            frame.frame.original = value.a;
        return;
    }
    case C::TraceEntry: {
        TraceEntries& trace = s.deviceTraces[dict.a];
        TraceEntry e = trace[dict.b];
        setTraceField(e, dict.a, dict.b, k, value);
        trace.set(dict.b, e);
        return;
    }
    case C::Annotation: {
        Annotation& a = s.annotations[dict.a];
        if (k == K_stage && value.kind == BuilderValue::String)
            a.isStart = value.a == K_START;
        else if (k == K_name && value.kind == BuilderValue::String)
            a.name = value.a;
        else if (k == K_device)
            a.device = intOf(value, "device");
        else if (k == K_time_us)
            a.timeUs = intOf(value, "time_us");
        return;
    }
    case C::Settings:
        setSetting(dict.a, key, value);
        return;
    case C::Digest:
        setDigestField(key, value);
        return;
    case C::SegmentList:
    case C::PoolId:
    case C::BlockList:
    case C::HistoryList:
    case C::FrameList:
    case C::DeviceTraces:
    case C::TraceList:
    case C::AnnotationList:
    case C::HostSegmentList:
    case C::HostTraces:
    case C::EntryPool:
        break;
    }
    throw SchemaError("a list was used as a dict");
}

void SnapshotBuilder::setTraceItems(const BuilderValue& entry, std::span<const BuilderValue> items)
{
    // One entry's fields, set on a copy and stored once: the trace holds them packed (TraceEntries).
    TraceEntryDraft draft = beginTraceEntry(entry);
    for (size_t i = 0; i + 1 < items.size(); i += 2) {
        const StringId key = keyId(&items[i]);
        if (!quickTraceField(draft, key, items[i + 1]))
            setTraceField(draft.entry, entry.a, entry.b, key, items[i + 1]);
    }
    endTraceEntry(draft);
}

void SnapshotBuilder::setSegmentField(SegmentBuild& seg, StringId key, const BuilderValue& value)
{
    Segment& s = seg.segment;
    switch (key) {
    case K_device:
    case K_address:
    case K_total_size:
    case K_allocated_size:
    case K_active_size:
    case K_requested_size:
    case K_stream:
    case K_segment_type:
    case K_segment_pool_id:
    case K_is_expandable:
    case K_frames:
    case K_blocks:
        seg.isSegment = true;
        break;
    default:
        if (!seg.isSegment) {
            const auto index = uint32_t(&seg - m_segments.data());
            if (m_strangeSegment == UINT32_MAX)
                m_strangeSegment = index;
            if (m_strangeSegment == index && m_strangeKeys.size() < 6)
                m_strangeKeys.push_back(key);
        }
        return;
    }
    switch (key) {
    case K_device:
        s.device = intOf(value, "device");
        if (!seg.forHost && (s.device < 0 || s.device > 65535))
            throw SchemaError("segment 'device' " + std::to_string(s.device) + " is not a device ordinal");
        break;
    case K_address:
        s.address = uint64_t(intOf(value, "address"));
        break;
    case K_total_size:
        s.totalSize = intOf(value, "total_size");
        break;
    case K_allocated_size:
        s.allocatedSize = intOf(value, "allocated_size");
        break;
    case K_active_size:
        s.activeSize = intOf(value, "active_size");
        break;
    case K_requested_size:
        s.requestedSize = intOf(value, "requested_size");
        break;
    case K_stream:
        s.stream = intOf(value, "stream");
        break;
    case K_segment_type:
        s.isLargePool = !(value.kind == BuilderValue::String && value.a == K_small);
        break;
    case K_is_expandable:
        s.isExpandable = value.kind == BuilderValue::Bool && value.i != 0;
        break;
    case K_frames:
        s.stack = stackOf(value);
        break;
    case K_blocks:
        if (value.ctx != SchemaContext::BlockList || &m_segments[value.a] != &seg)
            throw SchemaError(std::string("segment 'blocks' should be its own list, found ") + kindName(value));
        seg.hasBlocks = true;
        break;
    default:
        break;
    }
}

void SnapshotBuilder::setBlockField(BlockBuild& block, StringId key, const BuilderValue& value)
{
    Block& b = block.block;
    switch (key) {
    case K_address:
        b.address = uint64_t(intOf(value, "address"));
        block.hasAddress = true;
        break;
    case K_size:
        b.size = intOf(value, "size");
        break;
    case K_requested_size:
        b.requestedSize = intOf(value, "requested_size");
        block.hasRequested = true;
        break;
    case K_state:
        if (value.kind == BuilderValue::String) {
            b.state = value.a == K_active_allocated ? BlockState::ActiveAllocated
                : value.a == K_active_pending_free  ? BlockState::ActivePendingFree
                : value.a == K_inactive             ? BlockState::Inactive
                                                    : BlockState::Unknown;
        }
        break;
    case K_frames:
        b.stack = stackOf(value);
        block.hasFrames = true;
        break;
    default:
        break;
    }
}

template <typename Work> void SnapshotBuilder::stepKind(TraceEntry& e, size_t field, uint64_t value, Work&& work)
{
    if (knownStep(e, field, value))
        return;
    const uint32_t from = e.kind;
    work();
    m_kindSteps[field][stepSlot(from, value)] = KindStep { from, e.kind, value };
}

void SnapshotBuilder::setTraceField(
    TraceEntry& e, uint32_t list, uint64_t index, StringId key, const BuilderValue& value)
{
    switch (key) {
    case K_action:
        if (value.kind != BuilderValue::String)
            throw SchemaError(std::string("trace 'action' should be a string, found ") + kindName(value));
        stepKind(e, ActionField, value.a, [&] {
            EntryKind kind = m_snapshot->kindOf(e);
            kind.actionName = value.a;
            e.kind = kindOf(kind);
        });
        break;
    case K_addr:
    case K_device_free:
        e.addr = uint64_t(intOf(value, key == K_addr ? "addr" : "device_free"));
        break;
    case K_size:
        e.size = intOf(value, "size");
        break;
    case K_stream: {
        const int64_t stream = intOf(value, "stream");
        stepKind(e, StreamField, uint64_t(stream), [&] {
            EntryKind kind = m_snapshot->kindOf(e);
            kind.streamIndex = streamIndex(stream);
            e.kind = kindOf(kind);
        });
    } break;
    case K_time_us:
        m_snapshot->deviceTimes[list].set(index, intOf(value, "time_us"));
        break;
    case K_compile_context:
    case K_user_metadata:
        if (value.kind == BuilderValue::String) {
            stepKind(e, key == K_compile_context ? CompileContextField : UserMetadataField, value.a, [&] {
                EntryContext context = m_snapshot->context(e);
                (key == K_compile_context ? context.compileContext : context.userMetadata) = value.a;
                setContext(e, context);
            });
        }
        break;
    case K_frames:
        e.stack = stackOf(value);
        break;
    case K_pool_id:
        if (value.isForeign() || (value.ctx == SchemaContext::FrameList && m_frameLists[value.a].foreign))
            refuseForeign("a pool id from before the part"); // its pair may still be pending there
        if (value.ctx == SchemaContext::EntryPool) {
            const PendingPool& pending = m_pendingPools[value.a];
            if (pending.stamp == value.b && pending.count == 2) {
                EntryContext context = m_snapshot->context(e);
                context.pool[0] = pending.pool[0];
                context.pool[1] = pending.pool[1];
                context.hasPool = true;
                setContext(e, context);
            }
        }
        break;
    case K_category:
    case K_rankscope_category:
        if (key == K_category)
            m_snapshot->profilerDerived = true;
        if (value.kind == BuilderValue::String) {
            stepKind(e, CategoryField, value.a, [&] {
                EntryContext context = m_snapshot->context(e);
                context.category = value.a;
                setContext(e, context);
            });
        }
        break;
    default:
        break;
    }
}

void SnapshotBuilder::setContext(TraceEntry& e, const EntryContext& context)
{
    EntryKind kind = m_snapshot->kindOf(e);
    kind.contextIndex = contextIndex(context);
    e.kind = kindOf(kind);
}

uint32_t SnapshotBuilder::kindOf(const EntryKind& kind)
{
    const TraceAction action = traceActionOf(kind.actionName);
    if (kind.streamIndex == 0 && kind.contextIndex == 0 && kind.actionName == knownActionName(action))
        return EntryKinds::plain(action);
    std::pair<EntryKind, uint32_t>& recent = m_recentKinds[EntryKindHash()(kind) >> 58];
    if (recent.first == kind)
        return recent.second;
    auto [it, inserted] = m_kindIndex.try_emplace(kind, uint32_t(m_snapshot->entryKinds.size()));
    if (inserted) {
        if (m_snapshot->entryKinds.size() >= EntryKinds::most) {
            m_kindIndex.erase(it);
            throw SchemaError("more than " + std::to_string(EntryKinds::most)
                + " different trace entries by action, stream and context");
        }
        m_snapshot->entryKinds.push_back(kind);
    }
    // A plain kind is never looked up here, so a slot still at its start (the plain Other) never matches.
    recent = { kind, EntryKinds::make(action, it->second) };
    return recent.second;
}

uint32_t SnapshotBuilder::streamIndex(int64_t stream)
{
    if (stream == 0)
        return 0;
    // Consecutive entries nearly always share their stream and their context: one lookup per change.
    if (stream == m_lastStream.first)
        return m_lastStream.second;
    auto [it, inserted] = m_streamIndex.try_emplace(stream, uint32_t(m_snapshot->streams.size()));
    if (inserted)
        m_snapshot->streams.push_back(stream);
    m_lastStream = *it;
    return it->second;
}

uint32_t SnapshotBuilder::contextIndex(EntryContext context)
{
    if (context.compileContext == EmptyString && context.userMetadata == EmptyString && context.category == EmptyString
        && !context.hasPool)
        return 0;
    const ContextKey key { context.compileContext, context.userMetadata, context.category, context.pool[0],
        context.pool[1], context.hasPool };
    if (key == m_lastContext.first)
        return m_lastContext.second;
    auto [it, inserted] = m_contextIndex.try_emplace(key, uint32_t(m_snapshot->entryContexts.size()));
    if (inserted)
        m_snapshot->entryContexts.push_back(context);
    m_lastContext = *it;
    return it->second;
}

std::string SnapshotBuilder::settingText(const BuilderValue& value) const
{
    switch (value.kind) {
    case BuilderValue::None:
        return "None";
    case BuilderValue::Bool:
        return value.i ? "True" : "False";
    case BuilderValue::Int:
        return std::to_string(value.i);
    case BuilderValue::Float: {
        // As Python's repr shows it: shortest round-trip digits, and "0.0" rather than "0".
        char buf[32];
        const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value.f);
        std::string text(buf, ec == std::errc() ? end : buf);
        if (text.find_first_of(".eni") == std::string::npos)
            text += ".0";
        return text;
    }
    case BuilderValue::String:
        return std::string(m_snapshot->strings.view(value.a));
    case BuilderValue::Bytes:
        return "<bytes>";
    case BuilderValue::Dict:
    case BuilderValue::List:
        break;
    }
    return {};
}

void SnapshotBuilder::setSetting(uint32_t dictIndex, const BuilderValue& key, const BuilderValue& value)
{
    if (value.isContainer())
        return; // nested dicts add their own items under a prefix; other containers are not settings
    Snapshot& s = *m_snapshot;
    const StringId prefix = m_settingPrefixes[dictIndex];
    std::string name =
        prefix == EmptyString ? settingText(key) : std::string(s.strings.view(prefix)) + '.' + settingText(key);
    s.allocatorSettings.emplace_back(s.strings.intern(name), s.strings.intern(settingText(value)));
}

void SnapshotBuilder::setDigestField(const BuilderValue& key, const BuilderValue& value)
{
    if (key.kind != BuilderValue::String)
        return;
    DigestInfo& d = *m_snapshot->digest;
    const std::string_view name = m_snapshot->strings.view(key.a);
    if (name == "source" || name == "gate") {
        if (value.kind == BuilderValue::String)
            (name == "source" ? d.source : d.gate) = value.a;
        return;
    }
    // Version 2 lists every GPU's figures as device_<d>_<field>.
    int64_t device = 0;
    const std::string_view prefix = "device_";
    if (name.starts_with(prefix) && name.size() > prefix.size()) {
        const std::string_view rest = name.substr(prefix.size());
        const size_t underscore = rest.find('_');
        const auto [end, ec] = std::from_chars(rest.data(), rest.data() + std::min(underscore, rest.size()), device);
        if (ec == std::errc() && underscore != std::string_view::npos && end == rest.data() + underscore) {
            const std::string_view what = rest.substr(underscore + 1);
            auto it = std::find_if(d.devices.begin(), d.devices.end(),
                [&](const DigestInfo::DeviceSource& s) { return s.device == device; });
            if (it == d.devices.end())
                it = d.devices.insert(d.devices.end(), DigestInfo::DeviceSource { device, 0, -1, -1 });
            int64_t* deviceField = what == "source_events" ? &it->events
                : what == "source_peak_event"              ? &it->peakEvent
                : what == "source_oom_event"               ? &it->oomEvent
                                                           : nullptr;
            if (deviceField)
                *deviceField = intOf(value, "rankscope_digest field");
            return;
        }
    }
    int64_t* field = name == "version" ? &d.version
        : name == "rank"               ? &d.rank
        : name == "device"             ? &d.device
        : name == "source_bytes"       ? &d.sourceBytes
        : name == "source_events"      ? &d.sourceEvents
        : name == "source_peak_event"  ? &d.sourcePeakEvent
        : name == "source_oom_event"   ? &d.sourceOomEvent
                                       : nullptr;
    if (field)
        *field = intOf(value, "rankscope_digest field");
}

FrameId SnapshotBuilder::internFrame(const BuilderValue& value)
{
    if (value.isForeign())
        return placeholderFrame(value.b, false);
    if (value.ctx != SchemaContext::Frame)
        wrongItem("a frame dict in 'frames'", value);
    FrameBuild& frame = m_frames[value.a];
    if (!frame.interned) {
        frame.id = m_snapshot->frames.intern(frame.frame);
        frame.interned = true;
        if (m_part && frame.id < m_placeholderOf.size() && m_placeholderOf[frame.id])
            refuseForeign("a frame alike a placeholder");
    }
    return frame.id;
}

void SnapshotBuilder::refuseForeign(const char* where)
{
    throw SplitRefused(where);
}

FrameId SnapshotBuilder::placeholderFrame(uint64_t memoIndex, bool isList)
{
    if (!m_part || memoIndex > (uint64_t(1) << 60))
        refuseForeign("a placeholder outside a part");
    const uint64_t tag = memoIndex * 2 + (isList ? 2 : 1);
    if (auto it = m_placeholders.find(tag); it != m_placeholders.end())
        return it->second;
    // A frame no file holds in practice; one that does makes the part refused rather than mixed up with it.
    Frame frame;
    frame.line = std::numeric_limits<int64_t>::min() + int64_t(tag);
    const size_t before = m_snapshot->frames.size();
    const FrameId id = m_snapshot->frames.intern(frame);
    if (id != before)
        refuseForeign("a frame alike a placeholder");
    m_placeholderOf.resize(id + 1, 0);
    m_placeholderOf[id] = tag;
    m_placeholders.emplace(tag, id);
    return id;
}

BuilderValue SnapshotBuilder::placeholderString(uint64_t memoIndex)
{
    const size_t before = m_snapshot->strings.size();
    const StringId id = m_snapshot->strings.intern("\x01rankscope placeholder " + std::to_string(memoIndex));
    if (!m_part || id != before)
        refuseForeign("a string alike a placeholder");
    m_stringPlaceholderOf.resize(id + 1, 0);
    m_stringPlaceholderOf[id] = memoIndex + 1;
    return BuilderValue::text(id);
}

uint32_t SnapshotBuilder::newFrameList()
{
    reserveForEntries(m_frameLists);
    m_frameLists.emplace_back();
    return uint32_t(m_frameLists.size() - 1);
}

BuilderValue SnapshotBuilder::placeholderList(uint64_t memoIndex)
{
    // Its stack is a placeholder frame of its own, and it takes no more frames (as a list used as a stack).
    const FrameId frame = placeholderFrame(memoIndex, true);
    BuilderValue v;
    v.kind = BuilderValue::List;
    v.ctx = SchemaContext::FrameList;
    v.a = newFrameList();
    FrameListBuild& list = m_frameLists[v.a];
    list.id = m_snapshot->stacks.intern(std::array<FrameId, 1> { frame });
    list.interned = true;
    list.foreign = true;
    return v;
}

BuilderValue SnapshotBuilder::startPart()
{
    m_part = true;
    const BuilderValue root = newContainer(true, nullptr, nullptr);
    const BuilderValue key = string("device_traces");
    const BuilderValue traces = newContainer(false, &root, &key);
    return newContainer(false, &traces, nullptr);
}

bool SnapshotBuilder::takesPartMemo(const SnapshotBuilder& part, const BuilderValue& v)
{
    using C = SchemaContext;
    if (v.isForeign())
        return false;
    if (v.ctx == C::FrameList && part.m_frameLists[v.a].foreign)
        return false; // stored again under another index: the stand-in would become a list of its own
    switch (v.ctx) {
    case C::Ignore:
    case C::FrameList:
    case C::Frame:
    case C::TraceEntry:
    case C::EntryPool:
        return true;
    default:
        return false;
    }
}

bool SnapshotBuilder::absorb(SnapshotBuilder& part, const BuilderValue& list,
    const std::function<std::optional<BuilderValue>(uint64_t)>& before, const std::function<void()>& meanwhile)
{
    using C = SchemaContext;
    Snapshot& s = *m_snapshot;
    const Snapshot& ps = *part.m_snapshot;
    // Only a part that made complete trace entries in its one list and nothing else, after the last entry this
    // parse confirmed, is taken; anything else is read again by this parse.
    if (list.ctx != C::TraceList || !part.m_part || !part.m_segments.empty() || !part.m_blocks.empty()
        || !part.m_generics.empty() || !part.m_listFrames.empty() || !part.m_settingPrefixes.empty() || ps.digest
        || !ps.annotations.empty() || ps.hasHostMemory || !ps.allocatorSettings.empty() || ps.deviceTraces.size() != 1
        || part.m_confirmedTrace[0] != ps.deviceTraces[0].size()
        || m_confirmedTrace[list.a] != s.deviceTraces[list.a].size())
        return false;
    auto tagOf = [&](FrameId f) { return f < part.m_placeholderOf.size() ? part.m_placeholderOf[f] : 0; };
    auto isList = [](uint64_t tag) { return tag != 0 && tag % 2 == 0; };
    // Everything checked before anything changes.
    for (const auto& [tag, frame] : part.m_placeholders) {
        const std::optional<BuilderValue> value = before((tag - 1) / 2);
        if (!value || (!isList(tag) && !internedFrame(*value)))
            return false;
    }
    for (StackId st = 1; st < ps.stacks.size(); ++st) {
        const std::span<const FrameId> frames = ps.stacks.frames(st);
        for (const FrameId f : frames) {
            if (isList(tagOf(f)) && frames.size() != 1)
                return false;
        }
    }
    for (size_t i = 0; i < part.m_stringPlaceholderOf.size(); ++i) {
        if (part.m_stringPlaceholderOf[i]) {
            const std::optional<BuilderValue> value = before(part.m_stringPlaceholderOf[i] - 1);
            if (!value || value->kind != BuilderValue::String)
                return false;
        }
    }

    std::vector<StringId>& strings = m_absorbed.strings;
    strings.assign(ps.strings.size(), EmptyString);
    for (size_t i = 0; i < strings.size(); ++i) {
        const uint64_t placeholder = i < part.m_stringPlaceholderOf.size() ? part.m_stringPlaceholderOf[i] : 0;
        strings[i] = placeholder ? before(placeholder - 1)->a : s.strings.intern(ps.strings.view(StringId(i)));
    }
    std::vector<FrameId>& frames = m_absorbed.frames;
    frames.assign(ps.frames.size(), 0);
    for (FrameId f = 0; f < frames.size(); ++f) {
        const uint64_t tag = tagOf(f);
        if (tag == 0)
            frames[f] = s.frames.intern(absorbedFrame(ps.frames.frame(f)));
        else if (!isList(tag))
            frames[f] = *internedFrame(*before((tag - 1) / 2));
    }
    std::vector<StackId>& stacks = m_absorbed.stacks;
    stacks.assign(ps.stacks.size(), EmptyStack);
    std::vector<FrameId> stack;
    for (StackId st = 1; st < stacks.size(); ++st) {
        const std::span<const FrameId> in = ps.stacks.frames(st);
        if (in.size() == 1 && isList(tagOf(in[0]))) {
            stacks[st] = stackOf(*before((tagOf(in[0]) - 2) / 2));
            continue;
        }
        stack.clear();
        for (const FrameId f : in)
            stack.push_back(frames[f]);
        stacks[st] = s.stacks.intern(stack);
    }
    std::vector<uint32_t> streams(ps.streams.size(), 0);
    for (size_t i = 0; i < streams.size(); ++i)
        streams[i] = streamIndex(ps.streams[i]);
    std::vector<uint32_t> contexts(ps.entryContexts.size(), 0);
    for (size_t i = 1; i < contexts.size(); ++i) {
        EntryContext context = ps.entryContexts[i];
        context.compileContext = strings[context.compileContext];
        context.userMetadata = strings[context.userMetadata];
        context.category = strings[context.category];
        contexts[i] = contextIndex(context);
    }
    std::vector<uint32_t> kinds(ps.entryKinds.size(), 0);
    for (size_t i = 0; i < kinds.size(); ++i) {
        EntryKind kind = ps.entryKinds[i];
        kind.actionName = strings[kind.actionName];
        kind.streamIndex = streams[kind.streamIndex];
        kind.contextIndex = contexts[kind.contextIndex];
        kinds[i] = kindOf(kind);
    }
    s.profilerDerived = s.profilerDerived || ps.profilerDerived;
    // The part's pool pairs take the stamps (and so the slots) this parse would have given them.
    const uint64_t stamp = m_pendingPoolStamp;
    for (const PendingPool& pending : part.m_pendingPools) {
        if (pending.stamp != 0)
            m_pendingPools[(stamp + pending.stamp) % m_pendingPools.size()] =
                PendingPool { stamp + pending.stamp, { pending.pool[0], pending.pool[1] }, pending.count };
    }
    m_pendingPoolStamp = stamp + part.m_pendingPoolStamp;
    m_absorbed.poolStamp = stamp;

    TraceEntries& trace = s.deviceTraces[list.a];
    const TraceEntries& from = ps.deviceTraces[0];
    const auto copyEntries = [&] {
        // The part's pages are given back as they are copied, so the two copies of its entries are never all in
        // memory.
        constexpr size_t block = size_t(1) << 16;
        for (size_t first = 0; first < from.size(); first += block) {
            const size_t last = std::min(from.size(), first + block);
            for (size_t i = first; i < last; ++i) {
                TraceEntry e = from[i];
                e.stack = stacks[e.stack];
                e.kind = kinds[e.kindIndex()];
                trace.push_back(e);
            }
            BigBlocks::trim(from.data() + first * from.entryBytes(), from.data() + last * from.entryBytes());
        }
        s.deviceTimes[list.a].append(ps.deviceTimes[0]);
    };
    // The entries and their times are copied on another core while `meanwhile` (the reader taking in the part's memo)
    // runs on this one: each took about a twentieth of a second of the 1 GB benchmark rank's load, on one core while
    // the other waited. They share nothing but the tables above, which neither changes.
    sideBySide(copyEntries, [&] {
        if (meanwhile)
            meanwhile();
    });
    m_confirmedTrace[list.a] = uint32_t(trace.size());
    return true;
}

Frame SnapshotBuilder::absorbedFrame(Frame f) const
{
    f.name = m_absorbed.strings[f.name];
    f.filename = m_absorbed.strings[f.filename];
    f.original = m_absorbed.strings[f.original];
    return f;
}

BuilderValue SnapshotBuilder::absorbedMemo(const SnapshotBuilder& part, BuilderValue v)
{
    using C = SchemaContext;
    if (v.kind == BuilderValue::String) {
        v.a = absorbedString(v.a);
    } else if (v.ctx == C::FrameList) {
        v.a = absorbedFrameList(part, v.a);
    } else if (v.ctx == C::Frame) {
        const FrameBuild& from = part.m_frames[v.a];
        FrameBuild to;
        to.frame = absorbedFrame(from.frame);
        to.interned = from.interned;
        to.id = from.interned ? m_absorbed.frames[from.id] : 0;
        v.a = uint32_t(m_frames.size());
        m_frames.push_back(to);
    } else if (v.ctx == C::EntryPool) {
        v.b += m_absorbed.poolStamp;
        v.a = uint32_t(v.b % m_pendingPools.size());
    }
    return v;
}

uint32_t SnapshotBuilder::absorbedFrameList(const SnapshotBuilder& part, uint32_t partList)
{
    const FrameListBuild& from = part.m_frameLists[partList];
    FrameListBuild to;
    to.interned = from.interned;
    to.preinterned = from.preinterned;
    to.id = from.interned || from.preinterned ? m_absorbed.stacks[from.id] : EmptyStack;
    const uint32_t list = newFrameList();
    m_frameLists[list] = to;
    return list;
}

std::vector<FrameId>& SnapshotBuilder::framesOf(uint32_t listIndex)
{
    FrameListBuild& list = m_frameLists[listIndex];
    std::vector<FrameId>& frames = m_listFrames[listIndex];
    if (list.preinterned) {
        const std::span<const FrameId> interned = m_snapshot->stacks.frames(list.id);
        frames.assign(interned.begin(), interned.end());
        list.preinterned = false;
    }
    return frames;
}

bool SnapshotBuilder::setWholeFrameList(const BuilderValue& list, std::span<const FrameId> frames)
{
    return setWholeFrameList(list, frames, StackTable::hashOf(frames));
}

SnapshotBuilder::FrameListBuild* SnapshotBuilder::wholeFrameList(const BuilderValue& list)
{
    if (list.ctx != SchemaContext::FrameList)
        return nullptr;
    FrameListBuild& build = m_frameLists[list.a];
    if (build.interned || build.preinterned || m_listFrames.count(list.a))
        return nullptr;
    return &build;
}

bool SnapshotBuilder::setWholeFrameList(
    const BuilderValue& list, std::span<const FrameId> frames, uint64_t hash, StackId* stack)
{
    FrameListBuild* build = wholeFrameList(list);
    if (!build)
        return false;
    build->id = m_snapshot->stacks.intern(frames, hash);
    build->preinterned = true;
    if (stack)
        *stack = build->id;
    return true;
}

bool SnapshotBuilder::setWholeFrameList(const BuilderValue& list, StackId stack)
{
    FrameListBuild* build = wholeFrameList(list);
    if (!build)
        return false;
    build->id = stack;
    build->preinterned = true;
    return true;
}

void SnapshotBuilder::appendAll(const BuilderValue& list, std::span<const BuilderValue> values)
{
    if (list.ctx == SchemaContext::TraceList) {
        // A batch of entry dicts, each the next one made in place: counted here without append()'s dispatch.
        for (const BuilderValue& value : values) {
            if (nextEntryOf(list, value))
                ++m_confirmedTrace[list.a];
            else
                append(list, value);
        }
        return;
    }
    if (list.ctx != SchemaContext::FrameList) {
        for (const BuilderValue& value : values)
            append(list, value);
        return;
    }
    // A frame list almost always arrives whole in one APPENDS: intern it from a reused buffer at once, so the
    // millions of lists of a large file need no vector each. A later APPENDS to the same list restores its frames.
    if (m_frameLists[list.a].interned)
        throw SchemaError("a frame list was changed after it was used");
    m_scratchFrames.clear();
    for (const BuilderValue& item : values) {
        // Frames referenced from the memo are typed already; only a dict made in place may still need its type.
        m_scratchFrames.push_back(frameId(item.ctx == SchemaContext::Frame ? item : place(list, nullptr, item)));
    }
    if (!setWholeFrameList(list, m_scratchFrames)) {
        std::vector<FrameId>& out = framesOf(list.a);
        out.insert(out.end(), m_scratchFrames.begin(), m_scratchFrames.end());
    }
}

void SnapshotBuilder::append(const BuilderValue& list, BuilderValue value)
{
    using C = SchemaContext;
    value = place(list, nullptr, value);
    // Records are written in place when they are created; an append confirms that the next record of this list
    // arrived in order. Anything else would mean one dict object used twice, which no snapshot writer produces.
    switch (list.ctx) {
    case C::Ignore:
        return;
    case C::Generic:
        m_generics[list.a].items.push_back(value);
        return;
    case C::SegmentList:
    case C::HostSegmentList:
        if (value.ctx != C::Segment)
            wrongItem(list.ctx == C::SegmentList ? "a segment dict in 'segments'" : "a segment dict in 'host_segments'",
                value);
        if (m_segments[value.a].listedIn != NotListed)
            throw SchemaError("a segment dict appears twice");
        m_segments[value.a].listedIn = list.ctx == C::SegmentList ? ListedForDevice : ListedForHost;
        return;
    case C::EntryPool: {
        PendingPool& pending = m_pendingPools[list.a];
        if (pending.stamp == list.b && pending.count < 2)
            pending.pool[pending.count++] = intOf(value, "pool_id");
        return;
    }
    case C::PoolId: {
        SegmentBuild& seg = m_segments[list.a];
        if (seg.poolIdPos < 2)
            seg.segment.poolId[seg.poolIdPos++] = intOf(value, "segment_pool_id");
        return;
    }
    case C::BlockList: {
        if (value.ctx != C::Block)
            wrongItem("a block dict in 'blocks'", value);
        SegmentBuild& seg = m_segments[list.a];
        if (m_blocks[value.a].segment != list.a)
            throw SchemaError("a block dict appears in two segments");
        if (seg.appendedBlocks == 0)
            seg.segment.firstBlock = value.a;
        else if (value.a != seg.segment.firstBlock + seg.appendedBlocks)
            throw SchemaError("a block dict appears twice");
        ++seg.appendedBlocks;
        return;
    }
    case C::HistoryList:
        return; // history entries write into their block as they are filled
    case C::FrameList: {
        const FrameId frame = frameId(value);
        if (m_frameLists[list.a].interned)
            throw SchemaError("a frame list was changed after it was used");
        framesOf(list.a).push_back(frame);
        return;
    }
    case C::DeviceTraces:
        if (value.ctx != C::TraceList)
            wrongItem("a list of trace entries in 'device_traces'", value);
        if (m_traceListedIn[value.a] != NotListed)
            throw SchemaError("a device trace list appears twice");
        m_traceListedIn[value.a] = ListedForDevice;
        return;
    case C::HostTraces:
        if (value.ctx == C::TraceList) {
            // A per-device list of host entries: listed (for the host) when it was made.
            if (value.a == list.a)
                throw SchemaError("a host trace list appears twice");
            return;
        }
        [[fallthrough]];
    case C::TraceList:
        if (value.ctx != C::TraceEntry)
            wrongItem("a trace entry dict", value);
        if (!nextEntryOf(list, value))
            throw SchemaError("a trace entry dict appears twice");
        ++m_confirmedTrace[list.a];
        return;
    case C::AnnotationList:
        if (value.ctx != C::Annotation)
            wrongItem("an annotation dict in 'external_annotations'", value);
        if (value.a != m_confirmedAnnotations)
            throw SchemaError("an annotation dict appears twice");
        ++m_confirmedAnnotations;
        return;
    case C::TopDict:
    case C::Segment:
    case C::Block:
    case C::HistoryEntry:
    case C::Frame:
    case C::TraceEntry:
    case C::Annotation:
    case C::Settings:
    case C::Digest:
        break;
    }
    throw SchemaError("a dict was used as a list");
}

void SnapshotBuilder::refuseOtherRecords() const
{
    // Every writer of snapshots (torch since 1.10, RankScope's digests) gives a segment its address, size and blocks;
    // a dict with none of a segment's fields is another program's record, and a file of those would otherwise read
    // as a snapshot holding nothing, which compares as balanced.
    size_t position[2] = { 0, 0 };
    for (const SegmentBuild& build : m_segments) {
        if (build.listedIn == NotListed)
            continue;
        const size_t item = position[build.listedIn == ListedForHost]++;
        if (build.isSegment)
            continue;
        std::string keys;
        if (&build - m_segments.data() == ptrdiff_t(m_strangeSegment)) {
            for (StringId key : m_strangeKeys)
                keys += std::string(keys.empty() ? "" : ", ") + "'" + std::string(m_snapshot->strings.view(key)) + "'";
        }
        const std::string list = build.listedIn == ListedForHost ? "'host_segments'"
            : m_rootIsList                                       ? "the top-level list"
                                                                 : "'segments'";
        throw SchemaError("not a PyTorch memory snapshot: item " + std::to_string(item + 1) + " of " + list
            + " is not a segment record (" + (keys.empty() ? std::string("an empty dict") : "its keys are " + keys)
            + "; a segment has 'address', 'total_size' and 'blocks')");
    }
}

std::shared_ptr<Snapshot> SnapshotBuilder::finish()
{
    if (!m_rootSet)
        throw SchemaError("the file holds no object");
    Snapshot& s = *m_snapshot;
    // Drop records that were created but never added to their list (possible only in hand-made files).
    // Every trace list the file made, in the order it made them: the devices' (listed in `device_traces`) become
    // the devices 0, 1, …; the host's entries are gathered into one trace.
    std::vector<TraceEntries> lists = std::move(s.deviceTraces);
    std::vector<TraceTimes> listTimes = std::move(s.deviceTimes);
    s.deviceTraces.clear();
    s.deviceTimes.clear();
    for (size_t d = 0; d < lists.size(); ++d) {
        TraceEntries& trace = lists[d];
        TraceTimes& times = listTimes[d];
        trace.resize(m_confirmedTrace[d]);
        times.resize(m_confirmedTrace[d]);
        // The capacity reserved from the file's size is address space only, but pages past the end may have been
        // faulted in ahead.
        BigBlocks::trim(trace.data() + trace.bytes(), trace.data() + trace.capacityBytes());
        BigBlocks::trim(static_cast<const char*>(times.data()) + times.bytes(),
            static_cast<const char*>(times.data()) + times.capacityBytes());
        if (m_traceListedIn[d] == ListedForDevice) {
            s.deviceTraces.push_back(std::move(trace));
            s.deviceTimes.push_back(std::move(times));
        } else if (m_traceListedIn[d] == ListedForHost) {
            s.hostTrace.append(trace);
            s.hostTimes.append(times);
        }
    }
    s.annotations.resize(m_confirmedAnnotations);

    refuseOtherRecords();

    // Lay the blocks out segment by segment, applying the legacy fallbacks: addresses by summing sizes from the
    // segment base, frames and requested size from history[0].
    s.segments.reserve(m_segments.size());
    for (SegmentBuild& build : m_segments) {
        if (build.listedIn == NotListed)
            continue; // created but never added to a list (possible only in hand-made files)
        Segment seg = build.segment;
        const uint32_t first = build.segment.firstBlock;
        seg.firstBlock = uint32_t(s.blocks.size());
        seg.blockCount = build.hasBlocks ? build.appendedBlocks : 0;
        uint64_t address = seg.address;
        for (uint32_t i = 0; i < seg.blockCount; ++i) {
            const BlockBuild& bb = m_blocks[first + i];
            Block b = bb.block;
            if (!bb.hasAddress)
                b.address = address;
            if (!bb.hasFrames) {
                b.stack = bb.historyStack;
                if (!bb.hasRequested || b.requestedSize == 0)
                    b.requestedSize = bb.historyEntries > 0 ? bb.historyRealSize : b.size;
            }
            address += uint64_t(b.size);
            s.blocks.push_back(b);
        }
        (build.listedIn == ListedForHost ? s.hostSegments : s.segments).push_back(seg);
    }
    m_blocks = {};
    m_frames = {};
    m_frameLists = {};
    m_listFrames = {};
    m_generics = {};
    return std::move(m_snapshot);
}

} // namespace RankScope
