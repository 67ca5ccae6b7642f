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
/// recursion) is folded into one line with a count. Shown stacks keep the order they were called in, innermost first
/// (StackOrder): each run of native frames folds into one line in its place, the frames of others are dimmed and
/// reading starts at the user's innermost frame; "All frames" shows a stack as recorded.
namespace StackText {

struct Frame
{
    std::string_view file;
    std::string_view name;
    int64_t line = 0;
    bool operator==(const Frame&) const = default;
};

/// Frames of a stack as recorded, or as views show them.
struct Frames
{
    /// The frames shown a line each, innermost first as called; after them the last `folded`, the frames of the
    /// folded runs, innermost first too.
    std::vector<Frame> frames;
    size_t folded = 0;
    /// A folded run: its line goes before the shown frame `at` (after the last where `at` is their count), and holds
    /// the next `count` of the folded frames.
    struct Fold
    {
        size_t at = 0;
        size_t count = 0;
        bool operator==(const Fold&) const = default;
    };
    std::vector<Fold> folds {};
    /// The shown frame reading starts at (StackOrder::readingStart).
    size_t start = 0;
    /// By shown frame: whether it is someone else's code, which views dim (empty: none).
    std::vector<bool> others {};
    /// By frame (shown, then folded): whether it is the user's own code (FrameKind::Yours, the packages `--my-code`
    /// counts as theirs included), which data outputs mark `own_code`.
    std::vector<bool> own {};
};

/// The kept frames of a site as views show them.
Frames siteFrames(const SiteTable& sites, SiteId site);
/// A stack of `snapshot`: with `shown`, the frames the official viewer shows, as views show them; else every frame as
/// recorded. Frames of `ownPackages` (SiteTable::ownPackagesOf) are the user's own, as in site keys.
Frames stackFrames(const Snapshot& snapshot, StackId stack, bool shown, std::span<const std::string> ownPackages = {});

/// The lines of a stack; each folded run ("+38 native frames") keeps its frames' lines, for a pane to unfold (none
/// when the lines were cut short). Reads as the QStringList it shows.
struct Lines
{
    QStringList lines;
    /// The lines the folded lines stand for, in order: foldSizes[i] of them for the line foldLines[i].
    QStringList folded;
    QList<int> foldLines;
    QList<int> foldSizes;
    /// The line reading starts at (-1: none to mark), and the lines of others' frames.
    int start = -1;
    QList<int> dimmed;

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
    /// Every line, the folded ones in place of the lines that fold them.
    QStringList unfolded() const;
    bool operator==(const Lines&) const = default;
};
/// One line per frame or folded run; at most `maxLines` lines and a line for what is left out before and after, all
/// when negative. Cut short, the lines are those around where reading starts: "… 12 inner frames" above them where
/// it starts further down, "… N more frames" below.
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
