// SPDX-License-Identifier: MIT
#include "tracetimes.h"

namespace RankScope {

namespace {
// timeUs - base, where it fits an offset (the subtraction checked first: a hand-made file may hold any two numbers).
bool offsetFrom(int64_t base, int64_t timeUs, int32_t& offset)
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
} // namespace

void TraceTimes::push_back(int64_t timeUs)
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

void TraceTimes::append(const TraceTimes& other)
{
    for (size_t i = 0; i < other.size(); ++i)
        push_back(other[i]);
}

void TraceTimes::set(size_t i, int64_t timeUs)
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

void TraceTimes::widen()
{
    BigVector<int64_t> times;
    times.reserve(m_offsets.capacity());
    for (size_t i = 0; i < m_offsets.size(); ++i)
        times.push_back((*this)[i]);
    m_times = std::move(times);
    m_offsets = {};
    m_bases = {};
    m_wide = true;
}

void TraceTimes::resize(size_t count)
{
    if (count >= size()) {
        while (size() < count)
            push_back(0);
    } else if (m_wide) {
        m_times.resize(count);
    } else {
        m_offsets.resize(count);
        m_bases.resize((count + (size_t(1) << runShift) - 1) >> runShift);
    }
}

void TraceTimes::reserve(size_t count)
{
    if (m_wide) {
        m_times.reserve(count);
    } else {
        m_offsets.reserve(count);
        m_bases.reserve((count >> runShift) + 1);
    }
}

bool TraceTimes::operator==(const TraceTimes& other) const
{
    if (size() != other.size())
        return false;
    for (size_t i = 0; i < size(); ++i) {
        if ((*this)[i] != other[i])
            return false;
    }
    return true;
}

} // namespace RankScope
