// SPDX-License-Identifier: MIT
#include "tracetimes.h"

namespace RankScope {

void TraceTimes::append(const TraceTimes& other)
{
    for (size_t i = 0; i < other.size(); ++i)
        push_back(other[i]);
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
