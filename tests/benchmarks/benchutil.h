// SPDX-License-Identifier: MIT
// What the benchmark programs share: the process's resident memory and the median of timings.
#pragma once

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

} // namespace BenchUtil
