// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <memory>
#include <string>
#include <vector>

namespace RankScope {

/// One frame of what a rank holds, as a caller/callee tree: its excess over its baseline (or everything it holds at
/// the point) through this frame (inclusive) and at sites whose path ends here (self: the last frame top-down, the
/// first one bottom-up).
struct ExcessNode
{
    std::string name;
    std::string file;
    int64_t line = 0;
    /// The native frames (C++, CPython, the allocator) a site's innermost Python frame called, folded into one node
    /// below its Python frames: no frame of its own; its children are those frames.
    bool native = false;
    /// The allocations recorded without a stack (parameters made before recording began): one node under the root, so
    /// that the tree's frames add up to what the rank holds.
    bool noStack = false;
    /// Whose the frame is, for views to dim others' frames and start reading at the user's.
    FrameKind kind = FrameKind::Native;
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

/// What one rank holds by frame, in the two directions profilers show it (as hotspot and heaptrack do): top-down from
/// the outermost frame (the entry script) to the allocating one, and bottom-up from the allocating frame out to its
/// callers. Either its excess over its baseline (from the comparison's findings) or everything it holds at the point
/// compared (every site's bytes there). Frames are the sites' kept frames, so the tree follows the comparison's site
/// options, in the order they were called (StackOrder::treePath): top-down from the process's entry to the allocating
/// Python frame, the native run it called folded under one node below it; bottom-up from the allocating Python frame
/// (its native run folded into it) out to the entry. Immutable after build.
namespace ExcessTree {
enum Direction
{
    TopDown,
    BottomUp,
};
enum Scope
{
    Excess, ///< beyond the baseline: the rank's findings
    Everything, ///< everything the rank holds at its point
};
/// The root (no frame; inclusiveBytes is the rank's whole excess, or all it holds) of `rank`'s tree.
std::shared_ptr<const ExcessNode> build(
    const Comparison& comparison, int rank, Direction direction, Scope scope = Excess);
/// What the window and `export --view flame` show unless told: the excess where the rank has any, else everything.
Scope defaultScope(const Comparison& comparison, int rank);
} // namespace ExcessTree

} // namespace RankScope
