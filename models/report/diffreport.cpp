// SPDX-License-Identifier: MIT
#include "diffreport.h"

#include "alikeranks.h"
#include "formatting.h"
#include "infoformat.h"
#include "stacktext.h"
#include "verdicttext.h"

#include <QByteArray>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace RankScope::DiffReport {

nlohmann::ordered_json runsJson(const std::vector<FindingRun>& runs, size_t maxRuns)
{
    // Past `maxRuns`, one range per segment: a finding of thousands of blocks stays a few lines.
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    if (runs.size() <= maxRuns) {
        for (const FindingRun& run : runs)
            out.push_back({ { "address", run.address }, { "size", run.size }, { "segment", run.segment } });
    } else {
        std::map<uint64_t, std::array<uint64_t, 4>> ranges; // segment: lowest, end, count, bytes
        for (const FindingRun& run : runs) {
            std::array<uint64_t, 4>& r =
                ranges.try_emplace(run.segment, std::array<uint64_t, 4> { run.address, 0, 0, 0 }).first->second;
            r[0] = std::min(r[0], run.address);
            r[1] = std::max(r[1], run.address + uint64_t(run.size));
            r[2] += 1;
            r[3] += uint64_t(run.size);
        }
        for (const auto& [segment, r] : ranges)
            out.push_back({ { "address", r[0] }, { "size", r[1] - r[0] }, { "segment", segment }, { "count", r[2] },
                { "bytes", r[3] } });
    }
    return out;
}

namespace {

std::string bytes(int64_t b)
{
    return Formatting::bytes(b).toStdString();
}

// A reduction in ASCII, so the text's columns stay aligned by byte count: "-1.5 GiB", or "0 B" where nothing is saved.
std::string saved(int64_t b)
{
    return b > 0 ? "-" + bytes(b) : bytes(0);
}

// The columns a UTF-8 string takes: its characters, not its bytes ("–" and "←" are one column, three bytes).
size_t columns(const std::string& s)
{
    size_t chars = 0;
    for (unsigned char ch : s)
        chars += (ch & 0xc0) != 0x80;
    return chars;
}

std::string pad(std::string s, size_t width, bool right = false)
{
    // Pads by characters, not bytes, so "←" and other UTF-8 text line up.
    const size_t chars = columns(s);
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

// Every stack an answer names, written once: the findings' sites and the failed requests, by index.
class StackList
{
public:
    explicit StackList(FrameDetail detail)
        : m_detail(detail)
    { }
    // A site's kept frames.
    size_t site(const Comparison& c, SiteId site)
    {
        const auto [it, added] = m_sites.try_emplace({ &c, site }, m_list.size());
        if (added) {
            const StackText::Frames shown = StackText::siteFrames(c.sites(), site);
            add(c.sites().label(site), shown, recordedOrder(shown));
        }
        return it->second;
    }
    // A rank's failed request: its stack as recorded, one for every rank that failed there with the same frames. A
    // rank run from another path (a container, another checkout) fails at the same site with frames of its own
    // files, and its answer must name them, not the first rank's.
    size_t oom(const Comparison& c, const RankSummary& r)
    {
        const size_t index = size_t(c.rankIndex(r.rank));
        const bool known = r.oomSite != NoSite && !c.sites().frames(r.oomSite).empty();
        const Snapshot& snapshot = c.history(index).snapshot();
        const std::vector<StackText::Frame> recorded = StackText::stackFrames(snapshot, r.oomStack, false).frames;
        std::string frames;
        for (const StackText::Frame& f : recorded)
            frames.append(f.file).append(1, '\0').append(f.name).append(1, '\0').append(std::to_string(f.line) + '\n');
        const auto [it, added] =
            m_ooms.try_emplace({ &c, r.oomSite, known ? -1 : int(index), std::move(frames) }, m_list.size());
        if (added) {
            add(known ? c.sites().label(r.oomSite) : std::string(),
                StackText::stackFrames(snapshot, r.oomStack, true, c.sites().ownPackagesOf(snapshot)), recorded);
        }
        return it->second;
    }
    nlohmann::ordered_json take()
    {
        return std::move(m_list);
    }

    // The shown frames with each folded run back in its place: the site's frames as recorded.
    static std::vector<StackText::Frame> recordedOrder(const StackText::Frames& f)
    {
        const size_t shown = f.frames.size() - f.folded;
        std::vector<StackText::Frame> out;
        size_t next = shown;
        size_t fold = 0;
        for (size_t i = 0; i <= shown; ++i) {
            for (; fold < f.folds.size() && f.folds[fold].at == i; ++fold) {
                for (size_t k = 0; k < f.folds[fold].count; ++k)
                    out.push_back(f.frames[next++]);
            }
            if (i < shown)
                out.push_back(f.frames[i]);
        }
        return out;
    }

private:
    void add(const std::string& label, const StackText::Frames& shown, const std::vector<StackText::Frame>& recorded)
    {
        m_list.push_back({ { "site", label }, { "frames", stackJson(shown, recorded, m_detail) } });
    }

    FrameDetail m_detail;
    nlohmann::ordered_json m_list = nlohmann::ordered_json::array();
    std::map<std::pair<const Comparison*, SiteId>, size_t> m_sites;
    std::map<std::tuple<const Comparison*, SiteId, int, std::string>, size_t> m_ooms;
};

nlohmann::ordered_json findingJson(const Comparison& c, const Finding& f, StackList& stacks)
{
    nlohmann::ordered_json runs = runsJson(f.runs);
    nlohmann::ordered_json out = {
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
        { "stack", stacks.site(c, f.site) },
        { "runs", std::move(runs) },
    };
    if (!f.privatePools.empty()) {
        nlohmann::ordered_json pools = nlohmann::ordered_json::array();
        for (const auto& [first, second] : f.privatePools)
            pools.push_back({ first, second });
        out["private_pools"] = std::move(pools);
    }
    return out;
}

std::string poolsText(const Finding& f)
{
    std::string out;
    for (const auto& [first, second] : f.privatePools)
        out +=
            (out.empty() ? "" : ", ") + std::string("(") + std::to_string(first) + ", " + std::to_string(second) + ")";
    return out.empty() ? out : (f.privatePools.size() > 1 ? "  in private pools " : "  in private pool ") + out;
}

nlohmann::ordered_json categoriesJson(const CategoryBytes& bytes)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (int c = 0; c < CategoryCount; ++c)
        out[categoryName(Category(c))] = bytes[size_t(c)];
    return out;
}

// An event of a rank's trace as its file numbers it: a digest's own events become those of the file it was made
// from, where the digest says (its point and its last OOM).
EventIndex sourceEvent(const Comparison& c, size_t rankIndex, EventIndex event)
{
    const RankSummary& r = c.ranks()[rankIndex];
    const std::optional<DigestInfo>& digest = c.history(rankIndex).snapshot().digest;
    if (!digest)
        return event;
    if (event == r.point.event)
        return r.sourceEvent;
    if (r.oomEvents > 0 && event == r.oomEvent)
        return digest->sourceOf(r.device).oomEvent;
    return event;
}

// A rank's last failed request: {"requested_bytes","device_free_bytes","event","site","stack"}.
nlohmann::ordered_json oomJson(const Comparison& c, const RankSummary& r, StackList& stacks)
{
    const size_t index = size_t(c.rankIndex(r.rank));
    return { { "requested_bytes", r.oomRequestedBytes }, { "device_free_bytes", r.oomDeviceFreeBytes },
        { "event", sourceEvent(c, index, r.oomEvent) },
        { "site",
            r.oomSite == NoSite || c.sites().frames(r.oomSite).empty() ? std::string() : c.sites().label(r.oomSite) },
        { "stack", stacks.oom(c, r) } };
}

// Where holdings were looked at: "oom" at the rank's last OOM, the comparison's point at its point, else the event.
std::string holdingsAt(const Comparison& c, const RankHoldings& h)
{
    const RankSummary& r = c.ranks()[h.rankIndex];
    if (r.oomEvents > 0 && h.composition.event == r.oomEvent)
        return "oom";
    if (h.composition.event == r.point.event)
        return c.pointNameOf(h.rankIndex);
    return "event:" + std::to_string(h.composition.event);
}

// "; the GPU offered 13.2 GiB at the OOM (reserve and free), of which 12.9 GiB could hold a peak (807 MiB lay
// stranded in the reserve)": what a smaller peak had to stay within, from the margin the verdict gives.
std::string offeredWords(const RankHoldings& h)
{
    if (h.margin.offeredBytes <= 0)
        return "";
    std::string out = "; the GPU offered " + bytes(h.margin.offeredBytes) + " at the OOM (reserve and free)";
    if (h.fitLimitBytes > 0)
        out += ", of which " + bytes(h.fitLimitBytes) + " could hold a peak (" + bytes(h.margin.strandedBytes)
            + " lay stranded in the reserve)";
    else if (h.margin.outcome == Verdict::Margin::NotReached)
        out += ", with the request still free on the device: no smaller peak says what would have fit";
    else
        out += ", but the rank held more earlier and went on: no smaller peak says what would have fit";
    return out;
}

// The margin of an out-of-memory, as the verdict's JSON and the `top` answer give it.
nlohmann::ordered_json marginJson(const Verdict::Margin& m)
{
    return { { "rank", m.rank }, { "outcome", Verdict::Margin::outcomeName(m.outcome) },
        { "needed_bytes", m.neededBytes }, { "offered_bytes", m.offeredBytes }, { "short_bytes", m.shortBytes },
        { "stranded_bytes", m.strandedBytes }, { "largest_gap_bytes", m.largestGapBytes },
        { "stranded_segments", m.strandedSegments }, { "fit_bytes", m.fitBytes() },
        { "expandable_segments", m.expandableSegments } };
}

// Every rule of the decision as it was checked: the verdict's reasoning, for scripts, agents and the gate.
nlohmann::ordered_json consideredJson(const Verdict& v)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Verdict::Consideration& c : v.considered) {
        nlohmann::ordered_json evidence = nlohmann::ordered_json::object();
        for (const Verdict::Figure& f : c.evidence) {
            if (f.unit == Verdict::Figure::Percent)
                evidence[f.key] = std::round(f.percent * 100.0) / 100.0;
            else
                evidence[f.key] = f.value;
        }
        nlohmann::ordered_json rule = { { "kind", Verdict::kindName(c.kind) }, { "applies", c.applies },
            { "evidence", std::move(evidence) } };
        if (!c.applies)
            rule["why_not"] = VerdictText::whyNot(c, VerdictText::English).toStdString();
        out.push_back(std::move(rule));
    }
    return out;
}

