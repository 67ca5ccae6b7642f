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

#include <condition_variable>
#include <deque>
#include <istream>
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

QStringList pathsOf(const Json& args, const char* name = "paths")
{
    const std::optional<Json> v = argument(args, name);
    if (!v || !v->is_array() || v->empty())
        throw ToolError(std::string(name) + " needs a list of snapshot files or folders");
    QStringList paths;
    for (const Json& p : *v) {
        if (!p.is_string())
            throw ToolError(std::string(name) + " needs a list of snapshot files or folders (strings)");
        paths.append(QString::fromStdString(p.get<std::string>()));
    }
    return paths;
}

int64_t integerOf(const Json& args, const char* name, int64_t fallback, int64_t least)
{
    const std::optional<Json> v = argument(args, name);
    if (!v)
        return fallback;
    if (!v->is_number_integer() || v->get<int64_t>() < least)
        throw ToolError(std::string(name) + " needs a whole number, " + std::to_string(least) + " or more");
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

// A job option's name as the tools' arguments spell it.
std::string spelled(const std::string& option)
{
    static const std::map<std::string, std::string> spelling = { { "at", "point" }, { "my-code", "my_code" },
        { "device-memory", "device_memory" }, { "steps", "steps_of_one_rank" }, { "present-on", "present_on" } };
    const auto it = spelling.find(option);
    return it == spelling.end() ? option : it->second;
}

// A job's error in the command line's words, the option named as the tool's argument.
ToolError toolError(const JobError& e)
{
    return ToolError(e.option.empty() ? e.what : spelled(e.option) + " " + e.what);
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
            return QString::fromStdString(v->is_string() ? v->get<std::string>() : v->dump());
        },
        [](const char* name) { return spelled(name); },
    };
    JobRequest request;
    if (const std::string wrong = readJobOptions(source, request); !wrong.empty())
        throw ToolError(wrong);
    return request;
}

Json schema(Json properties, const std::vector<std::string>& required = {})
{
    Json s = { { "type", "object" }, { "properties", std::move(properties) } };
    if (!required.empty())
        s["required"] = required;
    return s;
}

Json property(const char* type, const char* description)
{
    return { { "type", type }, { "description", description } };
}

const Json jobProperty = property("string", "The job id open_job returned.");

