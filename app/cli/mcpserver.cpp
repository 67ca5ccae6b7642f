// SPDX-License-Identifier: MIT
#include "mcpserver.h"

#include "diffreport.h"
#include "formatting.h"
#include "infoformat.h"
#include "joboptions.h"
#include "rankfiles.h"
#include "sitetable.h"
#include "stacktext.h"
#include "steplog.h"
#include "stepsreport.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <istream>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

namespace RankScope::Cli {

namespace {

using Json = McpServer::Json;

// The protocol versions the official SDKs speak, newest first: a client that asks for one of them gets it, any
// other the newest.
const char* const protocolVersions[] = { "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05" };

Json error(const Json& id, int code, const std::string& message)
{
    return { { "jsonrpc", "2.0" }, { "id", id }, { "error", { { "code", code }, { "message", message } } } };
}

// Arguments, read with the messages an agent can act on.
std::optional<Json> argument(const Json& args, const char* name)
{
    if (!args.contains(name) || args[name].is_null())
        return std::nullopt;
    return args[name];
}

int64_t integerOf(const Json& args, const char* name, int64_t fallback, int64_t least,
    int64_t most = std::numeric_limits<int64_t>::max())
{
    const std::optional<Json> v = argument(args, name);
    if (!v)
        return fallback;
    if (!v->is_number_integer() || v->get<int64_t>() < least || v->get<int64_t>() > most)
        throw ToolError(std::string(name) + " needs a whole number, " + std::to_string(least)
            + (most == std::numeric_limits<int64_t>::max() ? " or more" : " to " + std::to_string(most)));
    return v->get<int64_t>();
}

std::string stringOf(const Json& args, const char* name)
{
    const std::optional<Json> v = argument(args, name);
    if (!v)
        return {};
    if (!v->is_string())
        throw ToolError(std::string(name) + " needs a string");
    return v->get<std::string>();
}

bool flagOf(const Json& args, const char* name)
{
    const std::optional<Json> v = argument(args, name);
    if (v && !v->is_boolean())
        throw ToolError(std::string(name) + " needs true or false");
    return v && v->get<bool>();
}

// One of the values a schema's enum lists, or the first (the default) when not given.
std::string choiceOf(const Json& args, const char* name, const std::vector<std::string>& choices)
{
    std::string v = stringOf(args, name); // not const: returned, it moves
    if (v.empty())
        return choices.front();
    if (std::find(choices.begin(), choices.end(), v) == choices.end()) {
        std::string list;
        for (const std::string& c : choices)
            list += (list.empty() ? "" : ", ") + c;
        throw ToolError(std::string(name) + " needs one of " + list + ", not '" + v + "'");
    }
    return v;
}

// A job option's name as the tools' arguments spell it.
std::string spelled(const std::string& option)
{
    static const std::map<std::string, std::string> spelling = { { "at", "point" }, { "my-code", "my_code" },
        { "device-memory", "device_memory" }, { "steps", "steps_of_one_rank" }, { "present-on", "present_on" } };
    const auto it = spelling.find(option);
    return it == spelling.end() ? option : it->second;
}

// The command line's and the window's words, where the analysis's sentences (VerdictText, DiffReport) are shared with
// them, in the tools' words: an agent can only give a tool's arguments.
std::string toolWords(std::string text)
{
    static const std::pair<const char*, const char*> phrases[] = {
        { "(--device-memory SIZE, or Compare \u2192 GPU Memory\u2026)", "(diff's device_memory argument)" },
        { "(give --device-memory SIZE, or Compare \u2192 GPU Memory\u2026, to count it)",
            "(give diff's device_memory argument to count it)" },
        { "(--layout, or Compare \u2192 Parallel Layout\u2026)", "(diff's layout argument)" },
        { "(guessed; --layout to set it)", "(guessed; diff's layout argument sets it)" },
        { "more (use --json for all)", "more (the findings tool pages them: offset, limit)" },
        { "rows (use --json for all)", "rows (the ranks tool pages them: offset, limit)" },
        { "(the latest; --step N for another)", "(the latest; diff's step argument picks another)" },
    };
    for (const auto& [cli, tool] : phrases) {
        for (size_t at = text.find(cli); at != std::string::npos; at = text.find(cli, at + std::strlen(tool)))
            text.replace(at, std::strlen(cli), tool);
    }
    return text;
}

// Every string of an answer in the tools' words.
void inToolWords(Json& j)
{
    if (j.is_string())
        j = toolWords(j.get<std::string>());
    else if (j.is_structured()) {
        for (Json& item : j)
            inToolWords(item);
    }
}

// A job's error or note in the command line's words, the option named as the tool's argument: "point oom: …",
// "my_code counts …".
std::string toolText(const JobError& e)
{
    return toolWords(e.option.empty() ? e.what : spelled(e.option) + " " + e.what);
}

ToolError toolError(const JobError& e)
{
    return ToolError(toolText(e));
}

// The job compared with `options`, or why not as the tool's error: every file an empty snapshot (nothing to compare,
// never a verdict of ranks alike), an option that does not fit the ranks, a point no rank has.
Job::Result compareOrRefuse(const Job& job, const ComparisonOptions& options)
{
    Job::Result result = job.compare(options);
    if (result.holdsNothing)
        throw ToolError(toolWords(Job::nothingToCompare(int(job.inputs().size())).english()));
    if (!result.comparison)
        throw result.error.empty() ? ToolError("no rank of the job could be read") : toolError(result.error);
    return result;
}

// What an answer says along with it (notes on the files, the folders left out), as a list and as "note: " lines.
Json notesJson(const std::vector<Phrase>& notes)
{
    Json out = Json::array();
    for (const Phrase& note : notes)
        out.push_back(toolWords(note.english()));
    return out;
}

std::string notesText(const Json& notes)
{
    std::string out;
    for (const Json& note : notes)
        out += "note: " + note.get<std::string>() + "\n";
    return out;
}

// A refusal with the notes that explain it (the folders a search left out).
ToolError refusal(const std::string& why, const Json& notes)
{
    return ToolError(notes.empty() ? why : why + "\n" + notesText(notes));
}

// Files' notes (an empty snapshot, a rank another file claims too), each note once with the files it is about.
Json fileNotes(const QList<LoadedFile>& files)
{
    constexpr size_t named = 4;
    Json out = Json::array();
    for (const LoadedFile& file : files) {
        const std::string note = file.notes().toStdString();
        if (note.empty())
            continue;
        auto same = std::find_if(out.begin(), out.end(), [&](const Json& n) { return n["note"] == note; });
        if (same == out.end()) {
            out.push_back({ { "note", note }, { "file_count", 0 }, { "files", Json::array() } });
            same = out.end() - 1;
        }
        (*same)["file_count"] = (*same)["file_count"].get<int64_t>() + 1;
        if ((*same)["files"].size() < named)
            (*same)["files"].push_back(file.path.toStdString());
    }
    return out;
}

std::string fileNotesText(const Json& notes)
{
    std::string out;
    for (const Json& n : notes) {
        const int64_t count = n["file_count"].get<int64_t>();
        std::string files;
        for (const Json& path : n["files"])
            files += (files.empty() ? "" : ", ") + path.get<std::string>();
        if (count > int64_t(n["files"].size()))
            files += ", … " + std::to_string(count - int64_t(n["files"].size())) + " more";
        out += "note: " + (count == 1 ? files : std::to_string(count) + " files (" + files + ")") + ": "
            + n["note"].get<std::string>() + "\n";
    }
    return out;
}

// The job's options from a tool's arguments, read by the command line's own reader: the same checks, the same words
// (with the argument's name where the command line names its option).
JobRequest requestOf(const Json& args)
{
    const OptionSource source {
        [&](const char* name) -> std::optional<QString> {
            const std::optional<Json> v = argument(args, spelled(name).c_str());
            if (!v)
                return std::nullopt;
            if (v->is_boolean())
                return v->get<bool>() ? QStringLiteral("true") : QStringLiteral("false");
            // A list of names (my_code's packages) as the command line writes it: "pkg,pkg".
            if (std::strcmp(name, "my-code") == 0 && v->is_array()
                && std::all_of(v->begin(), v->end(), [](const Json& j) { return j.is_string(); })) {
                QStringList items;
                for (const Json& item : *v)
                    items.append(QString::fromStdString(item.get<std::string>()));
                return items.join(QLatin1Char(','));
            }
            return QString::fromStdString(v->is_string() ? v->get<std::string>() : v->dump());
        },
        [](const char* name) { return spelled(name); },
    };
    JobRequest request;
    if (const std::string wrong = readJobOptions(source, request); !wrong.empty())
        throw ToolError(toolWords(wrong));
    return request;
}

Json schema(Json properties, const std::vector<std::string>& required = {})
{
    Json s = { { "type", "object" }, { "properties", std::move(properties) } };
    if (!required.empty())
        s["required"] = required;
    return s;
}

// A property with what a client may check before it calls: enum, default, bounds.
Json property(const char* type, const char* description, Json more = Json::object())
{
    Json p = { { "type", type }, { "description", description } };
    for (auto& [key, value] : more.items())
        p[key] = value;
    return p;
}

const Json jobProperty = property("string", "The job id open_job returned.");

Json pagingProperties(int64_t limit, int64_t most, const char* what)
{
    return { { "offset",
                 property("integer", (std::string(what) + " to skip; past the end is an error.").c_str(),
                     { { "default", 0 }, { "minimum", 0 } }) },
        { "limit",
            property("integer", (std::string(what) + " to return.").c_str(),
                { { "default", limit }, { "minimum", 1 }, { "maximum", most } }) } };
}

// The comparison options diff and top take, named as the command line names them (point for --at).
Json comparisonProperties()
{
    return {
        { "job", jobProperty },
        { "point",
            property("string",
                "Where each rank is compared: aligned (default), peak, snapshot, oom, event:<i>, event:<i>@<rank>, "
                "step:<N> or step:<N>:end.",
                { { "default", "aligned" } }) },
        { "baseline",
            property("string", "median (default) or a rank number to compare every rank with.",
                { { "default", "median" } }) },
        { "threshold",
            property("number",
                "How far above its baseline a rank must be to count, in percent; ranks within it of "
                "each other are alike and said once.",
                { { "default", 2 }, { "minimum", 0 } }) },
        { "my_code",
            { { "type", { "boolean", "string", "array" } }, { "items", { { "type", "string" } } },
                { "description",
                    "true: keep only the user's own frames in the site key; the names of installed packages "
                    "(\"torchtitan,megatron\" or a list) count their frames as the user's too. Where no frame is "
                    "the user's, the job's framework counts (a note says which)." },
                { "default", false } } },
        { "depth", property("integer", "Keep the first N frames in the site key (0: all).", { { "minimum", 1 } }) },
        { "layout", property("string", "The parallel layout, slowest first: pp=2,dp=4 (also tp, cp, ep).") },
        { "step", property("integer", "In a folder of several training steps, the step to compare.") },
        { "device", property("integer", "Compare cuda:N of every rank only.", { { "minimum", 0 } }) },
        { "device_memory", property("string", "Each GPU's total memory, such as 80GiB.") },
        { "present_on", property("string", "Keep the findings whose site K ranks hold, or K-M: 1 for one rank only.") },
    };
}

std::string lowered(std::string s)
{
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The next page's arguments, null after the last.
Json nextPage(int64_t offset, int64_t limit, int64_t total)
{
    return offset + limit < total ? Json { { "offset", offset + limit }, { "limit", limit } } : Json();
}

void checkOffset(int64_t offset, int64_t total, const char* what)
{
    if (offset > 0 && offset >= total)
        throw ToolError("offset " + std::to_string(offset) + ": there are only " + std::to_string(total) + " " + what);
}

std::string bytesText(int64_t b)
{
    return Formatting::bytes(b).toStdString();
}

// The frames of a stack of the diff's `stacks`, for an answer: in reading order (yours) or as recorded (all).
Json stackFrames(const Json& diff, const Json& index)
{
    if (!index.is_number_integer() || index.get<size_t>() >= diff["stacks"].size())
        return Json::array();
    return diff["stacks"][index.get<size_t>()]["frames"];
}

// A stack's frames as lines: "* name  file:line" for the user's own, "  [+3 native frames]" for a folded run.
std::string framesText(const Json& frames)
{
    std::string out;
    for (const Json& f : frames) {
        if (f.contains("inner_frames"))
            out +=
                "  … " + std::to_string(f["inner_frames"].get<size_t>()) + " inner frames (frames: all shows them)\n";
        else if (f.contains("native_frames"))
            out += "  [+" + std::to_string(f["native_frames"].get<size_t>()) + " native frames]\n";
        else
            out += std::string(f.value("own_code", false) ? "* " : "  ") + f.value("name", "") + "  "
                + f.value("filename", "") + ":" + std::to_string(f.value("line", int64_t(0))) + "\n";
    }
    return out;
}

// A group of findings alike as the findings tool lists it: its figures, ranks and site, not its frames (the stack
// tool gives those, by `number`, its largest finding's).
Json findingGroupSummary(const Json& diff, const Json& group)
{
    const size_t first = group["findings"][0].get<size_t>();
    const Json& f = diff["findings"][first];
    Json out = { { "number", first + 1 } };
    for (const char* key : { "rank", "device", "kind", "excess_bytes", "rank_bytes", "baseline_bytes", "rank_count",
             "baseline_count", "ranks_with_site", "category", "site" }) {
        if (f.contains(key))
            out[key] = f[key];
    }
    if (group["ranks"].size() > 1) {
        out["ranks"] = group["ranks_text"];
        out["rank_count_alike"] = group["ranks"].size();
        out["differences"] = group["differences"].size();
    }
    return out;
}

std::string findingGroupLine(const Json& g)
{
    return "#" + std::to_string(g["number"].get<size_t>()) + " "
        + (g.contains("ranks") ? "ranks " + g["ranks"].get<std::string>() + " alike" : "rank " + g["rank"].dump())
        + " +" + bytesText(g.value("excess_bytes", int64_t(0))) + (g.contains("ranks") ? " each " : " ")
        + g.value("kind", "") + " " + g.value("category", "") + " " + g.value("site", "") + "\n";
}

bool matches(const Json& diff, const Json& group, const std::string& filter)
{
    if (filter.empty())
        return true;
    const Json& f = diff["findings"][group["findings"][0].get<size_t>()];
    std::string text = "rank " + group.value("ranks_text", "") + " " + f.value("kind", "") + " "
        + f.value("category", "") + " " + f.value("site", "");
    for (const Json& frame : stackFrames(diff, f["stack"]))
        text += " " + frame.value("filename", "") + ":" + std::to_string(frame.value("line", 0)) + " "
            + frame.value("name", "");
    return lowered(text).find(lowered(filter)) != std::string::npos;
}

// A rank group as the ranks tool and the diff summary give it: members, shared figures, how many differ.
Json groupSummary(const Json& g)
{
    Json out = g;
    out.erase("ranks");
    out["rank_count"] = g["ranks"].size();
    // Its frames: stack with oom and a rank of it.
    if (out.contains("oom")) {
        out["oom"].erase("event");
        out["oom"].erase("stack");
    }
    return out;
}

std::string groupLine(const Json& g)
{
    const size_t n = g["ranks"].size();
    std::string line = std::string(n > 1 ? "ranks " : "rank ") + g["ranks_text"].get<std::string>()
        + (n > 1 ? ", alike: " : ": ") + bytesText(g["bytes_at_point"].get<int64_t>()) + " at the point, peak "
        + bytesText(g["peak_allocated_bytes"].get<int64_t>()) + ", excess "
        + bytesText(g["excess_bytes"].get<int64_t>());
    if (g.contains("oom"))
        line += "; asked for " + bytesText(g["oom"]["requested_bytes"].get<int64_t>()) + " with "
            + bytesText(g["oom"]["device_free_bytes"].get<int64_t>()) + " free at " + g["oom"].value("site", "");
    if (!g["differences"].empty())
        line += " (" + std::to_string(g["differences"].size()) + " differ slightly: the ranks tool lists them)";
    return line + "\n";
}

} // namespace

McpServer::McpServer(Console& console, std::string version)
    : m_console(console)
    , m_version(std::move(version))
    , m_folder(QDir::currentPath())
{ }

void McpServer::addTool(Tool tool)
{
    m_tools.push_back(std::move(tool));
}

void McpServer::addCoreTools()
{
    const Json anyObject = { { "type", "object" } };
    const Json array = { { "type", "array" } };
    const Json integer = { { "type", "integer" } };
    const Json pathsProperty = { { "type", "array" }, { "items", { { "type", "string" } } }, { "minItems", 1 },
        { "description",
            "Snapshot files (pickle or JSON, gzip or not) or folders; relative paths are resolved against the folder "
            "the server was started in." } };
    addTool({ "open_job", "Open a job",
        "Opens the per-rank memory snapshots of one training job (files or folders; a folder of several training "
        "steps opens its latest step) and loads them. Returns a job id for the other tools, how many rank files were "
        "read, the first files' figures (info pages every file's), the steps found and the files that could not be "
        "read. Next: diff.",
        schema({ { "paths", pathsProperty },
                   { "step",
                       property("integer",
                           "In a folder of several training steps, the step to open (default: the "
                           "latest).",
                           { { "minimum", 0 } }) },
                   { "steps_of_one_rank",
                       property("boolean", "The files are one rank's snapshots at successive steps.",
                           { { "default", false } }) } },
            { "paths" }),
        schema(
            { { "job", { { "type", "string" } } }, { "file_count", integer }, { "files", array }, { "failed", array } },
            { "job", "file_count", "files", "failed" }),
        [this](const Json& a) { return openJob(a); } });
    addTool({ "diff", "Compare the ranks",
        "Compares the job's ranks and gives the verdict: which rank holds more and why (input or burden imbalance, "
        "growth, a stray device, over capacity when every rank ran out alike, …), with its explanation, remedy, "
        "confidence and, for an out-of-memory, its margin and the failed request's frames (the user's first). Ranks "
        "alike within the threshold are said once as a group, with the exceptions; findings alike too. detail "
        "'summary' (default, within about 8,000 characters): the verdict, the groups, the top findings and what "
        "fills the verdict's GPU; 'full': every figure of `rankscope diff --json` (large on many ranks). More: "
        "findings and ranks page the rest, stack gives frames, top and what_if what fills a GPU. The options stay "
        "with the job for findings, ranks, stack, top, what_if and export_picture.",
        schema(
            [] {
                Json p = comparisonProperties();
                p["detail"] = property("string",
                    "summary (default): the verdict, groups and top findings; full: the whole comparison.",
                    { { "enum", { "summary", "full" } }, { "default", "summary" } });
                return p;
            }(),
            { "job" }),
        schema({ { "comparison", anyObject }, { "verdict", anyObject }, { "groups", array }, { "findings", array },
                   { "finding_count", integer } },
            { "comparison", "verdict", "groups", "findings", "finding_count" }),
        [this](const Json& a) { return diff(a); } });
    addTool({ "findings", "List findings",
        "Pages the findings of the job's last diff, largest first: what ranks hold more of than their baseline, per "
        "allocation site; findings of several ranks alike (one site, kind and excess within the threshold) are one "
        "entry naming its ranks. `number` is what stack takes. `filter` keeps those whose site, file, function, "
        "ranks, kind or category contains it; `next` holds the next page's offset and limit.",
        schema(
            [&] {
                Json p = { { "job", jobProperty },
                    { "filter", property("string", "Text to search the findings for (case-insensitive).") },
                    { "present_on",
                        property("string", "Only findings whose site K ranks hold, or K-M (1: one rank only).") } };
                p.update(pagingProperties(20, 100, "Entries"));
                return p;
            }(),
            { "job" }),
        schema({ { "comparison", anyObject }, { "total", integer }, { "matched", integer }, { "findings", array },
                   { "next", { { "type", { "object", "null" } } } } },
            { "comparison", "total", "matched", "findings", "next" }),
        [this](const Json& a) { return findings(a); } });
    addTool({ "ranks", "Per-rank figures",
        "Pages the ranks of the job's last diff: each group of ranks alike (within the threshold) once, with the "
        "figures of its first rank, its out-of-memory error if any, and each member's differences; with alike false, "
        "every rank's own figures. `next` holds the next page's offset and limit.",
        schema(
            [&] {
                Json p = { { "job", jobProperty },
                    { "alike",
                        property("boolean", "Groups of ranks alike (default) or every rank on its own.",
                            { { "default", true } }) } };
                p.update(pagingProperties(20, 200, "Entries"));
                return p;
            }(),
            { "job" }),
        schema({ { "comparison", anyObject }, { "rank_count", integer }, { "entries", array },
                   { "next", { { "type", { "object", "null" } } } } },
            { "comparison", "rank_count", "entries", "next" }),
        [this](const Json& a) { return ranks(a); } });
    addTool({ "stack", "A finding's stack",
        "The frames of one finding of the job's last diff (its number from findings, 1 the largest), or with oom the "
        "frames of a failed request (the verdict's, or `rank`'s; over_capacity has no findings: this is where its "
        "code is). frames 'yours' (default): from the user's innermost frame outward in call order, each marked "
        "own_code, the frames inside it ({\"inner_frames\":N}) and C++ and interpreter runs ({\"native_frames\":N}) "
        "counted in place; 'all': every frame as recorded, innermost first. Long stacks page (offset, limit, next).",
        schema(
            [&] {
                Json p = { { "job", jobProperty },
                    { "finding", property("integer", "The finding's number, 1 the largest.", { { "minimum", 1 } }) },
                    { "oom", property("boolean", "A failed request instead of a finding.", { { "default", false } }) },
                    { "rank",
                        property("integer", "With oom: the rank whose failed request (default: the verdict's).",
                            { { "minimum", 0 } }) },
                    { "frames",
                        property("string", "yours (default) or all.",
                            { { "enum", { "yours", "all" } }, { "default", "yours" } }) } };
                p.update(pagingProperties(40, 400, "Frames"));
                return p;
            }(),
            { "job" }),
        schema({ { "comparison", anyObject }, { "number", integer }, { "frames", array }, { "frame_count", integer },
                   { "next", { { "type", { "object", "null" } } } } },
            { "comparison", "number", "frames", "frame_count", "next" }),
        [this](const Json& a) { return stack(a); } });
    addTool({ "top", "What fills a GPU",
        "What fills one rank's GPU: the sites (or categories) holding memory, with bytes and category, and the peak "
        "the rank would have reached without each. By default the rank the verdict is about, at its OOM when the "
        "verdict is about one. Sites page (offset, limit, next).",
        schema(
            [&] {
                Json p = { { "job", jobProperty },
                    { "rank", property("integer", "The rank (default: the verdict's).", { { "minimum", 0 } }) },
                    { "point", property("string", "Where to look (default: where the verdict looks).") },
                    { "by",
                        property("string", "site (default) or category.",
                            { { "enum", { "site", "category" } }, { "default", "site" } }) } };
                p.update(pagingProperties(20, 100, "Sites"));
                return p;
            }(),
            { "job" }),
        schema({ { "comparison", anyObject }, { "rank", integer }, { "bytes", integer } },
            { "comparison", "rank", "bytes" }),
        [this](const Json& a) { return top(a, false); } });
    addTool({ "what_if", "Peaks without a site",
        "The peak one rank would have reached had each of its largest sites (and each category) not allocated: the "
        "trace replayed without them, a failed request counted at its OOM; `fits` says whether it would have fit "
        "what the GPU offered less what lay stranded in its reserve (`margin`, as the verdict gives it). At the "
        "point of the job's last diff.",
        schema({ { "job", jobProperty },
                   { "rank", property("integer", "The rank (default: the verdict's).", { { "minimum", 0 } }) } },
            { "job" }),
        schema({ { "comparison", anyObject }, { "rank", integer }, { "peak_bytes", integer }, { "what_if", array } },
            { "comparison", "rank", "peak_bytes", "what_if" }),
        [this](const Json& a) { return top(a, true); } });
    addTool({ "info", "Snapshot figures",
        "Per-device figures of snapshot files as PyTorch defines them (allocated, reserved, peaks, segments, "
        "trace), the same as `rankscope info --json`, a page of files at a time (offset, limit, next); opens no job. "
        "A file that cannot be read is an error.",
        schema(
            [&] {
                Json p = { { "paths", pathsProperty } };
                p.update(pagingProperties(8, 64, "Files"));
                return p;
            }(),
            { "paths" }),
        schema({ { "file_count", integer }, { "files", array }, { "next", { { "type", { "object", "null" } } } } },
            { "file_count", "files", "next" }),
        [this](const Json& a) { return info(a); } });
    addTool({ "steps", "Step reports from logs",
        "Reads per-rank step report lines from training logs (rank=3 step=120 cur=…MB peak=…MB) and says which rank "
        "departs first, at which step and phase, the same as `rankscope steps --json`, with the ranks' rows in pages "
        "(rank_count in all; `next` holds the next page's offset and limit).",
        [] {
            Json p = { { "paths",
                           { { "type", "array" }, { "items", { { "type", "string" } } }, { "minItems", 1 },
                               { "description", "Training logs; relative paths as open_job's." } } },
                { "threshold",
                    property("number", "How far above the others a peak must be, in percent.",
                        { { "default", 10 }, { "minimum", 0 } }) } };
            p.update(pagingProperties(20, 200, "Ranks' rows"));
            return schema(p, { "paths" });
        }(),
        anyObject, [this](const Json& a) { return steps(a); } });
}

QStringList McpServer::paths(const Json& args, const char* name) const
{
    const std::optional<Json> v = argument(args, name);
    if (!v || !v->is_array() || v->empty())
        throw ToolError(std::string(name) + " needs a list of snapshot files or folders");
    QStringList paths;
    for (const Json& p : *v) {
        if (!p.is_string())
            throw ToolError(std::string(name) + " needs a list of snapshot files or folders (strings)");
        paths.append(QDir(m_folder).absoluteFilePath(QString::fromStdString(p.get<std::string>())));
    }
    return paths;
}

McpServer::OpenJob& McpServer::job(const Json& arguments)
{
    const std::string id = stringOf(arguments, "job");
    const auto it = m_jobs.find(id);
    if (it == m_jobs.end())
        throw ToolError(id.empty() ? std::string("job needs the id open_job returned")
                                   : "job " + id + ": no such job (open_job returns one; at most "
                    + std::to_string(MaxJobs) + " stay open)");
    return it->second;
}

Job::Progress McpServer::progress() const
{
    return [this](int, uint64_t, uint64_t) { return !m_cancel.load(); };
}

void McpServer::load(Job& job)
{
    // No files, a folder of several jobs, a search stopped at its file limit: said with the folders left out.
    if (!job.error().empty())
        throw refusal(toolText(job.error()), notesJson(job.scanNotes()));
    if (const std::string note = job.stepNote(); !note.empty())
        m_console.err("note: " + note + "\n");
    job.load(progress());
    if (job.wasCancelled())
        throw ToolError("cancelled");
    for (const std::string& line : job.messages())
        m_console.err(line + "\n");
}

ComparisonPtr McpServer::comparison(OpenJob& open)
{
    if (!open.comparison) {
        const Job::Result result = compareOrRefuse(open.job, open.options);
        open.comparison = result.comparison;
        open.notes = result.notes;
        open.diff = Json::parse(DiffReport::json(*open.comparison));
        open.allFrames = Json();
    }
    return open.comparison;
}

Json McpServer::compared(const OpenJob& open, const Comparison& c, const std::vector<JobError>& notes, int rankIndex)
{
    Json out = { { "job", open.id }, { "point", c.pointName() }, { "point_words", DiffReport::pointWords(c) },
        { "my_code", c.options().site.myCodeOnly }, { "threshold", c.options().thresholdPercent },
        { "baseline", c.options().baselineRank >= 0 ? Json(c.options().baselineRank) : Json("median") } };
    if (!c.options().site.myCodePackages.empty())
        out["my_code_packages"] = c.options().site.myCodePackages;
    if (open.job.step() >= 0)
        out["step"] = open.job.step();
    // The answer is about one rank, which lacks the point asked for: it is at its snapshot, and says so.
    if (rankIndex >= 0 && size_t(rankIndex) < c.ranks().size() && c.missesPoint(size_t(rankIndex))) {
        out["rank"] = c.ranks()[size_t(rankIndex)].rank;
        out["rank_point"] = c.pointNameOf(size_t(rankIndex));
    }
    if (!notes.empty()) {
        Json words = Json::array();
        for (const JobError& note : notes)
            words.push_back(toolText(note));
        out["notes"] = std::move(words);
    }
    return out;
}

std::string McpServer::comparedText(const Json& compared)
{
    std::string myCode = compared["my_code"].get<bool>() ? "on" : "off";
    if (compared.contains("my_code_packages")) {
        for (const Json& package : compared["my_code_packages"])
            myCode += (myCode == "on" ? " with " : ",") + package.get<std::string>();
    }
    return "(" + compared["job"].get<std::string>() + "'s comparison at " + compared["point_words"].get<std::string>()
        + (compared.contains("step") ? ", step " + compared["step"].dump() : std::string()) + ", my_code " + myCode
        + ")\n"
        + (compared.contains("rank_point")
                ? "Rank " + compared["rank"].dump() + " lacks point " + compared["point"].get<std::string>()
                    + ": it is at its " + compared["rank_point"].get<std::string>() + ".\n"
                : std::string())
        + notesText(compared.value("notes", Json::array()));
}

McpServer::Result McpServer::openJob(const Json& args)
{
    const QStringList given = paths(args);
    JobFiles files;
    if (argument(args, "step"))
        files.step = integerOf(args, "step", 0, 0);
    files.stepsOfOneRank = flagOf(args, "steps_of_one_rank");
    Job job(given, files);
    load(job);
    std::vector<FileInfoEntry> entries;
    Json failed = Json::array();
    int ok = 0;
    for (const LoadedFile& file : job.loaded()) {
        entries.push_back(FileInfoEntry::of(file));
        if (!file.ok())
            failed.push_back({ { "path", file.path.toStdString() }, { "error", file.error.toStdString() } });
        ok += file.ok();
    }
    const Json scanNotes = notesJson(job.scanNotes());
    if (ok == 0) {
        std::string why;
        for (const std::string& line : job.messages())
            why += (why.empty() ? "" : "; ") + line;
        throw refusal("no file of the job could be read: " + why, scanNotes);
    }
    const std::string id = "job" + std::to_string(m_nextJob++);
    // The first files' figures: info pages every file's.
    constexpr size_t shown = 4;
    const std::vector<FileInfoEntry> first(entries.begin(), entries.begin() + std::min(shown, entries.size()));
    Result r;
    r.structured = { { "job", id }, { "file_count", entries.size() } };
    r.structured["files"] = Json::parse(InfoFormat::json(first))["files"];
    r.structured["failed"] = failed;
    r.structured["steps"] = job.steps();
    if (job.step() >= 0)
        r.structured["step"] = job.step();
    Json messages = Json::array();
    for (const std::string& line : job.messages())
        messages.push_back(line);
    r.structured["messages"] = messages;
    r.structured["notes"] = scanNotes;
    r.structured["file_notes"] = fileNotes(job.loaded());
    // Every file empty: said here, and diff refuses, rather than a verdict of ranks that hold nothing alike.
    const std::string nothing =
        job.holdsNothing() ? toolWords(Job::nothingToCompare(int(job.inputs().size())).english()) : std::string();
    if (!nothing.empty())
        r.structured["nothing_to_compare"] = nothing;
    r.text = id + ": " + std::to_string(ok) + " of " + std::to_string(job.loaded().size()) + " rank files read"
        + (job.step() >= 0 ? "; " + job.stepNote() : "") + "\n" + notesText(scanNotes)
        + fileNotesText(r.structured["file_notes"]) + InfoFormat::text(first)
        + (entries.size() > shown
                ? "… " + std::to_string(entries.size() - shown) + " more files (info pages them: offset, limit)\n"
                : std::string())
        + (nothing.empty() ? "Next: diff with job \"" + id + "\".\n" : nothing + "\n");
    if (m_jobOrder.size() >= size_t(MaxJobs)) {
        m_jobs.erase(m_jobOrder.front());
        m_jobOrder.erase(m_jobOrder.begin());
    }
    const int64_t step = job.step();
    m_jobs.emplace(id, OpenJob { id, std::move(job), {}, nullptr, {}, {}, step, {}, {} });
    m_jobOrder.push_back(id);
    return r;
}

McpServer::Result McpServer::diff(const Json& args)
{
    OpenJob& open = job(args);
    const bool full = choiceOf(args, "detail", { "summary", "full" }) == "full";
    Json options = args;
    options.erase("detail");
    const JobRequest request = requestOf(options);
    // Every option is the call's own: without a step, the step the job was opened at.
    const int64_t step = request.files.step.value_or(open.openedStep);
    if (step != open.job.step()) {
        Job other = open.otherSteps.count(step) ? open.otherSteps.at(step) : open.job.forStep(step);
        load(other);
        open.otherSteps.insert_or_assign(open.job.step(), std::move(open.job));
        open.job = std::move(other);
        open.otherSteps.erase(step);
    }
    const Job::Result result = compareOrRefuse(open.job, request.options);
    open.options = request.options;
    open.comparison = result.comparison;
    open.notes = result.notes;
    open.diff = Json::parse(DiffReport::json(*open.comparison));
    open.allFrames = Json();
    const Comparison& c = *open.comparison;
    const Json& all = open.diff;
    Json groups = Json::array();
    for (const Json& g : all["finding_groups"]) {
        if (groups.size() >= (full ? 10u : 5u))
            break;
        groups.push_back(findingGroupSummary(all, g));
    }
    Result r;
    if (full) {
        r.structured = all;
        r.structured["findings"] = groups;
        r.text = DiffReport::text(c);
    } else {
        // The verdict without what the other tools give in pages: every rule checked (detail full), what fills the
        // GPU (top), every what-if (what_if); the failed request's frames in reading order.
        Json v = all["verdict"];
        for (const char* key : { "considered", "composition", "held_by_category", "excess_by_category" })
            v.erase(key);
        if (v.contains("what_if") && v["what_if"].size() > 5) {
            Json kept(v["what_if"].begin(), v["what_if"].begin() + 5);
            v["what_if"] = std::move(kept);
        }
        if (v.contains("oom")) {
            v["oom"]["frames"] = stackFrames(all, v["oom"]["stack"]);
            v["oom"].erase("stack");
        }
        r.structured = { { "at", all["at"] }, { "verdict", std::move(v) }, { "rank_count", all["ranks"].size() },
            { "group_count", all["groups"].size() } };
        Json rankGroups = Json::array();
        for (const Json& g : all["groups"]) {
            if (rankGroups.size() >= 8)
                break;
            rankGroups.push_back(groupSummary(g));
        }
        r.structured["groups"] = std::move(rankGroups);
        if (all["verdict"].contains("composition")) {
            Json sites = all["verdict"]["composition"]["top_sites"];
            if (sites.size() > 5)
                sites.erase(sites.begin() + 5, sites.end());
            r.structured["top_sites"] = std::move(sites);
        }
        r.structured["finding_group_count"] = all["finding_groups"].size();
        r.structured["findings"] = groups;
        r.text = DiffReport::text(c, 5, 8);
    }
    r.structured["comparison"] = compared(open, c, open.notes);
    r.structured["finding_count"] = all["findings"].size();
    // Said first: the ranks compared at their snapshot, the packages counted as the user's code.
    r.text = notesText(r.structured["comparison"].value("notes", Json::array())) + r.text;
    if (open.job.step() >= 0) {
        r.structured["step"] = open.job.step();
        r.text = "Step " + std::to_string(open.job.step()) + " (" + open.job.stepNote() + ")\n" + r.text;
    }
    if (!full)
        r.text += "\nMore: findings and ranks page the rest (offset, limit); stack {finding: N} or {oom: true} gives "
                  "frames; what_if the peak without each site; diff with detail \"full\" every figure.\n";
    return r;
}

McpServer::Result McpServer::findings(const Json& args)
{
    OpenJob& open = job(args);
    const ComparisonPtr c = comparison(open);
    const std::string filter = stringOf(args, "filter");
    const std::string presentOn = stringOf(args, "present_on");
    const auto on = ComparisonOptions::parsePresentOn(presentOn);
    if (!presentOn.empty() && !on)
        throw ToolError("present_on needs a number of ranks K or a range K-M, such as 1 or 3-4");
    const int64_t offset = integerOf(args, "offset", 0, 0);
    const int64_t limit = integerOf(args, "limit", 20, 1, 100);
    const Json& all = open.diff;
    Json page = Json::array();
    int64_t matched = 0;
    std::string text;
    for (const Json& g : all["finding_groups"]) {
        // A group is one site on several ranks: its findings share how many ranks hold that site.
        const int ranks = all["findings"][g["findings"][0].get<size_t>()].value("ranks_with_site", 0);
        if (!matches(all, g, filter) || (on && (ranks < on->first || ranks > on->second)))
            continue;
        if (matched >= offset && matched < offset + limit) {
            page.push_back(findingGroupSummary(all, g));
            text += findingGroupLine(page.back());
        }
        ++matched;
    }
    checkOffset(offset, matched, "entries");
    Result r;
    r.structured = { { "comparison", compared(open, *c, open.notes) }, { "total", all["findings"].size() },
        { "groups", all["finding_groups"].size() }, { "matched", matched }, { "offset", offset }, { "limit", limit },
        { "findings", page }, { "next", nextPage(offset, limit, matched) } };
    r.text = comparedText(r.structured["comparison"]) + std::to_string(all["findings"].size()) + " findings in "
        + std::to_string(all["finding_groups"].size()) + " entries (alike said once); " + std::to_string(matched)
        + " match" + (filter.empty() ? "" : " \"" + filter + "\"") + ", entries " + std::to_string(offset + 1) + "-"
        + std::to_string(offset + int64_t(page.size())) + ":\n" + text
        + (r.structured["next"].is_null() ? std::string()
                                          : "Next page: offset " + std::to_string(offset + limit) + ".\n");
    return r;
}

McpServer::Result McpServer::ranks(const Json& args)
{
    OpenJob& open = job(args);
    const ComparisonPtr c = comparison(open);
    const std::optional<Json> alikeArg = argument(args, "alike");
    if (alikeArg && !alikeArg->is_boolean())
        throw ToolError("alike needs true or false");
    const bool alike = !alikeArg || alikeArg->get<bool>();
    const int64_t offset = integerOf(args, "offset", 0, 0);
    const int64_t limit = integerOf(args, "limit", 20, 1, 200);
    const Json& list = open.diff[alike ? "groups" : "ranks"];
    checkOffset(offset, int64_t(list.size()), alike ? "groups of ranks alike" : "ranks");
    Json entries = Json::array();
    std::string text;
    for (int64_t i = offset; i < int64_t(list.size()) && i < offset + limit; ++i) {
        if (alike) {
            entries.push_back(groupSummary(list[size_t(i)]));
            entries.back()["ranks"] = list[size_t(i)]["ranks"];
            text += groupLine(list[size_t(i)]);
            for (const Json& d : list[size_t(i)]["differences"]) {
                Json figures = d;
                figures.erase("rank");
                text += "    rank " + d["rank"].dump() + " differs: " + figures.dump() + "\n";
            }
        } else {
            Json rank = DiffReport::rankRecord(open.diff, size_t(i));
            entries.push_back(rank);
            text += "rank " + rank["rank"].dump() + " cuda:" + rank["device"].dump() + ": "
                + bytesText(rank["bytes_at_point"].get<int64_t>()) + " at the point, peak "
                + bytesText(rank["peak_allocated_bytes"].get<int64_t>()) + ", excess "
                + bytesText(rank["excess_bytes"].get<int64_t>()) + ", " + rank["oom_events"].dump() + " OOMs, "
                + rank["path"].get<std::string>() + "\n";
        }
    }
    Result r;
    r.structured = { { "comparison", compared(open, *c, open.notes) }, { "rank_count", open.diff["ranks"].size() },
        { "group_count", open.diff["groups"].size() }, { "alike", alike }, { "offset", offset }, { "limit", limit },
        { "entries", entries }, { "next", nextPage(offset, limit, int64_t(list.size())) } };
    r.text = comparedText(r.structured["comparison"]) + std::to_string(open.diff["ranks"].size()) + " ranks in "
        + std::to_string(open.diff["groups"].size()) + " groups alike:\n" + text
        + (r.structured["next"].is_null() ? std::string()
                                          : "Next page: offset " + std::to_string(offset + limit) + ".\n");
    r.text = toolWords(r.text);
    return r;
}

McpServer::Result McpServer::stack(const Json& args)
{
    OpenJob& open = job(args);
    const ComparisonPtr c = comparison(open);
    const bool all = choiceOf(args, "frames", { "yours", "all" }) == "all";
    const int64_t offset = integerOf(args, "offset", 0, 0);
    const int64_t limit = integerOf(args, "limit", 40, 1, 400);
    if (all && open.allFrames.is_null())
        open.allFrames = Json::parse(DiffReport::json(*c, DiffReport::FrameDetail::All))["stacks"];
    const auto framesOf = [&](const Json& index) {
        Json d = { { "stacks", all ? open.allFrames : open.diff["stacks"] } };
        return stackFrames(d, index);
    };
    Result r;
    Json frames;
    std::string header;
    const bool oom = flagOf(args, "oom");
    if (!oom && argument(args, "rank"))
        throw ToolError("rank goes with oom: true (a finding's rank is its own)");
    if (oom) {
        if (argument(args, "finding"))
            throw ToolError("finding and oom exclude each other");
        Json failed;
        if (argument(args, "rank")) {
            const int64_t number = integerOf(args, "rank", 0, 0);
            for (size_t i = 0; i < open.diff["ranks"].size(); ++i) {
                if (open.diff["ranks"][i]["rank"].get<int64_t>() == number)
                    failed = DiffReport::rankRecord(open.diff, i).value("oom", Json());
            }
            if (c->rankIndex(int(number)) < 0)
                throw ToolError("rank " + std::to_string(number) + ": no such rank among the files");
            if (!failed.is_object())
                throw ToolError("rank " + std::to_string(number) + " did not run out of memory");
            failed["rank"] = number;
        } else {
            failed = open.diff["verdict"].value("oom", Json());
            if (!failed.is_object())
                throw ToolError("oom: the verdict is not about an out-of-memory error, so there is no failed request "
                                "(rank: N gives a rank's own)");
        }
        frames = framesOf(failed["stack"]);
        r.structured = failed;
        r.structured.erase("stack");
        r.structured["number"] = 0;
        header = "The failed request of rank " + failed["rank"].dump() + ": "
            + bytesText(failed.value("requested_bytes", int64_t(0))) + " with "
            + bytesText(failed.value("device_free_bytes", int64_t(0))) + " free on the device, at "
            + failed.value("site", "") + "\n";
    } else {
        const int64_t number = integerOf(args, "finding", 0, 1);
        if (number == 0)
            throw ToolError("finding needs a finding number, 1 for the largest (or oom: true for the failed request)");
        const Json& list = open.diff["findings"];
        if (size_t(number) > list.size())
            throw ToolError(
                "finding " + std::to_string(number) + ": there are only " + std::to_string(list.size()) + " findings");
        const Json& finding = list[size_t(number - 1)];
        r.structured = findingGroupSummary(open.diff, open.diff["finding_groups"][finding["group"].get<size_t>()]);
        r.structured["number"] = number;
        for (const char* key :
            { "rank", "excess_bytes", "rank_bytes", "baseline_bytes", "rank_count", "baseline_count" })
            r.structured[key] = finding[key];
        frames = framesOf(finding["stack"]);
        // A finding of a comparison of another device has no description in this one.
        if (size_t(number) <= c->findings().size()) {
            const StackText::Description d =
                StackText::describeFinding(*c, size_t(number - 1), c->defaultPair().second);
            header = d.header.toStdString() + "\n";
            if (!d.footer.isEmpty())
                header += d.footer.toStdString() + "\n";
        }
        if (r.structured.contains("ranks"))
            header += "The same on ranks " + r.structured["ranks"].get<std::string>() + ".\n";
    }
    const int64_t count = int64_t(frames.size());
    checkOffset(offset, count, "frames");
    Json page = Json::array();
    for (int64_t i = offset; i < count && i < offset + limit; ++i)
        page.push_back(frames[size_t(i)]);
    r.structured["comparison"] = compared(
        open, *c, open.notes, r.structured.contains("rank") ? c->rankIndex(r.structured["rank"].get<int>()) : -1);
    r.structured["frames"] = page;
    r.structured["frame_count"] = count;
    r.structured["frames_shown"] = all ? "all" : "yours";
    r.structured["offset"] = offset;
    r.structured["next"] = nextPage(offset, limit, count);
    r.text = comparedText(r.structured["comparison"]) + header + framesText(page)
        + (r.structured["next"].is_null() ? std::string()
                                          : "Next page: offset " + std::to_string(offset + limit) + ".\n");
    return r;
}

McpServer::Result McpServer::top(const Json& args, bool whatIfOnly)
{
    OpenJob& open = job(args);
    ComparisonPtr c = comparison(open);
    const int64_t rank = integerOf(args, "rank", -1, 0);
    const int64_t offset = whatIfOnly ? 0 : integerOf(args, "offset", 0, 0);
    const int64_t limit = whatIfOnly ? int64_t(RankHoldings::DefaultSites) : integerOf(args, "limit", 20, 1, 100);
    const bool byCategory = !whatIfOnly && choiceOf(args, "by", { "site", "category" }) == "category";
    std::vector<JobError> notes = open.notes;
    if (const std::string point = whatIfOnly ? std::string() : stringOf(args, "point"); !point.empty()) {
        Json asked = { { "point", point } };
        ComparisonOptions options = open.options;
        options.point = requestOf(asked).options.point;
        const Job::Result result = compareOrRefuse(open.job, options);
        c = result.comparison;
        notes = result.notes;
    }
    const std::optional<RankHoldings> holdings =
        c->holdingsFor(int(rank), size_t(std::max<int64_t>(offset + limit, int64_t(RankHoldings::DefaultSites))));
    if (!holdings)
        throw ToolError("rank " + std::to_string(rank) + ": no such rank among the files");
    const DiffReport::By order = byCategory ? DiffReport::By::Category : DiffReport::By::Site;
    Result r;
    r.structured = Json::parse(DiffReport::topJson(*c, *holdings, order));
    r.text = DiffReport::topText(*c, *holdings, order, size_t(offset + limit));
    if (whatIfOnly) {
        // The text's first line says whose GPU and when; the what-if table is its last part.
        if (const size_t at = r.text.find("\nPeak "); at != std::string::npos)
            r.text = r.text.substr(0, r.text.find('\n')) + r.text.substr(at);
        for (const char* key : { "top_sites", "by_category", "categories" })
            r.structured.erase(key);
    } else if (r.structured.contains("top_sites")) {
        Json& sites = r.structured["top_sites"];
        const int64_t count = int64_t(sites.size());
        checkOffset(offset, count, "sites");
        Json page(sites.begin() + std::min(offset, count), sites.begin() + std::min(offset + limit, count));
        sites = std::move(page);
        r.structured["site_count"] = count;
        r.structured["offset"] = offset;
        r.structured["next"] = nextPage(offset, limit, count);
        if (!r.structured["next"].is_null())
            r.text += "Next page of sites: offset " + std::to_string(offset + limit) + ".\n";
    }
    r.structured["comparison"] = compared(open, *c, notes, int(holdings->rankIndex));
    r.text = comparedText(r.structured["comparison"]) + r.text;
    return r;
}

McpServer::Result McpServer::info(const Json& args)
{
    const QStringList given = paths(args);
    for (const QString& path : given) {
        if (!QFileInfo::exists(path))
            throw ToolError(path.toStdString() + ": no such file or folder");
    }
    const RankFiles::Scan scan = RankFiles::scan(given);
    const Json scanNotes = notesJson(Job::scanNotes(scan));
    // A folder of several jobs, or a search stopped at the file limit: not one job's files, whose figures would mix.
    if (const JobError refused = Job::scanError(scan); !refused.empty())
        throw refusal(toolText(refused), scanNotes);
    const QStringList& files = scan.files;
    if (files.isEmpty())
        throw refusal("no snapshot files given", scanNotes);
    const int64_t offset = integerOf(args, "offset", 0, 0);
    const int64_t limit = integerOf(args, "limit", 8, 1, 64);
    checkOffset(offset, files.size(), "files");
    const QStringList page = files.mid(qsizetype(offset), qsizetype(limit));
    std::vector<FileInfoEntry> entries;
    std::string failed;
    const QList<LoadedFile> loaded = LoadedFile::loadAll(page);
    for (const LoadedFile& file : loaded) {
        entries.push_back(FileInfoEntry::of(file));
        if (!file.ok())
            failed += file.path.toStdString() + ": " + file.error.toStdString() + "\n";
    }
    if (!failed.empty())
        throw ToolError(failed);
    Result r;
    r.structured = Json::parse(InfoFormat::json(entries));
    // Each file's notes beside its figures: an empty snapshot's zeros are not a rank that holds nothing.
    for (qsizetype i = 0; i < loaded.size(); ++i) {
        if (const QString notes = loaded[i].notes(); !notes.isEmpty())
            r.structured["files"][size_t(i)]["notes"] = notes.toStdString();
    }
    r.structured["notes"] = scanNotes;
    r.structured["file_count"] = files.size();
    r.structured["offset"] = offset;
    r.structured["next"] = nextPage(offset, limit, files.size());
    r.text = notesText(scanNotes) + fileNotesText(fileNotes(loaded)) + InfoFormat::text(entries)
        + (r.structured["next"].is_null() ? std::string()
                                          : std::to_string(files.size() - offset - int64_t(entries.size()))
                    + " more files: offset " + std::to_string(offset + limit) + ".\n");
    return r;
}

McpServer::Result McpServer::steps(const Json& args)
{
    const QStringList logs = paths(args);
    double threshold = StepAnalysis::DefaultThresholdPercent;
    if (const std::optional<Json> v = argument(args, "threshold")) {
        if (!v->is_number() || v->get<double>() < 0)
            throw ToolError("threshold needs a percentage, such as 10");
        threshold = v->get<double>();
    }
    const StepLog log = StepLog::read(logs);
    std::string errors;
    for (const auto& [path, error] : log.errors)
        errors += path.toStdString() + ": " + error.toStdString() + "\n";
    if (log.reports.empty())
        throw ToolError(
            errors.empty() ? "no step report lines found (rank=, step= and cur= or peak= on one line)" : errors);
    const StepAnalysis analysis = StepAnalysis::analyse(log, threshold);
    // The ranks' rows in pages, as every tool's lists: the divergence and the spread on every page.
    const int64_t offset = integerOf(args, "offset", 0, 0);
    const int64_t limit = integerOf(args, "limit", 20, 1, 200);
    const int64_t total = int64_t(analysis.ranks.size());
    checkOffset(offset, total, "ranks");
    Result r;
    r.structured = Json::parse(StepsReport::json(analysis));
    Json page(r.structured["ranks"].begin() + offset, r.structured["ranks"].begin() + std::min(total, offset + limit));
    r.structured["ranks"] = std::move(page);
    r.structured["rank_count"] = total;
    r.structured["offset"] = offset;
    r.structured["limit"] = limit;
    r.structured["next"] = nextPage(offset, limit, total);
    // The text: its header, the page's rows (one a rank, in the same order), then what follows them.
    const QStringList lines = QString::fromStdString(StepsReport::text(analysis)).split(QLatin1Char('\n'));
    QStringList shown { lines.front() };
    shown += lines.mid(qsizetype(offset) + 1, qsizetype(std::min(limit, total - offset)));
    shown += lines.mid(qsizetype(total) + 1);
    r.text = errors + shown.join(QLatin1Char('\n')).toStdString()
        + (r.structured["next"].is_null() ? std::string()
                                          : "Next page: offset " + std::to_string(offset + limit) + ".\n");
    return r;
}

Json McpServer::toolResult(const Result& result) const
{
    std::string text = toolWords(result.text.empty() ? result.structured.dump(2) : result.text);
    if (text.size() > TextBudget) {
        // Within the budget an agent can hold: cut at a line, and say how to get the rest.
        const size_t cut = text.rfind('\n', TextBudget - 200);
        text = text.substr(0, cut == std::string::npos ? TextBudget - 200 : cut + 1) + "… (cut at "
            + std::to_string(TextBudget)
            + " characters: findings, ranks, stack and top page the "
              "rest with offset and limit)\n";
    }
    Json content = Json::array();
    content.push_back({ { "type", "text" }, { "text", text } });
    if (!result.png.isEmpty())
        content.push_back(
            { { "type", "image" }, { "data", result.png.toBase64().toStdString() }, { "mimeType", "image/png" } });
    Json out = { { "content", content } };
    if (!result.structured.is_null()) {
        out["structuredContent"] = result.structured;
        inToolWords(out["structuredContent"]);
    }
    out["isError"] = false;
    return out;
}

Json McpServer::callTool(const Json& params)
{
    const std::string name = params.value("name", "");
    const Json arguments = params.value("arguments", Json::object());
    for (const Tool& tool : m_tools) {
        if (tool.name != name)
            continue;
        try {
            if (!arguments.is_object())
                throw ToolError("arguments must be an object");
            // An argument the tool does not take is refused: silently ignored, it would answer another question.
            const Json& known = tool.inputSchema["properties"];
            for (const auto& [key, value] : arguments.items()) {
                if (known.contains(key))
                    continue;
                std::string takes;
                for (const auto& [taken, described] : known.items())
                    takes += (takes.empty() ? "" : ", ") + taken;
                std::string message = "unknown argument ";
                message.append(key).append(": ").append(name).append(" takes ").append(takes);
                throw ToolError(message);
            }
            return toolResult(tool.call(arguments));
        } catch (const ToolError& e) {
            return { { "content", Json::array({ { { "type", "text" }, { "text", e.what() } } }) },
                { "isError", true } };
        } catch (const std::exception& e) {
            // Anything else is a fault of ours, said as the tool's error rather than a dead server.
            return { { "content", Json::array({ { { "type", "text" }, { "text", name + " failed: " + e.what() } } }) },
                { "isError", true } };
        }
    }
    throw std::invalid_argument("Unknown tool: " + name);
}

std::optional<Json> McpServer::handle(const Json& message)
{
    if (!message.is_object() || message.value("jsonrpc", "") != "2.0" || !message.contains("method")
        || !message["method"].is_string())
        return error(message.is_object() ? message.value("id", Json()) : Json(), -32600, "Invalid Request");
    const std::string method = message["method"];
    if (!message.contains("id"))
        return std::nullopt; // a notification: initialized, cancelled (the reader handled it), progress …
    const Json& id = message["id"];
    const Json params = message.value("params", Json::object());
    Json result;
    if (method == "initialize") {
        const std::string asked = params.value("protocolVersion", "");
        std::string version = protocolVersions[0];
        for (const char* v : protocolVersions) {
            if (asked == v)
                version = v;
        }
        result = { { "protocolVersion", version }, { "capabilities", { { "tools", { { "listChanged", false } } } } },
            { "serverInfo", { { "name", "rankscope" }, { "title", "RankScope" }, { "version", m_version } } },
            { "instructions",
                "RankScope explains multi-GPU PyTorch out-of-memory errors from per-rank memory snapshots. Call "
                "open_job with the snapshot files or folder, then diff for the verdict; findings and stack for what "
                "one rank holds more of and where it was allocated; top and what_if for what fills a GPU; ranks for "
                "per-rank figures. Ranks alike are said once. Every answer's text stays within about "
                    + std::to_string(TextBudget)
                    + " characters; lists page with offset and limit (an answer's next holds the next page's). "
                      "Relative "
                      "paths are resolved against the folder the server was started in: "
                    + m_folder.toStdString() } };
    } else if (method == "ping") {
        result = Json::object();
    } else if (method == "tools/list") {
        Json tools = Json::array();
        for (const Tool& t : m_tools) {
            Json tool = { { "name", t.name }, { "title", t.title }, { "description", t.description },
                { "inputSchema", t.inputSchema } };
            if (!t.outputSchema.is_null())
                tool["outputSchema"] = t.outputSchema;
            tool["annotations"] = { { "readOnlyHint", t.readOnly }, { "openWorldHint", false } };
            tools.push_back(tool);
        }
        result = { { "tools", tools } };
    } else if (method == "tools/call") {
        try {
            result = callTool(params);
        } catch (const std::invalid_argument& e) {
            return error(id, -32602, e.what());
        }
    } else {
        return error(id, -32601, "Method not found: " + method);
    }
    return Json { { "jsonrpc", "2.0" }, { "id", id }, { "result", result } };
}

void McpServer::write(const Json& message)
{
    // Each answer goes out at once: the client waits for it before it asks anything else (a pipe is fully buffered).
    m_console.out(message.dump() + "\n");
    m_console.flush();
}

int McpServer::run()
{
    // The reader: requests go to this thread in order; a cancellation is acted on at once.
    struct Queue
    {
        std::mutex mutex;
        std::condition_variable ready;
        std::deque<std::optional<Json>> items; ///< nullopt: the input ended
        std::set<std::string> cancelled;
        std::string current; ///< the id of the request being answered
    } queue;
    std::istream& input = m_console.in();
    std::thread reader([&] {
        std::string line;
        while (std::getline(input, line)) {
            if (line.find_first_not_of(" \t\r") == std::string::npos)
                continue;
            Json message = Json::parse(line, nullptr, false);
            std::lock_guard lock(queue.mutex);
            if (!message.is_discarded() && message.is_object()
                && message.value("method", "") == "notifications/cancelled") {
                const std::string id = message.value("params", Json::object()).value("requestId", Json()).dump();
                queue.cancelled.insert(id);
                if (id == queue.current)
                    m_cancel = true;
                continue;
            }
            queue.items.push_back(std::move(message));
            queue.ready.notify_one();
        }
        std::lock_guard lock(queue.mutex);
        queue.items.push_back(std::nullopt);
        queue.ready.notify_one();
    });
    for (;;) {
        std::optional<Json> message;
        {
            std::unique_lock lock(queue.mutex);
            queue.ready.wait(lock, [&] { return !queue.items.empty(); });
            message = std::move(queue.items.front());
            queue.items.pop_front();
            if (!message)
                break;
            queue.current = message->is_object() ? message->value("id", Json()).dump() : std::string();
            m_cancel = queue.cancelled.count(queue.current) > 0;
        }
        if (message->is_discarded()) {
            write(error(Json(), -32700, "Parse error"));
            continue;
        }
        std::optional<Json> response;
        if (!m_cancel)
            response = handle(*message);
        std::lock_guard lock(queue.mutex);
        // A cancelled request gets no response, as the protocol asks.
        if (response && !m_cancel)
            write(*response);
        queue.current.clear();
    }
    reader.join();
    return 0;
}

} // namespace RankScope::Cli
