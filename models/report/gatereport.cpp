// SPDX-License-Identifier: MIT
#include "gatereport.h"

#include "formatting.h"
#include "stacktext.h"

#include <QXmlStreamWriter>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace RankScope::GateReport {

namespace {

// How many sites the answers name, and how many lines of each stack the text shows: the text fits one screen.
constexpr size_t shownSites = 5;
constexpr size_t textSites = 3;
constexpr int stackLines = 5;

std::string bytes(int64_t b)
{
    return Formatting::bytes(b).toStdString();
}

std::string signedBytes(int64_t b)
{
    return (b < 0 ? "-" : "+") + bytes(std::abs(b));
}

std::string percentOf(int64_t part, int64_t whole)
{
    if (whole <= 0)
        return "";
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f%%", 100.0 * double(part) / double(whole));
    return text;
}

std::string percentText(double percent)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g%%", percent);
    return text;
}

std::string rankName(const GateResult& g, const GateResult::Rank& r)
{
    return "rank " + std::to_string(r.rank) + (namesDevices(g) ? " cuda:" + std::to_string(r.device) : std::string());
}

std::string whenText(const GateResult::Rank& r)
{
    if (r.largestBytes <= 0)
        return "-";
    if (r.eventAfter < 0)
        return "before the trace";
    return std::to_string(int(std::lround(r.stepFraction * 100))) + "% into the step (event "
        + std::to_string(r.eventAfter) + "; the baseline's event " + std::to_string(r.eventBefore) + ")";
}

std::string toleranceText(const GateOptions& o)
{
    return percentText(o.tolerancePercent) + " of a rank's peak, at least " + bytes(o.minBytes);
}

std::string siteLabel(const GateResult& g, const GateResult::SiteChange& c)
{
    return g.sites ? g.sites->label(c.site) : std::string();
}

// The site's stack as every view shows it, in call order, the line where the user's own code starts marked '>'.
std::vector<std::string> stackOf(const GateResult& g, const GateResult::SiteChange& c, int lines)
{
    std::vector<std::string> out;
    if (!g.sites)
        return out;
    const StackText::Lines shown = StackText::lines(StackText::siteFrames(*g.sites, c.site), lines);
    for (qsizetype i = 0; i < shown.lines.size(); ++i)
        out.push_back((i == shown.start ? "> " : "  ") + shown.lines[i].toStdString());
    return out;
}

std::string changeFigures(const GateResult::SiteChange& c)
{
    return bytes(c.before) + " → " + bytes(c.after) + ", " + std::to_string(c.countBefore) + " → "
        + std::to_string(c.countAfter) + " allocations";
}

std::string rowRanks(const GateResult& g, const RankGroup& row)
{
    const std::string list = Formatting::ranks(row.ranks).toStdString();
    return namesDevices(g) ? list + " cuda:" + std::to_string(row.first->device) : list;
}

// "rank 2" or "ranks 2, 3": a list of ranks with its noun.
std::string ranksNoun(const std::vector<int>& ranks)
{
    return (ranks.size() == 1 ? "rank " : "ranks ") + Formatting::ranks(ranks).toStdString();
}

std::string headline(const GateResult& g)
{
    const std::vector<int> failed = g.regressedRanks();
    // Ranks the gate could not weigh leave it incomplete: never a plain pass, whatever the others hold.
    const std::string ungated =
        g.complete() ? std::string() : "; " + ranksNoun(ungatedRanks(g)) + " not gated: a file could not be read";
    if (failed.empty())
        return (g.complete() ? "PASS: no rank holds" : "INCOMPLETE: no rank gated holds")
            + std::string(" more than the baseline beyond the tolerance (") + toleranceText(g.options) + ")" + ungated;
    return "FAIL: " + std::to_string(failed.size()) + " of " + std::to_string(rankCount(g)) + " ranks ("
        + Formatting::ranks(failed).toStdString() + ") hold more than the baseline beyond the tolerance ("
        + toleranceText(g.options) + ")" + ungated;
}

// What each rank the gate could not weigh lacks, a line each.
std::vector<std::string> ungatedLines(const GateResult& g)
{
    std::vector<std::string> out;
    for (const GateResult::Ungated& u : g.ungated)
        out.push_back("rank " + std::to_string(u.rank) + " not gated: "
            + (u.baselineRank < 0 ? std::string() : "its baseline, rank " + std::to_string(u.baselineRank) + ", ")
            + "could not be read (" + u.reason + ")");
    return out;
}

