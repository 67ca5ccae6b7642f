// SPDX-License-Identifier: MIT
#include "picklesplit.h"

#include "inputstream.h"
#include "littleendian.h"
#include "picklereader.h"
#include "repeatedruns.h"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>

namespace RankScope {

namespace {

// What the walk knows of a memoized object: enough to give the part a placeholder for it.
enum WalkKind : uint8_t
{
    OtherKind,
    StringKind, ///< above it, a schema name's StringId + 1 (see Walk::kinds)
    DictKind,
    ListKind, ///< a list or a tuple
};

constexpr uint64_t walkStep = uint64_t(1) << 20;
// A point the reader would reach within this much is left for a later one: the part would not pay for itself.
constexpr uint64_t readerMargin = uint64_t(4) << 20;

// The dicts of a trace list (its entries) come in a few shapes: the same opcodes, keys and strings, with other numbers,
// other memo references as values and other frame lists. The walk steps over one of a shape seen before by comparing
// its bytes, not an opcode at a time. A shape is the dict's bytes as fixed runs, each followed by a number (of any
// width), a memo reference (of either width) as a value, a frame list's references (of any count), or nothing:
// whatever a dict of that shape holds there, the walk does the same with it (pushes one item; pushes items that the
// list's APPENDS pops), so one that matches leaves the walk as stepping over it would.
class EntryShapes
{
public:
    enum Then : uint8_t
    {
        Nothing,
        Number,
        Reference,
        References,
    };
    struct Run
    {
        uint32_t fixed = 0; ///< bytes
        Then then = Nothing;
    };
    struct Shape
    {
        uint64_t key = 0;
        std::vector<uint8_t> bytes; ///< the fixed runs
        std::vector<Run> runs;
        std::vector<uint16_t> kinds; ///< what its MEMOIZEs stored, in order (Walk::kinds)
        uint32_t misses = 0; ///< dicts at its slot that did not match it since it last did
    };

    /// Whether the dict at `begin`, which the walk is about to step over, should have its shape kept: a slot whose
    /// dicts keep missing (each of its own shape: a string of its own in every entry) is filled again at ever longer
    /// intervals, so such a file costs the walk little more than stepping over it.
    bool wanted(const uint8_t* begin, const uint8_t* end)
    {
        if (end - begin < 16)
            return false;
        const uint32_t misses = m_shapes[keyOf(begin) % m_shapes.size()].misses;
        return (misses & (misses - 1)) == 0;
    }

    /// Keeps the shape of the dict at [begin, end), which the walk just stepped over, its MEMOIZEs storing `kinds`. A
    /// dict with another opcode than the few a trace entry has, or one that reaches below itself on the stack, is
    /// not kept.
    void keep(const uint8_t* begin, const uint8_t* end, std::span<const uint16_t> kinds)
    {
        if (end - begin < 16)
            return;
        Shape& shape = m_scratch;
        shape.key = keyOf(begin);
        shape.bytes.clear();
        shape.runs.clear();
        shape.kinds.clear();
        size_t depth = 0;
        m_marks.clear();
        size_t memoized = 0;
        const uint8_t* fixedFrom = begin;
        auto close = [&](const uint8_t* at, Then then) {
            shape.bytes.insert(shape.bytes.end(), fixedFrom, at);
            shape.runs.push_back({ uint32_t(at - fixedFrom), then });
        };
        for (const uint8_t* p = begin; p < end;) {
            const uint8_t op = *p;
            const size_t left = size_t(end - p);
            size_t length = 1;
            Then then = Nothing;
            switch (op) {
            case '}':
            case ']':
            case ')':
            case 'N':
            case 0x88:
            case 0x89:
                ++depth;
                break;
            case '(':
                m_marks.push_back(depth);
                if (p > begin && (p[-1] == ']' || (p[-1] == 0x94 && p - begin >= 2 && p[-2] == ']')) && left > 1
                    && (p[1] == 'h' || p[1] == 'j')) {
                    // A frame list's references: any count of them, up to its APPENDS.
                    const uint8_t* q = PickleReader::pastReferences(p + 1, end);
                    if (q == end || *q != 'e')
                        return;
                    close(p + 1, References);
                    fixedFrom = q;
                    p = q;
                    continue;
                }
                break;
            case 'u':
            case 'e':
                if (m_marks.empty())
                    return;
                depth = m_marks.back();
                m_marks.pop_back();
                break;
            case 0x94:
                if (depth == 0 || memoized == kinds.size())
                    return;
                shape.kinds.push_back(kinds[memoized++]);
                break;
            case 0x85:
            case 0x86:
            case 0x87: {
                const size_t n = size_t(op - 0x85) + 1;
                if (depth < n || (!m_marks.empty() && m_marks.back() > depth - n))
                    return;
                depth -= n - 1;
                break;
            }
            case 'h':
            case 'j':
                length = op == 'h' ? 2 : 5;
                // A value of the dict's own items (a key is kept as it is): which string or frame list it is does
                // not matter to the walk.
                if (m_marks.size() == 1 && m_marks.back() == 1 && (depth - 1) % 2 == 1)
                    then = Reference;
                ++depth;
                break;
            case 'K':
            case 'M':
            case 'J':
            case 0x8a:
                if (op == 0x8a && left < 2)
                    return;
                length = numberLength(p);
                then = Number;
                ++depth;
                break;
            case 0x8c:
                if (left < 2)
                    return;
                length = 2 + size_t(p[1]);
                ++depth;
                break;
            default:
                return; // anything else (a memo store by index, a FRAME, a float …): no shape
            }
            if (length > left)
                return;
            if (then != Nothing) {
                close(p, then);
                fixedFrom = p + length;
            }
            p += length;
        }
        if (depth != 1 || !m_marks.empty() || memoized != kinds.size())
            return;
        close(end, Nothing);
        shape.bytes.resize(shape.bytes.size() + 16, 0); // room for sameBytes()
        shape.misses = 0;
        std::swap(m_shapes[shape.key % m_shapes.size()], shape);
    }

