// SPDX-License-Identifier: MIT
#include "beforeafter.h"

#include <algorithm>

namespace RankScope {

namespace {

// Each rank's figure before and after, by rank; a rank missing from one run keeps -1 there.
std::vector<BeforeAfterSummary::Row> pairRanks(
    const std::vector<std::pair<int, int64_t>>& before, const std::vector<std::pair<int, int64_t>>& after)
{
    std::vector<BeforeAfterSummary::Row> rows;
    rows.reserve(before.size() + after.size());
    for (const auto& [rank, bytes] : before)
        rows.push_back({ rank, bytes, -1 });
    for (const auto& figure : after) {
        // Not a structured binding: clang 14 cannot capture one.
        const int rank = figure.first;
        auto it = std::find_if(rows.begin(), rows.end(), [rank](const auto& row) { return row.rank == rank; });
        if (it == rows.end())
            rows.push_back({ rank, -1, figure.second });
        else
            it->after = figure.second;
    }
    std::sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) { return x.rank < y.rank; });
    return rows;
}

std::vector<std::pair<int, int64_t>> atPoint(const Comparison& c)
{
    std::vector<std::pair<int, int64_t>> figures;
    for (const RankSummary& r : c.ranks())
        figures.emplace_back(r.rank, r.bytesAtPoint);
    return figures;
}

std::vector<std::pair<int, int64_t>> peaks(const StepAnalysis& a)
{
    std::vector<std::pair<int, int64_t>> figures;
    for (const StepAnalysis::Rank& r : a.ranks)
        figures.emplace_back(r.rank, r.maxPeakBytes);
    return figures;
}

} // namespace

Spread BeforeAfter::spread(const Comparison& c)
{
    std::vector<int64_t> totals;
    for (const RankSummary& r : c.ranks())
        totals.push_back(r.bytesAtPoint);
    return Spread::of(totals);
}

BeforeAfter BeforeAfter::compute(ComparisonPtr beforeRun, ComparisonPtr afterRun)
{
    BeforeAfter r;
    r.before = std::move(beforeRun);
    r.after = std::move(afterRun);
    const Spread before = spread(*r.before);
    const Spread after = spread(*r.after);
    r.spreadBefore = before.bytes;
    r.spreadBeforePercent = before.percent;
    r.spreadAfter = after.bytes;
    r.spreadAfterPercent = after.percent;
    const double threshold = r.after->options().thresholdPercent;
    // A site still stands out when some rank holds more than the threshold's share of the median rank there.
    const int64_t standsOut = std::max<int64_t>(int64_t(double(after.median) * threshold / 100.0), 1);
    const Verdict& v = r.before->verdict();
    if (v.kind == Verdict::BurdenImbalance || v.kind == Verdict::InputImbalance) {
        for (const Finding& f : r.before->findings()) {
            if (f.rank != v.rank)
                continue;
            Site site;
            site.label = r.before->sites().label(f.site);
            site.excessBefore = f.excessBytes;
            // The same code by its site key's fingerprint: a label depends on the other sites of its comparison.
            const uint64_t fingerprint = r.before->sites().fingerprint(f.site);
            for (const Finding& g : r.after->findings()) {
                if (r.after->sites().fingerprint(g.site) == fingerprint)
                    site.excessAfter = std::max(site.excessAfter, g.excessBytes);
            }
            site.gone = site.excessAfter < standsOut;
            r.topSites.push_back(std::move(site));
            if (r.topSites.size() == 3)
                break;
        }
    }
    r.fixed = r.spreadAfterPercent <= threshold
        && std::all_of(r.topSites.begin(), r.topSites.end(), [](const Site& s) { return s.gone; });
    return r;
}

BeforeAfterSummary BeforeAfter::summary() const
{
    BeforeAfterSummary s;
    s.ranks = pairRanks(atPoint(*before), atPoint(*after));
    s.spreadBefore = spreadBefore;
    s.spreadAfter = spreadAfter;
    s.spreadBeforePercent = spreadBeforePercent;
    s.spreadAfterPercent = spreadAfterPercent;
    s.thresholdPercent = after->options().thresholdPercent;
    for (const Site& site : topSites)
        s.items.push_back({ site.label, site.excessBefore, site.excessAfter, site.gone });
    s.fixed = fixed;
    s.verdictBefore = before->verdict();
    s.verdictAfter = after->verdict();
    return s;
}

BeforeAfterSummary BeforeAfterSummary::fromSteps(
    const StepAnalysis& before, const StepAnalysis& after, double thresholdPercent)
{
    BeforeAfterSummary s;
    s.fromLogs = true;
    s.thresholdPercent = thresholdPercent;
    s.ranks = pairRanks(peaks(before), peaks(after));
    s.spreadBefore = before.spreadBytes;
    s.spreadAfter = after.spreadBytes;
    s.spreadBeforePercent = before.spreadPercent;
    s.spreadAfterPercent = after.spreadPercent;
    s.divergenceBefore = before.divergence;
    s.divergenceAfter = after.divergence;
    if (const auto& d = before.divergence) {
        Item item;
        item.label = "rank " + std::to_string(d->rank) + " at step " + std::to_string(d->step)
            + (d->tag.empty() ? std::string() : " (" + d->tag + ")");
        item.before = d->peakBytes - d->othersMedianBytes;
        item.after = after.divergence && after.divergence->rank == d->rank
            ? after.divergence->peakBytes - after.divergence->othersMedianBytes
            : 0;
        item.gone = item.after == 0;
        s.items.push_back(std::move(item));
    }
    s.fixed = !after.divergence && after.spreadPercent <= thresholdPercent;
    return s;
}

} // namespace RankScope