// "at its OOM", "at the aligned moment", "at its peak", "at event:12".
std::string atWords(const std::string& at)
{
    return at == "oom"    ? "at its OOM"
        : at == "aligned" ? "at the aligned moment"
        : at == "peak"    ? "at its peak"
                          : "at " + at;
}

std::string withoutName(const Comparison& c, const WhatIf::Result& r)
{
    return r.without.kind == WhatIf::Candidate::Site ? c.sites().label(r.without.site)
                                                     : categoryName(r.without.category);
}

std::string share(int64_t part, int64_t whole)
{
    char text[16];
    std::snprintf(text, sizeof text, "%.1f%%", whole > 0 ? 100.0 * double(part) / double(whole) : 0.0);
    return text;
}

nlohmann::ordered_json whatIfJson(const Comparison& c, const RankHoldings& h)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const WhatIf::Result& r : h.whatIf) {
        nlohmann::ordered_json row = { { "without", withoutName(c, r) },
            { "kind", r.without.kind == WhatIf::Candidate::Site ? "site" : "category" }, { "peak_bytes", r.peakBytes },
            { "saved_bytes", r.savedBytes }, { "with_failed_request", r.withRequest } };
        if (h.fitLimitBytes > 0)
            row["fits"] = h.fits(r.peakBytes);
        out.push_back(std::move(row));
    }
    return out;
}

// What fills a rank's GPU: where, how much, by category, its largest sites (all with maxSites < 0).
nlohmann::ordered_json compositionJson(const Comparison& c, const RankHoldings& h, long maxSites)
{
    const Composition& comp = h.composition;
    nlohmann::ordered_json sites = nlohmann::ordered_json::array();
    for (const Holding& site : comp.sites) {
        if (maxSites >= 0 && long(sites.size()) >= maxSites)
            break;
        sites.push_back({ { "site", c.sites().label(site.site) }, { "bytes", site.bytes }, { "count", site.count },
            { "category", categoryName(site.category) },
            { "share", comp.totalBytes > 0 ? double(site.bytes) / double(comp.totalBytes) : 0.0 } });
    }
    return { { "rank", h.rank }, { "at", holdingsAt(c, h) }, { "event", sourceEvent(c, h.rankIndex, comp.event) },
        { "bytes", comp.totalBytes }, { "categories", categoriesJson(comp.categoryBytes) },
        { "top_sites", std::move(sites) } };
}

// The ranks alike with one, where it stands for several: " (ranks 0–63 alike)".
std::string alikeNote(const Comparison& c, size_t rankIndex)
{
    const AlikeRanks& alike = c.alike();
    std::vector<int> ranks;
    for (size_t i : alike.groups[alike.groupOf[rankIndex]].members)
        ranks.push_back(c.ranks()[i].rank);
    return ranks.size() > 1 ? " (ranks " + Formatting::ranks(ranks).toStdString() + " alike)" : std::string();
}

// The holdings in lines: where, by category, the largest sites, and the peak without each candidate.
std::string holdingsText(const Comparison& c, const RankHoldings& h, size_t maxSites)
{
    const Composition& comp = h.composition;
    const std::string at = holdingsAt(c, h);
    std::string out = "What fills rank " + std::to_string(h.rank) + "'s GPU " + atWords(at) + " (event "
        + std::to_string(sourceEvent(c, h.rankIndex, comp.event)) + "): " + bytes(comp.totalBytes)
        + alikeNote(c, h.rankIndex) + "\n  ";
    std::string categories;
    for (int k = 0; k < CategoryCount; ++k) {
        const int64_t b = comp.categoryBytes[size_t(k)];
        if (b > 0)
            categories += (categories.empty() ? "" : ", ") + std::string(categoryName(Category(k))) + " " + bytes(b)
                + " (" + share(b, comp.totalBytes) + ")";
    }
    out += (categories.empty() ? std::string("nothing") : categories) + "\n";
    out += "  " + pad("bytes", 10, true) + pad("share", 8, true) + pad("allocs", 8, true) + "  " + pad("category", 16)
        + "site\n";
    for (size_t i = 0; i < comp.sites.size() && i < maxSites; ++i) {
        const Holding& site = comp.sites[i];
        out += "  " + pad(bytes(site.bytes), 10, true) + pad(share(site.bytes, comp.totalBytes), 8, true)
            + pad(std::to_string(site.count), 8, true) + "  " + pad(categoryName(site.category), 16)
            + c.sites().label(site.site) + "\n";
    }
    if (comp.sites.size() > maxSites)
        out += "  … " + std::to_string(comp.sites.size() - maxSites) + " more sites\n";
    out += "Peak " + bytes(h.peakBytes)
        + (c.history(h.rankIndex).ooms().empty() ? std::string() : std::string(" (failed requests counted)"))
        + offeredWords(h)
        + (c.history(h.rankIndex).snapshot().digest
                ? std::string("; a digest keeps too little of the trace for the peak without a site\n")
                : std::string("; had these allocations not been made:\n"));
    for (const WhatIf::Result& r : h.whatIf) {
        out += "  " + pad(bytes(r.peakBytes), 10, true) + pad(saved(r.savedBytes), 12, true)
            + (h.fits(r.peakBytes) ? "  fits" : "      ") + "  without "
            + (r.without.kind == WhatIf::Candidate::Site ? "" : "category ") + withoutName(c, r)
            + (r.withRequest ? " (and the failed request)" : "") + "\n";
    }
    return out;
}

