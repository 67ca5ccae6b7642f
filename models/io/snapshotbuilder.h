// SPDX-License-Identifier: MIT
#pragma once

#include "pageahead.h"
#include "snapshot.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <unordered_map>

namespace RankScope {

/// Thrown when the decoded objects do not form a PyTorch memory snapshot; readers add the byte offset.
class SchemaError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// Thrown by a builder that parses part of a file (PickleSplit) when that part uses an object from the part before
/// it in a way only the whole file's parse can decide; the whole file's parse then reads that part itself.
class SplitRefused : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// Where a container sits in the snapshot schema. Decides what its items become.
enum class SchemaContext : uint8_t
{
    Ignore, ///< a value the snapshot schema does not use (unknown key, extra data): its contents are dropped
    Generic, ///< parent not known yet (pickle DICT/LIST/TUPLE opcodes build children before parents)
    TopDict,
    SegmentList,
    Segment,
    PoolId,
    BlockList,
    Block,
    HistoryList,
    HistoryEntry,
    FrameList,
    Frame,
    DeviceTraces,
    TraceList,
    TraceEntry,
    AnnotationList,
    Annotation,
    Settings,
    Digest, ///< RankScope's own `rankscope_digest` dict
    HostSegmentList, ///< `host_segments`: segment dicts of the pinned host allocator
    HostTraces, ///< `host_traces`: its trace entries (or lists of them)
    EntryPool, ///< a trace entry's `pool_id` pair
};

/// A decoded value as the readers see it: a scalar, or a handle to a container the builder owns. 16 bytes, so the
/// pickle stack and memo stay small.
struct BuilderValue
{
    enum Kind : uint8_t
    {
        None,
        Bool,
        Int,
        Float,
        String,
        Bytes,
        Dict,
        List,
    };
    Kind kind = None;
    SchemaContext ctx = SchemaContext::Ignore;
    uint32_t a = 0;
    union {
        int64_t i = 0;
        double f;
        uint64_t b;
    };

    bool isContainer() const
    {
        return kind == Dict || kind == List;
    }
    static BuilderValue integer(int64_t v)
    {
        BuilderValue r;
        r.kind = Int;
        r.i = v;
        return r;
    }
    static BuilderValue text(uint32_t stringId)
    {
        BuilderValue r;
        r.kind = String;
        r.a = stringId;
        return r;
    }
    /// A dict memoized before the part of the file a split builder parses, by its memo index: typed by the whole
    /// file's parse only, so the builder keeps a placeholder frame for it where it is a frame, and throws
    /// SplitRefused where its type would matter otherwise.
    static BuilderValue foreignDict(uint64_t memoIndex)
    {
        BuilderValue r;
        r.kind = Dict;
        r.a = foreignMark;
        r.b = memoIndex;
        return r;
    }
    bool isForeign() const
    {
        return ctx == SchemaContext::Ignore && a == foreignMark;
    }
    static constexpr uint32_t foreignMark = 0xffffffffu;
};

/// Builds a Snapshot straight from reader events (new container, set item, append) without a generic object tree:
/// every container is typed by its place in the schema when it is created, records are written into their final
/// vectors, and shared frame dicts and frame lists are interned once.
class SnapshotBuilder
{
public:
    SnapshotBuilder();

    /// An upper bound on the number of trace entries, from the input size. Trace arrays reserve it (address space
    /// only: pages are touched as entries arrive), which saves the copies and page zeroing of repeated growth.
    void setEntryCapacityHint(uint64_t entries)
    {
        m_entryCapacityHint = entries;
    }

    BuilderValue string(std::string_view text);
    /// A new container whose parent is `parent` (under `key` when the parent is a dict). Pass nullptr as parent
    /// for the top-level object, and `unknownParent()` when the reader cannot tell the parent yet.
    BuilderValue newContainer(bool isDict, const BuilderValue* parent, const BuilderValue* key);
    static const BuilderValue* unknownParent()
    {
        static const BuilderValue sentinel {};
        return &sentinel;
    }
    /// The schema context a new container would get under this parent; lets readers disambiguate parents.
    SchemaContext contextFor(bool isDict, const BuilderValue* parent, const BuilderValue* key) const;

