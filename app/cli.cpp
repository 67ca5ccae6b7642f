// SPDX-License-Identifier: MIT
#include "cli.h"

#include "beforeafterreport.h"
#include "bytesize.h"
#include "comparison.h"
#include "diffreport.h"
#include "diffsheet.h"
#include "digest.h"
#include "formatting.h"
#include "imageexport.h"
#include "infoformat.h"
#include "loadedfile.h"
#include "parallel.h"
#include "rankfiles.h"
#include "ranklistmodel.h"
#include "rankname.h"
#include "stepsreport.h"
#include "timelineview.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace RankScope::Cli {

namespace {

const char* const usage =
    "Usage:\n"
    "  rankscope [FILE|FOLDER...]             open the snapshots in the desktop app\n"
    "  rankscope info [--json] FILE|FOLDER...  print per-device figures of each snapshot\n"
    "  rankscope diff [--at POINT] [--baseline median|RANK] [--threshold PCT] [--my-code]\n"
    "                 [--depth N] [--device N] [--step N] [--steps] [--layout L]\n"
    "                 [--categories FILE] [--device-memory SIZE] [--json|--csv]\n"
    "                 [--fail-on-imbalance]\n"
    "                 FILE|FOLDER...\n"
    "                                         which rank holds what the others don't, and why\n"
    "  rankscope diff --before DIR --after DIR [diff options] [--json]\n"
    "                                         a run before a fix against the run after it:\n"
    "                                         spreads, top sites, and whether it is fixed\n"
    "  rankscope top [--at POINT] [--by site|category] [--rank N] [--sites N] [--json]\n"
    "                [diff options] FILE|FOLDER...\n"
    "                                         what fills a rank's GPU at a point, and the peak\n"
    "                                         it would have reached without each site\n"
    "  rankscope steps [--json] [--threshold PCT] LOG...\n"
    "                                         per-rank step reports from training logs: which\n"
    "                                         rank departs first, at which step and phase\n"
    "  rankscope export --out FILE.png|.svg|.pdf\n"
    "                 [--view diff|timelines|blockmaps|overview|flame] [--scope excess|everything]\n"
    "                 [--colour allocation|site|category]\n"
    "                 [--ranks A,B] [--finding N] [--size WxH] [--scale S] [--force]\n"
    "                 [diff options] FILE|FOLDER...\n"
    "                                         draw the comparison as the app shows it\n"
    "  rankscope report --out FILE.html|.md [--force] [diff options] FILE|FOLDER...\n"
    "                                         verdict, ranks, top findings with stacks and\n"
    "                                         the diff picture, for a bug report\n"
    "  rankscope digest --out DIR [--rank N] [--force] FILE|FOLDER...\n"
    "                                         write each rank's digest (a few hundred KB) to\n"
    "                                         DIR, to compare a job too big for one machine\n"
    "  rankscope --help | --version\n"
    "  rankscope COMMAND --help               one command's options\n"
    "\n"
    "FILE is a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot): pickle or JSON,\n"
    "optionally gzip-compressed. Folders are searched for snapshot files. Ranks come from\n"
    "the file names (rank3_..., memory_trace_3, ...) or else the order given.\n"
    "\n"
    "diff: POINT is aligned (default: the rank with the highest peak there, every other rank\n"
    "at the same moment of its own trace), peak (each rank at its own peak), snapshot, oom,\n"
    "event:<i>, step:<N> or step:<N>:end. The baseline is the median of the other ranks, or\n"
    "one rank.\n"
    "--my-code keeps only your own frames in the site key, --depth N the first N of them.\n"
    "Every GPU of every rank is compared (--device N: only cuda:N of each rank); memory a\n"
    "rank put on another rank's GPU is a foreign_device finding (verdict stray_device).\n"
    "A folder of several training steps (iteration_<N>/rank<R>_..., snapshot_<step>_<rank>)\n"
    "is compared one step at a time: the latest, or --step N; up to four steps before it\n"
    "are read too, and a rank holding more at every step is a growth (verdict growth);\n"
    "--steps takes one rank's snapshots at successive steps instead of ranks.\n"
    "--layout pp=2,dp=4 (slowest first; also tp, cp, ep) compares each rank with its\n"
    "replicas; stages and shards may differ by design (verdict model_parallel_imbalance when\n"
    "their parameters, gradients or optimizer state do). --categories FILE adds rules that\n"
    "say what allocations are for (parameter, gradient, optimizer_state, activation,\n"
    "temporary, other).\n"
    "--fail-on-imbalance exits with 3 when a rank stands out (an imbalance, a stray device, a\n"
    "growth), with 5 when ranks ran out of memory and none stands out (over_capacity,\n"
    "outside_allocator, fragmentation), else 0 (with --before and --after: 3 unless the run\n"
    "after is fixed).\n"
    "\n"
    "top: by default the rank the verdict is about, at its OOM when the verdict is about one\n"
    "(else at the point compared); --rank and --at choose another.\n"
    "\n"
    "steps: LOG holds lines such as [train] rank=3 step=120 shape=(8, 2048) cur=10240.0MB\n"
    "peak=70144.5MB (resources/python/rankscope_capture.py prints them), from every rank in\n"
    "one log or one log per rank; --threshold (default 10) is how far above the median of\n"
    "the other ranks a peak must be to count.\n"
    "\n"
    "export, report: ranks A and B default to the verdict's rank and the rank closest to\n"
    "the baseline; N counts findings from 1 (the largest, the default). Pictures are\n"
    "1600x1000 at scale 2 unless told otherwise; no display is needed. An existing file is\n"
    "only replaced with --force. Exit status 4: the output could not be written.\n"
    "\n"
    "digest: each FILE becomes DIR/rank<R>.digest.pickle.gz, a snapshot that holds what\n"
    "decides the comparison at the peak, the snapshot and OOMs, and the timeline's shape.\n"
    "diff, export, report and the app take digests wherever they take snapshots and give\n"
    "the same findings and verdict. Run one task per node under the job's launcher, e.g.\n"
    "  srun bash -c 'rankscope digest --rank $SLURM_PROCID run/rank$SLURM_PROCID.pickle -o d'\n"
    "--rank N records rank N (one FILE only); otherwise ranks come from the file names.\n";

void print(FILE* stream, const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stream);
}

