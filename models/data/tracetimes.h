// SPDX-License-Identifier: MIT
#pragma once

#include "bigallocator.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace RankScope {

/// The times of one trace's entries (epoch microseconds, 0 where the writer recorded none), by entry index, apart
/// from the entries: every walk reads an entry's address, size, stack and kind, and only the timeline and the
/// annotations read its time. Held in 4 bytes an entry where the times allow, as an offset from the first time of
/// each run of 1024 entries; a trace whose times do not fit (more than half an hour within one run, a hand-made
/// file's extremes) holds all of them in 8 bytes instead. Either way an entry's time is read in constant time.
class TraceTimes
{
public:
    size_t size() const
    {
        return m_wide ? m_times.size() : m_offsets.size();
    }
    bool empty() const
    {
        return size() == 0;
    }
    int64_t operator[](size_t i) const
    {
        if (m_wide) [[unlikely]]
            return m_times[i];
        const int32_t offset = m_offsets[i];
        return offset == noTime ? 0 : m_bases[i >> runShift] + offset;
    }
    int64_t front() const
    {
        return (*this)[0];
    }
    int64_t back() const
    {
        return (*this)[size() - 1];
    }

    /// A new entry's time. Inline, as set(): called for every entry of a file as it is read.
    void push_back(int64_t timeUs)
    {
        if (m_wide) {
            m_times.push_back(timeUs);
            return;
        }
        if ((m_offsets.size() & ((size_t(1) << runShift) - 1)) == 0)
            m_bases.push_back(noBase);
        m_offsets.push_back(noTime);
        if (timeUs != 0)
            set(m_offsets.size() - 1, timeUs);
    }
    /// Adds `other`'s times after these.
    void append(const TraceTimes& other);
    /// Sets the time of an entry there is already.
    void set(size_t i, int64_t timeUs)
    {
        if (!m_wide) {
            if (timeUs == 0) {
                m_offsets[i] = noTime;
                return;
            }
            int64_t& base = m_bases[i >> runShift];
            if (base == noBase && timeUs != noBase)
                base = timeUs;
            if (int32_t offset = 0; base != noBase && offsetFrom(base, timeUs, offset)) {
                m_offsets[i] = offset;
                return;
            }
            widen();
        }
        m_times[i] = timeUs;
    }
    /// Keeps the first `count` entries' times (or adds times of 0 up to `count`).
    void resize(size_t count);
    /// Room for `count` entries: address space only (see BigVector).
    void reserve(size_t count);
    size_t capacity() const
    {
        return m_wide ? m_times.capacity() : m_offsets.capacity();
    }
    /// The array that grows with the entries, for PageAhead: its start, bytes used and bytes reserved.
    const void* data() const
    {
        return m_wide ? static_cast<const void*>(m_times.data()) : static_cast<const void*>(m_offsets.data());
    }
    size_t bytes() const
    {
        return m_wide ? m_times.size() * sizeof(int64_t) : m_offsets.size() * sizeof(int32_t);
    }
    size_t capacityBytes() const
    {
        return m_wide ? m_times.capacity() * sizeof(int64_t) : m_offsets.capacity() * sizeof(int32_t);
    }
    /// Whether the times took 8 bytes an entry.
    bool isWide() const
    {
        return m_wide;
    }

    bool operator==(const TraceTimes& other) const;

private:
    static constexpr int runShift = 10;
    static constexpr int32_t noTime = std::numeric_limits<int32_t>::min();
    static constexpr int64_t noBase = std::numeric_limits<int64_t>::min();
    void widen();
    // timeUs - base, where it fits an offset (the subtraction checked first: a hand-made file may hold any two
    // numbers).
    static bool offsetFrom(int64_t base, int64_t timeUs, int32_t& offset)
    {
        constexpr int64_t most = std::numeric_limits<int64_t>::max();
        constexpr int64_t least = std::numeric_limits<int64_t>::min();
        if ((base < 0 && timeUs > most + base) || (base > 0 && timeUs < least + base))
            return false;
        const int64_t difference = timeUs - base;
        if (difference <= std::numeric_limits<int32_t>::min() || difference > std::numeric_limits<int32_t>::max())
            return false;
        offset = int32_t(difference);
        return true;
    }

    BigVector<int32_t> m_offsets;
    std::vector<int64_t> m_bases; ///< per run: its first time that is not 0, noBase until there is one
    BigVector<int64_t> m_times; ///< every time, once they did not fit
    bool m_wide = false;
};

} // namespace RankScope
