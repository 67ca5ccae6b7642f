// SPDX-License-Identifier: MIT
#pragma once

#include <QFutureWatcher>

#include <utility>

class QThreadPool;

namespace RankScope {

/// The thread pool for long background jobs: loading files, comparing, replaying for views. Never Qt's global pool:
/// Qt's raster paint engine splits drawing across the global pool's threads and waits for them, so a long job there
/// freezes every repaint of the window until it ends. One thread per core.
QThreadPool* backgroundPool();

/// Hands `future`'s result to `apply` on `context`'s thread once it is ready, unless `context` is gone by then.
/// Instead of QFuture::then(context, …): Qt 6.4 asserts there when the context died while the job ran (a window
/// closed during a load), and a watcher owned by the context simply goes with it.
template <typename T, typename Apply> void whenReady(QObject* context, QFuture<T> future, Apply apply)
{
    auto* watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, apply = std::move(apply)]() mutable {
        watcher->deleteLater();
        if (watcher->future().resultCount() > 0)
            apply(watcher->result());
    });
    watcher->setFuture(std::move(future));
}

} // namespace RankScope
