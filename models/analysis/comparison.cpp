// SPDX-License-Identifier: MIT
#include "comparison.h"

#include "parallel.h"
#include "spread.h"
#include "tracealignment.h"

#include <QThreadPool>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace RankScope {

namespace {

// The median of `sorted` without one occurrence of `own` (integer midpoint for an even count).
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

// Allocations round up to 512 bytes in the caching allocator, so blocks made for adjacent requests touch there.
int64_t rounded(int64_t size)
{
    return (size + 511) / 512 * 512;
}

bool beyondThreshold(int64_t excess, int64_t base, double thresholdPercent)
{
    return excess > 0 && double(excess) * 100.0 > thresholdPercent * double(std::max<int64_t>(base, 1));
}

// The median of `value` over every group but `except`.
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

// The group holding the most of `value` beyond the median of the others: its index and that excess.
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

// What group `heavy` holds per category beyond the median of the others.
CategoryBytes groupExcessByCategory(const std::vector<GroupSummary>& groups, size_t heavy)
{
    CategoryBytes out {};
    for (size_t c = 0; c < size_t(CategoryCount); ++c)
        out[c] = groups[heavy].categoryBytes[c]
            - othersMedian(groups, heavy, [c](const GroupSummary& g) { return g.categoryBytes[c]; });
    return out;
}

// Expandable segments: set in the allocator settings, or visible in segments and their map/unmap events.
bool usesExpandableSegments(const Snapshot& s)
{
    for (const auto& [key, value] : s.allocatorSettings) {
        if (s.strings.view(key) == "expandable_segments")
            return s.strings.view(value) == "True" || s.strings.view(value) == "true" || s.strings.view(value) == "1";
    }
    if (std::any_of(s.segments.begin(), s.segments.end(), [](const Segment& seg) { return seg.isExpandable; }))
        return true;
    for (const TraceVector& trace : s.deviceTraces) {
        for (const TraceEntry& e : trace) {
            if (e.action() == TraceAction::SegmentMap)
                return true;
        }
    }
    return false;
}

} // namespace

const char* Finding::kindName(Kind kind)
{
    switch (kind) {
    case OnlyOnRank:
        return "only_on_rank";
    case MoreOnRank:
        return "more_on_rank";
    case LargerOnRank:
        return "larger_on_rank";
    case ForeignDevice:
        return "foreign_device";
    case Growth:
        return "growth";
    }
    return "";
}

const char* Verdict::Suspect::kindName(Kind kind)
{
    return kind == ForeignDevice ? "foreign_device" : "private_pools";
}

const char* Moment::reasonName(Reason reason)
{
    switch (reason) {
    case HighestPeak:
        return "highest_peak";
    case MidStep:
        return "mid_step";
    case OutOfMemory:
        return "oom";
    case Picked:
        return "picked";
    }
    return "";
}

const char* Verdict::Remedy::kindName(Kind kind)
{
    switch (kind) {
    case ChunkedLoss:
        return "chunked_loss";
    case ActivationCheckpointing:
        return "activation_checkpointing";
    case ShardModelState:
        return "shard_model_state";
    case Defragment:
        return "defragment";
    case RebalanceStages:
        return "rebalance_stages";
    }
    return "";
}

const char* Verdict::kindName(Kind kind)
{
    switch (kind) {
    case Balanced:
        return "balanced";
    case BurdenImbalance:
        return "burden_imbalance";
    case InputImbalance:
        return "input_imbalance";
    case OutsideAllocator:
        return "outside_allocator";
    case OverCapacity:
        return "over_capacity";
    case StrayDevice:
        return "stray_device";
    case Fragmentation:
        return "fragmentation";
    case ModelParallelImbalance:
        return "model_parallel_imbalance";
    case Growth:
        return "growth";
    }
    return "";
}

std::pair<int, int> Comparison::defaultPair() const
{
    if (m_ranks.empty())
        return { -1, -1 };
    const RankSummary* most = &m_ranks.front();
    for (const RankSummary& s : m_ranks) {
        if (s.excessBytes > most->excessBytes)
            most = &s;
    }
    const int a = m_verdict.rank >= 0 ? m_verdict.rank
        : m_verdict.figuresRank >= 0  ? m_verdict.figuresRank
                                      : most->rank;
    // B is one of A's replicas where it has any: a rank of another stage differs by design.
    const int groupA = m_ranks[size_t(std::max(0, rankIndex(a)))].group;
    const bool replicas =
        std::count_if(m_ranks.begin(), m_ranks.end(), [&](const RankSummary& s) { return s.group == groupA; }) > 1;
    // Against ranks alike that stand out together, B is one of the rest.
    const std::vector<int>& rest = m_verdict.otherRanks;
    int b = -1;
    int64_t closest = std::numeric_limits<int64_t>::max();
    for (const RankSummary& s : m_ranks) {
        if (s.rank != a && (!replicas || s.group == groupA)
            && (rest.empty() || std::find(rest.begin(), rest.end(), s.rank) != rest.end())
            && std::abs(s.excessBytes) < closest) {
            closest = std::abs(s.excessBytes);
            b = s.rank;
        }
    }
    return { a, b };
}

RankHoldings Comparison::holdingsOf(size_t r, EventIndex event, size_t sites) const
{
    RankHoldings h;
    h.rank = m_ranks[r].rank;
    h.rankIndex = r;
    const DeviceHistory& history = *m_histories[r];
    h.composition = Composition::at(history, *m_categories[r], m_stackSites[r], event);
    const WhatIf whatIf(history, *m_categories[r], m_stackSites[r]);
    h.peakBytes = whatIf.peakBytes();
    if (!history.ooms().empty()) {
        const OomMarker& oom = history.ooms().back();
        const int64_t offered = history.reservedAfter(oom.event) + oom.deviceFreeBytes;
        // Only where what it held and asked for went beyond what was offered is fitting a matter of bytes: an OOM with
        // less than that (fragmentation, memory outside) says nothing about which smaller peak would have fit.
        if (history.totalAfter(oom.event) + oom.requestedBytes > offered)
            h.offeredBytes = offered;
    }
    // A digest keeps its peak and OOMs exactly, but the allocations it leaves out are one stand-in whatever their
    // sites: a peak without a site would count the site's left-out allocations all the same.
    if (history.snapshot().digest)
        return h;
    std::vector<WhatIf::Candidate> candidates;
    for (size_t i = 0; i < h.composition.sites.size() && i < sites; ++i)
        candidates.push_back({ WhatIf::Candidate::Site, h.composition.sites[i].site, Category::Other });
    if (!history.ooms().empty()) {
        const WhatIf::Candidate request { WhatIf::Candidate::Site, m_stackSites[r][history.ooms().back().stack],
            Category::Other };
        if (std::find(candidates.begin(), candidates.end(), request) == candidates.end())
            candidates.push_back(request);
    }
    for (int c = 0; c < CategoryCount; ++c) {
        if (h.composition.categoryBytes[size_t(c)] > 0)
            candidates.push_back({ WhatIf::Candidate::CategoryOf, 0, Category(c) });
    }
    h.whatIf = whatIf.without(candidates);
    std::stable_sort(h.whatIf.begin(), h.whatIf.end(), [](const WhatIf::Result& a, const WhatIf::Result& b) {
        return std::tie(a.without.kind, b.savedBytes) < std::tie(b.without.kind, a.savedBytes);
    });
    return h;
}

namespace {

// A failed request's site as texts name it: nothing when its stack was not recorded.
std::string requestLabel(const SiteTable& sites, SiteId site)
{
    return site == NoSite || sites.frames(site).empty() ? std::string() : sites.label(site);
}

bool aboutOutOfMemory(Verdict::Kind kind)
{
    return kind == Verdict::OverCapacity || kind == Verdict::OutsideAllocator || kind == Verdict::Fragmentation;
}

} // namespace

int Comparison::verdictHoldingsRank() const
{
    if (m_verdict.rank >= 0)
        return m_verdict.rank;
    if (m_verdict.figuresRank >= 0)
        return m_verdict.figuresRank;
    return defaultPair().first;
}

int Comparison::findingToShow(int rankA, int rankB, int selected, const std::function<bool(size_t)>& among) const
{
    if (selected >= 0 && size_t(selected) < m_findings.size()
        && (m_findings[size_t(selected)].rank == rankA || m_findings[size_t(selected)].rank == rankB))
        return selected;
    auto largestOf = [this, &among](int rank) {
        int top = -1;
        for (size_t i = 0; i < m_findings.size(); ++i) {
            if (m_findings[i].rank == rank && (!among || among(i))
                && (top < 0 || m_findings[i].excessBytes > m_findings[size_t(top)].excessBytes))
                top = int(i);
        }
        return top;
    };
    const int ofA = largestOf(rankA);
    return ofA >= 0 ? ofA : largestOf(rankB);
}

int Comparison::defaultFinding() const
{
    const auto [a, b] = defaultPair();
    return findingToShow(a, b);
}

