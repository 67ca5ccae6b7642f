// SPDX-License-Identifier: MIT
#include "comparisonphases.h"

#include "parallel.h"

#include <algorithm>
#include <iterator>

namespace RankScope {

namespace {

// Allocations round up to 512 bytes in the caching allocator, so blocks made for adjacent requests touch there.
int64_t rounded(int64_t size)
{
    return (size + 511) / 512 * 512;
}

} // namespace

void ExcessSearch::findGrowth()
{
    // Sites that hold more at every step than at the one before. Activations and temporaries change with every
    // batch, so there they count only when the number of allocations grows too, as a kept list of tensors does.
    std::vector<Finding> growth;
    for (size_t r = 0; r < m_rankCount; ++r) {
        const std::vector<EarlierState>& earlier = m_earlier[r];
        if (earlier.empty())
            continue;
        std::vector<std::pair<int64_t, int64_t>> series(earlier.size() + 1);
        for (SiteId s = 0; s < m_c.m_sites.size(); ++s) {
            const int64_t bytes = m_c.m_siteBytes[s * m_rankCount + r];
            const int64_t count = m_c.m_siteCount[s * m_rankCount + r];
            if (bytes == 0)
                continue;
            for (size_t k = 0; k < earlier.size(); ++k) {
                const auto it = earlier[k].sites.find(s);
                series[k] = it == earlier[k].sites.end() ? std::pair<int64_t, int64_t>(0, 0) : it->second;
            }
            series.back() = { bytes, count };
            bool bytesGrow = true, countGrows = true;
            for (size_t k = 1; k < series.size(); ++k) {
                bytesGrow = bytesGrow && series[k].first > series[k - 1].first;
                countGrows = countGrows && series[k].second > series[k - 1].second;
            }
            // Something held at the first step already, more at each: kept and added to. What appears only at
            // the latest step is that step's work (a burden), not growth.
            if (!bytesGrow || series.front().first == 0)
                continue;
            Finding f;
            f.rank = m_inputs[r].rank;
            f.device = m_devices[r];
            f.kind = Finding::Growth;
            f.site = s;
            f.rankBytes = bytes;
            f.rankCount = count;
            f.baselineBytes = series[series.size() - 2].first;
            f.baselineCount = series[series.size() - 2].second;
            f.excessBytes = bytes - f.baselineBytes;
            placeBlocks(f, r, chosenBlocks(f, r));
            if (!countGrows && (f.category == Category::Activation || f.category == Category::Temporary))
                continue;
            growth.push_back(std::move(f));
        }
    }
    for (Finding& f : growth) {
        f.ranksWithSite =
            int(std::count_if(growth.begin(), growth.end(), [&](const Finding& g) { return g.site == f.site; }));
        m_c.m_findings.push_back(std::move(f));
    }
    std::stable_sort(m_c.m_findings.begin(), m_c.m_findings.end(),
        [](const Finding& a, const Finding& b) { return a.excessBytes > b.excessBytes; });
}

void ExcessSearch::totalSites()
{
    const size_t sites = m_c.m_sites.size();
    m_c.m_siteBytes.assign(sites * m_rankCount, 0);
    m_c.m_siteCount.assign(sites * m_rankCount, 0);
    m_siteModelBytes.assign(sites * m_rankCount, 0);
    // A rank's cells are its own, so the ranks are totalled on every core.
    Parallel::forIndices(qsizetype(m_rankCount), [this](qsizetype rank) {
        const size_t r = size_t(rank);
        const std::span<const Allocation> allocations = m_c.m_histories[r]->allocations();
        for (const Live& l : m_live[r]) {
            m_c.m_siteBytes[l.site * m_rankCount + r] += allocations[l.allocation].size;
            ++m_c.m_siteCount[l.site * m_rankCount + r];
            if (isModelState((*m_c.m_categories[r])[l.allocation]))
                m_siteModelBytes[l.site * m_rankCount + r] += allocations[l.allocation].size;
        }
    });
}

void ExcessSearch::findExcess()
{
    // Per site, each rank against the median of its replicas (every other rank without a layout), or the baseline
    // rank. A rank without replicas has nothing to be compared with.
    std::vector<int64_t> sortedBytes;
    std::vector<int64_t> sortedCount;
    for (SiteId s = 0; s < m_c.m_sites.size(); ++s) {
        const int64_t* b = &m_c.m_siteBytes[s * m_rankCount];
        const int64_t* n = &m_c.m_siteCount[s * m_rankCount];
        if (std::all_of(b, b + m_rankCount, [&](int64_t v) { return v == b[0]; })
            && std::all_of(n, n + m_rankCount, [&](int64_t v) { return v == n[0]; }))
            continue; // every rank the same: nothing to report
        for (const std::vector<size_t>& members : m_groupMembers) {
            if (members.size() < 2 && m_baselineIndex < 0)
                continue;
            sortedBytes.clear();
            sortedCount.clear();
            for (size_t r : members) {
                sortedBytes.push_back(b[r]);
                sortedCount.push_back(n[r]);
            }
            std::sort(sortedBytes.begin(), sortedBytes.end());
            std::sort(sortedCount.begin(), sortedCount.end());
            const int withSite = int(std::count_if(members.begin(), members.end(), [&](size_t r) { return n[r] > 0; }));
            for (size_t r : members)
                findExcessAt(s, r, b, n, sortedBytes, sortedCount, withSite);
        }
    }
    std::sort(m_foreign.begin(), m_foreign.end(),
        [](const Finding& a, const Finding& b) { return std::tie(a.rank, a.site) < std::tie(b.rank, b.site); });
    std::move(m_foreign.begin(), m_foreign.end(), std::back_inserter(m_c.m_findings));
    std::stable_sort(m_c.m_findings.begin(), m_c.m_findings.end(),
        [](const Finding& a, const Finding& b) { return a.excessBytes > b.excessBytes; });
}

void ExcessSearch::findExcessAt(SiteId s, size_t r, const int64_t* b, const int64_t* n,
    const std::vector<int64_t>& sortedBytes, const std::vector<int64_t>& sortedCount, int withSite)
{
    if (int(r) == m_baselineIndex)
        return;
    const int64_t baseBytes = m_baselineIndex >= 0 ? b[m_baselineIndex] : medianWithout(sortedBytes, b[r]);
    const int64_t baseCount = m_baselineIndex >= 0 ? n[m_baselineIndex] : medianWithout(sortedCount, n[r]);
    if (b[r] <= baseBytes)
        return;
    Finding f;
    f.rank = m_inputs[r].rank;
    f.device = m_devices[r];
    f.site = s;
    f.rankBytes = b[r];
    f.baselineBytes = baseBytes;
    f.excessBytes = b[r] - baseBytes;
    f.rankCount = n[r];
    f.baselineCount = baseCount;
    f.ranksWithSite = withSite;
    // "Only on this rank" means what it says: with counts 2/1/0/0 the first two ranks share the site.
    f.kind = baseCount == 0 && f.ranksWithSite <= 1 ? Finding::OnlyOnRank
        : n[r] > baseCount                          ? Finding::MoreOnRank
                                                    : Finding::LargerOnRank;
    placeBlocks(f, r, chosenBlocks(f, r));
    m_c.m_findings.push_back(std::move(f));
}

std::vector<uint32_t> ExcessSearch::chosenBlocks(const Finding& f, size_t r) const
{
    auto first = std::lower_bound(
        m_live[r].begin(), m_live[r].end(), f.site, [](const Live& l, SiteId site) { return l.site < site; });
    std::vector<uint32_t> chosen;
    for (auto it = first; it != m_live[r].end() && it->site == f.site; ++it)
        chosen.push_back(it->allocation);
    return chosen;
}

void ExcessSearch::placeBlocks(Finding& f, size_t r, const std::vector<uint32_t>& siteBlocks)
{
    const DeviceHistory& h = *m_c.m_histories[r];
    if (!siteBlocks.empty())
        f.stack = h.allocations()[siteBlocks.front()].stack;
    std::vector<uint32_t> chosen = siteBlocks;
    if ((f.kind == Finding::MoreOnRank || f.kind == Finding::Growth) && f.rankCount > f.baselineCount) {
        std::sort(chosen.begin(), chosen.end()); // allocation order
        chosen.erase(chosen.begin(),
            chosen.end() - std::min<ptrdiff_t>(ptrdiff_t(chosen.size()), ptrdiff_t(f.rankCount - f.baselineCount)));
    }
    CategoryBytes byCategory {};
    for (uint32_t i : siteBlocks)
        byCategory[size_t((*m_c.m_categories[r])[i])] += h.allocations()[i].size;
    f.category = Category(std::max_element(byCategory.begin(), byCategory.end()) - byCategory.begin());
    const std::vector<StateSegment>& segs = m_c.m_states[r]->segments;
    for (uint32_t i : chosen) {
        const Allocation& a = h.allocations()[i];
        auto seg = std::upper_bound(
            segs.begin(), segs.end(), a.addr, [](uint64_t addr, const StateSegment& sg) { return addr < sg.addr; });
        uint64_t segment = 0;
        if (seg != segs.begin() && a.addr < std::prev(seg)->addr + uint64_t(std::prev(seg)->size))
            segment = std::prev(seg)->addr;
        f.blocks.push_back({ a.addr, a.size, segment });
        if (a.poolIndex != 0)
            f.privatePools.push_back(h.pools()[a.poolIndex]);
    }
    std::sort(f.privatePools.begin(), f.privatePools.end());
    f.privatePools.erase(std::unique(f.privatePools.begin(), f.privatePools.end()), f.privatePools.end());
    std::sort(f.blocks.begin(), f.blocks.end(),
        [](const FindingRun& x, const FindingRun& y) { return x.address < y.address; });
    for (const FindingRun& block : f.blocks) {
        if (!f.runs.empty()) {
            FindingRun& last = f.runs.back();
            const bool adjacent = last.segment == block.segment && block.segment != 0
                && last.address + uint64_t(rounded(last.size)) == block.address;
            if (adjacent) {
                last.size = int64_t(block.address - last.address) + block.size;
                continue;
            }
        }
        f.runs.push_back(block);
    }
}

void ExcessSearch::totalRanks()
{
    for (const std::vector<size_t>& members : m_groupMembers) {
        std::vector<int64_t> sortedTotals;
        sortedTotals.reserve(members.size());
        for (size_t r : members)
            sortedTotals.push_back(m_c.m_ranks[r].bytesAtPoint);
        std::sort(sortedTotals.begin(), sortedTotals.end());
        // A rank alone (in its group) has no baseline and no excess.
        if (members.size() < 2 && m_baselineIndex < 0)
            continue;
        for (size_t r : members) {
            const int64_t own = m_c.m_ranks[r].bytesAtPoint;
            const int64_t base = m_baselineIndex >= 0 ? m_c.m_ranks[size_t(m_baselineIndex)].bytesAtPoint
                                                      : medianWithout(sortedTotals, own);
            m_c.m_ranks[r].excessBytes = own - base;
        }
    }
}

void ExcessSearch::mapSites()
{
    // Every stack a rank allocates at or fails to allocate at gets its site, for what is asked of any moment (what
    // fills a GPU, what-if peaks), not only of the point compared. Sites found now come after those of the point, so
    // the findings' sites and their order are what they are without them.
    // Only the site table is shared (sites are numbered in the order they are first asked for): each rank's stacks
    // in the order it first uses them, and what it names, are found on every core.
    const QList<std::vector<StackId>> firstUsed = Parallel::mapIndices(qsizetype(m_rankCount), [this](qsizetype r) {
        const DeviceHistory& h = *m_c.m_histories[size_t(r)];
        std::vector<uint8_t> seen(m_inputs[size_t(r)].snapshot->stacks.size(), 0);
        std::vector<StackId> order;
        const auto use = [&](StackId stack) {
            if (!seen[stack]) {
                seen[stack] = 1;
                order.push_back(stack);
            }
        };
        for (const Allocation& a : h.allocations())
            use(a.stack);
        for (const OomMarker& oom : h.ooms())
            use(oom.stack);
        return order;
    });
    m_c.m_stackSites.resize(m_rankCount);
    for (size_t r = 0; r < m_rankCount; ++r) {
        const Snapshot& snapshot = *m_inputs[r].snapshot;
        StackSites& sites = m_c.m_stackSites[r];
        sites.assign(snapshot.stacks.size(), NoSite);
        for (StackId stack : firstUsed[qsizetype(r)])
            sites[stack] = m_c.m_sites.site(snapshot, stack);
        RankSummary& summary = m_c.m_ranks[r];
        if (summary.oomEvents > 0)
            summary.oomSite = sites[summary.oomStack];
    }
    // Labels are told apart among the sites the comparison speaks of: those live at a rank's point or its last OOM,
    // and the failed requests'. A digest keeps exactly those allocations, so it labels them as its file does.
    const QList<std::vector<SiteId>> namedBy = Parallel::mapIndices(qsizetype(m_rankCount), [this](qsizetype rank) {
        const size_t r = size_t(rank);
        const DeviceHistory& h = *m_c.m_histories[r];
        const StackSites& sites = m_c.m_stackSites[r];
        const EventIndex point = m_c.m_ranks[r].point.event;
        const std::optional<EventIndex> oom =
            h.ooms().empty() ? std::nullopt : std::optional<EventIndex>(h.ooms().back().event);
        std::vector<SiteId> named;
        for (const Allocation& a : h.allocations()) {
            if (a.liveAfter(point) || (oom && a.liveAfter(*oom)))
                named.push_back(sites[a.stack]);
        }
        if (oom)
            named.push_back(sites[h.ooms().back().stack]);
        return named;
    });
    std::vector<bool> named(m_c.m_sites.size(), false);
    for (const std::vector<SiteId>& sites : namedBy) {
        for (SiteId site : sites)
            named[site] = true;
    }
    m_c.m_sites.nameSites(std::move(named));
    const size_t cells = m_c.m_sites.size() * m_rankCount;
    m_c.m_siteBytes.resize(cells, 0);
    m_c.m_siteCount.resize(cells, 0);
    m_siteModelBytes.resize(cells, 0);
}

} // namespace RankScope