    /// The shape of the dict at `p` if it is one kept, and where that dict ends; nullptr otherwise.
    const Shape* match(const uint8_t* p, const uint8_t* end, const uint8_t*& after)
    {
        if (end - p < 16)
            return nullptr;
        const uint64_t key = keyOf(p);
        Shape& shape = m_shapes[key % m_shapes.size()];
        if (!matches(shape, key, p, end)) {
            ++shape.misses;
            return nullptr;
        }
        shape.misses = 0;
        after = p;
        return &shape;
    }

private:
    bool matches(const Shape& shape, uint64_t key, const uint8_t*& p, const uint8_t* end)
    {
        if (shape.key != key || shape.runs.empty())
            return false;
        const uint8_t* fixed = shape.bytes.data();
        for (const Run& run : shape.runs) {
            // Room for the run and the head of what follows it: a number's width and length byte.
            if (size_t(end - p) < run.fixed + 2 || !sameBytes(p, fixed, run.fixed, end))
                return false;
            p += run.fixed;
            fixed += run.fixed;
            switch (run.then) {
            case Nothing:
                break;
            case Number: {
                if (*p != 'K' && *p != 'M' && *p != 'J' && *p != 0x8a)
                    return false;
                const size_t length = numberLength(p);
                if (size_t(end - p) < length)
                    return false;
                p += length;
                break;
            }
            case Reference:
                if (*p == 'h')
                    p += 2;
                else if (*p == 'j' && end - p >= 5)
                    p += 5;
                else
                    return false;
                break;
            case References: {
                // Most often the references of a list that came after the two lists before, or the last one.
                const uint8_t* start = p;
                if (const RepeatedRuns::Run* known = m_lists.predict(p, end, 'e')) {
                    p += known->length;
                    break;
                }
                p = PickleReader::pastReferences(p, end);
                if (!m_lists.find(start, size_t(p - start)))
                    m_lists.remember(start, size_t(p - start), 0);
                break;
            }
            }
        }
        return true;
    }
    // Whether `n` bytes at p are those at `fixed` (which has 16 bytes of room past its last run). Most runs are a few
    // bytes between two numbers: two words compared, not a call.
    static bool sameBytes(const uint8_t* p, const uint8_t* fixed, size_t n, const uint8_t* end)
    {
        if (n > 16 || end - p < 16)
            return std::memcmp(p, fixed, n) == 0;
        uint64_t a[2];
        uint64_t b[2];
        std::memcpy(a, p, 16);
        std::memcpy(b, fixed, 16);
        const auto low = [](size_t bytes) { return bytes >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1; };
        const uint64_t different = ((a[0] ^ b[0]) & low(n)) | ((a[1] ^ b[1]) & (n > 8 ? low(n - 8) : 0));
        return different == 0;
    }
    static uint64_t keyOf(const uint8_t* p)
    {
        uint64_t a;
        uint64_t b;
        std::memcpy(&a, p, 8);
        std::memcpy(&b, p + 8, 8);
        const uint64_t h = (a * 0x9e3779b97f4a7c15ull ^ b) * 0x9e3779b97f4a7c15ull;
        return h ^ (h >> 29);
    }
    // An integer's opcode and argument (LONG1's length byte must be there).
    static size_t numberLength(const uint8_t* p)
    {
        switch (*p) {
        case 'K':
            return 2;
        case 'M':
            return 3;
        case 'J':
            return 5;
        default:
            return 2 + size_t(p[1]);
        }
    }

