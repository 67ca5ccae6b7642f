// SPDX-License-Identifier: MIT
#include "gatewindow.h"

#include "gatereport.h"
#include "gateview.h"
#include "job.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>

namespace RankScope {

namespace {

struct Gated
{
    std::shared_ptr<const GateResult> result;
    QStringList problems;
};

Gated gateJobs(const QStringList& baselinePaths, const QStringList& paths)
{
    Gated out;
    Job baseline(baselinePaths);
    Job current(paths);
    for (Job* job : { &baseline, &current }) {
        if (!job->error().empty()) {
            // Which side, and the folder chosen: "no snapshot files given" alone reads as if the open job were empty.
            out.problems.append(job == &baseline
                    ? GateWindow::tr("the baseline %1: %2")
                          .arg(baselinePaths.join(QLatin1String(", ")), job->error().translated())
                    : GateWindow::tr("the open job: %1").arg(job->error().translated()));
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
        out.result = std::make_shared<const GateResult>(Gate::run(base, now, GateOptions {}));
    return out;
}

} // namespace

GateWindow::GateWindow(QWidget* parent)
    : ViewWindow(new GateView, parent)
    , m_view(static_cast<GateView*>(centralWidget()))
{
    setWindowTitle(tr("Compare With Baseline — RankScope"));
    setFileActions([this](QMenu* file) {
        QAction* markdown = file->addAction(tr("Export &Markdown Summary…"), this, [this] { exportReport(false); });
        QAction* junit = file->addAction(tr("Export &JUnit XML…"), this, [this] { exportReport(true); });
        markdown->setStatusTip(tr("The gate's summary for a pull request, as `rankscope gate --markdown` writes it"));
        junit->setStatusTip(tr("The gate as CI test results, as `rankscope gate --junit` writes them"));
        for (QAction* action : { markdown, junit })
            action->setEnabled(m_view->result() && !m_view->result()->ranks.empty());
    });
}

void GateWindow::gate(const QStringList& baseline, const QStringList& paths)
{
    m_passed.reset();
    const QString message = tr("Gating the job against its baseline…");
    m_view->setPending(message);
    refreshFileActions();
    run(
        message, [=] { return gateJobs(baseline, paths); },
        [this](Gated result) {
            // The view says why the gate could not run, or its pass or fail, which the status line repeats.
            const bool gated = result.result && !result.result->ranks.empty();
            if (gated)
                m_passed = result.result->passed();
            m_view->setResult(gated ? result.result : nullptr, result.problems);
            result.problems.prepend(m_view->headline());
            showStatus(result.problems.join(QLatin1String("; ")));
            refreshFileActions();
        });
}

void GateWindow::exportReport(bool junit)
{
    const GateResult* result = m_view->result();
    if (!result)
        return;
    const QString path = junit ? QFileDialog::getSaveFileName(
                             this, tr("Export JUnit XML"), QStringLiteral("gate.xml"), tr("JUnit XML (*.xml)"))
                               : QFileDialog::getSaveFileName(this, tr("Export Markdown Summary"),
                                   QStringLiteral("gate.md"), tr("Markdown (*.md)"));
    if (path.isEmpty())
        return;
    // The command's words, English as CI shows them, from the same result the window shows.
    const QByteArray bytes =
        junit ? GateReport::junit(*result) : QByteArray::fromStdString(GateReport::markdown(*result));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size() || !file.commit())
        QMessageBox::warning(this, windowTitle(), tr("Could not write %1: %2").arg(path, file.errorString()));
    else
        showStatus(tr("Wrote %1").arg(path));
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
