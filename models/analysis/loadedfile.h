// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"
#include "readerror.h"
#include "snapshotinfo.h"
#include "snapshotreader.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <map>
#include <vector>

namespace RankScope {

/// One rank's file after loading: the snapshot and its per-device figures, or the reason it could not be read.
struct LoadedFile
{
    QString path;
    int rank = 0;
    bool rankFromName = false;
    SnapshotPtr snapshot;
    /// Per-device figures (`rankscope info`), computed on the loading thread with the replay they need.
    std::vector<DeviceInfo> devices;
    SnapshotReader::Format format = SnapshotReader::Format::Pickle;
    bool gzip = false;
    QString error; ///< "what is wrong", without the path; empty on success
    /// Something the user should know about a file that loaded (its name claims a rank another file claims too).
    QString note;
    bool cancelled = false;
    qint64 fileSize = 0;
    double seconds = 0;

    bool ok() const
    {
        return snapshot != nullptr;
    }
    /// Loaded, but holding no segment and no trace event (Snapshot::isEmpty): said so, never compared as alike.
    bool isEmpty() const
    {
        return snapshot && snapshot->isEmpty();
    }
    /// What is said of an empty snapshot, in the user's language where the application installed translators.
    static QString emptyNote();
    /// Everything the user should know about a file that loaded: `note`, and that it is empty.
    QString notes() const;

    /// Reads one file on the calling thread; `progress` may cancel it.
    static LoadedFile load(const QString& path, int rank, bool rankFromName, const ProgressCallback& progress = {});
    /// A file whose load was cancelled before it began.
    static LoadedFile cancelledBeforeStart(const QString& path, int rank, bool rankFromName);
    /// Reads files in parallel (ranks from their names, else their order) and waits for all of them.
    static QList<LoadedFile> loadAll(const QStringList& paths);
};

/// The snapshots of the training steps before one step of a folder of several (iteration_<N>/ …), read for growth
/// across steps: at most `MaxSteps` of them, the latest, keyed by rank; files that could not be read are listed.
struct EarlierSteps
{
    static constexpr int MaxSteps = 4;
    std::map<int, std::vector<RankInput::EarlierStep>> byRank;
    QList<LoadedFile> failed;

    /// `files`: every file of the job (all steps); `step`: the step compared.
    static EarlierSteps load(const QStringList& files, int64_t step);
    /// Hands each rank its earlier steps.
    void attach(std::vector<RankInput>& ranks, int64_t step) const;
};

} // namespace RankScope

Q_DECLARE_METATYPE(RankScope::LoadedFile)
