// SPDX-License-Identifier: MIT
#include "diffreport.h"

#include "formatting.h"

#include <nlohmann/json.hpp>

namespace RankScope::DiffReport {

namespace {

std::string bytes(int64_t b)
{
    return Formatting::bytes(b).toStdString();
}

std::string pad(std::string s, size_t width, bool right = false)
{
    // Pads by characters, not bytes, so "←" and other UTF-8 text line up.
    size_t chars = 0;
    for (unsigned char ch : s)
        chars += (ch & 0xc0) != 0x80;
    if (chars >= width)
        return s;
    return right ? std::string(width - chars, ' ') + s : s + std::string(width - chars, ' ');
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string quoted = "\"";
    for (char ch : s)
        quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return quoted + "\"";
}

} // namespace

std::string text(const Comparison& c, int maxFindings)
{
    const Verdict& v = c.verdict();
    std::string out = "Verdict: " + std::string(Verdict::kindName(v.kind));
    if (v.rank >= 0 && v.kind != Verdict::Balanced)
        out += " (rank " + std::to_string(v.rank) + ", +" + bytes(v.excessBytes) + ")";
    out += "\n  " + v.explanation + "\n";
    if (!v.remedy.empty())
        out += "  What to change: " + v.remedy + "\n";

    out += "\nRanks at " + c.pointName() + ":\n";
    out += "  " + pad("rank", 6) + pad("event", 10, true) + pad("at point", 12, true) + pad("excess", 12, true)
        + pad("peak", 12, true) + pad("reserved", 12, true) + pad("frag", 7, true) + pad("OOMs", 6, true) + "  file\n";
    for (const RankSummary& r : c.ranks()) {
        char frag[16];
        std::snprintf(frag, sizeof frag, "%.0f%%", r.fragmentation * 100);
        out += "  " + pad(std::to_string(r.rank), 6) + pad(std::to_string(r.point.event), 10, true)
            + pad(bytes(r.bytesAtPoint), 12, true)
            + pad((r.excessBytes > 0 ? "+" : "") + bytes(r.excessBytes), 12, true)
            + pad(bytes(r.peakAllocatedBytes), 12, true) + pad(bytes(r.reservedAtPoint), 12, true) + pad(frag, 7, true)
            + pad(std::to_string(r.oomEvents), 6, true) + "  " + r.path.toStdString()
            + (r.traceIncomplete ? "  (trace incomplete)" : "") + (r.note.empty() ? "" : "  (" + r.note + ")") + "\n";
    }

    const auto& findings = c.findings();
    out += "\nFindings (" + std::to_string(findings.size()) + ", largest first):\n";
    int shown = 0;
    for (const Finding& f : findings) {
        if (shown++ >= maxFindings) {
            out += "  … " + std::to_string(findings.size() - size_t(maxFindings)) + " more (use --json for all)\n";
            break;
        }
        out += "  rank " + std::to_string(f.rank) + "  " + Finding::kindName(f.kind) + "  +" + bytes(f.excessBytes)
            + "  (" + bytes(f.rankBytes) + " in " + std::to_string(f.rankCount) + " allocations; baseline "
            + bytes(f.baselineBytes) + " in " + std::to_string(f.baselineCount) + ")  " + std::to_string(f.runs.size())
            + " run(s)\n";
        const auto& frames = c.sites().frames(f.site);
        if (frames.empty())
            out += "      <no stack recorded>\n";
        for (size_t i = 0; i < frames.size() && i < 8; ++i)
            out += "      " + *frames[i].filename + ":" + std::to_string(frames[i].line) + " " + *frames[i].name + "\n";
        if (frames.size() > 8)
            out += "      … " + std::to_string(frames.size() - 8) + " more frames\n";
    }
    return out;
}

std::string json(const Comparison& c)
{
    nlohmann::ordered_json out;
    out["at"] = c.pointName();
    out["baseline"] = c.options().baselineRank >= 0 ? nlohmann::ordered_json(c.options().baselineRank)
                                                    : nlohmann::ordered_json("median");
    out["threshold_percent"] = c.options().thresholdPercent;
    out["ranks"] = nlohmann::ordered_json::array();
    for (const RankSummary& r : c.ranks()) {
        nlohmann::ordered_json rank = {
            { "rank", r.rank },
            { "path", r.path.toStdString() },
            { "device", r.device },
            { "event", r.point.event },
            { "peak_allocated_bytes", r.peakAllocatedBytes },
            { "bytes_at_point", r.bytesAtPoint },
            { "reserved_bytes_at_point", r.reservedAtPoint },
            { "excess_bytes", r.excessBytes },
            { "fragmentation", r.fragmentation },
            { "oom_events", r.oomEvents },
            { "trace_incomplete", r.traceIncomplete },
        };
        if (!r.note.empty())
            rank["note"] = r.note;
        out["ranks"].push_back(std::move(rank));
    }
    out["findings"] = nlohmann::ordered_json::array();
    for (const Finding& f : c.findings()) {
        nlohmann::ordered_json frames = nlohmann::ordered_json::array();
        for (const auto& frame : c.sites().frames(f.site))
            frames.push_back({ { "filename", *frame.filename }, { "line", frame.line }, { "name", *frame.name } });
        nlohmann::ordered_json runs = nlohmann::ordered_json::array();
        for (const FindingRun& run : f.runs)
            runs.push_back({ { "address", run.address }, { "size", run.size }, { "segment", run.segment } });
        out["findings"].push_back({
            { "rank", f.rank },
            { "kind", Finding::kindName(f.kind) },
            { "excess_bytes", f.excessBytes },
            { "rank_bytes", f.rankBytes },
            { "baseline_bytes", f.baselineBytes },
            { "rank_count", f.rankCount },
            { "baseline_count", f.baselineCount },
            { "site", c.sites().label(f.site) },
            { "frames", std::move(frames) },
            { "runs", std::move(runs) },
        });
    }
    const Verdict& v = c.verdict();
    out["verdict"] = {
        { "kind", Verdict::kindName(v.kind) },
        { "rank", v.rank },
        { "excess_bytes", v.excessBytes },
        { "explanation", v.explanation },
        { "remedy", v.remedy },
    };
    return out.dump(2) + "\n";
}

std::string csv(const Comparison& c)
{
    std::string out = "rank,kind,excess_bytes,rank_bytes,baseline_bytes,rank_count,baseline_count,runs,site\n";
    for (const Finding& f : c.findings()) {
        out += std::to_string(f.rank) + "," + Finding::kindName(f.kind) + "," + std::to_string(f.excessBytes) + ","
            + std::to_string(f.rankBytes) + "," + std::to_string(f.baselineBytes) + "," + std::to_string(f.rankCount)
            + "," + std::to_string(f.baselineCount) + "," + std::to_string(f.runs.size()) + ","
            + csvField(c.sites().label(f.site, 8)) + "\n";
    }
    return out;
}

} // namespace RankScope::DiffReport
