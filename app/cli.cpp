// SPDX-License-Identifier: MIT
#include "cli.h"

#include "beforeafterreport.h"
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

const char* const usage = "Usage:\n"
                          "  rankscope [FILE|FOLDER...]             open the snapshots in the desktop app\n"
                          "  rankscope info [--json] FILE|FOLDER...  print per-device figures of each snapshot\n"
                          "  rankscope diff [--at POINT] [--baseline median|RANK] [--threshold PCT] [--my-code]\n"
                          "                 [--depth N] [--json|--csv] [--fail-on-imbalance] FILE|FOLDER...\n"
                          "                                         which rank holds what the others don't, and why\n"
                          "  rankscope diff --before DIR --after DIR [diff options] [--json]\n"
                          "                                         a run before a fix against the run after it:\n"
                          "                                         spreads, top sites, and whether it is fixed\n"
                          "  rankscope steps [--json] [--threshold PCT] LOG...\n"
                          "                                         per-rank step reports from training logs: which\n"
                          "                                         rank departs first, at which step and phase\n"
                          "  rankscope export --out FILE.png|.svg|.pdf [--view diff|timelines|blockmaps|overview]\n"
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
                          "\n"
                          "FILE is a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot): pickle or JSON,\n"
                          "optionally gzip-compressed. Folders are searched for snapshot files. Ranks come from\n"
                          "the file names (rank3_..., memory_trace_3, ...) or else the order given.\n"
                          "\n"
                          "diff: POINT is peak (default: each rank at its own peak), snapshot, oom, event:<i>,\n"
                          "step:<N> or step:<N>:end. The baseline is the median of the other ranks, or one rank.\n"
                          "--my-code keeps only your own frames in the site key, --depth N the first N of them.\n"
                          "--fail-on-imbalance exits with 3 unless the verdict is balanced (or, with --before and\n"
                          "--after, unless the run after is fixed).\n"
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

