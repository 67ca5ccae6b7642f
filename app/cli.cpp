// SPDX-License-Identifier: MIT
#include "cli.h"

#include "rankfiles.h"
#include "snapshotinfo.h"
#include "snapshotloader.h"

#include <QCoreApplication>

#include <cstdio>
#include <string>

namespace RankScope::Cli {

namespace {

const char* const usage = "Usage:\n"
                          "  rankscope [FILE|FOLDER...]             open the snapshots in the desktop app\n"
                          "  rankscope info [--json] FILE|FOLDER...  print per-device figures of each snapshot\n"
                          "  rankscope --help | --version\n"
                          "\n"
                          "FILE is a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot): pickle or JSON,\n"
                          "optionally gzip-compressed. Folders are searched for snapshot files. Ranks come from\n"
                          "the file names (rank3_..., memory_trace_3, ...) or else the order given.\n";

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

} // namespace

bool isCommand(const QStringList& arguments)
{
    if (arguments.size() < 2)
        return false;
    const QString& first = arguments[1];
    return first == QLatin1String("info") || first == QLatin1String("--help") || first == QLatin1String("-h")
        || first == QLatin1String("help") || first == QLatin1String("--version");
}

int run(const QStringList& arguments)
{
    const QString command = arguments.value(1);
    if (command == QLatin1String("info"))
        return info(arguments.mid(2));
    if (command == QLatin1String("--version")) {
        print(stdout, "rankscope " + QCoreApplication::applicationVersion().toStdString() + "\n");
        return 0;
    }
    print(stdout, usage);
    return 0;
}

} // namespace RankScope::Cli
