// SPDX-License-Identifier: MIT
#include "comparisonphases.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_set>

namespace RankScope {

GroupsEvidence VerdictDecision::groupsEvidence() const
{
    // Parameters, gradients and optimizer state that differ between stages or shards: the split is uneven. (More
    // activations on one stage are 1F1B's in-flight micro-batches: by design.)
    GroupsEvidence e;
    const std::vector<GroupSummary>& groups = m_c.m_groups;
    e.groups = groups.size();
    if (groups.size() < 2)
        return e;
    const auto [heavy, excess] = heaviestGroup(groups, [](const GroupSummary& g) { return g.modelStateBytes(); });
    e.heavy = heavy;
    e.heavyName = groups[heavy].name;
    e.modelStateExcessBytes = excess;
    e.baseBytes = othersMedian(groups, heavy, [](const GroupSummary& g) { return g.bytesAtPoint; });
    e.beyond = beyondThreshold(excess, e.baseBytes, m_c.m_options.thresholdPercent);
    return e;
}

void VerdictDecision::applyModelParallel(const GroupsEvidence& e)
{
    const std::vector<GroupSummary>& groups = m_c.m_groups;
    const size_t heavy = e.heavy;
    Verdict& v = m_c.m_verdict;
    v.kind = Verdict::ModelParallelImbalance;
    v.group = groups[heavy].name;
    v.groupRanks = groups[heavy].ranks;
    v.excessBytes = e.modelStateExcessBytes;
    v.baselineBytes = e.baseBytes;
    // The group's rank holding the most stands for it.
    size_t rank = m_groupMembers[heavy].front();
    for (size_t r : m_groupMembers[heavy]) {
        if (m_c.m_ranks[r].bytesAtPoint > m_c.m_ranks[rank].bytesAtPoint)
            rank = r;
    }
    v.rank = m_c.m_ranks[rank].rank;
    v.device = m_c.namesDevices() ? m_c.m_ranks[rank].device : -1;
    // Which layers: the sites where the group's model state exceeds the other ranks'.
    std::vector<std::pair<int64_t, SiteId>> sites;
    for (SiteId s = 0; s < m_c.m_sites.size(); ++s) {
        std::vector<int64_t> in, out;
        for (size_t r = 0; r < m_rankCount; ++r)
            (size_t(m_c.m_ranks[r].group) == heavy ? in : out).push_back(m_siteModelBytes[s * m_rankCount + r]);
        const int64_t d = medianOf(in) - medianOf(out);
        if (d > 0)
            sites.push_back({ d, s });
    }
    std::sort(sites.begin(), sites.end(), std::greater<>());
    for (size_t i = 0; i < sites.size() && i < 3; ++i)
        v.topSites.push_back({ m_c.m_sites.label(sites[i].second), sites[i].first, int(Finding::LargerOnRank) });
    v.excessByCategory = groupExcessByCategory(groups, heavy);
    for (int64_t& bytes : v.excessByCategory)
        bytes = std::max<int64_t>(0, bytes);
    // The group difference is the verdict now, not a note beside it.
    v.heavierGroup.clear();
    v.groupExcessBytes = 0;
}

void VerdictDecision::decideVerdict()
{
    Verdict& v = m_c.m_verdict;
    v.rankCount = int(m_rankCount);
    v.point = m_c.pointName();
    v.thresholdPercent = m_c.m_options.thresholdPercent;
    v.baselineRank = m_baselineIndex >= 0 ? m_c.m_options.baselineRank : -1;
    // The facts every rule is checked against. The rank holding the most beyond its baseline, whether that is beyond
    // the threshold and where its excess is; the groups of a layout; the ranks' out-of-memory errors.
    RuleFacts facts;
    facts.rankCount = m_rankCount;
    size_t outlier = 0;
    for (size_t r = 0; r < m_rankCount; ++r) {
        if (int(r) != m_baselineIndex
            && (int(outlier) == m_baselineIndex || m_c.m_ranks[r].excessBytes > m_c.m_ranks[outlier].excessBytes))
            outlier = r;
    }
    if (m_rankCount > 1) {
        const RankSummary& o = m_c.m_ranks[outlier];
        v.outlierRank = o.rank;
        v.outlierExcessBytes = o.excessBytes;
        v.baselineBytes = o.bytesAtPoint - o.excessBytes;
        facts.imbalance = imbalanceEvidence(o);
        facts.groups = groupsEvidence();
    }
    facts.oom = oomEvidence();
    // The rules below growth and a stray device first: those two override what the rest answers, and say so.
    std::vector<Verdict::Consideration> considered(VerdictRules::Count);
    const Verdict::Kind below =
        VerdictRules::decide(facts, VerdictRules::position(Verdict::BurdenImbalance), considered);
    switch (below) {
    case Verdict::BurdenImbalance:
    case Verdict::InputImbalance:
        applyImbalance(m_c.m_ranks[outlier], facts.imbalance, below);
        applyGroup(m_c.m_ranks[outlier]);
        break;
    case Verdict::ModelParallelImbalance:
        // Without a layout, an outlier's larger model state is a shard of an uneven split; with one, a group's.
        if (facts.imbalance.beyond) {
            applyImbalance(m_c.m_ranks[outlier], facts.imbalance, below);
            applyGroup(m_c.m_ranks[outlier]);
        } else {
            applyModelParallel(facts.groups);
        }
        break;
    case Verdict::Fragmentation:
    case Verdict::OutsideAllocator:
    case Verdict::OverCapacity:
        applyOutOfMemory(below, facts.oom);
        break;
    case Verdict::Balanced:
    case Verdict::Growth:
    case Verdict::StrayDevice:
        v.kind = Verdict::Balanced;
        if (m_rankCount == 1) {
            // Nothing to compare with: what the rank holds and where, so one file still answers "what is on this
            // GPU?".
            summarizeOneRank();
        } else if (m_rankCount > 1) {
            v.rank = m_c.m_ranks[outlier].rank;
            v.excessBytes = m_c.m_ranks[outlier].excessBytes;
        }
        break;
    }
    facts.growth = growthEvidence(v.kind);
    const Verdict::Consideration& growth = considered[VerdictRules::position(Verdict::Growth)] =
        VerdictRules::check(Verdict::Growth, facts);
    if (growth.applies)
        applyGrowth(facts.growth);
    facts.stray = strayEvidence(v.kind);
    const Verdict::Consideration& stray = considered[VerdictRules::position(Verdict::StrayDevice)] =
        VerdictRules::check(Verdict::StrayDevice, facts);
    if (stray.applies)
        applyStray(facts.stray);
    v.considered = std::move(considered);
    nameFailedRequest();
    judgeConfidence(facts);
}

void VerdictDecision::nameFailedRequest()
{
    // Whatever the verdict, a rank it names that ran out of memory says which allocation failed.
    Verdict& v = m_c.m_verdict;
    const int index = m_c.rankIndex(v.rank);
    if (index < 0 || !v.oomSite.empty() || aboutOutOfMemory(v.kind))
        return;
    const RankSummary& s = m_c.m_ranks[size_t(index)];
    if (s.oomEvents == 0 || (v.device >= 0 && v.device != s.device))
        return;
    v.oomRequestedBytes = s.oomRequestedBytes;
    v.oomDeviceFreeBytes = s.oomDeviceFreeBytes;
    v.oomReservedBytes = m_c.m_histories[size_t(index)]->reservedAfter(s.oomEvent);
    v.oomSite = requestLabel(m_c.m_sites, s.oomSite);
    v.margin = Verdict::Margin::of(*m_c.m_histories[size_t(index)], s.rank);
}

ImbalanceEvidence VerdictDecision::imbalanceEvidence(const RankSummary& o) const
{
    // Work the baseline does not do at all is a burden, whether one rank or several do it. Larger tensors at shared
    // sites are input, unless they are model state: replicas hold the same parameters whatever their batches, so
    // ranks compared without a layout that differ there are shards of an uneven split.
    ImbalanceEvidence e;
    e.comparable = m_rankCount > 1;
    e.outlierRank = o.rank;
    e.excessBytes = o.excessBytes;
    e.baselineBytes = o.bytesAtPoint - o.excessBytes;
    e.thresholdPercent = m_c.m_options.thresholdPercent;
    e.beyond = beyondThreshold(e.excessBytes, e.baselineBytes, e.thresholdPercent);
    e.layout = m_c.m_layout.has_value();
    for (const Finding& f : m_c.m_findings) {
        if (f.rank != o.rank || f.kind == Finding::ForeignDevice || f.kind == Finding::Growth)
            continue;
        (f.kind == Finding::OnlyOnRank ? e.onlyBytes
                : f.baselineCount == 0 ? e.absentBytes
                                       : e.sharedBytes) += f.excessBytes;
        if (f.kind != Finding::OnlyOnRank && f.baselineCount > 0 && isModelState(f.category))
            e.sharedModelStateBytes += f.excessBytes;
    }
    return e;
}

void VerdictDecision::applyImbalance(const RankSummary& o, const ImbalanceEvidence& e, Verdict::Kind kind)
{
    Verdict& v = m_c.m_verdict;
    v.onlyBytes = e.onlyBytes;
    v.absentBytes = e.absentBytes;
    v.sharedBytes = e.sharedBytes;
    for (const Finding& f : m_c.m_findings) {
        if (f.rank != o.rank || f.kind == Finding::ForeignDevice || f.kind == Finding::Growth)
            continue;
        v.excessByCategory[size_t(f.category)] += f.excessBytes;
        if (v.topSites.size() < 3)
            v.topSites.push_back({ m_c.m_sites.label(f.site), f.excessBytes, int(f.kind) });
    }
    v.kind = kind;
    v.rank = o.rank;
    v.excessBytes = o.excessBytes;
    v.device = m_c.namesDevices() ? o.device : -1;
}

void VerdictDecision::applyGroup(const RankSummary& o)
{
    // A rank stands out only from ranks like it: where others of its replica group stand out as far and hold about
    // the same, the verdict names them together against the rest.
    if (m_baselineIndex >= 0)
        return;
    Verdict& v = m_c.m_verdict;
    const size_t outlier = size_t(m_c.rankIndex(o.rank));
    for (const std::vector<size_t>& members : m_groupMembers) {
        if (std::find(members.begin(), members.end(), outlier) == members.end())
            continue;
        std::vector<int> alike, others;
        for (size_t r : members) {
            const RankSummary& s = m_c.m_ranks[r];
            const bool standsOut = beyondThreshold(s.excessBytes, s.bytesAtPoint - s.excessBytes, v.thresholdPercent);
            const bool same =
                !beyondThreshold(std::abs(s.bytesAtPoint - o.bytesAtPoint), o.bytesAtPoint, v.thresholdPercent);
            (standsOut && same ? alike : others).push_back(s.rank);
        }
        if (alike.size() < 2)
            return;
        std::sort(alike.begin(), alike.end());
        std::sort(others.begin(), others.end());
        v.groupRanks = alike;
        v.otherRanks = others;
        v.figuresRank = o.rank;
        v.rank = -1;
        // Two halves of the job: the layout whose groups they would be (pipeline stages outermost, tensor parallelism
        // fastest), as ParallelLayout::suggested writes it.
        // Only where the excess is the training step's own (work outside it, such as evaluation, is no stage).
        const size_t n = m_rankCount;
        const bool training = v.excessByCategory[size_t(Category::Other)] * 2 < v.excessBytes;
        if (training && members.size() == n && alike.size() * 2 == n
            && int(n - 1) == std::max(alike.back(), others.back())) {
            const bool contiguous = alike.back() - alike.front() == int(alike.size()) - 1;
            const bool alternating =
                std::all_of(alike.begin(), alike.end(), [&](int r) { return r % 2 == alike[0] % 2; });
            v.fittingLayout = contiguous ? "pp=2,dp=" + std::to_string(n / 2)
                : alternating            ? "dp=" + std::to_string(n / 2) + ",tp=2"
                                         : std::string();
        }
        return;
    }
}

GrowthEvidence VerdictDecision::growthEvidence(Verdict::Kind below)
{
    // A rank that holds more at every step than at the same moment of the step before keeps tensors across steps:
    // the verdict when ranks are otherwise alike, or when that growth is what puts the outlier above the others.
    const Verdict& v = m_c.m_verdict;
    GrowthEvidence e;
    e.below = below;
    e.steps = std::any_of(m_earlier.begin(), m_earlier.end(), [](const auto& steps) { return !steps.empty(); });
    // A rank grows when its total does at every step and sites that grow at every step carry most of it (ranks
    // that all hold more activations at a step of longer batches do not).
    for (size_t r = 0; r < m_rankCount; ++r) {
        int64_t atGrowingSites = 0;
        for (const Finding& f : m_c.m_findings)
            atGrowingSites += f.kind == Finding::Growth && f.rank == m_inputs[r].rank ? f.excessBytes : 0;
        m_grows[r] = m_grows[r] && atGrowingSites * 2 >= m_c.m_ranks[r].growthBytes;
        e.growingRanks += m_grows[r] ? 1 : 0;
    }
    if (below == Verdict::BurdenImbalance || below == Verdict::InputImbalance) {
        // The outlier's excess is mostly at sites that grow at every step: growth, even where its growth over the
        // steps is under the threshold (its finding says so; the verdict must not say otherwise).
        e.excessBytes = v.excessBytes;
        const int index = m_c.rankIndex(v.rank);
        e.namedRank = index >= 0;
        if (index < 0)
            return e;
        std::unordered_set<SiteId> growing;
        for (const Finding& g : m_c.m_findings) {
            if (g.kind == Finding::Growth && g.rank == v.rank)
                growing.insert(g.site);
        }
        for (const Finding& f : m_c.m_findings) {
            if (f.rank == v.rank && f.kind != Finding::Growth && f.kind != Finding::ForeignDevice
                && growing.count(f.site))
                e.atGrowingSitesBytes += f.excessBytes;
        }
        if (!growing.empty()) {
            e.chosenRank = v.rank;
            e.growthBytes = m_c.m_ranks[size_t(index)].growthBytes;
        }
    } else if (below == Verdict::Balanced) {
        size_t chosen = m_rankCount;
        for (size_t r = 0; r < m_rankCount; ++r) {
            if (m_grows[r] && (chosen == m_rankCount || m_c.m_ranks[r].growthBytes > m_c.m_ranks[chosen].growthBytes))
                chosen = r;
        }
        if (chosen < m_rankCount) {
            e.chosenRank = m_c.m_ranks[chosen].rank;
            e.growthBytes = m_c.m_ranks[chosen].growthBytes;
        }
    }
    return e;
}

void VerdictDecision::applyGrowth(const GrowthEvidence& e)
{
    Verdict& v = m_c.m_verdict;
    const size_t chosen = size_t(m_c.rankIndex(e.chosenRank));
    if (e.below != Verdict::Balanced) {
        v.growthUnderThreshold = !m_grows[chosen];
        m_grows[chosen] = 1;
    }
    const RankSummary& r = m_c.m_ranks[chosen];
    v.kind = Verdict::Growth;
    v.rank = r.rank;
    v.device = m_c.namesDevices() ? r.device : -1;
    v.excessBytes = r.growthBytes;
    v.baselineBytes = r.bytesAtPoint - r.growthBytes;
    v.totalGrowthBytes = r.bytesAtPoint - m_earlier[chosen].front().atPoint;
    v.steps.clear();
    for (const EarlierState& e : m_earlier[chosen])
        v.steps.push_back(e.step);
    v.steps.push_back(m_inputs[chosen].step);
    v.growthRanks.clear();
    for (size_t i = 0; i < m_rankCount; ++i) {
        if (m_grows[i])
            v.growthRanks.push_back(m_inputs[i].rank);
    }
    std::sort(v.growthRanks.begin(), v.growthRanks.end());
    v.topSites.clear();
    for (const Finding& f : m_c.m_findings) {
        if (f.kind == Finding::Growth && f.rank == r.rank && v.topSites.size() < 3)
            v.topSites.push_back({ m_c.m_sites.label(f.site), f.excessBytes, int(Finding::Growth) });
    }
}

void VerdictDecision::summarizeOneRank()
{
    // Nothing to compare with: what the rank holds and where, so one file still answers "what is on this GPU?".
    Verdict& v = m_c.m_verdict;
    const RankSummary& r = m_c.m_ranks.front();
    v.rank = r.rank;
    v.heldBytes = r.bytesAtPoint;
    std::vector<std::pair<int64_t, SiteId>> sites;
    for (SiteId s = 0; s < m_c.m_sites.size(); ++s) {
        if (m_c.m_siteBytes[s] > 0)
            sites.push_back({ m_c.m_siteBytes[s], s });
    }
    const size_t top = std::min<size_t>(3, sites.size());
    std::partial_sort(sites.begin(), sites.begin() + ptrdiff_t(top), sites.end(), std::greater<>());
    for (size_t i = 0; i < top; ++i)
        v.topSites.push_back({ m_c.m_sites.label(sites[i].second), sites[i].first, int(Finding::OnlyOnRank) });
}

StrayEvidence VerdictDecision::strayEvidence(Verdict::Kind below) const
{
    // Other ranks' memory on one rank's GPU: the culprits' own files hold the allocations and their stacks, which
    // the GPU's owner cannot see. It decides the verdict when it is beyond the threshold on that GPU and the owner
    // ran out of memory, or nothing on any rank's own device stands out more. Devices are taken in order, each
    // against the answer so far (the previous device's, once one decided).
    std::map<int, int64_t> strayBytes; // device → bytes
    for (const Finding& f : m_c.m_findings) {
        if (f.kind == Finding::ForeignDevice)
            strayBytes[f.device] += f.excessBytes;
    }
    StrayEvidence e;
    e.below = below;
    e.belowExcessBytes = m_c.m_verdict.excessBytes;
    Verdict::Kind kind = below;
    int64_t excess = e.belowExcessBytes;
    for (const auto& [device, bytes] : strayBytes) {
        // The victim: the owner that ran out of memory, else the one holding the most.
        const RankSummary* victim = nullptr;
        for (size_t r : m_c.m_roles.owners(device)) {
            const RankSummary& s = m_c.m_ranks[r];
            if (!victim || std::tie(s.oomEvents, s.bytesAtPoint) > std::tie(victim->oomEvents, victim->bytesAtPoint))
                victim = &s;
        }
        if (!victim)
            continue;
        StrayEvidence here = e;
        here.device = device;
        here.bytes = bytes;
        here.victimRank = victim->rank;
        here.victimBytes = victim->bytesAtPoint;
        here.victimOom = victim->oomEvents > 0;
        here.victimRequestBytes = victim->oomRequestedBytes;
        here.victimDeviceFreeBytes = victim->oomDeviceFreeBytes;
        here.beyond = beyondThreshold(bytes, victim->bytesAtPoint, m_c.m_options.thresholdPercent);
        const bool imbalance = kind == Verdict::BurdenImbalance || kind == Verdict::InputImbalance
            || kind == Verdict::ModelParallelImbalance;
        // Where the GPU's rank ran out of memory, the others' memory there is the cause only if without it the
        // request would have fit; else it stays a suspect of the out-of-memory verdict.
        const bool enough = !here.victimOom || bytes + victim->oomDeviceFreeBytes >= victim->oomRequestedBytes;
        const bool decides = (here.victimOom && enough) || (!here.victimOom && (!imbalance || bytes > excess));
        here.decides = here.beyond && decides && !(kind == Verdict::StrayDevice && bytes <= excess);
        // The device that decides last, else the one holding the most, is the evidence.
        if (here.decides) {
            e = here;
            kind = Verdict::StrayDevice;
            excess = bytes;
        } else if (!e.decides && bytes > e.bytes) {
            e = here;
        }
    }
    return e;
}

void VerdictDecision::applyStray(const StrayEvidence& e)
{
    Verdict& v = m_c.m_verdict;
    const int device = e.device;
    v.kind = Verdict::StrayDevice;
    v.suspects.clear(); // the culprits are the answer now, not suspects
    v.rank = e.victimRank;
    v.device = device;
    v.excessBytes = e.bytes;
    v.baselineBytes = e.victimBytes;
    v.culpritRanks.clear();
    v.topSites.clear();
    // One line per site, over every culprit: the same torch.load on three ranks is one cause.
    std::map<SiteId, int64_t> bySite;
    for (const Finding& f : m_c.m_findings) {
        if (f.kind != Finding::ForeignDevice || f.device != device)
            continue;
        if (std::find(v.culpritRanks.begin(), v.culpritRanks.end(), f.rank) == v.culpritRanks.end())
            v.culpritRanks.push_back(f.rank);
        bySite[f.site] += f.excessBytes;
    }
    std::vector<std::pair<int64_t, SiteId>> sites;
    sites.reserve(bySite.size());
    for (const auto& [site, siteBytes] : bySite)
        sites.push_back({ siteBytes, site });
    std::sort(sites.begin(), sites.end(), std::greater<>());
    for (size_t i = 0; i < sites.size() && i < 3; ++i)
        v.topSites.push_back({ m_c.m_sites.label(sites[i].second), sites[i].first, int(Finding::ForeignDevice) });
    std::sort(v.culpritRanks.begin(), v.culpritRanks.end());
}

void VerdictDecision::judgeConfidence(const RuleFacts& facts)
{
    const auto incomplete =
        std::count_if(m_c.m_ranks.begin(), m_c.m_ranks.end(), [](const RankSummary& r) { return r.traceIncomplete; });
    // A moment picked by hand (an event, a step) rather than a way of looking (each rank at its peak, snapshot, OOM).
    const std::optional<TimelinePoint::Spec>& point = m_c.m_options.point;
    const bool picked = point
        && (point->kind == TimelinePoint::Event || point->kind == TimelinePoint::StepStart
            || point->kind == TimelinePoint::StepEnd);
    VerdictRules::judgeConfidence(m_c.m_verdict, facts, int(incomplete), picked);
}

} // namespace RankScope