std::string pairingText(const GateResult& g)
{
    std::string out = "Baseline: " + std::to_string(g.baselineRanks) + " rank" + (g.baselineRanks == 1 ? "" : "s");
    if (g.pairedModulo) {
        const std::vector<int> modulo = moduloRanks(g);
        out += "; " + ranksNoun(modulo) + (modulo.size() == 1 ? " has" : " have")
            + " no rank of its own there: rank R is weighed against baseline rank R modulo "
            + std::to_string(g.baselineRanks);
    }
    // GPUs numbered otherwise than the baseline's (more GPUs per rank, or ranks counting their own from 0) are
    // paired by their place among the rank's GPUs; say so, as the pairing of ranks is said.
    if (const std::vector<std::pair<int, int>> pairs = devicePairs(g); !pairs.empty()) {
        std::string list;
        for (const auto& [device, baseline] : pairs)
            list += (list.empty() ? "" : ", ") + std::string("cuda:") + std::to_string(device)
                + " against cuda:" + std::to_string(baseline);
        out += "; a rank's GPUs are weighed against the baseline rank's GPU at the same place among its GPUs, or its "
               "last ("
            + list + ")";
    }
    if (!g.baselineOnly.empty())
        out += "; baseline " + ranksNoun(g.baselineOnly) + (g.baselineOnly.size() == 1 ? " is" : " are")
            + " not in the new job";
    return out + ".";
}

nlohmann::ordered_json categoriesJson(const CategoryBytes& bytes)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (size_t c = 0; c < bytes.size(); ++c) {
        if (bytes[c] != 0)
            out[categoryName(Category(c))] = bytes[c];
    }
    return out;
}

nlohmann::ordered_json siteJson(const GateResult& g, const GateResult::SiteChange& c)
{
    nlohmann::ordered_json frames = nlohmann::ordered_json::array();
    if (g.sites) {
        for (const auto& frame : g.sites->frames(c.site))
            frames.push_back({ { "filename", *frame.filename }, { "line", frame.line }, { "name", *frame.name } });
    }
    char fingerprint[24];
    std::snprintf(fingerprint, sizeof fingerprint, "%016llx", static_cast<unsigned long long>(c.fingerprint));
    return { { "kind", GateResult::SiteChange::kindName(c.kind) }, { "site", siteLabel(g, c) },
        { "fingerprint", fingerprint }, { "category", categoryName(c.category) }, { "before_bytes", c.before },
        { "after_bytes", c.after }, { "growth_bytes", c.delta() }, { "count_before", c.countBefore },
        { "count_after", c.countAfter }, { "ranks", c.rankList }, { "frames", std::move(frames) } };
}

// The sites a failure names: the job's for the job, the rank's own growth for a rank.
std::vector<const GateResult::SiteChange*> grown(const std::vector<GateResult::SiteChange>& sites)
{
    std::vector<const GateResult::SiteChange*> out;
    for (const GateResult::SiteChange& c : sites) {
        if (c.delta() > 0 && out.size() < shownSites)
            out.push_back(&c);
    }
    return out;
}

std::string siteLine(const GateResult& g, const GateResult::SiteChange& c, size_t ranks)
{
    return signedBytes(c.delta()) + "  " + GateResult::SiteChange::kindName(c.kind) + "  " + categoryName(c.category)
        + "  " + siteLabel(g, c) + "  ("
        + (ranks > 1 ? "on " + std::to_string(c.ranks) + " of " + std::to_string(ranks) + " ranks; " : std::string())
        + changeFigures(c) + ")";
}

// `text` padded to `width` characters (not bytes: sizes and ranges carry a few non-ASCII ones).
std::string pad(const std::string& text, size_t width)
{
    const size_t length = size_t(QString::fromStdString(text).size());
    return text + std::string(width > length ? width - length : 1, ' ');
}

std::string growthText(const GateResult::Rank& r)
{
    if (r.largestBytes <= 0)
        return "none";
    return signedBytes(r.largestBytes) + " (" + percentOf(r.largestBytes, r.peakBefore) + ")";
}

} // namespace

size_t rankCount(const GateResult& g)
{
    std::set<int> all;
    for (const GateResult::Rank& r : g.ranks)
        all.insert(r.rank);
    for (const GateResult::Ungated& u : g.ungated)
        all.insert(u.rank);
    return all.size();
}

