// SPDX-License-Identifier: MIT
#include "beforeafterreport.h"

#include "diffreport.h"
#include "formatting.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace RankScope::BeforeAfterReport {

std::string json(const BeforeAfter& r)
{
    nlohmann::ordered_json out;
    out["before"] = nlohmann::ordered_json::parse(DiffReport::json(*r.before));
    out["after"] = nlohmann::ordered_json::parse(DiffReport::json(*r.after));
    out["spread_before_bytes"] = r.spreadBefore;
    out["spread_after_bytes"] = r.spreadAfter;
    out["spread_before_percent"] = r.spreadBeforePercent;
    out["spread_after_percent"] = r.spreadAfterPercent;
    out["top_sites_before"] = nlohmann::ordered_json::array();
    for (const BeforeAfter::Site& s : r.topSites) {
        out["top_sites_before"].push_back({ { "site", s.label }, { "excess_before_bytes", s.excessBefore },
            { "excess_after_bytes", s.excessAfter }, { "gone", s.gone } });
    }
    out["fixed"] = r.fixed;
    return out.dump(2) + "\n";
}

std::string text(const BeforeAfter& r)
{
    using Formatting::bytes;
    const auto verdict = [](const Comparison& c) {
        const Verdict& v = c.verdict();
        return std::string(Verdict::kindName(v.kind)) + (v.rank >= 0 ? " (rank " + std::to_string(v.rank) + ")" : "");
    };
    std::string out = "rank  before      after\n";
    for (const RankSummary& b : r.before->ranks()) {
        const int index = r.after->rankIndex(b.rank);
        char line[128];
        std::snprintf(line, sizeof line, "%-4d  %-10s  %s\n", b.rank, bytes(b.bytesAtPoint).toStdString().c_str(),
            index >= 0 ? bytes(r.after->ranks()[size_t(index)].bytesAtPoint).toStdString().c_str() : "-");
        out += line;
    }
    char spreads[160];
    std::snprintf(spreads, sizeof spreads, "spread (max - median): %s (%.1f%%) before, %s (%.1f%%) after\n",
        bytes(r.spreadBefore).toStdString().c_str(), r.spreadBeforePercent, bytes(r.spreadAfter).toStdString().c_str(),
        r.spreadAfterPercent);
    out += spreads;
    out += "verdict: " + verdict(*r.before) + " before, " + verdict(*r.after) + " after\n";
    for (const BeforeAfter::Site& s : r.topSites) {
        out += "  " + s.label + ": +" + bytes(s.excessBefore).toStdString() + " before, "
            + (s.gone ? std::string("gone after") : "+" + bytes(s.excessAfter).toStdString() + " after") + "\n";
    }
    out += r.fixed ? "Fixed: the ranks agree after the change.\n"
                   : "Not fixed: the ranks still differ after the change.\n";
    return out;
}

} // namespace RankScope::BeforeAfterReport
