// SPDX-License-Identifier: MIT
#include "beforeafterwindow.h"

#include "beforeafterview.h"
#include "loadedfile.h"
#include "rankfiles.h"

#include <QFileInfo>

namespace RankScope {

namespace {

struct Run
{
    ComparisonPtr comparison;
    QStringList problems;
};

Run compareRun(const QStringList& files)
{
    Run run;
    std::vector<RankInput> ranks;
    for (const LoadedFile& file : LoadedFile::loadAll(files)) {
        if (file.ok())
            ranks.push_back({ file.rank, file.path, file.snapshot });
        else
            run.problems.append(QFileInfo(file.path).fileName() + QLatin1String(": ") + file.error);
    }
    if (!ranks.empty())
        run.comparison = Comparison::compute(ranks, ComparisonOptions {});
    return run;
}

} // namespace

BeforeAfterWindow::BeforeAfterWindow(QWidget* parent)
    : ViewWindow(new BeforeAfterView, parent)
    , m_view(static_cast<BeforeAfterView*>(centralWidget()))
{
    setWindowTitle(tr("Before and After — RankScope"));
}

void BeforeAfterWindow::compare(const QStringList& before, const QStringList& after)
{
    // Named files count by their kind too: a .log given by hand is a log, not a broken snapshot.
    const auto snapshotsIn = [](const QStringList& paths) {
        QStringList files = RankFiles::expand(paths);
        files.removeIf([](const QString& file) { return !RankFiles::looksLikeSnapshot(file); });
        return files;
    };
    const QStringList snapshotsBefore = snapshotsIn(before);
    const QStringList snapshotsAfter = snapshotsIn(after);
    const bool snapshots = !snapshotsBefore.isEmpty() && !snapshotsAfter.isEmpty();
    const QStringList logsBefore = RankFiles::expandLogs(before);
    const QStringList logsAfter = RankFiles::expandLogs(after);
    run(
        snapshots ? tr("Comparing the snapshots before and after…") : tr("Reading the step reports before and after…"),
        [=] {
            std::pair<std::optional<BeforeAfterSummary>, QStringList> result;
            if (snapshots) {
                const Run was = compareRun(snapshotsBefore);
                const Run is = compareRun(snapshotsAfter);
                result.second = was.problems + is.problems;
                if (was.comparison && is.comparison)
                    result.first = BeforeAfter::compute(was.comparison, is.comparison).summary();
                return result;
            }
            const StepLog was = StepLog::read(logsBefore);
            const StepLog is = StepLog::read(logsAfter);
            for (const StepLog* log : { &was, &is }) {
                for (const auto& [path, error] : log->errors)
                    result.second.append(QFileInfo(path).fileName() + QLatin1String(": ") + error);
            }
            if (!was.reports.empty() && !is.reports.empty())
                result.first = BeforeAfterSummary::fromSteps(
                    StepAnalysis::analyse(was), StepAnalysis::analyse(is), StepAnalysis::DefaultThresholdPercent);
            return result;
        },
        [this](std::pair<std::optional<BeforeAfterSummary>, QStringList> result) {
            if (!result.first)
                result.second.prepend(tr("Found no snapshots, nor step reports, in both runs."));
            showStatus(result.second.join(QLatin1String("; ")));
            if (result.first)
                m_view->setSummary(std::move(*result.first));
        });
}

} // namespace RankScope
