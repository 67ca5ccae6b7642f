// SPDX-License-Identifier: MIT
#pragma once

#include "sitetable.h"

#include <QStringList>

#include <string_view>
#include <vector>

namespace RankScope {

/// Stacks as the lines that stack panes, tooltips and reports show: "function  file:line  (folder)", innermost
/// first. Function and file name come first because long absolute paths would hide what matters; a frame repeated
/// back to back (deep recursion) is folded into one line with a count.
namespace StackText {

struct Frame
{
    std::string_view file;
    std::string_view name;
    int64_t line = 0;
    bool operator==(const Frame&) const = default;
};

/// The kept frames of a site.
std::vector<Frame> siteFrames(const SiteTable& sites, SiteId site);
/// Every frame of a stack of `snapshot`, or (with `dropViewerNoise`) those the official viewer shows.
std::vector<Frame> stackFrames(const Snapshot& snapshot, StackId stack, bool dropViewerNoise);
/// One line per frame; at most `maxLines` lines (then "… N more frames"), all when negative.
QStringList lines(const std::vector<Frame>& frames, int maxLines = -1);

} // namespace StackText
} // namespace RankScope
