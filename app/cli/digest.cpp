// SPDX-License-Identifier: MIT
#include "digest.h"
#include "commands.h"
#include "formatting.h"
#include "job.h"
#include "loadedfile.h"
#include "parallel.h"
#include "rankfiles.h"
#include "rankname.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace RankScope::Cli {

namespace DigestCommand {

void options(CommandLine& cl)
{
    cl.add(names("o", "out"), "The folder to write the digests to.", "DIR");
    cl.add(names("rank"), "The rank of the one FILE given (otherwise ranks come from the file names).", "N");
    cl.add(names("force"), "Replace digests that exist.");
}

int run(CommandLine& cl)
{
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
    if (outDir.isEmpty())
        return cl.fail("--out DIR is required");
    const RankFiles::Scan scan = RankFiles::scan(paths);
    for (const Phrase& note : Job::scanNotes(scan))
        cl.console().err("note: " + note.english() + "\n");
    if (const JobError error = Job::scanError(scan); !error.empty())
        return cl.fail(error.text());
    paths = scan.files;
    if (paths.isEmpty())
        return cl.fail("no snapshot files given");
    if (rank >= 0 && paths.size() > 1)
        return cl.fail("--rank names the rank of one file; the names of several files give theirs");
    if (!QDir().mkpath(outDir)) {
        cl.console().err(cl.prefix() + "cannot create " + outDir.toStdString() + "\n");
        return 4;
    }
    const QList<RankName::Assigned> ranks = RankName::assign(paths);
    QList<int> rankOf;
    QStringList outputs;
    for (qsizetype i = 0; i < paths.size(); ++i) {
        rankOf.append(rank >= 0 ? rank : ranks[i].rank);
        outputs.append(QDir(outDir).filePath(QStringLiteral("rank%1.digest.pickle.gz").arg(rankOf.back())));
        if (!mayWrite(cl, outputs.back(), force))
            return 4;
    }
    // One file at a time per core: each is read, digested and dropped, so memory stays at one file per core.
    struct Outcome
    {
        std::string message;
        int code = 0;
    };
    const std::string prefix = cl.prefix();
    // Workers read const lists only: a non-const QList index may detach a shared list under another worker.
    const QStringList& files = paths;
    const QStringList& written = outputs;
    const QList<int>& fileRanks = rankOf;
    const QList<Outcome> outcomes = Parallel::mapIndices(files.size(), [&](qsizetype i) {
        const int r = fileRanks[i];
        const LoadedFile file = LoadedFile::load(files[i], r, ranks[i].fromName);
        if (!file.ok())
            return Outcome { files[i].toStdString() + ": " + file.error.toStdString() + "\n", 1 };
        Digest::Source source;
        source.rank = r;
        source.fileName = QFileInfo(files[i]).fileName().toStdString();
        source.fileBytes = file.fileSize;
        try {
            const Digest::Figures f = Digest::write(*file.snapshot, source, written[i]);
            const std::string line = files[i].toStdString() + " -> " + written[i].toStdString() + ": rank "
                + std::to_string(r) + ", " + Formatting::bytes(file.fileSize).toStdString() + " -> "
                + Formatting::bytes(f.bytes).toStdString() + "; " + std::to_string(f.sourceEvents) + " events -> "
                + std::to_string(f.keptEvents) + " kept (" + std::to_string(f.keptAllocations) + " allocations) and "
                + std::to_string(f.fillerEvents) + " for the curve; " + std::to_string(f.blocks) + " blocks\n";
            return Outcome { line, 0 };
        } catch (const std::exception& e) {
            return Outcome { prefix + written[i].toStdString() + ": " + e.what() + "\n", 4 };
        }
    });
    int code = 0;
    for (const Outcome& o : outcomes) {
        if (o.code)
            cl.console().err(o.message);
        else
            cl.console().out(o.message);
        code = std::max(code, o.code);
    }
    return code;
}

} // namespace DigestCommand

const Command digestCommand { "digest", "--out DIR [--rank N] [--force] FILE|FOLDER...",
    "write each rank's digest, to compare a job too big for one machine",
    "Writes each FILE as DIR/rank<R>.digest.pickle.gz, a snapshot of a few hundred KB that holds what decides the\n"
    "comparison at the peak, the snapshot and OOMs, and the timeline's shape. diff, export, report and the app\n"
    "take digests wherever they take snapshots and give the same findings and verdict. Run one task per node\n"
    "under the job's launcher, e.g.\n"
    "  srun bash -c 'rankscope digest --rank $SLURM_PROCID run/rank$SLURM_PROCID.pickle -o d'",
    false, DigestCommand::options, DigestCommand::run };

} // namespace RankScope::Cli