// "ranks 0–63", "rank 5".
std::string ranksWords(const std::vector<int>& ranks)
{
    return (ranks.size() > 1 ? "ranks " : "rank ") + Formatting::ranks(ranks).toStdString();
}

// The devices of a group's members where texts name devices: "cuda:1", or where each rank has its own GPU,
// "cuda:0–3".
std::string groupDevice(const Comparison& c, const std::vector<size_t>& members)
{
    std::vector<int> devices;
    for (size_t i : members) {
        if (std::find(devices.begin(), devices.end(), c.ranks()[i].device) == devices.end())
            devices.push_back(c.ranks()[i].device);
    }
    return "cuda:" + Formatting::ranks(devices).toStdString();
}

// What a group's member differs in from its first: the figures that are not the same, by their JSON names.
nlohmann::ordered_json differences(const RankSummary& first, const RankSummary& r)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    const auto differ = [&](const char* key, int64_t value, int64_t shared) {
        if (value != shared)
            out[key] = value;
    };
    differ("device", r.device, first.device);
    differ("bytes_at_point", r.bytesAtPoint, first.bytesAtPoint);
    differ("peak_allocated_bytes", r.peakAllocatedBytes, first.peakAllocatedBytes);
    differ("reserved_bytes_at_point", r.reservedAtPoint, first.reservedAtPoint);
    differ("excess_bytes", r.excessBytes, first.excessBytes);
    differ("oom_events", r.oomEvents, first.oomEvents);
    differ("oom_requested_bytes", r.oomRequestedBytes, first.oomRequestedBytes);
    differ("oom_device_free_bytes", r.oomDeviceFreeBytes, first.oomDeviceFreeBytes);
    return out;
}

// What `r` holds that `first` does not, as a JSON merge patch (RFC 7396) of `first`: objects key by key, anything
// else whole, and null for a key `first` has and `r` lacks.
nlohmann::ordered_json mergePatch(const nlohmann::ordered_json& first, const nlohmann::ordered_json& r)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& [key, value] : r.items()) {
        const auto it = first.find(key);
        if (it != first.end() && it->is_object() && value.is_object()) {
            if (nlohmann::ordered_json d = mergePatch(*it, value); !d.empty())
                out[key] = std::move(d);
        } else if (it == first.end() || *it != value) {
            out[key] = value;
        }
    }
    for (const auto& [key, value] : first.items()) {
        if (!r.contains(key))
            out[key] = nullptr;
    }
    return out;
}

} // namespace

nlohmann::ordered_json rankRecord(const nlohmann::ordered_json& diff, size_t index)
{
    const nlohmann::ordered_json& record = diff["ranks"][index];
    if (!record.contains("alike_with"))
        return record;
    nlohmann::ordered_json whole = diff["ranks"][record["alike_index"].get<size_t>()];
    nlohmann::ordered_json patch = record;
    patch.erase("alike_with");
    patch.erase("alike_index");
    whole.merge_patch(patch);
    return whole;
}

nlohmann::ordered_json stackJson(
    const StackText::Frames& shown, const std::vector<StackText::Frame>& recorded, FrameDetail detail)
{
    // The user's own frames as the shown frames mark them (the packages --my-code counts as theirs included); a
    // recorded frame the viewer hides is nobody's own.
    const auto own = [&](const StackText::Frame& f) {
        for (size_t i = 0; i < shown.frames.size() && i < shown.own.size(); ++i) {
            if (shown.frames[i] == f)
                return bool(shown.own[i]);
        }
        return false;
    };
    const auto frame = [](const StackText::Frame& f, bool ownCode) {
        return nlohmann::ordered_json { { "filename", std::string(f.file) }, { "line", f.line },
            { "name", std::string(f.name) }, { "own_code", ownCode } };
    };
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    if (detail == FrameDetail::All) {
        for (const StackText::Frame& f : recorded)
            out.push_back(frame(f, own(f)));
        return out;
    }
    const size_t count = shown.frames.size() - shown.folded;
    if (count == 0)
        return out;
    size_t fold = 0;
    size_t inner = shown.start;
    for (; fold < shown.folds.size() && shown.folds[fold].at <= shown.start; ++fold)
        inner += shown.folds[fold].count;
    if (inner > 0)
        out.push_back({ { "inner_frames", inner } });
    for (size_t i = shown.start; i <= count; ++i) {
        for (; fold < shown.folds.size() && shown.folds[fold].at == i; ++fold)
            out.push_back({ { "native_frames", shown.folds[fold].count } });
        if (i < count)
            out.push_back(frame(shown.frames[i], i < shown.own.size() && shown.own[i]));
    }
    return out;
}

std::string stackLine(const StackText::Frames& shown, const std::vector<StackText::Frame>& recorded, FrameDetail detail)
{
    std::string out;
    for (const nlohmann::ordered_json& f : stackJson(shown, recorded, detail)) {
        out += out.empty() ? "" : " < ";
        if (f.contains("inner_frames"))
            out += "[" + std::to_string(f["inner_frames"].get<size_t>()) + " inner frames]";
        else if (f.contains("native_frames"))
            out += "[+" + std::to_string(f["native_frames"].get<size_t>()) + " native frames]";
        else
            out += (f["own_code"].get<bool>() ? "*" : "") + f["name"].get<std::string>() + " ("
                + Formatting::fileName(f["filename"].get<std::string>()).toStdString() + ":"
                + std::to_string(f["line"].get<int64_t>()) + ")";
    }
    return out;
}

std::vector<int> groupRanks(const Comparison& c, const std::vector<size_t>& members)
{
    std::vector<int> out;
    out.reserve(members.size());
    for (size_t i : members)
        out.push_back(c.ranks()[i].rank);
    return out;
}

std::vector<int> findingRanks(const Comparison& c, const std::vector<size_t>& members)
{
    std::vector<int> out;
    out.reserve(members.size());
    for (size_t i : members)
        out.push_back(c.findings()[i].rank);
    return out;
}

std::string pointWords(const Comparison& c)
{
    return VerdictText::moment(c.verdict(), c.groups().size() > 1, VerdictText::English).toStdString();
}

