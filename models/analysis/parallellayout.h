// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace RankScope {

/// How a job's ranks are laid out over parallel dimensions, slowest to fastest as a device mesh is written:
/// `pp=2,dp=4` puts ranks 0-3 in pipeline stage 0 and ranks 4-7 in stage 1. Dimensions: pp, dp, tp, cp, ep. Ranks
/// that share every coordinate but dp are replicas of one another and hold the same memory by design; ranks of
/// different groups (stages, tensor, context or expert shards) may differ by design.
struct ParallelLayout
{
    struct Dimension
    {
        std::string name;
        int size = 1;
    };
    std::vector<Dimension> dimensions;
    /// Guessed from the files rather than given.
    bool suggested = false;

    /// Parses "pp=2,dp=4,tp=2"; nullopt with `error` set when the text is not a layout.
    static std::optional<ParallelLayout> parse(std::string_view text, std::string* error);
    /// "pp=2,dp=4".
    std::string text() const;
    /// The product of the sizes.
    int rankCount() const;
    /// The coordinates of rank `rank` (a position among 0 … rankCount()-1), one per dimension.
    std::vector<int> coordinates(int rank) const;
    /// The same in words, "pp=0 dp=1": as the rank table and the reports show them.
    std::string coordinatesText(int rank) const;
    /// The replica group of a rank: its coordinates without dp, as one number (0 … groupCount()-1).
    int group(int rank) const;
    int groupCount() const;
    /// The group's coordinates in words, "pp=0,tp=1" (every dimension but dp), or "all" when there is no other.
    std::string groupName(int group) const;
};

} // namespace RankScope