// The comparison options diff and top take, named as the command line names them (point for --at).
Json comparisonProperties()
{
    return {
        { "job", jobProperty },
        { "point",
            property("string",
                "Where each rank is compared: aligned (default), peak, snapshot, oom, event:<i>, event:<i>@<rank>, "
                "step:<N> or step:<N>:end.") },
        { "baseline", property("string", "median (default) or a rank number to compare every rank with.") },
        { "threshold", property("number", "How far above its baseline a rank must be to count, in percent (2).") },
        { "my_code", property("boolean", "Keep only the user's own frames in the site key.") },
        { "depth", property("integer", "Keep the first N frames in the site key.") },
        { "layout", property("string", "The parallel layout, slowest first: pp=2,dp=4 (also tp, cp, ep).") },
        { "step", property("integer", "In a folder of several training steps, the step to compare.") },
        { "device", property("integer", "Compare cuda:N of every rank only.") },
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

// A finding as the findings tool lists it: its figures and site, not its frames (the stack tool gives those).
Json findingSummary(const Json& finding, size_t number)
{
    Json out = { { "number", number } };
    for (const char* key : { "rank", "device", "kind", "excess_bytes", "rank_bytes", "baseline_bytes", "rank_count",
             "baseline_count", "ranks_with_site", "category", "site" }) {
        if (finding.contains(key))
            out[key] = finding[key];
    }
    return out;
}

bool matches(const Json& finding, const std::string& filter)
{
    if (filter.empty())
        return true;
    std::string text = "rank " + finding.value("rank", Json()).dump() + " " + finding.value("kind", "") + " "
        + finding.value("category", "") + " " + finding.value("site", "");
    for (const Json& f : finding.value("frames", Json::array()))
        text += " " + f.value("filename", "") + ":" + std::to_string(f.value("line", 0)) + " " + f.value("name", "");
    return lowered(text).find(lowered(filter)) != std::string::npos;
}

} // namespace

McpServer::McpServer(Console& console, std::string version)
    : m_console(console)
    , m_version(std::move(version))
{ }

void McpServer::addTool(Tool tool)
{
    m_tools.push_back(std::move(tool));
}

void McpServer::addCoreTools()
{
    const Json anyObject = { { "type", "object" } };
    addTool({ "open_job", "Open a job",
        "Opens the per-rank memory snapshots of one training job (files or folders; a folder of several training "
        "steps opens its latest step) and loads them. Returns a job id for the other tools, the ranks with each "
        "GPU's figures, the steps found and the files that could not be read.",
        schema({ { "paths",
                     { { "type", "array" }, { "items", { { "type", "string" } } },
                         { "description", "Snapshot files (pickle or JSON, gzip or not) or folders." } } },
                   { "step", property("integer", "In a folder of several training steps, the step to open.") },
                   { "steps_of_one_rank",
                       property("boolean", "The files are one rank's snapshots at successive steps.") } },
            { "paths" }),
        schema({ { "job", { { "type", "string" } } }, { "files", { { "type", "array" } } },
                   { "failed", { { "type", "array" } } } },
            { "job", "files", "failed" }),
        [this](const Json& a) { return openJob(a); } });
    addTool({ "diff", "Compare the ranks",
        "Compares the job's ranks: the verdict (which rank holds more and why: input or burden imbalance, growth, a "
        "stray device, over capacity when every rank ran out alike, …, with remedies and figures), its `confidence` "
        "(high, medium, low) and `confidence_reason`, `considered` (every rule of the decision in order: whether it "
        "applies, its evidence figures, why not), for an out-of-memory its `margin` (needed, offered, short and "
        "stranded bytes: how close it came), and each rank's figures, the same as `rankscope diff --json`; the first "
        "10 findings (the findings tool pages them). The options stay with the job for findings, stack, top, what_if "
        "and export_picture.",
        schema(comparisonProperties(), { "job" }),
        schema({ { "verdict", anyObject }, { "ranks", { { "type", "array" } } },
                   { "findings", { { "type", "array" } } }, { "finding_count", { { "type", "integer" } } } },
            { "verdict", "ranks", "findings", "finding_count" }),
        [this](const Json& a) { return diff(a); } });
    addTool({ "findings", "List findings",
        "Pages the findings of the job's last diff, largest first: what one rank holds more of than its baseline, "
        "per allocation site. `filter` keeps those whose site, file, function, rank, kind or category contains it.",
        schema({ { "job", jobProperty },
                   { "filter", property("string", "Text to search the findings for (case-insensitive).") },
                   { "present_on",
                       property("string", "Only findings whose site K ranks hold, or K-M (1: one rank only).") },
                   { "offset", property("integer", "Findings to skip (0).") },
                   { "limit", property("integer", "Findings to return (20, at most 100).") } },
            { "job" }),
        schema({ { "total", { { "type", "integer" } } }, { "matched", { { "type", "integer" } } },
                   { "findings", { { "type", "array" } } } },
            { "total", "matched", "findings" }),
        [this](const Json& a) { return findings(a); } });
    addTool({ "stack", "A finding's stack",
        "The frames of one finding of the job's last diff (numbered from 1 as findings lists them), or with oom the "
        "frames of the failed request of the verdict's out-of-memory error (over_capacity has no findings: this is "
        "where its code is); innermost first, each marked own_code when it is the user's code rather than a "
        "library's, PyTorch's or C++.",
        schema({ { "job", jobProperty }, { "finding", property("integer", "The finding's number, 1 the largest.") },
                   { "oom", property("boolean", "The verdict's failed request instead of a finding.") } },
            { "job" }),
        schema(
            { { "number", { { "type", "integer" } } }, { "frames", { { "type", "array" } } } }, { "number", "frames" }),
        [this](const Json& a) { return stack(a); } });
    addTool({ "top", "What fills a GPU",
        "What fills one rank's GPU: the sites (or categories) holding memory, with bytes and category, and the peak "
        "the rank would have reached without each. By default the rank the verdict is about, at its OOM when the "
        "verdict is about one.",
        schema({ { "job", jobProperty }, { "rank", property("integer", "The rank (default: the verdict's).") },
                   { "point", property("string", "Where to look (default: where the verdict looks).") },
                   { "by", property("string", "site (default) or category.") },
                   { "sites", property("integer", "How many sites to list (20).") } },
            { "job" }),
        schema({ { "rank", { { "type", "integer" } } }, { "bytes", { { "type", "integer" } } } }, { "rank", "bytes" }),
        [this](const Json& a) { return top(a, false); } });
    addTool({ "what_if", "Peaks without a site",
        "The peak one rank would have reached had each of its largest sites (and each category) not allocated: the "
        "trace replayed without them, a failed request counted at its OOM; `fits` says whether it would have fit "
        "what the GPU offered less what lay stranded in its reserve (`margin`, as the verdict gives it).",
        schema({ { "job", jobProperty }, { "rank", property("integer", "The rank (default: the verdict's).") } },
            { "job" }),
        schema({ { "rank", { { "type", "integer" } } }, { "peak_bytes", { { "type", "integer" } } },
                   { "what_if", { { "type", "array" } } } },
            { "rank", "peak_bytes", "what_if" }),
        [this](const Json& a) { return top(a, true); } });
    addTool({ "info", "Snapshot figures",
        "Per-device figures of snapshot files as PyTorch defines them (allocated, reserved, peaks, segments, "
        "trace), the same as `rankscope info --json`; opens no job.",
        schema({ { "paths",
                   { { "type", "array" }, { "items", { { "type", "string" } } },
                       { "description", "Snapshot files or folders." } } } },
            { "paths" }),
        schema({ { "files", { { "type", "array" } } } }, { "files" }), [this](const Json& a) { return info(a); } });
    addTool({ "steps", "Step reports from logs",
        "Reads per-rank step report lines from training logs (rank=3 step=120 cur=…MB peak=…MB) and says which rank "
        "departs first, at which step and phase, the same as `rankscope steps --json`.",
        schema(
            { { "paths",
                  { { "type", "array" }, { "items", { { "type", "string" } } }, { "description", "Training logs." } } },
                { "threshold", property("number", "How far above the others a peak must be, in percent (10).") } },
            { "paths" }),
        anyObject, [this](const Json& a) { return steps(a); } });
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
    if (!job.error().empty())
        throw toolError(job.error());
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
        const Job::Result result = open.job.compare(open.options);
        if (!result.comparison)
            throw result.error.empty() ? ToolError("no rank of the job could be read") : toolError(result.error);
        open.comparison = result.comparison;
        open.diff = Json::parse(DiffReport::json(*open.comparison));
    }
    return open.comparison;
}

