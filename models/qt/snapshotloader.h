// SPDX-License-Identifier: MIT
#pragma once

#include "loadedfile.h"

#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QStringList>

#include <map>
#include <memory>
#include <vector>

namespace RankScope {

/// Loads rank files off the calling thread, each as its own job on the job pool, so several files load
/// in parallel. Every file reports its own progress (bytes of the file consumed) and can be cancelled alone; a file
/// that fails does not affect the others.
class SnapshotLoader : public QObject
{
    Q_OBJECT
public:
    explicit SnapshotLoader(QObject* parent = nullptr);
    ~SnapshotLoader() override;

    /// Starts loading; files get indices in the order given, after any files started earlier. Ranks come from the
    /// file names, else from the position in `paths`; never one of `taken` (rank → file), the ranks of files already
    /// in the job.
    void load(const QStringList& paths, const std::map<int, QString>& taken = {});
    void cancel(int index);
    void cancelAll();
    int count() const
    {
        return int(m_jobs.size());
    }
    bool isRunning() const;

signals:
    void started(int index, const QString& path, int rank);
    /// `done` and `total` are bytes of the file.
    void progress(int index, qint64 done, qint64 total);
    void finished(int index, const RankScope::LoadedFile& file);
    void allFinished();

private:
    struct Job
    {
        std::unique_ptr<QFutureWatcher<LoadedFile>> watcher;
        qint64 fileSize = 0;
    };
    std::vector<Job> m_jobs;
    // Jobs whose finished signal has not been handled yet; allFinished is emitted once, when it drops to zero.
    int m_pending = 0;
};

} // namespace RankScope
