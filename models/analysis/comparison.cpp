// SPDX-License-Identifier: MIT
#include "comparison.h"

#include "alikeranks.h"
#include "comparisonphases.h"

#include <algorithm>
#include <charconv>
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
    case ExpandableSegments:
        return "expandable_segments";
    case RaiseLimit:
        return "raise_limit";
    }
    return "";
}

const char* Verdict::Margin::outcomeName(Outcome outcome)
{
    switch (outcome) {
    case None:
        return "none";
    case ShortOfBytes:
        return "short_of_bytes";
    case NotInOnePiece:
        return "not_in_one_piece";
    case NotReached:
        return "not_reached";
    }
    return "";
}

const char* Verdict::confidenceName(Confidence confidence)
{
    switch (confidence) {
    case High:
        return "high";
    case Medium:
        return "medium";
    case Low:
        return "low";
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
    // The verdict's margin is of its rank's last OOM: the same figures, computed once.
    h.margin = m_verdict.margin.outcome != Verdict::Margin::None && m_verdict.margin.rank == h.rank
        ? m_verdict.margin
        : Verdict::Margin::of(history, h.rank);
    // What the GPU offered at the OOM bounds a peak only where the rank never held more before it: one that did, and
    // went on, had more then.
    if (h.peakBytes <= h.margin.neededBytes)
        h.fitLimitBytes = h.margin.fitBytes();
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

bool Comparison::missesPoint(size_t rankIndex) const
{
    const std::optional<TimelinePoint::Spec>& asked = m_options.point;
    return asked && asked->kind != TimelinePoint::Snapshot && m_ranks[rankIndex].point.kind == TimelinePoint::Snapshot;
}

std::string Comparison::pointNameOf(size_t rankIndex) const
{
    return missesPoint(rankIndex) ? "snapshot" : pointName();
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

std::optional<std::pair<int, int>> ComparisonOptions::parsePresentOn(std::string_view text)
{
    const auto number = [](std::string_view digits) -> std::optional<int> {
        int value = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (ec != std::errc() || end != digits.data() + digits.size() || value < 1)
            return std::nullopt;
        return value;
    };
    const size_t dash = text.find('-');
    const std::optional<int> least = number(text.substr(0, dash));
    const std::optional<int> most = dash == std::string_view::npos ? least : number(text.substr(dash + 1));
    if (!least || !most || *most < *least)
        return std::nullopt;
    return std::pair { *least, *most };
}

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
        if (const auto& on = options.presentOn) {
            std::erase_if(c->m_findings,
                [&on](const Finding& f) { return f.ranksWithSite < on->first || f.ranksWithSite > on->second; });
        }
        c->m_alike = std::make_shared<const AlikeRanks>(AlikeRanks::of(*c));
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
