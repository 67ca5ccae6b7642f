// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QObject>
#include <QStringList>

#include <functional>

class QMenu;

namespace RankScope {

/// The jobs opened last, newest first, remembered in QSettings for File → Open Recent and the start page. A job is
/// the files and folders opened together and those added to it later: its entry opens them all again.
class RecentFiles : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    /// Each job's paths (absolute), newest job first.
    QList<QStringList> jobs() const;
    /// Puts the job of `paths` first (the bundled example is no place on disk and is left out), keeping the newest
    /// ten; the same paths in another order are the same job.
    void add(const QStringList& paths);
    /// `added` joined the open job opened from `job`: the newest entry that holds `job` holds them too, where it is
    /// (first, when it is gone).
    void extend(const QStringList& job, const QStringList& added);
    void clear();

    /// A job as a menu shows it: its path, or its first path and how many more.
    static QString label(const QStringList& job);
    /// Fills `menu` with the jobs, each opened by `open`, and Clear Recent; disabled while there are none.
    void fillMenu(QMenu* menu, const std::function<void(const QStringList&)>& open);

signals:
    void changed();

private:
    void store(const QList<QStringList>& jobs);
};

} // namespace RankScope