bool namesDevices(const GateResult& g)
{
    std::set<int> devices;
    std::set<int> ranks;
    for (const GateResult::Rank& r : g.ranks) {
        devices.insert(r.device);
        ranks.insert(r.rank);
    }
    return devices.size() > 1 || g.ranks.size() > ranks.size();
}

std::vector<RankGroup> rankGroups(const GateResult& g)
{
    std::vector<RankGroup> out;
    std::vector<std::string> keys;
    const bool devices = namesDevices(g);
    for (const GateResult::Rank& r : g.ranks) {
        const std::string key = std::to_string(r.regressed()) + bytes(r.peakBefore) + bytes(r.peakAfter)
            + signedBytes(r.largestBytes) + std::to_string(std::lround(r.stepFraction * 20))
            + (devices ? std::to_string(r.device) : std::string()) + std::to_string(r.baselineRank == r.rank);
        const auto same = std::find(keys.begin(), keys.end(), key);
        if (same != keys.end()) {
            out[size_t(same - keys.begin())].ranks.push_back(r.rank);
        } else {
            out.push_back({ { r.rank }, &r });
            keys.push_back(key);
        }
    }
    return out;
}

std::vector<int> moduloRanks(const GateResult& g)
{
    std::vector<int> out;
    for (const GateResult::Rank& r : g.ranks) {
        if (r.baselineRank != r.rank && (out.empty() || out.back() != r.rank))
            out.push_back(r.rank);
    }
    return out;
}

std::vector<int> ungatedRanks(const GateResult& g)
{
    std::vector<int> out;
    for (const GateResult::Ungated& u : g.ungated)
        out.push_back(u.rank);
    return out;
}

std::vector<std::pair<int, int>> devicePairs(const GateResult& g)
{
    std::set<std::pair<int, int>> pairs;
    for (const GateResult::Rank& r : g.ranks) {
        if (r.device != r.baselineDevice)
            pairs.emplace(r.device, r.baselineDevice);
    }
    return { pairs.begin(), pairs.end() };
}

std::string rankFigures(const GateResult& g, const GateResult::Rank& r)
{
    (void)g;
    std::string out = r.largestBytes <= 0 ? std::string("no growth across the step")
                                          : signedBytes(r.largestBytes) + " (" + percentOf(r.largestBytes, r.peakBefore)
            + " of the baseline's peak) at " + whenText(r) + ": " + bytes(r.totalBefore) + " → " + bytes(r.totalAfter);
    out += (r.regressed() ? ", beyond the " : ", within the ") + bytes(r.allowedBytes) + " allowed";
    out += "; peak " + bytes(r.peakBefore) + " → " + bytes(r.peakAfter) + " ("
        + percentOf(r.peakAfter - r.peakBefore, r.peakBefore) + ")";
    if (r.peakRegressed)
        out += ", beyond the tolerance";
    return out;
}

std::string text(const GateResult& g)
{
    std::string out = "rankscope gate: " + headline(g) + "\n" + pairingText(g) + "\n";
    for (const std::string& line : ungatedLines(g))
        out += line + "\n";
    out += "\n";
    out +=
        pad("rank", 12) + pad("peak before -> after", 36) + pad("largest growth, aligned", 28) + "when in the step\n";
    for (const RankGroup& row : rankGroups(g)) {
        const GateResult::Rank& r = *row.first;
        const std::string peak = bytes(r.peakBefore) + " -> " + bytes(r.peakAfter) + " ("
            + percentOf(r.peakAfter - r.peakBefore, r.peakBefore) + ")";
        out += pad(rowRanks(g, row), 12) + pad(peak, 36) + pad(growthText(r) + (r.regressed() ? " FAIL" : ""), 28)
            + whenText(r) + "\n";
    }
    std::vector<const GateResult::SiteChange*> sites = grown(g.jobSites);
    if (sites.size() > textSites)
        sites.resize(textSites);
    if (!sites.empty()) {
        out += "\nWhat grew, at the moment of each failing rank's largest growth (your code marked >):\n";
        for (const GateResult::SiteChange* c : sites) {
            out += "  " + siteLine(g, *c, rankCount(g)) + "\n";
            for (const std::string& l : stackOf(g, *c, stackLines))
                out += "    " + l + "\n";
        }
        if (g.jobSites.size() > sites.size())
            out += "  … " + std::to_string(g.jobSites.size() - sites.size()) + " more (use --json for all)\n";
    }
    return out;
}

