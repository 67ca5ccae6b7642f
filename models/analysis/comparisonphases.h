// SPDX-License-Identifier: MIT
#pragma once

// The phases of Comparison::compute, private to the analysis layer. Each phase is one step of "why this rank?" and a
// class of its own, built on the phases before it, whose results it reads: the replica groups, measuring every rank at
// its point, the findings (what a rank holds beyond its baseline, per site, and where those blocks lie), the moments
// of the aligned trace, the out-of-memory verdicts and the decision (verdictrules.h holds the rules it applies, in
// their order). Every phase works on one PhaseState: the comparison being filled and what the phases share.

#include "comparison.h"
#include "spread.h"
#include "tracealignment.h"
#include "verdictrules.h"

#include <QFuture>

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace RankScope {

/// Whether `excess` is beyond `thresholdPercent` of `base` (the one test of "stands out" every phase uses).
inline bool beyondThreshold(int64_t excess, int64_t base, double thresholdPercent)
{
    return excess > 0 && double(excess) * 100.0 > thresholdPercent * double(std::max<int64_t>(base, 1));
}

/// The median of `value` over every group but `except`.
template <typename Value> int64_t othersMedian(const std::vector<GroupSummary>& groups, size_t except, Value value)
{
    std::vector<int64_t> others;
    others.reserve(groups.size());
    for (size_t o = 0; o < groups.size(); ++o) {
        if (o != except)
            others.push_back(value(groups[o]));
    }
    return medianOf(std::move(others));
}

/// The group holding the most of `value` beyond the median of the others: its index and that excess.
template <typename Value> std::pair<size_t, int64_t> heaviestGroup(const std::vector<GroupSummary>& groups, Value value)
{
    size_t heavy = 0;
    int64_t excess = std::numeric_limits<int64_t>::min();
    for (size_t g = 0; g < groups.size(); ++g) {
        const int64_t e = value(groups[g]) - othersMedian(groups, g, value);
        if (e > excess) {
            excess = e;
            heavy = g;
        }
    }
    return { heavy, excess };
}

/// What group `heavy` holds per category beyond the median of the others.
CategoryBytes groupExcessByCategory(const std::vector<GroupSummary>& groups, size_t heavy);

/// A failed request's site as texts name it: nothing when its stack was not recorded.
std::string requestLabel(const SiteTable& sites, SiteId site);

/// The median of `sorted` without one occurrence of `own` (integer midpoint for an even count).
int64_t medianWithout(const std::vector<int64_t>& sorted, int64_t own);

/// Whether the verdict is about an out-of-memory (its figures are of the OOM, not of the point).
bool aboutOutOfMemory(Verdict::Kind kind);

/// What the phases share: the comparison being filled, the inputs, and what one phase leaves for the next.
class PhaseState
{
public:
    /// With `previous` (the same ranks and device, compared at another moment), its histories, categories, layout
    /// and alignment are taken instead of made again, and the ranks are looked at at `moment`.
    PhaseState(Comparison& c, const std::vector<RankInput>& inputs, std::vector<int> devices,
        const PhaseState* previous = nullptr, std::optional<Moment> moment = std::nullopt)
        : m_c(c)
        , m_inputs(inputs)
        , m_rankCount(inputs.size())
        , m_devices(std::move(devices))
        , m_live(inputs.size())
        , m_baselineIndex(baselineIndex())
        , m_previous(previous)
        , m_moment(moment)
    { }
    ~PhaseState()
    {
        // Their tasks use this object.
        m_pendingCategories.waitForFinished();
        m_peakStates.waitForFinished();
    }
    PhaseState(const PhaseState&) = delete;
    PhaseState& operator=(const PhaseState&) = delete;

    // Open to every phase, and to a later pass through `m_previous`.
    // A live allocation of one rank at its point, by site.
    struct Live
    {
        SiteId site;
        uint32_t allocation;
    };
    // Per rank with earlier steps: what it held at the same moment of each of them, oldest first.
    struct EarlierState
    {
        int64_t step = 0;
        int64_t atPoint = 0;
        std::unordered_map<SiteId, std::pair<int64_t, int64_t>> sites; // bytes, count
    };
    // The moment of the whole aligned trace where a rank holds the most beyond its baseline (scanAlignedExcess).
    struct Excess
    {
        size_t rankIndex = 0;
        EventIndex event = BeforeTrace;
        int64_t bytes = 0;
        int64_t medianPeak = 0;
    };

    bool alignable() const;
    const TraceAlignment& alignment();
    /// The member of a replica group with the highest peak (the first of them): the one its group is aligned with.
    size_t highestPeak(const std::vector<size_t>& members) const;

    Comparison& m_c;
    const std::vector<RankInput>& m_inputs;
    const size_t m_rankCount;
    const std::vector<int> m_devices; // per rank, the device compared
    std::vector<std::vector<Live>> m_live; // per rank, sorted by site
    std::vector<Finding> m_foreign; // allocations on other ranks' GPUs
    const int m_baselineIndex; // -1: the median of the other ranks
    std::vector<std::vector<size_t>> m_groupMembers; // replica groups of rank indices
    std::vector<int64_t> m_siteModelBytes; // sites × ranks: parameters, gradients and optimizer state
    std::vector<std::vector<EarlierState>> m_earlier;
    std::vector<uint8_t> m_grows; // per rank: more at its point than at the same moment of every step before
    QFuture<CategoriesPtr> m_pendingCategories; // classifying, until measureAt() takes them
    // Per rank, its peak event and the state there, replayed while the histories are built (see measureRanks()),
    // until measureAt() takes them.
    // Shared, not values: a future's results are copied out of it, and a large rank's state is megabytes of
    // blocks, copied onto fresh pages where the comparison waits for it.
    QFuture<std::pair<EventIndex, std::shared_ptr<const AllocatorState>>> m_peakStates;
    const PhaseState* m_previous = nullptr;
    const std::optional<Moment> m_moment;
    std::shared_ptr<const TraceAlignment> m_alignment; // made once, shared with a later pass
    std::optional<Excess> m_largestExcess;

private:
    int baselineIndex() const;
};

/// The replica groups of the layout (one group without a layout), guessing a layout where the files show one, and
/// the medians of each group's figures.
class ReplicaGroups : public PhaseState
{
public:
    using PhaseState::PhaseState;
    void compareGroups();

protected:
    void setGroups(const std::optional<ParallelLayout>& layout);
    std::optional<ParallelLayout> suggestLayout() const;
};

/// Every rank at its point (the aligned moment, its own peak, or what was asked for): its figures, its live
/// allocations by site, what it holds on other ranks' GPUs and at the same moment of earlier steps.
class RankMeasurement : public ReplicaGroups
{
public:
    using ReplicaGroups::ReplicaGroups;
    void measureRanks();
    void measureForeign();
    void measureGrowth();

private:
    // Where each rank is looked at.
    struct Chosen
    {
        TimelinePoint::Spec spec; ///< the point asked for: the option, else the rank's own peak (snapshot: no trace)
        TimelinePoint point; ///< that point, the aligned moment, or the snapshot when the rank has no such point
        bool found = false;
        Phrase note;
        int alignedTo = -1; ///< the rank whose peak this one is aligned with (itself for that rank), -1: none
    };
    std::vector<Chosen> choosePoints();
    void measureAt(const std::vector<Chosen>& chosen);
    void measureInLayout();
};

/// The findings: per site, what each rank holds beyond its baseline and where those blocks lie, what grew since
/// the steps before, and each rank's total against its baseline.
class ExcessSearch : public RankMeasurement
{
public:
    using RankMeasurement::RankMeasurement;
    void totalSites();
    void findExcess();
    void findGrowth();
    void totalRanks();
    void mapSites();

private:
    // The rank's blocks behind a finding: for "more", the extra ones are taken to be the latest allocated.
    std::vector<uint32_t> chosenBlocks(const Finding& f, size_t rankIndex) const;
    // The blocks' addresses and segments, and the runs they make where they touch inside one segment.
    void placeBlocks(Finding& f, size_t rankIndex, const std::vector<uint32_t>& chosen);
    void findExcessAt(SiteId s, size_t r, const int64_t* b, const int64_t* n, const std::vector<int64_t>& sortedBytes,
        const std::vector<int64_t>& sortedCount, int withSite);
};

/// Moments across the aligned trace: where a rank holds the most beyond its baseline, and the moment a verdict is
/// better told at (its OOM, mid-step).
class AlignedMoments : public ExcessSearch
{
public:
    using ExcessSearch::ExcessSearch;
    void scanAlignedExcess();
    /// After decideVerdict: the moment the ranks should be compared at instead of the one they were, if any (an
    /// out-of-memory verdict at its OOM, a mid-step excess where the peaks are alike).
    std::optional<Moment> betterMoment() const;
    /// Takes what `previous` (the comparison at the highest peak) found that this one keeps: each rank's largest
    /// aligned excess, and what the peak showed.
    void keepFromPeak(const Comparison& previous);
};

/// The figures of an out-of-memory: which rank's OOM is examined, its margin, the free space in its reserve, the
/// replicas that went past the request, the device's total; and, once the rules chose, the verdict's figures.
class OutOfMemoryFacts : public AlignedMoments
{
public:
    using AlignedMoments::AlignedMoments;

protected:
    /// The examined OOM's facts for the rules (empty `ranks` without one).
    OomEvidence oomEvidence();
    /// Fills the verdict of an out-of-memory of kind `kind` (Fragmentation, OutsideAllocator, OverCapacity).
    void applyOutOfMemory(Verdict::Kind kind, const OomEvidence& oom);

private:
    /// Whether replica `r` went on past the allocation that failed on `oomRank` (at its site, as large, after the
    /// same moment of its trace).
    bool passedRequest(size_t oomRank, const OomMarker& oom, size_t r);
    void decideOverCapacity(size_t examined, const OomMarker& oom, const FreeSpace& free);
    void findSuspects(size_t oomRank);
};

/// The verdict: every rule of verdictrules.h checked against the phases' figures, the first that applies in their
/// order decides, and its figures are filled in.
class VerdictDecision : public OutOfMemoryFacts
{
public:
    using OutOfMemoryFacts::OutOfMemoryFacts;
    void decideVerdict();

private:
    ImbalanceEvidence imbalanceEvidence(const RankSummary& outlier) const;
    GroupsEvidence groupsEvidence() const;
    GrowthEvidence growthEvidence(Verdict::Kind below);
    StrayEvidence strayEvidence(Verdict::Kind below) const;
    void applyImbalance(const RankSummary& outlier, const ImbalanceEvidence& e, Verdict::Kind kind);
    void applyGroup(const RankSummary& outlier);
    void applyModelParallel(const GroupsEvidence& e);
    void applyGrowth(const GrowthEvidence& e);
    void applyStray(const StrayEvidence& e);
    void nameFailedRequest();
    void summarizeOneRank();
    void judgeConfidence(const RuleFacts& facts);
};

using ComparisonPhases = VerdictDecision;

} // namespace RankScope