// One command's command line, read the same way for every command: `--help` prints the command's help, a usage
// error prints "rankscope CMD: what is wrong" and that help and exits with 2.
class CommandLine
{
public:
    CommandLine(std::string command, std::string synopsis, std::string about)
        : m_command(std::move(command))
        , m_synopsis(std::move(synopsis))
        , m_about(std::move(about))
    {
        m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
        m_parser.addOption({ { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help.") });
    }

    /// An option; `valueName` empty for a flag.
    void add(const QStringList& names, const char* description, const char* valueName = "")
    {
        m_parser.addOption({ names, QString::fromUtf8(description), QString::fromUtf8(valueName) });
    }

    /// Reads the arguments after the command's name; nullopt to go on, else the exit code (0 after --help).
    std::optional<int> parse(const QStringList& args)
    {
        if (!m_parser.parse(QStringList { QStringLiteral("rankscope") } + args)) {
            // The parser's own words ("Unknown option 'x'.") name the option as the user typed it.
            QString message = m_parser.errorText();
            if (message.endsWith(QLatin1Char('.')))
                message.chop(1);
            return fail(message.toStdString());
        }
        if (m_parser.isSet(QStringLiteral("help"))) {
            print(stdout, help());
            return 0;
        }
        return std::nullopt;
    }

    int fail(const std::string& message) const
    {
        print(stderr, "rankscope " + m_command + ": " + message + "\n\n" + help());
        return 2;
    }

    std::string help() const
    {
        const QString options = m_parser.helpText();
        return "Usage: rankscope " + m_command + " " + m_synopsis + "\n\n" + m_about + "\n\n"
            + options.mid(options.indexOf(QLatin1String("Options:"))).toStdString();
    }

    bool isSet(const char* name) const
    {
        return m_parser.isSet(QString::fromLatin1(name));
    }
    QString value(const char* name) const
    {
        return m_parser.value(QString::fromLatin1(name));
    }
    QStringList values(const char* name) const
    {
        return m_parser.values(QString::fromLatin1(name));
    }
    QStringList positional() const
    {
        return m_parser.positionalArguments();
    }

private:
    std::string m_command;
    std::string m_synopsis;
    std::string m_about;
    QCommandLineParser m_parser;
};

QStringList names(const char* a, const char* b = nullptr)
{
    QStringList list { QString::fromLatin1(a) };
    if (b)
        list.append(QString::fromLatin1(b));
    return list;
}

int info(const QStringList& args)
{
    CommandLine cl(
        "info", "[--json] FILE|FOLDER...", "Per-device figures of each snapshot, summed as PyTorch defines them.");
    cl.add(names("json"), "Print JSON: {\"files\":[{\"path\",\"rank\",\"devices\":[...]}]}.");
    if (const auto code = cl.parse(args))
        return *code;
    const bool json = cl.isSet("json");
    const QStringList paths = RankFiles::expand(cl.positional());
    if (paths.isEmpty())
        return cl.fail("no snapshot files given");
    std::vector<FileInfoEntry> entries;
    int failures = 0;
    for (const LoadedFile& file : LoadedFile::loadAll(paths)) {
        FileInfoEntry entry;
        entry.path = file.path;
        entry.rank = file.rank;
        entry.error = file.error;
        entry.devices = file.devices;
        if (!file.note.isEmpty())
            print(stderr, "warning: " + file.path.toStdString() + ": " + file.note.toStdString() + "\n");
        if (!file.ok()) {
            ++failures;
            print(stderr, file.path.toStdString() + ": " + file.error.toStdString() + "\n");
        }
        entries.push_back(std::move(entry));
    }
    print(stdout, json ? InfoFormat::json(entries) : InfoFormat::text(entries));
    return failures ? 1 : 0;
}

// Options every comparing command takes.
void addComparisonOptions(CommandLine& cl)
{
    cl.add(names("at"),
        "Where each rank is compared: aligned (default: the rank with the highest peak there, every other rank at the "
        "same moment of its own trace), peak (each rank at its own peak), snapshot, oom, event:<i>, step:<N> or "
        "step:<N>:end.",
        "POINT");
    cl.add(names("baseline"), "Compare each rank with the median of the others (default) or with one rank.",
        "median|RANK");
    cl.add(names("threshold"), "How far above its baseline a rank must be to count, in percent (default 2).", "PCT");
    cl.add(names("my-code"), "Keep only your own frames in the site key.");
    cl.add(names("depth"), "Keep the first N frames in the site key.", "N");
    cl.add(
        names("device"), "Compare cuda:N of every rank (default: every device, the one that matters most first).", "N");
    cl.add(names("step"),
        "In a folder of several training steps (iteration_<N>/ …), compare the snapshots of step N (default: the "
        "latest).",
        "N");
    cl.add(names("steps"),
        "The files are one rank's snapshots at successive training steps (oldest first, or in the order of the step "
        "numbers in their names): the last is compared, with growth across all of them.");
    cl.add(names("layout"),
        "The job's parallel layout, slowest dimension first, as a device mesh is written: pp=2,dp=4 (also tp, cp, "
        "ep; the sizes multiply to the number of ranks). Ranks are compared with their replicas (same coordinates but "
        "dp); stages and shards may differ by design. Default: guessed where the files show groups that run "
        "different parts of the model.",
        "LAYOUT");
    cl.add(names("device-memory"),
        "Each GPU's total memory (80GiB, 79.3GB …), which a snapshot does not record: with it, an OOM outside the "
        "allocator says how much is held outside PyTorch.",
        "SIZE");
    cl.add(names("categories"),
        "A rules file that adds category patterns: one '<category> <pattern>' a line, matched against each frame's "
        "filename:function.",
        "FILE");
}

// Which files make the ranks: one step of a folder of several, or (--steps) one rank's successive steps.
struct Loading
{
    std::optional<int64_t> step;
    bool stepsOfOneRank = false;
};

// Returns what is wrong with the comparison options given, or "".
std::string readComparisonOptions(const CommandLine& cl, ComparisonOptions& options, Loading& loading)
{
    std::optional<int64_t>& step = loading.step;
    loading.stepsOfOneRank = cl.isSet("steps");
    options.site.myCodeOnly = cl.isSet("my-code");
    bool ok = false;
    if (cl.isSet("at") && cl.value("at") != QLatin1String("aligned")) {
        options.point = TimelinePoint::parse(cl.value("at").toStdString());
        if (!options.point)
            return "--at needs aligned, peak, snapshot, oom, event:<i>, step:<N> or step:<N>:end";
    }
    if (cl.isSet("baseline") && cl.value("baseline") != QLatin1String("median")) {
        options.baselineRank = cl.value("baseline").toInt(&ok);
        if (!ok)
            return "--baseline needs median or a rank number";
    }
    if (cl.isSet("threshold")) {
        options.thresholdPercent = cl.value("threshold").toDouble(&ok);
        if (!ok || options.thresholdPercent < 0)
            return "--threshold needs a percentage, such as 2 or 0.5";
    }
    if (cl.isSet("depth")) {
        options.site.depth = cl.value("depth").toInt(&ok);
        if (!ok || options.site.depth < 1)
            return "--depth needs a number of frames, 1 or more";
    }
    if (cl.isSet("device")) {
        options.device = cl.value("device").toInt(&ok);
        if (!ok || *options.device < 0 || *options.device > 65535)
            return "--device needs a device number, such as 0";
    }
    if (cl.isSet("step")) {
        step = cl.value("step").toLongLong(&ok);
        if (!ok || *step < 0)
            return "--step needs a step number, such as 20";
    }
    if (cl.isSet("layout")) {
        std::string why;
        options.layout = ParallelLayout::parse(cl.value("layout").toStdString(), &why);
        if (!options.layout)
            return "--layout " + cl.value("layout").toStdString() + ": " + why;
    }
    if (cl.isSet("device-memory")) {
        const std::optional<int64_t> bytes = parseByteSizeWithUnit(cl.value("device-memory"));
        if (!bytes)
            return "--device-memory needs a size with its unit, such as 80GiB";
        options.deviceMemoryBytes = *bytes;
    }
    if (cl.isSet("categories")) {
        try {
            options.categories = CategoryRules::read(cl.value("categories"));
        } catch (const std::exception& e) {
            return std::string("--categories: ") + e.what();
        }
    }
    return {};
}

// Loads the files and compares them; failed files are reported on stderr and counted.
struct Compared
{
    QList<LoadedFile> files;
    ComparisonPtr comparison;
    int failures = 0;
    std::string error; // a usage error
};

// An event or step that a rank's trace does not have would compare that rank at another moment, silently: a usage
// error that names the rank and what its trace holds. Digests keep only the peak, the snapshot and OOMs; they are
// compared at their snapshot with a note, as documented.
std::string pointOutsideTrace(const Comparison& c)
{
    const std::optional<TimelinePoint::Spec>& spec = c.options().point;
    if (!spec || !TimelinePoint::insideTrace(spec->kind))
        return {};
    for (size_t i = 0; i < c.ranks().size(); ++i) {
        const DeviceHistory& h = c.history(i);
        if (c.ranks()[i].note.empty() || h.snapshot().digest)
            continue;
        const std::string rank = "rank " + std::to_string(c.ranks()[i].rank);
        if (spec->kind == TimelinePoint::Event)
            return "--at " + c.pointName() + ": " + rank + "'s trace has events 0 to "
                + std::to_string(int64_t(h.eventCount()) - 1);
        return "--at " + c.pointName() + ": " + rank + "'s trace has no "
            + (spec->kind == TimelinePoint::StepEnd ? "end of " : "") + "ProfilerStep#" + std::to_string(spec->number);
    }
    return {};
}

// Snapshots of several training steps are one comparison per step: the step asked for, else the latest (into
// `chosenStep`, -1 without steps), said on stderr so the output is never taken for the whole folder.
std::string chooseStep(QStringList& paths, std::optional<int64_t> step, int64_t& chosenStep)
{
    const RankFiles::Step chosen = RankFiles::chooseStep(paths, step);
    chosenStep = chosen.chosen;
    std::string list;
    for (int64_t s : chosen.steps)
        list += (list.empty() ? "" : ", ") + std::to_string(s);
    if (chosen.steps.empty())
        return step ? "--step " + std::to_string(*step) + ": the files are not of several training steps" : "";
    if (chosen.files.isEmpty())
        return "--step " + std::to_string(*step) + ": the files hold steps " + list;
    print(stderr,
        "note: the files hold snapshots of steps " + list + "; comparing step " + std::to_string(chosen.chosen)
            + (step ? "" : " (the latest; --step N for another)") + "\n");
    paths = chosen.files;
    return {};
}

// --steps: one rank's snapshots at successive steps, the last compared with growth across the others.
Compared loadStepsOfOneRank(const QStringList& givenPaths, const ComparisonOptions& options)
{
    Compared result;
    QStringList paths = RankFiles::expand(givenPaths);
    if (paths.size() < 2) {
        result.error = "--steps needs the snapshots of two or more steps of one rank";
        return result;
    }
    // Numbered steps go in the order of their numbers; otherwise the files are in the order given.
    std::vector<std::pair<int64_t, QString>> steps;
    for (qsizetype i = 0; i < paths.size(); ++i)
        steps.push_back({ RankName::stepFromPath(paths[i]).value_or(-1), paths[i] });
    const bool numbered = std::all_of(steps.begin(), steps.end(), [](const auto& s) { return s.first >= 0; });
    if (numbered)
        std::stable_sort(steps.begin(), steps.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < steps.size(); ++i) {
        if (!numbered)
            steps[i].first = int64_t(i) + 1;
        paths[qsizetype(i)] = steps[i].second;
    }
    result.files = LoadedFile::loadAll(paths);
    for (LoadedFile& file : result.files)
        file.note.clear(); // the same rank in every file is what --steps means, not a clash of names
    RankInput rank;
    std::vector<RankInput::EarlierStep> earlier;
    for (qsizetype i = 0; i < result.files.size(); ++i) {
        const LoadedFile& file = result.files[i];
        if (!file.ok()) {
            ++result.failures;
            print(stderr, file.path.toStdString() + ": " + file.error.toStdString() + "\n");
            continue;
        }
        if (rank.snapshot)
            earlier.push_back({ rank.step, rank.snapshot });
        // One rank: the number the first file gives (the others would be renumbered as if they were other ranks).
        rank = RankInput(result.files.front().rank, file.path, file.snapshot);
        rank.step = steps[size_t(i)].first;
    }
    if (!rank.snapshot)
        return result;
    rank.earlier = std::move(earlier);
    result.comparison = Comparison::compute({ rank }, options);
    return result;
}

Compared loadAndCompare(const QStringList& givenPaths, const ComparisonOptions& options, const Loading& loading)
{
    if (loading.stepsOfOneRank)
        return loadStepsOfOneRank(givenPaths, options);
    const std::optional<int64_t>& step = loading.step;
    Compared result;
    QStringList paths = RankFiles::expand(givenPaths);
    if (paths.isEmpty()) {
        result.error = "no snapshot files given";
        return result;
    }
    const QStringList allSteps = paths;
    int64_t chosen = -1;
    result.error = chooseStep(paths, step, chosen);
    if (!result.error.empty())
        return result;
    std::vector<RankInput> ranks;
    result.files = LoadedFile::loadAll(paths);
    for (const LoadedFile& file : result.files) {
        if (!file.note.isEmpty())
            print(stderr, "warning: " + file.path.toStdString() + ": " + file.note.toStdString() + "\n");
        if (!file.ok()) {
            ++result.failures;
            print(stderr, file.path.toStdString() + ": " + file.error.toStdString() + "\n");
            continue;
        }
        ranks.push_back({ file.rank, file.path, file.snapshot });
    }
    if (ranks.empty())
        return result;
    // The steps before this one, for growth across steps.
    if (chosen >= 0) {
        const EarlierSteps earlier = EarlierSteps::load(allSteps, chosen);
        for (const LoadedFile& file : earlier.failed) {
            ++result.failures;
            print(stderr, file.path.toStdString() + ": " + file.error.toStdString() + " (an earlier step)\n");
        }
        earlier.attach(ranks, chosen);
    }
    if (const std::optional<ParallelLayout>& layout = options.layout) {
        const std::string given = "--layout " + layout->text() + ": ";
        if (layout->rankCount() != int(paths.size())) {
            result.error = given + std::to_string(layout->rankCount()) + " ranks, but " + std::to_string(paths.size())
                + " snapshot files are given";
            return result;
        }
        for (const RankInput& r : ranks) {
            if (r.rank >= layout->rankCount()) {
                result.error = given + "rank " + std::to_string(r.rank) + " (" + r.path.toStdString()
                    + ") is not among ranks 0 to " + std::to_string(layout->rankCount() - 1);
                return result;
            }
        }
    }
    if (options.baselineRank >= 0 && std::none_of(ranks.begin(), ranks.end(), [&](const RankInput& r) {
            return r.rank == options.baselineRank;
        })) {
        result.error = "--baseline " + std::to_string(options.baselineRank) + ": no such rank among the files";
        return result;
    }
    result.comparison = Comparison::compute(ranks, options);
    result.error = pointOutsideTrace(*result.comparison);
    if (!result.error.empty())
        result.comparison.reset();
    return result;
}

int diff(const QStringList& args)
{
    CommandLine cl("diff", "[options] FILE|FOLDER...\n       rankscope diff --before DIR --after DIR [options]",
        "Which rank holds what the others don't, and why: findings per allocation site and a verdict. With --before\n"
        "and --after, a run before a fix against the run after it: spreads, top sites, and whether it is fixed.");
    addComparisonOptions(cl);
    cl.add(names("json"), "Print JSON.");
    cl.add(names("csv"), "Print the findings as CSV.");
    cl.add(names("fail-on-imbalance"),
        "Exit with 3 when a rank stands out (imbalance, stray device, growth), with 5 when ranks ran out of memory and "
        "none stands out (over_capacity, outside_allocator, fragmentation); with --before and --after: 3 unless the "
        "run after is fixed.");
    cl.add(names("before"), "The run before the change (a folder or file; may be repeated).", "DIR");
    cl.add(names("after"), "The run after the change (a folder or file; may be repeated).", "DIR");
    if (const auto code = cl.parse(args))
        return *code;
    ComparisonOptions options;
    Loading step;
    if (const std::string error = readComparisonOptions(cl, options, step); !error.empty())
        return cl.fail(error);
    if (cl.isSet("json") && cl.isSet("csv"))
        return cl.fail("--json and --csv exclude each other");
    const enum { Text, Json, Csv } format = cl.isSet("json") ? Json : cl.isSet("csv") ? Csv : Text;
    const bool failOnImbalance = cl.isSet("fail-on-imbalance");
    const QStringList paths = cl.positional();
    const QStringList before = cl.values("before");
    const QStringList after = cl.values("after");
    auto fail = [&cl](const std::string& message) { return cl.fail(message); };
    if (!before.isEmpty() || !after.isEmpty()) {
        if (before.isEmpty() || after.isEmpty() || !paths.isEmpty())
            return fail("--before and --after go together, with no other files");
        if (format == Csv)
            return fail("--csv compares one run; use --json or text with --before and --after");
        const Compared was = loadAndCompare(before, options, step);
        const Compared is = loadAndCompare(after, options, step);
        for (const Compared* run : { &was, &is }) {
            if (!run->error.empty())
                return fail((run == &was ? "--before: " : "--after: ") + run->error);
        }
        if (!was.comparison || !is.comparison)
            return 1;
        const BeforeAfter result = BeforeAfter::compute(was.comparison, is.comparison);
        print(stdout, format == Json ? BeforeAfterReport::json(result) : BeforeAfterReport::text(result));
        if (was.failures || is.failures)
            return 1;
        return failOnImbalance && !result.fixed ? 3 : 0;
    }
    const Compared compared = loadAndCompare(paths, options, step);
    if (!compared.error.empty())
        return fail(compared.error);
    if (!compared.comparison)
        return 1;
    const Comparison& comparison = *compared.comparison;
    print(stdout,
        format == Json      ? DiffReport::json(comparison)
            : format == Csv ? DiffReport::csv(comparison)
                            : DiffReport::text(comparison));
    if (compared.failures)
        return 1;
    if (!failOnImbalance)
        return 0;
    switch (comparison.verdict().kind) {
    case Verdict::Balanced:
        return 0;
    case Verdict::OverCapacity:
    case Verdict::OutsideAllocator:
    case Verdict::Fragmentation:
        return 5; // out of memory, and no rank stands out
    case Verdict::BurdenImbalance:
    case Verdict::InputImbalance:
    case Verdict::StrayDevice:
    case Verdict::ModelParallelImbalance:
    case Verdict::Growth:
        break;
    }
    return 3;
}

int top(const QStringList& args)
{
    CommandLine cl("top",
        "[--at POINT] [--by site|category] [--rank N] [--sites N] [--json] [diff options] FILE|FOLDER...",
        "What fills a rank's GPU at a point: the sites (or categories) holding memory there, with bytes, allocations\n"
        "and category, and the peak the rank would have reached had each one's allocations not been made (the trace\n"
        "replayed without them; a failed request counts as allocated at its OOM). One file, or the rank the verdict\n"
        "of a job is about, at its OOM when the verdict is about one.");
    addComparisonOptions(cl);
    cl.add(names("by"), "List sites (default) or categories.", "site|category");
    cl.add(names("rank"), "The rank to look at (default: the rank the verdict is about).", "N");
    cl.add(names("sites"), "How many sites to list, each with its peak without it (default 20).", "N");
    cl.add(names("json"), "Print JSON.");
    if (const auto code = cl.parse(args))
        return *code;
    ComparisonOptions options;
    Loading step;
    if (const std::string error = readComparisonOptions(cl, options, step); !error.empty())
        return cl.fail(error);
    const QString by = cl.value("by");
    if (cl.isSet("by") && by != QLatin1String("site") && by != QLatin1String("category"))
        return cl.fail("--by needs site or category");
    bool ok = true;
    const int sites = cl.isSet("sites") ? cl.value("sites").toInt(&ok) : 20;
    if (!ok || sites < 1)
        return cl.fail("--sites needs a number, 1 or more");
    const int wanted = cl.isSet("rank") ? cl.value("rank").toInt(&ok) : -1;
    if (!ok || (cl.isSet("rank") && wanted < 0))
        return cl.fail("--rank needs a rank number");
    const Compared compared = loadAndCompare(cl.positional(), options, step);
    if (!compared.error.empty())
        return cl.fail(compared.error);
    if (!compared.comparison)
        return 1;
    const Comparison& c = *compared.comparison;
    const int rank = wanted >= 0 ? wanted : c.verdictHoldingsRank();
    const int index = c.rankIndex(rank);
    if (index < 0)
        return cl.fail("--rank " + std::to_string(rank) + ": no such rank among the files");
    const RankSummary& r = c.ranks()[size_t(index)];
    if (!r.note.empty())
        print(stderr, "note: rank " + std::to_string(r.rank) + " " + r.note + "\n");
    // Without --at, the rank the verdict is about where the verdict looks at it (the same figures as the verdict's).
    const bool verdicts = wanted < 0 && !options.point;
    const RankHoldings holdings =
        verdicts ? c.verdictHoldings(size_t(sites)) : c.holdingsOf(size_t(index), r.point.event, size_t(sites));
    const DiffReport::By order = by == QLatin1String("category") ? DiffReport::By::Category : DiffReport::By::Site;
    print(stdout,
        cl.isSet("json") ? DiffReport::topJson(c, holdings, order)
                         : DiffReport::topText(c, holdings, order, size_t(sites)));
    return compared.failures ? 1 : 0;
}

int steps(const QStringList& args)
{
    CommandLine cl("steps", "[--json] [--threshold PCT] LOG...",
        "Per-rank step reports from training logs: which rank departs first, at which step and phase. LOG holds lines\n"
        "such as [train] rank=3 step=120 shape=(8, 2048) cur=10240.0MB peak=70144.5MB\n"
        "(resources/python/rankscope_capture.py prints them), from every rank in one log or one log per rank.");
    cl.add(names("json"), "Print JSON.");
    cl.add(names("threshold"),
        "How far above the median of the other ranks a peak must be to count, in percent (default 10).", "PCT");
    if (const auto code = cl.parse(args))
        return *code;
    const bool json = cl.isSet("json");
    double threshold = StepAnalysis::DefaultThresholdPercent;
    if (cl.isSet("threshold")) {
        bool ok = false;
        threshold = cl.value("threshold").toDouble(&ok);
        if (!ok || threshold < 0)
            return cl.fail("--threshold needs a percentage, such as 10");
    }
    const QStringList paths = cl.positional();
    auto fail = [&cl](const std::string& message) { return cl.fail(message); };
    if (paths.isEmpty())
        return fail("no log files given");
    const StepLog log = StepLog::read(paths);
    for (const auto& [path, error] : log.errors)
        print(stderr, path.toStdString() + ": " + error.toStdString() + "\n");
    if (log.reports.empty() && log.errors.empty()) {
        print(stderr, "rankscope steps: no step report lines found (rank=, step= and cur= or peak= on one line)\n");
        return 1;
    }
    const StepAnalysis analysis = StepAnalysis::analyse(log, threshold);
    print(stdout, json ? StepsReport::json(analysis) : StepsReport::text(analysis));
    return log.errors.empty() ? 0 : 1;
}

// Options of the commands that write a picture or a report.
struct OutputOptions
{
    QString out;
    bool force = false;
    DiffSheet::View view = DiffSheet::Diff;
    TimelineView::BandColoring coloring = TimelineView::ColorByAllocation;
    std::optional<ExcessTree::Scope> scope;
    int rankA = -1;
    int rankB = -1;
    int finding = 0; // index into the findings
    QSize size { 1600, 1000 };
    double scale = 2;
};

void addOutputOptions(CommandLine& cl, const char* outDescription)
{
    cl.add(names("o", "out"), outDescription, "FILE");
    cl.add(names("force"), "Replace the output if it exists.");
    cl.add(names("view"), "What to draw: diff (default), timelines, blockmaps, overview or flame (rank A by frame).",
        "VIEW");
    cl.add(names("scope"),
        "What the flame graph shows of rank A: excess (beyond its baseline) or everything (at the point); default: "
        "its excess where it has any, else everything.",
        "excess|everything");
    cl.add(names("colour", "color"),
        "What the timelines' colours say: allocation (each its own, the default), site or category.", "BY");
    cl.add(names("ranks"), "Ranks A and B (default: the verdict's rank and the rank closest to the baseline).", "A,B");
    cl.add(names("finding"), "The finding to select, counting from 1 (the largest, the default).", "N");
    cl.add(names("size"), "The page in pixels (default 1600x1000).", "WxH");
    cl.add(names("scale"), "Pixels per page pixel in PNG (default 2).", "S");
}

// Returns what is wrong with the output options given, or "".
std::string readOutputOptions(const CommandLine& cl, OutputOptions& o)
{
    o.out = cl.value("out");
    if (cl.isSet("out") && o.out.isEmpty())
        return "--out needs a file name";
    o.force = cl.isSet("force");
    if (cl.isSet("view")) {
        const auto view = DiffSheet::parseView(cl.value("view"));
        if (!view)
            return "--view needs diff, timelines, blockmaps, overview or flame";
        o.view = *view;
    }
    if (cl.isSet("scope")) {
        if (cl.value("scope") != QLatin1String("excess") && cl.value("scope") != QLatin1String("everything"))
            return "--scope needs excess or everything";
        o.scope = cl.value("scope") == QLatin1String("excess") ? ExcessTree::Excess : ExcessTree::Everything;
    }
    if (cl.isSet("colour")) {
        const auto coloring = TimelineView::parseColoring(cl.value("colour"));
        if (!coloring)
            return "--colour needs allocation, site or category";
        o.coloring = *coloring;
    }
    if (cl.isSet("ranks")) {
        const QStringList pair = cl.value("ranks").split(QLatin1Char(','));
        bool okA = false, okB = pair.size() < 2;
        o.rankA = pair.value(0).toInt(&okA);
        o.rankB = pair.size() > 1 ? pair[1].toInt(&okB) : -1;
        if (!okA || !okB || pair.size() > 2 || o.rankA == o.rankB)
            return "--ranks needs one or two different rank numbers, such as 0,3";
    }
    if (cl.isSet("finding")) {
        bool ok = false;
        o.finding = cl.value("finding").toInt(&ok) - 1;
        if (!ok || o.finding < 0)
            return "--finding needs a finding number, 1 for the largest";
    }
    if (cl.isSet("size")) {
        const QStringList wh = cl.value("size").split(QLatin1Char('x'));
        bool okW = false, okH = false;
        o.size = QSize(wh.value(0).toInt(&okW), wh.value(1).toInt(&okH));
        if (!okW || !okH || wh.size() != 2 || o.size.width() < 200 || o.size.height() < 150 || o.size.width() > 10000
            || o.size.height() > 10000)
            return "--size needs WIDTHxHEIGHT in pixels, such as 1600x1000 (200x150 to 10000x10000)";
    }
    if (cl.isSet("scale")) {
        bool ok = false;
        o.scale = cl.value("scale").toDouble(&ok);
        if (!ok || o.scale < 0.5 || o.scale > 4)
            return "--scale needs a factor from 0.5 to 4, such as 2";
    }
    return {};
}

// Renders the chosen view of a comparison, with the same widgets as the window.
std::unique_ptr<DiffSheet> makeSheet(
    const Compared& compared, const OutputOptions& o, RankListModel& ranks, std::string& error)
{
    const Comparison& c = *compared.comparison;
    auto [a, b] = c.defaultPair();
    if (o.rankA >= 0) {
        a = o.rankA;
        b = o.rankB >= 0 ? o.rankB : (o.rankA == b ? c.defaultPair().first : b);
    }
    for (int rank : { a, b }) {
        if (rank >= 0 && c.rankIndex(rank) < 0) {
            error = "--ranks " + std::to_string(rank) + ": no such rank among the files";
            return nullptr;
        }
    }
    int finding = c.findings().empty() ? -1 : o.finding;
    if (finding >= int(c.findings().size())) {
        error = "--finding " + std::to_string(finding + 1) + ": there are only " + std::to_string(c.findings().size())
            + " findings";
        return nullptr;
    }
    for (int i = 0; i < compared.files.size(); ++i) {
        ranks.addLoading(i, compared.files[i].path, compared.files[i].rank);
        ranks.setLoaded(i, compared.files[i]);
    }
    ranks.setComparison(compared.comparison);
    auto sheet = std::make_unique<DiffSheet>(o.view);
    sheet->setScope(o.scope);
    if (sheet->timelines())
        sheet->timelines()->setBandColoring(o.coloring);
    sheet->setComparison(compared.comparison, a, b, finding, &ranks);
    if (!sheet->prepare(o.size))
        error = "drawing the views took too long";
    return sheet;
}

// Refuses to replace a file unless --force was given.
bool mayWrite(const char* command, const QString& path, bool force)
{
    if (force || !QFileInfo::exists(path))
        return true;
    print(stderr,
        std::string("rankscope ") + command + ": " + path.toStdString() + " exists; add --force to replace it\n");
    return false;
}

// The steps `export` and `report` share: parse, check the output's name, load and compare, refuse to replace files
// without --force, draw the sheet, write. `badName` returns a message for an unusable output name (else empty);
// `outputs` lists every file the command will write; `write` writes them and returns an error message or "".
int runWriting(CommandLine& cl, const char* command, const QStringList& args,
    const std::function<std::string(const QString&)>& badName,
    const std::function<QStringList(const QString&)>& outputs,
    const std::function<QString(DiffSheet&, const Comparison&, const OutputOptions&)>& write)
{
    addComparisonOptions(cl);
    if (const auto code = cl.parse(args))
        return *code;
    ComparisonOptions options;
    Loading step;
    OutputOptions o;
    for (const std::string& error : { readComparisonOptions(cl, options, step), readOutputOptions(cl, o) }) {
        if (!error.empty())
            return cl.fail(error);
    }
    if (o.out.isEmpty())
        return cl.fail("--out FILE is required");
    const QStringList paths = cl.positional();
    const std::string prefix = std::string("rankscope ") + command + ": ";
    if (const std::string bad = badName(o.out); !bad.empty()) {
        print(stderr, prefix + o.out.toStdString() + ": " + bad + "\n");
        return 2;
    }
    const Compared compared = loadAndCompare(paths, options, step);
    if (!compared.error.empty())
        return cl.fail(compared.error);
    if (!compared.comparison)
        return 1;
    for (const QString& out : outputs(o.out)) {
        if (!mayWrite(command, out, o.force))
            return 4;
    }
    RankListModel ranks;
    std::string error;
    const std::unique_ptr<DiffSheet> sheet = makeSheet(compared, o, ranks, error);
    if (!sheet) {
        print(stderr, prefix + error + "\n");
        return 2;
    }
    if (const QString failed = write(*sheet, *compared.comparison, o); !failed.isEmpty()) {
        print(stderr, prefix + failed.toStdString() + "\n");
        return 4;
    }
    return compared.failures ? 1 : 0;
}

int exportImage(const QStringList& args)
{
    CommandLine cl("export", "--out FILE.png|.svg|.pdf [options] FILE|FOLDER...",
        "Draws the comparison as the app shows it: PNG, SVG or PDF, with no display. An existing file is only\n"
        "replaced with --force; exit status 4 when the output could not be written.");
    addOutputOptions(cl, "The picture to write: .png, .svg or .pdf.");
    return runWriting(
        cl, "export", args,
        [](const QString& out) {
            return ImageExport::formatOf(out) == ImageExport::Unknown
                ? std::string("use a .png, .svg or .pdf file name")
                : std::string();
        },
        [](const QString& out) { return QStringList { out }; },
        [](DiffSheet& sheet, const Comparison&, const OutputOptions& o) {
            return ImageExport::save(&sheet, o.out, o.scale);
        });
}

int report(const QStringList& args)
{
    CommandLine cl("report", "--out FILE.html|.md [options] FILE|FOLDER...",
        "Verdict, ranks, top findings with stacks and the diff picture, for a bug report: one HTML file with the\n"
        "picture embedded, or Markdown with the picture next to it. Exit status 4: the output could not be written.");
    addOutputOptions(cl, "The report to write: .html or .md.");
    return runWriting(
        cl, "report", args,
        [](const QString& out) {
            return DiffSheet::isReportPath(out) ? std::string() : std::string("use a .html or .md file name");
        },
        // Markdown cannot hold the picture: it goes next to the report, named after it.
        [](const QString& out) {
            const QString image = DiffSheet::reportImagePath(out);
            return image.isEmpty() ? QStringList { out } : QStringList { out, image };
        },
        [](DiffSheet& sheet, const Comparison& comparison, const OutputOptions& o) {
            return sheet.writeReport(comparison, o.out, o.scale);
        });
}

} // namespace

int digest(const QStringList& args)
{
    CommandLine cl("digest", "--out DIR [--rank N] [--force] FILE|FOLDER...",
        "Writes each FILE as DIR/rank<R>.digest.pickle.gz, a snapshot of a few hundred KB that holds what decides the\n"
        "comparison at the peak, the snapshot and OOMs, and the timeline's shape. diff, export, report and the app\n"
        "take digests wherever they take snapshots and give the same findings and verdict. Run one task per node\n"
        "under the job's launcher, e.g.\n"
        "  srun bash -c 'rankscope digest --rank $SLURM_PROCID run/rank$SLURM_PROCID.pickle -o d'");
    cl.add(names("o", "out"), "The folder to write the digests to.", "DIR");
    cl.add(names("rank"), "The rank of the one FILE given (otherwise ranks come from the file names).", "N");
    cl.add(names("force"), "Replace digests that exist.");
    if (const auto code = cl.parse(args))
        return *code;
    const QString outDir = cl.value("out");
    const bool force = cl.isSet("force");
    int rank = -1;
    if (cl.isSet("rank")) {
        bool ok = false;
        rank = cl.value("rank").toInt(&ok);
        if (!ok || rank < 0)
            return cl.fail("--rank needs a rank number, 0 or more");
    }
    QStringList paths = cl.positional();
    auto fail = [&cl](const std::string& message) { return cl.fail(message); };
    if (outDir.isEmpty())
        return fail("--out DIR is required");
    paths = RankFiles::expand(paths);
    if (paths.isEmpty())
        return fail("no snapshot files given");
    if (rank >= 0 && paths.size() > 1)
        return fail("--rank names the rank of one file; the names of several files give theirs");
    if (!QDir().mkpath(outDir)) {
        print(stderr, "rankscope digest: cannot create " + outDir.toStdString() + "\n");
        return 4;
    }
    const QList<RankName::Assigned> ranks = RankName::assign(paths);
    QList<int> rankOf;
    QStringList outputs;
    for (qsizetype i = 0; i < paths.size(); ++i) {
        rankOf.append(rank >= 0 ? rank : ranks[i].rank);
        outputs.append(QDir(outDir).filePath(QStringLiteral("rank%1.digest.pickle.gz").arg(rankOf.back())));
        if (!mayWrite("digest", outputs.back(), force))
            return 4;
    }
    // One file at a time per core: each is read, digested and dropped, so memory stays at one file per core.
    struct Outcome
    {
        std::string message;
        int code = 0;
    };
    const QList<Outcome> outcomes = Parallel::mapIndices(paths.size(), [&](qsizetype i) {
        const int r = rankOf[i];
        const LoadedFile file = LoadedFile::load(paths[i], r, ranks[i].fromName);
        if (!file.ok())
            return Outcome { paths[i].toStdString() + ": " + file.error.toStdString() + "\n", 1 };
        Digest::Source source;
        source.rank = r;
        source.fileName = QFileInfo(paths[i]).fileName().toStdString();
        source.fileBytes = file.fileSize;
        try {
            const Digest::Figures f = Digest::write(*file.snapshot, source, outputs[i]);
            const std::string line = paths[i].toStdString() + " -> " + outputs[i].toStdString() + ": rank "
                + std::to_string(r) + ", " + Formatting::bytes(file.fileSize).toStdString() + " -> "
                + Formatting::bytes(f.bytes).toStdString() + "; " + std::to_string(f.sourceEvents) + " events -> "
                + std::to_string(f.keptEvents) + " kept (" + std::to_string(f.keptAllocations) + " allocations) and "
                + std::to_string(f.fillerEvents) + " for the curve; " + std::to_string(f.blocks) + " blocks\n";
            return Outcome { line, 0 };
        } catch (const std::exception& e) {
            return Outcome { "rankscope digest: " + outputs[i].toStdString() + ": " + e.what() + "\n", 4 };
        }
    });
    int code = 0;
    for (const Outcome& o : outcomes) {
        print(o.code ? stderr : stdout, o.message);
        code = std::max(code, o.code);
    }
    return code;
}

bool needsWidgets(const QStringList& arguments)
{
    const QString first = arguments.value(1);
    return first == QLatin1String("export") || first == QLatin1String("report");
}

bool isCommand(const QStringList& arguments)
{
    if (arguments.size() < 2)
        return false;
    const QString& first = arguments[1];
    return first == QLatin1String("info") || first == QLatin1String("diff") || first == QLatin1String("steps")
        || first == QLatin1String("digest") || first == QLatin1String("top") || needsWidgets(arguments)
        || first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help")
        || first == QLatin1String("--version");
}

int run(const QStringList& arguments)
{
    const QString command = arguments.value(1);
    if (command == QLatin1String("info"))
        return info(arguments.mid(2));
    if (command == QLatin1String("diff"))
        return diff(arguments.mid(2));
    if (command == QLatin1String("steps"))
        return steps(arguments.mid(2));
    if (command == QLatin1String("top"))
        return top(arguments.mid(2));
    if (command == QLatin1String("export"))
        return exportImage(arguments.mid(2));
    if (command == QLatin1String("report"))
        return report(arguments.mid(2));
    if (command == QLatin1String("digest"))
        return digest(arguments.mid(2));
    if (command == QLatin1String("--version")) {
        print(stdout, "rankscope " + QCoreApplication::applicationVersion().toStdString() + "\n");
        return 0;
    }
    print(stdout, usage);
    return 0;
}

} // namespace RankScope::Cli
