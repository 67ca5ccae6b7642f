// SPDX-License-Identifier: MIT
#include "snapshotloader.h"

#include "backgroundpool.h"
#include "rankname.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QPromise>
#include <QThreadPool>
#include <QtConcurrent>

namespace RankScope {

namespace {
constexpr int progressScale = 1000;
}

SnapshotLoader::SnapshotLoader(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<LoadedFile>();
}

SnapshotLoader::~SnapshotLoader()
{
    // Jobs reference nothing of ours, but waiting keeps a closing window from leaving threads parsing behind it.
    cancelAll();
    for (Job& job : m_jobs)
        job.watcher->waitForFinished();
}

LoadedFile SnapshotLoader::loadFile(const QString& path, int rank, bool rankFromName, const ProgressCallback& progress)
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
        file.error = QObject::tr("loading was cancelled");
    } catch (const ReadError& e) {
        file.error = QString::fromUtf8(e.what());
    } catch (const std::bad_alloc&) {
        file.error = QObject::tr("not enough memory to load this file");
    }
    file.seconds = double(timer.nsecsElapsed()) / 1e9;
    return file;
}

QList<LoadedFile> SnapshotLoader::loadAll(const QStringList& paths)
{
    const QList<RankName::Assigned> ranks = RankName::assign(paths);
    QList<int> indices;
    for (int i = 0; i < paths.size(); ++i)
        indices.append(i);
    // A pool of its own: a caller on a global-pool thread must not wait for work queued behind itself.
    static QThreadPool pool;
    return QtConcurrent::blockingMapped(&pool, indices, [&](int i) {
        LoadedFile file = loadFile(paths[i], ranks[i].rank, ranks[i].fromName);
        file.note = ranks[i].note();
        return file;
    });
}

void SnapshotLoader::load(const QStringList& paths)
{
    const QList<RankName::Assigned> ranks = RankName::assign(paths);
    for (qsizetype i = 0; i < paths.size(); ++i) {
        const int index = int(m_jobs.size());
        const QString path = paths[i];
        const RankName::Assigned rank = ranks[i];
        Job& job = m_jobs.emplace_back();
        job.fileSize = QFileInfo(path).size();
        job.watcher = std::make_unique<QFutureWatcher<LoadedFile>>();
        QFutureWatcher<LoadedFile>* watcher = job.watcher.get();
        connect(watcher, &QFutureWatcher<LoadedFile>::progressValueChanged, this, [this, index](int value) {
            const qint64 total = m_jobs[size_t(index)].fileSize;
            emit progress(index, total * value / progressScale, total);
        });
        connect(watcher, &QFutureWatcher<LoadedFile>::finished, this, [this, index, path, rank]() {
            QFuture<LoadedFile> future = m_jobs[size_t(index)].watcher->future();
            LoadedFile file;
            if (future.resultCount() > 0) {
                file = future.result();
            } else {
                // Cancelled before the job started: no result was ever produced.
                file.path = path;
                file.rank = rank.rank;
                file.rankFromName = rank.fromName;
                file.cancelled = true;
                file.error = tr("loading was cancelled");
            }
            emit finished(index, file);
            if (--m_pending == 0)
                emit allFinished();
        });
        ++m_pending;
        emit started(index, path, rank.rank);
        watcher->setFuture(QtConcurrent::run(backgroundPool(), [path, rank](QPromise<LoadedFile>& promise) {
            promise.setProgressRange(0, progressScale);
            LoadedFile file = loadFile(path, rank.rank, rank.fromName, [&promise](uint64_t done, uint64_t total) {
                if (total > 0)
                    promise.setProgressValue(int(done * progressScale / total));
                return !promise.isCanceled();
            });
            file.note = rank.note();
            promise.addResult(file);
        }));
    }
}

void SnapshotLoader::cancel(int index)
{
    if (index >= 0 && size_t(index) < m_jobs.size())
        m_jobs[size_t(index)].watcher->cancel();
}

void SnapshotLoader::cancelAll()
{
    for (Job& job : m_jobs)
        job.watcher->cancel();
}

bool SnapshotLoader::isRunning() const
{
    for (const Job& job : m_jobs) {
        if (!job.watcher->isFinished())
            return true;
    }
    return false;
}

} // namespace RankScope
