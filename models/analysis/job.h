// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"
#include "loadedfile.h"
#include "phrase.h"
#include "rankfiles.h"

#include <QList>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace RankScope {

/// Which of the given files make a job's ranks.
struct JobFiles
{
    /// In a folder of several training steps, the step to compare (default: the latest).
    std::optional<int64_t> step;
    /// The files are one rank's snapshots at successive steps: the last is compared, with growth across the others.
    bool stepsOfOneRank = false;
};

/// Something a job cannot do with what it was given, in the words every front end shows: `option` names what was
/// given ("layout", "baseline", "at", "step", or empty for the paths), `what` says what is wrong with it. The command
/// line prints "--<option> <what>", the MCP server "<option> <what>", the window `translated()`.
struct JobError
{
    std::string option;
    std::string what;
    /// `what` to be translated.
    Phrase phrase;

    JobError() = default;
    JobError(std::string option, Phrase what)
        : option(std::move(option))
        , what(what.english())
        , phrase(std::move(what))
    { }

    bool empty() const
    {
        return what.empty();
    }
    std::string text() const
    {
        return option.empty() ? what : option + " " + what;
    }
    /// text() in the user's language, through the translators the application installed.
    QString translated() const;
};

/// One job, the one way every front end (the command line, the window, the MCP server) makes one: the paths given
/// become the files of one step (folders expanded, the step chosen), the files are loaded (each rank's file, the
/// steps before it for growth), options are checked against the ranks once, and the comparison is made. A job keeps
/// what it loaded: a second question asks nothing of the disk, and `forStep` reuses every file another step shares.
/// Copies share the loaded snapshots.
class Job
{
public:
    /// Expands folders and chooses the step; reads no snapshot. `error()` says what makes the paths unusable.
    explicit Job(const QStringList& paths, const JobFiles& files = {});

    const QStringList& givenPaths() const
    {
        return m_given;
    }
    /// The files that make the ranks, in the order they are loaded.
    const QStringList& files() const
    {
        return m_files;
    }
    /// The steps a folder of several training steps holds (empty otherwise), and the one compared (-1 without).
    const std::vector<int64_t>& steps() const
    {
        return m_steps;
    }
    int64_t step() const
    {
        return m_step;
    }
    bool stepsOfOneRank() const
    {
        return m_stepsOfOneRank;
    }
    /// What makes the paths unusable (no snapshot files, a step the folder does not hold), or empty.
    const JobError& error() const
    {
        return m_error;
    }
    /// "the files hold snapshots of steps 10, 20; comparing step 20 (the latest; --step N for another)", or "".
    std::string stepNote() const;
    /// What the folder search left out ("DIR/node_modules: not searched (installed packages)"), one note per kind
    /// of folder; said before loading, so that a job is never taken for the whole tree.
    const std::vector<Phrase>& scanNotes() const
    {
        return m_scanNotes;
    }
    /// The same notes and error for a search made elsewhere (the window's, which opens files it found).
    static std::vector<Phrase> scanNotes(const RankFiles::Scan& scan);
    /// A folder of several jobs, or one whose search stopped at the file limit: no job, and the words that say
    /// why (the jobs found, the limit); empty when the search found one job.
    static JobError scanError(const RankFiles::Scan& scan);

    /// Per file: `done` of `total` bytes read; returns false to cancel the whole load.
    using Progress = std::function<bool(int index, uint64_t done, uint64_t total)>;
    /// Loads every file not loaded yet, in parallel, and the steps before the chosen one. A cancelled load leaves
    /// the files it finished loaded (and `wasCancelled()` true); loading again goes on where it stopped.
    void load(const Progress& progress = {});
    /// For a front end that loads the files itself (the window's SnapshotLoader, one job per file): the files,
    /// loaded, and the earlier steps, loaded by `loadEarlierSteps`.
    void setLoaded(QList<LoadedFile> files, std::shared_ptr<const EarlierSteps> earlier);
    /// The steps before the chosen one, read for growth (nothing without steps); safe to call on any thread.
    std::shared_ptr<const EarlierSteps> loadEarlierSteps() const;

