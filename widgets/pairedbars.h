// SPDX-License-Identifier: MIT
#pragma once

// qcustomplot.h must come first: it uses `foreach`, which later Qt headers may have disabled.
#include <qcustomplot.h>

#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

class QLabel;
class QTreeWidget;
class QWidget;

namespace RankScope {

/// What the views of two runs of one job share (before and after a fix, a job against its baseline): a headline
/// tinted by its answer, and each rank's memory in the two runs as a pair of bars, the first run light on the left,
/// the second dark on the right.
namespace PairedBars {
/// Offsets of the two bars of a pair from the rank's place on the axis, and their width.
constexpr double Offset = 0.2;
constexpr double Width = 0.38;

/// The views' parts in a column under `owner`: a bold headline on a band that setAnswer tints, the details under it
/// (selectable), the plot (memory on its value axis, a legend in a row above the bars, its picture menu)
/// and the tree, whose first column takes the width left; the plot and the tree share the height as their stretches.
void layOut(QWidget* owner, QLabel* headline, QLabel* details, QCustomPlot* plot, QTreeWidget* items, int plotStretch,
    int itemsStretch);
/// The band green for a good answer, red for a bad one, plain for none yet; the palette's own text reads on it in a
/// light and a dark theme.
void setAnswer(QLabel* headline, std::optional<bool> good);

struct Pair
{
    QString label; ///< on the rank axis
    int64_t before = -1; ///< negative: no bar
    int64_t after = -1;
};
struct Bars
{
    QCPBars* before = nullptr;
    QCPBars* after = nullptr;
};
/// Clears the plot and draws a pair for each of `pairs` in order, the rank axis labelled with about 16 of them at
/// most, the value axis from 0 to above the highest bar; then the palette. The caller labels the axes and replots.
Bars draw(QCustomPlot* plot, const std::vector<Pair>& pairs, const QString& beforeName, const QString& afterName);
} // namespace PairedBars

} // namespace RankScope
