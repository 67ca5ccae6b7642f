// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <memory>
#include <string>
#include <vector>

namespace RankScope {

/// One frame of a rank's excess, as a caller/callee tree: what the rank holds beyond its baseline through this
/// frame (inclusive) and at sites whose innermost kept frame it is (self).
struct ExcessNode
{
    std::string name;
    std::string file;
    int64_t line = 0;
    int64_t inclusiveBytes = 0;
    int64_t selfBytes = 0;
    /// Findings (sites) that pass through this frame.
    int64_t sites = 0;
    /// Largest first.
    std::vector<ExcessNode> children;
    /// Filled once the tree is built, for item models: the parent (null for the root) and the row under it.
    const ExcessNode* parent = nullptr;
    int row = 0;
};

/// The excess of one rank over its baseline, by frame, in the two directions profilers show it (as hotspot and
/// heaptrack do): top-down from the outermost frame (the entry script) to the allocating one, and bottom-up from the
/// allocating frame out to its callers. Frames are the sites' kept frames, so the tree follows the comparison's site
/// options. Built from a comparison's findings; immutable after build.
namespace ExcessTree {
enum Direction
{
    TopDown,
    BottomUp,
};
/// The root (no frame; inclusiveBytes is the rank's whole excess over its findings) of `rank`'s tree.
std::shared_ptr<const ExcessNode> build(const Comparison& comparison, int rank, Direction direction);
} // namespace ExcessTree

} // namespace RankScope
