// SPDX-License-Identifier: MIT
#pragma once

class QTreeView;

namespace RankScope {

/// How a table of findings (FindingsModel, or a proxy over it) is shown, in the window and on exported pages alike:
/// the site first and widest, elided in the middle so both the innermost frame and the caller stay readable (the
/// whole stack is its tooltip), the figures after it at the width of their contents.
namespace FindingsTableUtil {
void setUp(QTreeView* view);
/// Fits the figure columns to their contents once the findings are in.
void fitColumns(QTreeView* view);
} // namespace FindingsTableUtil

} // namespace RankScope
