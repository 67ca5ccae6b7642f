// SPDX-License-Identifier: MIT
#include "comparisonphases.h"

#include "alikeranks.h"

#include <algorithm>

namespace RankScope {

namespace {

// Expandable segments: set in the allocator settings, or visible in segments and their map/unmap events.
bool usesExpandableSegments(const Snapshot& s)
{
    for (const auto& [key, value] : s.allocatorSettings) {
        if (s.strings.view(key) == "expandable_segments")
            return s.strings.view(value) == "True" || s.strings.view(value) == "true" || s.strings.view(value) == "1";
    }
    if (std::any_of(s.segments.begin(), s.segments.end(), [](const Segment& seg) { return seg.isExpandable; }))
        return true;
    for (const TraceEntries& trace : s.deviceTraces) {
        for (const TraceEntry& e : trace) {
            if (e.action() == TraceAction::SegmentMap)
                return true;
        }
    }
    return false;
}

// How close `h`'s last OOM came to fitting, from the allocator's state there: what lay unused in the reserve is what
// the rank table and the block maps show at that point (reserved but unallocated, the largest free block).
Verdict::Margin marginAt(const DeviceHistory& h, int rank, const AllocatorState& state)
{
    const OomMarker& oom = h.ooms().back();
    const DeviceStats stats = state.stats();
    Verdict::Margin m;
    m.rank = rank;
    m.requestedBytes = oom.requestedBytes;
    m.heldBytes = h.totalAfter(oom.event);
    m.reservedBytes = h.reservedAfter(oom.event);
    m.deviceFreeBytes = oom.deviceFreeBytes;
    m.neededBytes = m.heldBytes + m.requestedBytes;
    m.offeredBytes = m.reservedBytes + m.deviceFreeBytes;
    m.shortBytes = m.requestedBytes - m.deviceFreeBytes;
    m.strandedBytes = stats.inactive;
    m.largestGapBytes = stats.largestFree;
    m.strandedSegments = int(stats.segmentsWithFree);
    m.expandableSegments = usesExpandableSegments(h.snapshot());
    // The request failed though the device had it free: PyTorch's own limit (a memory fraction) refused it.
    m.outcome = m.shortBytes <= 0         ? Verdict::Margin::NotReached
        : m.strandedBytes >= m.shortBytes ? Verdict::Margin::NotInOnePiece
                                          : Verdict::Margin::ShortOfBytes;
    return m;
}

} // namespace

OomEvidence OutOfMemoryFacts::oomEvidence()
{
    // Ranks that ran out of memory. The one examined is the one that did most often (the first of them); every rank
    // that did is named.
    OomEvidence e;
    for (size_t r = 0; r < m_rankCount; ++r) {
        if (m_c.m_ranks[r].oomEvents > 0)
            e.rankIndices.push_back(r);
    }
    if (e.rankIndices.empty())
        return e;
    // Ranks whose failed requests differ are not said alike: the group that stands out (the fewest ranks, then the
    // largest request) is the one examined, the others named with their own requests.
    const std::vector<RankSummary>& ranks = m_c.m_ranks;
    const double percent = m_c.m_options.thresholdPercent;
    std::vector<AlikeRanks::Group> groups = AlikeRanks::grouped(e.rankIndices,
        [&](size_t first, size_t r) { return AlikeRanks::alikeRequests(ranks[first], ranks[r], percent); });
    std::stable_sort(groups.begin(), groups.end(), [&](const AlikeRanks::Group& a, const AlikeRanks::Group& b) {
        if (a.members.size() != b.members.size())
            return a.members.size() < b.members.size();
        return ranks[a.first()].oomRequestedBytes > ranks[b.first()].oomRequestedBytes;
    });
    for (const AlikeRanks::Group& g : groups)
        e.requestGroups.push_back(g.members);
    const std::vector<size_t>& examined = e.requestGroups.front();
    e.examined = examined.front();
    for (size_t r : examined) {
        if (ranks[r].oomEvents > ranks[e.examined].oomEvents)
            e.examined = r;
    }
    const DeviceHistory& h = *m_c.m_histories[e.examined];
    e.oom = h.ooms().back();
    // Before an OOM the allocator releases its entirely free segments and retries; what is still free is split
    // between live blocks.
    const AllocatorState state = h.stateAt(EventIndex(e.oom.event));
    e.free = state.freeInUsedSegments();
    e.margin = marginAt(h, m_c.m_ranks[e.examined].rank, state);
    // Replicas that do the same work and did not run out of memory: where they went on past the allocation that
    // failed here (at its site, as large, after the same moment of their traces), the same work fit there, so
    // something else holds this GPU. A replica whose trace ends before it never asked: it tells nothing. (Ranks of
    // other stages or shards run other work and tell nothing of this either.)
    for (const std::vector<size_t>& members : m_groupMembers) {
        if (std::find(members.begin(), members.end(), e.examined) == members.end())
            continue;
        for (size_t r : members) {
            if (m_c.m_ranks[r].oomEvents > 0)
                continue;
            (passedRequest(e.examined, e.oom, r) ? e.fittingRanks : e.unreachedRanks).push_back(m_c.m_ranks[r].rank);
        }
    }
    std::sort(e.fittingRanks.begin(), e.fittingRanks.end());
    std::sort(e.unreachedRanks.begin(), e.unreachedRanks.end());

    // The device's total, when given, shows what is neither PyTorch's reserve nor free.
    if (const int64_t total = m_c.m_options.deviceMemoryBytes; total > 0) {
        e.deviceMemoryBytes = total;
        e.outsideBytes = std::max<int64_t>(0, total - h.reservedAfter(e.oom.event) - e.oom.deviceFreeBytes);
    }
    return e;
}

Verdict::Margin Verdict::Margin::of(const DeviceHistory& history, int rank)
{
    if (history.ooms().empty())
        return {};
    return marginAt(history, rank, history.stateAt(EventIndex(history.ooms().back().event)));
}

void OutOfMemoryFacts::applyOutOfMemory(Verdict::Kind kind, const OomEvidence& e)
{
    Verdict& v = m_c.m_verdict;
    const RankSummary& s = m_c.m_ranks[e.examined];
    const DeviceHistory& h = *m_c.m_histories[e.examined];
    const OomMarker& oom = e.oom;
    for (size_t r : e.rankIndices)
        v.oomRanks.push_back(m_c.m_ranks[r].rank);
    std::sort(v.oomRanks.begin(), v.oomRanks.end());
    v.figuresRank = s.rank;
    if (e.requestGroups.size() > 1) {
        for (const std::vector<size_t>& g : e.requestGroups) {
            Verdict::OomGroup group;
            for (size_t r : g)
                group.ranks.push_back(m_c.m_ranks[r].rank);
            std::sort(group.ranks.begin(), group.ranks.end());
            const RankSummary& first = m_c.m_ranks[&g == &e.requestGroups.front() ? e.examined : g.front()];
            group.figuresRank = first.rank;
            group.requestedBytes = first.oomRequestedBytes;
            group.deviceFreeBytes = first.oomDeviceFreeBytes;
            v.oomGroups.push_back(std::move(group));
        }
    }
    // Several alike: none of them is the one to blame.
    v.rank = e.rankIndices.size() == 1 ? s.rank : -1;
    v.excessBytes = s.excessBytes;
    v.oomRequestedBytes = oom.requestedBytes;
    v.oomReservedBytes = h.reservedAfter(oom.event);
    v.oomDeviceFreeBytes = oom.deviceFreeBytes;
    v.oomSite = requestLabel(m_c.m_sites, s.oomSite);
    v.deviceSeenBytes = std::max(v.oomReservedBytes + v.oomDeviceFreeBytes, h.peakReservedBytes());
    v.deviceMemoryBytes = e.deviceMemoryBytes;
    v.outsideBytes = e.outsideBytes;
    // "On cuda:N" only where the ranks it is about share that number: where each has a GPU of its own, the rank
    // table names each one's.
    const bool shared = std::all_of(
        e.rankIndices.begin(), e.rankIndices.end(), [&](size_t r) { return m_c.m_ranks[r].device == s.device; });
    v.device = m_c.namesDevices() && shared ? s.device : -1;
    v.margin = e.margin;
    findSuspects(e.examined);
    v.freeInReserveBytes = e.free.bytes;
    v.largestFreeBytes = e.free.largest;
    v.fragmentedSegments = int(e.free.segments.size());
    v.kind = kind;
    if (kind == Verdict::Fragmentation) {
        v.expandableSegments = e.margin.expandableSegments;
        return;
    }
    v.fittingRanks = e.fittingRanks;
    v.unreachedRanks = e.unreachedRanks;
    if (kind == Verdict::OutsideAllocator) {
        v.evidence = v.fittingRanks.empty() ? Verdict::DeviceTotal : Verdict::ReplicasFit;
        return;
    }
    decideOverCapacity(e.examined, oom, e.free);
}

bool OutOfMemoryFacts::passedRequest(size_t oomRank, const OomMarker& oom, size_t r)
{
    // Digests keep too little of a trace to place a moment in it: they cannot show it.
    if (!alignable())
        return false;
    const std::optional<EventIndex> there = alignment().align(oomRank, EventIndex(oom.event), r);
    if (!there)
        return false;
    const SiteId site = m_c.m_stackSites[oomRank][oom.stack];
    const StackSites& sites = m_c.m_stackSites[r];
    const TraceView events = m_c.m_histories[r]->events();
    for (size_t e = size_t(*there) + 1; e < events.size(); ++e) {
        const TraceEntry t = events[e];
        if (t.action() == TraceAction::Alloc && sites[t.stack] == site
            && !beyondThreshold(oom.requestedBytes - t.size, t.size, m_c.m_options.thresholdPercent))
            return true;
    }
    return false;
}

void OutOfMemoryFacts::decideOverCapacity(size_t examined, const OomMarker& oom, const FreeSpace& free)
{
    // Nothing shows memory elsewhere and no rank stands out: the job does not fit. What fills the GPU at the OOM,
    // and what would bring the peak down, in the order of the memory each addresses.
    Verdict& v = m_c.m_verdict;
    const RankSummary& s = m_c.m_ranks[examined];
    RankHoldings holdings = m_c.holdingsOf(examined, EventIndex(oom.event));
    const Composition& c = holdings.composition;
    v.heldBytes = c.totalBytes;
    v.heldByCategory = c.categoryBytes;
    v.neededBytes = c.totalBytes + oom.requestedBytes;
    v.topSites.clear();
    for (size_t i = 0; i < c.sites.size() && i < 3; ++i)
        v.topSites.push_back({ m_c.m_sites.label(c.sites[i].site), c.sites[i].bytes, int(Finding::OnlyOnRank) });
    const auto whatIf = [&](WhatIf::Candidate candidate) -> const WhatIf::Result* {
        for (const WhatIf::Result& r : holdings.whatIf) {
            if (r.without == candidate)
                return &r;
        }
        return nullptr;
    };
    const int64_t held = std::max<int64_t>(c.totalBytes, 1);
    if (Categories::isLoss(*m_inputs[examined].snapshot, oom.stack)) {
        // What it addresses: the request and what its site holds at the OOM.
        int64_t bytes = oom.requestedBytes;
        for (const Holding& site : c.sites)
            bytes += site.site == s.oomSite ? site.bytes : 0;
        const WhatIf::Result* r = whatIf({ WhatIf::Candidate::Site, s.oomSite, Category::Other });
        v.remedies.push_back(
            { Verdict::Remedy::ChunkedLoss, bytes, r ? r->peakBytes : 0, r ? r->savedBytes : 0, v.oomSite });
    }
    const int64_t activations = c.categoryBytes[size_t(Category::Activation)];
    const int64_t modelState = modelStateBytes(c.categoryBytes);
    // A fifth of the GPU or more is worth its remedy; the largest of the two stands for the rest otherwise.
    if (activations * 5 >= held || (activations >= modelState && activations > 0 && v.remedies.empty())) {
        const WhatIf::Result* r = whatIf({ WhatIf::Candidate::CategoryOf, 0, Category::Activation });
        v.remedies.push_back(
            { Verdict::Remedy::ActivationCheckpointing, activations, r ? r->peakBytes : 0, r ? r->savedBytes : 0, {} });
    }
    if (modelState * 5 >= held || (modelState > activations && v.remedies.empty()))
        v.remedies.push_back({ Verdict::Remedy::ShardModelState, modelState, 0, 0, {} });
    // One stage (or shard) of a layout ran out of memory, the one holding the most: the split is what to change.
    if (!v.heavierGroup.empty()) {
        const std::vector<int>& heavier = m_c.m_groups[size_t(m_c.m_ranks[examined].group)].ranks;
        if (m_c.m_groups[size_t(m_c.m_ranks[examined].group)].name == v.heavierGroup
            && std::all_of(v.oomRanks.begin(), v.oomRanks.end(),
                [&](int r) { return std::find(heavier.begin(), heavier.end(), r) != heavier.end(); }))
            v.remedies.push_back({ Verdict::Remedy::RebalanceStages, v.groupExcessBytes, 0, 0, v.heavierGroup });
    }
    // The request missed by less than lay unused in the reserve: expandable segments let the allocator map what it
    // lacks next to what it has, the cheapest change, so it comes first. Otherwise free space between live blocks
    // worth a twentieth of the reserve, or half the request, is worth defragmenting.
    const Verdict::Margin& m = v.margin;
    const bool expandable = m.outcome == Verdict::Margin::NotInOnePiece && !m.expandableSegments;
    if (!expandable && free.bytes > 0
        && (free.bytes * 20 >= v.oomReservedBytes || free.bytes * 2 >= oom.requestedBytes))
        v.remedies.push_back({ Verdict::Remedy::Defragment, free.bytes, 0, 0, {} });
    std::stable_sort(v.remedies.begin(), v.remedies.end(),
        [](const Verdict::Remedy& a, const Verdict::Remedy& b) { return a.bytes > b.bytes; });
    if (expandable)
        v.remedies.insert(v.remedies.begin(), { Verdict::Remedy::ExpandableSegments, m.strandedBytes, 0, 0, {} });
    // The device had the request free: what refused it is the process's own limit, the first thing to change.
    if (m.outcome == Verdict::Margin::NotReached)
        v.remedies.insert(v.remedies.begin(), { Verdict::Remedy::RaiseLimit, m.deviceFreeBytes, 0, 0, {} });
    // Each against the shortfall, where the files say what it saves: the stranded bytes for the allocator's
    // settings, the peak without them for what the trace can leave out.
    for (Verdict::Remedy& r : v.remedies) {
        const bool reuses = r.kind == Verdict::Remedy::ExpandableSegments || r.kind == Verdict::Remedy::Defragment;
        const int64_t brings = reuses ? r.bytes : r.peakWithoutBytes > 0 ? r.savedBytes : -1;
        if (brings < 0 || m.shortBytes <= 0)
            continue;
        r.closesGap = brings >= m.shortBytes ? 1 : 0;
        r.spareBytes = brings - m.shortBytes;
    }
    m_c.m_holdings = std::move(holdings);
}

void OutOfMemoryFacts::findSuspects(size_t oomRank)
{
    // Memory the rank's own file cannot account for, with the evidence the other files give. NCCL's buffers and other
    // processes never appear in a snapshot, so the remedy names them without a figure.
    Verdict& v = m_c.m_verdict;
    const RankSummary& victim = m_c.m_ranks[oomRank];
    Verdict::Suspect foreign { Verdict::Suspect::ForeignDevice, 0, {} };
    for (const Finding& f : m_c.m_findings) {
        if (f.kind != Finding::ForeignDevice || f.device != victim.device || f.rank == victim.rank)
            continue;
        foreign.bytes += f.excessBytes;
        if (std::find(foreign.ranks.begin(), foreign.ranks.end(), f.rank) == foreign.ranks.end())
            foreign.ranks.push_back(f.rank);
    }
    std::sort(foreign.ranks.begin(), foreign.ranks.end());
    if (foreign.bytes > 0)
        v.suspects.push_back(std::move(foreign));
    Verdict::Suspect pools { Verdict::Suspect::PrivatePools, 0, {} };
    for (const Segment& seg : m_inputs[oomRank].snapshot->segments) {
        if (seg.device == victim.device && (seg.poolId[0] != 0 || seg.poolId[1] != 0))
            pools.bytes += seg.totalSize;
    }
    if (pools.bytes > 0)
        v.suspects.push_back(pools);
}

} // namespace RankScope
