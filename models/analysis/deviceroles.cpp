// SPDX-License-Identifier: MIT
#include "deviceroles.h"

#include "devicehistory.h"

#include <algorithm>

namespace RankScope {

DeviceRoles DeviceRoles::decide(const std::vector<SnapshotPtr>& snapshots)
{
    DeviceRoles roles;
    for (const SnapshotPtr& s : snapshots) {
        Rank rank;
        rank.used = s->gpuDevices();
        rank.main = rank.used.empty() ? 0 : rank.used.front();
        if (rank.used.size() > 1) {
            // Where the rank holds the most at its peak: a stray tensor on another GPU is small beside training.
            int64_t most = -1;
            for (int d : rank.used) {
                const int64_t peak = DeviceHistory::summarize(*s, d).peakBytes;
                if (peak > most) {
                    most = peak;
                    rank.main = d;
                }
            }
        }
        roles.ranks.push_back(std::move(rank));
    }
    const auto sameMain = [&](const Rank& r) { return r.main == roles.ranks.front().main; };
    const auto sameUse = [&](const Rank& r) { return r.used == roles.ranks.front().used; };
    // Every rank on the same devices (one or several): each process numbers its own GPUs.
    if (roles.ranks.empty() || std::all_of(roles.ranks.begin(), roles.ranks.end(), sameMain)
        || std::all_of(roles.ranks.begin(), roles.ranks.end(), sameUse))
        return roles;
    roles.numbering = Shared;
    for (Rank& rank : roles.ranks) {
        for (int d : rank.used) {
            if (d != rank.main && !roles.owners(d).empty())
                rank.foreign.push_back(d);
        }
    }
    return roles;
}

std::vector<int> DeviceRoles::comparedDevices() const
{
    if (numbering == Shared)
        return { -1 };
    std::vector<int> devices;
    for (const Rank& rank : ranks)
        devices.insert(devices.end(), rank.used.begin(), rank.used.end());
    std::sort(devices.begin(), devices.end());
    devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
    if (devices.empty())
        devices.push_back(0);
    return devices;
}

std::vector<size_t> DeviceRoles::owners(int device) const
{
    std::vector<size_t> result;
    for (size_t r = 0; r < ranks.size(); ++r) {
        if (ranks[r].main == device)
            result.push_back(r);
    }
    return result;
}

bool DeviceRoles::namesDevices() const
{
    return numbering == Shared
        || std::any_of(ranks.begin(), ranks.end(), [](const Rank& r) { return r.used.size() > 1; });
}

} // namespace RankScope
