// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace RankScope {

/// Turns what the user named (files and folders) into the list of files to load. Folders are searched recursively
/// for snapshot-like files (.pickle, .pkl, .json, optionally .gz) or, for step reports, logs (.log, .txt, .out,
/// .err), sorted by rank then path. Files named explicitly are taken whatever their name.
class RankFiles
{
public:
    static QStringList expand(const QStringList& filesOrFolders);
    static QStringList expandLogs(const QStringList& filesOrFolders);
    static bool looksLikeSnapshot(const QString& fileName);
    static bool looksLikeLog(const QString& fileName);

    /// Snapshots of one training step. A folder of several steps (torchtitan's `iteration_<N>/rank<R>_…`, FSDP's
    /// `snapshot_<step>_<local_rank>`) is one comparison per step, never ranks made of steps.
    struct Step
    {
        /// Every step the files hold, in order; empty when they are not of several steps.
        std::vector<int64_t> steps;
        /// The chosen step (the latest unless asked), -1 when there are no steps.
        int64_t chosen = -1;
        /// The files of the chosen step (all of them when there are no steps); empty when the step asked for is not
        /// among `steps`.
        QStringList files;
    };
    /// Chooses `step` (or the latest) when every file names a step and there are several.
    static Step chooseStep(const QStringList& files, std::optional<int64_t> step = std::nullopt);

private:
    static QStringList expandMatching(const QStringList& filesOrFolders, bool (*matches)(const QString&));
};

} // namespace RankScope
