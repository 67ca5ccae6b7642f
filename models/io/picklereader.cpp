// SPDX-License-Identifier: MIT
#include "picklereader.h"

#include "hexdigits.h"
#include "littleendian.h"
#include "picklesplit.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>

namespace RankScope {

namespace {

enum Op : uint8_t
{
    MARK = '(',
    STOP = '.',
    POP = '0',
    POP_MARK = '1',
    BININT = 'J',
    BININT1 = 'K',
    BININT2 = 'M',
    NONE = 'N',
    BINFLOAT = 'G',
    BINBYTES = 'B',
    SHORT_BINBYTES = 'C',
    BINSTRING = 'T',
    SHORT_BINSTRING = 'U',
    BINUNICODE = 'X',
    APPEND = 'a',
    APPENDS = 'e',
    DICT = 'd',
    EMPTY_DICT = '}',
    LIST = 'l',
    EMPTY_LIST = ']',
    TUPLE = 't',
    EMPTY_TUPLE = ')',
    SETITEM = 's',
    SETITEMS = 'u',
    BINGET = 'h',
    LONG_BINGET = 'j',
    BINPUT = 'q',
    LONG_BINPUT = 'r',
    // Protocols 0 and 1: the same plain data, written as text lines.
    INT = 'I',
    LONG = 'L',
    STRING = 'S',
    UNICODE = 'V',
    FLOAT = 'F',
    GET = 'g',
    PUT = 'p',
    PROTO = 0x80,
    TUPLE1 = 0x85,
    TUPLE2 = 0x86,
    TUPLE3 = 0x87,
    NEWTRUE = 0x88,
    NEWFALSE = 0x89,
    LONG1 = 0x8a,
    LONG4 = 0x8b,
    SHORT_BINUNICODE = 0x8c,
    BINUNICODE8 = 0x8d,
    BINBYTES8 = 0x8e,
    MEMOIZE = 0x94,
    FRAME = 0x95,
    BYTEARRAY8 = 0x96,
};

// Opcodes a snapshot never needs. The ones that import or construct objects are the reason pickles are unsafe;
// naming them in the error tells the user what the file tried to do.
const char* refusedOpcodeName(uint8_t op)
{
    switch (op) {
    case 'c':
        return "GLOBAL";
    case 0x93:
        return "STACK_GLOBAL";
    case 'R':
        return "REDUCE";
    case 'b':
        return "BUILD";
    case 'i':
        return "INST";
    case 'o':
        return "OBJ";
    case 0x81:
        return "NEWOBJ";
    case 0x92:
        return "NEWOBJ_EX";
    case 'P':
        return "PERSID";
    case 'Q':
        return "BINPERSID";
    case 0x82:
        return "EXT1";
    case 0x83:
        return "EXT2";
    case 0x84:
        return "EXT4";
    case 0x97:
        return "NEXT_BUFFER";
    case 0x98:
        return "READONLY_BUFFER";
    case 0x8f:
        return "EMPTY_SET";
    case 0x90:
        return "ADDITEMS";
    case 0x91:
        return "FROZENSET";
    case '2':
        return "DUP";
    default:
        return nullptr;
    }
}

void appendUtf8(std::string& out, uint32_t c)
{
    if (c >= 0xd800 && c <= 0xdfff)
        c = 0xfffd; // a lone surrogate has no UTF-8 form: shown as the replacement character
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xc0 | (c >> 6));
        out += char(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        out += char(0xe0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3f));
        out += char(0x80 | (c & 0x3f));
    } else {
        out += char(0xf0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3f));
        out += char(0x80 | ((c >> 6) & 0x3f));
        out += char(0x80 | (c & 0x3f));
    }
}

// UNICODE's text: raw-unicode-escape, Latin-1 bytes with \uXXXX and \UXXXXXXXX for everything else.
std::optional<std::string> rawUnicodeEscape(std::string_view text)
{
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char ch = static_cast<unsigned char>(text[i]);
        const size_t digits = ch == '\\' && i + 1 < text.size() ? (text[i + 1] == 'u' ? 4
                                      : text[i + 1] == 'U'                            ? 8
                                                                                      : 0)
                                                                : 0;
        if (digits && i + 2 + digits <= text.size()) {
            const auto c = hexDigits(text.substr(i + 2, digits));
            if (!c || *c > 0x10ffff)
                return std::nullopt;
            appendUtf8(out, *c);
            i += 1 + digits;
        } else {
            appendUtf8(out, ch);
        }
    }
    return out;
}

// STRING's text: a quoted Python 2 string literal with backslash escapes; its bytes read as Latin-1, as CPython's
// default encoding for old pickles would have it.
std::optional<std::string> quotedString(std::string_view text)
{
    if (text.size() < 2 || (text.front() != '\'' && text.front() != '"') || text.back() != text.front())
        return std::nullopt;
    text = text.substr(1, text.size() - 2);
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        uint32_t c = static_cast<unsigned char>(text[i]);
        if (c == '\\' && i + 1 < text.size()) {
            const char e = text[++i];
            switch (e) {
            case 'n':
                c = '\n';
                break;
            case 'r':
                c = '\r';
                break;
            case 't':
                c = '\t';
                break;
            case 'x': {
                const auto v = i + 2 < text.size() ? hexDigits(text.substr(i + 1, 2)) : std::nullopt;
                if (!v)
                    return std::nullopt;
                c = *v;
                i += 2;
                break;
            }
            default:
                if (e >= '0' && e <= '7') {
                    c = 0;
                    size_t n = 0;
                    for (; n < 3 && i + n < text.size() && text[i + n] >= '0' && text[i + n] <= '7'; ++n)
                        c = c * 8 + uint32_t(text[i + n] - '0');
                    i += n - 1;
                } else {
                    c = static_cast<unsigned char>(e); // \\, \', \"
                }
            }
        }
        appendUtf8(out, c & 0xff);
    }
    return out;
}

std::optional<int64_t> decimal(std::string_view text)
{
    int64_t v = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

std::string hexByte(uint8_t b)
{
    static const char digits[] = "0123456789abcdef";
    return std::string("0x") + digits[b >> 4] + digits[b & 15];
}

// BINFLOAT's bits, the one big-endian field of a pickle (a loop, not a compiler's byte-swap builtin).
uint64_t readBE64(const uint8_t* p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v = (v << 8) | p[i];
    return v;
}

// A memo entry: a slot of m_memoValues, or a frame list or string held in the entry itself (tag and index), or
// the marker of slots skipped by a BINPUT past the end. A trace entry dict is slot 0, which holds the dict its memo
// reference gives, and is never written (MemoSlots).
constexpr uint32_t memoTag = 0xc0000000u;
constexpr uint32_t memoFrameList = 0x40000000u;
constexpr uint32_t memoString = 0x80000000u;
constexpr uint32_t memoIndex = ~memoTag;
constexpr uint32_t unsetMemo = 0xffffffffu;
constexpr uint32_t traceEntryMemo = PickleReader::traceEntryWord;
constexpr uint64_t maxLength = uint64_t(1) << 40;
constexpr size_t progressStep = size_t(1) << 20;

} // namespace

