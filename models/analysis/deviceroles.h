// SPDX-License-Identifier: MIT
#pragma once

#include "snapshot.h"

#include <vector>

namespace RankScope {

/// Which GPUs of each rank's file are its own and which are another rank's. A snapshot numbers devices as its
/// process sees them: with CUDA_VISIBLE_DEVICES (or one node per rank) every rank's device 0 is its own GPU, and a
/// process driving several GPUs owns all it uses ("local" numbering). Without it, ranks of one node share one
/// numbering: rank r trains on device r, and what it allocates on another rank's device sits on that rank's GPU
/// ("shared" numbering). Host memory of profiler-derived files is never a device here.
struct DeviceRoles
{
    enum Numbering
    {
        Local,
        Shared,
    };
    struct Rank
    {
        /// The device the rank trains on: the one where it holds the most at its peak.
        int main = 0;
        /// Every GPU the rank allocates on.
        std::vector<int> used;
        /// Devices that are another rank's main device (shared numbering only).
        std::vector<int> foreign;
    };
    Numbering numbering = Local;
    std::vector<Rank> ranks;

    /// Shared numbering when the ranks train on different device numbers and do not all use the same devices.
    static DeviceRoles decide(const std::vector<SnapshotPtr>& snapshots);
    /// The devices compared across ranks, one comparison each: every device any rank uses (local numbering), or
    /// each rank's main device, compared as one (shared numbering: a single entry, -1).
    std::vector<int> comparedDevices() const;
    /// The ranks (indices) whose main device is `device`.
    std::vector<size_t> owners(int device) const;
    /// Whether a text must name devices: some rank uses more than one, or ranks train on different ones.
    bool namesDevices() const;
};

} // namespace RankScope
