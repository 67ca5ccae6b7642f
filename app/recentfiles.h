// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QStringList>

namespace RankScope {

/// The files and folders opened last, newest first, remembered in QSettings for File → Open Recent and the start
/// page.
class RecentFiles : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    QStringList paths() const;
    /// Puts `paths` first (the bundled example is no place on disk and is left out), keeping the newest ten.
    void add(const QStringList& paths);
    void clear();

signals:
    void changed();
};

} // namespace RankScope
