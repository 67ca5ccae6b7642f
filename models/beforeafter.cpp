// SPDX-License-Identifier: MIT
#include "beforeafter.h"

#include "diffreport.h"
#include "formatting.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace RankScope {

namespace {

// Each rank's figure before and after, by rank; a rank missing from one run keeps -1 there.
std::vector<BeforeAfterSummary::Row> pairRanks(
    const std::vector<std::pair<int, int64_t>>& before, const std::vector<std::pair<int, int64_t>>& after)
{
    std::vector<BeforeAfterSummary::Row> rows;
    for (const auto& [rank, bytes] : before)
        rows.push_back({ rank, bytes, -1 });
    for (const auto& figure : after) {
        // Not a structured binding: clang 14 (the fuzz build) cannot capture one.
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
            for (const Finding& g : r.after->findings()) {
                if (r.after->sites().label(g.site) == site.label)
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

std::string BeforeAfter::json() const
{
    nlohmann::ordered_json out;
    out["before"] = nlohmann::ordered_json::parse(DiffReport::json(*before));
    out["after"] = nlohmann::ordered_json::parse(DiffReport::json(*after));
    out["spread_before_bytes"] = spreadBefore;
    out["spread_after_bytes"] = spreadAfter;
    out["spread_before_percent"] = spreadBeforePercent;
    out["spread_after_percent"] = spreadAfterPercent;
    out["top_sites_before"] = nlohmann::ordered_json::array();
    for (const Site& s : topSites) {
        out["top_sites_before"].push_back({ { "site", s.label }, { "excess_before_bytes", s.excessBefore },
            { "excess_after_bytes", s.excessAfter }, { "gone", s.gone } });
    }
    out["fixed"] = fixed;
    return out.dump(2) + "\n";
}

std::string BeforeAfter::text() const
{
    using Formatting::bytes;
    const auto verdict = [](const Comparison& c) {
        const Verdict& v = c.verdict();
        return std::string(Verdict::kindName(v.kind)) + (v.rank >= 0 ? " (rank " + std::to_string(v.rank) + ")" : "");
    };
    std::string out = "rank  before      after\n";
    for (const RankSummary& b : before->ranks()) {
        const int index = after->rankIndex(b.rank);
        char line[128];
        std::snprintf(line, sizeof line, "%-4d  %-10s  %s\n", b.rank, bytes(b.bytesAtPoint).toStdString().c_str(),
            index >= 0 ? bytes(after->ranks()[size_t(index)].bytesAtPoint).toStdString().c_str() : "-");
        out += line;
    }
    char spreads[160];
    std::snprintf(spreads, sizeof spreads, "spread (max - median): %s (%.1f%%) before, %s (%.1f%%) after\n",
        bytes(spreadBefore).toStdString().c_str(), spreadBeforePercent, bytes(spreadAfter).toStdString().c_str(),
        spreadAfterPercent);
    out += spreads;
    out += "verdict: " + verdict(*before) + " before, " + verdict(*after) + " after\n";
    for (const Site& s : topSites) {
        out += "  " + s.label + ": +" + bytes(s.excessBefore).toStdString() + " before, "
            + (s.gone ? std::string("gone after") : "+" + bytes(s.excessAfter).toStdString() + " after") + "\n";
    }
    out +=
        fixed ? "Fixed: the ranks agree after the change.\n" : "Not fixed: the ranks still differ after the change.\n";
    return out;
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
