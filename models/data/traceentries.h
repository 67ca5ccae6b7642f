// SPDX-License-Identifier: MIT
#pragma once

#include "bigallocator.h"

#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace RankScope {

using StackId = uint32_t;
/// Id 0 of the stack table: no frames.
constexpr StackId EmptyStack = 0;

enum class TraceAction : uint8_t
{
    Alloc,
    FreeRequested,
    FreeCompleted,
    SegmentAlloc,
    SegmentFree,
    SegmentMap,
    SegmentUnmap,
    Snapshot,
    Oom,
    Other, ///< an action this version does not know; kept so event indices match the official viewer
};

/// TraceEntry::kind: the entry's TraceAction in the top bits, so a walk needs no lookup to tell allocs from frees,
/// and its index into Snapshot::entryKinds in the rest.
namespace EntryKinds {
constexpr int actionShift = 28;
constexpr uint32_t indexMask = (uint32_t(1) << actionShift) - 1;
/// The most kinds a snapshot holds.
constexpr uint32_t most = indexMask + 1;
constexpr uint32_t make(TraceAction action, uint32_t index)
{
    return uint32_t(action) << actionShift | index;
}
/// The kind of `action` on stream 0 without a context: every snapshot's entryKinds starts with these, in
/// TraceAction's order, so they need no lookup (most entries of most files are one of them).
constexpr uint32_t plain(TraceAction action)
{
    return make(action, uint32_t(action));
}
} // namespace EntryKinds

/// One entry of a device's trace ring buffer, as a walk reads it. A trace holds it in fewer bytes (TraceEntries),
/// and its time apart (Snapshot::deviceTimes): what rarely varies (the action's name, stream, compile context, user
/// metadata) is one index into a small table.
struct TraceEntry
{
    /// The block or segment address; for `oom` entries the `device_free` bytes (an oom has no address).
    uint64_t addr = 0;
    /// Requested bytes for block actions, segment bytes for segment actions, total active bytes for `snapshot`.
    int64_t size = 0;
    StackId stack = EmptyStack;
    /// See EntryKinds; Snapshot::kindOf() gives the whole of it.
    uint32_t kind = EntryKinds::plain(TraceAction::Other);

    TraceAction action() const
    {
        // Inline: every walk over a trace asks each entry, millions of times.
        return TraceAction(kind >> EntryKinds::actionShift);
    }
    uint32_t kindIndex() const
    {
        return kind & EntryKinds::indexMask;
    }
    bool operator==(const TraceEntry&) const = default;
};
static_assert(sizeof(TraceEntry) == 24);

/// A trace entry in 16 bytes: a 1 GB snapshot holds about five million of them, and a real file's numbers fit
/// (addresses below 2^48, sizes below 2^40 and at least 0, fewer than 2^24 stacks and 2^12 kinds). The low word is
/// the address and the stack's low 16 bits; the high word the size, the stack's high 8 bits, the action and the kind's
/// index.
struct PackedEntry
{
    static constexpr int addrBits = 48;
    static constexpr int sizeBits = 40;
    static constexpr int stackLowBits = 16;
    static constexpr int stackBits = 24;
    static constexpr int actionShift = 48;
    static constexpr int indexShift = 52;
    static constexpr uint64_t addrMask = (uint64_t(1) << addrBits) - 1;
    static constexpr uint64_t sizeMask = (uint64_t(1) << sizeBits) - 1;
    static constexpr uint64_t stackHighMask = ((uint64_t(1) << (stackBits - stackLowBits)) - 1) << sizeBits;
    /// The one address above 2^48 a trace holds: a digest's stand-in for the allocations it leaves out
    /// (DigestInfo::leftOutAddress), in entries throughout its trace. Packed as the address of all ones, which no
    /// allocator gives (blocks are aligned) and which fits() leaves to the wide form, so a digest keeps 16 bytes an
    /// entry too.
    static constexpr uint64_t standInAddress = 0x7ff0000000000000ull;

    uint64_t low = 0;
    uint64_t high = 0;

    /// Whether `e`'s numbers fit.
    static bool fits(const TraceEntry& e)
    {
        return ((e.addr >> addrBits == 0 && e.addr != addrMask) || e.addr == standInAddress)
            && uint64_t(e.size) >> sizeBits == 0 && e.stack >> stackBits == 0
            && (e.kind & EntryKinds::indexMask) >> (64 - indexShift) == 0;
    }
    /// `e`, which fits.
    static PackedEntry pack(const TraceEntry& e)
    {
        return { (e.addr == standInAddress ? addrMask : e.addr) | uint64_t(e.stack) << addrBits,
            uint64_t(e.size) | uint64_t(e.stack >> stackLowBits) << sizeBits
                | uint64_t(e.kind >> EntryKinds::actionShift) << actionShift
                | uint64_t(e.kind & EntryKinds::indexMask) << indexShift };
    }
    TraceEntry unpack() const
    {
        TraceEntry e;
        const uint64_t addr = low & addrMask;
        e.addr = addr == addrMask ? standInAddress : addr;
        e.size = int64_t(high & sizeMask);
        e.stack = StackId(low >> addrBits) | StackId((high & stackHighMask) >> (sizeBits - stackLowBits));
        e.kind = uint32_t((high >> actionShift) & 0xf) << EntryKinds::actionShift | uint32_t(high >> indexShift);
        return e;
    }
};
static_assert(sizeof(PackedEntry) == 16);

/// A read-only view of a trace's entries (TraceEntries, or entries a walk made itself), read by index or in order.
/// An entry is handed out by value: it is unpacked as it is read.
class TraceView
{
public:
    /// A random-access iterator whose entries are values, not references.
    class Iterator;