RankHoldings Comparison::verdictHoldings(size_t sites) const
{
    if (m_holdings && sites == RankHoldings::DefaultSites)
        return *m_holdings;
    const int index = rankIndex(verdictHoldingsRank());
    if (index < 0)
        return {};
    const RankSummary& r = m_ranks[size_t(index)];
    return holdingsOf(
        size_t(index), aboutOutOfMemory(m_verdict.kind) && r.oomEvents > 0 ? r.oomEvent : r.point.event, sites);
}

std::optional<RankHoldings> Comparison::holdingsFor(int rank, size_t sites) const
{
    const int index = rankIndex(rank >= 0 ? rank : verdictHoldingsRank());
    if (index < 0)
        return std::nullopt;
    if (rank < 0 && !m_options.point)
        return verdictHoldings(sites);
    return holdingsOf(size_t(index), m_ranks[size_t(index)].point.event, sites);
}

int Comparison::rankIndex(int rank) const
{
    for (size_t i = 0; i < m_ranks.size(); ++i) {
        if (m_ranks[i].rank == rank)
            return int(i);
    }
    return -1;
}

std::string Comparison::pointName() const
{
    if (!m_options.point)
        return m_alignedTo >= 0 ? "aligned" : "peak";
    const TimelinePoint::Spec& p = *m_options.point;
    switch (p.kind) {
    case TimelinePoint::Peak:
        return "peak";
    case TimelinePoint::Snapshot:
        return "snapshot";
    case TimelinePoint::Oom:
        return "oom";
    case TimelinePoint::Event:
        return "event:" + std::to_string(p.number) + (p.rank >= 0 ? "@" + std::to_string(p.rank) : std::string());
    case TimelinePoint::StepStart:
        return "step:" + std::to_string(p.number);
    case TimelinePoint::StepEnd:
        return "step:" + std::to_string(p.number) + ":end";
    }
    return "";
}

// The phases of Comparison::compute, each one step of "why this rank?": measure every rank at its point, total
// each site per rank, find what a rank holds beyond its baseline per site and where those blocks lie, total each
// rank against its baseline, and decide the verdict.
class ComparisonPhases
{
public:
    /// With `previous` (the same ranks and device, compared at another moment), its histories, categories, layout
    /// and alignment are taken instead of made again, and the ranks are looked at at `moment`.
    ComparisonPhases(Comparison& c, const std::vector<RankInput>& inputs, std::vector<int> devices,
        const ComparisonPhases* previous = nullptr, std::optional<Moment> moment = std::nullopt)
        : m_c(c)
        , m_inputs(inputs)
        , m_rankCount(inputs.size())
        , m_devices(std::move(devices))
        , m_live(inputs.size())
        , m_baselineIndex(baselineIndex())
        , m_previous(previous)
        , m_moment(moment)
    { }
    ~ComparisonPhases()
    {
        // Their tasks use this object.
        m_pendingCategories.waitForFinished();
        m_peakStates.waitForFinished();
    }
    ComparisonPhases(const ComparisonPhases&) = delete;
    ComparisonPhases& operator=(const ComparisonPhases&) = delete;

    void measureRanks();
    void measureForeign();
    void measureGrowth();
    void totalSites();
    void findExcess();
    void findGrowth();
    void totalRanks();
    void compareGroups();
    void mapSites();
    void scanAlignedExcess();
    void decideVerdict();
    /// After decideVerdict: the moment the ranks should be compared at instead of the one they were, if any (an
    /// out-of-memory verdict at its OOM, a mid-step excess where the peaks are alike).
    std::optional<Moment> betterMoment() const;
    /// Takes what `previous` (the comparison at the highest peak) found that this one keeps: each rank's largest
    /// aligned excess, and what the peak showed.
    void keepFromPeak(const Comparison& previous);

private:
    // A live allocation of one rank at its point, by site.
    struct Live
    {
        SiteId site;
        uint32_t allocation;
    };

    // Where each rank is looked at.
    struct Chosen
    {
        TimelinePoint::Spec spec; ///< the point asked for: the option, else the rank's own peak (snapshot: no trace)
        TimelinePoint point; ///< that point, the aligned moment, or the snapshot when the rank has no such point
        bool found = false;
        std::string note;
        int alignedTo = -1; ///< the rank whose peak this one is aligned with (itself for that rank), -1: none
    };
    std::vector<Chosen> choosePoints();
    int baselineIndex() const;
    // The rank's blocks behind a finding: for "more", the extra ones are taken to be the latest allocated.
    std::vector<uint32_t> chosenBlocks(const Finding& f, size_t rankIndex) const;
    // The blocks' addresses and segments, and the runs they make where they touch inside one segment.
    void placeBlocks(Finding& f, size_t rankIndex, const std::vector<uint32_t>& chosen);
    void findExcessAt(SiteId s, size_t r, const int64_t* b, const int64_t* n, const std::vector<int64_t>& sortedBytes,
        const std::vector<int64_t>& sortedCount, int withSite);
    std::optional<ParallelLayout> suggestLayout() const;
    bool alignable() const;
    const TraceAlignment& alignment();
    void decideGroup(const RankSummary& outlier);
    void setGroups(const std::optional<ParallelLayout>& layout);
    void measureAt(const std::vector<Chosen>& chosen);
    void measureInLayout();
    bool decideModelParallel();
    void decideImbalance(const RankSummary& outlier);
    bool decideOutOfMemory();
    /// Whether replica `r` went on past the allocation that failed on `oomRank` (at its site, as large, after the
    /// same moment of its trace).
    bool passedRequest(size_t oomRank, const OomMarker& oom, size_t r);
    void decideOverCapacity(size_t examined, const OomMarker& oom, const FreeSpace& free);
    void nameFailedRequest();
    void decideStray();
    void summarizeOneRank();
    void findSuspects(size_t oomRank);
    void decideGrowth();

    Comparison& m_c;
    const std::vector<RankInput>& m_inputs;
    const size_t m_rankCount;
    const std::vector<int> m_devices; // per rank, the device compared
    std::vector<std::vector<Live>> m_live; // per rank, sorted by site
    std::vector<Finding> m_foreign; // allocations on other ranks' GPUs
    const int m_baselineIndex; // -1: the median of the other ranks
    std::vector<std::vector<size_t>> m_groupMembers; // replica groups of rank indices
    std::vector<int64_t> m_siteModelBytes; // sites × ranks: parameters, gradients and optimizer state
    // Per rank with earlier steps: what it held at the same moment of each of them, oldest first.
    struct EarlierState
    {
        int64_t step = 0;
        int64_t atPoint = 0;
        std::unordered_map<SiteId, std::pair<int64_t, int64_t>> sites; // bytes, count
    };
    std::vector<std::vector<EarlierState>> m_earlier;
    std::vector<uint8_t> m_grows; // per rank: more at its point than at the same moment of every step before
    QFuture<CategoriesPtr> m_pendingCategories; // classifying, until measureAt() takes them
    // Per rank, its peak event and the state there, replayed while the histories are built (see measureRanks()),
    // until measureAt() takes them.
    QFuture<std::pair<EventIndex, AllocatorState>> m_peakStates;
    const ComparisonPhases* m_previous = nullptr;
    const std::optional<Moment> m_moment;
    std::shared_ptr<const TraceAlignment> m_alignment; // made once, shared with a later pass
    // The moment of the whole aligned trace where a rank holds the most beyond its baseline (scanAlignedExcess).
    struct Excess
    {
        size_t rankIndex = 0;
        EventIndex event = BeforeTrace;
        int64_t bytes = 0;
        int64_t medianPeak = 0;
    };
    std::optional<Excess> m_largestExcess;
};

bool ComparisonPhases::alignable() const
{
    const std::vector<DeviceHistoryPtr>& histories = m_c.m_histories;
    return m_rankCount > 1 && std::all_of(histories.begin(), histories.end(), [](const DeviceHistoryPtr& h) {
        return h->eventCount() > 0 && !h->snapshot().digest;
    });
}

const TraceAlignment& ComparisonPhases::alignment()
{
    if (!m_alignment)
        m_alignment = m_previous && m_previous->m_alignment
            ? m_previous->m_alignment
            : std::make_shared<const TraceAlignment>(m_c.m_histories, m_c.m_options.site);
    return *m_alignment;
}

int ComparisonPhases::baselineIndex() const
{
    for (size_t r = 0; r < m_rankCount; ++r) {
        if (m_inputs[r].rank == m_c.m_options.baselineRank)
            return int(r);
    }
    return -1;
}

