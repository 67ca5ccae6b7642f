// SPDX-License-Identifier: MIT
#include "verdictrules.h"

#include <algorithm>
#include <cmath>

namespace RankScope {

namespace {

using Consideration = Verdict::Consideration;
using Figure = Verdict::Figure;

Consideration consider(Verdict::Kind kind)
{
    Consideration c;
    c.kind = kind;
    return c;
}

Consideration& add(Consideration& c, const char* key, int64_t value, Figure::Unit unit = Figure::Bytes)
{
    c.evidence.push_back({ key, unit, value, 0.0 });
    return c;
}

Consideration& addPercent(Consideration& c, const char* key, double percent)
{
    c.evidence.push_back({ key, Figure::Percent, 0, percent });
    return c;
}

Consideration decided(Consideration c, bool applies, Consideration::WhyNot whyNot)
{
    c.applies = applies;
    c.whyNot = applies ? Consideration::Applies : whyNot;
    return c;
}

double percentOf(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * double(part) / double(whole) : 0.0;
}

// The figures the imbalance rules share: who stands out, by how much, against what, and where.
Consideration imbalanceFigures(Verdict::Kind kind, const ImbalanceEvidence& e)
{
    Consideration c = consider(kind);
    if (!e.comparable)
        return c;
    add(c, "outlier_rank", e.outlierRank, Figure::Rank);
    add(c, "excess_bytes", e.excessBytes);
    add(c, "baseline_bytes", e.baselineBytes);
    addPercent(c, "excess_percent", percentOf(e.excessBytes, e.baselineBytes));
    addPercent(c, "threshold_percent", e.thresholdPercent);
    add(c, "only_bytes", e.onlyBytes);
    add(c, "absent_bytes", e.absentBytes);
    add(c, "shared_bytes", e.sharedBytes);
    return c;
}

bool ownSitesMost(const ImbalanceEvidence& e)
{
    return e.onlyBytes + e.absentBytes >= e.sharedBytes;
}

// Larger tensors at shared sites that are mostly model state, with no layout to say the ranks are shards.
bool modelStateShared(const ImbalanceEvidence& e)
{
    return !e.layout && e.sharedModelStateBytes * 2 >= e.sharedBytes;
}

bool fragmented(const OomEvidence& e)
{
    return e.free.bytes >= e.oom.requestedBytes && e.free.largest < e.oom.requestedBytes;
}

bool outsideShown(const OomEvidence& e)
{
    return !e.fittingRanks.empty() || (e.deviceMemoryBytes > 0 && e.outsideBytes > Verdict::contextAllowanceBytes);
}

Consideration strayDevice(const RuleFacts& f)
{
    const StrayEvidence& e = f.stray;
    Consideration c = consider(Verdict::StrayDevice);
    if (f.rankCount < 2)
        return decided(c, false, Consideration::OneRank);
    if (e.device < 0)
        return decided(c, false, Consideration::NoForeign);
    add(c, "device", e.device, Figure::Count);
    add(c, "stray_bytes", e.bytes);
    add(c, "victim_rank", e.victimRank, Figure::Rank);
    add(c, "victim_bytes", e.victimBytes);
    addPercent(c, "stray_percent", percentOf(e.bytes, e.victimBytes));
    addPercent(c, "threshold_percent", f.imbalance.thresholdPercent);
    if (e.victimOom) {
        add(c, "victim_request_bytes", e.victimRequestBytes);
        add(c, "victim_device_free_bytes", e.victimDeviceFreeBytes);
    }
    add(c, "imbalance_excess_bytes", e.belowExcessBytes);
    if (e.decides)
        return decided(c, true, Consideration::Applies);
    if (!e.beyond)
        return decided(c, false, Consideration::BelowThreshold);
    return decided(c, false,
        e.victimOom && e.bytes + e.victimDeviceFreeBytes < e.victimRequestBytes ? Consideration::StrayWouldNotFit
                                                                                : Consideration::StraySmaller);
}

Consideration growth(const RuleFacts& f)
{
    const GrowthEvidence& e = f.growth;
    Consideration c = consider(Verdict::Growth);
    if (!e.steps)
        return decided(c, false, Consideration::NoSteps);
    add(c, "growing_ranks", int64_t(e.growingRanks), Figure::Count);
    if (e.chosenRank >= 0) {
        add(c, "rank", e.chosenRank, Figure::Rank);
        add(c, "growth_bytes", e.growthBytes);
    }
    switch (e.below) {
    case Verdict::BurdenImbalance:
    case Verdict::InputImbalance:
        add(c, "excess_bytes", e.excessBytes);
        add(c, "at_growing_sites_bytes", e.atGrowingSitesBytes);
        if (!e.namedRank)
            return decided(c, false, Consideration::OutranksGrowth);
        if (e.chosenRank < 0)
            return decided(c, false, Consideration::NothingGrows);
        return decided(c, e.atGrowingSitesBytes * 2 >= e.excessBytes, Consideration::ExcessNotGrowing);
    case Verdict::Balanced:
        return decided(c, e.chosenRank >= 0, Consideration::NothingGrows);
    default:
        return decided(c, false, Consideration::OutranksGrowth);
    }
}

Consideration burdenImbalance(const RuleFacts& f)
{
    const ImbalanceEvidence& e = f.imbalance;
    Consideration c = imbalanceFigures(Verdict::BurdenImbalance, e);
    if (!e.comparable)
        return decided(c, false, Consideration::OneRank);
    if (!e.beyond)
        return decided(c, false, Consideration::BelowThreshold);
    return decided(c, ownSitesMost(e), Consideration::SharedSitesMost);
}

Consideration inputImbalance(const RuleFacts& f)
{
    const ImbalanceEvidence& e = f.imbalance;
    Consideration c = imbalanceFigures(Verdict::InputImbalance, e);
    if (!e.comparable)
        return decided(c, false, Consideration::OneRank);
    add(c, "shared_model_state_bytes", e.sharedModelStateBytes);
    if (!e.beyond)
        return decided(c, false, Consideration::BelowThreshold);
    if (ownSitesMost(e))
        return decided(c, false, Consideration::OwnSitesMost);
    return decided(c, !modelStateShared(e), Consideration::ModelStateShared);
}

Consideration modelParallelImbalance(const RuleFacts& f)
{
    const ImbalanceEvidence& i = f.imbalance;
    const GroupsEvidence& g = f.groups;
    Consideration c = consider(Verdict::ModelParallelImbalance);
    if (!i.comparable)
        return decided(c, false, Consideration::OneRank);
    add(c, "groups", int64_t(g.groups), Figure::Count);
    if (g.groups >= 2) {
        add(c, "group_model_state_excess_bytes", g.modelStateExcessBytes);
        add(c, "other_groups_bytes", g.baseBytes);
        addPercent(c, "group_excess_percent", percentOf(g.modelStateExcessBytes, g.baseBytes));
    }
    add(c, "shared_bytes", i.sharedBytes);
    add(c, "shared_model_state_bytes", i.sharedModelStateBytes);
    addPercent(c, "threshold_percent", i.thresholdPercent);
    // An outlier whose larger tensors are model state is a shard of an uneven split; so is a group of a layout
    // holding more of it than the others.
    if ((i.beyond && !ownSitesMost(i) && modelStateShared(i)) || g.beyond)
        return decided(c, true, Consideration::Applies);
    return decided(c, false, g.groups < 2 ? Consideration::NoGroups : Consideration::GroupsAlike);
}

// The figures every out-of-memory rule shows: the request against what the GPU had.
Consideration oomFigures(Verdict::Kind kind, const OomEvidence& e)
{
    Consideration c = consider(kind);
    if (e.rankIndices.empty())
        return c;
    add(c, "oom_ranks", int64_t(e.rankIndices.size()), Figure::Count);
    add(c, "rank", e.margin.rank, Figure::Rank);
    add(c, "requested_bytes", e.oom.requestedBytes);
    return c;
}

Consideration fragmentation(const RuleFacts& f)
{
    const OomEvidence& e = f.oom;
    Consideration c = oomFigures(Verdict::Fragmentation, e);
    if (e.rankIndices.empty())
        return decided(c, false, Consideration::NoOom);
    add(c, "free_in_reserve_bytes", e.free.bytes);
    add(c, "largest_free_bytes", e.free.largest);
    add(c, "fragmented_segments", int64_t(e.free.segments.size()), Figure::Count);
    if (e.free.bytes < e.oom.requestedBytes)
        return decided(c, false, Consideration::FreeBelowRequest);
    return decided(c, fragmented(e), Consideration::BlockLargeEnough);
}

Consideration outsideAllocator(const RuleFacts& f)
{
    const OomEvidence& e = f.oom;
    Consideration c = oomFigures(Verdict::OutsideAllocator, e);
    if (e.rankIndices.empty())
        return decided(c, false, Consideration::NoOom);
    add(c, "fitting_ranks", int64_t(e.fittingRanks.size()), Figure::Count);
    add(c, "unreached_ranks", int64_t(e.unreachedRanks.size()), Figure::Count);
    if (e.deviceMemoryBytes > 0) {
        add(c, "device_memory_bytes", e.deviceMemoryBytes);
        add(c, "outside_bytes", e.outsideBytes);
        add(c, "context_allowance_bytes", Verdict::contextAllowanceBytes);
    }
    return decided(c, outsideShown(e),
        e.deviceMemoryBytes > 0 ? Consideration::OutsideWithinAllowance : Consideration::NoOutsideEvidence);
}

Consideration overCapacity(const RuleFacts& f)
{
    const OomEvidence& e = f.oom;
    Consideration c = oomFigures(Verdict::OverCapacity, e);
    if (e.rankIndices.empty())
        return decided(c, false, Consideration::NoOom);
    add(c, "needed_bytes", e.margin.neededBytes);
    add(c, "offered_bytes", e.margin.offeredBytes);
    add(c, "short_bytes", e.margin.shortBytes);
    add(c, "stranded_bytes", e.margin.strandedBytes);
    return decided(c, !fragmented(e) && !outsideShown(e), Consideration::ExplainedOtherwise);
}

Consideration balanced(const RuleFacts& f)
{
    const ImbalanceEvidence& e = f.imbalance;
    Consideration c = consider(Verdict::Balanced);
    if (e.comparable) {
        add(c, "outlier_rank", e.outlierRank, Figure::Rank);
        add(c, "excess_bytes", e.excessBytes);
        add(c, "baseline_bytes", e.baselineBytes);
        addPercent(c, "excess_percent", percentOf(e.excessBytes, e.baselineBytes));
        addPercent(c, "threshold_percent", e.thresholdPercent);
    }
    add(c, "oom_ranks", int64_t(f.oom.rankIndices.size()), Figure::Count);
    if (e.beyond)
        return decided(c, false, Consideration::RankStandsOut);
    if (f.groups.beyond)
        return decided(c, false, Consideration::GroupsDiffer);
    return decided(c, f.oom.rankIndices.empty(), Consideration::RanksRanOut);
}

} // namespace

int64_t Verdict::Consideration::figure(const std::string& key) const
{
    for (const Figure& f : evidence) {
        if (f.key == key)
            return f.value;
    }
    return 0;
}

const std::array<VerdictRules::Rule, VerdictRules::Count>& VerdictRules::rules()
{
    // Top to bottom, the order of decision. The first two override what the rest answers where their conditions
    // say so; the imbalances come before the out-of-memory rules, since a rank that holds more than its replicas is
    // why it ran out where they did not; balanced is what is left.
    static const std::array<Rule, Count> table = { {
        { Verdict::StrayDevice,
            "other ranks' allocations on one rank's GPU, beyond the threshold of what it holds, and either that rank "
            "ran out of memory and would have fit without them, or no larger imbalance is on the ranks' own GPUs",
            strayDevice },
        { Verdict::Growth,
            "steps compared, and a rank holds more at every step at sites that grow: where ranks are otherwise "
            "balanced, or where those sites carry most of an imbalance's excess",
            growth },
        { Verdict::BurdenImbalance,
            "a rank holds more than the threshold beyond its baseline, mostly at sites its baseline does not reach",
            burdenImbalance },
        { Verdict::InputImbalance,
            "a rank holds more than the threshold beyond its baseline, mostly at sites its baseline reaches too, and "
            "not mostly in model state",
            inputImbalance },
        { Verdict::ModelParallelImbalance,
            "a group of the layout holds more model state than the others beyond the threshold, or (no layout) an "
            "outlier's larger tensors are mostly model state",
            modelParallelImbalance },
        { Verdict::Fragmentation,
            "a rank ran out of memory while its reserve held the request free, in no block as large", fragmentation },
        { Verdict::OutsideAllocator,
            "a rank ran out of memory where replicas went on past the same request, or the device's total shows more "
            "than a CUDA context and NCCL take outside PyTorch's reserve",
            outsideAllocator },
        { Verdict::OverCapacity,
            "a rank ran out of memory, and neither fragmentation nor memory outside the allocator explains it",
            overCapacity },
        { Verdict::Balanced,
            "no rank stands out beyond the threshold, no group differs in model state, and no rank ran out of memory",
            balanced },
    } };
    return table;
}

size_t VerdictRules::position(Verdict::Kind kind)
{
    const std::array<Rule, Count>& table = rules();
    return size_t(
        std::find_if(table.begin(), table.end(), [kind](const Rule& r) { return r.kind == kind; }) - table.begin());
}

Verdict::Consideration VerdictRules::check(Verdict::Kind kind, const RuleFacts& facts)
{
    return rules()[position(kind)].check(facts);
}

Verdict::Kind VerdictRules::decide(const RuleFacts& facts, size_t from, std::vector<Consideration>& considered)
{
    considered.resize(Count);
    std::optional<Verdict::Kind> first;
    for (size_t i = from; i < Count; ++i) {
        considered[i] = rules()[i].check(facts);
        if (considered[i].applies && !first)
            first = rules()[i].kind;
    }
    return first.value_or(Verdict::Balanced);
}

namespace {

using Factor = Verdict::ConfidenceFactor;

// How far a figure is past its threshold: High from three times, Medium from one and a half.
Verdict::Confidence byRatio(double ratio, std::vector<Factor>& factors)
{
    factors.push_back({ ratio >= 2 ? Factor::PastThreshold : Factor::NearThreshold, std::llround(ratio * 10) });
    return ratio >= 3 ? Verdict::High : ratio >= 1.5 ? Verdict::Medium : Verdict::Low;
}

double ratioOf(int64_t excess, int64_t base, double thresholdPercent)
{
    const double threshold = thresholdPercent / 100.0 * double(std::max<int64_t>(base, 1));
    return threshold > 0 ? double(excess) / threshold : 0.0;
}

Verdict::Confidence lower(Verdict::Confidence c)
{
    return c == Verdict::High ? Verdict::Medium : Verdict::Low;
}

} // namespace

void VerdictRules::judgeConfidence(Verdict& v, const RuleFacts& facts, int incompleteTraces, bool pointAsked)
{
    std::vector<Factor> factors;
    Verdict::Confidence level = Verdict::High;
    const ImbalanceEvidence& i = facts.imbalance;
    switch (v.kind) {
    case Verdict::BurdenImbalance:
    case Verdict::InputImbalance: {
        level = byRatio(ratioOf(i.excessBytes, i.baselineBytes, i.thresholdPercent), factors);
        // Both kinds of site carry much of the excess: the kind is the larger part's, by a little.
        const int64_t own = i.onlyBytes + i.absentBytes;
        const int64_t total = own + i.sharedBytes;
        if (total > 0 && std::max(own, i.sharedBytes) * 100 < total * 65) {
            factors.push_back({ Factor::MixedExcess, std::max(own, i.sharedBytes) * 100 / total });
            level = lower(level);
        }
        break;
    }
    case Verdict::ModelParallelImbalance:
        level = i.beyond
            ? byRatio(ratioOf(i.excessBytes, i.baselineBytes, i.thresholdPercent), factors)
            : byRatio(ratioOf(facts.groups.modelStateExcessBytes, facts.groups.baseBytes, i.thresholdPercent), factors);
        break;
    case Verdict::StrayDevice:
        level = facts.stray.victimOom
            ? Verdict::High
            : byRatio(ratioOf(facts.stray.bytes, facts.stray.victimBytes, i.thresholdPercent), factors);
        if (facts.stray.victimOom)
            factors.push_back({ Factor::ExplainedByFigures, 0 });
        break;
    case Verdict::Growth:
        if (v.growthUnderThreshold) {
            factors.push_back({ Factor::GrowthUnderThreshold, 0 });
            level = Verdict::Medium;
        }
        if (v.steps.size() < 3) {
            factors.push_back({ Factor::FewSteps, int64_t(v.steps.size()) });
            level = std::max(level, Verdict::Medium);
        }
        break;
    case Verdict::Fragmentation:
        factors.push_back({ Factor::ExplainedByFigures, 0 });
        level = v.largestFreeBytes * 2 < v.oomRequestedBytes ? Verdict::High : Verdict::Medium;
        break;
    case Verdict::OutsideAllocator:
        factors.push_back({ Factor::ExplainedByFigures, 0 });
        if (v.evidence == Verdict::ReplicasFit)
            level = v.fittingRanks.size() >= 2 ? Verdict::High : Verdict::Medium;
        else
            level = v.outsideBytes >= 2 * Verdict::contextAllowanceBytes ? Verdict::High : Verdict::Medium;
        break;
    case Verdict::OverCapacity:
        if (!v.unreachedRanks.empty()) {
            factors.push_back({ Factor::Unreached, int64_t(v.unreachedRanks.size()) });
            level = Verdict::Low;
        }
        // Out of memory with the GPU not full: what does not fit is the limit the process was given.
        if (v.margin.outcome == Verdict::Margin::NotReached) {
            factors.push_back({ Factor::DeviceNotFull, 0 });
            level = std::max(level, Verdict::Medium);
        } else if (v.oomRanks.size() == 1 && v.deviceMemoryBytes == 0 && v.rankCount > 1) {
            // One rank alone out of memory, nothing to tell what else holds its GPU.
            factors.push_back({ Factor::DeviceTotalUnknown, 0 });
            level = std::max(level, Verdict::Medium);
        }
        break;
    case Verdict::Balanced:
        if (i.comparable)
            level = ratioOf(std::max<int64_t>(0, i.excessBytes), i.baselineBytes, i.thresholdPercent) < 0.5
                ? Verdict::High
                : Verdict::Medium;
        if (i.comparable && level == Verdict::Medium)
            factors.push_back({ Factor::NearThreshold,
                std::llround(ratioOf(i.excessBytes, i.baselineBytes, i.thresholdPercent) * 10) });
        else if (i.comparable)
            factors.push_back({ Factor::WellWithin,
                std::llround(
                    ratioOf(std::max<int64_t>(0, i.excessBytes), i.baselineBytes, i.thresholdPercent) * 100) });
        break;
    }
    // Ranks whose failed requests differ agree only within their groups: the largest one counts.
    size_t alike = v.oomGroups.empty() ? v.oomRanks.size() : 0;
    for (const Verdict::OomGroup& g : v.oomGroups)
        alike = std::max(alike, g.ranks.size());
    if (alike > 1)
        factors.push_back({ Factor::AlikeAgree, int64_t(alike) });
    if (v.rankCount == 1) {
        factors.push_back({ Factor::OneRankOnly, 0 });
        level = std::max(level, Verdict::Medium);
    }
    // Ranks seen unequally: some traces lost their start where others did not. (Where all did, as ring buffers do,
    // every rank is compared on the same footing.)
    if (incompleteTraces > 0 && incompleteTraces < v.rankCount) {
        factors.push_back({ Factor::TracesIncomplete, incompleteTraces });
        level = std::max(level, Verdict::Medium);
    }
    if (pointAsked) {
        factors.push_back({ Factor::PointAsked, 0 });
        level = std::max(level, Verdict::Medium);
    }
    v.confidence = level;
    v.confidenceFactors = std::move(factors);
}

} // namespace RankScope