std::string json(const GateResult& g)
{
    nlohmann::ordered_json out;
    out["passed"] = g.passed();
    out["complete"] = g.complete();
    out["tolerance_percent"] = g.options.tolerancePercent;
    out["min_bytes"] = g.options.minBytes;
    out["baseline_ranks"] = g.baselineRanks;
    out["baseline_only_ranks"] = g.baselineOnly;
    out["paired_modulo"] = g.pairedModulo;
    out["regressed_ranks"] = g.regressedRanks();
    nlohmann::ordered_json& ranks = out["ranks"] = nlohmann::ordered_json::array();
    for (const GateResult::Rank& r : g.ranks) {
        nlohmann::ordered_json sites = nlohmann::ordered_json::array();
        for (const GateResult::SiteChange& c : r.sites)
            sites.push_back(siteJson(g, c));
        ranks.push_back({ { "rank", r.rank }, { "device", r.device }, { "baseline_rank", r.baselineRank },
            { "baseline_device", r.baselineDevice }, { "regressed", r.regressed() },
            { "peak_regressed", r.peakRegressed }, { "step_regressed", r.stepRegressed },
            { "allowed_bytes", r.allowedBytes }, { "peak_before_bytes", r.peakBefore },
            { "peak_after_bytes", r.peakAfter }, { "largest_growth_bytes", r.largestBytes },
            { "total_before_bytes", r.totalBefore }, { "total_after_bytes", r.totalAfter },
            { "event_before", r.eventBefore }, { "event_after", r.eventAfter }, { "step_fraction", r.stepFraction },
            { "stretches", r.stretches }, { "stretches_placed", r.placedStretches },
            { "categories_before", categoriesJson(r.categoriesBefore) },
            { "categories_after", categoriesJson(r.categoriesAfter) }, { "sites", std::move(sites) } });
    }
    nlohmann::ordered_json& ungated = out["ungated"] = nlohmann::ordered_json::array();
    for (const GateResult::Ungated& u : g.ungated)
        ungated.push_back({ { "rank", u.rank }, { "baseline_rank", u.baselineRank }, { "reason", u.reason } });
    nlohmann::ordered_json& sites = out["sites"] = nlohmann::ordered_json::array();
    for (const GateResult::SiteChange& c : g.jobSites)
        sites.push_back(siteJson(g, c));
    return out.dump(2) + "\n";
}