PickleReader::PickleReader(InputStream& in, SnapshotBuilder& builder)
    : m_in(in)
    , m_builder(builder)
{
    // Every memo entry costs at least two bytes of pickle (the object and MEMOIZE), so this never reallocates for
    // plain files; the reservation is address space, touched only as entries arrive.
    try {
        m_memo.reserve(std::max<uint64_t>(1 << 16, (in.isGzip() ? in.fileSize() * 12 : in.fileSize()) / 2));
        m_memoValues.reserve(1 << 16);
    } catch (const std::bad_alloc&) { }
    // Slot 0: what a memo reference to a trace entry dict gives. Its fields went into the trace already; a script
    // that kept a reference to an entry (snapshot["last"] = entry) makes a second reference, and wherever the copy
    // lands it is a dict whose contents are ignored. (Placed in a trace list a second time, the builder says so.)
    BuilderValue entry;
    entry.kind = BuilderValue::Dict;
    entry.ctx = SchemaContext::Ignore;
    m_memoValues.push_back(entry);
}

PickleReader::MemoSlots::~MemoSlots()
{
    BigBlocks::deallocate(m_slots, m_capacity * sizeof(uint32_t));
}

void PickleReader::MemoSlots::reserve(size_t count)
{
    if (count <= m_capacity)
        return;
    if (count > SIZE_MAX / sizeof(uint32_t))
        throw std::bad_alloc();
    auto* fresh = static_cast<uint32_t*>(BigBlocks::allocate(count * sizeof(uint32_t)));
    std::copy(m_slots, m_slots + m_written, fresh);
    m_zeroed = BigBlocks::ownPages(count * sizeof(uint32_t));
    if (!m_zeroed) {
        // The slots never written are 0 in the block they were in; here they must be written.
        std::fill(fresh + m_written, fresh + m_size, 0u);
        m_written = m_size;
    }
    BigBlocks::deallocate(m_slots, m_capacity * sizeof(uint32_t));
    m_slots = fresh;
    m_capacity = count;
}

void PickleReader::MemoSlots::grow(size_t count, uint32_t slot)
{
    reserve(count);
    if (slot == 0 && m_zeroed && m_written <= m_size) {
        m_size = std::max(m_size, count); // never written: 0 already
        return;
    }
    while (m_size < count)
        set(m_size++, slot);
}

void PickleReader::fail(const std::string& what) const
{
    throw ReadError(what + " at byte " + std::to_string(m_opOffset));
}

BuilderValue PickleReader::decodeLong(const uint8_t* p, uint64_t n) const
{
    // Two's complement little-endian, as LONG1/LONG4 write it. Up to 8 bytes is an int64; a 9th byte is accepted
    // only when it is pure sign extension or makes a value that fits in uint64 (addresses above 2^63).
    if (n == 0)
        return BuilderValue::integer(0);
    uint64_t v = 0;
    const uint64_t low = std::min<uint64_t>(n, 8);
    for (uint64_t i = 0; i < low; ++i)
        v |= uint64_t(p[i]) << (8 * i);
    const bool negative = p[n - 1] & 0x80;
    if (n < 8 && negative)
        v |= ~uint64_t(0) << (8 * n);
    if (n > 8) {
        const uint8_t fill = negative ? 0xff : 0x00;
        for (uint64_t i = 8; i < n; ++i) {
            if (p[i] != fill)
                fail("integer of " + std::to_string(n) + " bytes does not fit in 64 bits");
        }
        // A positive value whose bit 63 is set fits uint64 (kept as its bit pattern); a negative one must keep it.
        if (negative && !(p[7] & 0x80))
            fail("integer of " + std::to_string(n) + " bytes does not fit in 64 bits");
    }
    return BuilderValue::integer(int64_t(v));
}

void PickleReader::memoPut(uint64_t index)
{
    if (m_stack.empty())
        fail("memo store with an empty stack");
    memoPut(index, m_stack.back());
}

namespace {

// The memo word of `top` where it holds the value itself (a frame list, a string, a trace entry dict); unsetMemo
// where the value needs a slot of its own.
uint32_t memoWordOf(const BuilderValue& top)
{
    if (top.ctx == SchemaContext::FrameList && top.a < memoIndex)
        return memoFrameList | top.a;
    if (top.kind == BuilderValue::String && top.ctx == SchemaContext::Ignore && top.a < memoIndex)
        return memoString | top.a;
    return top.ctx == SchemaContext::TraceEntry ? traceEntryMemo : unsetMemo;
}

} // namespace

// Inline: MEMOIZE comes after every entry dict, frame list and new string of a file, tens of millions in a large one.
[[gnu::always_inline]] inline void PickleReader::memoAppend(const BuilderValue& top)
{
    if (const uint32_t word = memoWordOf(top); word != unsetMemo) [[likely]] {
        if (m_isPart)
            partStores(m_memo.size());
        m_memo.push_back(word);
        return;
    }
    memoPut(m_memo.size(), top);
}

void PickleReader::partStores(uint64_t index)
{
    if (index >= m_memo.size() + farMemoIndex)
        throw SplitRefused("a memo index far past the others");
    if (index >= m_partStored.size())
        m_partStored.resize(index + 1, 0);
    m_partStored[index] = 1;
}

void PickleReader::memoPut(uint64_t index, const BuilderValue& top)
{
    uint32_t slot = memoWordOf(top);
    if (slot == unsetMemo) {
        if (m_memoValues.size() >= memoFrameList)
            fail("more memoized objects than any snapshot holds");
        slot = uint32_t(m_memoValues.size());
        m_memoValues.push_back(top);
    }
    if (m_isPart) [[unlikely]]
        partStores(index);
    if (index < m_memo.size()) {
        // Storing over a value slot may change what an earlier frame list's references mean.
        if (const uint32_t old = m_memo[index]; old != traceEntryMemo && (old & memoTag) == 0)
            m_frameLists.forget();
        m_memo.set(index, slot);
    } else if (index == m_memo.size()) {
        m_memo.push_back(slot); // MEMOIZE, and most BINPUTs: one more entry, not a resize call per object
    } else if (index < m_memo.size() + farMemoIndex) {
        m_memo.grow(index + 1, unsetMemo);
        m_memo.set(index, slot);
    } else {
        m_sparseMemo[index] = top; // far-off index: never allocate up to it
    }
}