std::string text(const Comparison& c, int maxFindings, int maxRankRows)
{
    const Verdict& v = c.verdict();
    std::string out = v.rankCount < 2 && v.kind != Verdict::Growth
        ? std::string("Verdict: none (one rank, nothing to compare it with)")
        : "Verdict: " + std::string(Verdict::kindName(v.kind));
    if (v.rank < 0 && !v.groupRanks.empty() && v.kind != Verdict::ModelParallelImbalance) {
        out += " (ranks " + Formatting::ranks(v.groupRanks).toStdString() + ", +" + bytes(v.excessBytes) + " each)";
    } else if (v.kind == Verdict::OverCapacity) {
        out += std::string(v.oomRanks.size() > 1 ? " (ranks " : " (rank ") + Formatting::ranks(v.oomRanks).toStdString()
            + (v.oomGroups.empty() ? std::string(", needed ") : "; rank " + std::to_string(v.figuresRank) + " needed ")
            + bytes(v.neededBytes) + ")";
    } else if (v.rank < 0 && !v.oomRanks.empty()) {
        out += " (ranks " + Formatting::ranks(v.oomRanks).toStdString() + ")";
    } else if (v.rank >= 0 && !v.oomRanks.empty()) {
        out += " (rank " + std::to_string(v.rank) + ")";
    } else if (v.rank >= 0 && v.kind != Verdict::Balanced) {
        out += " (rank " + std::to_string(v.rank) + ", +" + bytes(v.excessBytes) + ")";
    }
    out += "\n  " + explanation(v) + "\n";
    if (const std::string r = remedy(v); !r.empty())
        out += "  What to change: " + r + "\n";
    if (const QString considered = VerdictText::considered(v, VerdictText::English); !considered.isEmpty())
        out += "  " + considered.toStdString() + "\n";
    out += "  Confidence: " + VerdictText::confidence(v, VerdictText::English).toStdString() + "\n";

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
    // The rank and device columns as wide as their longest label ("0–40, 42–63"), so every row lines up (the event
    // column, right-aligned, keeps them apart).
    const AlikeRanks& alike = c.alike();
    const size_t shownRows =
        maxRankRows >= 0 ? std::min(alike.groups.size(), size_t(maxRankRows)) : alike.groups.size();
    size_t rankWidth = 6;
    size_t deviceWidth = 8;
    for (size_t row = 0; row < shownRows; ++row) {
        const std::vector<size_t>& members = alike.groups[row].members;
        rankWidth = std::max(rankWidth, columns(Formatting::ranks(groupRanks(c, members)).toStdString()));
        if (devices)
            deviceWidth = std::max(deviceWidth, columns(groupDevice(c, members)));
    }
    out += "  " + pad("rank", rankWidth) + (devices ? pad("device", deviceWidth) : std::string())
        + pad("event", 10, true) + pad("at point", 12, true) + pad("excess", 12, true) + pad("peak", 12, true)
        + pad("reserved", 12, true) + pad("unallocated", 17, true) + pad("largest free", 13, true)
        + pad("OOMs", 6, true) + "  file\n";
    // Ranks alike in one line: the figures of the first, every member named.
    for (size_t row = 0; row < alike.groups.size(); ++row) {
        const AlikeRanks::Group& g = alike.groups[row];
        if (maxRankRows >= 0 && row >= size_t(maxRankRows)) {
            size_t rest = 0;
            for (size_t i = row; i < alike.groups.size(); ++i)
                rest += alike.groups[i].members.size();
            out += "  … " + std::to_string(rest) + " more ranks in " + std::to_string(alike.groups.size() - row)
                + " rows (use --json for all)\n";
            break;
        }
        const RankSummary& r = c.ranks()[g.first()];
        const bool several = g.members.size() > 1;
        const std::string device = groupDevice(c, g.members);
        out += "  "
            + pad(
                several ? Formatting::ranks(groupRanks(c, g.members)).toStdString() : std::to_string(r.rank), rankWidth)
            + (devices ? pad(device, deviceWidth) : std::string()) + pad(std::to_string(r.sourceEvent), 10, true)
            + pad(bytes(r.bytesAtPoint), 12, true)
            + pad((r.excessBytes > 0 ? "+" : "") + bytes(r.excessBytes), 12, true)
            + pad(bytes(r.peakAllocatedBytes), 12, true) + pad(bytes(r.reservedAtPoint), 12, true)
            + pad(bytes(r.unallocatedBytes) + " " + share(r.unallocatedBytes, r.reservedAtPoint), 17, true)
            + pad(bytes(r.largestFreeBytes), 13, true) + pad(std::to_string(r.oomEvents), 6, true) + "  "
            + r.path.toStdString() + (r.traceIncomplete ? "  (trace incomplete)" : "")
            + (r.note.empty() ? "" : "  (" + r.note.english() + ")")
            + (several ? "  (" + std::to_string(g.members.size()) + " ranks alike: rank " + std::to_string(r.rank)
                        + "'s figures)"
                       : std::string())
            + "\n";
    }
    if (std::any_of(c.ranks().begin(), c.ranks().end(), [](const RankSummary& r) { return r.traceIncomplete; }))
        out += "  (trace incomplete: the trace frees memory it never saw allocated, as when recording started late or "
               "its ring buffer wrapped, so allocations from before it are missing from its start)\n";
    if (std::any_of(c.ranks().begin(), c.ranks().end(), [](const RankSummary& r) { return r.host.recorded; })) {
        out += "\nPinned host memory (each rank's process; host memory, never compared with the GPUs):\n";
        // Ranks alike said once, with the first's figures.
        std::vector<size_t> recorded;
        for (size_t i = 0; i < c.ranks().size(); ++i) {
            if (c.ranks()[i].host.recorded)
                recorded.push_back(i);
        }
        const double percent = c.options().thresholdPercent;
        const std::vector<AlikeRanks::Group> groups = AlikeRanks::grouped(recorded,
            [&](size_t first, size_t i) { return AlikeRanks::alikeHost(c.ranks()[first], c.ranks()[i], percent); });
        std::vector<std::string> labels;
        size_t width = 0;
        for (const AlikeRanks::Group& g : groups) {
            labels.push_back(ranksWords(groupRanks(c, g.members)) + (g.members.size() > 1 ? ", alike:" : ""));
            width = std::max(width, columns(labels.back()));
        }
        for (size_t n = 0; n < groups.size(); ++n) {
            const RankSummary& r = c.ranks()[groups[n].first()];
            out += "  " + pad(labels[n], width) + "  reserved " + bytes(r.host.reservedBytes) + ", allocated "
                + bytes(r.host.allocatedBytes) + ", peak " + bytes(r.host.peakAllocatedBytes)
                + (groups[n].members.size() > 1 ? " (rank " + std::to_string(r.rank) + "'s figures)" : std::string())
                + "\n";
        }
    }

    std::string ooms;
    for (const AlikeRanks::Group& g : alike.groups) {
        const RankSummary& r = c.ranks()[g.first()];
        if (r.oomEvents == 0)
            continue;
        const std::string device = devices ? groupDevice(c, g.members) : std::string();
        ooms += "  " + ranksWords(groupRanks(c, g.members)) + (g.members.size() > 1 ? ", alike:" : "")
            + (device.empty() ? std::string() : " " + device) + "  asked for " + bytes(r.oomRequestedBytes) + " with "
            + bytes(r.oomDeviceFreeBytes) + " free on the device (event "
            + std::to_string(sourceEvent(c, g.first(), r.oomEvent))
            + (g.members.size() > 1 ? " of rank " + std::to_string(r.rank) : "") + ")\n";
        const Snapshot& snapshot = c.history(g.first()).snapshot();
        const StackText::Frames frames =
            StackText::stackFrames(snapshot, r.oomStack, true, c.sites().ownPackagesOf(snapshot));
        if (frames.frames.empty())
            ooms += "      <no stack recorded>\n";
        for (const QString& line : StackText::lines(frames, 8).lines)
            ooms += "      " + line.toStdString() + "\n";
    }
    if (!ooms.empty())
        out += "\nOut of memory (each rank's last failed request, where it was asked for):\n" + ooms;

    if (!c.ranks().empty())
        out += "\n" + holdingsText(c, c.verdictHoldings(), 5);

    if (const std::optional<ParallelLayout>& layout = c.layout()) {
        out += "\nGroups of the layout " + layout->text() + (layout->suggested ? " (guessed; --layout to set it)" : "")
            + ", medians of their ranks:\n";
        for (const GroupSummary& g : c.groups()) {
            const std::string list = Formatting::ranks(g.ranks).toStdString();
            out += "  " + pad(g.name, 14) + pad(bytes(g.bytesAtPoint), 12, true) + "  model state "
                + bytes(g.modelStateBytes()) + ", activations " + bytes(g.categoryBytes[size_t(Category::Activation)])
                + "  ranks " + list + "\n";
        }
    }

    const auto& findings = c.findings();
    const size_t alikeFindings = AlikeRanks::several(alike.findingGroups);
    out += findings.empty() ? std::string("\nFindings: none (no rank holds more than its baseline at any site)\n")
                            : "\nFindings (" + std::to_string(findings.size()) + ", largest first"
            + (alikeFindings > 0 ? "; those of several ranks alike said once" : "") + "):\n";
    int shown = 0;
    size_t said = 0;
    for (const AlikeRanks::Group& g : alike.findingGroups) {
        if (shown++ >= maxFindings) {
            out += "  … " + std::to_string(findings.size() - said) + " more (use --json for all)\n";
            break;
        }
        said += g.members.size();
        const Finding& f = findings[g.first()];
        const bool several = g.members.size() > 1;
        const std::string device = devices ? " cuda:" + std::to_string(f.device) : std::string();
        out += "  " + ranksWords(findingRanks(c, g.members)) + (several ? ", alike:" : "") + device + "  "
            + Finding::kindName(f.kind) + "  +" + bytes(f.excessBytes) + (several ? " each" : "") + "  ("
            + bytes(f.rankBytes) + " in " + std::to_string(f.rankCount) + " allocations; baseline "
            + bytes(f.baselineBytes) + " in " + std::to_string(f.baselineCount) + ")  " + std::to_string(f.runs.size())
            + " run(s)  " + categoryName(f.category) + poolsText(f) + "\n";
        // As every view shows a stack: in call order, native runs folded where they were called, as the failed
        // requests' stacks above and the reports show them.
        const StackText::Frames frames = StackText::siteFrames(c.sites(), f.site);
        if (frames.frames.empty())
            out += "      <no stack recorded>\n";
        for (const QString& line : StackText::lines(frames, 8).lines)
            out += "      " + line.toStdString() + "\n";
    }
    return out;
}