McpServer::Result McpServer::openJob(const Json& args)
{
    const QStringList paths = pathsOf(args);
    JobFiles files;
    if (argument(args, "step"))
        files.step = integerOf(args, "step", 0, 0);
    if (const std::optional<Json> v = argument(args, "steps_of_one_rank"); v && v->is_boolean())
        files.stepsOfOneRank = v->get<bool>();
    Job job(paths, files);
    load(job);
    std::vector<FileInfoEntry> entries;
    Json failed = Json::array();
    std::string text;
    int ok = 0;
    for (const LoadedFile& file : job.loaded()) {
        entries.push_back(FileInfoEntry::of(file));
        if (!file.ok())
            failed.push_back({ { "path", file.path.toStdString() }, { "error", file.error.toStdString() } });
        ok += file.ok();
    }
    if (ok == 0) {
        std::string why;
        for (const std::string& line : job.messages())
            why += (why.empty() ? "" : "; ") + line;
        throw ToolError("no file of the job could be read: " + why);
    }
    const std::string id = "job" + std::to_string(m_nextJob++);
    Result r;
    r.structured = { { "job", id } };
    r.structured["files"] = Json::parse(InfoFormat::json(entries))["files"];
    r.structured["failed"] = failed;
    r.structured["steps"] = job.steps();
    if (job.step() >= 0)
        r.structured["step"] = job.step();
    Json messages = Json::array();
    for (const std::string& line : job.messages())
        messages.push_back(line);
    r.structured["messages"] = messages;
    r.text = id + ": " + std::to_string(ok) + " of " + std::to_string(job.loaded().size()) + " rank files read"
        + (job.step() >= 0 ? "; " + job.stepNote() : "") + "\n" + InfoFormat::text(entries);
    if (m_jobOrder.size() >= size_t(MaxJobs)) {
        m_jobs.erase(m_jobOrder.front());
        m_jobOrder.erase(m_jobOrder.begin());
    }
    const int64_t step = job.step();
    m_jobs.emplace(id, OpenJob { std::move(job), {}, nullptr, {}, step, {} });
    m_jobOrder.push_back(id);
    return r;
}