int info(QStringList args)
{
    bool json = false;
    QStringList paths;
    for (const QString& arg : args) {
        if (arg == QLatin1String("--json")) {
            json = true;
        } else if (arg.startsWith(QLatin1String("--"))) {
            print(stderr, "rankscope info: unknown option " + arg.toStdString() + "\n\n" + usage);
            return 2;
        } else {
            paths.append(arg);
        }
    }
    paths = RankFiles::expand(paths);
    if (paths.isEmpty()) {
        print(stderr, std::string("rankscope info: no snapshot files given\n\n") + usage);
        return 2;
    }
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

// Options every comparing command takes. Returns true when args[i] was one (i then points at its last word); sets
// `error` when it was malformed.
bool comparisonOption(const QStringList& args, qsizetype& i, ComparisonOptions& options, std::string& error)
{
    const QString& arg = args[i];
    auto value = [&]() -> std::optional<QString> {
        if (i + 1 >= args.size())
            return std::nullopt;
        return args[++i];
    };
    if (arg == QLatin1String("--my-code")) {
        options.site.myCodeOnly = true;
    } else if (arg == QLatin1String("--at")) {
        const auto v = value();
        const auto spec = v ? TimelinePoint::parse(v->toStdString()) : std::nullopt;
        if (!spec)
            error = "--at needs peak, snapshot, oom, event:<i>, step:<N> or step:<N>:end";
        options.point = spec;
    } else if (arg == QLatin1String("--baseline")) {
        const auto v = value();
        bool ok = false;
        if (v && *v == QLatin1String("median"))
            options.baselineRank = -1;
        else if (v && (options.baselineRank = v->toInt(&ok), ok))
            ;
        else
            error = "--baseline needs median or a rank number";
    } else if (arg == QLatin1String("--threshold")) {
        const auto v = value();
        bool ok = false;
        options.thresholdPercent = v ? v->toDouble(&ok) : 0;
        if (!ok || options.thresholdPercent < 0)
            error = "--threshold needs a percentage, such as 2 or 0.5";
    } else if (arg == QLatin1String("--depth")) {
        const auto v = value();
        bool ok = false;
        options.site.depth = v ? v->toInt(&ok) : 0;
        if (!ok || options.site.depth < 1)
            error = "--depth needs a number of frames, 1 or more";
    } else {
        return false;
    }
    return true;
}

// Loads the files and compares them; failed files are reported on stderr and counted.
struct Compared
{
    QList<LoadedFile> files;
    ComparisonPtr comparison;
    int failures = 0;
    std::string error; // a usage error
};

Compared loadAndCompare(const QStringList& givenPaths, const ComparisonOptions& options)
{
    Compared result;
    const QStringList paths = RankFiles::expand(givenPaths);
    if (paths.isEmpty()) {
        result.error = "no snapshot files given";
        return result;
    }
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
    if (options.baselineRank >= 0 && std::none_of(ranks.begin(), ranks.end(), [&](const RankInput& r) {
            return r.rank == options.baselineRank;
        })) {
        result.error = "--baseline " + std::to_string(options.baselineRank) + ": no such rank among the files";
        return result;
    }
    result.comparison = Comparison::compute(ranks, options);
    return result;
}

int diff(const QStringList& args)
{
    ComparisonOptions options;
    enum
    {
        Text,
        Json,
        Csv
    } format = Text;
    bool failOnImbalance = false;
    QStringList paths;
    QStringList before;
    QStringList after;
    auto fail = [](const std::string& message) {
        print(stderr, "rankscope diff: " + message + "\n\n" + usage);
        return 2;
    };
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& arg = args[i];
        std::string error;
        if (comparisonOption(args, i, options, error)) {
            if (!error.empty())
                return fail(error);
        } else if (arg == QLatin1String("--json")) {
            format = Json;
        } else if (arg == QLatin1String("--csv")) {
            format = Csv;
        } else if (arg == QLatin1String("--fail-on-imbalance")) {
            failOnImbalance = true;
        } else if ((arg == QLatin1String("--before") || arg == QLatin1String("--after")) && i + 1 < args.size()) {
            (arg == QLatin1String("--before") ? before : after).append(args[++i]);
        } else if (arg.startsWith(QLatin1String("--"))) {
            return fail("unknown option " + arg.toStdString());
        } else {
            paths.append(arg);
        }
    }
    if (!before.isEmpty() || !after.isEmpty()) {
        if (before.isEmpty() || after.isEmpty() || !paths.isEmpty())
            return fail("--before and --after go together, with no other files");
        if (format == Csv)
            return fail("--csv compares one run; use --json or text with --before and --after");
        const Compared was = loadAndCompare(before, options);
        const Compared is = loadAndCompare(after, options);
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
    const Compared compared = loadAndCompare(paths, options);
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
    return failOnImbalance && comparison.verdict().kind != Verdict::Balanced ? 3 : 0;
}

int steps(const QStringList& args)
{
    bool json = false;
    double threshold = 10;
    QStringList paths;
    auto fail = [](const std::string& message) {
        print(stderr, "rankscope steps: " + message + "\n\n" + usage);
        return 2;
    };
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& arg = args[i];
        if (arg == QLatin1String("--json")) {
            json = true;
        } else if (arg == QLatin1String("--threshold")) {
            bool ok = false;
            threshold = i + 1 < args.size() ? args[++i].toDouble(&ok) : 0;
            if (!ok || threshold < 0)
                return fail("--threshold needs a percentage, such as 10");
        } else if (arg.startsWith(QLatin1String("--"))) {
            return fail("unknown option " + arg.toStdString());
        } else {
            paths.append(arg);
        }
    }
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
    int rankA = -1;
    int rankB = -1;
    int finding = 0; // index into the findings
    QSize size { 1600, 1000 };
    double scale = 2;
};

