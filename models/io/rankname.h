// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>

namespace RankScope {

/// Finds a rank in a snapshot's file or folder name. A snapshot holds no rank itself, so the names that training
/// frameworks write are the only source: `rank3_memory_snapshot.pickle` (torchtitan), `memory_trace_3.pickle`
/// (Megatron-Bridge), `snapshot_<i>_<local_rank>.pickle` (FSDP examples), `rank-3`, `rank_3`, `oom_rank3`,
/// a folder `rank3/`, or a bare number.
class RankName
{
public:
    struct Assigned
    {
        int rank = 0;
        bool fromName = false;
        /// The rank the name claimed when another file already had it (then `rank` is a free one), else -1.
        int clash = -1;
        /// The file that has the rank this one claimed.
        QString clashWith;
        /// The local rank (the rank inside one node) the name gives, else -1: never taken for a global rank.
        int localRank = -1;

        /// For the user, when the name's rank could not be used; empty otherwise.
        QString note() const;
    };

    /// The global rank a file or folder name gives; never a local rank (`local_rank_2_…`).
    static std::optional<int> fromPath(const QString& path);
    /// The local rank a file name gives, if it gives one.
    static std::optional<int> localRankFromPath(const QString& path);
    /// The training step a path gives: a step folder (torchtitan's `iteration_<N>/` and `iteration_<N>_exit/`,
    /// `step_<N>/`, `step<N>/`, `iter_<N>/`) or FSDP's `snapshot_<step>_<local_rank>` file name.
    static std::optional<int64_t> stepFromPath(const QString& path);
    /// Whether a folder's name gives a rank (`rank3`) or a step (`iteration_10`): a folder of one job's files, never
    /// a job of its own.
    static bool isRankOrStepFolder(const QString& name);
    /// Ranks for a list of files: from the name where it carries one, else the file's position in the list. Every
    /// file gets a rank of its own: a name that claims a rank already taken, or a position that is, gets the
    /// lowest free one (and a note saying so). `taken` holds the ranks files already open in the job have (rank →
    /// file), when files are added to it.
    static QList<Assigned> assign(const QStringList& paths, const std::map<int, QString>& taken = {});
};

} // namespace RankScope
