// SPDX-License-Identifier: MIT
#include "cli.h"

#include "comparison.h"
#include "diffreport.h"
#include "rankfiles.h"
#include "snapshotinfo.h"
#include "snapshotloader.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdio>
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
                          "  rankscope --help | --version\n"
                          "\n"
                          "FILE is a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot): pickle or JSON,\n"
                          "optionally gzip-compressed. Folders are searched for snapshot files. Ranks come from\n"
                          "the file names (rank3_..., memory_trace_3, ...) or else the order given.\n"
                          "\n"
                          "diff: POINT is peak (default: each rank at its own peak), snapshot, oom, event:<i>,\n"
                          "step:<N> or step:<N>:end. The baseline is the median of the other ranks, or one rank.\n"
                          "--my-code keeps only your own frames in the site key, --depth N the first N of them.\n"
                          "--fail-on-imbalance exits with 3 unless the verdict is balanced.\n";

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
    for (const LoadedFile& file : SnapshotLoader::loadAll(paths)) {
        FileInfoEntry entry;
        entry.path = file.path;
        entry.rank = file.rank;
        entry.error = file.error;
        entry.devices = file.devices;
        if (!file.ok()) {
            ++failures;
            print(stderr, file.path.toStdString() + ": " + file.error.toStdString() + "\n");
        }
        entries.push_back(std::move(entry));
    }
    print(stdout, json ? InfoFormat::json(entries) : InfoFormat::text(entries));
    return failures ? 1 : 0;
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
    auto fail = [](const std::string& message) {
        print(stderr, "rankscope diff: " + message + "\n\n" + usage);
        return 2;
    };
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& arg = args[i];
        auto value = [&]() -> std::optional<QString> {
            if (i + 1 >= args.size())
                return std::nullopt;
            return args[++i];
        };
        if (arg == QLatin1String("--json")) {
            format = Json;
        } else if (arg == QLatin1String("--csv")) {
            format = Csv;
        } else if (arg == QLatin1String("--my-code")) {
            options.site.myCodeOnly = true;
        } else if (arg == QLatin1String("--fail-on-imbalance")) {
            failOnImbalance = true;
        } else if (arg == QLatin1String("--at")) {
            const auto v = value();
            const auto spec = v ? TimelinePoint::parse(v->toStdString()) : std::nullopt;
            if (!spec)
                return fail("--at needs peak, snapshot, oom, event:<i>, step:<N> or step:<N>:end");
            options.point = spec;
        } else if (arg == QLatin1String("--baseline")) {
            const auto v = value();
            bool ok = false;
            if (v && *v == QLatin1String("median"))
                options.baselineRank = -1;
            else if (v && (options.baselineRank = v->toInt(&ok), ok))
                ;
            else
                return fail("--baseline needs median or a rank number");
        } else if (arg == QLatin1String("--threshold")) {
            const auto v = value();
            bool ok = false;
            options.thresholdPercent = v ? v->toDouble(&ok) : 0;
            if (!ok || options.thresholdPercent < 0)
                return fail("--threshold needs a percentage, such as 2 or 0.5");
        } else if (arg == QLatin1String("--depth")) {
            const auto v = value();
            bool ok = false;
            options.site.depth = v ? v->toInt(&ok) : 0;
            if (!ok || options.site.depth < 1)
                return fail("--depth needs a number of frames, 1 or more");
        } else if (arg.startsWith(QLatin1String("--"))) {
            return fail("unknown option " + arg.toStdString());
        } else {
            paths.append(arg);
        }
    }
    paths = RankFiles::expand(paths);
    if (paths.isEmpty())
        return fail("no snapshot files given");

    std::vector<RankInput> ranks;
    int failures = 0;
    for (const LoadedFile& file : SnapshotLoader::loadAll(paths)) {
        if (!file.ok()) {
            ++failures;
            print(stderr, file.path.toStdString() + ": " + file.error.toStdString() + "\n");
            continue;
        }
        ranks.push_back({ file.rank, file.path, file.snapshot });
    }
    if (ranks.empty())
        return 1;
    if (options.baselineRank >= 0
        && std::none_of(ranks.begin(), ranks.end(), [&](const RankInput& r) { return r.rank == options.baselineRank; }))
        return fail("--baseline " + std::to_string(options.baselineRank) + ": no such rank among the files");
    const ComparisonPtr comparison = Comparison::compute(ranks, options);
    print(stdout,
        format == Json      ? DiffReport::json(*comparison)
            : format == Csv ? DiffReport::csv(*comparison)
                            : DiffReport::text(*comparison));
    if (failures)
        return 1;
    return failOnImbalance && comparison->verdict().kind != Verdict::Balanced ? 3 : 0;
}

} // namespace

bool isCommand(const QStringList& arguments)
{
    if (arguments.size() < 2)
        return false;
    const QString& first = arguments[1];
    return first == QLatin1String("info") || first == QLatin1String("diff") || first == QLatin1String("--help")
        || first == QLatin1String("-h") || first == QLatin1String("help") || first == QLatin1String("--version");
}

int run(const QStringList& arguments)
{
    const QString command = arguments.value(1);
    if (command == QLatin1String("info"))
        return info(arguments.mid(2));
    if (command == QLatin1String("diff"))
        return diff(arguments.mid(2));
    if (command == QLatin1String("--version")) {
        print(stdout, "rankscope " + QCoreApplication::applicationVersion().toStdString() + "\n");
        return 0;
    }
    print(stdout, usage);
    return 0;
}

} // namespace RankScope::Cli