BuilderValue PickleReader::memoValue(uint32_t slot) const
{
    return memoValueOf(slot, m_memoValues);
}

BuilderValue PickleReader::memoValueOf(uint32_t slot, const BigVector<BuilderValue>& values)
{
    switch (slot & memoTag) {
    case 0:
        return values[slot];
    case memoFrameList: {
        BuilderValue v;
        v.kind = BuilderValue::List;
        v.ctx = SchemaContext::FrameList;
        v.a = slot & memoIndex;
        return v;
    }
    case memoString:
        return BuilderValue::text(slot & memoIndex);
    default:
        break;
    }
    // Only unset slots have both tags, and they are not asked for.
    return values.front();
}

BuilderValue PickleReader::memoGet(uint64_t index)
{
    // Memoized before a part's start and not stored by the part since: its slot is unset where it holds 0 (see
    // runPart()).
    const bool fromBefore = m_isPart && index < m_memoBefore && !(index < m_partStored.size() && m_partStored[index]);
    if (index < m_memo.size() && m_memo[index] != unsetMemo && !(fromBefore && m_memo[index] == traceEntryMemo))
        return memoValue(m_memo[index]);
    if (fromBefore) {
        // Memoized before the part: kept from now on like one of the part's own.
        const BuilderValue v = m_foreign(index);
        memoPut(index, v);
        m_partStored[index] = 0;
        return v;
    }
    if (auto it = m_sparseMemo.find(index); it != m_sparseMemo.end())
        return it->second;
    fail("memo index " + std::to_string(index) + " was never stored");
}

bool PickleReader::readWholeFrameList(const uint8_t*& p, const uint8_t* end, const BuilderValue& list)
{
    // Nearly all of a large file is frame lists written as MARK, a memo reference to a frame dict per frame, APPENDS.
    // Read that shape in one go, without the stack; anything else (or the window's end) leaves p where it was for
    // the general path, which then reports whatever is wrong.
    // A list of the same references as one read lately has its stack: most often the list that came after the two
    // lists before (or the last one) the time before, and that costs a compare of its bytes, not a step and a lookup
    // per frame.
    if (const RepeatedRuns::Run* known = m_frameLists.predict(p, end, APPENDS)) {
        if (!m_builder.setWholeFrameList(list, StackId(known->value)))
            return false;
        p += known->length + 1;
        return true;
    }
    const uint8_t* q = pastReferences(p, end);
    if (q == end || *q != APPENDS)
        return false;
    const size_t length = size_t(q - p);
    if (const RepeatedRuns::Run* known = m_frameLists.find(p, length)) {
        if (!m_builder.setWholeFrameList(list, StackId(known->value)))
            return false;
        p = q + 1;
        return true;
    }
    // The loop runs for every frame of a list not seen lately: the arrays it reads are held in locals (interning a
    // frame touches only the builder's), and the ids go into a plain buffer, so nothing is reloaded or spilled per
    // frame.
    const uint32_t* memo = m_memo.data();
    const size_t memoSize = m_memo.size();
    const size_t values = m_memoValues.size();
    if (m_frameOfSlot.size() < values)
        m_frameOfSlot.resize(values, 0);
    uint32_t* frameOfSlot = m_frameOfSlot.data();
    if (m_frameIds.size() < length / 2)
        m_frameIds.resize(length / 2);
    FrameId* ids = m_frameIds.data();
    size_t count = 0;
    for (const uint8_t* r = p; r < q;) {
        uint64_t index;
        if (*r == BINGET) {
            index = r[1];
            r += 2;
        } else {
            index = readLE<uint32_t>(r + 1);
            r += 5;
        }
        if (index >= memoSize || memo[index] >= values)
            return false;
        // The frame dict behind a memo slot, once interned, is remembered by slot: one load per reference.
        const uint32_t slot = memo[index];
        uint32_t frame = frameOfSlot[slot];
        if (frame == 0) {
            const BuilderValue& value = m_memoValues[slot];
            if (value.ctx != SchemaContext::Frame && !value.isForeign())
                return false;
            frame = m_builder.frameId(value) + 1;
            frameOfSlot[slot] = frame;
        }
        ids[count++] = frame - 1;
    }
    const std::span<const FrameId> frames(ids, count);
    StackId stack = EmptyStack;
    if (!m_builder.setWholeFrameList(list, frames, StackTable::hashOf(frames), &stack))
        return false;
    m_frameLists.remember(p, length, stack);
    p = q + 1;
    return true;
}

// A memo reference (BINGET, LONG_BINGET) to a string or a frame list: the item at `at`, whole before `end`, into
// `item`, and past it; nullptr for anything else. A trace entry's keys are these.
[[gnu::always_inline]] inline const uint8_t* PickleReader::memoizedItem(
    const uint8_t* at, const uint8_t* end, BuilderValue& item) const
{
    uint64_t index;
    const uint8_t* past;
    if (*at == LONG_BINGET && end - at >= 5) {
        index = readLE<uint32_t>(at + 1);
        past = at + 5;
    } else if (*at == BINGET && end - at >= 2) {
        index = at[1];
        past = at + 2;
    } else {
        return nullptr;
    }
    const uint32_t slot = index < m_memo.size() ? m_memo[index] : unsetMemo;
    // A string, or a frame list defined earlier (as a script that repeats a trace shares them): what memoGet() gives
    // for those.
    if ((slot & memoTag) == memoString)
        item = BuilderValue::text(slot & memoIndex);
    else if ((slot & memoTag) == memoFrameList)
        item = memoValue(slot);
    else
        return nullptr;
    return past;
}

// memoizedItem(), or an int: both of readTraceEntry()'s loops read these items through it.
[[gnu::always_inline]] inline const uint8_t* PickleReader::scalarItem(
    const uint8_t* at, const uint8_t* end, BuilderValue& item) const
{
    const size_t left = size_t(end - at);
    switch (*at) {
    case BINGET:
    case LONG_BINGET:
        return memoizedItem(at, end, item);
    case BININT1:
    case BININT2:
    case BININT: {
        const size_t width = *at == BININT1 ? 2 : *at == BININT2 ? 3 : 5;
        if (left < width)
            return nullptr;
        item = BuilderValue::integer(*at == BININT1 ? at[1]
                : *at == BININT2                    ? readLE<uint16_t>(at + 1)
                                                    : readLE<int32_t>(at + 1));
        return at + width;
    }
    case LONG1: {
        const uint8_t n = left < 2 ? 0 : at[1];
        if (left < 2 || n > 8 || left - 2 < n)
            return nullptr;
        if (n != 0 && left >= 10) {
            // Up to 8 bytes of two's complement, little-endian: one load, shifted up and back for the sign.
            uint64_t bits;
            std::memcpy(&bits, at + 2, 8);
            const unsigned unused = 64 - 8 * unsigned(n);
            item = BuilderValue::integer(int64_t(bits << unused) >> unused);
        } else {
            item = decodeLong(at + 2, n);
        }
        return at + 2 + n;
    }
    default:
        return nullptr;
    }
}

