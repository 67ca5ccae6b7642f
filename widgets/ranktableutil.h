// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

class QTreeView;

namespace RankScope {

/// How a table of ranks (RankListModel, or a proxy over it) fits its columns, in the window and on exported pages
/// alike: the figures at the width of their contents, the file at the width of its name, so that a failed file's
/// reason (a second line under the name) is elided there rather than pushing the figures out of sight.
namespace RankTableUtil {
void fitColumns(QTreeView* view);
/// The columns a comparison fills (coordinates with a layout, pinned host memory where recorded), the rank's figures
/// before the file's name, which goes last: the window's table and an exported page's alike.
void showColumnsOf(QTreeView* view, const Comparison& comparison);
/// The width the view needs to show every column it shows as fitColumns sized them, the file's name whole: no
/// horizontal scrolling.
int neededWidth(const QTreeView* view);
/// The width the view needs to show its key columns whole, every column from the rank to the excess (the peak, the
/// point's figures), beside a vertical scroll bar: what a narrow window must keep in sight.
int keyWidth(const QTreeView* view);
/// For a picture, which cannot scroll: hides the columns it can best do without (the snapshot's own figures, then
/// the smaller categories …) until the rest fit the view's width. The rank, file, at-point and excess columns stay.
void fitWidth(QTreeView* view);
} // namespace RankTableUtil

} // namespace RankScope
