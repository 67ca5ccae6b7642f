// SPDX-License-Identifier: MIT
#include "tracealignment.h"

#include <algorithm>
#include <array>

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
        const TraceView events = h->events();
        for (size_t i = 0; i < events.size(); ++i) {
            const TraceEntry e = events[i];
            if (e.action() != TraceAction::Alloc)
                continue;
            if (stackSites[e.stack] == NoSite)
                stackSites[e.stack] = sites.site(h->snapshot(), e.stack);
            positions[stackSites[e.stack]].push_back(uint32_t(i));
        }
    }
    m_fingerprints.reserve(sites.size());
    for (SiteId s = 0; s < sites.size(); ++s) {
        m_fingerprints.push_back(sites.fingerprint(s));
        m_byFingerprint.emplace(sites.fingerprint(s), s);
    }
}

std::pair<int64_t, EventIndex> TraceAlignment::highestIn(const DeviceHistory& h, EventIndex from, EventIndex to)
{
    std::pair<int64_t, EventIndex> best { h.totalAfter(from), from };
    for (EventIndex e = from + 1; e < to; ++e) {
        if (const int64_t total = h.totalAfter(e); total > best.first)
            best = { total, e };
    }
    return best;
}

std::optional<std::pair<TraceAlignment::Landmark, EventIndex>> TraceAlignment::landmark(
    size_t rank, EventIndex event) const
{
    const TraceView events = m_histories[rank]->events();
    for (EventIndex q = std::min(event, EventIndex(events.size()) - 1); q >= 0; --q) {
        const SiteId site = siteOf(rank, events[size_t(q)]);
        if (site == NoSite)
            continue;
        const std::vector<uint32_t>& mine = m_positions[rank].at(site);
        const size_t before = size_t(std::lower_bound(mine.begin(), mine.end(), uint32_t(q)) - mine.begin());
        return std::pair { Landmark { m_fingerprints[site], uint32_t(mine.size() - before - 1) }, q };
    }
    return std::nullopt;
}

std::optional<EventIndex> TraceAlignment::find(size_t rank, const Landmark& landmark) const
{
    const auto site = m_byFingerprint.find(landmark.site);
    if (site == m_byFingerprint.end())
        return std::nullopt;
    const auto positions = m_positions[rank].find(site->second);
    if (positions == m_positions[rank].end() || landmark.after >= positions->second.size())
        return std::nullopt;
    return EventIndex(positions->second[positions->second.size() - 1 - landmark.after]);
}

SiteId TraceAlignment::siteOf(size_t rank, const TraceEntry& e) const
{
    return e.action() == TraceAction::Alloc ? m_stackSites[rank][e.stack] : NoSite;
}

std::vector<SiteId> TraceAlignment::sitesBefore(size_t rank, EventIndex event, size_t count) const
{
    const TraceView events = m_histories[rank]->events();
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
    // As many of the site's allocations after it in both traces; else, for a trace that ended early (a rank that
    // ran out of memory stops there while the others go on), as many before it.
    const std::vector<uint32_t>& mine = m_positions[from].at(site);
    const std::vector<uint32_t>& theirs = other->second;
    const size_t before = size_t(std::lower_bound(mine.begin(), mine.end(), uint32_t(q)) - mine.begin());
    const size_t after = mine.size() - before - 1;
    const std::vector<SiteId> context = sitesBefore(from, q, contextAllocations);
    // The allocations just before must be mostly the same ones.
    const auto agrees = [&](EventIndex match) {
        const std::vector<SiteId> there = sitesBefore(to, match, contextAllocations);
        std::vector<SiteId> common;
        std::set_intersection(context.begin(), context.end(), there.begin(), there.end(), std::back_inserter(common));
        return double(common.size()) >= contextAgreement * double(std::max(context.size(), there.size()));
    };
    const std::optional<EventIndex> fromEnd =
        after < theirs.size() ? std::optional<EventIndex>(theirs[theirs.size() - 1 - after]) : std::nullopt;
    const std::optional<EventIndex> fromStart =
        before < theirs.size() ? std::optional<EventIndex>(theirs[before]) : std::nullopt;
    // A trace that ran out of memory ended where its rank failed, not where the others dumped theirs: its start is
    // the surer common point.
    const bool endedEarly = !m_histories[from]->ooms().empty() || !m_histories[to]->ooms().empty();
    for (const std::optional<EventIndex>& match :
        endedEarly ? std::array { fromStart, fromEnd } : std::array { fromEnd, fromStart }) {
        if (match && agrees(*match))
            return match;
    }
    return std::nullopt;
}

std::optional<EventIndex> TraceAlignment::align(size_t from, EventIndex event, size_t to) const
{
    const auto placed = place(from, event, to);
    if (!placed)
        return std::nullopt;
    // Where only frees and segment events follow the allocation up to the moment, they follow it in the other trace
    // too, up to its next allocation. (Where this rank allocated more in between, that was its own work, which the
    // other trace does not have.)
    const TraceView mine = m_histories[from]->events();
    for (EventIndex e = placed->first + 1; e <= event; ++e) {
        if (mine[size_t(e)].action() == TraceAction::Alloc)
            return placed->second;
    }
    const TraceView theirs = m_histories[to]->events();
    EventIndex at = placed->second;
    while (at < placed->second + (event - placed->first) && size_t(at) + 1 < theirs.size()
        && theirs[size_t(at) + 1].action() != TraceAction::Alloc)
        ++at;
    return at;
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
    const TraceView a = m_histories[from]->events();
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