McpServer::Result McpServer::diff(const Json& args)
{
    OpenJob& open = job(args);
    const JobRequest request = requestOf(args);
    // Every option is the call's own: without a step, the step the job was opened at.
    const int64_t step = request.files.step.value_or(open.openedStep);
    if (step != open.job.step()) {
        Job other = open.otherSteps.count(step) ? open.otherSteps.at(step) : open.job.forStep(step);
        load(other);
        open.otherSteps.insert_or_assign(open.job.step(), std::move(open.job));
        open.job = std::move(other);
        open.otherSteps.erase(step);
    }
    const Job::Result result = open.job.compare(request.options);
    if (!result.comparison)
        throw result.error.empty() ? ToolError("no rank of the job could be read") : toolError(result.error);
    open.options = request.options;
    open.comparison = result.comparison;
    open.diff = Json::parse(DiffReport::json(*open.comparison));
    Result r;
    r.structured = open.diff;
    const Json& all = open.diff["findings"];
    r.structured["finding_count"] = all.size();
    Json first = Json::array();
    for (size_t i = 0; i < all.size() && i < 10; ++i)
        first.push_back(findingSummary(all[i], i + 1));
    r.structured["findings"] = first;
    r.text = DiffReport::text(*open.comparison);
    if (open.job.step() >= 0) {
        r.structured["step"] = open.job.step();
        r.text = "Step " + std::to_string(open.job.step()) + " (" + open.job.stepNote() + ")\n" + r.text;
    }
    return r;
}

McpServer::Result McpServer::findings(const Json& args)
{
    OpenJob& open = job(args);
    comparison(open);
    const std::string filter = stringOf(args, "filter");
    const std::string presentOn = stringOf(args, "present_on");
    const auto on = ComparisonOptions::parsePresentOn(presentOn);
    if (!presentOn.empty() && !on)
        throw ToolError("present_on needs a number of ranks K or a range K-M, such as 1 or 3-4");
    const int64_t offset = integerOf(args, "offset", 0, 0);
    const int64_t limit = std::min<int64_t>(integerOf(args, "limit", 20, 1), 100);
    const Json& all = open.diff["findings"];
    Json page = Json::array();
    int64_t matched = 0;
    std::string text;
    for (size_t i = 0; i < all.size(); ++i) {
        const int ranks = all[i].value("ranks_with_site", 0);
        if (!matches(all[i], filter) || (on && (ranks < on->first || ranks > on->second)))
            continue;
        if (matched >= offset && matched < offset + limit) {
            page.push_back(findingSummary(all[i], i + 1));
            text += "#" + std::to_string(i + 1) + " rank " + all[i]["rank"].dump() + " +"
                + Formatting::bytes(all[i].value("excess_bytes", int64_t(0))).toStdString() + " "
                + all[i].value("kind", "") + " " + all[i].value("site", "") + "\n";
        }
        ++matched;
    }
    Result r;
    r.structured = { { "total", all.size() }, { "matched", matched }, { "offset", offset }, { "findings", page } };
    r.text = std::to_string(matched) + " of " + std::to_string(all.size()) + " findings match"
        + (filter.empty() ? "" : " \"" + filter + "\"") + "\n" + text;
    return r;
}

McpServer::Result McpServer::stack(const Json& args)
{
    OpenJob& open = job(args);
    const ComparisonPtr c = comparison(open);
    auto marked = [](const Json& recorded) {
        Json frames = Json::array();
        for (const Json& f : recorded) {
            Json frame = f;
            frame["own_code"] =
                !SiteTable::isLibraryFrame(f.value("name", ""), f.value("filename", ""), f.value("line", int64_t(0)));
            frames.push_back(frame);
        }
        return frames;
    };
    if (const std::optional<Json> oom = argument(args, "oom"); oom && oom->is_boolean() && oom->get<bool>()) {
        const Json failed = open.diff["verdict"].value("oom", Json());
        if (!failed.is_object())
            throw ToolError("oom: the verdict is not about an out-of-memory error, so there is no failed request");
        Result r;
        r.structured = failed;
        r.structured["number"] = 0;
        r.structured["frames"] = marked(failed.value("frames", Json::array()));
        r.text = "The failed request of the verdict's out-of-memory error: "
            + Formatting::bytes(failed.value("requested_bytes", int64_t(0))).toStdString() + " at "
            + failed.value("site", "") + "\n";
        for (const Json& f : r.structured["frames"])
            r.text += std::string(f.value("own_code", false) ? "* " : "  ") + f.value("name", "") + "  "
                + f.value("filename", "") + ":" + std::to_string(f.value("line", int64_t(0))) + "\n";
        return r;
    }
    const int64_t number = integerOf(args, "finding", 0, 1);
    if (number == 0)
        throw ToolError("finding needs a finding number, 1 for the largest (or oom: true for the failed request)");
    const Json& all = open.diff["findings"];
    if (size_t(number) > all.size())
        throw ToolError(
            "finding " + std::to_string(number) + ": there are only " + std::to_string(all.size()) + " findings");
    const Json& finding = all[size_t(number - 1)];
    Result r;
    r.structured = findingSummary(finding, size_t(number));
    r.structured["frames"] = marked(finding.value("frames", Json::array()));
    const StackText::Description d = StackText::describeFinding(*c, size_t(number - 1), c->defaultPair().second);
    r.text = d.header.toStdString() + "\n" + d.frames.lines.join(QLatin1Char('\n')).toStdString() + "\n";
    if (!d.footer.isEmpty())
        r.text += d.footer.toStdString() + "\n";
    return r;
}

