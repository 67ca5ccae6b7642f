// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace RankScope {

/// One step report line of one rank, as training scripts print them every N steps:
/// `[train] rank=3 step=120 shape=(8, 2048) cur=10240.0MB peak=70144.5MB`.
struct StepReport
{
    int rank = -1;
    int64_t step = 0;
    /// "train", "eval", "val", "test" or what the script calls its phase; empty when it names none.
    std::string tag;
    std::vector<int64_t> shape;
    /// Explicit (tokens=N), else batch × sequence from a shape of two or more dimensions; -1 when unknown.
    int64_t tokens = -1;
    int64_t currentBytes = -1;
    int64_t peakBytes = -1;
    int file = 0; ///< index into StepLog::files
    int line = 0; ///< 1-based

    /// The memory the comparison uses: the peak, else the current allocation.
    int64_t memoryBytes() const
    {
        return peakBytes >= 0 ? peakBytes : currentBytes;
    }
};

/// Step reports read from text logs: one interleaved log of every rank or one log per rank, with launcher prefixes
/// (`[rank3]:`, `[default3]:`, `3: `, `[1,3]<stdout>:`), fields in any order as key=value or key: value, sizes in
/// B/KB/KiB/MB/MiB/GB/GiB (a bare number is bytes, as torch.cuda.memory_allocated() returns them, unless the key ends
/// in _mb, _gb and so on), and any other text around them. Lines without a step and a memory figure are skipped.
struct StepLog
{
    QStringList files;
    std::vector<StepReport> reports; ///< in reading order, file by file
    int64_t skippedLines = 0;
    /// Files that could not be read, with the reason.
    std::vector<std::pair<QString, QString>> errors;

    /// Reads the files. A file whose lines name no rank takes the rank in its file name (rank3.log, 3.out).
    static StepLog read(const QStringList& paths);
    /// Parses one line; `fallbackRank` is used when the line names none. False when it is not a report.
    static bool parseLine(QStringView line, int fallbackRank, StepReport& out);
    /// True when one of the files has a step report line near its start (a training log, not a readme).
    static bool holdsReports(const QStringList& paths);
    /// Canonical phase name for a tag a script may spell in several ways (training → train, validation → val).
    static std::string canonicalTag(QStringView tag);
};

/// Where the ranks' step reports part: the first step (in log order) at which one rank's peak exceeds the median of
/// the others by more than the threshold, and whether its input was larger there (input imbalance suspected) or the
/// same (burden imbalance suspected).
struct StepDivergence
{
    enum Suspect
    {
        Unknown, ///< no shapes or token counts to tell
        InputImbalance,
        BurdenImbalance,
    };
    int rank = -1;
    int64_t step = 0;
    std::string tag;
    Suspect suspect = Unknown;
    int64_t peakBytes = 0;
    int64_t othersMedianBytes = 0;
    int64_t tokens = -1;
    int64_t othersMedianTokens = -1;

    static const char* suspectName(Suspect suspect); ///< "input_imbalance", "burden_imbalance" or "" for Unknown
};

/// Per-rank figures of a step log and its divergence.
struct StepAnalysis
{
    struct Rank
    {
        int rank = -1;
        int64_t reports = 0;
        int64_t maxPeakBytes = 0;
        /// Largest tokens (or shape size) the rank reported, -1 when none.
        int64_t maxTokens = -1;
    };
    std::vector<Rank> ranks; ///< by rank number
    std::vector<std::string> tags; ///< in order of first appearance
    std::optional<StepDivergence> divergence;
    /// Max − median of the ranks' highest peaks, and that as a share of the median.
    int64_t spreadBytes = 0;
    double spreadPercent = 0;

    /// `thresholdPercent`: how far above the median of the others a rank's peak must be; `minimumBytes` keeps a
    /// few megabytes of noise on small jobs from counting.
    static constexpr double DefaultThresholdPercent = 10;
    static StepAnalysis analyse(
        const StepLog& log, double thresholdPercent = DefaultThresholdPercent, int64_t minimumBytes = 64 << 20);
};

} // namespace RankScope