    bool isLoaded() const
    {
        return m_loaded;
    }
    bool wasCancelled() const
    {
        return m_cancelled;
    }
    /// Every file of the job, loaded or with the reason it is not.
    const QList<LoadedFile>& loaded() const
    {
        return m_loadedFiles;
    }
    /// Files (of this step or an earlier one) that could not be read.
    int failures() const;
    /// What the user should read about the load, a line each in the order they arose: a name that claims a rank
    /// another file claims ("warning: PATH: …"), a file that could not be read ("PATH: what is wrong"), an earlier
    /// step's file ("PATH: … (an earlier step)").
    std::vector<std::string> messages() const;

    /// The loaded ranks as the comparison takes them, each with its earlier steps.
    std::vector<RankInput> inputs() const;
    /// What is wrong with `options` for this job's ranks (a layout of another size, a rank it does not hold, a
    /// baseline rank or a point's rank that is not there, a device no file holds), or empty. Checked before any
    /// comparison.
    JobError check(const ComparisonOptions& options) const;

    /// Every file that loaded is an empty snapshot (LoadedFile::isEmpty), so there is nothing to compare: front ends
    /// say so (`nothingToCompare`) instead of a verdict, which would call ranks that hold nothing balanced.
    bool holdsNothing() const;
    /// "nothing to compare: …", the words for holdsNothing().
    static Phrase nothingToCompare(int files);

    struct Result
    {
        ComparisonPtr comparison; ///< null when nothing loaded, on an error, or when the job holds nothing
        JobError error;
        /// holdsNothing(): no comparison, and no error either.
        bool holdsNothing = false;
        /// What the answer must say along with it, each about the option it concerns: the ranks that lack the point
        /// asked for, compared at their snapshot ("at oom: ranks 2, 3 do not have it; …"); the packages `--my-code`
        /// counted as the user's for want of any frame of theirs.
        std::vector<JobError> notes;
    };
    /// How strictly a point asked for must fit every rank's trace.
    enum class Points
    {
        /// An event or step past a rank's trace is an error, and so is an OOM no rank has (the command line, the MCP
        /// server); a rank without the OOM others have is compared at its snapshot, with a note.
        MustFit,
        MayMiss, ///< such a rank is compared at its own peak with a note (the window, whose rows say where)
    };
    /// Checks `options`, compares the loaded ranks, and checks what needs the traces (an event or step past a
    /// rank's trace, see Points). The last comparison is kept: the same options again return it without recomputing (so
    /// one job is not asked from two threads at once; a copy is).
    Result compare(const ComparisonOptions& options, Points points = Points::MustFit) const;

    /// This job at another step of the same folder: the files it shares with this one are not read again.
    Job forStep(std::optional<int64_t> step) const;

private:
    static JobError pointOutsideTrace(const Comparison& c);
    static std::vector<JobError> answerNotes(const Comparison& c);

    QStringList m_given;
    QStringList m_allFiles; ///< every file of every step
    QStringList m_files;
    std::vector<int64_t> m_steps;
    int64_t m_step = -1;
    bool m_stepsOfOneRank = false;
    bool m_stepChosenByUser = false;
    std::vector<int64_t> m_stepOfFile; ///< --steps: each file's step, in the order of m_files
    JobError m_error;
    std::vector<Phrase> m_scanNotes;

    QList<LoadedFile> m_loadedFiles;
    std::shared_ptr<const EarlierSteps> m_earlier;
    bool m_loaded = false;
    bool m_cancelled = false;

    struct Cache
    {
        std::string key;
        Result result;
    };
    // Not shared between copies: a copy that compares on another thread (the window's) has a cache of its own.
    mutable std::optional<Cache> m_last;
};

} // namespace RankScope
