// SPDX-License-Identifier: MIT
#include "diffreport.h"

#include "formatting.h"
#include "stacktext.h"
#include "verdicttext.h"

#include <QByteArray>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cstdio>

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

// The verdict's words are English in every output of this file, whatever the user's language: with the JSON's
// identifiers for the CLI and JSON, in plain words for the reports.
std::string explanation(const Verdict& v, VerdictText::Language language = VerdictText::English)
{
    return VerdictText::explanation(v, language).toStdString();
}

std::string remedy(const Verdict& v, VerdictText::Language language = VerdictText::English)
{
    return VerdictText::remedy(v, language).toStdString();
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

nlohmann::ordered_json findingJson(const Comparison& c, const Finding& f)
{
    nlohmann::ordered_json frames = nlohmann::ordered_json::array();
    for (const auto& frame : c.sites().frames(f.site))
        frames.push_back({ { "filename", *frame.filename }, { "line", frame.line }, { "name", *frame.name } });
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    for (const FindingRun& run : f.runs)
        runs.push_back({ { "address", run.address }, { "size", run.size }, { "segment", run.segment } });
    return {
        { "rank", f.rank },
        { "device", f.device },
        { "kind", Finding::kindName(f.kind) },
        { "excess_bytes", f.excessBytes },
        { "rank_bytes", f.rankBytes },
        { "baseline_bytes", f.baselineBytes },
        { "rank_count", f.rankCount },
        { "baseline_count", f.baselineCount },
        { "ranks_with_site", f.ranksWithSite },
        { "category", categoryName(f.category) },
        { "site", c.sites().label(f.site) },
        { "frames", std::move(frames) },
        { "runs", std::move(runs) },
    };
}

nlohmann::ordered_json categoriesJson(const CategoryBytes& bytes)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (int c = 0; c < CategoryCount; ++c)
        out[categoryName(Category(c))] = bytes[size_t(c)];
    return out;
}

} // namespace

std::string pointWords(const Comparison& c)
{
    if (c.alignedTo() >= 0 && c.groups().size() > 1)
        return "aligned moments (each replica group at its highest rank's peak)";
    return c.alignedTo() >= 0 ? "aligned moments (rank " + std::to_string(c.alignedTo()) + "'s peak)" : c.pointName();
}

