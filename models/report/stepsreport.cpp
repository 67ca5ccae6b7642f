// SPDX-License-Identifier: MIT
#include "stepsreport.h"

#include "formatting.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace RankScope::StepsReport {

std::string json(const StepAnalysis& a)
{
    nlohmann::ordered_json out;
    out["ranks"] = nlohmann::ordered_json::array();
    for (const StepAnalysis::Rank& r : a.ranks) {
        out["ranks"].push_back({ { "rank", r.rank }, { "reports", r.reports }, { "max_peak_bytes", r.maxPeakBytes },
            { "max_tokens", r.maxTokens >= 0 ? nlohmann::ordered_json(r.maxTokens) : nlohmann::ordered_json() } });
    }
    out["tags"] = a.tags;
    out["spread_bytes"] = a.spreadBytes;
    out["spread_percent"] = a.spreadPercent;
    if (a.divergence) {
        const StepDivergence& d = *a.divergence;
        out["divergence"] = {
            { "rank", d.rank },
            { "step", d.step },
            { "tag", d.tag },
            { "suspect",
                d.suspect == StepDivergence::Unknown ? nlohmann::ordered_json()
                                                     : nlohmann::ordered_json(StepDivergence::suspectName(d.suspect)) },
            { "peak_bytes", d.peakBytes },
            { "others_median_bytes", d.othersMedianBytes },
            { "tokens", d.tokens >= 0 ? nlohmann::ordered_json(d.tokens) : nlohmann::ordered_json() },
            { "others_median_tokens",
                d.othersMedianTokens >= 0 ? nlohmann::ordered_json(d.othersMedianTokens) : nlohmann::ordered_json() },
        };
    } else {
        out["divergence"] = nullptr;
    }
    return out.dump(2) + "\n";
}

std::string text(const StepAnalysis& a)
{
    using Formatting::bytes;
    std::string out = "rank  reports  max peak    max tokens\n";
    for (const StepAnalysis::Rank& r : a.ranks) {
        char line[128];
        std::snprintf(line, sizeof line, "%-4d  %7lld  %-10s  %s\n", r.rank, static_cast<long long>(r.reports),
            bytes(r.maxPeakBytes).toStdString().c_str(), r.maxTokens >= 0 ? std::to_string(r.maxTokens).c_str() : "-");
        out += line;
    }
    out += "spread (max - median of the ranks' peaks): " + bytes(a.spreadBytes).toStdString() + "\n";
    if (!a.divergence) {
        out += "The ranks agree: no rank's peak departs from the others.\n";
        return out;
    }
    const StepDivergence& d = *a.divergence;
    out += "Rank " + std::to_string(d.rank) + " departs first at step " + std::to_string(d.step)
        + (d.tag.empty() ? std::string() : " (" + d.tag + ")") + ": " + bytes(d.peakBytes).toStdString()
        + " against a median of " + bytes(d.othersMedianBytes).toStdString() + " on the others.\n";
    switch (d.suspect) {
    case StepDivergence::InputImbalance:
        out += "Its input is larger there (" + std::to_string(d.tokens) + " tokens against "
            + std::to_string(d.othersMedianTokens) + "): input imbalance suspected.\n";
        break;
    case StepDivergence::BurdenImbalance:
        out += "Its input is the same size there (" + std::to_string(d.tokens)
            + " tokens): burden imbalance suspected, extra work on this rank.\n";
        break;
    case StepDivergence::Unknown:
        out += "The reports carry no shapes, so input and burden imbalance cannot be told apart.\n";
        break;
    }
    out += "Next: dump a memory snapshot on rank " + std::to_string(d.rank) + " and one other rank at step "
        + std::to_string(d.step) + " and open both in RankScope.\n";
    return out;
}

} // namespace RankScope::StepsReport