std::vector<ComparisonPhases::Chosen> ComparisonPhases::choosePoints()
{
    const std::vector<DeviceHistoryPtr>& histories = m_c.m_histories;
    std::vector<Chosen> chosen(m_rankCount);
    for (size_t r = 0; r < m_rankCount; ++r) {
        Chosen& c = chosen[r];
        const DeviceHistory& h = *histories[r];
        c.spec = m_c.m_options.point.value_or(
            TimelinePoint::Spec { h.eventCount() > 0 ? TimelinePoint::Peak : TimelinePoint::Snapshot, 0 });
        const std::optional<TimelinePoint> point = h.point(c.spec);
        c.found = point.has_value();
        c.point = point ? *point : *h.point({ TimelinePoint::Snapshot, 0 });
    }
    Verdict& v = m_c.m_verdict;
    v.moment = {};
    m_c.m_alignedTo = -1;
    // Every other rank at the same moment of its own trace as `reference` at `event`; a rank whose trace runs other
    // code there stays where it is, and says so.
    const auto alignTo = [&](size_t reference, EventIndex event, const std::vector<size_t>& members,
                             const std::string& what, const std::string& otherwise) {
        // Made here, on this thread: alignment() makes it on first use, which the part pool's threads must not race.
        const TraceAlignment& placed = alignment();
        const QList<std::optional<EventIndex>> aligned =
            Parallel::mapIndices(qsizetype(members.size()), [&](qsizetype i) {
                const size_t r = members[size_t(i)];
                return r == reference ? std::optional<EventIndex>(event) : placed.align(reference, event, r);
            });
        for (size_t i = 0; i < members.size(); ++i) {
            const size_t r = members[i];
            if (const std::optional<EventIndex>& e = aligned[qsizetype(i)]) {
                if (chosen[r].point.event != *e)
                    chosen[r].point = *histories[r]->point({ TimelinePoint::Event, *e });
                chosen[r].found = true;
                chosen[r].alignedTo = m_inputs[reference].rank;
                chosen[r].note.clear();
            } else {
                chosen[r].alignedTo = -1;
                std::string note = "could not be aligned with ";
                note += what;
                note += " (its trace runs other code there); compared ";
                note += otherwise;
                chosen[r].note = std::move(note);
            }
        }
        return std::count_if(aligned.begin(), aligned.end(), [](const auto& e) { return e.has_value(); });
    };
    const auto indexOf = [&](int rank) {
        for (size_t r = 0; r < m_rankCount; ++r) {
            if (m_inputs[r].rank == rank)
                return std::optional<size_t>(r);
        }
        return std::optional<size_t>();
    };
    const bool traces = alignable();

    // A point picked on one rank (event:N@R): that rank's event, every other rank at the same moment of its own trace.
    if (const std::optional<TimelinePoint::Spec>& asked = m_c.m_options.point;
        asked && asked->kind == TimelinePoint::Event && asked->rank >= 0) {
        const std::optional<size_t> reference = indexOf(asked->rank);
        if (!reference || !chosen[*reference].found)
            return chosen;
        v.moment = { asked->rank, asked->number, Moment::Picked };
        m_c.m_alignedTo = asked->rank;
        if (traces) {
            std::vector<size_t> all(m_rankCount);
            for (size_t r = 0; r < m_rankCount; ++r)
                all[r] = r;
            alignTo(*reference, asked->number, all,
                "rank " + std::to_string(asked->rank) + "'s event " + std::to_string(asked->number),
                "at its own event " + std::to_string(asked->number));
        }
        return chosen;
    }

    // By default the rank with the highest peak is looked at there, and every other rank at the same moment of its
    // own trace: at their own peaks, ranks may be in different phases (a buffer kept from half-way moves one rank's
    // peak into another phase), and the diff would compare optimizer state with activations. With a layout, each
    // replica group on its own: stages run other code and peak at other moments.
    if (m_c.m_options.point || !traces) {
        // A rank alone at a moment chosen for it (its OOM).
        if (m_moment && m_rankCount == 1) {
            chosen[0].point = *histories[0]->point({ TimelinePoint::Event, m_moment->event });
            chosen[0].alignedTo = m_moment->rank;
            m_c.m_alignedTo = m_moment->rank;
            v.moment = *m_moment;
        }
        return chosen;
    }
    std::optional<size_t> overallTop;
    for (const std::vector<size_t>& members : m_groupMembers) {
        if (members.size() < 2)
            continue;
        size_t top = members.front();
        for (size_t r : members) {
            if (histories[r]->peakBytes() > histories[top]->peakBytes())
                top = r;
        }
        // Files of unrelated programs align nowhere: then each is simply at its own peak.
        std::vector<Chosen> before = chosen;
        if (alignTo(top, histories[top]->peakEvent(), members, "rank " + std::to_string(m_inputs[top].rank) + "'s peak",
                "at its own peak")
            < 2) {
            chosen = std::move(before);
            continue;
        }
        if (!overallTop || histories[top]->peakBytes() > histories[*overallTop]->peakBytes())
            overallTop = top;
    }
    if (overallTop) {
        m_c.m_alignedTo = m_inputs[*overallTop].rank;
        v.moment = { m_c.m_alignedTo, histories[*overallTop]->peakEvent(), Moment::HighestPeak };
    }
    // A moment chosen for the verdict (an OOM, the largest mid-step excess): its rank's replica group there.
    if (m_moment) {
        const std::optional<size_t> reference = indexOf(m_moment->rank);
        if (!reference)
            return chosen;
        for (const std::vector<size_t>& members : m_groupMembers) {
            if (std::find(members.begin(), members.end(), *reference) == members.end())
                continue;
            chosen[*reference].point = *histories[*reference]->point({ TimelinePoint::Event, m_moment->event });
            const std::string what = m_moment->reason == Moment::OutOfMemory
                ? "rank " + std::to_string(m_moment->rank) + "'s OOM"
                : "rank " + std::to_string(m_moment->rank) + "'s event " + std::to_string(m_moment->event);
            alignTo(*reference, m_moment->event, members, what, "where the highest peak is");
            // Every rank that ran out of memory at its own OOM: the state there, after the allocator released what it
            // could, is what the verdict describes.
            if (m_moment->reason == Moment::OutOfMemory) {
                for (size_t r : members) {
                    if (!histories[r]->ooms().empty())
                        chosen[r].point = *histories[r]->point({ TimelinePoint::Oom, 0 });
                }
            }
        }
        m_c.m_alignedTo = m_moment->rank;
        v.moment = *m_moment;
    }
    return chosen;
}

void ComparisonPhases::measureRanks()
{
    if (m_previous) {
        // The same ranks at another moment: what does not depend on the moment is taken as it was made. A layout
        // guessed from what the ranks hold is guessed again from what they hold there.
        const Comparison& p = m_previous->m_c;
        m_c.m_histories = p.m_histories;
        m_c.m_categories = p.m_categories;
        measureInLayout();
        return;
    }
    // With fewer ranks than cores, a rank's history is one core's work while another waits: the state at its peak,
    // nearly always the point compared, is replayed there meanwhile (the peak found by the cheap walk `info` uses).
    if (m_rankCount < size_t(Parallel::partPool()->maxThreadCount())) {
        m_peakStates = Parallel::mapIndicesLater(qsizetype(m_rankCount), [this](qsizetype r) {
            const Snapshot& s = *m_inputs[size_t(r)].snapshot;
            const int device = m_devices[size_t(r)];
            const EventIndex peak = DeviceHistory::summarize(s, device).peakEvent;
            return std::make_pair(peak, DeviceHistory::stateAt(s, device, peak));
        });
    }
    // Each rank's history and its state at its point: independent per rank, so every core takes ranks.
    const QList<DeviceHistoryPtr> histories = Parallel::mapIndices(qsizetype(m_rankCount),
        [&](qsizetype r) { return DeviceHistory::build(m_inputs[size_t(r)].snapshot, m_devices[size_t(r)]); });
    m_c.m_histories.assign(histories.begin(), histories.end());
    // Classified while the ranks are replayed to their points (measureAt takes the categories when it needs them):
    // with fewer ranks than cores, the two share them.
    m_pendingCategories = Parallel::mapIndicesLater(qsizetype(m_rankCount), [this](qsizetype r) {
        return std::make_shared<const std::vector<Category>>(
            Categories::classify(*m_c.m_histories[size_t(r)], m_c.m_options.categories));
    });
    measureInLayout();
}

void ComparisonPhases::measureInLayout()
{
    // The layout, given or guessed: ranks are looked at and compared within their replica groups. A baseline rank
    // (A/B) is every rank's baseline, whatever the layout; one that does not fit the ranks is not used (the caller
    // checks it against the files).
    const bool layoutUsable = m_baselineIndex < 0 && m_rankCount > 1;
    std::optional<ParallelLayout> layout = layoutUsable ? m_c.m_options.layout : std::nullopt;
    if (layout
        && (layout->rankCount() != int(m_rankCount)
            || std::any_of(m_inputs.begin(), m_inputs.end(),
                [&](const RankInput& in) { return in.rank < 0 || in.rank >= layout->rankCount(); })))
        layout.reset();
    setGroups(layout);
    measureAt(choosePoints());
    if (layout || !layoutUsable)
        return;
    // A guess needs what every rank holds; once made, the ranks are looked at again, each group at its own peak.
    if (std::optional<ParallelLayout> guessed = suggestLayout()) {
        setGroups(guessed);
        m_c.m_ranks.clear();
        m_c.m_states.clear();
        m_live.assign(m_rankCount, {});
        m_c.m_alignedTo = -1;
        measureAt(choosePoints());
    }
}