    std::array<Shape, 16> m_shapes;
    Shape m_scratch;
    std::vector<size_t> m_marks;
    RepeatedRuns m_lists; // a run's bytes are the same references wherever they are: nothing to forget
};

} // namespace

struct PickleSplit::Walk
{
    /// Per memo index: its WalkKind, and above that for a string that is one of the schema's names (StringTable's
    /// first strings) its StringId + 1, for another short string Known::K_Count + 1 + its TextClass.
    BigVector<uint16_t> kinds;
    /// Short strings by text. Another string's text needs no keeping (it is never a key, and the part takes the id
    /// this parse gave it when it is absorbed), but strings of one text are one string to the part: a script that
    /// repeats a trace refers back to each real entry's own compile context ("N/A"), and with a placeholder per memo
    /// index the part's entries had thousands of contexts where the reader's have one, and it took a hash table's
    /// lookups for each entry's context and kind.
    struct TextClass
    {
        std::string text;
        uint64_t last = 0; ///< the last memo index that got a string of this text
        bool valid = true; ///< `last` still holds it (protocol 2 may store over an index)
        StringId placeholder = 0; ///< the part's stand-in, + 1; 0 until asked for
    };
    std::vector<TextClass> classes;
    std::unordered_map<std::string, uint32_t> classOf;
    /// The TextClass of the string at memo index `index`, if it has one.
    TextClass* textClassAt(uint64_t index)
    {
        const uint16_t k = index < kinds.size() ? kinds[index] : 0;
        return (k & 3) == StringKind && (k >> 2) > Known::K_Count ? &classes[(k >> 2) - Known::K_Count - 1] : nullptr;
    }
    /// `kinds[index]` was just stored: a string's TextClass has its text there now.
    void stored(uint64_t index)
    {
        if (TextClass* text = textClassAt(index)) {
            text->last = index;
            text->valid = true;
        }
    }
    uint64_t at = 0;
    size_t depth = 0;
    size_t marks = 0;
};

PickleSplit::PickleSplit(
    OpenSource open, uint64_t size, uint64_t target, bool balance, std::function<bool()> coresBusy, bool trace)
    : m_open(std::move(open))
    , m_size(size)
    , m_target(target)
    , m_balance(balance)
    , m_coresBusy(std::move(coresBusy))
    , m_trace(trace)
    , m_begun(std::chrono::steady_clock::now())
{
    m_thread = std::thread([this] { run(); });
}

PickleSplit::~PickleSplit()
{
    abandon();
    if (m_thread.joinable())
        m_thread.join();
}

void PickleSplit::abandon()
{
    {
        std::lock_guard lock(m_mutex);
        m_abandoned.store(true, std::memory_order_relaxed);
    }
    m_changed.notify_all();
}

void PickleSplit::trace(std::string_view what, uint64_t at) const
{
    if (!m_trace)
        return;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_begun).count();
    std::string line(what);
    if (at != UINT64_MAX && m_size > 0)
        line += " " + std::to_string(std::lround(100.0 * double(at) / double(m_size))) + " % into the file";
    std::fprintf(stderr, "rankscope split: %7.3f s  %s\n", seconds, line.c_str());
}

void PickleSplit::announceTraceList(uint64_t offset, size_t depth, size_t marks, const std::function<void()>& poll)
{
    std::unique_lock lock(m_mutex);
    m_lists.push_back({ offset, depth, marks });
    m_changed.notify_all();
    if (m_balance)
        return;
    waitFor(
        lock, [this] { return m_walked; }, poll);
}