    void setItem(const BuilderValue& dict, const BuilderValue& key, BuilderValue value);
    /// setItem() for each key and value of a trace entry dict (key, value, key, value …), none of them a container
    /// still waiting for its place (as the reader's own trace entry path makes them).
    void setTraceItems(const BuilderValue& entry, std::span<const BuilderValue> items);
    /// A trace entry as its fields are read: a copy of the stored entry, set by quickTraceField() and stored by
    /// endTraceEntry().
    struct TraceEntryDraft
    {
        TraceEntry entry;
        uint32_t list = 0;
        uint64_t index = 0;
        /// The frame list taken as its stack: marked used only when the entry is stored, as setTraceItems() would.
        uint32_t framesList = UINT32_MAX;
    };
    TraceEntryDraft beginTraceEntry(const BuilderValue& entry) const
    {
        return { m_snapshot->deviceTraces[entry.a][entry.b], entry.a, entry.b };
    }
    /// Sets one field of the draft as setTraceItems() would, where that takes nothing new: a number, a frame list
    /// read whole, an action, stream or context the entry's kind has taken before, a key no field has. False, with
    /// the draft unchanged, for anything else; whoever reads the entry then sets all its items with setTraceItems()
    /// instead (a field set here twice comes out the same).
    bool quickTraceField(TraceEntryDraft& draft, StringId key, const BuilderValue& value);
    void endTraceEntry(const TraceEntryDraft& draft);
    void append(const BuilderValue& list, BuilderValue value);
    /// The same as append() for each value in turn; frame lists, the bulk of a large file, take a faster path.
    void appendAll(const BuilderValue& list, std::span<const BuilderValue> values);
    /// A frame dict's interned frame (interned on first use); throws when the value is not a frame dict.
    FrameId frameId(const BuilderValue& value)
    {
        if (const std::optional<FrameId> id = internedFrame(value))
            return *id;
        return internFrame(value);
    }
    /// The interned frame of a frame dict, without interning it; nullopt for anything else.
    std::optional<FrameId> internedFrame(const BuilderValue& value) const
    {
        if (value.ctx == SchemaContext::Frame && m_frames[value.a].interned)
            return m_frames[value.a].id;
        return std::nullopt;
    }
    /// Takes `frames` as the whole of a frame list that has no frames yet, as one APPENDS of frame dicts gives
    /// them; false (nothing done) when `list` is not such a list, so the reader takes the general path.
    bool setWholeFrameList(const BuilderValue& list, std::span<const FrameId> frames);
    /// The same, with the frames' StackTable hash; `stack`, where given, gets the stack they were interned as.
    bool setWholeFrameList(
        const BuilderValue& list, std::span<const FrameId> frames, uint64_t hash, StackId* stack = nullptr);
    /// The same for frames already interned as `stack` (by an earlier list of the same frames).
    bool setWholeFrameList(const BuilderValue& list, StackId stack);
    void setRoot(const BuilderValue& root);

    /// A string memoized before a part's start, by its memo index: its id is the whole file's parse's.
    BuilderValue placeholderString(uint64_t memoIndex);
    /// A list memoized before a part's start: a frame list to the part, whose stack is the whole file's parse's.
    BuilderValue placeholderList(uint64_t memoIndex);
    /// Makes this builder the one for a later part of a file: trace entries for the trace list it returns, with
    /// dicts from before that part as BuilderValue::foreignDict() values and strings and lists as the placeholders
    /// above.
    BuilderValue startPart();
    /// Takes the entries of `part` (a builder that parsed the rest of `list` from a later point, startPart()) as if
    /// this builder had parsed them itself: strings, frames, stacks, streams and contexts interned in the order they
    /// first appeared, entries appended to `list`. `before` gives this parse's memo value at an index before the
    /// part. Returns false, having changed nothing, when the part cannot be taken as it is. Every value of the part's
    /// memo must have passed takesPartMemo() first; absorbedMemo() then gives each as this builder's, in `meanwhile`,
    /// which runs on the calling thread while the entries are copied on another.
    bool absorb(SnapshotBuilder& part, const BuilderValue& list,
        const std::function<std::optional<BuilderValue>(uint64_t)>& before, const std::function<void()>& meanwhile);
    /// Whether a value `part` memoized can be absorbed (a stand-in for an object from before it cannot).
    static bool takesPartMemo(const SnapshotBuilder& part, const BuilderValue& value);
    /// A value from the memo of the part absorb() took, in this builder's terms. Called once per value, in order.
    BuilderValue absorbedMemo(const SnapshotBuilder& part, BuilderValue value);
    /// absorbedMemo() of a string and of a frame list, by the part's id: the list is made anew, as there.
    StringId absorbedString(StringId partString) const
    {
        return m_absorbed.strings[partString];
    }
    uint32_t absorbedFrameList(const SnapshotBuilder& part, uint32_t partList);

