// SPDX-License-Identifier: MIT
#include "stepswindow.h"

#include "rankfiles.h"
#include "stepsview.h"

#include <QFileInfo>

namespace RankScope {

StepsWindow::StepsWindow(QWidget* parent)
    : ViewWindow(new StepsView, parent)
    , m_view(static_cast<StepsView*>(centralWidget()))
{
    setWindowTitle(tr("Step Reports — RankScope"));
}

void StepsWindow::openLogs(const QStringList& paths)
{
    const QStringList files = RankFiles::expandLogs(paths);
    if (!files.isEmpty())
        setWindowTitle(tr("%1 — Step Reports — RankScope").arg(QFileInfo(files.first()).fileName()));
    run(
        tr("Reading %n log(s)…", nullptr, int(files.size())),
        [files] {
            StepLog log = StepLog::read(files);
            StepAnalysis analysis = StepAnalysis::analyse(log);
            return std::make_pair(std::move(log), std::move(analysis));
        },
        [this](std::pair<StepLog, StepAnalysis> result) {
            QStringList problems;
            for (const auto& [path, error] : result.first.errors)
                problems.append(tr("%1: %2").arg(QFileInfo(path).fileName(), error));
            const qsizetype reports = qsizetype(result.first.reports.size());
            if (reports == 0)
                problems.append(tr("no step report lines found (a step and a cur= or peak= figure on one line)"));
            showStatus(problems.isEmpty() ? tr("%n report(s)", nullptr, int(reports))
                        + tr(" from %n rank(s)", nullptr, int(result.second.ranks.size()))
                                          : problems.join(QLatin1String("; ")));
            m_view->setLog(std::move(result.first), std::move(result.second));
        });
}

} // namespace RankScope
