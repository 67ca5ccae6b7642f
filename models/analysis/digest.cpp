// SPDX-License-Identifier: MIT
#include "digest.h"

#include "categories.h"
#include "devicehistory.h"
#include "gate.h"

#include <QSaveFile>

#include <zlib.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace RankScope {

namespace {

constexpr StackId leftOutStack = 0xffffffffu;

// Writes pickle protocol 2, the opcodes every unpickler since Python 2.3 reads: shared strings, frames and frame
// lists are written once and referenced through the memo, as PyTorch's own pickles are.
class PickleWriter
{
public:
    explicit PickleWriter(const Snapshot& s)
        : m_s(s)
    {
        m_out.push_back('\x80');
        m_out.push_back('\x02');
    }

    std::string finish()
    {
        m_out.push_back('.');
        return std::move(m_out);
    }

    void integer(int64_t v)
    {
        if (v >= 0 && v < 0x100) {
            m_out.push_back('K');
            m_out.push_back(char(v));
        } else if (v >= 0 && v < 0x10000) {
            m_out.push_back('M');
            little(uint64_t(v), 2);
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            m_out.push_back('J');
            little(uint64_t(v), 4);
        } else {
            // LONG1: the shortest little-endian two's complement.
            int n = 8;
            while (n > 1) {
                const auto top = uint8_t(uint64_t(v) >> (8 * (n - 1)));
                const bool nextNegative = (uint64_t(v) >> (8 * (n - 1) - 1)) & 1;
                if ((top == 0 && !nextNegative) || (top == 0xff && nextNegative))
                    --n;
                else
                    break;
            }
            m_out.push_back('\x8a');
            m_out.push_back(char(n));
            little(uint64_t(v), n);
        }
    }
    void boolean(bool v)
    {
        m_out.push_back(v ? '\x88' : '\x89');
    }
    // A key and an integer value.
    void field(std::string_view key, int64_t v)
    {
        text(key);
        integer(v);
    }
    // Keys and fixed values: memoized by text.
    void text(std::string_view t)
    {
        auto it = m_textMemo.find(t);
        if (it != m_textMemo.end())
            return get(it->second);
        unicode(t);
        m_textMemo.emplace(std::string(t), put());
    }
    void string(StringId id)
    {
        if (id == EmptyString)
            return unicode({});
        auto it = m_stringMemo.find(id);
        if (it != m_stringMemo.end())
            return get(it->second);
        unicode(m_s.strings.view(id));
        m_stringMemo.emplace(id, put());
    }
    void stack(StackId id)
    {
        if (auto it = m_stackMemo.find(id); it != m_stackMemo.end())
            return get(it->second);
        m_out.push_back(']');
        const uint32_t memo = put();
        if (id == leftOutStack) {
            mark();
            m_out.push_back('}');
            mark();
            text("name");
            text(Digest::leftOutName);
            text("filename");
            text("rankscope digest");
            field("line", 0);
            m_out.push_back('u');
            m_out.push_back('e');
        } else if (id != EmptyStack) {
            mark();
            for (FrameId f : m_s.stacks.frames(id))
                frame(f);
            m_out.push_back('e');
        }
        m_stackMemo.emplace(id, memo);
    }

