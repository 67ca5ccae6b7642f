// SPDX-License-Identifier: MIT
#include "traceentries.h"

#include <ranges>

namespace RankScope {

// Standard algorithms take a trace as a random-access range; its entries are values, unpacked as they are read.
static_assert(std::random_access_iterator<TraceView::Iterator>);
static_assert(std::ranges::random_access_range<TraceEntries>);

void TraceEntries::pushWide(const TraceEntry& e)
{
    if (!m_wide)
        widen();
    m_wideEntries.push_back(e);
}

TraceEntry& TraceEntries::wideAt(size_t i)
{
    if (!m_wide)
        widen();
    return m_wideEntries[i];
}

void TraceEntries::append(TraceView other)
{
    for (const TraceEntry& e : other)
        push_back(e);
}

void TraceEntries::widen()
{
    BigVector<TraceEntry> entries;
    entries.reserve(m_narrow.capacity());
    for (const PackedEntry& p : m_narrow)
        entries.push_back(p.unpack());
    m_wideEntries = std::move(entries);
    m_narrow = {};
    m_wide = true;
}

void TraceEntries::resize(size_t count)
{
    if (m_wide)
        m_wideEntries.resize(count);
    else
        m_narrow.resize(count, PackedEntry::pack(TraceEntry {}));
}

void TraceEntries::reserve(size_t count)
{
    if (m_wide)
        m_wideEntries.reserve(count);
    else
        m_narrow.reserve(count);
}

} // namespace RankScope
