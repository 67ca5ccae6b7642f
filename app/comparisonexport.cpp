// SPDX-License-Identifier: MIT
#include "comparisonexport.h"

#include "dataexport.h"
#include "diffreport.h"
#include "diffsheet.h"
#include "exportdialog.h"
#include "imageexport.h"
#include "timelineview.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

namespace RankScope {

ComparisonExport::ComparisonExport(QWidget* parent, Shown shown)
    : m_parent(parent)
    , m_shown(std::move(shown))
{ }

namespace {

const QString FolderKey = QStringLiteral("export/folder");

} // namespace

QString ComparisonExport::startPath(const QString& name) const
{
    // Where the user last exported to: pictures and reports gather there, not among the job's snapshots.
    if (const QString last = QSettings().value(FolderKey).toString(); !last.isEmpty() && QDir(last).exists())
        return QDir(last).filePath(name);
    return QDir(m_shown.folder.isEmpty() ? QDir::homePath() : m_shown.folder).filePath(name);
}

QString ComparisonExport::written(const QString& path)
{
    if (!path.isEmpty())
        QSettings().setValue(FolderKey, QFileInfo(path).absolutePath());
    return path;
}

int ComparisonExport::finding() const
{
    return m_shown.comparison->findingToShow(m_shown.rankA, m_shown.rankB, m_shown.finding);
}

QString ComparisonExport::picture()
{
    if (!m_shown.comparison)
        return {};
    ExportDialog dialog(m_parent);
    dialog.setPath(startPath(QStringLiteral("rankscope-diff.png")));
    if (dialog.exec() != QDialog::Accepted)
        return {};
    DiffSheet sheet(dialog.view());
    // The page draws the timelines as the window does.
    if (TimelineView* timelines = sheet.timelines(); timelines && m_shown.timelines) {
        timelines->setBandColoring(m_shown.timelines->bandColoring());
        timelines->setXAxis(m_shown.timelines->preferredXAxis());
        timelines->setYScale(m_shown.timelines->yScale());
    }
    sheet.setComparison(m_shown.comparison, m_shown.rankA, m_shown.rankB, finding(), m_shown.ranks);
    QString error;
    if (!sheet.prepare(dialog.imageSize()))
        error = tr("Drawing the views took too long.");
    else
        error = ImageExport::save(&sheet, dialog.path(), dialog.scale());
    if (!error.isEmpty()) {
        QMessageBox::warning(m_parent, tr("Export Diff Screenshot"), error);
        return {};
    }
    return written(dialog.path());
}

QString ComparisonExport::findings(bool json)
{
    if (!m_shown.comparison)
        return {};
    QString path =
        QFileDialog::getSaveFileName(m_parent, json ? tr("Export Findings as JSON") : tr("Export Findings as CSV"),
            startPath(json ? QStringLiteral("rankscope-findings.json") : QStringLiteral("rankscope-findings.csv")),
            json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return {};
    const std::string text = json ? DiffReport::json(*m_shown.comparison) : DiffReport::csv(*m_shown.comparison);
    if (const QString error = DataExport::write(path, QByteArray::fromStdString(text)); !error.isEmpty()) {
        QMessageBox::warning(m_parent, tr("Export Findings"), error);
        return {};
    }
    return written(path);
}

QString ComparisonExport::report()
{
    if (!m_shown.comparison)
        return {};
    QString path = QFileDialog::getSaveFileName(m_parent, tr("Export Report"),
        startPath(QStringLiteral("rankscope-report.html")), tr("HTML page (*.html);;Markdown (*.md)"));
    if (path.isEmpty())
        return {};
    if (!DiffSheet::isReportPath(path)) {
        QMessageBox::warning(m_parent, tr("Export Report"), tr("Name the report .html or .md."));
        return {};
    }
    const QString image = DiffSheet::reportImagePath(path);
    if (!image.isEmpty() && QFileInfo::exists(image)
        && QMessageBox::question(
               m_parent, tr("Export Report"), tr("%1 exists. Replace it with the report's picture?").arg(image))
            != QMessageBox::Yes)
        return {};
    DiffSheet sheet(DiffSheet::Diff);
    sheet.setComparison(m_shown.comparison, m_shown.rankA, m_shown.rankB, finding(), m_shown.ranks);
    const QString error = sheet.prepare(QSize(1600, 1000)) ? sheet.writeReport(*m_shown.comparison, path)
                                                           : tr("Drawing the views took too long.");
    if (!error.isEmpty()) {
        QMessageBox::warning(m_parent, tr("Export Report"), error);
        return {};
    }
    return written(path);
}

} // namespace RankScope
