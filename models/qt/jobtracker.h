// SPDX-License-Identifier: MIT
#pragma once

#include "parallel.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace RankScope {

/// Background jobs of one window or view, the one way they are run: each job runs on the job pool and hands its
/// result back on the owner's thread, unless the owner is gone by then or a newer job superseded it (the latest
/// job wins). Results arrive through watchers the owner owns, instead of QFuture::then(context, …): Qt 6.4 asserts
/// there when the context died while the job ran (a window closed during a load).
class JobTracker
{
public:
    explicit JobTracker(QObject* owner)
        : m_owner(owner)
    { }

    /// Runs `job` after superseding every earlier job; `apply(result)` is called with its result unless it was
    /// superseded or cancelled by then.
    template <typename Job, typename Apply> void start(Job job, Apply apply)
    {
        cancel();
        add(std::move(job), std::move(apply));
    }

    /// Runs `job` next to the jobs started since the last start() or cancel(), as one batch that wins or loses
    /// together (one job per rank, say).
    template <typename Job, typename Apply> void add(Job job, Apply apply)
    {
        using Result = std::invoke_result_t<Job>;
        ++m_current;
        auto* watcher = new QFutureWatcher<Result>(m_owner);
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_owner,
            [this, watcher, generation = m_generation, apply = std::move(apply)]() mutable {
                watcher->deleteLater();
                if (generation != m_generation)
                    return;
                --m_current;
                // Moved out, not copied: a timeline's detail is tens of MB, and a copy here held the GUI thread.
                if (watcher->future().resultCount() > 0)
                    apply(watcher->future().takeResult());
                if (m_current == 0 && m_idle)
                    m_idle();
            });
        watcher->setFuture(QtConcurrent::run(Parallel::jobPool(), std::move(job)));
    }

    /// Results of the jobs running now will be dropped (the jobs themselves run to their end, unseen).
    void cancel()
    {
        ++m_generation;
        m_current = 0;
    }

    /// True while a job runs whose result is still wanted.
    bool isBusy() const
    {
        return m_current > 0;
    }

    /// Called on the owner's thread whenever the last job whose result was wanted has been applied.
    void setOnIdle(std::function<void()> idle)
    {
        m_idle = std::move(idle);
    }

private:
    QObject* m_owner;
    int m_generation = 0;
    int m_current = 0; ///< jobs of the current generation still running
    std::function<void()> m_idle;
};

} // namespace RankScope
