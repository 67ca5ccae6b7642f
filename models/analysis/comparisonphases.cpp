// SPDX-License-Identifier: MIT
#include "comparisonphases.h"

namespace RankScope {

int64_t medianWithout(const std::vector<int64_t>& sorted, int64_t own)
{
    const size_t n = sorted.size() - 1;
    if (n == 0)
        return 0;
    const size_t skip = size_t(std::lower_bound(sorted.begin(), sorted.end(), own) - sorted.begin());
    auto at = [&](size_t i) { return sorted[i < skip ? i : i + 1]; };
    if (n % 2)
        return at(n / 2);
    const int64_t lo = at(n / 2 - 1);
    const int64_t hi = at(n / 2);
    return lo + (hi - lo) / 2;
}

CategoryBytes groupExcessByCategory(const std::vector<GroupSummary>& groups, size_t heavy)
{
    CategoryBytes out {};
    for (size_t c = 0; c < size_t(CategoryCount); ++c)
        out[c] = groups[heavy].categoryBytes[c]
            - othersMedian(groups, heavy, [c](const GroupSummary& g) { return g.categoryBytes[c]; });
    return out;
}

// A failed request's site as texts name it: nothing when its stack was not recorded.
std::string requestLabel(const SiteTable& sites, SiteId site)
{
    return site == NoSite || sites.frames(site).empty() ? std::string() : sites.label(site);
}

bool aboutOutOfMemory(Verdict::Kind kind)
{
    return kind == Verdict::OverCapacity || kind == Verdict::OutsideAllocator || kind == Verdict::Fragmentation;
}

bool PhaseState::alignable() const
{
    const std::vector<DeviceHistoryPtr>& histories = m_c.m_histories;
    return m_rankCount > 1 && std::all_of(histories.begin(), histories.end(), [](const DeviceHistoryPtr& h) {
        return h->eventCount() > 0 && !h->snapshot().digest;
    });
}

const TraceAlignment& PhaseState::alignment()
{
    if (!m_alignment)
        m_alignment = m_previous && m_previous->m_alignment
            ? m_previous->m_alignment
            : std::make_shared<const TraceAlignment>(m_c.m_histories, m_c.m_options.site);
    return *m_alignment;
}

size_t PhaseState::highestPeak(const std::vector<size_t>& members) const
{
    size_t top = members.front();
    for (size_t r : members) {
        if (m_c.m_histories[r]->peakBytes() > m_c.m_histories[top]->peakBytes())
            top = r;
    }
    return top;
}

int PhaseState::baselineIndex() const
{
    for (size_t r = 0; r < m_rankCount; ++r) {
        if (m_inputs[r].rank == m_c.m_options.baselineRank)
            return int(r);
    }
    return -1;
}

} // namespace RankScope
