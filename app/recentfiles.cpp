// SPDX-License-Identifier: MIT
#include "recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace RankScope {

namespace {
const QString RecentKey = QStringLiteral("recent/paths");
constexpr int MaxRecent = 10;
} // namespace

QStringList RecentFiles::paths() const
{
    return QSettings().value(RecentKey).toStringList();
}

void RecentFiles::add(const QStringList& paths)
{
    QStringList recent = this->paths();
    for (const QString& path : paths) {
        if (path.startsWith(QLatin1Char(':')))
            continue;
        const QString absolute = QFileInfo(path).absoluteFilePath();
        recent.removeAll(absolute);
        recent.prepend(absolute);
    }
    while (recent.size() > MaxRecent)
        recent.removeLast();
    QSettings().setValue(RecentKey, recent);
    emit changed();
}

void RecentFiles::clear()
{
    QSettings().remove(RecentKey);
    emit changed();
}

} // namespace RankScope
