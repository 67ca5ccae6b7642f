// SPDX-License-Identifier: MIT
#pragma once

#include "loadedfile.h"
#include "snapshotinfo.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace RankScope {

/// One file's entry in `rankscope info` output.
struct FileInfoEntry
{
    QString path;
    int rank = 0;
    std::vector<DeviceInfo> devices;
    QString error; ///< set when the file could not be read; devices are then empty
    HostMemory host;

    static FileInfoEntry of(const LoadedFile& file)
    {
        return { file.path, file.rank, file.devices, file.error,
            file.snapshot ? HostMemory::of(*file.snapshot) : HostMemory {} };
    }
};

/// Formats `info` output; the JSON schema is `{"files":[{"path":…,"rank":…,"devices":[{…}],"host_memory":{…}}]}`
/// (`host_memory` only for files that recorded pinned host memory).
namespace InfoFormat {
std::string text(const std::vector<FileInfoEntry>& files);
std::string json(const std::vector<FileInfoEntry>& files);
/// A file's pinned host memory as `info --json` and `diff --json` (per rank) write it.
nlohmann::ordered_json hostMemoryJson(const HostMemory& host);
} // namespace InfoFormat

} // namespace RankScope
