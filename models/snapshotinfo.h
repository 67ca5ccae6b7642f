// SPDX-License-Identifier: MIT
#pragma once

#include "snapshot.h"

#include <QString>

#include <string>
#include <vector>

namespace RankScope {

/// The per-device figures of `rankscope info`, summed exactly as PyTorch defines them: reserved is the sum of segment
/// `total_size`; allocated, active and requested come from the blocks' states.
struct DeviceInfo
{
    int device = 0;
    int64_t segments = 0;
    int64_t blocks = 0;
    int64_t traceEntries = 0;
    int64_t reservedBytes = 0;
    int64_t allocatedBytes = 0;
    int64_t activeBytes = 0;
    int64_t requestedBytes = 0;
    int64_t oomEvents = 0;
    /// The maximum of the official viewer's Active Memory Timeline (its `max_at_time`).
    int64_t peakAllocatedBytes = 0;
    /// The event after which that peak is first reached; -1 when it is the state before the first event.
    int64_t peakEventIndex = -1;
    bool traceIncomplete = false;
    bool hasTimes = false;
    int64_t firstTimeUs = 0;
    int64_t lastTimeUs = 0;

    static std::vector<DeviceInfo> compute(const SnapshotPtr& snapshot);
};

/// One file's entry in `rankscope info` output.
struct FileInfoEntry
{
    QString path;
    int rank = 0;
    std::vector<DeviceInfo> devices;
    QString error; ///< set when the file could not be read; devices are then empty
};

/// Formats `info` output; the JSON schema is `{"files":[{"path":…,"rank":…,"devices":[{…}]}]}`.
namespace InfoFormat {
std::string text(const std::vector<FileInfoEntry>& files);
std::string json(const std::vector<FileInfoEntry>& files);
} // namespace InfoFormat

} // namespace RankScope