void PickleSplit::waitFor(
    std::unique_lock<std::mutex>& lock, const std::function<bool()>& done, const std::function<void()>& poll)
{
    while (!done()) {
        lock.unlock();
        try {
            poll();
        } catch (...) {
            abandon();
            throw;
        }
        lock.lock();
        m_changed.wait_for(lock, std::chrono::milliseconds(2), done);
    }
}

const PickleSplit::Part* PickleSplit::wait(const std::function<void()>& poll)
{
    std::unique_lock lock(m_mutex);
    waitFor(
        lock, [this] { return m_done; }, poll);
    return m_ok ? &m_part : nullptr;
}

void PickleSplit::walked()
{
    {
        std::lock_guard lock(m_mutex);
        m_walked = true;
    }
    m_changed.notify_all();
}

void PickleSplit::run()
{
    bool ok = false;
    try {
        if (const std::unique_ptr<InputStream> stream = m_open()) {
            InputStream& in = *stream;
            Walk w;
            if (walk(in, w)) {
                m_part.start = w.at;
                m_part.memoBefore = w.kinds.size();
                m_part.depth = w.depth;
                m_part.marks = w.marks;
                m_splitOffset.store(w.at, std::memory_order_release);
                trace("the walk found its point,", w.at);
                trace("  the reader was then", m_readerAt.load(std::memory_order_relaxed));
                walked();
                auto builder = std::make_unique<SnapshotBuilder>();
                builder->setEntryCapacityHint((m_size - w.at) / 16);
                const BuilderValue list = builder->startPart();
                PickleReader reader(in, *builder);
                SnapshotBuilder& b = *builder;
                m_part.end = reader.runPart(
                    list, w.kinds.size(),
                    [&w, &b](uint64_t index) -> BuilderValue {
                        const uint16_t known = w.kinds[index] >> 2;
                        switch (w.kinds[index] & 3) {
                        case StringKind: {
                            if (known == 0)
                                return b.placeholderString(index);
                            if (known <= Known::K_Count)
                                return BuilderValue::text(StringId(known - 1));
                            Walk::TextClass& text = *w.textClassAt(index);
                            if (!text.valid)
                                return b.placeholderString(index);
                            if (text.placeholder == 0)
                                text.placeholder = b.placeholderString(text.last).a + 1;
                            return BuilderValue::text(text.placeholder - 1);
                        }
                        case DictKind:
                            return BuilderValue::foreignDict(index);
                        case ListKind:
                            return b.placeholderList(index);
                        default:
                            break;
                        }
                        throw SplitRefused("an object from before the part that the walk did not keep");
                    },
                    &m_abandoned);
                m_part.memo = reader.takePartMemo();
                m_part.builder = std::move(builder);
                ok = true;
                trace("the part is parsed; it ends", m_part.end);
            } else {
                trace("the walk found no point: the reader parses the whole file");
            }
        }
    } catch (...) {
        // Whatever stopped the part (a refused shape, a damaged file, abandon()), the reader parses it itself and
        // reports what is wrong there.
        ok = false;
        trace("the part stopped: the reader parses it");
    }
    if (!ok)
        m_splitOffset.store(UINT64_MAX, std::memory_order_release);
    {
        std::lock_guard lock(m_mutex);
        m_ok = ok;
        m_walked = true;
        m_done = true;
    }
    m_changed.notify_all();
}

