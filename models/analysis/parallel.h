// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QtConcurrent>

class QThreadPool;

namespace RankScope::Parallel {

/// The pool that long jobs run on: loading files, comparing, replaying for views. Never Qt's global pool: Qt's
/// raster paint engine splits drawing across the global pool's threads and waits for them, so a long job there
/// freezes every repaint of the window until it ends. One thread per core.
QThreadPool* jobPool();

/// The pool for the parts a job fans out into (one rank's replay, one file of many). Separate from the job pool:
/// a job that waits for its parts must never wait for work queued behind itself.
QThreadPool* partPool();

/// Waits for the jobs on the pools (the job pool, the part pool and Qt's global pool) and lets their threads end:
/// called before `main` returns, so that no pool thread is still alive, or halfway through ending, while the
/// process's exit handlers run.
void finish();

/// 0, 1, … count - 1.
QList<qsizetype> indices(qsizetype count);

/// `f(i)` for every i in [0, count) on the part pool, results in order of i; waits for all of them.
template <typename F> auto mapIndices(qsizetype count, F f)
{
    return QtConcurrent::blockingMapped(partPool(), indices(count), std::move(f));
}

/// `f(i)` for every i in [0, count) on the part pool, for what it does; waits for all of them.
template <typename F> void forIndices(qsizetype count, F f)
{
    QList<qsizetype> all = indices(count);
    QtConcurrent::blockingMap(partPool(), all, [&f](qsizetype i) { f(i); });
}

/// The same as mapIndices, started now on the part pool: the future's results() wait for all of them.
template <typename F> auto mapIndicesLater(qsizetype count, F f)
{
    return QtConcurrent::mapped(partPool(), indices(count), std::move(f));
}

} // namespace RankScope::Parallel