QByteArray junit(const GateResult& g)
{
    QByteArray bytesOut;
    QXmlStreamWriter w(&bytesOut);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    const std::vector<int> failed = g.regressedRanks();
    size_t failures = failed.empty() ? 0 : 1;
    for (const GateResult::Rank& r : g.ranks)
        failures += r.regressed();
    const QString tests = QString::number(qsizetype(g.ranks.size() + g.ungated.size()) + 1);
    const QString errors = QString::number(qsizetype(g.ungated.size()));
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("rankscope gate"));
    w.writeAttribute(QStringLiteral("tests"), tests);
    w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    w.writeAttribute(QStringLiteral("errors"), errors);
    w.writeStartElement(QStringLiteral("testsuite"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("rankscope gate"));
    w.writeAttribute(QStringLiteral("tests"), tests);
    w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    w.writeAttribute(QStringLiteral("errors"), errors);
    const auto testCase = [&](const std::string& name, const std::string& failure, const std::string& body) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), QStringLiteral("rankscope.gate"));
        w.writeAttribute(QStringLiteral("name"), QString::fromStdString(name));
        if (!failure.empty()) {
            w.writeStartElement(QStringLiteral("failure"));
            w.writeAttribute(QStringLiteral("message"), QString::fromStdString(failure));
            w.writeAttribute(QStringLiteral("type"), QStringLiteral("memory regression"));
            w.writeCharacters(QString::fromStdString(body));
            w.writeEndElement();
        } else if (!body.empty()) {
            w.writeTextElement(QStringLiteral("system-out"), QString::fromStdString(body));
        }
        w.writeEndElement();
    };
    const auto sitesText = [&](const std::vector<GateResult::SiteChange>& changes, size_t ranks) {
        std::string out;
        for (const GateResult::SiteChange* c : grown(changes)) {
            out += siteLine(g, *c, ranks) + "\n";
            for (const std::string& l : stackOf(g, *c, stackLines))
                out += "  " + l + "\n";
        }
        return out;
    };
    const std::vector<const GateResult::SiteChange*> jobSites = grown(g.jobSites);
    std::string jobFailure;
    if (!failed.empty()) {
        jobFailure = headline(g);
        if (!jobSites.empty())
            jobFailure +=
                "; grew most: " + signedBytes(jobSites.front()->delta()) + " at " + siteLabel(g, *jobSites.front());
    }
    testCase("job", jobFailure, headline(g) + "\n" + pairingText(g) + "\n" + sitesText(g.jobSites, rankCount(g)));
    for (const GateResult::Rank& r : g.ranks) {
        const std::vector<const GateResult::SiteChange*> own = grown(r.sites);
        std::string failure;
        if (r.regressed()) {
            failure = rankName(g, r) + " holds " + rankFigures(g, r);
            if (!own.empty())
                failure += "; grew most: " + signedBytes(own.front()->delta()) + " at " + siteLabel(g, *own.front());
        }
        testCase(rankName(g, r), failure, rankName(g, r) + ": " + rankFigures(g, r) + "\n" + sitesText(r.sites, 1));
    }
    // A rank the gate could not weigh is an error of the test, not a pass: CI shows it as such.
    const std::vector<std::string> lines = ungatedLines(g);
    for (size_t i = 0; i < g.ungated.size(); ++i) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), QStringLiteral("rankscope.gate"));
        w.writeAttribute(QStringLiteral("name"), QStringLiteral("rank %1").arg(g.ungated[i].rank));
        w.writeStartElement(QStringLiteral("error"));
        w.writeAttribute(QStringLiteral("message"), QString::fromStdString(lines[i]));
        w.writeAttribute(QStringLiteral("type"), QStringLiteral("unreadable file"));
        w.writeEndElement();
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    return bytesOut;
}

std::string markdown(const GateResult& g)
{
    const auto cell = [](const std::string& s) {
        std::string out;
        for (char ch : s)
            out += ch == '|' ? std::string("\\|") : std::string(1, ch);
        return out;
    };
    std::string out = "## RankScope memory gate: "
        + std::string(!g.passed() ? "**FAIL**"
                : !g.complete()   ? "**INCOMPLETE**"
                                  : "pass")
        + "\n\n" + cell(headline(g)) + ". " + pairingText(g) + "\n\n";
    for (const std::string& line : ungatedLines(g))
        out += "- " + cell(line) + "\n";
    if (!g.complete())
        out += "\n";
    out += std::string() + "| Ranks | Peak before | Peak after | Largest aligned growth | When in the step | Result |\n"
        + "|---|---|---|---|---|---|\n";
    for (const RankGroup& row : rankGroups(g)) {
        const GateResult::Rank& r = *row.first;
        out += "| " + rowRanks(g, row) + " | " + bytes(r.peakBefore) + " | " + bytes(r.peakAfter) + " ("
            + percentOf(r.peakAfter - r.peakBefore, r.peakBefore) + ") | " + growthText(r) + " | " + whenText(r) + " | "
            + (r.regressed() ? "**fail**" : "pass") + " |\n";
    }
    const std::vector<const GateResult::SiteChange*> sites = grown(g.jobSites);
    if (!sites.empty()) {
        out += "\n### What grew\n\n| Growth | Kind | Category | Site | Ranks | Before → after "
               "|\n|---|---|---|---|---|---|\n";
        for (const GateResult::SiteChange* c : sites) {
            out += "| " + signedBytes(c->delta()) + " | " + GateResult::SiteChange::kindName(c->kind) + " | "
                + categoryName(c->category) + " | `" + cell(siteLabel(g, *c)) + "` | "
                + Formatting::ranks(c->rankList).toStdString() + " | " + changeFigures(*c) + " |\n";
        }
        for (const GateResult::SiteChange* c : sites) {
            out += "\n<details><summary>" + cell(siteLabel(g, *c)) + "</summary>\n\n```\n";
            for (const std::string& l : stackOf(g, *c, 12))
                out += l + "\n";
            out += "```\n</details>\n";
        }
    }
    return out;
}

} // namespace RankScope::GateReport
