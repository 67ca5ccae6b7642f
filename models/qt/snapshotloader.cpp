// SPDX-License-Identifier: MIT
#include "snapshotloader.h"

#include "parallel.h"
#include "rankname.h"

#include <QFileInfo>
#include <QPromise>
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

void SnapshotLoader::load(const QStringList& paths, const std::map<int, QString>& taken)
{
    const QList<RankName::Assigned> ranks = RankName::assign(paths, taken);
    for (qsizetype i = 0; i < paths.size(); ++i) {
        const int index = int(m_jobs.size());
        const QString& path = paths[i];
        const RankName::Assigned& rank = ranks[i];
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
            // Cancelled before the job started: no result was ever produced.
            const LoadedFile file = future.resultCount() > 0
                ? future.result()
                : LoadedFile::cancelledBeforeStart(path, rank.rank, rank.fromName);
            emit finished(index, file);
            if (--m_pending == 0)
                emit allFinished();
        });
        ++m_pending;
        emit started(index, path, rank.rank);
        watcher->setFuture(QtConcurrent::run(Parallel::jobPool(), [path, rank](QPromise<LoadedFile>& promise) {
            promise.setProgressRange(0, progressScale);
            LoadedFile file =
                LoadedFile::load(path, rank.rank, rank.fromName, [&promise](uint64_t done, uint64_t total) {
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