    std::shared_ptr<Snapshot> finish();
    /// Tells `pages` how far the trace being filled is, so its pages can be faulted in ahead.
    void publishArrays(PageAhead& pages) const;

private:
    struct SegmentBuild
    {
        Segment segment;
        uint32_t appendedBlocks = 0;
        uint8_t poolIdPos = 0;
        bool hasBlocks = false;
        /// Which list holds it: none yet, `segments` or `host_segments`.
        uint8_t listedIn = 0;
        /// Made in `host_segments`: its `device` need not be a GPU ordinal.
        bool forHost = false;
        /// It has a field of a segment record (address, total_size, blocks …): a dict without any is some other
        /// record (`[{"tool": …}]`), and a list of those is not a snapshot.
        bool isSegment = false;
    };
    struct BlockBuild
    {
        Block block;
        int64_t historyRealSize = 0;
        StackId historyStack = EmptyStack;
        uint32_t segment = 0;
        uint32_t historyEntries = 0;
        bool hasAddress = false;
        bool hasRequested = false;
        bool hasFrames = false;
    };
    struct FrameBuild
    {
        Frame frame;
        FrameId id = 0;
        bool interned = false;
    };
    struct FrameListBuild
    {
        StackId id = EmptyStack;
        bool interned = false; ///< used as a stack: no more frames may come
        bool preinterned = false; ///< its frames so far are `id`'s
        bool foreign = false; ///< a part's stand-in for a list from before it (startPart())
    };
    struct GenericBuild
    {
        std::vector<BuilderValue> items; // dicts: key, value, key, value …
        bool isDict = false;
    };

    BuilderValue place(const BuilderValue& parent, const BuilderValue* key, BuilderValue value, int depth = 0);
    BuilderValue materialize(
        const BuilderValue& generic, const BuilderValue& parent, const BuilderValue* key, int depth);
    StackId stackOf(const BuilderValue& value);
    int64_t intOf(const BuilderValue& value, const char* field) const;
    void setSegmentField(SegmentBuild& seg, StringId key, const BuilderValue& value);
    void setBlockField(BlockBuild& block, StringId key, const BuilderValue& value);
    /// `entry` is the `index`th of the trace list `list`, whose times are apart (Snapshot::deviceTimes).
    void setTraceField(TraceEntry& entry, uint32_t list, uint64_t index, StringId key, const BuilderValue& value);
    /// Sets `entry`'s kind as `work` does once `field` (KindField) takes `value`, or as it did the last time the
    /// same kind took the same value there.
    template <typename Work> void stepKind(TraceEntry& entry, size_t field, uint64_t value, Work&& work);
    /// The step stepKind() takes without its work, when it has taken it before; false otherwise.
    bool knownStep(TraceEntry& entry, size_t field, uint64_t value) const
    {
        const KindStep& step = m_kindSteps[field][stepSlot(entry.kind, value)];
        if (step.from != entry.kind || step.value != value)
            return false;
        entry.kind = step.to;
        return true;
    }
    static size_t stepSlot(uint32_t kind, uint64_t value)
    {
        return ((uint64_t(kind) << 32 ^ value) * 0x9e3779b97f4a7c15ull) >> 60;
    }
    uint32_t streamIndex(int64_t stream);
    uint32_t contextIndex(EntryContext context);
    /// TraceEntry::kind for `kind`, interned in the snapshot's entryKinds.
    uint32_t kindOf(const EntryKind& kind);
    void setContext(TraceEntry& entry, const EntryContext& context);
    void setSetting(uint32_t dictIndex, const BuilderValue& key, const BuilderValue& value);
    /// The frames of a list built item by item (or restored from its stack when more come after it was interned).
    std::vector<FrameId>& framesOf(uint32_t listIndex);
    /// A frame list that has no frames yet, for setWholeFrameList(); nullptr for anything else.
    FrameListBuild* wholeFrameList(const BuilderValue& list);
    FrameId internFrame(const BuilderValue& value);
    void setDigestField(const BuilderValue& key, const BuilderValue& value);
    std::string settingText(const BuilderValue& value) const;
    [[noreturn]] void wrongItem(const char* expected, const BuilderValue& got) const;
    /// Throws when a segment list holds dicts that are not segment records.
    void refuseOtherRecords() const;
    /// Whether `value` is the entry dict of `list` an append confirms next: the next one made in place.
    bool nextEntryOf(const BuilderValue& list, const BuilderValue& value) const
    {
        return value.ctx == SchemaContext::TraceEntry && value.a == list.a && value.b == m_confirmedTrace[list.a];
    }

