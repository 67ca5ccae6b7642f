// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

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

/// What stack panes and reports show for a finding: a header with its figures, its site's frames, every frame of
/// one of its stacks, and what `otherRank` holds at the same site (no footer when -1).
struct Description
{
    QString header;
    QStringList frames;
    QStringList allFrames;
    QString footer;
};
Description describeFinding(const Comparison& comparison, size_t finding, int otherRank);
/// What stack panes show for an OOM: which rank, when, how much it asked for and had free, and where it asked.
Description describeOom(const DeviceHistory& history, int rank, const OomMarker& oom);

} // namespace StackText
} // namespace RankScope