std::string json(const Comparison& c, FrameDetail frames)
{
    StackList stacks(frames);
    const AlikeRanks& alike = c.alike();
    nlohmann::ordered_json out;
    out["at"] = c.pointName();
    if (c.alignedTo() >= 0)
        out["aligned_to"] = c.alignedTo();
    if (const Moment& m = c.moment(); m.rank >= 0)
        out["moment"] = { { "rank", m.rank }, { "event", m.event }, { "reason", Moment::reasonName(m.reason) } };
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
            { "aligned_excess_bytes", r.alignedExcessBytes },
            { "aligned_excess_event", r.alignedExcessEvent },
            { "peak_allocated_bytes", r.peakAllocatedBytes },
            { "bytes_at_point", r.bytesAtPoint },
            { "reserved_bytes_at_point", r.reservedAtPoint },
            { "excess_bytes", r.excessBytes },
            { "reserved_unallocated_bytes", r.unallocatedBytes },
            { "largest_free_bytes", r.largestFreeBytes },
            { "categories", categoriesJson(r.categoryBytes) },
            { "oom_events", r.oomEvents },
            { "trace_incomplete", r.traceIncomplete },
            { "group", alike.groupOf[out["ranks"].size()] },
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
        if (r.oomEvents > 0)
            rank["oom"] = oomJson(c, r, stacks);
        if (const size_t index = size_t(&r - c.ranks().data()); c.missesPoint(index))
            rank["at"] = c.pointNameOf(index);
        if (!r.note.empty())
            rank["note"] = r.note.english();
        if (r.host.recorded)
            rank["host_memory"] = InfoFormat::hostMemoryJson(r.host);
        out["ranks"].push_back(std::move(rank));
    }
    // A rank alike with an earlier one says only what differs from that rank's record (rankRecord makes it whole):
    // the answer grows with what differs, not with the ranks.
    for (size_t i = c.ranks().size(); i-- > 0;) {
        const size_t first = alike.groups[alike.groupOf[i]].first();
        if (first == i)
            continue;
        nlohmann::ordered_json small = { { "rank", c.ranks()[i].rank }, { "alike_with", c.ranks()[first].rank },
            { "alike_index", first } };
        nlohmann::ordered_json differs = mergePatch(out["ranks"][first], out["ranks"][i]);
        differs.erase("rank");
        small.update(differs);
        out["ranks"][i] = std::move(small);
    }
    // Ranks alike, said once: the figures of the first member, and what each other member differs in.
    out["groups"] = nlohmann::ordered_json::array();
    for (const AlikeRanks::Group& g : alike.groups) {
        const RankSummary& first = c.ranks()[g.first()];
        const std::vector<int> ranks = groupRanks(c, g.members);
        nlohmann::ordered_json group = { { "ranks", ranks }, { "ranks_text", Formatting::ranks(ranks).toStdString() },
            { "figures_rank", first.rank }, { "bytes_at_point", first.bytesAtPoint },
            { "peak_allocated_bytes", first.peakAllocatedBytes }, { "reserved_bytes_at_point", first.reservedAtPoint },
            { "excess_bytes", first.excessBytes }, { "oom_events", first.oomEvents } };
        if (first.oomEvents > 0)
            group["oom"] = oomJson(c, first, stacks);
        nlohmann::ordered_json differ = nlohmann::ordered_json::array();
        for (size_t i = 1; i < g.members.size(); ++i) {
            nlohmann::ordered_json d = differences(first, c.ranks()[g.members[i]]);
            if (!d.empty()) {
                d["rank"] = c.ranks()[g.members[i]].rank;
                differ.push_back(std::move(d));
            }
        }
        group["differences"] = std::move(differ);
        out["groups"].push_back(std::move(group));
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
    out["finding_groups"] = nlohmann::ordered_json::array();
    for (const Comparison* d : compared) {
        const size_t offset = out["findings"].size();
        for (size_t i = 0; i < d->findings().size(); ++i) {
            nlohmann::ordered_json f = findingJson(*d, d->findings()[i], stacks);
            f["group"] = out["finding_groups"].size() + d->alike().findingGroupOf[i];
            out["findings"].push_back(std::move(f));
        }
        // Findings alike (one site and kind on several ranks), said once: the first's figures, each other's excess
        // where it differs.
        for (const AlikeRanks::Group& g : d->alike().findingGroups) {
            const Finding& first = d->findings()[g.first()];
            std::vector<size_t> indices;
            nlohmann::ordered_json differ = nlohmann::ordered_json::array();
            for (size_t i : g.members) {
                indices.push_back(offset + i);
                if (d->findings()[i].excessBytes != first.excessBytes)
                    differ.push_back(
                        { { "rank", d->findings()[i].rank }, { "excess_bytes", d->findings()[i].excessBytes } });
            }
            const std::vector<int> ranks = findingRanks(*d, g.members);
            out["finding_groups"].push_back(
                { { "ranks", ranks }, { "ranks_text", Formatting::ranks(ranks).toStdString() },
                    { "device", first.device }, { "kind", Finding::kindName(first.kind) },
                    { "category", categoryName(first.category) }, { "site", d->sites().label(first.site) },
                    { "excess_bytes", first.excessBytes }, { "stack", stacks.site(*d, first.site) },
                    { "findings", std::move(indices) }, { "differences", std::move(differ) } });
        }
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
    } else if (!v.groupRanks.empty()) {
        // Ranks alike that stand out together: the group, the rest of their replica group, the layout they fit.
        out["verdict"]["group_ranks"] = v.groupRanks;
        out["verdict"]["other_ranks"] = v.otherRanks;
        out["verdict"]["figures_rank"] = v.figuresRank;
        if (!v.fittingLayout.empty())
            out["verdict"]["fitting_layout"] = v.fittingLayout;
    }
    if (v.kind != Verdict::Balanced && v.rankCount > 1)
        out["verdict"]["excess_by_category"] = categoriesJson(v.excessByCategory);
    if (v.kind == Verdict::Growth) {
        out["verdict"]["growth_under_threshold"] = v.growthUnderThreshold;
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
    if (!v.settingDifferences.empty()) {
        nlohmann::ordered_json settings = nlohmann::ordered_json::array();
        for (const Verdict::SettingDifference& d : v.settingDifferences)
            settings.push_back(
                { { "rank", d.rank }, { "setting", d.setting }, { "value", d.value }, { "others", d.usual } });
        out["verdict"]["allocator_settings_differ"] = std::move(settings);
    }
    if (!v.oomRanks.empty()) {
        out["verdict"]["ranks"] = v.oomRanks;
        out["verdict"]["figures_rank"] = v.figuresRank;
    }
    if (!v.oomGroups.empty()) {
        // Failed requests that differ: each group once, the one that stands out (whose figures these are) first.
        nlohmann::ordered_json groups = nlohmann::ordered_json::array();
        for (const Verdict::OomGroup& g : v.oomGroups)
            groups.push_back({ { "ranks", g.ranks }, { "ranks_text", Formatting::ranks(g.ranks).toStdString() },
                { "figures_rank", g.figuresRank }, { "requested_bytes", g.requestedBytes },
                { "device_free_bytes", g.deviceFreeBytes } });
        out["verdict"]["oom_groups"] = std::move(groups);
    }
    if (v.kind == Verdict::OutsideAllocator) {
        out["verdict"]["evidence"] = v.evidence == Verdict::DeviceTotal ? "device_total" : "replicas_fit";
        if (v.evidence == Verdict::ReplicasFit)
            out["verdict"]["fitting_ranks"] = v.fittingRanks;
    }
    if (v.kind == Verdict::OutsideAllocator || v.kind == Verdict::OverCapacity) {
        out["verdict"]["requested_bytes"] = v.oomRequestedBytes;
        out["verdict"]["reserved_bytes"] = v.oomReservedBytes;
        out["verdict"]["device_free_bytes"] = v.oomDeviceFreeBytes;
        if (v.deviceMemoryBytes > 0) {
            out["verdict"]["device_memory_bytes"] = v.deviceMemoryBytes;
            out["verdict"]["outside_bytes"] = v.outsideBytes;
            out["verdict"]["context_allowance_bytes"] = Verdict::contextAllowanceBytes;
        }
    }
    if (v.kind == Verdict::OverCapacity) {
        out["verdict"]["held_bytes"] = v.heldBytes;
        out["verdict"]["held_by_category"] = categoriesJson(v.heldByCategory);
        out["verdict"]["needed_bytes"] = v.neededBytes;
        out["verdict"]["free_in_reserve_bytes"] = v.freeInReserveBytes;
        out["verdict"]["largest_free_bytes"] = v.largestFreeBytes;
        nlohmann::ordered_json remedies = nlohmann::ordered_json::array();
        for (const Verdict::Remedy& r : v.remedies) {
            nlohmann::ordered_json remedy = { { "kind", Verdict::Remedy::kindName(r.kind) }, { "bytes", r.bytes } };
            if (r.peakWithoutBytes > 0) {
                remedy["peak_without_bytes"] = r.peakWithoutBytes;
                remedy["saved_bytes"] = r.savedBytes;
            }
            if (r.closesGap >= 0) {
                remedy["closes_gap"] = r.closesGap > 0;
                remedy["spare_bytes"] = r.spareBytes;
            }
            remedies.push_back(std::move(remedy));
        }
        out["verdict"]["remedies"] = std::move(remedies);
    }
    if (const int index = c.rankIndex(v.oomRanks.empty() ? v.rank : v.figuresRank);
        index >= 0 && (!v.oomRanks.empty() || v.oomRequestedBytes > 0)) {
        nlohmann::ordered_json oom = oomJson(c, c.ranks()[size_t(index)], stacks);
        oom["rank"] = c.ranks()[size_t(index)].rank;
        out["verdict"]["oom"] = std::move(oom);
    }
    if (v.kind == Verdict::Fragmentation) {
        out["verdict"]["requested_bytes"] = v.oomRequestedBytes;
        out["verdict"]["free_in_reserve_bytes"] = v.freeInReserveBytes;
        out["verdict"]["largest_free_bytes"] = v.largestFreeBytes;
        out["verdict"]["fragmented_segments"] = v.fragmentedSegments;
        out["verdict"]["expandable_segments"] = v.expandableSegments;
    }
    if (!c.ranks().empty()) {
        const RankHoldings holdings = c.verdictHoldings();
        out["verdict"]["composition"] = compositionJson(c, holdings, 10);
        out["verdict"]["peak_bytes"] = holdings.peakBytes;
        if (holdings.margin.offeredBytes > 0)
            out["verdict"]["offered_bytes"] = holdings.margin.offeredBytes;
        out["verdict"]["what_if"] = whatIfJson(c, holdings);
    }
    if (v.margin.outcome != Verdict::Margin::None)
        out["verdict"]["margin"] = marginJson(v.margin);
    out["verdict"]["confidence"] = Verdict::confidenceName(v.confidence);
    out["verdict"]["confidence_reason"] = VerdictText::confidence(v, VerdictText::English).toStdString();
    out["verdict"]["considered"] = consideredJson(v);
    out["verdict"]["explanation"] = explanation(v);
    out["verdict"]["remedy"] = remedy(v);
    if (!c.devices().empty()) {
        out["devices"] = nlohmann::ordered_json::array();
        for (const DeviceVerdict& d : c.devices()) {
            out["devices"].push_back({ { "device", d.device }, { "kind", Verdict::kindName(d.kind) },
                { "rank", d.rank }, { "excess_bytes", d.excessBytes }, { "findings", d.findings } });
        }
    }
    out["frames"] = frames == FrameDetail::All ? "all" : "yours";
    out["stacks"] = stacks.take();
    return out.dump(2) + "\n";
}

std::string topText(const Comparison& c, const RankHoldings& h, By by, size_t maxRows)
{
    if (by == By::Site)
        return holdingsText(c, h, maxRows);
    const Composition& comp = h.composition;
    const std::string at = holdingsAt(c, h);
    std::string out = "What fills rank " + std::to_string(h.rank) + "'s GPU " + atWords(at) + " (event "
        + std::to_string(sourceEvent(c, h.rankIndex, comp.event)) + "): " + bytes(comp.totalBytes)
        + alikeNote(c, h.rankIndex) + "\n";
    out += "  " + pad("bytes", 10, true) + pad("share", 8, true) + pad("allocs", 8, true) + "  " + pad("category", 16)
        + pad("peak without", 14, true) + pad("saved", 12, true) + "\n";
    std::array<int64_t, CategoryCount> counts {};
    for (const Holding& site : comp.sites)
        counts[size_t(site.category)] += site.count;
    for (int k = 0; k < CategoryCount; ++k) {
        const int64_t b = comp.categoryBytes[size_t(k)];
        if (b == 0)
            continue;
        std::string peak, reduction;
        for (const WhatIf::Result& r : h.whatIf) {
            if (r.without.kind == WhatIf::Candidate::CategoryOf && r.without.category == Category(k)) {
                peak = bytes(r.peakBytes);
                reduction = saved(r.savedBytes);
            }
        }
        out += "  " + pad(bytes(b), 10, true) + pad(share(b, comp.totalBytes), 8, true)
            + pad(std::to_string(counts[size_t(k)]), 8, true) + "  " + pad(categoryName(Category(k)), 16)
            + pad(peak, 14, true) + pad(reduction, 12, true) + "\n";
    }
    out += "Peak " + bytes(h.peakBytes)
        + (c.history(h.rankIndex).ooms().empty() ? std::string() : std::string(" (failed requests counted)")) + "\n";
    return out;
}

std::string topJson(const Comparison& c, const RankHoldings& h, By by)
{
    nlohmann::ordered_json out = compositionJson(c, h, -1);
    out["device"] = c.ranks()[h.rankIndex].device;
    // The ranks its figures stand for, itself included.
    const AlikeRanks& alike = c.alike();
    out["alike_ranks"] = groupRanks(c, alike.groups[alike.groupOf[h.rankIndex]].members);
    out["peak_bytes"] = h.peakBytes;
    if (h.margin.offeredBytes > 0) {
        out["offered_bytes"] = h.margin.offeredBytes;
        out["margin"] = marginJson(h.margin);
    }
    if (by == By::Category) {
        out.erase("top_sites");
        nlohmann::ordered_json categories = nlohmann::ordered_json::array();
        for (int k = 0; k < CategoryCount; ++k) {
            const int64_t b = h.composition.categoryBytes[size_t(k)];
            if (b > 0)
                categories.push_back({ { "category", categoryName(Category(k)) }, { "bytes", b },
                    { "share", double(b) / double(std::max<int64_t>(h.composition.totalBytes, 1)) } });
        }
        out["by_category"] = std::move(categories);
    }
    out["what_if"] = whatIfJson(c, h);
    return out.dump(2) + "\n";
}

std::string csv(const Comparison& c, FrameDetail frames)
{
    // A row per group of findings alike: the figures of its largest, every rank named (`ranks`); the stack from the
    // user's frame outward. The new columns go last, so a script that reads columns by position reads the same.
    std::string out =
        "rank,kind,excess_bytes,rank_bytes,baseline_bytes,rank_count,baseline_count,runs,category,site,ranks,stack\n";
    for (const AlikeRanks::Group& g : c.alike().findingGroups) {
        const Finding& f = c.findings()[g.first()];
        const StackText::Frames shown = StackText::siteFrames(c.sites(), f.site);
        out += std::to_string(f.rank) + "," + Finding::kindName(f.kind) + "," + std::to_string(f.excessBytes) + ","
            + std::to_string(f.rankBytes) + "," + std::to_string(f.baselineBytes) + "," + std::to_string(f.rankCount)
            + "," + std::to_string(f.baselineCount) + "," + std::to_string(f.runs.size()) + ","
            + categoryName(f.category) + "," + csvField(c.sites().label(f.site, 8)) + ","
            + csvField(Formatting::ranks(findingRanks(c, g.members)).toStdString()) + ","
            + csvField(stackLine(shown, StackList::recordedOrder(shown), frames)) + "\n";
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
        "Reserved at point", "Reserved but unallocated", "Largest free block", "OOMs", "Trace" };
    if (c.layout())
        header.insert(header.begin() + 2, "Layout");
    return header;
}

// A row per group of ranks alike: the figures of its first, every member named.
std::vector<ReportRow> rankRows(const Comparison& c)
{
    std::vector<ReportRow> rows;
    for (const AlikeRanks::Group& g : c.alike().groups) {
        const RankSummary& r = c.ranks()[g.first()];
        const bool several = g.members.size() > 1;
        const std::string device = groupDevice(c, g.members);
        ReportRow row { { several ? Formatting::ranks(groupRanks(c, g.members)).toStdString()
                    + (c.namesDevices() && !device.empty() ? " (" + device + ")" : "")
                                  : rankName(c, r.rank, r.device),
            QFileInfo(r.path).fileName().toStdString()
                + (several ? " (" + std::to_string(g.members.size()) + " ranks alike: its figures)" : ""),
            bytes(r.peakAllocatedBytes), bytes(r.bytesAtPoint), (r.excessBytes > 0 ? "+" : "") + bytes(r.excessBytes),
            bytes(modelStateBytes(r.categoryBytes)), bytes(r.categoryBytes[size_t(Category::Activation)]),
            bytes(r.reservedAtPoint),
            bytes(r.unallocatedBytes) + " (" + share(r.unallocatedBytes, r.reservedAtPoint) + ")",
            bytes(r.largestFreeBytes), std::to_string(r.oomEvents), r.traceIncomplete ? "incomplete" : "complete" } };
        if (const std::optional<ParallelLayout>& layout = c.layout())
            row.cells.insert(row.cells.begin() + 2, several ? std::string("-") : layout->coordinatesText(r.rank));
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string htmlEscape(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped().toStdString();
}

std::string htmlTable(const std::vector<std::string>& header, const std::vector<ReportRow>& rows)
{
    std::string out = "<table>\n<tr>";
    for (const std::string& h : header)
        out += "<th>" + htmlEscape(h) + "</th>";
    out += "</tr>\n";
    for (const ReportRow& row : rows) {
        out += "<tr>";
        for (const std::string& cell : row.cells)
            out += "<td>" + htmlEscape(cell) + "</td>";
        out += "</tr>\n";
    }
    return out + "</table>\n";
}

// The second column is text (a file or a site), left-aligned; the others are figures.
std::string markdownTable(const std::vector<std::string>& header, const std::vector<ReportRow>& rows)
{
    const auto cell = [](std::string text) {
        for (size_t p = text.find('|'); p != std::string::npos; p = text.find('|', p + 2))
            text.replace(p, 1, "\\|");
        return text;
    };
    std::string out = "|";
    for (const std::string& h : header)
        out += " " + h + " |";
    out += "\n|";
    for (size_t i = 0; i < header.size(); ++i)
        out += i == 1 ? "---|" : "---:|";
    out += "\n";
    for (const ReportRow& row : rows) {
        out += "|";
        for (const std::string& text : row.cells)
            out += " " + cell(text) + " |";
        out += "\n";
    }
    return out;
}

// Each rank's last failed request: a sentence and the stack it was asked from.
struct OomSection
{
    std::string sentence;
    std::vector<std::string> stack;
};

// A section per group of ranks alike that ran out of memory: said once, every member named.
std::vector<OomSection> oomSections(const Comparison& c)
{
    std::vector<OomSection> sections;
    for (const AlikeRanks::Group& g : c.alike().groups) {
        const RankSummary& r = c.ranks()[g.first()];
        if (r.oomEvents == 0)
            continue;
        OomSection section;
        const bool several = g.members.size() > 1;
        const std::string device = c.namesDevices() ? groupDevice(c, g.members) : std::string();
        section.sentence = (several ? "Ranks " + Formatting::ranks(groupRanks(c, g.members)).toStdString() + " alike"
                                    : "Rank " + rankName(c, r.rank, r.device))
            + (several && !device.empty() ? " (" + device + ")" : "") + " ran out of memory asking for "
            + bytes(r.oomRequestedBytes) + " with " + bytes(r.oomDeviceFreeBytes) + " free on the device (event "
            + std::to_string(sourceEvent(c, g.first(), r.oomEvent))
            + (several ? " of rank " + std::to_string(r.rank) : "")
            + (r.oomEvents > 1 ? ", the last of " + std::to_string(r.oomEvents) : "") + ").";
        for (const QString& line : StackText::lines(StackText::stackFrames(c.history(g.first()).snapshot(), r.oomStack,
                                                        true, c.sites().ownPackagesOf(c.history(g.first()).snapshot())),
                 12)
                                       .lines)
            section.stack.push_back(line.toStdString());
        sections.push_back(std::move(section));
    }
    return sections;
}

// What fills the verdict's rank's GPU, as a heading, a sentence by category, its largest sites and the peaks
// without them.
struct HoldingsSection
{
    std::string heading;
    std::string categories;
    std::vector<std::string> sitesHeader = { "Bytes", "Site", "Share", "Allocations", "Category" };
    std::vector<ReportRow> sites;
    std::string peak;
    std::vector<std::string> whatIfHeader = { "Peak", "Without", "Saved", "Fits what the GPU offered" };
    std::vector<ReportRow> whatIf;
};

HoldingsSection holdingsSection(const Comparison& c)
{
    const RankHoldings h = c.verdictHoldings();
    const Composition& comp = h.composition;
    HoldingsSection out;
    const std::string at = holdingsAt(c, h);
    out.heading = "What fills rank " + std::to_string(h.rank) + "'s GPU " + atWords(at) + ": " + bytes(comp.totalBytes);
    for (int k = 0; k < CategoryCount; ++k) {
        const int64_t b = comp.categoryBytes[size_t(k)];
        if (b > 0)
            out.categories += (out.categories.empty() ? "" : ", ")
                + VerdictText::category(Category(k), VerdictText::Plain).toStdString() + " " + bytes(b) + " ("
                + share(b, comp.totalBytes) + ")";
    }
    for (size_t i = 0; i < comp.sites.size() && i < 8; ++i) {
        const Holding& site = comp.sites[i];
        out.sites.push_back({ { bytes(site.bytes), c.sites().label(site.site), share(site.bytes, comp.totalBytes),
            std::to_string(site.count), VerdictText::category(site.category, VerdictText::Plain).toStdString() } });
    }
    out.peak = "Its peak is " + bytes(h.peakBytes)
        + (c.history(h.rankIndex).ooms().empty() ? std::string() : std::string(", the failed requests counted"))
        + offeredWords(h) + "; had these allocations not been made, it would have been:";
    for (const WhatIf::Result& r : h.whatIf) {
        out.whatIf.push_back({ { bytes(r.peakBytes),
            r.without.kind == WhatIf::Candidate::Site
                ? c.sites().label(r.without.site)
                : "every allocation of " + VerdictText::category(r.without.category, VerdictText::Plain).toStdString(),
            saved(r.savedBytes) + (r.withRequest ? " (with the failed request)" : ""),
            h.fitLimitBytes > 0 ? (h.fits(r.peakBytes) ? "yes" : "no") : "-" } });
    }
    return out;
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
    for (const QString& line : StackText::lines(StackText::siteFrames(c.sites(), f.site), 12).lines)
        lines.push_back(line.toStdString());
    return lines;
}

// The title of the n-th group of findings alike: its ranks and the figures of its largest.
std::string findingTitle(const Comparison& c, size_t n)
{
    const AlikeRanks::Group& g = c.alike().findingGroups[n];
    const Finding& f = c.findings()[g.first()];
    const bool several = g.members.size() > 1;
    return std::to_string(n + 1) + ". "
        + (several ? "Ranks " + Formatting::ranks(findingRanks(c, g.members)).toStdString() + " alike"
                   : "Rank " + rankName(c, f.rank, f.device))
        + ", " + VerdictText::findingKind(f.kind, VerdictText::Plain).toStdString() + ", "
        + VerdictText::category(f.category, VerdictText::Plain).toStdString() + ", +" + bytes(f.excessBytes)
        + (several ? " each" : "") + ": " + c.sites().label(f.site);
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
    if (const QString considered = VerdictText::considered(v, VerdictText::Plain); !considered.isEmpty())
        out += "<p>" + htmlEscape(considered.toStdString()) + "</p>\n";
    out +=
        "<p><b>Confidence:</b> " + htmlEscape(VerdictText::confidence(v, VerdictText::Plain).toStdString()) + "</p>\n";
    out += "</div>\n<h2>Ranks</h2>\n" + htmlTable(rankHeader(c), rankRows(c));
    const std::vector<OomSection> ooms = oomSections(c);
    if (!ooms.empty())
        out += "<h2>Out of memory</h2>\n";
    for (const OomSection& oom : ooms) {
        out += "<p>" + htmlEscape(oom.sentence) + "</p>\n<pre>";
        for (const std::string& line : oom.stack)
            out += htmlEscape(line) + "\n";
        out += "</pre>\n";
    }
    if (!c.ranks().empty()) {
        const HoldingsSection h = holdingsSection(c);
        out += "<h2>" + htmlEscape(h.heading) + "</h2>\n<p>" + htmlEscape(h.categories) + "</p>\n"
            + htmlTable(h.sitesHeader, h.sites) + "<p>" + htmlEscape(h.peak) + "</p>\n"
            + htmlTable(h.whatIfHeader, h.whatIf);
    }
    if (!png.isEmpty())
        out += "<h2>Diff</h2>\n<img alt=\"The diff of the two ranks\" src=\"data:image/png;base64,"
            + png.toBase64().toStdString() + "\">\n";
    out += "<h2>Top findings</h2>\n";
    if (c.findings().empty())
        out += "<p>No rank holds more than its baseline at any allocation site.</p>\n";
    for (size_t i = 0; i < c.alike().findingGroups.size() && int(i) < maxFindings; ++i) {
        const Finding& f = c.findings()[c.alike().findingGroups[i].first()];
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
    if (const QString considered = VerdictText::considered(v, VerdictText::Plain); !considered.isEmpty())
        out += considered.toStdString() + "\n\n";
    out += "**Confidence:** " + VerdictText::confidence(v, VerdictText::Plain).toStdString() + "\n\n";
    out += "## Ranks\n\n" + markdownTable(rankHeader(c), rankRows(c));
    const std::vector<OomSection> ooms = oomSections(c);
    if (!ooms.empty())
        out += "\n## Out of memory\n";
    for (const OomSection& oom : ooms) {
        out += "\n" + oom.sentence + "\n\n```\n";
        for (const std::string& line : oom.stack)
            out += line + "\n";
        out += "```\n";
    }
    if (!c.ranks().empty()) {
        const HoldingsSection h = holdingsSection(c);
        out += "\n## " + h.heading + "\n\n" + h.categories + "\n\n" + markdownTable(h.sitesHeader, h.sites) + "\n"
            + h.peak + "\n\n" + markdownTable(h.whatIfHeader, h.whatIf);
    }
    if (!image.isEmpty())
        out += "\n## Diff\n\n![The diff of the two ranks](" + image.toStdString() + ")\n";
    out += "\n## Top findings\n\n";
    if (c.findings().empty())
        out += "No rank holds more than its baseline at any allocation site.\n";
    for (size_t i = 0; i < c.alike().findingGroups.size() && int(i) < maxFindings; ++i) {
        const Finding& f = c.findings()[c.alike().findingGroups[i].first()];
        out += "### " + findingTitle(c, i) + "\n\n" + findingFigures(f) + "\n\n```\n";
        for (const std::string& line : stackLines(c, f))
            out += line + "\n";
        out += "```\n\n";
    }
    return out;
}

} // namespace RankScope::DiffReport
