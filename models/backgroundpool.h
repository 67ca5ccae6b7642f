// SPDX-License-Identifier: MIT
#pragma once

class QThreadPool;

namespace RankScope {

/// The thread pool for long background jobs: loading files, comparing, replaying for views. Never Qt's global pool:
/// Qt's raster paint engine splits drawing across the global pool's threads and waits for them, so a long job there
/// freezes every repaint of the window until it ends. One thread per core.
QThreadPool* backgroundPool();

} // namespace RankScope