bool PickleSplit::walk(InputStream& in, Walk& w)
{
    // The pickle stack's shape only: per slot the kind of object it holds and, for a container, the offset of the
    // opcode that made it (how a trace list the reader announced is recognised), as offset << 2 | kind.
    std::vector<uint64_t> shape(1024);
    try {
        w.kinds.reserve(m_size / 2); // as the reader's memo: address space, touched as indices come
    } catch (const std::bad_alloc&) { }
    size_t size = 0;
    std::vector<size_t> marks;
    EntryShapes shapes;
    // The list item being stepped over an opcode at a time, whose shape is kept once it is done.
    struct
    {
        const uint8_t* begin = nullptr;
        size_t size = 0;
        size_t marks = 0;
        size_t memo = 0;
        uint64_t window = 0;
    } entry;
    const uint8_t* p = in.cur;
    const uint8_t* end = in.end;
    const uint8_t* checkAt = p;
    uint64_t windows = 0; // refills so far: a string's text is kept only while its window is
    const uint8_t* text = nullptr;
    uint64_t textSize = 0;
    uint64_t textWindow = UINT64_MAX;
    size_t textSlot = SIZE_MAX;
    const uint64_t giveUp = m_balance ? m_size / 20 * 17 : m_target + m_size / 8;
    // The schema's names by length and first and last byte, for telling a memoized string that is one of them.
    const StringTable names;
    std::array<uint16_t, 4096> nameAt {};
    auto nameSlot = [&nameAt](std::string_view t) {
        return (t.size() * 131 + size_t(uint8_t(t.front())) * 31 + uint8_t(t.back())) & (nameAt.size() - 1);
    };
    for (StringId id = 1; id < Known::K_Count; ++id) {
        size_t slot = nameSlot(names.view(id));
        while (nameAt[slot])
            slot = (slot + 1) & (nameAt.size() - 1);
        nameAt[slot] = uint16_t(id + 1);
    }
    auto nameOf = [&](const uint8_t* t, uint64_t n) -> uint16_t {
        if (n == 0)
            return Known::K_None + 1;
        if (n > 32)
            return 0;
        const std::string_view text(reinterpret_cast<const char*>(t), size_t(n));
        for (size_t slot = nameSlot(text); nameAt[slot]; slot = (slot + 1) & (nameAt.size() - 1)) {
            if (names.view(StringId(nameAt[slot] - 1)) == text)
                return nameAt[slot];
        }
        return 0;
    };

    auto need = [&](uint64_t k) {
        if (uint64_t(end - p) >= k)
            return true;
        if (k > (uint64_t(1) << 40))
            return false;
        in.cur = p;
        const bool ok = in.refill(size_t(k));
        p = in.cur;
        end = in.end;
        checkAt = p;
        ++windows;
        return ok;
    };
    // An opcode's length field of `width` bytes (negative refused where it is signed), stepped over, with that many
    // bytes then available at p.
    auto sized = [&](uint64_t width, bool isSigned) -> std::optional<uint64_t> {
        if (!need(width))
            return std::nullopt;
        const uint64_t length = width == 1 ? p[0] : width == 8 ? readLE<uint64_t>(p) : readLE<uint32_t>(p);
        if (isSigned && int32_t(length) < 0)
            return std::nullopt;
        p += width;
        if (!need(length))
            return std::nullopt;
        return length;
    };
    auto push = [&](uint64_t slot) {
        if (size == shape.size()) [[unlikely]]
            shape.resize(size * 2);
        shape[size++] = slot;
    };
    auto kindAt = [&](size_t i) { return uint8_t(shape[i] & 3); };
    // A short string's TextClass, as its value in `kinds` above the kind; 0 past the classes `kinds` has room for.
    constexpr size_t maxClasses = (1u << 14) - Known::K_Count - 1;
    uint32_t lastClass = UINT32_MAX; // strings of one text often come in a row (each entry's own "N/A")
    auto textClass = [&](const uint8_t* t, uint64_t n) -> uint16_t {
        if (n > 32)
            return 0;
        const std::string_view view(reinterpret_cast<const char*>(t), size_t(n));
        if (lastClass == UINT32_MAX || w.classes[lastClass].text != view) {
            auto [it, inserted] = w.classOf.try_emplace(std::string(view), uint32_t(w.classes.size()));
            if (inserted) {
                if (w.classes.size() == maxClasses) {
                    w.classOf.erase(it);
                    return 0;
                }
                w.classes.push_back({ std::string(view) });
            }
            lastClass = it->second;
        }
        return uint16_t(Known::K_Count + 1 + lastClass);
    };
    // What the reader's memo holds at `index` from here on (an index far past the others the reader keeps aside:
    // no split).
    auto memoize = [&](uint64_t index) {
        if (size == 0 || index >= w.kinds.size() + PickleReader::farMemoIndex)
            return false;
        if (Walk::TextClass* stored = w.textClassAt(index))
            stored->valid = stored->valid && stored->last != index; // stored over: its text may be nowhere else
        uint16_t k = kindAt(size - 1);
        if (k == StringKind && textSlot == size - 1 && textWindow == windows) {
            uint16_t name = nameOf(text, textSize);
            if (name == 0)
                name = textClass(text, textSize);
            k = uint16_t(k | name << 2);
        } else if (k == StringKind) {
            k = OtherKind;
        }
        if (index == w.kinds.size()) {
            w.kinds.push_back(k); // MEMOIZE, and most stores: one more entry
        } else {
            if (index > w.kinds.size())
                w.kinds.resize(index + 1, OtherKind);
            w.kinds[index] = k;
        }
        w.stored(index);
        return true;
    };
    auto popMark = [&]() -> bool {
        if (marks.empty() || marks.back() > size)
            return false;
        size = marks.back();
        marks.pop_back();
        return true;
    };
    // Past the target, right after a batch of a list's items: a point between two batches of a trace list the
    // reader made, with another batch to come?
    auto isPoint = [&](uint64_t offset) {
        if (offset < m_target || size == 0)
            return false;
        // The part is parsed a little slower than the reader parses (it reads the file itself, into arrays of its
        // own), so the point to take is where the reader has a quarter further to go to it than the part has to the
        // end; the walk, faster than either, gets there first. On the 1 GB benchmark rank, alternating five rounds:
        // 1.07-1.09 s against 1.10-1.18 s for as far, 1.11-1.20 s for half as far again.
        const uint64_t reader = m_readerAt.load(std::memory_order_relaxed);
        if (m_balance && (reader + readerMargin > offset || (offset - reader) * 4 < (m_size - offset) * 5))
            return false;
        {
            std::unique_lock lock(m_mutex);
            // A point asked for at a given place waits for the reader to make its first trace list, which it then
            // waits at: where the split happens does not depend on which thread got there first.
            if (!m_balance)
                m_changed.wait(lock, [this] { return !m_lists.empty() || m_abandoned.load(); });
            bool listed = false;
            for (const List& list : m_lists) {
                listed =
                    listed || (list.depth == size && list.marks == marks.size() && shape[size - 1] >> 2 == list.offset);
            }
            if (!listed)
                return false;
        }
        return need(1) && *p == '(';
    };

    for (;;) {
        if (p >= checkAt) {
            if (p == end && !need(1))
                return false;
            const uint64_t here = in.offsetOf(p);
            in.doneWith(p);
            if (m_abandoned.load(std::memory_order_relaxed) || here > giveUp
                || (m_balance && m_coresBusy && m_coresBusy()))
                return false; // no point near enough, or no core free for the part: the reader parses it all
            // A walk that is not a tenth ahead of the reader by a fifth of the file would find its balanced point too
            // late for the part to pay for the walk (on the benchmark's 1 GB rank it is a quarter ahead there and
            // pulls away later). Small entries pay too: a part costs fresh memory per entry (its own array, then the
            // copy into the reader's), but the shared-frame benchmark rank, at 76 bytes per entry, took 0.30-0.34 s
            // split against 0.36-0.42 s whole once its part had the reader's contexts (Walk::TextClass).
            if (m_balance && here > m_size / 5 && m_readerAt.load(std::memory_order_relaxed) * 10 > here * 9)
                return false;
            checkAt = p + std::min<uint64_t>(walkStep, uint64_t(end - p));
        }
        const uint8_t op = *p++;
        uint64_t arg = 0; // bytes of argument after the opcode
        switch (op) {
        case 0x80: // PROTO
            arg = 1;
            break;
        case 0x95: // FRAME
            arg = 8;
            break;
        case '(': // MARK
            marks.push_back(size);
            break;
        case '0': // POP
            if (size == 0)
                return false;
            --size;
            break;
        case '1': // POP_MARK
            if (!popMark())
                return false;
            break;
        case '}': // EMPTY_DICT
            if (!marks.empty() && marks.back() > 0 && kindAt(marks.back() - 1) == ListKind) {
                // An item of a list: most often a trace entry of a shape stepped over before.
                const uint8_t* after = nullptr;
                if (const EntryShapes::Shape* shape = shapes.match(p - 1, end, after)) {
                    push(in.offsetOf(p - 1) << 2 | DictKind);
                    for (const uint16_t kind : shape->kinds) {
                        w.kinds.push_back(kind); // MEMOIZE: the next index, never one stored over
                        w.stored(w.kinds.size() - 1);
                    }
                    p = after;
                    continue;
                }
                entry = {};
                if (shapes.wanted(p - 1, end))
                    entry = { p - 1, size, marks.size(), w.kinds.size(), windows };
            }
            push(in.offsetOf(p - 1) << 2 | DictKind);
            break;
        case ']': // EMPTY_LIST
        case ')': // EMPTY_TUPLE
            push(in.offsetOf(p - 1) << 2 | ListKind);
            break;
        case 'd': // DICT
        case 'l': // LIST
        case 't': // TUPLE
            if (!popMark())
                return false;
            push(in.offsetOf(p - 1) << 2 | (op == 'd' ? DictKind : ListKind));
            break;
        case 0x85: // TUPLE1
        case 0x86:
        case 0x87: {
            const size_t n = size_t(op - 0x85) + 1;
            if (size < n || (!marks.empty() && marks.back() > size - n))
                return false;
            size -= n;
            push(in.offsetOf(p - 1) << 2 | ListKind);
            break;
        }
        case 'a': // APPEND
            if (size < 2)
                return false;
            --size;
            break;
        case 's': // SETITEM
            if (size < 3)
                return false;
            size -= 2;
            break;
        case 'u': // SETITEMS
            if (!popMark())
                return false;
            if (entry.begin && size == entry.size + 1 && marks.size() == entry.marks) {
                if (entry.window == windows)
                    shapes.keep(entry.begin, p,
                        std::span<const uint16_t>(w.kinds.data() + entry.memo, w.kinds.size() - entry.memo));
                entry.begin = nullptr;
            }
            break;
        case 'e': // APPENDS
            if (!popMark())
                return false;
            if (in.offsetOf(p) >= m_target && isPoint(in.offsetOf(p))) {
                in.cur = p;
                w.at = in.offsetOf(p);
                w.depth = size;
                w.marks = marks.size();
                return true;
            }
            break;
        case 0x94: // MEMOIZE
            if (!memoize(w.kinds.size()))
                return false;
            break;
        case 'q': // BINPUT
        case 'r': { // LONG_BINPUT
            const uint64_t width = op == 'q' ? 1 : 4;
            if (!need(width))
                return false;
            const uint64_t index = width == 1 ? p[0] : readLE<uint32_t>(p);
            p += width;
            if (!memoize(index))
                return false;
            continue;
        }
        case 'h': // BINGET
        case 'j': { // LONG_BINGET
            // Most of a large file is runs of these (a frame list's frames): stepped over together.
            if (!need(op == 'h' ? 1 : 4))
                return false;
            size_t more = 0;
            p = PickleReader::pastReferences(p + (op == 'h' ? 1 : 4), end, &more);
            const size_t n = 1 + more;
            if (size + n > shape.size())
                shape.resize((size + n) * 2);
            size += n;
            shape[size - 1] = OtherKind;
            continue;
        }
        case 0x8c: // SHORT_BINUNICODE
        case 'U': // SHORT_BINSTRING
        case 'X': // BINUNICODE
        case 'T': // BINSTRING
        case 0x8d: { // BINUNICODE8
            const std::optional<uint64_t> length = sized(op == 0x8c || op == 'U' ? 1 : op == 0x8d ? 8 : 4, op == 'T');
            if (!length)
                return false;
            push(StringKind);
            text = p;
            textSize = *length;
            textWindow = windows;
            textSlot = size - 1;
            p += *length;
            continue;
        }
        case 'C': // SHORT_BINBYTES
        case 'B': // BINBYTES
        case 0x8e: // BINBYTES8
        case 0x96: { // BYTEARRAY8
            const std::optional<uint64_t> length = sized(op == 'C' ? 1 : op == 'B' ? 4 : 8, false);
            if (!length)
                return false;
            p += *length;
            push(OtherKind);
            continue;
        }
        case 'J': // BININT
            arg = 4;
            push(OtherKind);
            break;
        case 'K': // BININT1
            arg = 1;
            push(OtherKind);
            break;
        case 'M': // BININT2
            arg = 2;
            push(OtherKind);
            break;
        case 0x8a: // LONG1
        case 0x8b: { // LONG4
            const std::optional<uint64_t> length = sized(op == 0x8a ? 1 : 4, op == 0x8b);
            if (!length)
                return false;
            p += *length;
            push(OtherKind);
            continue;
        }
        case 'G': // BINFLOAT
            arg = 8;
            push(OtherKind);
            break;
        case 0x88: // NEWTRUE
        case 0x89: // NEWFALSE
        case 'N': // NONE
            push(OtherKind);
            break;
        default:
            // STOP, the text opcodes of protocols 0 and 1, and everything the reader refuses: no split.
            return false;
        }
        if (arg) {
            if (!need(arg))
                return false;
            p += arg;
        }
    }
}

} // namespace RankScope