// A value just read may be memoized (the general loop's memo opcodes, on the item just read): past them. Inline: the
// compiler left it outlined, a call per item.
[[gnu::always_inline]] inline const uint8_t* PickleReader::memoizeItem(
    const uint8_t* at, const uint8_t* end, uint64_t base, const BuilderValue& value)
{
    if (at == end || (*at != MEMOIZE && *at != BINPUT) || (*at == BINPUT && end - at < 2))
        return at;
    m_opOffset = base + uint64_t(uintptr_t(at));
    if (*at == MEMOIZE) {
        memoAppend(value);
        return at + 1;
    }
    memoPut(at[1], value);
    return at + 2;
}

size_t PickleReader::readEntryPairs(const uint8_t*& pos, const uint8_t* end, const BuilderValue& dict, uint64_t base)
{
    // Nearly every item of a large file's entries is a key memoized by an earlier entry followed by a number, a
    // string or the frame list; each pair is read in one step and its field set at once on a draft of the entry,
    // with no dispatch per opcode or pass over the items after. The items are kept all the same: where something
    // else comes, the caller's loop carries on from it with them, and sets them all with setTraceItems() (the draft
    // is dropped), so the entry comes out as the loop alone would have made it.
    SnapshotBuilder::TraceEntryDraft draft = m_builder.beginTraceEntry(dict);
    bool quick = true;
    BuilderValue* const items = m_pairItems.data();
    size_t n = 0;
    const uint8_t* q = pos;
    while (q < end && n + 2 <= m_pairItems.size()) {
        // The key: a string memoized by an earlier entry.
        const uint8_t* v = memoizedItem(q, end, items[n]);
        if (!v || v == end || items[n].kind != BuilderValue::String)
            break;
        const StringId key = items[n].a;
        const size_t left = size_t(end - v);
        // Written in place: a value made here and copied there whole was loaded at once right after its two halves
        // were stored, which the processor cannot forward (a stall per item).
        BuilderValue& value = items[n + 1];
        const uint8_t* next = scalarItem(v, end, value);
        if (!next && *v == SHORT_BINUNICODE) {
            if (left >= 2 && left - 2 >= v[1]) {
                m_opOffset = base + uint64_t(uintptr_t(v));
                value = m_builder.string(std::string_view(reinterpret_cast<const char*>(v + 2), v[1]));
                next = memoizeItem(v + 2 + v[1], end, base, value);
            }
        } else if (!next && *v == EMPTY_LIST) {
            // The frames: the list the general loop would make here (the dict below the MARK, this key), read whole.
            m_opOffset = base + uint64_t(uintptr_t(v));
            value = m_builder.newContainer(false, &dict, &items[n]);
            next = memoizeItem(v + 1, end, base, value);
            if (value.ctx != SchemaContext::FrameList || next == end || *next != MARK) {
                // Made, so read: the loop goes on after it.
                pos = next;
                return n + 2;
            }
            const uint8_t* frames = next + 1;
            m_opOffset = base + uint64_t(uintptr_t(next));
            if (!readWholeFrameList(frames, end, value)) {
                pos = next;
                return n + 2;
            }
            next = frames;
        }
        if (!next) {
            // The key alone: the loop reads its value.
            pos = v;
            return n + 1;
        }
        n += 2;
        q = next;
        quick = quick && m_builder.quickTraceField(draft, key, value);
    }
    if (q < end && *q == SETITEMS) {
        m_opOffset = base + uint64_t(uintptr_t(q));
        if (quick)
            m_builder.endTraceEntry(draft);
        else
            m_builder.setTraceItems(dict, std::span<const BuilderValue>(items, n));
        pos = q + 1;
        return SIZE_MAX;
    }
    pos = q;
    return n;
}

bool PickleReader::nextTraceEntry(const uint8_t*& q, const uint8_t* end, uint64_t base)
{
    // The entry dict the general loop would make of EMPTY_DICT here: the entry before it on top of the stack, and
    // the trace list below the batch's MARK its parent (createContainer()). Memoized as CPython's pickler does, or
    // not, as a digest's writer leaves the entries that nothing refers to.
    if (end - q < 2 || q[0] != EMPTY_DICT || m_marks.empty())
        return false;
    const bool memoized = q[1] == MEMOIZE;
    const uint8_t* const mark = q + 1 + int(memoized);
    if (mark == end || *mark != MARK)
        return false;
    const size_t m = m_marks.back();
    if (m == 0 || m > m_stack.size() || m_stack.back().kind != BuilderValue::Dict)
        return false;
    const BuilderValue list = m_stack[m - 1];
    if (list.kind != BuilderValue::List || list.ctx != SchemaContext::TraceList)
        return false;
    m_opOffset = base + uint64_t(uintptr_t(q));
    m_stack.push_back(m_builder.newContainer(true, &list, nullptr));
    if (memoized) {
        m_opOffset = base + uint64_t(uintptr_t(q + 1));
        memoAppend(m_stack.back());
    }
    q = mark + 1;
    return true;
}

