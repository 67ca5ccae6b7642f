// SPDX-License-Identifier: MIT
#pragma once

class QFontMetrics;
class QModelIndex;
class QString;
class QTreeView;

namespace RankScope {

/// How a table of findings (FindingsModel, or a proxy over it) is shown, in the window and on exported pages alike:
/// the site first and widest, elided in the middle so both the innermost frame and the caller stay readable (the
/// whole stack is its tooltip), the figures after it at the width of their contents.
namespace FindingsTableUtil {
void setUp(QTreeView* view);
/// A table of figures beside one text column (a site, a frame): the text takes what the figures leave, up to its
/// longest line, and follows the view's width and the rows shown (a tree's branch opened). Call refitTextColumn when
/// the rows or the figures' widths change otherwise.
void fitTextColumn(QTreeView* view, int column);
void refitTextColumn(QTreeView* view, int column);
/// Fits the figure columns to their contents once the findings are in.
void fitColumns(QTreeView* view);
/// For a picture, which cannot scroll and whose vector formats do not clip a header to its view: hides the figures it
/// can best do without (the runs, the counts, the baseline's bytes) until the rest fit beside the site's share.
void fitWidth(QTreeView* view);
/// What a filter adds after a site cell's site: the frame it found in the finding's stack (" — found in evaluate
/// (train.py:301)"), empty where it names none.
QString foundIn(const QModelIndex& index);
/// A site cell's text as drawn in `width` pixels: elided in the middle, except for the frame the filter found at its
/// end (`found`), kept whole: it is why the row is in the table.
QString elidedSite(const QString& text, const QString& found, const QFontMetrics& metrics, int width);
} // namespace FindingsTableUtil

} // namespace RankScope