McpServer::Result McpServer::top(const Json& args, bool whatIfOnly)
{
    OpenJob& open = job(args);
    ComparisonPtr c = comparison(open);
    const int64_t rank = integerOf(args, "rank", -1, 0);
    const int64_t sites = whatIfOnly ? int64_t(RankHoldings::DefaultSites) : integerOf(args, "sites", 20, 1);
    const std::string by = whatIfOnly ? std::string() : stringOf(args, "by");
    if (!by.empty() && by != "site" && by != "category")
        throw ToolError("by needs site or category");
    if (const std::string point = whatIfOnly ? std::string() : stringOf(args, "point"); !point.empty()) {
        Json asked = { { "point", point } };
        ComparisonOptions options = open.options;
        options.point = requestOf(asked).options.point;
        const Job::Result result = open.job.compare(options);
        if (!result.comparison)
            throw toolError(result.error);
        c = result.comparison;
    }
    const std::optional<RankHoldings> holdings = c->holdingsFor(int(rank), size_t(sites));
    if (!holdings)
        throw ToolError("rank " + std::to_string(rank) + ": no such rank among the files");
    const DiffReport::By order = by == "category" ? DiffReport::By::Category : DiffReport::By::Site;
    Result r;
    r.structured = Json::parse(DiffReport::topJson(*c, *holdings, order));
    r.text = DiffReport::topText(*c, *holdings, order, size_t(sites));
    if (whatIfOnly) {
        // The text's first line says whose GPU and when; the what-if table is its last part.
        if (const size_t at = r.text.find("\nPeak "); at != std::string::npos)
            r.text = r.text.substr(0, r.text.find('\n')) + r.text.substr(at);
        for (const char* key : { "sites", "by_category", "categories" })
            r.structured.erase(key);
    }
    return r;
}

McpServer::Result McpServer::info(const Json& args)
{
    const QStringList paths = RankFiles::expand(pathsOf(args));
    if (paths.isEmpty())
        throw ToolError("no snapshot files given");
    std::vector<FileInfoEntry> entries;
    for (const LoadedFile& file : LoadedFile::loadAll(paths))
        entries.push_back(FileInfoEntry::of(file));
    Result r;
    r.structured = Json::parse(InfoFormat::json(entries));
    r.text = InfoFormat::text(entries);
    return r;
}

McpServer::Result McpServer::steps(const Json& args)
{
    const QStringList paths = pathsOf(args);
    double threshold = StepAnalysis::DefaultThresholdPercent;
    if (const std::optional<Json> v = argument(args, "threshold")) {
        if (!v->is_number() || v->get<double>() < 0)
            throw ToolError("threshold needs a percentage, such as 10");
        threshold = v->get<double>();
    }
    const StepLog log = StepLog::read(paths);
    std::string errors;
    for (const auto& [path, error] : log.errors)
        errors += path.toStdString() + ": " + error.toStdString() + "\n";
    if (log.reports.empty())
        throw ToolError(
            errors.empty() ? "no step report lines found (rank=, step= and cur= or peak= on one line)" : errors);
    const StepAnalysis analysis = StepAnalysis::analyse(log, threshold);
    Result r;
    r.structured = Json::parse(StepsReport::json(analysis));
    r.text = errors + StepsReport::text(analysis);
    return r;
}

Json McpServer::toolResult(const Result& result) const
{
    Json content = Json::array();
    content.push_back(
        { { "type", "text" }, { "text", result.text.empty() ? result.structured.dump(2) : result.text } });
    if (!result.png.isEmpty())
        content.push_back(
            { { "type", "image" }, { "data", result.png.toBase64().toStdString() }, { "mimeType", "image/png" } });
    Json out = { { "content", content } };
    if (!result.structured.is_null())
        out["structuredContent"] = result.structured;
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
                "one rank holds more of and where it was allocated; top and what_if for what fills a GPU." } };
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
