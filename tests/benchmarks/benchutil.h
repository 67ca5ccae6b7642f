// SPDX-License-Identifier: MIT
// What the benchmark programs share: the process's resident memory, the median of timings, waiting for events.
#pragma once

#include <QCoreApplication>
#include <QTimer>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

namespace BenchUtil {

/// VmRSS of this process, in KiB.
inline long rssKb()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    }
    return 0;
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

/// Handles the events that arrive within `ms`, sleeping while there are none, as a window's event loop does.
/// (QCoreApplication::processEvents(flags, ms) drops WaitForMoreEvents: a loop around it keeps a core busy, which
/// on two cores is the one the jobs being timed need.)
inline void waitForEvents(int ms)
{
    QTimer wake;
    wake.setSingleShot(true);
    wake.start(ms);
    QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
}

} // namespace BenchUtil