bool PickleReader::readTraceEntry(const uint8_t*& p, const uint8_t* end, const uint8_t* stop)
{
    // A trace entry dict's items: keys and strings as memo references or short strings (memoized), numbers, and
    // the frame list. Read as pairs first (readEntryPairs()), then one opcode at a time without the general loop,
    // and set at SETITEMS; at anything else (or the window's end) the items read so far go on the stack above a
    // MARK, as the general loop would have put them, and it carries on from there. Nothing is ever read twice.
    const uint8_t* q = p;
    // Where each opcode is, for the messages: the window does not move while an entry is read.
    const uint64_t base = m_in.offsetOf(p) - uint64_t(uintptr_t(p));
    size_t read;
    while ((read = readEntryPairs(q, end, m_stack.back(), base)) == SIZE_MAX) {
        // Set: the batch's next entry is read right here where it follows at once, short of `stop` (the split's
        // point or the next report, which the general loop sees to).
        p = q;
        if (q >= stop || !nextTraceEntry(q, end, base))
            return true;
    }
    const BuilderValue dict = m_stack.back();
    std::vector<BuilderValue>& items = m_entryItems;
    items.assign(m_pairItems.begin(), m_pairItems.begin() + read);
    for (bool more = true; more && q < end;) {
        m_opOffset = base + uint64_t(uintptr_t(q));
        const uint8_t op = *q;
        const size_t left = size_t(end - q);
        switch (op) {
        case SETITEMS:
            if (items.size() % 2) {
                more = false;
                break;
            }
            m_builder.setTraceItems(dict, items);
            p = q + 1;
            return true;
        case BINGET:
        case LONG_BINGET:
        case BININT1:
        case BININT2:
        case BININT:
        case LONG1: {
            BuilderValue item;
            if (const uint8_t* past = scalarItem(q, end, item)) {
                items.push_back(item);
                q = past;
            } else {
                more = false;
            }
            break;
        }
        case SHORT_BINUNICODE:
        case BINUNICODE: {
            const size_t width = op == SHORT_BINUNICODE ? 2 : 5;
            const uint64_t length = left < width ? left : op == SHORT_BINUNICODE ? q[1] : readLE<uint32_t>(q + 1);
            if (left < width || left - width < length) {
                more = false;
                break;
            }
            items.push_back(m_builder.string(std::string_view(reinterpret_cast<const char*>(q + width), length)));
            q += width + length;
            break;
        }
        case BINPUT:
        case LONG_BINPUT:
        case MEMOIZE: {
            const size_t width = op == BINPUT ? 2 : op == LONG_BINPUT ? 5 : 1;
            if (left < width || items.empty()) {
                more = false;
                break;
            }
            if (op == MEMOIZE)
                memoAppend(items.back());
            else
                memoPut(op == BINPUT ? q[1] : readLE<uint32_t>(q + 1), items.back());
            q += width;
            break;
        }
        case TUPLE2: {
            // `pool_id`: a pair of ints under its key, typed by its place as the general loop would type it.
            const size_t n = items.size();
            if (n < 3 || n % 2 == 0 || items[n - 3].kind != BuilderValue::String
                || items[n - 2].kind != BuilderValue::Int || items[n - 1].kind != BuilderValue::Int) {
                more = false;
                break;
            }
            const BuilderValue pair[2] = { items[n - 2], items[n - 1] };
            items.resize(n - 2);
            const BuilderValue tuple = m_builder.newContainer(false, &dict, &items.back());
            m_builder.append(tuple, pair[0]);
            m_builder.append(tuple, pair[1]);
            items.push_back(tuple);
            ++q;
            break;
        }
        case EMPTY_LIST:
            // The frames: the same list the general loop would make here (the dict below the MARK, this key).
            if (items.size() % 2 == 0 || items.back().kind != BuilderValue::String) {
                more = false;
                break;
            }
            items.push_back(m_builder.newContainer(false, &dict, &items.back()));
            ++q;
            break;
        case MARK:
            if (items.empty() || items.back().ctx != SchemaContext::FrameList) {
                more = false;
                break;
            }
            ++q;
            if (!readWholeFrameList(q, end, items.back())) {
                --q;
                more = false;
            }
            break;
        default:
            more = false;
            break;
        }
    }
    m_marks.push_back(m_stack.size());
    for (const BuilderValue& v : items)
        m_stack.push_back(v);
    p = q;
    return true;
}

size_t PickleReader::popMark()
{
    if (m_marks.empty())
        fail("no MARK for this opcode");
    const size_t mark = m_marks.back();
    m_marks.pop_back();
    if (mark > m_stack.size())
        fail("the stack was popped past a MARK");
    return mark;
}

BuilderValue PickleReader::createContainer(bool isDict)
{
    // Find the container this one will be added to, so it is typed by its place in the schema right away. Two
    // shapes are possible: the SETITEM/APPEND form, where the parent (and key) sit directly below with no MARK in
    // between, and the SETITEMS/APPENDS form, where the parent sits just below the top MARK. When both fit, the
    // schema decides; with neither (the DICT/LIST/TUPLE opcodes build children before their parent) the container
    // stays generic until it is placed.
    const size_t n = m_stack.size();
    const bool hasMark = !m_marks.empty();
    const size_t m = hasMark ? m_marks.back() : 0;
    const BuilderValue* nearParent = nullptr;
    const BuilderValue* nearKey = nullptr;
    const BuilderValue* farParent = nullptr;
    const BuilderValue* farKey = nullptr;
    if (n >= 2 && (!hasMark || m <= n - 2) && m_stack[n - 2].kind == BuilderValue::Dict
        && m_stack[n - 1].kind == BuilderValue::String) {
        nearParent = &m_stack[n - 2];
        nearKey = &m_stack[n - 1];
    } else if (n >= 1 && (!hasMark || m <= n - 1) && m_stack[n - 1].kind == BuilderValue::List) {
        nearParent = &m_stack[n - 1];
    }
    if (hasMark && m >= 1 && m <= n) {
        const BuilderValue& below = m_stack[m - 1];
        if (below.kind == BuilderValue::List) {
            farParent = &below;
        } else if (below.kind == BuilderValue::Dict && (n - m) % 2 == 1
            && m_stack[n - 1].kind == BuilderValue::String) {
            farParent = &below;
            farKey = &m_stack[n - 1];
        }
    }
    const BuilderValue* parent = SnapshotBuilder::unknownParent();
    const BuilderValue* key = nullptr;
    if (nearParent && farParent) {
        const SchemaContext nearContext = m_builder.contextFor(isDict, nearParent, nearKey);
        const SchemaContext farContext = m_builder.contextFor(isDict, farParent, farKey);
        const bool nearFits = nearContext != SchemaContext::Ignore;
        const bool farFits = farContext != SchemaContext::Ignore;
        // Allocator settings take any nested dict, so a dict that follows them in the top dict's SETITEMS batch
        // would be read as one of theirs; a place the schema names outright is the likelier one.
        const bool useFar =
            farFits && (!nearFits || (nearContext == SchemaContext::Settings && farContext != SchemaContext::Settings));
        parent = useFar ? farParent : nearParent;
        key = useFar ? farKey : nearKey;
    } else if (nearParent || farParent) {
        parent = nearParent ? nearParent : farParent;
        key = nearParent ? nearKey : farKey;
    } else if (n == 0 && !hasMark && !m_rootCreated) {
        parent = nullptr;
        m_rootCreated = true;
    }
    const BuilderValue made = m_builder.newContainer(isDict, parent, key);
    if (m_split && made.ctx == SchemaContext::TraceList) {
        m_split->announceTraceList(m_opOffset, n + 1, m_marks.size(), [this] { m_in.reportProgress(); });
        m_announced = true;
    }
    return made;
}

void PickleReader::run()
{
    try {
        runOpcodes();
    } catch (const SchemaError& e) {
        fail(e.what());
    }
}

