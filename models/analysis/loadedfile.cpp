// SPDX-License-Identifier: MIT
#include "loadedfile.h"

#include "parallel.h"
#include "rankfiles.h"
#include "rankname.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>

namespace RankScope {

namespace {
QString cancelledText()
{
    return QCoreApplication::translate("QObject", "loading was cancelled");
}
} // namespace

LoadedFile LoadedFile::load(const QString& path, int rank, bool rankFromName, const ProgressCallback& progress)
{
    LoadedFile file;
    file.path = path;
    file.rank = rank;
    file.rankFromName = rankFromName;
    file.fileSize = QFileInfo(path).size();
    QElapsedTimer timer;
    timer.start();
    try {
        const SnapshotReader::Result result = SnapshotReader::read(path, progress);
        file.snapshot = result.snapshot;
        // A digest knows its rank: it counts where the file's name tells none (as in the order given).
        if (!rankFromName && result.snapshot->digest && result.snapshot->digest->rank >= 0) {
            file.rank = int(result.snapshot->digest->rank);
            file.rankFromName = true;
        }
        file.devices = DeviceInfo::compute(result.snapshot);
        file.format = result.format;
        file.gzip = result.gzip;
    } catch (const ReadCancelled&) {
        file.cancelled = true;
        file.error = cancelledText();
    } catch (const ReadError& e) {
        file.error = QString::fromUtf8(e.what());
    } catch (const std::bad_alloc&) {
        file.error = QCoreApplication::translate("QObject", "not enough memory to load this file");
    }
    file.seconds = double(timer.nsecsElapsed()) / 1e9;
    return file;
}

QString LoadedFile::emptyNote()
{
    return QCoreApplication::translate("QObject",
        "the snapshot is empty: no segments and no trace events (taken before anything was allocated, or without "
        "_record_memory_history)");
}

QString LoadedFile::notes() const
{
    if (!isEmpty())
        return note;
    return note.isEmpty() ? emptyNote() : note + QStringLiteral("; ") + emptyNote();
}

LoadedFile LoadedFile::cancelledBeforeStart(const QString& path, int rank, bool rankFromName)
{
    LoadedFile file;
    file.path = path;
    file.rank = rank;
    file.rankFromName = rankFromName;
    file.cancelled = true;
    file.error = cancelledText();
    return file;
}

QList<LoadedFile> LoadedFile::loadAll(const QStringList& paths)
{
    const QList<RankName::Assigned> ranks = RankName::assign(paths);
    return Parallel::mapIndices(paths.size(), [&](qsizetype i) {
        LoadedFile file = load(paths[i], ranks[i].rank, ranks[i].fromName);
        file.note = ranks[i].note();
        return file;
    });
}

EarlierSteps EarlierSteps::load(const QStringList& files, int64_t step)
{
    EarlierSteps out;
    const std::vector<int64_t> steps = RankFiles::chooseStep(files).steps;
    std::vector<int64_t> before;
    for (int64_t s : steps) {
        if (s < step)
            before.push_back(s);
    }
    if (before.size() > size_t(MaxSteps))
        before.erase(before.begin(), before.end() - MaxSteps);
    for (int64_t s : before) {
        for (const LoadedFile& f : LoadedFile::loadAll(RankFiles::chooseStep(files, s).files)) {
            if (f.ok())
                out.byRank[f.rank].push_back({ s, f.snapshot });
            else
                out.failed.append(f);
        }
    }
    return out;
}

void EarlierSteps::attach(std::vector<RankInput>& ranks, int64_t step) const
{
    for (RankInput& r : ranks) {
        r.step = step;
        if (const auto it = byRank.find(r.rank); it != byRank.end())
            r.earlier = it->second;
    }
}

} // namespace RankScope
