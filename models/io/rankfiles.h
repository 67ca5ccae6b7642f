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
    /// A folder search stops after this many files: a job's folder holds far fewer, a home or a data set more.
    static constexpr int MaxFiles = 100000;

    /// What searching the folders found, and what it left out.
    struct Scan
    {
        /// Files named explicitly, then each folder's matching files (sorted by rank, then path).
        QStringList files;
        /// A folder not searched, and why.
        struct Skipped
        {
            enum Reason
            {
                Hidden, ///< its name starts with a dot (.git, .cache, .venv)
                Packages, ///< node_modules, site-packages, dist-packages, bower_components, __pycache__
                VirtualEnv, ///< a Python virtual environment (it holds pyvenv.cfg)
                BuildFolder, ///< a CMake build folder (it holds CMakeCache.txt)
            };
            QString folder;
            Reason reason = Hidden;
        };
        std::vector<Skipped> skipped;
        /// The folder whose search stopped at the file limit, or empty: what it found is not the whole job.
        QString stoppedIn;
        int limit = MaxFiles;
        /// A folder holding the snapshots of several jobs: the same rank (at the same step) in two of its
        /// subfolders, which merged would be one job with every rank twice. `jobs` are those subfolders (the
        /// folder itself as ".") with their number of files; empty when the files make one job.
        QString folderOfJobs;
        struct FoundJob
        {
            QString folder;
            int files = 0;
        };
        std::vector<FoundJob> jobs;
    };
    /// Searches folders for snapshots (or, with `logs`, step reports), leaving out hidden folders, installed
    /// packages, virtual environments and build folders, and at most `maxFiles` files in each folder given.
    static Scan scan(const QStringList& filesOrFolders, bool logs = false, int maxFiles = MaxFiles);
    /// scan()'s files.
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
    static void searchFolder(const QString& root, bool logs, int maxFiles, Scan& scan);
};

} // namespace RankScope