uint64_t PickleReader::runPart(const BuilderValue& list, uint64_t memoBefore,
    std::function<BuilderValue(uint64_t)> foreign, const std::atomic<bool>* abandoned)
{
    m_isPart = true;
    m_partList = list;
    m_memoBefore = memoBefore;
    m_foreign = std::move(foreign);
    m_abandoned = abandoned;
    // A part's reader starts with an empty memo. Its slots before the part are left at 0, which memoGet() takes for
    // unset there: written out, they were the memo's pages for the whole file before the part (tens of megabytes
    // where every entry's dict, frame list and strings are memoized, as PyTorch writes them), faulted in for nothing.
    m_memo.grow(memoBefore, traceEntryMemo);
    try {
        m_partStored.reserve(m_memo.capacity());
    } catch (const std::bad_alloc&) { }
    m_stack.push_back(list);
    m_rootCreated = true;
    runOpcodes();
    return m_in.offsetOf(m_in.cur);
}

PickleReader::PartMemo PickleReader::takePartMemo()
{
    PartMemo out;
    // The indices the part stored are a few runs (MEMOIZE counts on from its start): a word of flags at a time past
    // the rest, the words of a run copied at once.
    const uint8_t* stored = m_partStored.data();
    const size_t n = m_partStored.size();
    for (size_t i = 0; i < n;) {
        uint64_t flags = 0;
        while (i + 8 <= n && (std::memcpy(&flags, stored + i, 8), flags == 0))
            i += 8;
        while (i < n && !stored[i])
            ++i;
        size_t j = i;
        while (j + 8 <= n && (std::memcpy(&flags, stored + j, 8), flags == 0x0101010101010101ull))
            j += 8;
        while (j < n && stored[j])
            ++j;
        if (j == i)
            break;
        // A stored index always holds a slot: memoPut never leaves the index it stores unset.
        out.runs.emplace_back(i, j - i);
        out.words.insert(out.words.end(), m_memo.data() + i, m_memo.data() + j);
        i = j;
    }
    out.values = std::move(m_memoValues);
    m_memoValues = BigVector<BuilderValue>(1, out.values.front()); // slot 0, as every memo has it
    // A trace entry dict's word and a string's need no look: both are always taken.
    out.absorbable = true;
    for (const uint32_t word : out.words) {
        if (word != traceEntryWord && (word & memoTag) != memoString
            && !SnapshotBuilder::takesPartMemo(m_builder, memoValueOf(word, out.values))) {
            out.absorbable = false;
            break;
        }
    }
    return out;
}

void PickleReader::takePart(const uint8_t*& p, const uint8_t*& end)
{
    PickleSplit* split = m_split;
    m_split = nullptr;
    m_in.cur = p;
    if (m_in.offsetOf(p) != split->splitOffset() || m_stack.empty() || m_stack.back().ctx != SchemaContext::TraceList
        || !m_sparseMemo.empty()) {
        split->abandon(); // passed it, or not in the state the walk saw there
        split->trace("the reader passed the point, or is not as the walk saw it there: it parses the part");
        return;
    }
    split->trace("the reader reached the point");
    const PickleSplit::Part* part = split->wait([this] { m_in.reportProgress(); });
    if (!part || part->depth != m_stack.size() || part->marks != m_marks.size() || part->memoBefore != m_memo.size()) {
        split->trace("no part to take: the reader parses it");
        return;
    }
    split->trace("the part is handed over");
    const auto before = [this](uint64_t index) -> std::optional<BuilderValue> {
        if (index >= m_memo.size() || m_memo[index] == unsetMemo || m_memo[index] == traceEntryMemo)
            return std::nullopt;
        return memoValue(m_memo[index]);
    };
    const auto memo = [&] {
        absorbPartMemo(part->memo, *part->builder);
        split->trace("its memo is taken in");
    };
    if (!part->memo.absorbable || !m_builder.absorb(*part->builder, m_stack.back(), before, memo)) {
        split->trace("the part cannot be taken in: the reader parses it");
        return;
    }
    split->trace("its entries are taken in");
    if (!m_in.skipTo(part->end))
        fail("the file ends inside the trace list (truncated?)");
    m_partTaken = { part->start, part->end };
    p = m_in.cur;
    end = m_in.end;
}

void PickleReader::absorbPartMemo(const PartMemo& memo, const SnapshotBuilder& part)
{
    // In order of index, as the part stored them: a memo that grows by one store at a time ends the same. A third of
    // them are trace entry dicts', appended as memoPut() would write them (never written) without making a value.
    size_t w = 0;
    for (const auto& [first, count] : memo.runs) {
        for (uint64_t i = first; i < first + count; ++i, ++w) {
            const uint32_t word = memo.words[w];
            // Appended, as a protocol 4 file stores every one: a string's and a frame list's words are written by
            // memoAppend() without absorbedMemo() making a value for each (millions: a tenth of a second on the 1 GB
            // benchmark rank, on the reader's thread alone).
            if (const uint32_t tag = word & memoTag;
                i == m_memo.size() && (tag == memoString || tag == memoFrameList)) {
                BuilderValue v =
                    BuilderValue::text(tag == memoString ? m_builder.absorbedString(word & memoIndex)
                                                         : m_builder.absorbedFrameList(part, word & memoIndex));
                if (tag == memoFrameList) {
                    v.kind = BuilderValue::List;
                    v.ctx = SchemaContext::FrameList;
                }
                memoAppend(v);
                continue;
            }
            if (word != traceEntryWord) {
                memoPut(i, m_builder.absorbedMemo(part, memoValueOf(word, memo.values)));
            } else if (i == m_memo.size()) {
                m_memo.push_back(traceEntryMemo);
            } else {
                BuilderValue entry;
                entry.kind = BuilderValue::Dict;
                entry.ctx = SchemaContext::TraceEntry;
                memoPut(i, entry);
            }
        }
    }
}

