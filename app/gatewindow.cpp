// SPDX-License-Identifier: MIT
#include "gatewindow.h"

#include "formatting.h"
#include "gatereport.h"
#include "job.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QTextBrowser>

namespace RankScope {

namespace {

struct Gated
{
    std::optional<GateResult> result;
    QStringList problems;
};

Gated gateJobs(const QStringList& baselinePaths, const QStringList& paths)
{
    Gated out;
    Job baseline(baselinePaths);
    Job current(paths);
    for (Job* job : { &baseline, &current }) {
        if (!job->error().empty()) {
            out.problems.append(job->error().translated());
            return out;
        }
        job->load();
        for (const std::string& line : job->messages())
            out.problems.append(QString::fromStdString(line));
    }
    const Gate::Side base = Gate::sideOf(baseline);
    const Gate::Side now = Gate::sideOf(current);
    for (const std::string& error : base.errors)
        out.problems.append(QString::fromStdString(error));
    if (!now.digests.empty()) {
        out.problems.append(GateWindow::tr("The open job is digests: a job gated must be snapshots."));
        return out;
    }
    if (!base.inputs.empty() && !now.inputs.empty())
        out.result = Gate::run(base.inputs, now.inputs, GateOptions {});
    return out;
}

} // namespace

GateWindow::GateWindow(QWidget* parent)
    : ViewWindow(new QTextBrowser, parent)
    , m_view(static_cast<QTextBrowser*>(centralWidget()))
{
    setWindowTitle(tr("Compare With Baseline — RankScope"));
}

void GateWindow::gate(const QStringList& baseline, const QStringList& paths)
{
    m_passed.reset();
    run(
        tr("Gating the job against its baseline…"), [=] { return gateJobs(baseline, paths); },
        [this](Gated gated) {
            if (!gated.result) {
                gated.problems.prepend(tr("Found no ranks to gate in the job or in the baseline."));
                m_view->setPlainText(gated.problems.join(QLatin1Char('\n')));
                showStatus(gated.problems.front());
                return;
            }
            m_passed = gated.result->passed();
            // The words of the summary CI shows (English, as the command line's and the reports'), the same figures.
            m_view->setMarkdown(QString::fromStdString(GateReport::markdown(*gated.result)));
            gated.problems.prepend(*m_passed ? tr("Pass: no rank holds more than the baseline beyond the tolerance.")
                                             : tr("Fail: ranks %1 hold more than the baseline beyond the tolerance.")
                                                   .arg(Formatting::ranks(gated.result->regressedRanks())));
            showStatus(gated.problems.join(QLatin1String("; ")));
        });
}

void GateWindow::addMenuAction(QMenu* menu, QWidget* parent, std::function<QStringList()> paths)
{
    QAction* action = menu->addAction(tr("Compare With Base&line…"));
    action->setStatusTip(tr("Gate the open job against a baseline run: its snapshots or digests, rank by rank"));
    QObject::connect(action, &QAction::triggered, parent, [parent, paths = std::move(paths)] {
        const QStringList job = paths();
        if (job.isEmpty()) {
            QMessageBox::information(parent, tr("Compare With Baseline"), tr("Open the job to gate first."));
            return;
        }
        const QString baseline = QFileDialog::getExistingDirectory(parent, tr("The Baseline: Snapshots or Digests"));
        if (baseline.isEmpty())
            return;
        auto* window = new GateWindow;
        window->show();
        window->gate({ baseline }, job);
    });
}

} // namespace RankScope