bool outputOption(const QStringList& args, qsizetype& i, OutputOptions& o, std::string& error)
{
    const QString& arg = args[i];
    auto value = [&]() -> QString { return i + 1 < args.size() ? args[++i] : QString(); };
    if (arg == QLatin1String("--out")) {
        o.out = value();
        if (o.out.isEmpty())
            error = "--out needs a file name";
    } else if (arg == QLatin1String("--force")) {
        o.force = true;
    } else if (arg == QLatin1String("--view")) {
        const auto view = DiffSheet::parseView(value());
        if (!view)
            error = "--view needs diff, timelines, blockmaps or overview";
        o.view = view.value_or(DiffSheet::Diff);
    } else if (arg == QLatin1String("--ranks")) {
        const QStringList pair = value().split(QLatin1Char(','));
        bool okA = false, okB = pair.size() < 2;
        o.rankA = pair.value(0).toInt(&okA);
        o.rankB = pair.size() > 1 ? pair[1].toInt(&okB) : -1;
        if (!okA || !okB || pair.size() > 2 || o.rankA == o.rankB)
            error = "--ranks needs one or two different rank numbers, such as 0,3";
    } else if (arg == QLatin1String("--finding")) {
        bool ok = false;
        o.finding = value().toInt(&ok) - 1;
        if (!ok || o.finding < 0)
            error = "--finding needs a finding number, 1 for the largest";
    } else if (arg == QLatin1String("--size")) {
        const QStringList wh = value().split(QLatin1Char('x'));
        bool okW = false, okH = false;
        o.size = QSize(wh.value(0).toInt(&okW), wh.value(1).toInt(&okH));
        if (!okW || !okH || wh.size() != 2 || o.size.width() < 200 || o.size.height() < 150 || o.size.width() > 10000
            || o.size.height() > 10000)
            error = "--size needs WIDTHxHEIGHT in pixels, such as 1600x1000 (200x150 to 10000x10000)";
    } else if (arg == QLatin1String("--scale")) {
        bool ok = false;
        o.scale = value().toDouble(&ok);
        if (!ok || o.scale < 0.5 || o.scale > 4)
            error = "--scale needs a factor from 0.5 to 4, such as 2";
    } else {
        return false;
    }
    return true;
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
    sheet->setComparison(compared.comparison, a, b, finding, &ranks);
    if (!sheet->prepare(o.size))
        error = "drawing the views took too long";
    return sheet;
}

// Parses a writing command's arguments; returns 0 to go on, else the exit code.
int parseWriting(
    const char* command, const QStringList& args, ComparisonOptions& options, OutputOptions& o, QStringList& paths)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        std::string error;
        if (!comparisonOption(args, i, options, error) && !outputOption(args, i, o, error)) {
            if (args[i].startsWith(QLatin1String("--")))
                error = "unknown option " + args[i].toStdString();
            else
                paths.append(args[i]);
        }
        if (!error.empty()) {
            print(stderr, std::string("rankscope ") + command + ": " + error + "\n\n" + usage);
            return 2;
        }
    }
    if (o.out.isEmpty()) {
        print(stderr, std::string("rankscope ") + command + ": --out FILE is required\n\n" + usage);
        return 2;
    }
    return 0;
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
int runWriting(const char* command, const QStringList& args, const std::function<std::string(const QString&)>& badName,
    const std::function<QStringList(const QString&)>& outputs,
    const std::function<QString(DiffSheet&, const Comparison&, const OutputOptions&)>& write)
{
    ComparisonOptions options;
    OutputOptions o;
    QStringList paths;
    const std::string prefix = std::string("rankscope ") + command + ": ";
    if (const int code = parseWriting(command, args, options, o, paths))
        return code;
    if (const std::string bad = badName(o.out); !bad.empty()) {
        print(stderr, prefix + o.out.toStdString() + ": " + bad + "\n");
        return 2;
    }
    const Compared compared = loadAndCompare(paths, options);
    if (!compared.error.empty()) {
        print(stderr, prefix + compared.error + "\n\n" + usage);
        return 2;
    }
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
    return runWriting(
        "export", args,
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
    return runWriting(
        "report", args,
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
    QString outDir;
    int rank = -1;
    bool force = false;
    QStringList paths;
    auto fail = [](const std::string& message) {
        print(stderr, "rankscope digest: " + message + "\n\n" + usage);
        return 2;
    };
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& arg = args[i];
        if ((arg == QLatin1String("--out") || arg == QLatin1String("-o")) && i + 1 < args.size()) {
            outDir = args[++i];
        } else if (arg == QLatin1String("--rank") && i + 1 < args.size()) {
            bool ok = false;
            rank = args[++i].toInt(&ok);
            if (!ok || rank < 0)
                return fail("--rank needs a rank number, 0 or more");
        } else if (arg == QLatin1String("--force")) {
            force = true;
        } else if (arg.startsWith(QLatin1String("-"))) {
            return fail("unknown option " + arg.toStdString());
        } else {
            paths.append(arg);
        }
    }
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
        || first == QLatin1String("digest") || needsWidgets(arguments) || first == QLatin1String("--help")
        || first == QLatin1String("-h") || first == QLatin1String("help") || first == QLatin1String("--version");
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
