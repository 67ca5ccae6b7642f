// SPDX-License-Identifier: MIT
#pragma once

class QPoint;
class QRect;
class QSize;
class QString;
class QWidget;

namespace RankScope {

/// Hover tooltips kept inside the window they describe: Qt keeps a tooltip on the screen only, so a long one near
/// the window's edge ran past it, over whatever lies beside the window. The views that word their own tooltips (the
/// timelines, block maps, rank chart, flame graph) show them through `show`.
namespace ToolTipUtil {
/// Where a tooltip of `size` goes for a pointer at `cursor`: below and right of it as Qt places it, or left of it
/// and above it where that runs past `bounds`, and inside `bounds` in any case (from its top left corner when it is
/// larger). All in global coordinates.
QPoint place(const QSize& size, const QPoint& cursor, const QRect& bounds);
/// Rich text that wraps: the lines of a <pre> block (a stack) break at the tooltip's width instead of widening it.
QString wrapping(const QString& text);
/// Shows `text` (hides the tooltip when it is empty) for a pointer at `globalPos` over `widget`, inside the window of
/// `widget`.
void show(const QPoint& globalPos, const QString& text, QWidget* widget);
} // namespace ToolTipUtil

} // namespace RankScope