void ComparisonPhases::measureAt(const std::vector<Chosen>& chosen)
{
    std::vector<std::optional<AllocatorState>> replayed(m_rankCount);
    if (m_peakStates.isValid()) {
        QList<std::pair<EventIndex, AllocatorState>> peaks = m_peakStates.results();
        m_peakStates = {};
        for (size_t r = 0; r < m_rankCount; ++r) {
            if (peaks[qsizetype(r)].first == chosen[r].point.event)
                replayed[r] = std::move(peaks[qsizetype(r)].second);
        }
    }
    QList<AllocatorState> states = Parallel::mapIndices(qsizetype(m_rankCount), [&](qsizetype r) {
        std::optional<AllocatorState>& done = replayed[size_t(r)];
        return done ? std::move(*done) : m_c.m_histories[size_t(r)]->stateAt(chosen[size_t(r)].point.event);
    });
    if (m_pendingCategories.isValid()) {
        const QList<CategoriesPtr> categories = m_pendingCategories.results();
        m_c.m_categories.assign(categories.begin(), categories.end());
        m_pendingCategories = {};
    }
    for (size_t r = 0; r < m_rankCount; ++r) {
        const RankInput& in = m_inputs[r];
        const Chosen& c = chosen[r];
        const DeviceHistoryPtr& h = m_c.m_histories[r];
        RankSummary summary;
        summary.rank = in.rank;
        summary.path = in.path;
        summary.device = h->device();
        summary.point = c.point;
        summary.note = c.note;
        summary.alignedTo = c.alignedTo;
        summary.host = HostMemory::of(*in.snapshot);
        if (m_c.m_layout) {
            summary.coordinates = m_c.m_layout->coordinates(in.rank);
            summary.group = m_c.m_layout->group(in.rank);
        }
        if (!c.found) {
            summary.note = in.snapshot->digest && TimelinePoint::insideTrace(c.spec.kind)
                ? "is a digest, which keeps only the peak, the snapshot and OOMs; compared at its snapshot"
                : "has no " + m_c.pointName() + " point; compared at its snapshot";
        }
        summary.sourceEvent = summary.point.event;
        if (const std::optional<DigestInfo>& digest = in.snapshot->digest) {
            const DigestInfo::DeviceSource source = digest->sourceOf(summary.device);
            summary.sourceEvent = summary.point.kind == TimelinePoint::Peak ? source.peakEvent
                : summary.point.kind == TimelinePoint::Oom                  ? source.oomEvent
                                                                            : source.events - 1;
        }
        summary.peakAllocatedBytes = h->peakBytes();
        summary.bytesAtPoint = h->totalAfter(summary.point.event);
        summary.reservedAtPoint = h->reservedAfter(summary.point.event);
        // At the point, as the block maps show it: one figure in the table, the maps, the CLI and the reports.
        auto state = std::make_shared<const AllocatorState>(std::move(states[qsizetype(r)]));
        const DeviceStats stats = state->stats();
        summary.unallocatedBytes = stats.inactive;
        summary.largestFreeBytes = stats.largestFree;
        m_c.m_states.push_back(std::move(state));
        summary.oomEvents = int64_t(h->ooms().size());
        if (!h->ooms().empty()) {
            const OomMarker& oom = h->ooms().back();
            summary.oomRequestedBytes = oom.requestedBytes;
            summary.oomDeviceFreeBytes = oom.deviceFreeBytes;
            summary.oomEvent = EventIndex(oom.event);
            summary.oomStack = oom.stack;
        }
        summary.traceIncomplete = h->traceIncomplete();
        m_c.m_ranks.push_back(summary);

        const std::span<const Allocation> allocations = h->allocations();
        for (uint32_t i : h->liveSet(summary.point.event)) {
            m_live[r].push_back({ m_c.m_sites.site(*in.snapshot, allocations[i].stack), i });
            m_c.m_ranks.back().categoryBytes[size_t((*m_c.m_categories[r])[i])] += allocations[i].size;
        }
        std::sort(m_live[r].begin(), m_live[r].end(), [](const Live& a, const Live& b) { return a.site < b.site; });
    }
}

void ComparisonPhases::measureForeign()
{
    // What a rank holds on another rank's GPU, at the most it holds there: all of it is memory that GPU's owner
    // does not see in its own file.
    for (size_t r = 0; r < m_rankCount; ++r) {
        const RankInput& in = m_inputs[r];
        for (int device : m_c.m_roles.ranks[r].foreign) {
            const DeviceHistoryPtr h = DeviceHistory::build(in.snapshot, device);
            const std::vector<Category> categories = Categories::classify(*h, m_c.m_options.categories);
            std::unordered_map<SiteId, Finding> bySite;
            std::unordered_map<SiteId, CategoryBytes> siteCategories;
            for (uint32_t i : h->liveSet(h->peakEvent())) {
                const Allocation& a = h->allocations()[i];
                const SiteId site = m_c.m_sites.site(*in.snapshot, a.stack);
                siteCategories[site][size_t(categories[i])] += a.size;
                Finding& f = bySite[site];
                if (f.rankCount == 0) {
                    f.rank = in.rank;
                    f.device = device;
                    f.kind = Finding::ForeignDevice;
                    f.site = site;
                    f.stack = a.stack;
                }
                f.rankBytes += a.size;
                f.excessBytes += a.size;
                ++f.rankCount;
                f.blocks.push_back({ a.addr, a.size, 0 });
            }
            for (auto& [site, f] : bySite) {
                const CategoryBytes& c = siteCategories[site];
                f.category = Category(std::max_element(c.begin(), c.end()) - c.begin());
                std::sort(f.blocks.begin(), f.blocks.end(),
                    [](const FindingRun& x, const FindingRun& y) { return x.address < y.address; });
                f.runs = f.blocks;
                m_foreign.push_back(std::move(f));
            }
        }
    }
}

void ComparisonPhases::measureGrowth()
{
    // Each earlier step of a rank at the moment of its trace where this step's point is (the same code: the
    // alignment that lines up ranks lines up steps), else at its own peak.
    m_earlier.assign(m_rankCount, {});
    m_grows.assign(m_rankCount, 0);
    struct Looked
    {
        DeviceHistoryPtr history;
        std::vector<uint32_t> live;
    };
    const QList<std::vector<Looked>> looked = Parallel::mapIndices(qsizetype(m_rankCount), [&](qsizetype index) {
        const size_t r = size_t(index);
        std::vector<Looked> out;
        const DeviceHistoryPtr& now = m_c.m_histories[r];
        const TimelinePoint& point = m_c.m_ranks[r].point;
        for (const RankInput::EarlierStep& step : m_inputs[r].earlier) {
            Looked l;
            l.history = DeviceHistory::build(step.snapshot, m_devices[r]);
            std::optional<EventIndex> at;
            if (point.kind != TimelinePoint::Snapshot && now->eventCount() > 0 && l.history->eventCount() > 0
                && !now->snapshot().digest && !step.snapshot->digest) {
                const std::vector<DeviceHistoryPtr> pair = { l.history, now };
                at = TraceAlignment(pair, m_c.m_options.site).align(1, point.event, 0);
            }
            if (!at) {
                at = point.kind == TimelinePoint::Snapshot || l.history->eventCount() == 0
                    ? l.history->point({ TimelinePoint::Snapshot, 0 })->event
                    : l.history->peakEvent();
            }
            l.live = l.history->liveSet(*at);
            out.push_back(std::move(l));
        }
        return out;
    });
    for (size_t r = 0; r < m_rankCount; ++r) {
        const RankInput& in = m_inputs[r];
        RankSummary& summary = m_c.m_ranks[r];
        for (size_t k = 0; k < in.earlier.size(); ++k) {
            const Looked& l = looked[qsizetype(r)][k];
            EarlierState state;
            state.step = in.earlier[k].step;
            for (uint32_t i : l.live) {
                const Allocation& a = l.history->allocations()[i];
                auto& [bytes, count] = state.sites[m_c.m_sites.site(*in.earlier[k].snapshot, a.stack)];
                bytes += a.size;
                ++count;
                state.atPoint += a.size;
            }
            summary.peakPerStep.push_back({ state.step, l.history->peakBytes() });
            m_earlier[r].push_back(std::move(state));
        }
        if (m_earlier[r].empty())
            continue;
        summary.peakPerStep.push_back({ in.step, summary.peakAllocatedBytes });
        summary.growthBytes = summary.bytesAtPoint - m_earlier[r].back().atPoint;
        bool grows = summary.growthBytes > 0;
        for (size_t k = 1; k < m_earlier[r].size(); ++k)
            grows = grows && m_earlier[r][k].atPoint > m_earlier[r][k - 1].atPoint;
        // A slow leak is small from one step to the next: what counts is how much it adds up to over the steps.
        m_grows[r] = grows
            && beyondThreshold(summary.bytesAtPoint - m_earlier[r].front().atPoint, m_earlier[r].front().atPoint,
                m_c.m_options.thresholdPercent);
    }
}

void ComparisonPhases::findGrowth()
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