    /// Reserves room for as many items as the input can hold trace entries, once (an array with a capacity keeps
    /// it): address space only, its pages touched as the array fills.
    template <typename Array> void reserveForEntries(Array& array) const
    {
        if (array.capacity() > 0)
            return;
        try {
            array.reserve(m_entryCapacityHint);
        } catch (const std::bad_alloc&) {
            // Address space is short (strict overcommit): grow as needed instead.
        }
    }
    FrameId placeholderFrame(uint64_t memoIndex, bool isList);
    uint32_t newFrameList();
    [[noreturn]] static void refuseForeign(const char* where);

    std::shared_ptr<Snapshot> m_snapshot;
    // A part's builder (startPart()): its placeholder frames, by FrameId, as memo index * 2 + 1 (a dict) or + 2 (a
    // list, whose placeholder stack is that one frame); 0 for a frame of its own.
    bool m_part = false;
    std::vector<uint64_t> m_placeholderOf;
    std::unordered_map<uint64_t, FrameId> m_placeholders;
    std::vector<uint64_t> m_stringPlaceholderOf; // by StringId: memo index + 1, 0 for a string of the part's own
    std::vector<SegmentBuild> m_segments;
    std::vector<BlockBuild> m_blocks;
    enum Listed : uint8_t
    {
        NotListed,
        ListedForDevice,
        ListedForHost,
    };
    std::vector<uint32_t> m_confirmedTrace; // per trace list
    std::vector<Listed> m_traceListedIn; // per trace list
    // A trace entry's `pool_id` pair between its tuple and the entry's SETITEMS; a few slots, each stamped, so a
    // pair is never read from a slot another tuple has taken since.
    struct PendingPool
    {
        uint64_t stamp = 0;
        int64_t pool[2] = { 0, 0 };
        uint8_t count = 0;
    };
    std::array<PendingPool, 16> m_pendingPools {};
    uint64_t m_pendingPoolStamp = 0;
    // What the part absorb() took was given, by its ids: for absorbedMemo().
    struct Absorbed
    {
        std::vector<StringId> strings;
        std::vector<FrameId> frames;
        std::vector<StackId> stacks;
        uint64_t poolStamp = 0;
    };
    Absorbed m_absorbed;
    Frame absorbedFrame(Frame f) const;
    uint32_t m_confirmedAnnotations = 0;
    // One per frame dict the file makes, half a million in the benchmark's 1 GB rank: reserved and faulted in ahead as
    // m_frameLists is, where growing by doubling copied it onto fresh 4 KiB pages, a sixth of the parse's page faults.
    BigVector<FrameBuild> m_frames;
    // One per frame list, so millions in a large file: reserved from the input's size like the trace (address
    // space only) and faulted in ahead, where growing by doubling copied it and faulted in every copy on the parse.
    BigVector<FrameListBuild> m_frameLists;
    std::vector<FrameId> m_scratchFrames;
    // Only lists that did not arrive whole in one APPENDS: one vector per list would cost millions of them.
    std::unordered_map<uint32_t, std::vector<FrameId>> m_listFrames;
    std::vector<GenericBuild> m_generics;
    std::vector<StringId> m_settingPrefixes;
    uint64_t m_materializeBudget = 0;
    uint64_t m_entryCapacityHint = 0;
    std::unordered_map<int64_t, uint32_t> m_streamIndex;
    struct ContextKey
    {
        StringId compileContext;
        StringId userMetadata;
        StringId category;
        int64_t pool0 = 0;
        int64_t pool1 = 0;
        bool hasPool = false;
        bool operator==(const ContextKey&) const = default;
    };
    struct ContextKeyHash
    {
        size_t operator()(const ContextKey& k) const
        {
            return std::hash<uint64_t>()((uint64_t(k.compileContext) << 32 | k.userMetadata)
                ^ (uint64_t(k.category) * 0x9e3779b97f4a7c15ull) ^ (uint64_t(k.pool0) * 0xbf58476d1ce4e5b9ull)
                ^ (uint64_t(k.pool1) * 0x94d049bb133111ebull) ^ uint64_t(k.hasPool));
        }
    };
    std::unordered_map<ContextKey, uint32_t, ContextKeyHash> m_contextIndex;
    std::pair<int64_t, uint32_t> m_lastStream { 0, 0 };
    std::pair<std::string, StringId> m_lastString { std::string(), EmptyString };
    std::pair<ContextKey, uint32_t> m_lastContext { { EmptyString, EmptyString, EmptyString }, 0 };
    struct EntryKindHash
    {
        size_t operator()(const EntryKind& k) const
        {
            // Every part multiplied: the recent kinds' slot is the top bits.
            return size_t((uint64_t(k.actionName) * 0x9e3779b97f4a7c15ull)
                ^ (uint64_t(k.streamIndex) * 0xc2b2ae3d27d4eb4full)
                ^ (uint64_t(k.contextIndex) * 0xbf58476d1ce4e5b9ull));
        }
    };
    std::unordered_map<EntryKind, uint32_t, EntryKindHash> m_kindIndex;
    // The kinds looked up last, by their hash: an entry's action and stream arrive one at a time, so its kind changes
    // twice per entry, between the same few (an alloc and a free on one stream).
    std::array<std::pair<EntryKind, uint32_t>, 64> m_recentKinds {};
    // An entry's kind after one of its fields is set, by its kind before and the field's value. Consecutive entries
    // set the same few fields to the same values, and working the kind out again took a decode and up to two hash
    // lookups per field: a tenth of a parse. The tables only grow, so a step once worked out stays right.
    enum KindField : uint8_t
    {
        ActionField,
        StreamField,
        CompileContextField,
        UserMetadataField,
        CategoryField,
        KindFields
    };
    struct KindStep
    {
        uint32_t from = UINT32_MAX; // no kind: never matches
        uint32_t to = 0;
        uint64_t value = 0;
    };
    // Per field, the last steps by a hash of kind and value: an entry's action changes the kind its later fields
    // start from, and actions alternate (an alloc, its free).
    std::array<std::array<KindStep, 16>, KindFields> m_kindSteps {};
    bool m_rootSet = false;
    bool m_hasSegments = false;
    bool m_rootIsList = false;
    /// The keys of the first dict in a segment list that has no segment field yet, for the message that refuses it.
    uint32_t m_strangeSegment = UINT32_MAX;
    std::vector<StringId> m_strangeKeys;
};

// Inline: the reader sets every field of every trace entry through it, tens of millions in a large file.
[[gnu::always_inline]] inline bool SnapshotBuilder::quickTraceField(
    TraceEntryDraft& draft, StringId key, const BuilderValue& value)
{
    using namespace Known;
    TraceEntry& e = draft.entry;
    const bool isInt = value.kind == BuilderValue::Int || value.kind == BuilderValue::Bool;
    switch (key) {
    case K_action:
        return value.kind == BuilderValue::String && knownStep(e, ActionField, value.a);
    case K_addr:
    case K_device_free:
        if (!isInt)
            return false;
        e.addr = uint64_t(value.i);
        return true;
    case K_size:
        if (!isInt)
            return false;
        e.size = value.i;
        return true;
    case K_stream:
        return isInt && knownStep(e, StreamField, uint64_t(value.i));
    case K_time_us:
        if (!isInt)
            return false;
        m_snapshot->deviceTimes[draft.list].set(draft.index, value.i);
        return true;
    case K_compile_context:
    case K_user_metadata:
        return value.kind != BuilderValue::String
            || knownStep(e, key == K_compile_context ? CompileContextField : UserMetadataField, value.a);
    case K_frames: {
        if (value.ctx != SchemaContext::FrameList || draft.framesList != UINT32_MAX)
            return false;
        const FrameListBuild& list = m_frameLists[value.a];
        if (!list.interned && !list.preinterned)
            return false;
        e.stack = list.id;
        draft.framesList = value.a;
        return true;
    }
    case K_category:
    case K_rankscope_category:
        // A profile's own category marks the snapshot as derived from one: only once that is said.
        if (key == K_category && !m_snapshot->profilerDerived)
            return false;
        return value.kind != BuilderValue::String || knownStep(e, CategoryField, value.a);
    case K_pool_id:
        return false;
    default:
        return true;
    }
}

inline void SnapshotBuilder::endTraceEntry(const TraceEntryDraft& draft)
{
    if (draft.framesList != UINT32_MAX)
        m_frameLists[draft.framesList].interned = true;
    m_snapshot->deviceTraces[draft.list].set(draft.index, draft.entry);
}

} // namespace RankScope
