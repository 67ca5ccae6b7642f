// SPDX-License-Identifier: MIT
#pragma once

#include "job.h"
#include "jobtracker.h"
#include "verdictbanner.h"

#include <QObject>

#include <functional>
#include <optional>

class QTimer;

namespace RankScope {

class RankListModel;
class SnapshotLoader;

/// The job the window shows, while it loads and compares: its files loading in the background, one job each, into
/// the rank table (RankListModel); the snapshots of the steps before the one shown, for growth; its comparison on a
/// JobTracker, the latest wins. What belongs to the job (its parallel layout, its GPUs' memory) is remembered per job
/// in QSettings; the rest of the options the window's controls set, read through `readOptions` at each comparison.
class JobSession : public QObject
{
    Q_OBJECT
public:
    JobSession(std::function<void(ComparisonOptions&)> readOptions, QObject* parent);

    RankListModel* model() const
    {
        return m_model;
    }
    SnapshotLoader* loader() const
    {
        return m_loader;
    }
    const ComparisonPtr& comparison() const
    {
        return m_comparison;
    }
    /// The job's files, step and option checks; empty before a job is opened.
    const std::optional<Job>& job() const
    {
        return m_job;
    }
    /// What the user opened, to open another of its steps.
    const QStringList& paths() const
    {
        return m_paths;
    }

    /// Where the job's files are (the folder opened, else the first file's), for exports to start in; empty for the
    /// bundled example and for a folder that cannot be written.
    QString folder() const;

    /// Starts loading the files of `job`, opened from `paths`; the job shown before must be closed.
    void open(Job job, const QStringList& paths);
    /// Loads `files` into the open job; a rank another file of the job has goes to a free rank, with a note. `given`
    /// (what the user added: files or folders) joins the job's paths, so its other steps, its recent entry and its
    /// remembered settings include them.
    void add(const QStringList& files, const QStringList& given);
    /// Unloads the job: files, comparison and what still runs for it.
    void close();
    /// Compares the ranks loaded so far with the options as they are now.
    void compare();
    /// Compares again once the options settle (they change in bursts, typing a threshold); nothing before the job's
    /// first comparison.
    void scheduleComparison();
    /// True while loading or comparing is still going on.
    bool isBusy() const;
    /// "nothing to compare: …" when every file that loaded is an empty snapshot (no comparison is made), else "".
    QString nothingToCompare() const;
    bool isComparing() const
    {
        return m_comparisons.isBusy();
    }

    /// The layout to compare in ("" to guess one), remembered for the files or folders of the open job.
    QString layoutText() const
    {
        return m_layoutText;
    }
    void setLayout(const QString& layout);
    /// Each GPU's total memory ("80GiB"; "" when unknown), remembered for the open job.
    QString deviceMemoryText() const
    {
        return m_deviceMemoryText;
    }
    void setDeviceMemory(const QString& size);

    /// What the shown verdict rests on, for the banner; `jobPoint` words the job's own moment.
    VerdictBanner::Caveats caveats(const QString& jobPoint) const;

signals:
    /// A comparison to show, or nullptr when there is none (no rank loaded, or the job closed).
    void comparisonReady(const ComparisonPtr& comparison);
    /// A comparison of `ranks` ranks started.
    void comparing(int ranks);
    /// A file of the job is loaded, failed or was cancelled; the model has it.
    void fileFinished(const LoadedFile& file);
    /// A snapshot of an earlier step could not be read.
    void earlierStepFailed(const LoadedFile& file);

private:
    void connectLoader();
    void onFinished(int index, const LoadedFile& file);
    void setComparison(ComparisonPtr comparison);
    /// Sets `member` and remembers it for the open job under `group`, then compares again.
    void setJobSetting(QString& member, const char* group, const QString& value);

    std::function<void(ComparisonOptions&)> m_readOptions;
    SnapshotLoader* m_loader;
    RankListModel* m_model;
    QTimer* m_compareTimer;
    QStringList m_paths;
    QString m_layoutText;
    QString m_deviceMemoryText;
    /// The job shown: its files, step and the checks of its options (the comparison runs on a copy).
    std::optional<Job> m_job;
    /// The snapshots of the steps before the one shown, read in the background once per job and step.
    JobTracker m_earlierLoads { this };
    std::shared_ptr<const EarlierSteps> m_earlierSteps;
    /// The options of the latest comparison, as read.
    ComparisonOptions m_options;
    /// What the job could not use of the options (Job::check), said in the banner.
    QString m_unusedOption;
    // Comparisons run off the GUI thread; only the latest one's result is shown.
    JobTracker m_comparisons { this };
    ComparisonPtr m_comparison;
    /// The verdict at the job's own moment (its latest comparison at no named point), for the banner at any other.
    std::optional<Verdict> m_jobVerdict;
};

} // namespace RankScope