void ComparisonPhases::totalSites()
{
    const size_t sites = m_c.m_sites.size();
    m_c.m_siteBytes.assign(sites * m_rankCount, 0);
    m_c.m_siteCount.assign(sites * m_rankCount, 0);
    m_siteModelBytes.assign(sites * m_rankCount, 0);
    for (size_t r = 0; r < m_rankCount; ++r) {
        const std::span<const Allocation> allocations = m_c.m_histories[r]->allocations();
        for (const Live& l : m_live[r]) {
            m_c.m_siteBytes[l.site * m_rankCount + r] += allocations[l.allocation].size;
            ++m_c.m_siteCount[l.site * m_rankCount + r];
            if (isModelState((*m_c.m_categories[r])[l.allocation]))
                m_siteModelBytes[l.site * m_rankCount + r] += allocations[l.allocation].size;
        }
    }
}

void ComparisonPhases::findExcess()
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

void ComparisonPhases::findExcessAt(SiteId s, size_t r, const int64_t* b, const int64_t* n,
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

std::vector<uint32_t> ComparisonPhases::chosenBlocks(const Finding& f, size_t r) const
{
    auto first = std::lower_bound(
        m_live[r].begin(), m_live[r].end(), f.site, [](const Live& l, SiteId site) { return l.site < site; });
    std::vector<uint32_t> chosen;
    for (auto it = first; it != m_live[r].end() && it->site == f.site; ++it)
        chosen.push_back(it->allocation);
    return chosen;
}

void ComparisonPhases::placeBlocks(Finding& f, size_t r, const std::vector<uint32_t>& siteBlocks)
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

void ComparisonPhases::totalRanks()
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

void ComparisonPhases::mapSites()
{
    // Every stack a rank allocates at or fails to allocate at gets its site, for what is asked of any moment (what
    // fills a GPU, what-if peaks), not only of the point compared. Sites found now come after those of the point, so
    // the findings' sites and their order are what they are without them.
    m_c.m_stackSites.resize(m_rankCount);
    for (size_t r = 0; r < m_rankCount; ++r) {
        const Snapshot& snapshot = *m_inputs[r].snapshot;
        const DeviceHistory& h = *m_c.m_histories[r];
        StackSites& sites = m_c.m_stackSites[r];
        sites.assign(snapshot.stacks.size(), NoSite);
        const auto map = [&](StackId stack) {
            if (sites[stack] == NoSite)
                sites[stack] = m_c.m_sites.site(snapshot, stack);
        };
        for (const Allocation& a : h.allocations())
            map(a.stack);
        for (const OomMarker& oom : h.ooms())
            map(oom.stack);
        RankSummary& summary = m_c.m_ranks[r];
        if (summary.oomEvents > 0)
            summary.oomSite = sites[summary.oomStack];
    }
    // Labels are told apart among the sites the comparison speaks of: those live at a rank's point or its last OOM,
    // and the failed requests'. A digest keeps exactly those allocations, so it labels them as its file does.
    std::vector<bool> named(m_c.m_sites.size(), false);
    for (size_t r = 0; r < m_rankCount; ++r) {
        const DeviceHistory& h = *m_c.m_histories[r];
        const StackSites& sites = m_c.m_stackSites[r];
        const EventIndex point = m_c.m_ranks[r].point.event;
        const std::optional<EventIndex> oom =
            h.ooms().empty() ? std::nullopt : std::optional<EventIndex>(h.ooms().back().event);
        for (const Allocation& a : h.allocations()) {
            if (a.liveAfter(point) || (oom && a.liveAfter(*oom)))
                named[sites[a.stack]] = true;
        }
        if (oom)
            named[sites[h.ooms().back().stack]] = true;
    }
    m_c.m_sites.nameSites(std::move(named));
    const size_t cells = m_c.m_sites.size() * m_rankCount;
    m_c.m_siteBytes.resize(cells, 0);
    m_c.m_siteCount.resize(cells, 0);
    m_siteModelBytes.resize(cells, 0);
}

void ComparisonPhases::scanAlignedExcess()
{
    // Peaks can be alike while one rank holds far more mid-step (its longer sequences' activations, work it frees
    // again before the peak). The traces of each replica group are cut into stretches at moments aligned with its
    // top rank's trace; in each stretch every rank's highest total is weighed against the others', so a burst
    // between two moments is not missed and a moment placed a few events off changes nothing.
    if (!alignable())
        return;
    const std::vector<DeviceHistoryPtr>& histories = m_c.m_histories;
    const TraceAlignment& aligned = alignment();
    constexpr EventIndex Unknown = -2;
    for (const std::vector<size_t>& members : m_groupMembers) {
        if (members.size() < 2)
            continue;
        size_t top = members.front();
        for (size_t r : members) {
            if (histories[r]->peakBytes() > histories[top]->peakBytes())
                top = r;
        }
        const EventIndex n = EventIndex(histories[top]->eventCount());
        const EventIndex stretches = std::min<EventIndex>(n, 512);
        // Each member's highest total in each stretch and where (-1: the stretch could not be placed in its trace).
        using Highest = std::vector<std::pair<int64_t, EventIndex>>;
        const QList<Highest> highest = Parallel::mapIndices(qsizetype(members.size()), [&](qsizetype i) {
            const size_t r = members[size_t(i)];
            const DeviceHistory& h = *histories[r];
            // Where the stretches start in this trace; the traces end together (every rank dumps its snapshot at the
            // same point of the code). Only starts that keep the order.
            std::vector<EventIndex> starts(size_t(stretches) + 1, Unknown);
            EventIndex last = -1;
            for (EventIndex k = 0; k < stretches; ++k) {
                const EventIndex e = n * k / stretches;
                const EventIndex at = r == top ? e : aligned.align(top, e, r).value_or(Unknown);
                if (at != Unknown && at >= last)
                    starts[size_t(k)] = last = at;
            }
            starts.back() = EventIndex(h.eventCount());
            Highest out(size_t(stretches), { -1, BeforeTrace });
            for (size_t k = 0; k < size_t(stretches); ++k) {
                if (starts[k] == Unknown || starts[k + 1] == Unknown)
                    continue;
                const EventIndex to = std::max(starts[k + 1], starts[k] + 1);
                std::pair<int64_t, EventIndex> best { h.totalAfter(starts[k]), starts[k] };
                for (EventIndex e = starts[k] + 1; e < to; ++e) {
                    if (const int64_t total = h.totalAfter(e); total > best.first)
                        best = { total, e };
                }
                out[k] = best;
            }
            return out;
        });
        std::vector<int64_t> peaks;
        peaks.reserve(members.size());
        for (size_t r : members)
            peaks.push_back(m_c.m_ranks[r].peakAllocatedBytes);
        const int64_t medianPeak = medianOf(std::move(peaks));
        const auto baseline = std::find(members.begin(), members.end(), size_t(std::max(m_baselineIndex, 0)));
        std::vector<int64_t> values;
        for (size_t k = 0; k < size_t(stretches); ++k) {
            values.clear();
            for (const Highest& h : highest) {
                if (h[k].first >= 0)
                    values.push_back(h[k].first);
            }
            if (values.size() < 2)
                continue;
            std::sort(values.begin(), values.end());
            for (size_t i = 0; i < members.size(); ++i) {
                const auto [own, event] = highest[qsizetype(i)][k];
                if (own < 0 || int(members[i]) == m_baselineIndex)
                    continue;
                int64_t base = medianWithout(values, own);
                if (m_baselineIndex >= 0) {
                    if (baseline == members.end() || highest[qsizetype(baseline - members.begin())][k].first < 0)
                        continue;
                    base = highest[qsizetype(baseline - members.begin())][k].first;
                }
                RankSummary& rank = m_c.m_ranks[members[i]];
                if (own - base > rank.alignedExcessBytes) {
                    rank.alignedExcessBytes = own - base;
                    rank.alignedExcessEvent = event;
                }
                if (!m_largestExcess || own - base > m_largestExcess->bytes)
                    m_largestExcess = Excess { members[i], event, own - base, medianPeak };
            }
        }
    }
}

std::optional<Moment> ComparisonPhases::betterMoment() const
{
    const Verdict& v = m_c.m_verdict;
    if (m_c.m_options.point || m_moment || m_rankCount == 0)
        return std::nullopt;
    // The state a verdict about an out-of-memory describes is at the OOM, not at the peak.
    if (aboutOutOfMemory(v.kind) && v.figuresRank >= 0) {
        const RankSummary& r = m_c.m_ranks[size_t(m_c.rankIndex(v.figuresRank))];
        if (r.oomEvents > 0 && r.point.event != r.oomEvent && (m_rankCount == 1 || alignable()))
            return Moment { r.rank, r.oomEvent, Moment::OutOfMemory };
        return std::nullopt;
    }
    // Alike at the peak, but one rank holds more than the threshold of the ranks' peaks beyond its baseline
    // mid-step: weighed against the peaks, ordinary batch-to-batch wobble of a small total never counts.
    if (v.kind == Verdict::Balanced && m_largestExcess
        && beyondThreshold(m_largestExcess->bytes, m_largestExcess->medianPeak, v.thresholdPercent))
        return Moment { m_inputs[m_largestExcess->rankIndex].rank, m_largestExcess->event, Moment::MidStep };
    return std::nullopt;
}

void ComparisonPhases::keepFromPeak(const Comparison& peak)
{
    for (size_t r = 0; r < m_rankCount; ++r) {
        m_c.m_ranks[r].alignedExcessBytes = peak.m_ranks[r].alignedExcessBytes;
        m_c.m_ranks[r].alignedExcessEvent = peak.m_ranks[r].alignedExcessEvent;
    }
    const Verdict& p = peak.m_verdict;
    Verdict& v = m_c.m_verdict;
    v.peakOutlierRank = p.outlierRank;
    v.peakOutlierExcessBytes = std::max<int64_t>(0, p.outlierExcessBytes);
    if (const int top = peak.rankIndex(p.moment.rank); top >= 0) {
        const CategoryBytes& c = peak.m_ranks[size_t(top)].categoryBytes;
        v.peakCategory = Category(std::max_element(c.begin(), c.end()) - c.begin());
    }
}

void ComparisonPhases::setGroups(const std::optional<ParallelLayout>& layout)
{
    m_c.m_layout = layout;
    m_c.m_groups.clear();
    if (!layout) {
        m_groupMembers.assign(1, {});
        for (size_t r = 0; r < m_rankCount; ++r)
            m_groupMembers[0].push_back(r);
        m_c.m_groups.push_back({ "all", {}, 0, {} });
        for (const RankInput& in : m_inputs)
            m_c.m_groups[0].ranks.push_back(in.rank);
        return;
    }
    m_groupMembers.assign(size_t(layout->groupCount()), {});
    m_c.m_groups.resize(m_groupMembers.size());
    for (size_t g = 0; g < m_groupMembers.size(); ++g)
        m_c.m_groups[g].name = layout->groupName(int(g));
    for (size_t r = 0; r < m_rankCount; ++r) {
        const auto g = size_t(layout->group(m_inputs[r].rank));
        m_groupMembers[g].push_back(r);
        m_c.m_groups[g].ranks.push_back(m_inputs[r].rank);
    }
}

std::optional<ParallelLayout> ComparisonPhases::suggestLayout() const
{
    // Ranks that run different parts of the model hold activations or model state at different sites, or
    // different amounts of model state. Work outside the training step (evaluation, metrics) never counts: it is
    // what an imbalance looks like, not a layout.
    std::vector<std::pair<int, size_t>> byRank; // (rank, index)
    for (size_t r = 0; r < m_rankCount; ++r)
        byRank.push_back({ m_inputs[r].rank, r });
    std::sort(byRank.begin(), byRank.end());
    for (size_t i = 0; i < byRank.size(); ++i) {
        if (byRank[i].first != int(i))
            return std::nullopt; // ranks 0 … N-1 only
    }
    std::vector<int64_t> model(m_rankCount, 0);
    std::vector<std::vector<SiteId>> sites(m_rankCount);
    for (size_t r = 0; r < m_rankCount; ++r) {
        model[r] = modelStateBytes(m_c.m_ranks[r].categoryBytes);
        // Per site, its activations and model state; a site counts when they are more than the threshold of what
        // the rank holds (a trace cut by an OOM can tell a small temporary from an activation no better than a
        // guess, and a layout is never made of such doubts).
        std::vector<std::pair<SiteId, int64_t>> held;
        const std::span<const Allocation> allocations = m_c.m_histories[r]->allocations();
        for (const Live& l : m_live[r]) {
            const Category category = (*m_c.m_categories[r])[l.allocation];
            if (!isModelState(category) && category != Category::Activation)
                continue;
            if (held.empty() || held.back().first != l.site)
                held.push_back({ l.site, 0 });
            held.back().second += allocations[l.allocation].size;
        }
        for (const auto& [site, bytes] : held) {
            if (beyondThreshold(bytes, m_c.m_ranks[r].bytesAtPoint, m_c.m_options.thresholdPercent))
                sites[r].push_back(site);
        }
    }
    // Model state in clusters: sorted, a new cluster wherever the next rank holds more than the threshold above.
    std::vector<size_t> order(m_rankCount);
    for (size_t r = 0; r < m_rankCount; ++r)
        order[r] = r;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return model[a] < model[b]; });
    std::vector<int> cluster(m_rankCount, 0);
    for (size_t i = 1; i < order.size(); ++i) {
        const int64_t step = model[order[i]] - model[order[i - 1]];
        cluster[order[i]] = cluster[order[i - 1]]
            + (beyondThreshold(step, model[order[i - 1]], m_c.m_options.thresholdPercent) ? 1 : 0);
    }
    // Group number per rank, in rank order of first appearance.
    std::vector<int> group(m_rankCount, -1);
    std::vector<size_t> firstOf;
    for (const auto& [rank, r] : byRank) {
        for (size_t g = 0; g < firstOf.size(); ++g) {
            if (cluster[firstOf[g]] == cluster[r] && sites[firstOf[g]] == sites[r]) {
                group[size_t(rank)] = int(g);
                break;
            }
        }
        if (group[size_t(rank)] < 0) {
            group[size_t(rank)] = int(firstOf.size());
            firstOf.push_back(r);
        }
    }
    const size_t k = firstOf.size();
    const size_t n = m_rankCount;
    if (k < 2 || n % k != 0 || n / k < 2)
        return std::nullopt;
    const int size = int(n / k);
    bool contiguous = true, strided = true;
    for (size_t rank = 0; rank < n; ++rank) {
        contiguous = contiguous && group[rank] == int(rank) / size;
        strided = strided && group[rank] == int(rank % k);
    }
    // Contiguous groups are pipeline stages (Megatron and torchtitan put pp outermost); groups that alternate are
    // the fastest dimension, tensor parallelism.
    std::string text = contiguous ? "pp=" + std::to_string(k) + ",dp=" + std::to_string(size)
        : strided                 ? "dp=" + std::to_string(size) + ",tp=" + std::to_string(k)
                                  : std::string();
    if (text.empty())
        return std::nullopt;
    std::optional<ParallelLayout> layout = ParallelLayout::parse(text, nullptr);
    layout->suggested = true;
    return layout;
}

