// SPDX-License-Identifier: MIT
#pragma once

#include "snapshot.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace RankScope {

/// A rank's digest: a small PyTorch memory snapshot (pickle, gzip-compressed) that gives the same comparison
/// figures, findings and verdict as the full file at its peak, its snapshot and its last OOM, so a job too big for
/// one machine is digested where its files are and compared anywhere.
///
/// It holds, for every GPU of the file, the final segments and blocks, every segment, OOM and snapshot event, and of
/// the allocations only those live at one of those points (with their stacks). What the digest leaves out is one
/// "left out" allocation resized at two moments per column of the timeline (its lowest and highest), so the curve
/// keeps its shape at that resolution without ever rising above the original or changing its peak. Points inside
/// the trace (event:<i>, step:<N>) are not kept; DeviceHistory::point() has none for a digest. Its header keeps each
/// GPU's GateProfile, so that a digest serves as a gate's baseline.
class Digest
{
public:
    struct Source
    {
        /// The rank to record (-1: unknown) and the source file's name and size.
        int rank = -1;
        std::string fileName;
        int64_t fileBytes = 0;
    };
    /// What a digest kept, for the command's report.
    struct Figures
    {
        int device = 0;
        size_t sourceEvents = 0;
        size_t keptEvents = 0;
        size_t fillerEvents = 0;
        size_t keptAllocations = 0;
        size_t blocks = 0;
        int64_t bytes = 0; ///< of the written file
    };

    /// 2: every GPU of the source; 3: every kept alloc carries its category (`rankscope_category`); 4: the header
    /// carries every GPU's GateProfile (`gate`, JSON text), what a gate needs of a baseline.
    static constexpr int version = 4;
    /// Timeline columns kept (about two screens wide).
    static constexpr int columns = 4096;
    /// The frame of the stand-in allocation that carries the curve of what was left out.
    static constexpr const char* leftOutName = "(allocations this digest leaves out)";

    /// The GPUs a digest keeps of `snapshot`, in order: every GPU, and the main device where it has none.
    static std::vector<int> devices(const Snapshot& snapshot);
    /// The digest of `snapshot`'s GPUs as gzip-compressed pickle bytes. `figures` receives what it kept.
    static std::string make(const Snapshot& snapshot, const Source& source, Figures* figures = nullptr);
    /// Writes make()'s bytes to `path` (replacing it through a temporary file); throws std::runtime_error with
    /// the reason when the file cannot be written.
    static Figures write(const Snapshot& snapshot, const Source& source, const QString& path);
};

} // namespace RankScope