    // Containers: items between begin and end. Lists, which can be long, are appended in batches of 1000 as
    // Python's pickler does, so no reader needs a deep stack; dicts here have a handful of keys.
    void beginDict()
    {
        m_out.push_back('}');
        mark();
    }
    void beginList()
    {
        m_out.push_back(']');
        m_counts.push_back(0);
        mark();
    }
    // After each list item.
    void item()
    {
        if (++m_counts.back() == 1000) {
            m_out.push_back('e');
            mark();
            m_counts.back() = 0;
        }
    }
    void endDict()
    {
        m_out.push_back('u');
    }
    void endList()
    {
        m_out.push_back('e');
        m_counts.pop_back();
    }

private:
    void little(uint64_t v, int bytes)
    {
        for (int i = 0; i < bytes; ++i)
            m_out.push_back(char(uint8_t(v >> (8 * i))));
    }
    void mark()
    {
        m_out.push_back('(');
    }
    void unicode(std::string_view t)
    {
        m_out.push_back('X');
        little(t.size(), 4);
        m_out.append(t);
    }
    uint32_t put()
    {
        const uint32_t id = m_memo++;
        m_out.push_back('r');
        little(id, 4);
        return id;
    }
    void get(uint32_t id)
    {
        m_out.push_back('j');
        little(id, 4);
    }
    void frame(FrameId id)
    {
        if (auto it = m_frameMemo.find(id); it != m_frameMemo.end())
            return get(it->second);
        const Frame& f = m_s.frames.frame(id);
        m_out.push_back('}');
        const uint32_t memo = put();
        mark();
        text("name");
        string(f.name);
        text("filename");
        string(f.filename);
        field("line", f.line);
        if (f.original != EmptyString) {
            text("fx_original_trace");
            string(f.original);
        }
        m_out.push_back('u');
        m_frameMemo.emplace(id, memo);
    }