void ComparisonPhases::compareGroups()
{
    for (size_t g = 0; g < m_groupMembers.size(); ++g) {
        GroupSummary& summary = m_c.m_groups[g];
        std::vector<int64_t> totals;
        for (size_t r : m_groupMembers[g])
            totals.push_back(m_c.m_ranks[r].bytesAtPoint);
        summary.bytesAtPoint = medianOf(totals);
        for (size_t c = 0; c < size_t(CategoryCount); ++c) {
            std::vector<int64_t> values;
            for (size_t r : m_groupMembers[g])
                values.push_back(m_c.m_ranks[r].categoryBytes[c]);
            summary.categoryBytes[c] = medianOf(values);
        }
    }
    Verdict& v = m_c.m_verdict;
    if (m_c.m_layout) {
        v.layout = m_c.m_layout->text();
        v.layoutSuggested = m_c.m_layout->suggested;
    }
    if (m_c.m_groups.size() < 2)
        return;
    // The group holding the most beyond the others, and what that is made of.
    const auto [heavy, heavyExcess] = heaviestGroup(m_c.m_groups, [](const GroupSummary& g) { return g.bytesAtPoint; });
    const CategoryBytes diff = groupExcessByCategory(m_c.m_groups, heavy);
    if (beyondThreshold(heavyExcess, m_c.m_groups[heavy].bytesAtPoint - heavyExcess, m_c.m_options.thresholdPercent)) {
        v.heavierGroup = m_c.m_groups[heavy].name;
        v.groupExcessBytes = heavyExcess;
        v.groupExcessCategory = Category(std::max_element(diff.begin(), diff.end()) - diff.begin());
    }
}

bool ComparisonPhases::decideModelParallel()
{
    // Parameters, gradients and optimizer state that differ between stages or shards: the split is uneven. (More
    // activations on one stage are 1F1B's in-flight micro-batches: by design.)
    const std::vector<GroupSummary>& groups = m_c.m_groups;
    if (groups.size() < 2)
        return false;
    const auto [heavy, excess] = heaviestGroup(groups, [](const GroupSummary& g) { return g.modelStateBytes(); });
    const int64_t base = othersMedian(groups, heavy, [](const GroupSummary& g) { return g.bytesAtPoint; });
    if (!beyondThreshold(excess, base, m_c.m_options.thresholdPercent))
        return false;
    Verdict& v = m_c.m_verdict;
    v.kind = Verdict::ModelParallelImbalance;
    v.group = groups[heavy].name;
    v.groupRanks = groups[heavy].ranks;
    v.excessBytes = excess;
    v.baselineBytes = base;
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
    return true;
}