void PickleReader::runOpcodes()
{
    const uint8_t* p = m_in.cur;
    const uint8_t* end = m_in.end;
    const uint8_t* nextReport = p + progressStep;
    // The loop's one check per opcode: the next report, or the split's point once it lies in the window.
    const uint8_t* nextProgress = nextReport;
    auto arm = [&] {
        nextProgress = nextReport;
        if (!m_split)
            return;
        const uint64_t at = m_split->splitOffset();
        const uint64_t here = m_in.offsetOf(p);
        if (at != UINT64_MAX && at >= here && at - here <= uint64_t(end - p))
            nextProgress = std::min(nextProgress, p + (at - here));
    };
    arm();
    // A refill keeps p's offset in the file, and the next report keeps its own: reports (progress, cancel, the pages
    // faulted in ahead, the split's view of the reader) come every progressStep bytes, however the chunks fall.
    auto reportDistance = [&] { return nextReport > p ? size_t(nextReport - p) : size_t(0); };

    // Makes k bytes available at p, or reports the truncation.
    auto need = [&](uint64_t k, const char* what) {
        if (uint64_t(end - p) >= k)
            return;
        if (k > maxLength)
            fail(std::string(what) + " of " + std::to_string(k) + " bytes is larger than any snapshot");
        m_in.cur = p;
        const size_t toReport = reportDistance();
        const bool ok = m_in.refill(size_t(k));
        p = m_in.cur;
        end = m_in.end;
        nextReport = p + toReport;
        arm();
        if (!ok)
            fail(std::string("the file ends inside ") + what + " (truncated?)");
    };
    auto push = [&](const BuilderValue& v) { m_stack.push_back(v); };
    // Protocols 0 and 1 write numbers, strings and memo indices as text ending in a newline.
    auto line = [&](const char* what) -> std::string_view {
        for (uint64_t n = 0;; ++n) {
            need(n + 1, what);
            if (p[n] == '\n') {
                const std::string_view text(reinterpret_cast<const char*>(p), size_t(n));
                p += n + 1;
                return text;
            }
        }
    };
    auto index = [&](const char* what) -> uint64_t {
        const auto v = decimal(line(what));
        if (!v || *v < 0)
            fail(std::string(what) + " without a valid memo index");
        return uint64_t(*v);
    };
    auto top = [&]() -> BuilderValue& {
        if (m_stack.empty())
            fail("stack underflow");
        return m_stack.back();
    };

    for (;;) {
        if (p >= nextProgress) {
            if (m_split && m_in.offsetOf(p) >= m_split->splitOffset())
                takePart(p, end);
            if (p >= nextReport) {
                m_in.cur = p;
                m_in.reportProgress();
                if (m_abandoned && m_abandoned->load(std::memory_order_relaxed))
                    throw SplitRefused("abandoned");
                if (m_split)
                    m_split->readerAt(m_in.offsetOf(p));
                nextReport = p + progressStep;
                m_in.pageAhead().publish(
                    PageAhead::Memo, m_memo.data(), m_memo.writtenBytes(), m_memo.capacity() * sizeof(uint32_t));
                m_builder.publishArrays(m_in.pageAhead());
                // The file's size and the offsets are of one stream only when it is not compressed; a part's
                // arrays are its own, from its start.
                if (const uint64_t at = m_in.offsetOf(p); !m_in.isGzip() && !m_isPart && at <= m_in.fileSize())
                    m_in.pageAhead().input(at, m_in.fileSize() - at);
            }
            arm();
        }
        if (p == end) {
            m_in.cur = p;
            const size_t toReport = reportDistance();
            if (!m_in.refill(1)) {
                m_opOffset = m_in.offsetOf(m_in.cur); // p may lie in a window the refill gave back
                fail("the file ends before the pickle's STOP opcode (truncated?)");
            }
            p = m_in.cur;
            end = m_in.end;
            nextReport = p + toReport;
            arm();
        }
        m_opOffset = m_in.offsetOf(p);
        const uint8_t op = *p++;
        switch (op) {
        case PROTO: {
            need(1, "PROTO");
            const uint8_t version = *p++;
            if (version > 5)
                fail("pickle protocol " + std::to_string(version) + " is not supported (0 to 5 are)");
            break;
        }
        case FRAME:
            need(8, "FRAME"); // framing only groups opcodes; its length needs no checking here
            p += 8;
            break;
        case STOP: {
            if (m_isPart)
                throw SplitRefused("the part reached the end of the pickle");
            if (m_stack.empty())
                fail("STOP with an empty stack");
            m_in.cur = p;
            m_builder.setRoot(m_stack.back());
            return;
        }
        case MARK:
            if (!m_stack.empty()) {
                const SchemaContext below = m_stack.back().ctx;
                if (below == SchemaContext::FrameList && readWholeFrameList(p, end, m_stack.back()))
                    break;
                if (below == SchemaContext::TraceEntry && readTraceEntry(p, end, nextProgress))
                    break;
            }
            m_marks.push_back(m_stack.size());
            break;
        case POP:
            top();
            m_stack.pop_back();
            break;
        case POP_MARK:
            m_stack.resize(popMark());
            break;
        case EMPTY_DICT:
            push(createContainer(true));
            break;
        case EMPTY_LIST:
        case EMPTY_TUPLE:
            push(createContainer(false));
            if (m_announced) [[unlikely]] {
                m_announced = false;
                arm(); // a split's point, once known, may lie in this window
            }
            break;
        case DICT:
        case LIST:
        case TUPLE: {
            const size_t mark = popMark();
            m_items.assign(m_stack.begin() + ptrdiff_t(mark), m_stack.end());
            m_stack.resize(mark);
            if (op == DICT && m_items.size() % 2)
                fail("DICT with an odd number of items");
            BuilderValue c = createContainer(op == DICT);
            if (op == DICT) {
                for (size_t i = 0; i < m_items.size(); i += 2)
                    m_builder.setItem(c, m_items[i], m_items[i + 1]);
            } else {
                for (const BuilderValue& v : m_items)
                    m_builder.append(c, v);
            }
            push(c);
            break;
        }
        case TUPLE1:
        case TUPLE2:
        case TUPLE3: {
            const size_t count = size_t(op - TUPLE1) + 1;
            if (m_stack.size() < count || (!m_marks.empty() && m_marks.back() > m_stack.size() - count))
                fail("TUPLE" + std::to_string(count) + " with too few items");
            m_items.assign(m_stack.end() - ptrdiff_t(count), m_stack.end());
            m_stack.resize(m_stack.size() - count);
            BuilderValue c = createContainer(false);
            for (const BuilderValue& v : m_items)
                m_builder.append(c, v);
            push(c);
            break;
        }
        case APPEND: {
            if (m_stack.size() < 2)
                fail("APPEND with too few items");
            const BuilderValue v = m_stack.back();
            m_stack.pop_back();
            const BuilderValue& list = m_stack.back();
            if (list.kind != BuilderValue::List)
                fail("APPEND to something that is not a list");
            m_builder.append(list, v);
            break;
        }
        case APPENDS: {
            const size_t mark = popMark();
            if (mark == 0 || m_stack[mark - 1].kind != BuilderValue::List)
                fail("APPENDS to something that is not a list");
            const BuilderValue list = m_stack[mark - 1];
            m_builder.appendAll(list, std::span<const BuilderValue>(m_stack.begin() + mark, m_stack.end()));
            m_stack.resize(mark);
            if (m_isPart && mark == 1 && m_marks.empty()) {
                // Between two batches of the part's list: the part ends where the list does.
                need(1, "the trace list");
                if (*p != MARK) {
                    if (m_stack[0].ctx != SchemaContext::TraceList || m_stack[0].a != m_partList.a)
                        throw SplitRefused("the part's list is gone");
                    m_in.cur = p;
                    return;
                }
            }
            break;
        }
        case SETITEM: {
            if (m_stack.size() < 3)
                fail("SETITEM with too few items");
            const BuilderValue& dict = m_stack[m_stack.size() - 3];
            if (dict.kind != BuilderValue::Dict)
                fail("SETITEM on something that is not a dict");
            m_builder.setItem(dict, m_stack[m_stack.size() - 2], m_stack.back());
            m_stack.resize(m_stack.size() - 2);
            break;
        }
        case SETITEMS: {
            const size_t mark = popMark();
            if (mark == 0 || m_stack[mark - 1].kind != BuilderValue::Dict)
                fail("SETITEMS on something that is not a dict");
            if ((m_stack.size() - mark) % 2)
                fail("SETITEMS with an odd number of items");
            const BuilderValue dict = m_stack[mark - 1];
            for (size_t i = mark; i < m_stack.size(); i += 2)
                m_builder.setItem(dict, m_stack[i], m_stack[i + 1]);
            m_stack.resize(mark);
            break;
        }
        case MEMOIZE:
            if (m_stack.empty())
                fail("memo store with an empty stack");
            memoAppend(m_stack.back());
            break;
        case BINPUT:
            need(1, "BINPUT");
            memoPut(*p++);
            break;
        case LONG_BINPUT:
            need(4, "LONG_BINPUT");
            memoPut(readLE<uint32_t>(p));
            p += 4;
            break;
        case BINGET:
            need(1, "BINGET");
            push(memoGet(*p++));
            break;
        case LONG_BINGET:
            need(4, "LONG_BINGET");
            push(memoGet(readLE<uint32_t>(p)));
            p += 4;
            break;
        case SHORT_BINUNICODE:
        case SHORT_BINSTRING:
        case BINUNICODE:
        case BINSTRING:
        case BINUNICODE8: {
            uint64_t len;
            if (op == SHORT_BINUNICODE || op == SHORT_BINSTRING) {
                need(1, "a string length");
                len = *p++;
            } else if (op == BINUNICODE8) {
                need(8, "a string length");
                len = readLE<uint64_t>(p);
                p += 8;
            } else {
                need(4, "a string length");
                len = readLE<uint32_t>(p);
                p += 4;
                if (op == BINSTRING && int32_t(len) < 0)
                    fail("BINSTRING with a negative length");
            }
            need(len, "a string");
            push(m_builder.string(std::string_view(reinterpret_cast<const char*>(p), size_t(len))));
            p += len;
            break;
        }
        case SHORT_BINBYTES:
        case BINBYTES:
        case BINBYTES8:
        case BYTEARRAY8: {
            uint64_t len;
            if (op == SHORT_BINBYTES) {
                need(1, "a bytes length");
                len = *p++;
            } else if (op == BINBYTES) {
                need(4, "a bytes length");
                len = readLE<uint32_t>(p);
                p += 4;
            } else {
                need(8, "a bytes length");
                len = readLE<uint64_t>(p);
                p += 8;
            }
            need(len, "a bytes object");
            p += len;
            BuilderValue v;
            v.kind = BuilderValue::Bytes; // no snapshot field holds bytes: kept as a placeholder only
            push(v);
            break;
        }
        case BININT:
            need(4, "BININT");
            push(BuilderValue::integer(readLE<int32_t>(p)));
            p += 4;
            break;
        case BININT1:
            need(1, "BININT1");
            push(BuilderValue::integer(*p++));
            break;
        case BININT2:
            need(2, "BININT2");
            push(BuilderValue::integer(readLE<uint16_t>(p)));
            p += 2;
            break;
        case LONG1:
        case LONG4: {
            uint64_t len;
            if (op == LONG1) {
                need(1, "LONG1");
                len = *p++;
            } else {
                need(4, "LONG4");
                const int32_t l = readLE<int32_t>(p);
                if (l < 0)
                    fail("LONG4 with a negative length");
                len = uint64_t(l);
                p += 4;
            }
            need(len, "an integer");
            push(decodeLong(p, len));
            p += len;
            break;
        }
        case BINFLOAT: {
            need(8, "BINFLOAT");
            BuilderValue v;
            v.kind = BuilderValue::Float;
            v.b = readBE64(p);
            p += 8;
            push(v);
            break;
        }
        case NEWTRUE:
        case NEWFALSE: {
            BuilderValue v = BuilderValue::integer(op == NEWTRUE);
            v.kind = BuilderValue::Bool;
            push(v);
            break;
        }
        case NONE:
            push(BuilderValue {});
            break;
        case INT: {
            const std::string_view text = line("INT");
            if (text == "00" || text == "01") { // protocol 0's booleans
                BuilderValue v = BuilderValue::integer(text == "01");
                v.kind = BuilderValue::Bool;
                push(v);
                break;
            }
            const auto v = decimal(text);
            if (!v)
                fail("INT with a malformed number");
            push(BuilderValue::integer(*v));
            break;
        }
        case LONG: {
            std::string_view text = line("LONG");
            if (!text.empty() && text.back() == 'L')
                text.remove_suffix(1);
            if (const auto v = decimal(text)) {
                push(BuilderValue::integer(*v));
            } else {
                // Addresses above 2^63 are kept as their bit pattern, as LONG1 does.
                uint64_t u = 0;
                const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), u);
                if (error != std::errc() || end != text.data() + text.size())
                    fail("LONG with a number that does not fit in 64 bits");
                push(BuilderValue::integer(int64_t(u)));
            }
            break;
        }
        case FLOAT: {
            const std::string text(line("FLOAT"));
            char* end = nullptr;
            BuilderValue v;
            v.kind = BuilderValue::Float;
            v.f = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size())
                fail("FLOAT with a malformed number");
            push(v);
            break;
        }
        case STRING: {
            const auto text = quotedString(line("STRING"));
            if (!text)
                fail("STRING that is not a quoted string");
            push(m_builder.string(*text));
            break;
        }
        case UNICODE: {
            const auto text = rawUnicodeEscape(line("UNICODE"));
            if (!text)
                fail("UNICODE with a malformed escape");
            push(m_builder.string(*text));
            break;
        }
        case PUT:
            memoPut(index("PUT"));
            break;
        case GET:
            push(memoGet(index("GET")));
            break;
        default:
            if (const char* name = refusedOpcodeName(op))
                fail(std::string("refused pickle opcode ") + name + " (" + hexByte(op)
                    + "): a memory snapshot holds only plain data, and RankScope never imports, constructs or "
                      "runs anything from a file");
            fail("unknown pickle opcode " + hexByte(op));
        }
    }
}

} // namespace RankScope