    struct Hash
    {
        using is_transparent = void;
        size_t operator()(std::string_view t) const
        {
            return std::hash<std::string_view>()(t);
        }
    };
    const Snapshot& m_s;
    std::string m_out;
    uint32_t m_memo = 0;
    std::vector<uint32_t> m_counts;
    std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> m_textMemo;
    std::unordered_map<StringId, uint32_t> m_stringMemo;
    std::unordered_map<FrameId, uint32_t> m_frameMemo;
    std::unordered_map<StackId, uint32_t> m_stackMemo;
};

const char* stateName(BlockState state)
{
    switch (state) {
    case BlockState::ActiveAllocated:
        return "active_allocated";
    case BlockState::ActivePendingFree:
        return "active_pending_free";
    case BlockState::Inactive:
        return "inactive";
    case BlockState::Unknown:
        break;
    }
    return "unknown";
}

// The events of the reduced trace, in order: the source's kept events and the stand-in's resizes; and for each
// kept alloc its category, which the digest cannot work out again without the allocations it leaves out.
struct ReducedTrace
{
    std::vector<TraceEntry> events;
    TraceTimes times;
    std::vector<int> categories; ///< per event: a Category, or -1
};

ReducedTrace reducedTrace(const DeviceHistory& h, Digest::Figures& figures)
{
    const std::vector<Category> categories = Categories::classify(h);
    const TraceView events = h.events();
    const size_t n = events.size();
    const std::span<const Allocation> allocations = h.allocations();

    // The moments a comparison can look at; every allocation live at one of them is kept whole.
    std::vector<EventIndex> keys;
    if (h.peakEvent() >= 0)
        keys.push_back(h.peakEvent());
    for (const OomMarker& oom : h.ooms())
        keys.push_back(EventIndex(oom.event));
    if (n > 0)
        keys.push_back(EventIndex(n) - 1);
    std::vector<uint8_t> isKey(n, 0);
    for (EventIndex k : keys)
        isKey[size_t(k)] = 1;

    std::vector<uint8_t> keep(n, 0);
    std::vector<uint8_t> keptAllocation(allocations.size(), 0);
    for (size_t i = 0; i < allocations.size(); ++i) {
        const Allocation& a = allocations[i];
        // Memory from before the trace is kept too: it makes the start of the curve and tells an incomplete trace.
        const bool kept =
            a.initial || std::any_of(keys.begin(), keys.end(), [&a](EventIndex k) { return a.liveAfter(k); });
        if (!kept)
            continue;
        keptAllocation[i] = 1;
        ++figures.keptAllocations;
        if (a.allocEvent != Allocation::NoEvent)
            keep[a.allocEvent] = 1;
        if (a.freeEvent != Allocation::NoEvent)
            keep[a.freeEvent] = 1;
    }
    // free_requested goes with its allocation; everything that is not a block event is kept.
    std::unordered_map<uint64_t, bool> liveKept;
    size_t nextAllocation = 0;
    for (size_t i = 0; i < n; ++i) {
        switch (events[i].action()) {
        case TraceAction::Alloc:
            liveKept[events[i].addr] = keptAllocation[nextAllocation++];
            break;
        case TraceAction::FreeRequested: {
            auto it = liveKept.find(events[i].addr);
            keep[i] = it == liveKept.end() || it->second;
            break;
        }
        case TraceAction::FreeCompleted:
            liveKept.erase(events[i].addr);
            break;
        default:
            keep[i] = 1;
            break;
        }
    }

    // Each timeline column's lowest and highest moments, where the stand-in brings the curve to the source's.
    std::vector<uint8_t> sync(n, 0);
    const size_t columns = std::min<size_t>(size_t(Digest::columns), n);
    for (size_t c = 0; c < columns; ++c) {
        const size_t begin = n * c / columns;
        const size_t end = n * (c + 1) / columns;
        size_t lo = begin;
        size_t hi = begin;
        for (size_t i = begin; i < end; ++i) {
            lo = h.totalAfter(EventIndex(i)) < h.totalAfter(EventIndex(lo)) ? i : lo;
            hi = h.totalAfter(EventIndex(i)) > h.totalAfter(EventIndex(hi)) ? i : hi;
        }
        sync[lo] = sync[hi] = 1;
    }

    ReducedTrace reduced;
    std::vector<TraceEntry>& out = reduced.events;
    size_t allocation = 0; // the in-trace allocations come first in the history, in order of their alloc events
    std::unordered_map<uint64_t, int64_t> live; // the digest's own pairing, as DeviceHistory will replay it
    int64_t total = h.initialTotal(); // of the kept allocations
    int64_t leftOut = 0; // the stand-in's size
    auto resize = [&](int64_t size, int64_t timeUs) {
        if (size == leftOut)
            return;
        TraceEntry e;
        e.addr = DigestInfo::leftOutAddress;
        e.stack = leftOutStack;
        if (leftOut > 0) {
            e.kind = EntryKinds::plain(TraceAction::FreeCompleted);
            e.size = leftOut;
            out.push_back(e);
            reduced.times.push_back(timeUs);
            ++figures.fillerEvents;
        }
        if (size > 0) {
            e.kind = EntryKinds::plain(TraceAction::Alloc);
            e.size = size;
            out.push_back(e);
            reduced.times.push_back(timeUs);
            ++figures.fillerEvents;
        }
        leftOut = size;
    };
    for (size_t i = 0; i < n; ++i) {
        const TraceEntry e = events[i];
        const int64_t timeUs = h.timeUs(EventIndex(i));
        const int64_t source = h.totalAfter(EventIndex(i));
        // Nothing left out at a point a comparison looks at (the last event itself may be left out).
        if (isKey[i])
            resize(0, timeUs);
        if (keep[i]) {
            int64_t after = total;
            if (e.action() == TraceAction::Alloc) {
                after += e.size;
            } else if (e.action() == TraceAction::FreeCompleted) {
                auto it = live.find(e.addr);
                after -= it != live.end() ? it->second : e.size;
            }
            // Never above the source curve.
            if (after + leftOut > source)
                resize(std::max<int64_t>(source - after, 0), timeUs);
            if (e.action() == TraceAction::Alloc)
                live[e.addr] = e.size;
            else if (e.action() == TraceAction::FreeCompleted)
                live.erase(e.addr);
            total = after;
            reduced.categories.resize(out.size(), -1);
            out.push_back(e);
            reduced.times.push_back(timeUs);
            reduced.categories.push_back(e.action() == TraceAction::Alloc ? int(categories[allocation]) : -1);
            ++figures.keptEvents;
        }
        if (e.action() == TraceAction::Alloc)
            ++allocation;
        if (sync[i] && !isKey[i])
            resize(std::max<int64_t>(source - total, 0), timeUs);
    }
    reduced.categories.resize(out.size(), -1);
    return reduced;
}

// The segments of `devices` (every segment when null: the host's), with their blocks.
void writeSegments(PickleWriter& w, const Snapshot& s, const std::vector<Segment>& segments,
    const std::vector<int>* devices, Digest::Figures& figures)
{
    w.beginList();
    for (const Segment& seg : segments) {
        if (devices && !std::binary_search(devices->begin(), devices->end(), int(seg.device)))
            continue;
        w.beginDict();
        const std::pair<const char*, int64_t> fields[] = { { "device", seg.device },
            { "address", int64_t(seg.address) }, { "total_size", seg.totalSize },
            { "allocated_size", seg.allocatedSize }, { "active_size", seg.activeSize },
            { "requested_size", seg.requestedSize }, { "stream", seg.stream } };
        for (const auto& [key, value] : fields)
            w.field(key, value);
        w.text("segment_type");
        w.text(seg.isLargePool ? "large" : "small");
        w.text("segment_pool_id");
        w.beginList();
        w.integer(seg.poolId[0]);
        w.integer(seg.poolId[1]);
        w.endList();
        w.text("is_expandable");
        w.boolean(seg.isExpandable);
        w.text("frames");
        w.stack(seg.stack);
        w.text("blocks");
        w.beginList();
        for (const Block& b : s.blocksOf(seg)) {
            w.beginDict();
            w.field("address", int64_t(b.address));
            w.field("size", b.size);
            w.field("requested_size", b.requestedSize);
            w.text("state");
            w.text(stateName(b.state));
            w.text("frames");
            w.stack(b.stack);
            w.endDict();
            w.item();
            figures.blocks += devices != nullptr;
        }
        w.endList();
        w.endDict();
        w.item();
    }
    w.endList();
}

void writeTrace(
    PickleWriter& w, const Snapshot& s, TraceView events, const TraceTimes& times, std::span<const int> categories)
{
    w.beginList();
    for (size_t i = 0; i < events.size(); ++i) {
        const TraceEntry e = events[i];
        w.beginDict();
        w.text("action");
        w.string(s.actionName(e));
        w.field(e.action() == TraceAction::Oom ? "device_free" : "addr", int64_t(e.addr));
        w.field("size", e.size);
        w.field("stream", e.stack == leftOutStack ? 0 : s.stream(e));
        if (const int64_t timeUs = times[i]; timeUs != 0) {
            w.field("time_us", timeUs);
        }
        w.text("frames");
        w.stack(e.stack);
        if (const EntryContext& context = s.context(e); context.hasPool) {
            w.text("pool_id");
            w.beginList();
            w.integer(context.pool[0]);
            w.integer(context.pool[1]);
            w.endList();
        }
        if (i < categories.size() && categories[i] >= 0) {
            w.text("rankscope_category");
            w.text(categoryName(Category(categories[i])));
        }
        w.endDict();
        w.item();
    }
    w.endList();
}

std::string gzipped(const std::string& bytes)
{
    z_stream z {};
    // 15 + 16: a gzip header, which the readers (and `gunzip`) recognize.
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("cannot start compressing");
    std::string out(deflateBound(&z, uLong(bytes.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = uInt(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("compressing failed");
    return out;
}

} // namespace

std::vector<int> Digest::devices(const Snapshot& snapshot)
{
    // Every GPU, as the comparison looks at every one; host memory of a profile is never compared, so not kept.
    const int device = DeviceHistory::mainDevice(snapshot);
    std::vector<int> devices = snapshot.gpuDevices();
    if (std::find(devices.begin(), devices.end(), device) == devices.end())
        devices.push_back(device);
    std::sort(devices.begin(), devices.end());
    return devices;
}

std::string Digest::make(const Snapshot& snapshot, const Source& source, Figures* figuresOut)
{
    Figures figures;
    const int device = DeviceHistory::mainDevice(snapshot);
    figures.device = device;
    const std::vector<int> devices = Digest::devices(snapshot);
    struct Kept
    {
        DeviceHistoryPtr history;
        ReducedTrace trace;
    };
    std::map<int, Kept> kept;
    for (int d : devices) {
        // Not owned: the history lives only inside this call.
        Kept& k = kept[d];
        k.history = DeviceHistory::build(SnapshotPtr(SnapshotPtr(), &snapshot), d);
        k.trace = reducedTrace(*k.history, figures);
        figures.sourceEvents += k.history->eventCount();
    }

    PickleWriter w(snapshot);
    w.beginDict();
    w.text("segments");
    writeSegments(w, snapshot, snapshot.segments, &devices, figures);
    w.text("device_traces");
    w.beginList();
    for (int d = 0; d <= devices.back(); ++d) {
        if (auto it = kept.find(d); it != kept.end()) {
            const ReducedTrace& trace = it->second.trace;
            writeTrace(w, snapshot, TraceView(trace.events.data(), trace.events.size()), trace.times, trace.categories);
        } else {
            w.beginList();
            w.endList();
        }
        w.item();
    }
    w.endList();

    w.text("external_annotations");
    w.beginList();
    for (const Annotation& a : snapshot.annotations) {
        if (!kept.count(int(a.device)))
            continue;
        w.beginDict();
        w.text("stage");
        w.text(a.isStart ? "START" : "END");
        w.text("name");
        w.string(a.name);
        w.field("device", a.device);
        w.field("time_us", a.timeUs);
        w.endDict();
        w.item();
    }
    w.endList();

    // Pinned host memory, whole (a host trace is short): what a rank's process pins is shown beside its GPUs.
    if (snapshot.hasHostMemory) {
        w.text("host_segments");
        writeSegments(w, snapshot, snapshot.hostSegments, nullptr, figures);
        w.text("host_traces");
        writeTrace(w, snapshot, snapshot.hostTrace, snapshot.hostTimes, {});
    }

    // The allocator's settings decide some verdicts (expandable segments); kept as text, flattened as they were read.
    w.text("allocator_settings");
    w.beginDict();
    for (const auto& [key, value] : snapshot.allocatorSettings) {
        w.string(key);
        w.string(value);
    }
    w.endDict();

    w.text("rankscope_digest");
    w.beginDict();
    const auto oomEvent = [](const DeviceHistory& h) { return h.ooms().empty() ? -1 : int64_t(h.ooms().back().event); };
    const DeviceHistory& main = *kept[device].history;
    const std::pair<const char*, int64_t> fields[] = { { "version", version }, { "rank", source.rank },
        { "device", device }, { "source_bytes", source.fileBytes }, { "source_events", int64_t(main.eventCount()) },
        { "source_peak_event", main.peakEvent() }, { "source_oom_event", oomEvent(main) } };
    for (const auto& [key, value] : fields)
        w.field(key, value);
    for (const auto& [d, k] : kept) {
        const std::string prefix = "device_" + std::to_string(d) + "_";
        w.field((prefix + "source_events").c_str(), int64_t(k.history->eventCount()));
        w.field((prefix + "source_peak_event").c_str(), k.history->peakEvent());
        w.field((prefix + "source_oom_event").c_str(), oomEvent(*k.history));
    }
    w.text("source");
    w.text(source.fileName);
    // What a gate needs of this rank as a baseline, which the reduced trace cannot give again: every GPU's step.
    std::vector<GateProfile> profiles;
    profiles.reserve(kept.size());
    for (const auto& [d, k] : kept)
        profiles.push_back(GateProfile::of(k.history));
    w.text("gate");
    w.text(GateProfile::toJson(profiles));
    w.endDict();
    w.endDict();

    std::string bytes = gzipped(w.finish());
    figures.bytes = int64_t(bytes.size());
    if (figuresOut)
        *figuresOut = figures;
    return bytes;
}

Digest::Figures Digest::write(const Snapshot& snapshot, const Source& source, const QString& path)
{
    Figures figures;
    const std::string bytes = make(snapshot, source, &figures);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size())
        || !file.commit())
        throw std::runtime_error(file.errorString().toStdString());
    return figures;
}

} // namespace RankScope