void ComparisonPhases::decideVerdict()
{
    // The rank holding the most, whether that is beyond the threshold, and what its excess is made of.
    Verdict& v = m_c.m_verdict;
    v.rankCount = int(m_rankCount);
    v.point = m_c.pointName();
    v.thresholdPercent = m_c.m_options.thresholdPercent;
    v.baselineRank = m_baselineIndex >= 0 ? m_c.m_options.baselineRank : -1;
    if (m_rankCount < 2) {
        v.kind = Verdict::Balanced;
        // A rank alone that ran out of memory is over capacity, or held memory outside (as its device's total shows),
        // or was fragmented: what its own file tells.
        if (m_rankCount == 1 && !decideOutOfMemory()) {
            summarizeOneRank();
            decideGrowth(); // one rank's steps still tell whether it keeps tensors across them
        }
        return;
    }
    size_t outlier = 0;
    for (size_t r = 0; r < m_rankCount; ++r) {
        if (int(r) != m_baselineIndex
            && (int(outlier) == m_baselineIndex || m_c.m_ranks[r].excessBytes > m_c.m_ranks[outlier].excessBytes))
            outlier = r;
    }
    const RankSummary& o = m_c.m_ranks[outlier];
    v.outlierRank = o.rank;
    v.outlierExcessBytes = o.excessBytes;
    v.baselineBytes = o.bytesAtPoint - o.excessBytes;
    const bool beyond = beyondThreshold(o.excessBytes, v.baselineBytes, v.thresholdPercent);
    if (beyond) {
        decideImbalance(o);
        decideGroup(o);
    } else if (!decideModelParallel() && !decideOutOfMemory()) {
        v.kind = Verdict::Balanced;
        v.rank = o.rank;
        v.excessBytes = o.excessBytes;
    }
    decideGrowth();
    decideStray();
    nameFailedRequest();
}

void ComparisonPhases::nameFailedRequest()
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
}

void ComparisonPhases::decideImbalance(const RankSummary& o)
{
    Verdict& v = m_c.m_verdict;
    int64_t sharedModelState = 0;
    for (const Finding& f : m_c.m_findings) {
        if (f.rank != o.rank || f.kind == Finding::ForeignDevice || f.kind == Finding::Growth)
            continue;
        (f.kind == Finding::OnlyOnRank ? v.onlyBytes
                : f.baselineCount == 0 ? v.absentBytes
                                       : v.sharedBytes) += f.excessBytes;
        v.excessByCategory[size_t(f.category)] += f.excessBytes;
        if (f.kind != Finding::OnlyOnRank && f.baselineCount > 0 && isModelState(f.category))
            sharedModelState += f.excessBytes;
        if (v.topSites.size() < 3)
            v.topSites.push_back({ m_c.m_sites.label(f.site), f.excessBytes, int(f.kind) });
    }
    // Work the baseline does not do at all is a burden, whether one rank or several do it. Larger tensors at shared
    // sites are input, unless they are model state: replicas hold the same parameters whatever their batches, so
    // ranks compared without a layout that differ there are shards of an uneven split.
    v.kind = v.onlyBytes + v.absentBytes >= v.sharedBytes ? Verdict::BurdenImbalance : Verdict::InputImbalance;
    if (v.kind == Verdict::InputImbalance && !m_c.m_layout && sharedModelState * 2 >= v.sharedBytes)
        v.kind = Verdict::ModelParallelImbalance;
    v.rank = o.rank;
    v.excessBytes = o.excessBytes;
    v.device = m_c.namesDevices() ? o.device : -1;
}

void ComparisonPhases::decideGroup(const RankSummary& o)
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

bool ComparisonPhases::decideOutOfMemory()
{
    // Allocations agree (no rank stands out), yet ranks ran out of memory. The one examined is the one that did most
    // often (the first of them); every rank that did is named.
    std::vector<size_t> oomRanks;
    for (size_t r = 0; r < m_rankCount; ++r) {
        if (m_c.m_ranks[r].oomEvents > 0)
            oomRanks.push_back(r);
    }
    if (oomRanks.empty())
        return false;
    size_t examined = oomRanks.front();
    for (size_t r : oomRanks) {
        if (m_c.m_ranks[r].oomEvents > m_c.m_ranks[examined].oomEvents)
            examined = r;
    }
    Verdict& v = m_c.m_verdict;
    const RankSummary& s = m_c.m_ranks[examined];
    const DeviceHistory& h = *m_c.m_histories[examined];
    const OomMarker& oom = h.ooms().back();
    for (size_t r : oomRanks)
        v.oomRanks.push_back(m_c.m_ranks[r].rank);
    std::sort(v.oomRanks.begin(), v.oomRanks.end());
    v.figuresRank = s.rank;
    // Several alike: none of them is the one to blame.
    v.rank = oomRanks.size() == 1 ? s.rank : -1;
    v.excessBytes = s.excessBytes;
    v.oomRequestedBytes = oom.requestedBytes;
    v.oomReservedBytes = h.reservedAfter(oom.event);
    v.oomDeviceFreeBytes = oom.deviceFreeBytes;
    v.oomSite = requestLabel(m_c.m_sites, s.oomSite);
    v.deviceSeenBytes = std::max(v.oomReservedBytes + v.oomDeviceFreeBytes, h.peakReservedBytes());
    if (const int64_t total = m_c.m_options.deviceMemoryBytes; total > 0) {
        v.deviceMemoryBytes = total;
        v.outsideBytes = std::max<int64_t>(0, total - v.oomReservedBytes - v.oomDeviceFreeBytes);
    }
    v.device = m_c.namesDevices() ? s.device : -1;
    findSuspects(examined);
    // Before an OOM the allocator releases its entirely free segments and retries; what is still free is split
    // between live blocks. Enough of it for the request, in no single block large enough: fragmentation.
    const FreeSpace free = h.stateAt(EventIndex(oom.event)).freeInUsedSegments();
    v.freeInReserveBytes = free.bytes;
    v.largestFreeBytes = free.largest;
    v.fragmentedSegments = int(free.segments.size());
    if (free.bytes >= oom.requestedBytes && free.largest < oom.requestedBytes) {
        v.kind = Verdict::Fragmentation;
        v.expandableSegments = usesExpandableSegments(*m_inputs[examined].snapshot);
        return true;
    }
    // Replicas that do the same work and did not run out of memory: where they went on past the allocation that
    // failed here (at its site, as large, after the same moment of their traces), the same work fit there, so
    // something else holds this GPU. A replica whose trace ends before it never asked: it tells nothing. (Ranks of
    // other stages or shards run other work and tell nothing of this either.)
    for (const std::vector<size_t>& members : m_groupMembers) {
        if (std::find(members.begin(), members.end(), examined) == members.end())
            continue;
        for (size_t r : members) {
            if (m_c.m_ranks[r].oomEvents > 0)
                continue;
            (passedRequest(examined, oom, r) ? v.fittingRanks : v.unreachedRanks).push_back(m_c.m_ranks[r].rank);
        }
    }
    std::sort(v.fittingRanks.begin(), v.fittingRanks.end());
    std::sort(v.unreachedRanks.begin(), v.unreachedRanks.end());
    if (!v.fittingRanks.empty()) {
        v.kind = Verdict::OutsideAllocator;
        v.evidence = Verdict::ReplicasFit;
        return true;
    }
    // The device's total, when given, shows what is neither PyTorch's reserve nor free: beyond what a CUDA context
    // and NCCL take, something else holds it.
    if (v.deviceMemoryBytes > 0 && v.outsideBytes > Verdict::contextAllowanceBytes) {
        v.kind = Verdict::OutsideAllocator;
        v.evidence = Verdict::DeviceTotal;
        return true;
    }
    v.kind = Verdict::OverCapacity;
    decideOverCapacity(examined, oom, free);
    return true;
}

bool ComparisonPhases::passedRequest(size_t oomRank, const OomMarker& oom, size_t r)
{
    // Digests keep too little of a trace to place a moment in it: they cannot show it.
    if (!alignable())
        return false;
    const std::optional<EventIndex> there = alignment().align(oomRank, EventIndex(oom.event), r);
    if (!there)
        return false;
    const SiteId site = m_c.m_stackSites[oomRank][oom.stack];
    const StackSites& sites = m_c.m_stackSites[r];
    const std::span<const TraceEntry> events = m_c.m_histories[r]->events();
    for (size_t e = size_t(*there) + 1; e < events.size(); ++e) {
        const TraceEntry& t = events[e];
        if (t.action() == TraceAction::Alloc && sites[t.stack] == site
            && !beyondThreshold(oom.requestedBytes - t.size, t.size, m_c.m_options.thresholdPercent))
            return true;
    }
    return false;
}

void ComparisonPhases::decideOverCapacity(size_t examined, const OomMarker& oom, const FreeSpace& free)
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
    // Free space between live blocks worth a twentieth of the reserve, or half the request.
    if (free.bytes > 0 && (free.bytes * 20 >= v.oomReservedBytes || free.bytes * 2 >= oom.requestedBytes))
        v.remedies.push_back({ Verdict::Remedy::Defragment, free.bytes, 0, 0, {} });
    std::stable_sort(v.remedies.begin(), v.remedies.end(),
        [](const Verdict::Remedy& a, const Verdict::Remedy& b) { return a.bytes > b.bytes; });
    m_c.m_holdings = std::move(holdings);
}

