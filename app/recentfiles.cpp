// SPDX-License-Identifier: MIT
#include "recentfiles.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

#include <algorithm>

namespace RankScope {

namespace {
const QString JobsKey = QStringLiteral("recent/jobs");
// Before jobs were kept whole: every path its own entry.
const QString PathsKey = QStringLiteral("recent/paths");
constexpr int MaxRecent = 10;

// The paths of a job as an entry keeps them: absolute, each once, none from the resources.
QStringList onDisk(const QStringList& paths)
{
    QStringList absolute;
    for (const QString& path : paths) {
        if (path.startsWith(QLatin1Char(':')))
            continue;
        const QString full = QFileInfo(path).absoluteFilePath();
        if (!absolute.contains(full))
            absolute.append(full);
    }
    return absolute;
}

bool holdsAll(const QStringList& entry, const QStringList& paths)
{
    return std::all_of(paths.begin(), paths.end(), [&](const QString& path) { return entry.contains(path); });
}

} // namespace

QList<QStringList> RecentFiles::jobs() const
{
    QSettings settings;
    QList<QStringList> jobs;
    if (!settings.contains(JobsKey)) {
        for (const QString& path : settings.value(PathsKey).toStringList())
            jobs.append(QStringList { path });
        return jobs;
    }
    for (const QVariant& job : settings.value(JobsKey).toList()) {
        if (const QStringList paths = job.toStringList(); !paths.isEmpty())
            jobs.append(paths);
    }
    return jobs;
}

void RecentFiles::add(const QStringList& paths)
{
    const QStringList job = onDisk(paths);
    if (job.isEmpty())
        return;
    QList<QStringList> recent = jobs();
    recent.removeIf([&](const QStringList& entry) { return entry.size() == job.size() && holdsAll(entry, job); });
    recent.prepend(job);
    store(recent);
}

void RecentFiles::extend(const QStringList& job, const QStringList& added)
{
    const QStringList given = onDisk(job);
    QList<QStringList> recent = jobs();
    const auto entry =
        std::find_if(recent.begin(), recent.end(), [&](const QStringList& entry) { return holdsAll(entry, given); });
    // The example, or an entry cleared since: what is on disk of the job, first.
    if (given.isEmpty() || entry == recent.end()) {
        add(job + added);
        return;
    }
    for (const QString& path : onDisk(added)) {
        if (!entry->contains(path))
            entry->append(path);
    }
    store(recent);
}

void RecentFiles::clear()
{
    QSettings settings;
    settings.remove(JobsKey);
    settings.remove(PathsKey);
    emit changed();
}

void RecentFiles::store(const QList<QStringList>& jobs)
{
    QVariantList list;
    for (const QStringList& job : jobs.mid(0, MaxRecent))
        list.append(job);
    QSettings settings;
    settings.setValue(JobsKey, list);
    settings.remove(PathsKey);
    emit changed();
}

QString RecentFiles::label(const QStringList& job)
{
    if (job.size() <= 1)
        return job.value(0);
    return tr("%1 and %n more", nullptr, int(job.size() - 1)).arg(job.front());
}

void RecentFiles::fillMenu(QMenu* menu, const std::function<void(const QStringList&)>& open)
{
    const QList<QStringList> recent = jobs();
    menu->clear();
    for (const QStringList& job : recent) {
        QAction* action = menu->addAction(label(job), menu, [open, job] { open(job); });
        if (job.size() > 1)
            action->setToolTip(job.join(QLatin1Char('\n')));
    }
    menu->setToolTipsVisible(true);
    if (!recent.isEmpty()) {
        menu->addSeparator();
        menu->addAction(tr("Clear Recent"), this, &RecentFiles::clear);
    }
    menu->setEnabled(!recent.isEmpty());
}

} // namespace RankScope
