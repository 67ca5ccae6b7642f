// SPDX-License-Identifier: MIT
#include "composition.h"

#include "parallel.h"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>

namespace RankScope {

namespace {

// Positions per block of the maxima: a range query scans at most two partial blocks and the maxima between them.
constexpr size_t PositionsPerBlock = 1024;

SiteId siteOf(const StackSites& sites, StackId stack)
{
    return stack < sites.size() ? sites[stack] : NoSite;
}

Category largest(const CategoryBytes& bytes)
{
    return Category(std::max_element(bytes.begin(), bytes.end()) - bytes.begin());
}

} // namespace

Composition Composition::at(
    const DeviceHistory& h, const std::vector<Category>& categories, const StackSites& sites, EventIndex event)
{
    Composition c;
    c.event = event;
    struct Site
    {
        int64_t bytes = 0;
        int64_t count = 0;
        CategoryBytes categories {};
    };
    std::unordered_map<SiteId, Site> bySite;
    const std::span<const Allocation> allocations = h.allocations();
    for (uint32_t i : h.liveSet(event)) {
        const Allocation& a = allocations[i];
        const auto category = size_t(categories[i]);
        c.totalBytes += a.size;
        c.categoryBytes[category] += a.size;
        Site& s = bySite[siteOf(sites, a.stack)];
        s.bytes += a.size;
        ++s.count;
        s.categories[category] += a.size;
    }
    c.sites.reserve(bySite.size());
    for (const auto& [site, s] : bySite)
        c.sites.push_back({ site, s.bytes, s.count, largest(s.categories) });
    std::sort(c.sites.begin(), c.sites.end(),
        [](const Holding& a, const Holding& b) { return a.bytes != b.bytes ? a.bytes > b.bytes : a.site < b.site; });
    return c;
}

WhatIf::WhatIf(const DeviceHistory& h, const std::vector<Category>& categories, const StackSites& sites)
    : m_history(h)
    , m_categories(categories)
    , m_sites(sites)
    , m_net(h.netAfter())
{
    const size_t positions = m_net.size() + 1;
    m_blockMax.assign((positions + PositionsPerBlock - 1) / PositionsPerBlock, 0);
    for (size_t b = 0; b < m_blockMax.size(); ++b) {
        const size_t from = b * PositionsPerBlock;
        const size_t to = std::min(positions, from + PositionsPerBlock);
        int64_t best = from == 0 ? 0 : m_net[from - 1];
        for (size_t p = std::max<size_t>(from, 1); p < to; ++p)
            best = std::max(best, m_net[p - 1]);
        m_blockMax[b] = best;
    }
    // A failed request is counted where its site's allocations are.
    std::unordered_map<SiteId, CategoryBytes> siteCategories;
    for (const OomMarker& oom : h.ooms())
        siteCategories.emplace(siteOf(sites, oom.stack), CategoryBytes {});
    const std::span<const Allocation> allocations = h.allocations();
    if (!siteCategories.empty()) {
        for (size_t i = 0; i < allocations.size(); ++i) {
            auto it = siteCategories.find(siteOf(sites, allocations[i].stack));
            if (it != siteCategories.end())
                it->second[size_t(categories[i])] += allocations[i].size;
        }
    }
    for (const OomMarker& oom : h.ooms()) {
        const CategoryBytes& bytes = siteCategories[siteOf(sites, oom.stack)];
        m_requestCategories.push_back(std::all_of(bytes.begin(), bytes.end(), [](int64_t b) { return b == 0; })
                ? Category::Other
                : largest(bytes));
    }
    m_peak = peakWithout({}, std::vector<uint8_t>(h.ooms().size(), 0));
}

int64_t WhatIf::maxNet(size_t from, size_t to) const
{
    const auto scan = [this](size_t a, size_t b, int64_t best) {
        if (a == 0) {
            best = std::max<int64_t>(best, 0);
            a = 1;
        }
        for (size_t p = a; p < b; ++p)
            best = std::max(best, m_net[p - 1]);
        return best;
    };
    int64_t best = std::numeric_limits<int64_t>::min();
    // Short ranges directly; a long one costs its two partial blocks and one maximum per block between them, never
    // more than a direct scan of it would.
    if (to - from <= 4 * PositionsPerBlock)
        return scan(from, to, best);
    const size_t firstFull = (from + PositionsPerBlock - 1) / PositionsPerBlock;
    const size_t lastFull = to / PositionsPerBlock;
    best = scan(from, firstFull * PositionsPerBlock, best);
    for (size_t b = firstFull; b < lastFull; ++b)
        best = std::max(best, m_blockMax[b]);
    return scan(lastFull * PositionsPerBlock, to, best);
}

int64_t WhatIf::peakWithout(std::span<const uint32_t> dropped, const std::vector<uint8_t>& droppedRequests) const
{
    const std::span<const Allocation> allocations = m_history.allocations();
    const size_t positions = m_net.size() + 1;
    // What the dropped allocations hold changes where one is allocated (the position after its alloc event) or
    // freed; between two changes the curve without them is the curve less a constant.
    std::vector<std::pair<size_t, int64_t>> changes;
    changes.reserve(dropped.size() * 2);
    for (uint32_t i : dropped) {
        const Allocation& a = allocations[i];
        changes.push_back({ a.allocEvent == Allocation::NoEvent ? 0 : size_t(a.allocEvent) + 1, a.size });
        if (a.freeEvent != Allocation::NoEvent)
            changes.push_back({ size_t(a.freeEvent) + 1, -a.size });
    }
    std::sort(changes.begin(), changes.end());
    int64_t best = std::numeric_limits<int64_t>::min();
    int64_t held = 0;
    size_t position = 0;
    for (size_t k = 0; k < changes.size();) {
        const size_t at = changes[k].first;
        if (at > position) {
            best = std::max(best, maxNet(position, at) - held);
            position = at;
        }
        for (; k < changes.size() && changes[k].first == at; ++k)
            held += changes[k].second;
    }
    if (position < positions)
        best = std::max(best, maxNet(position, positions) - held);
    // Each failed request on top of what was live at its OOM, unless it goes too.
    const std::vector<OomMarker>& ooms = m_history.ooms();
    for (size_t k = 0; k < ooms.size(); ++k) {
        if (droppedRequests[k])
            continue;
        const EventIndex event = ooms[k].event;
        int64_t live = 0;
        for (uint32_t i : dropped)
            live += allocations[i].liveAfter(event) ? allocations[i].size : 0;
        best = std::max(best, m_net[size_t(event)] - live + ooms[k].requestedBytes);
    }
    return m_history.initialTotal() + best;
}

std::vector<WhatIf::Result> WhatIf::without(std::span<const Candidate> candidates) const
{
    // Every candidate's allocations in one pass over the history.
    std::vector<std::vector<uint32_t>> dropped(candidates.size());
    std::unordered_map<SiteId, std::vector<size_t>> bySite;
    std::array<std::vector<size_t>, CategoryCount> byCategory;
    for (size_t c = 0; c < candidates.size(); ++c) {
        if (candidates[c].kind == Candidate::Site)
            bySite[candidates[c].site].push_back(c);
        else
            byCategory[size_t(candidates[c].category)].push_back(c);
    }
    const std::span<const Allocation> allocations = m_history.allocations();
    for (size_t i = 0; i < allocations.size(); ++i) {
        if (!bySite.empty()) {
            auto it = bySite.find(siteOf(m_sites, allocations[i].stack));
            if (it != bySite.end()) {
                for (size_t c : it->second)
                    dropped[c].push_back(uint32_t(i));
            }
        }
        for (size_t c : byCategory[size_t(m_categories[i])])
            dropped[c].push_back(uint32_t(i));
    }
    const std::vector<OomMarker>& ooms = m_history.ooms();
    const QList<Result> results = Parallel::mapIndices(qsizetype(candidates.size()), [&](qsizetype index) {
        const Candidate& c = candidates[size_t(index)];
        std::vector<uint8_t> requests(ooms.size(), 0);
        for (size_t k = 0; k < ooms.size(); ++k) {
            requests[k] = c.kind == Candidate::Site ? siteOf(m_sites, ooms[k].stack) == c.site
                                                    : m_requestCategories[k] == c.category;
        }
        const int64_t peak = peakWithout(dropped[size_t(index)], requests);
        return Result { c, peak, m_peak - peak, std::find(requests.begin(), requests.end(), 1) != requests.end() };
    });
    return { results.begin(), results.end() };
}

} // namespace RankScope