void ComparisonPhases::decideGrowth()
{
    // A rank that holds more at every step than at the same moment of the step before keeps tensors across steps:
    // the verdict when ranks are otherwise alike, or when that growth is what puts the outlier above the others.
    Verdict& v = m_c.m_verdict;
    // A rank grows when its total does at every step and sites that grow at every step carry most of it (ranks
    // that all hold more activations at a step of longer batches do not).
    for (size_t r = 0; r < m_rankCount; ++r) {
        int64_t atGrowingSites = 0;
        for (const Finding& f : m_c.m_findings)
            atGrowingSites += f.kind == Finding::Growth && f.rank == m_inputs[r].rank ? f.excessBytes : 0;
        m_grows[r] = m_grows[r] && atGrowingSites * 2 >= m_c.m_ranks[r].growthBytes;
    }
    size_t chosen = m_rankCount;
    if (v.kind == Verdict::BurdenImbalance || v.kind == Verdict::InputImbalance) {
        // The outlier's excess is mostly at sites that grow at every step: growth, even where its growth over the
        // steps is under the threshold (its finding says so; the verdict must not say otherwise).
        const int index = m_c.rankIndex(v.rank);
        if (index < 0)
            return;
        std::unordered_set<SiteId> growing;
        for (const Finding& g : m_c.m_findings) {
            if (g.kind == Finding::Growth && g.rank == v.rank)
                growing.insert(g.site);
        }
        int64_t atGrowingSites = 0;
        for (const Finding& f : m_c.m_findings) {
            if (f.rank == v.rank && f.kind != Finding::Growth && f.kind != Finding::ForeignDevice
                && growing.count(f.site))
                atGrowingSites += f.excessBytes;
        }
        if (growing.empty() || atGrowingSites * 2 < v.excessBytes)
            return;
        chosen = size_t(index);
        v.growthUnderThreshold = !m_grows[chosen];
        m_grows[chosen] = 1;
    } else if (v.kind == Verdict::Balanced) {
        for (size_t r = 0; r < m_rankCount; ++r) {
            if (m_grows[r] && (chosen == m_rankCount || m_c.m_ranks[r].growthBytes > m_c.m_ranks[chosen].growthBytes))
                chosen = r;
        }
        if (chosen == m_rankCount)
            return;
    } else {
        return;
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

void ComparisonPhases::summarizeOneRank()
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

void ComparisonPhases::findSuspects(size_t oomRank)
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

void ComparisonPhases::decideStray()
{
    // Other ranks' memory on one rank's GPU: the culprits' own files hold the allocations and their stacks, which
    // the GPU's owner cannot see. It decides the verdict when it is beyond the threshold on that GPU and the owner
    // ran out of memory, or nothing on any rank's own device stands out more.
    std::map<int, int64_t> strayBytes; // device → bytes
    for (const Finding& f : m_c.m_findings) {
        if (f.kind == Finding::ForeignDevice)
            strayBytes[f.device] += f.excessBytes;
    }
    Verdict& v = m_c.m_verdict;
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
        const bool beyond = beyondThreshold(bytes, victim->bytesAtPoint, v.thresholdPercent);
        const bool imbalance = v.kind == Verdict::BurdenImbalance || v.kind == Verdict::InputImbalance
            || v.kind == Verdict::ModelParallelImbalance;
        // Where the GPU's rank ran out of memory, the others' memory there is the cause only if without it the
        // request would have fit; else it stays a suspect of the out-of-memory verdict.
        const bool enough = victim->oomEvents == 0 || bytes + victim->oomDeviceFreeBytes >= victim->oomRequestedBytes;
        const bool decides =
            (victim->oomEvents > 0 && enough) || (victim->oomEvents == 0 && (!imbalance || bytes > v.excessBytes));
        if (!beyond || !decides || (v.kind == Verdict::StrayDevice && bytes <= v.excessBytes))
            continue;
        v.kind = Verdict::StrayDevice;
        v.suspects.clear(); // the culprits are the answer now, not suspects
        v.rank = victim->rank;
        v.device = device;
        v.excessBytes = bytes;
        v.baselineBytes = victim->bytesAtPoint;
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
}

namespace {

// How much a device's verdict matters: an imbalance by its excess, then running out of memory, then the device
// holding the most.
std::pair<int, int64_t> severity(const Comparison& c)
{
    const Verdict& v = c.verdict();
    switch (v.kind) {
    case Verdict::BurdenImbalance:
    case Verdict::InputImbalance:
    case Verdict::StrayDevice:
    case Verdict::ModelParallelImbalance:
    case Verdict::Growth:
        return { 2, v.excessBytes };
    case Verdict::OutsideAllocator:
    case Verdict::OverCapacity:
    case Verdict::Fragmentation:
        return { 1, v.oomRequestedBytes };
    case Verdict::Balanced:
        break;
    }
    int64_t total = 0;
    for (const RankSummary& r : c.ranks())
        total += r.bytesAtPoint;
    return { 0, total };
}

} // namespace

namespace {

// Each setting that ranks record with more than one value: the ranks whose value is not the most common one. The
// environment variable's text is left out (its parsed fields are compared, under either of its names).
std::vector<Verdict::SettingDifference> settingDifferences(const std::vector<RankInput>& inputs)
{
    std::map<std::string, std::vector<std::pair<int, std::string>>> byKey;
    for (const RankInput& in : inputs) {
        const Snapshot& s = *in.snapshot;
        for (const auto& [key, value] : s.allocatorSettings) {
            const std::string_view k = s.strings.view(key);
            if (k != "PYTORCH_CUDA_ALLOC_CONF" && k != "PYTORCH_ALLOC_CONF")
                byKey[std::string(k)].emplace_back(in.rank, std::string(s.strings.view(value)));
        }
    }
    std::vector<Verdict::SettingDifference> out;
    for (const auto& [key, values] : byKey) {
        std::map<std::string, int> counts;
        for (const auto& [rank, value] : values)
            ++counts[value];
        if (counts.size() < 2)
            continue;
        // The most common value; between equally common ones, the lowest rank's.
        std::string usual = values.front().second;
        for (const auto& [value, n] : counts) {
            if (n > counts[usual])
                usual = value;
        }
        for (const auto& [rank, value] : values) {
            if (value != usual)
                out.push_back({ rank, key, value, usual });
        }
    }
    std::sort(out.begin(), out.end(),
        [](const auto& a, const auto& b) { return std::tie(a.rank, a.setting) < std::tie(b.rank, b.setting); });
    return out;
}

} // namespace

std::shared_ptr<const Comparison> Comparison::compute(
    const std::vector<RankInput>& inputs, const ComparisonOptions& options)
{
    std::vector<SnapshotPtr> snapshots;
    snapshots.reserve(inputs.size());
    for (const RankInput& in : inputs)
        snapshots.push_back(in.snapshot);
    const DeviceRoles roles = DeviceRoles::decide(snapshots);
    const std::vector<int> compared = options.device ? std::vector<int> { *options.device } : roles.comparedDevices();
    std::vector<std::shared_ptr<Comparison>> all;
    const auto fresh = [&] {
        std::shared_ptr<Comparison> c(new Comparison);
        c->m_options = options;
        c->m_sites = SiteTable(options.site);
        c->m_roles = roles;
        return c;
    };
    for (int slot : compared) {
        // Outlives the phases that refer to it, whichever comparison is kept.
        const std::shared_ptr<Comparison> first = fresh();
        std::vector<int> devices;
        for (const DeviceRoles::Rank& rank : roles.ranks)
            devices.push_back(slot >= 0 ? slot : rank.main);
        const auto run = [&](ComparisonPhases& phases, bool scan) {
            phases.measureRanks();
            if (slot < 0)
                phases.measureForeign();
            phases.measureGrowth();
            phases.totalSites();
            phases.findExcess();
            phases.findGrowth();
            phases.totalRanks();
            phases.compareGroups();
            if (scan)
                phases.scanAlignedExcess();
            phases.mapSites();
            phases.decideVerdict();
        };
        ComparisonPhases phases(*first, inputs, devices);
        run(phases, true);
        std::shared_ptr<Comparison> c = first;
        // Compared again where the verdict is: an out-of-memory at its OOM, peaks alike at the moment a rank holds
        // the most beyond its baseline (kept only when a rank stands out there).
        if (const std::optional<Moment> moment = phases.betterMoment()) {
            const std::shared_ptr<Comparison> there = fresh();
            ComparisonPhases again(*there, inputs, devices, &phases, moment);
            run(again, false);
            again.keepFromPeak(*first);
            if (moment->reason != Moment::MidStep || there->m_verdict.kind != Verdict::Balanced)
                c = there;
        }
        c->m_verdict.settingDifferences = settingDifferences(inputs);
        all.push_back(std::move(c));
    }
    if (all.size() == 1)
        return all.front();
    const auto primary = std::max_element(
        all.begin(), all.end(), [](const auto& a, const auto& b) { return severity(*a) < severity(*b); });
    std::shared_ptr<Comparison> c = *primary;
    for (size_t i = 0; i < all.size(); ++i) {
        const Verdict& v = all[i]->m_verdict;
        c->m_devices.push_back({ compared[i], v.kind, v.rank, v.excessBytes, all[i]->m_findings.size() });
        if (all[i] != c)
            c->m_otherDevices.push_back(all[i]);
    }
    return c;
}

} // namespace RankScope