std::string text(const Comparison& c, int maxFindings)
{
    const Verdict& v = c.verdict();
    std::string out = v.rankCount < 2 && v.kind != Verdict::Growth
        ? std::string("Verdict: none (one rank, nothing to compare it with)")
        : "Verdict: " + std::string(Verdict::kindName(v.kind));
    if (v.rank >= 0 && v.kind != Verdict::Balanced)
        out += " (rank " + std::to_string(v.rank) + ", +" + bytes(v.excessBytes) + ")";
    out += "\n  " + explanation(v) + "\n";
    if (const std::string r = remedy(v); !r.empty())
        out += "  What to change: " + r + "\n";

    const bool devices = c.namesDevices();
    if (!c.devices().empty()) {
        out += "\nDevices (each compared across ranks on its own; this report is cuda:"
            + std::to_string(c.ranks().front().device) + "):\n";
        for (const DeviceVerdict& d : c.devices()) {
            out += "  cuda:" + std::to_string(d.device) + "  " + Verdict::kindName(d.kind);
            if (d.kind != Verdict::Balanced && d.rank >= 0)
                out += " (rank " + std::to_string(d.rank) + ", +" + bytes(d.excessBytes) + ")";
            out += "  " + std::to_string(d.findings) + " finding(s)\n";
        }
    }

    out += "\nRanks at " + pointWords(c)
        + (c.alignedTo() < 0            ? ""
                : c.groups().size() > 1 ? ", every replica at the same moment of its trace"
                                        : ", every other rank at the same moment of its trace")
        + ":\n";
    out += "  " + pad("rank", 6) + (devices ? pad("device", 8) : std::string()) + pad("event", 10, true)
        + pad("at point", 12, true) + pad("excess", 12, true) + pad("peak", 12, true) + pad("reserved", 12, true)
        + pad("frag", 7, true) + pad("OOMs", 6, true) + "  file\n";
    for (const RankSummary& r : c.ranks()) {
        char frag[16];
        std::snprintf(frag, sizeof frag, "%.0f%%", r.fragmentation * 100);
        out += "  " + pad(std::to_string(r.rank), 6)
            + (devices ? pad("cuda:" + std::to_string(r.device), 8) : std::string())
            + pad(std::to_string(r.sourceEvent), 10, true) + pad(bytes(r.bytesAtPoint), 12, true)
            + pad((r.excessBytes > 0 ? "+" : "") + bytes(r.excessBytes), 12, true)
            + pad(bytes(r.peakAllocatedBytes), 12, true) + pad(bytes(r.reservedAtPoint), 12, true) + pad(frag, 7, true)
            + pad(std::to_string(r.oomEvents), 6, true) + "  " + r.path.toStdString()
            + (r.traceIncomplete ? "  (trace incomplete)" : "") + (r.note.empty() ? "" : "  (" + r.note + ")") + "\n";
    }

    if (const std::optional<ParallelLayout>& layout = c.layout()) {
        out += "\nGroups of the layout " + layout->text() + (layout->suggested ? " (guessed; --layout to set it)" : "")
            + ", medians of their ranks:\n";
        for (const GroupSummary& g : c.groups()) {
            std::string list;
            for (int r : g.ranks)
                list += (list.empty() ? "" : ",") + std::to_string(r);
            out += "  " + pad(g.name, 14) + pad(bytes(g.bytesAtPoint), 12, true) + "  model state "
                + bytes(g.modelStateBytes()) + ", activations " + bytes(g.categoryBytes[size_t(Category::Activation)])
                + "  ranks " + list + "\n";
        }
    }

    const auto& findings = c.findings();
    out += "\nFindings (" + std::to_string(findings.size()) + ", largest first):\n";
    int shown = 0;
    for (const Finding& f : findings) {
        if (shown++ >= maxFindings) {
            out += "  … " + std::to_string(findings.size() - size_t(maxFindings)) + " more (use --json for all)\n";
            break;
        }
        out += "  rank " + std::to_string(f.rank) + (devices ? " cuda:" + std::to_string(f.device) : std::string())
            + "  " + Finding::kindName(f.kind) + "  +" + bytes(f.excessBytes) + "  (" + bytes(f.rankBytes) + " in "
            + std::to_string(f.rankCount) + " allocations; baseline " + bytes(f.baselineBytes) + " in "
            + std::to_string(f.baselineCount) + ")  " + std::to_string(f.runs.size()) + " run(s)  "
            + categoryName(f.category) + "\n";
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
    if (c.alignedTo() >= 0)
        out["aligned_to"] = c.alignedTo();
    out["baseline"] = c.options().baselineRank >= 0 ? nlohmann::ordered_json(c.options().baselineRank)
                                                    : nlohmann::ordered_json("median");
    out["threshold_percent"] = c.options().thresholdPercent;
    out["ranks"] = nlohmann::ordered_json::array();
    for (const RankSummary& r : c.ranks()) {
        nlohmann::ordered_json rank = {
            { "rank", r.rank },
            { "path", r.path.toStdString() },
            { "device", r.device },
            { "event", r.sourceEvent },
            { "aligned_to", r.alignedTo },
            { "peak_allocated_bytes", r.peakAllocatedBytes },
            { "bytes_at_point", r.bytesAtPoint },
            { "reserved_bytes_at_point", r.reservedAtPoint },
            { "excess_bytes", r.excessBytes },
            { "fragmentation", r.fragmentation },
            { "categories", categoriesJson(r.categoryBytes) },
            { "oom_events", r.oomEvents },
            { "trace_incomplete", r.traceIncomplete },
        };
        if (const std::optional<ParallelLayout>& layout = c.layout()) {
            nlohmann::ordered_json coords = nlohmann::ordered_json::object();
            for (size_t d = 0; d < layout->dimensions.size() && d < r.coordinates.size(); ++d)
                coords[layout->dimensions[d].name] = r.coordinates[d];
            rank["coords"] = std::move(coords);
        }
        if (!r.peakPerStep.empty()) {
            nlohmann::ordered_json steps = nlohmann::ordered_json::array();
            for (const auto& [step, peak] : r.peakPerStep)
                steps.push_back({ { "step", step }, { "peak_allocated_bytes", peak } });
            rank["peak_per_step"] = std::move(steps);
            rank["growth_bytes"] = r.growthBytes;
        }
        if (!r.note.empty())
            rank["note"] = r.note;
        out["ranks"].push_back(std::move(rank));
    }
    if (const std::optional<ParallelLayout>& layout = c.layout()) {
        nlohmann::ordered_json groups = nlohmann::ordered_json::array();
        for (const GroupSummary& g : c.groups()) {
            groups.push_back({ { "group", g.name }, { "ranks", g.ranks }, { "bytes_at_point", g.bytesAtPoint },
                { "categories", categoriesJson(g.categoryBytes) } });
        }
        out["layout"] = { { "text", layout->text() }, { "suggested", layout->suggested },
            { "groups", std::move(groups) } };
    }
    // Every device's findings, the verdict's device first: each carries its device.
    out["findings"] = nlohmann::ordered_json::array();
    std::vector<const Comparison*> compared = { &c };
    for (const auto& other : c.otherDevices())
        compared.push_back(other.get());
    for (const Comparison* d : compared) {
        for (const Finding& f : d->findings())
            out["findings"].push_back(findingJson(*d, f));
    }
    const Verdict& v = c.verdict();
    out["verdict"] = {
        { "kind", Verdict::kindName(v.kind) },
        { "rank", v.rank },
        { "device",
            v.device >= 0           ? v.device
                : c.ranks().empty() ? 0
                                    : c.ranks().front().device },
        { "excess_bytes", v.excessBytes },
    };
    if (v.kind == Verdict::StrayDevice)
        out["verdict"]["culprit_ranks"] = v.culpritRanks;
    if (v.kind == Verdict::ModelParallelImbalance && !v.group.empty()) {
        out["verdict"]["group"] = v.group;
        out["verdict"]["group_ranks"] = v.groupRanks;
    }
    if (v.kind != Verdict::Balanced && v.rankCount > 1)
        out["verdict"]["excess_by_category"] = categoriesJson(v.excessByCategory);
    if (v.kind == Verdict::Growth) {
        out["verdict"]["growth_ranks"] = v.growthRanks;
        out["verdict"]["steps"] = v.steps;
        out["verdict"]["total_growth_bytes"] = v.totalGrowthBytes;
    }
    if (!v.heavierGroup.empty()) {
        out["verdict"]["heavier_group"] = v.heavierGroup;
        out["verdict"]["group_excess_bytes"] = v.groupExcessBytes;
        out["verdict"]["group_excess_category"] = categoryName(v.groupExcessCategory);
    }
    if (!v.suspects.empty()) {
        nlohmann::ordered_json suspects = nlohmann::ordered_json::array();
        for (const Verdict::Suspect& s : v.suspects) {
            nlohmann::ordered_json suspect = { { "kind", Verdict::Suspect::kindName(s.kind) }, { "bytes", s.bytes } };
            if (s.kind == Verdict::Suspect::ForeignDevice)
                suspect["ranks"] = s.ranks;
            suspects.push_back(std::move(suspect));
        }
        out["verdict"]["suspects"] = std::move(suspects);
    }
    if (v.kind == Verdict::OutsideAllocator) {
        out["verdict"]["requested_bytes"] = v.oomRequestedBytes;
        out["verdict"]["reserved_bytes"] = v.oomReservedBytes;
        out["verdict"]["device_free_bytes"] = v.oomDeviceFreeBytes;
        if (v.deviceMemoryBytes > 0) {
            out["verdict"]["device_memory_bytes"] = v.deviceMemoryBytes;
            out["verdict"]["outside_bytes"] = v.outsideBytes;
        }
    }
    if (v.kind == Verdict::Fragmentation) {
        out["verdict"]["requested_bytes"] = v.oomRequestedBytes;
        out["verdict"]["free_in_reserve_bytes"] = v.freeInReserveBytes;
        out["verdict"]["largest_free_bytes"] = v.largestFreeBytes;
        out["verdict"]["fragmented_segments"] = v.fragmentedSegments;
        out["verdict"]["expandable_segments"] = v.expandableSegments;
    }
    out["verdict"]["explanation"] = explanation(v);
    out["verdict"]["remedy"] = remedy(v);
    if (!c.devices().empty()) {
        out["devices"] = nlohmann::ordered_json::array();
        for (const DeviceVerdict& d : c.devices()) {
            out["devices"].push_back({ { "device", d.device }, { "kind", Verdict::kindName(d.kind) },
                { "rank", d.rank }, { "excess_bytes", d.excessBytes }, { "findings", d.findings } });
        }
    }
    return out.dump(2) + "\n";
}

std::string csv(const Comparison& c)
{
    std::string out = "rank,kind,excess_bytes,rank_bytes,baseline_bytes,rank_count,baseline_count,runs,category,site\n";
    for (const Finding& f : c.findings()) {
        out += std::to_string(f.rank) + "," + Finding::kindName(f.kind) + "," + std::to_string(f.excessBytes) + ","
            + std::to_string(f.rankBytes) + "," + std::to_string(f.baselineBytes) + "," + std::to_string(f.rankCount)
            + "," + std::to_string(f.baselineCount) + "," + std::to_string(f.runs.size()) + ","
            + categoryName(f.category) + "," + csvField(c.sites().label(f.site, 8)) + "\n";
    }
    return out;
}

namespace {

// What both reports say, as plain values: they differ only in markup.
struct ReportRow
{
    std::vector<std::string> cells;
};

// The rank as reports name it: with its device where ranks use several or differ in device numbers.
std::string rankName(const Comparison& c, int rank, int device)
{
    return std::to_string(rank) + (c.namesDevices() ? " (cuda:" + std::to_string(device) + ")" : std::string());
}

std::vector<std::string> rankHeader(const Comparison& c)
{
    std::vector<std::string> header = { "Rank", "File", "Peak", "At point", "Excess", "Model state", "Activations",
        "Reserved at point", "Fragmentation", "OOMs", "Trace" };
    if (c.layout())
        header.insert(header.begin() + 2, "Layout");
    return header;
}

std::vector<ReportRow> rankRows(const Comparison& c)
{
    std::vector<ReportRow> rows;
    for (const RankSummary& r : c.ranks()) {
        char fragmentation[32];
        std::snprintf(fragmentation, sizeof fragmentation, "%.1f%%", r.fragmentation * 100);
        ReportRow row { { rankName(c, r.rank, r.device), QFileInfo(r.path).fileName().toStdString(),
            bytes(r.peakAllocatedBytes), bytes(r.bytesAtPoint), (r.excessBytes > 0 ? "+" : "") + bytes(r.excessBytes),
            bytes(modelStateBytes(r.categoryBytes)), bytes(r.categoryBytes[size_t(Category::Activation)]),
            bytes(r.reservedAtPoint), fragmentation, std::to_string(r.oomEvents),
            r.traceIncomplete ? "incomplete" : "complete" } };
        if (const std::optional<ParallelLayout>& layout = c.layout())
            row.cells.insert(row.cells.begin() + 2, layout->coordinatesText(r.rank));
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string htmlEscape(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped().toStdString();
}

std::string title(const Comparison& c)
{
    return "RankScope: " + std::to_string(c.ranks().size()) + " ranks compared at " + pointWords(c);
}

// Reports are read by people: the window's words in English, not the JSON's identifiers.
std::string verdictLine(const Comparison& c)
{
    const Verdict& v = c.verdict();
    std::string line = VerdictText::title(v, VerdictText::Plain).toStdString();
    if (v.rank >= 0 && v.excessBytes > 0 && v.kind != Verdict::Balanced)
        line += " (+" + bytes(v.excessBytes) + ")";
    return line;
}

std::string counted(int64_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::vector<std::string> stackLines(const Comparison& c, const Finding& f)
{
    std::vector<std::string> lines;
    for (const QString& line : StackText::lines(StackText::siteFrames(c.sites(), f.site), 12))
        lines.push_back(line.toStdString());
    return lines;
}

std::string findingTitle(const Comparison& c, size_t i)
{
    const Finding& f = c.findings()[i];
    return std::to_string(i + 1) + ". Rank " + rankName(c, f.rank, f.device) + ", "
        + VerdictText::findingKind(f.kind, VerdictText::Plain).toStdString() + ", "
        + VerdictText::category(f.category, VerdictText::Plain).toStdString() + ", +" + bytes(f.excessBytes) + ": "
        + c.sites().label(f.site);
}

std::string findingFigures(const Finding& f)
{
    return bytes(f.rankBytes) + " in " + counted(f.rankCount, "allocation", "allocations") + " on rank "
        + std::to_string(f.rank) + ", against " + bytes(f.baselineBytes) + " in " + std::to_string(f.baselineCount)
        + (f.kind == Finding::Growth ? " at the same moment of the step before; " : " on the baseline; ")
        + counted(int64_t(f.runs.size()), "contiguous run", "contiguous runs") + ".";
}

} // namespace

std::string html(const Comparison& c, const QByteArray& png, int maxFindings)
{
    const Verdict& v = c.verdict();
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
        + htmlEscape(title(c))
        + "</title>\n<style>\nbody{font-family:sans-serif;max-width:1400px;margin:2em auto;padding:0 1em;color:#222}\n"
          "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
          "td:nth-child(2),th:nth-child(2){text-align:left}\n"
          ".verdict{border-left:6px solid #e15759;background:#fdecec;padding:.6em 1em}\n"
          "pre{background:#f6f6f6;padding:.5em;overflow-x:auto}img{max-width:100%;border:1px solid #ccc}\n"
          "</style>\n</head>\n<body>\n<h1>"
        + htmlEscape(title(c)) + "</h1>\n<div class=\"verdict\">\n<h2>" + htmlEscape(verdictLine(c)) + "</h2>\n<p>"
        + htmlEscape(explanation(v, VerdictText::Plain)) + "</p>\n";
    if (const std::string r = remedy(v, VerdictText::Plain); !r.empty())
        out += "<p><b>What to change:</b> " + htmlEscape(r) + "</p>\n";
    out += "</div>\n<h2>Ranks</h2>\n<table>\n<tr>";
    for (const std::string& h : rankHeader(c))
        out += "<th>" + htmlEscape(h) + "</th>";
    out += "</tr>\n";
    for (const ReportRow& row : rankRows(c)) {
        out += "<tr>";
        for (const std::string& cell : row.cells)
            out += "<td>" + htmlEscape(cell) + "</td>";
        out += "</tr>\n";
    }
    out += "</table>\n";
    if (!png.isEmpty())
        out += "<h2>Diff</h2>\n<img alt=\"The diff of the two ranks\" src=\"data:image/png;base64,"
            + png.toBase64().toStdString() + "\">\n";
    out += "<h2>Top findings</h2>\n";
    if (c.findings().empty())
        out += "<p>No rank holds more than its baseline at any allocation site.</p>\n";
    for (size_t i = 0; i < c.findings().size() && int(i) < maxFindings; ++i) {
        const Finding& f = c.findings()[i];
        out += "<h3>" + htmlEscape(findingTitle(c, i)) + "</h3>\n<p>" + htmlEscape(findingFigures(f)) + "</p>\n<pre>";
        for (const std::string& line : stackLines(c, f))
            out += htmlEscape(line) + "\n";
        out += "</pre>\n";
    }
    out += "</body>\n</html>\n";
    return out;
}

std::string markdown(const Comparison& c, const QString& image, int maxFindings)
{
    const Verdict& v = c.verdict();
    std::string out =
        "# " + title(c) + "\n\n**" + verdictLine(c) + "**\n\n" + explanation(v, VerdictText::Plain) + "\n\n";
    if (const std::string r = remedy(v, VerdictText::Plain); !r.empty())
        out += "**What to change:** " + r + "\n\n";
    const auto cell = [](std::string text) {
        for (size_t p = text.find('|'); p != std::string::npos; p = text.find('|', p + 2))
            text.replace(p, 1, "\\|");
        return text;
    };
    out += "## Ranks\n\n|";
    for (const std::string& h : rankHeader(c))
        out += " " + h + " |";
    out += "\n|";
    for (size_t i = 0; i < rankHeader(c).size(); ++i)
        out += i == 1 ? "---|" : "---:|";
    out += "\n";
    for (const ReportRow& row : rankRows(c)) {
        out += "|";
        for (const std::string& text : row.cells)
            out += " " + cell(text) + " |";
        out += "\n";
    }
    if (!image.isEmpty())
        out += "\n## Diff\n\n![The diff of the two ranks](" + image.toStdString() + ")\n";
    out += "\n## Top findings\n\n";
    if (c.findings().empty())
        out += "No rank holds more than its baseline at any allocation site.\n";
    for (size_t i = 0; i < c.findings().size() && int(i) < maxFindings; ++i) {
        const Finding& f = c.findings()[i];
        out += "### " + findingTitle(c, i) + "\n\n" + findingFigures(f) + "\n\n```\n";
        for (const std::string& line : stackLines(c, f))
            out += line + "\n";
        out += "```\n\n";
    }
    return out;
}

} // namespace RankScope::DiffReport