    TraceView() = default;
    TraceView(const PackedEntry* narrow, size_t size)
        : m_narrow(narrow)
        , m_size(size)
    { }
    TraceView(const TraceEntry* wide, size_t size)
        : m_wide(wide)
        , m_size(size)
    { }
    size_t size() const
    {
        return m_size;
    }
    bool empty() const
    {
        return m_size == 0;
    }
    TraceEntry operator[](size_t i) const
    {
        if (m_wide) [[unlikely]]
            return m_wide[i];
        return m_narrow[i].unpack();
    }
    Iterator begin() const;
    Iterator end() const;

private:
    const PackedEntry* m_narrow = nullptr;
    const TraceEntry* m_wide = nullptr;
    size_t m_size = 0;
};

class TraceView::Iterator
{
public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;
    using value_type = TraceEntry;
    using difference_type = std::ptrdiff_t;
    using reference = TraceEntry;

    Iterator() = default;
    Iterator(const TraceView& view, size_t index)
        : m_view(view)
        , m_index(std::ptrdiff_t(index))
    { }
    TraceEntry operator*() const
    {
        return m_view[size_t(m_index)];
    }
    TraceEntry operator[](difference_type n) const
    {
        return *(*this + n);
    }
    Iterator& operator++()
    {
        ++m_index;
        return *this;
    }
    Iterator operator++(int)
    {
        Iterator before = *this;
        ++m_index;
        return before;
    }
    Iterator& operator--()
    {
        --m_index;
        return *this;
    }
    Iterator operator--(int)
    {
        Iterator before = *this;
        --m_index;
        return before;
    }
    Iterator& operator+=(difference_type n)
    {
        m_index += n;
        return *this;
    }
    Iterator& operator-=(difference_type n)
    {
        m_index -= n;
        return *this;
    }
    friend Iterator operator+(Iterator it, difference_type n)
    {
        return it += n;
    }
    friend Iterator operator+(difference_type n, Iterator it)
    {
        return it += n;
    }
    friend Iterator operator-(Iterator it, difference_type n)
    {
        return it -= n;
    }
    friend difference_type operator-(const Iterator& a, const Iterator& b)
    {
        return a.m_index - b.m_index;
    }
    friend bool operator==(const Iterator& a, const Iterator& b)
    {
        return a.m_index == b.m_index;
    }
    friend std::strong_ordering operator<=>(const Iterator& a, const Iterator& b)
    {
        return a.m_index <=> b.m_index;
    }

private:
    // A copy: an iterator may outlive the view it came from (a view is two pointers and a size).
    TraceView m_view;
    std::ptrdiff_t m_index = 0;
};

inline TraceView::Iterator TraceView::begin() const
{
    return { *this, 0 };
}
inline TraceView::Iterator TraceView::end() const
{
    return { *this, m_size };
}

/// The entries of one trace, by index, 16 bytes each (PackedEntry) where every entry's numbers fit; a trace with one
/// that does not (a hand-made file's, a digest's stand-in address) holds all of them whole, in 24 bytes, instead.
/// Either way an entry is read in constant time, and every walk reads the same TraceEntry values.
class TraceEntries
{
public:
    size_t size() const
    {
        return m_wide ? m_wideEntries.size() : m_narrow.size();
    }
    bool empty() const
    {
        return size() == 0;
    }
    TraceView view() const
    {
        return m_wide ? TraceView(m_wideEntries.data(), m_wideEntries.size())
                      : TraceView(m_narrow.data(), m_narrow.size());
    }
    operator TraceView() const
    {
        return view();
    }
    TraceEntry operator[](size_t i) const
    {
        return view()[i];
    }
    TraceView::Iterator begin() const
    {
        return view().begin();
    }
    TraceView::Iterator end() const
    {
        return view().end();
    }

    void push_back(const TraceEntry& e)
    {
        if (!m_wide && PackedEntry::fits(e)) [[likely]]
            m_narrow.push_back(PackedEntry::pack(e));
        else
            pushWide(e);
    }
    /// Sets an entry there is already.
    void set(size_t i, const TraceEntry& e)
    {
        if (!m_wide && PackedEntry::fits(e)) [[likely]]
            m_narrow[i] = PackedEntry::pack(e);
        else
            wideAt(i) = e;
    }
    /// Adds `other`'s entries after these.
    void append(TraceView other);
    /// Keeps the first `count` entries (or adds default entries up to `count`).
    void resize(size_t count);
    /// Room for `count` entries: address space only (see BigVector).
    void reserve(size_t count);
    size_t capacity() const
    {
        return m_wide ? m_wideEntries.capacity() : m_narrow.capacity();
    }
    /// The array, for PageAhead and for giving pages back: its start, the bytes of one entry, bytes used and reserved.
    const char* data() const
    {
        return m_wide ? reinterpret_cast<const char*>(m_wideEntries.data())
                      : reinterpret_cast<const char*>(m_narrow.data());
    }
    size_t entryBytes() const
    {
        return m_wide ? sizeof(TraceEntry) : sizeof(PackedEntry);
    }
    size_t bytes() const
    {
        return size() * entryBytes();
    }
    size_t capacityBytes() const
    {
        return capacity() * entryBytes();
    }
    /// Whether the entries took 24 bytes each.
    bool isWide() const
    {
        return m_wide;
    }

private:
    // The slow paths, for a number that does not fit: every entry is held whole from then on.
    void pushWide(const TraceEntry& e);
    TraceEntry& wideAt(size_t i);
    void widen();

    BigVector<PackedEntry> m_narrow;
    BigVector<TraceEntry> m_wideEntries; ///< every entry, once one did not fit
    bool m_wide = false;
};

} // namespace RankScope
