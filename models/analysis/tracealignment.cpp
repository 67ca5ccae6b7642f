// SPDX-License-Identifier: MIT
#include "tracealignment.h"

#include <algorithm>

namespace RankScope {

namespace {

// How many allocations before a place are compared to accept it, and how many of them must agree.
constexpr size_t contextAllocations = 64;
constexpr double contextAgreement = 0.5;
// How many allocations back from a moment are tried before giving up on a trace.
constexpr size_t maxTries = 4096;

} // namespace

TraceAlignment::TraceAlignment(const std::vector<DeviceHistoryPtr>& histories, const SiteOptions& options)
    : m_histories(histories)
{
    // A table of its own: the comparison's site ids (and with them the order of equal findings) stay as they are.
    SiteTable sites(options);
    for (const DeviceHistoryPtr& h : histories) {
        std::vector<SiteId>& stackSites = m_stackSites.emplace_back(h->snapshot().stacks.size(), NoSite);
        auto& positions = m_positions.emplace_back();
        const std::span<const TraceEntry> events = h->events();
        for (size_t i = 0; i < events.size(); ++i) {
            const TraceEntry& e = events[i];
            if (e.action() != TraceAction::Alloc)
                continue;
            if (stackSites[e.stack] == NoSite)
                stackSites[e.stack] = sites.site(h->snapshot(), e.stack);
            positions[stackSites[e.stack]].push_back(uint32_t(i));
        }
    }
}

SiteId TraceAlignment::siteOf(size_t rank, const TraceEntry& e) const
{
    return e.action() == TraceAction::Alloc ? m_stackSites[rank][e.stack] : NoSite;
}

std::vector<SiteId> TraceAlignment::sitesBefore(size_t rank, EventIndex event, size_t count) const
{
    const std::span<const TraceEntry> events = m_histories[rank]->events();
    std::vector<SiteId> result;
    for (EventIndex i = event - 1; i >= 0 && result.size() < count; --i) {
        if (const SiteId s = siteOf(rank, events[size_t(i)]); s != NoSite)
            result.push_back(s);
    }
    std::sort(result.begin(), result.end());
    return result;
}

std::optional<EventIndex> TraceAlignment::sameAllocation(size_t from, EventIndex q, size_t to) const
{
    const SiteId site = siteOf(from, m_histories[from]->events()[size_t(q)]);
    const auto other = m_positions[to].find(site);
    if (other == m_positions[to].end())
        return std::nullopt;
    // As many of the site's allocations after it in both traces.
    const std::vector<uint32_t>& mine = m_positions[from].at(site);
    const size_t after = size_t(mine.end() - std::upper_bound(mine.begin(), mine.end(), uint32_t(q)));
    if (after >= other->second.size())
        return std::nullopt;
    const EventIndex match = other->second[other->second.size() - 1 - after];
    // The allocations just before must be mostly the same ones.
    const std::vector<SiteId> before = sitesBefore(from, q, contextAllocations);
    const std::vector<SiteId> theirs = sitesBefore(to, match, contextAllocations);
    std::vector<SiteId> common;
    std::set_intersection(before.begin(), before.end(), theirs.begin(), theirs.end(), std::back_inserter(common));
    if (double(common.size()) < contextAgreement * double(std::max(before.size(), theirs.size())))
        return std::nullopt;
    return match;
}

std::optional<EventIndex> TraceAlignment::align(size_t from, EventIndex event, size_t to) const
{
    const auto placed = place(from, event, to);
    return placed ? std::optional<EventIndex>(placed->second) : std::nullopt;
}

std::vector<std::pair<EventIndex, EventIndex>> TraceAlignment::anchors(size_t from, size_t to, size_t count) const
{
    std::vector<std::pair<EventIndex, EventIndex>> result;
    const EventIndex n = EventIndex(m_histories[from]->eventCount());
    for (size_t k = 1; k <= count && n > 0; ++k) {
        const auto placed = place(from, EventIndex((n - 1) * int64_t(k) / int64_t(count)), to);
        // Only moments that keep both orders: an allocation found out of order would fold the axis back.
        if (placed
            && (result.empty() || (placed->first > result.back().first && placed->second > result.back().second)))
            result.push_back(*placed);
    }
    return result;
}

std::optional<std::pair<EventIndex, EventIndex>> TraceAlignment::place(size_t from, EventIndex event, size_t to) const
{
    const std::span<const TraceEntry> a = m_histories[from]->events();
    if (event < 0 || a.empty() || m_histories[to]->events().empty())
        return std::nullopt;
    // The latest allocation at or before the moment that the other trace has too: extra work on this rank is
    // skipped, so a peak it reaches lands where that work began in the other trace.
    size_t tried = 0;
    for (EventIndex q = event; q >= 0 && tried < maxTries; --q) {
        if (siteOf(from, a[size_t(q)]) == NoSite)
            continue;
        ++tried;
        if (const std::optional<EventIndex> match = sameAllocation(from, q, to))
            return std::pair { q, *match };
    }
    return std::nullopt;
}

} // namespace RankScope
