// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QStringList>

#include <initializer_list>
#include <string_view>
#include <vector>

namespace RankScope {

/// Stacks as the lines that stack panes, tooltips and reports show: "function  file:line  (folder)". Function and
/// file name come first because long absolute paths would hide what matters; a frame repeated back to back (deep
/// recursion) is folded into one line with a count. Shown stacks follow StackOrder (the user's frames first, the
/// native run folded into one line); "All frames" shows a stack as recorded, innermost first.
namespace StackText {

struct Frame
{
    std::string_view file;
    std::string_view name;
    int64_t line = 0;
    bool operator==(const Frame&) const = default;
};

/// Frames of a stack, innermost first as recorded, or in the order views show them.
struct Frames
{
    std::vector<Frame> frames;
    /// How many frames at the end are the native run that lines() folds into one line.
    size_t folded = 0;
};

/// The kept frames of a site as views show them.
Frames siteFrames(const SiteTable& sites, SiteId site);
/// A stack of `snapshot`: with `shown`, the frames the official viewer shows, in the order views show them; else
/// every frame as recorded.
Frames stackFrames(const Snapshot& snapshot, StackId stack, bool shown);

/// The lines of a stack; a native run folded into the last line ("+38 native frames") keeps its own lines, for a
/// pane to unfold (none when the lines were cut short). Reads as the QStringList it shows.
struct Lines
{
    QStringList lines;
    QStringList folded;

    Lines() = default;
    Lines(QStringList text)
        : lines(std::move(text))
    { }
    Lines(std::initializer_list<QString> text)
        : lines(text)
    { }
    operator const QStringList&() const
    {
        return lines;
    }
    /// Every line, the folded ones in place of the line that folds them.
    QStringList unfolded() const;
    bool operator==(const Lines&) const = default;
};
/// One line per frame; at most `maxLines` lines (then "… N more frames"), all when negative.
Lines lines(const Frames& frames, int maxLines = -1);

/// What stack panes and reports show for a finding: a header with its figures, its site's frames, every frame of
/// one of its stacks, and what `otherRank` holds at the same site (no footer when -1).
struct Description
{
    QString header;
    Lines frames;
    Lines allFrames;
    QString footer;
};
Description describeFinding(const Comparison& comparison, size_t finding, int otherRank);
/// What stack panes show for an OOM: which rank, when, how much it asked for and had free, and where it asked.
Description describeOom(const DeviceHistory& history, int rank, const OomMarker& oom);

} // namespace StackText
} // namespace RankScope
