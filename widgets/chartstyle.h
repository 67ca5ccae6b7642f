// SPDX-License-Identifier: MIT
#pragma once

// qcustomplot.h must come first: it uses `foreach`, which later Qt headers may have disabled.
#include <qcustomplot.h>

#include "categories.h"

#include <QColor>

#include <cstdint>
#include <vector>

namespace RankScope {

/// Memory axis ticks at powers of two of a binary unit, labelled "512 MiB", "1 GiB": they read better than
/// decimal steps for memory.
class BytesTicker : public QCPAxisTicker
{
protected:
    double getTickStep(const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

/// Count axis ticks (events, steps) labelled "250 k", "1.6 M" rather than "1.6·10⁶".
class CountTicker : public QCPAxisTicker
{
public:
    static QString label(double value);

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

/// Ticks at the training steps a chart has, about one per tick step (set the tick count from the axis's width), so
/// that step labels do not run into each other however many steps there are.
class StepTicker : public QCPAxisTicker
{
public:
    /// The steps, in any order.
    void setSteps(std::vector<int64_t> steps);

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    std::vector<int64_t> m_steps;
};

/// Colours shared by every view, so that one thing looks the same everywhere.
namespace ChartStyle {
/// The whole pixel nearest to `t`, halves up: floor(t + 0.5) for any t well inside an int's range. std::floor is a
/// library call on the baseline x86-64 the project builds for, and a timeline rounds millions of band edges.
constexpr int nearestPixel(double t)
{
    const double u = t + 0.5;
    const int i = int(u);
    return i - (u < double(i));
}
/// How much a wheel notch zooms in every view (timelines, their overview, block maps): six notches about four times.
constexpr double WheelZoomStep = 1.25;
/// The colour of a site, from SiteTable::fingerprint: the same code has the same colour on every rank and in
/// every view.
QColor siteColor(uint64_t fingerprint);
/// The same as an opaque QRgb, for views that colour a hundred thousand blocks a paint.
QRgb siteRgb(uint64_t fingerprint);
/// The colour of one allocation on the timelines: a stable hue per allocation index, consecutive allocations far
/// apart on the colour wheel, so neighbouring bands differ. Reds (alerts), magentas (findings) and greys (the
/// remainder) are left out, so no allocation looks like a marker.
QColor allocationColor(uint32_t allocation, const QPalette& palette);
/// allocationColor's colours on one palette as opaque QRgb, looked up in a table of all of them: a replot colours
/// thousands of bands, each converted from HSV before.
class AllocationColors
{
public:
    explicit AllocationColors(const QPalette& palette);
    /// allocationColor(allocation, palette).rgba().
    QRgb rgb(uint32_t allocation) const;

private:
    const QRgb* m_table = nullptr;
};
/// A selected finding's allocations: its bands are tinted with it and its allocations too small to see are marked
/// in it. A colour no band, block or marker uses otherwise.
QColor findingColor(const QPalette& palette);
/// `color` tinted with findingColor, for a finding's bands.
QColor tinted(const QColor& color, const QPalette& palette);
/// `color` faded towards the background, for what is not the selected finding.
QColor faded(const QColor& color, const QPalette& palette);
/// The outlier, OOM markers and pending-free blocks.
QColor alertColor();
/// The comparison point and outlines of the selected finding: the palette's text colour, so it stands out on a
/// light and a dark background alike.
QColor accentColor(const QPalette& palette);
/// Allocations too small to get a band of their own.
QColor summarizedColor();
/// The rank chart's bars: a rank's peak (wide, light on a light background, lighter than the at-point bar on a dark
/// one) and what it holds at the comparison point, each readable against `palette`'s base.
QColor peakBarColor(const QPalette& palette);
QColor pointBarColor(const QPalette& palette);
/// A category of memory (parameters, activations …), the same in every chart, readable against `palette`'s base.
QColor categoryColor(Category category, const QPalette& palette);
/// Marks drawn over plots that are not data (step boundaries and their names): the text colour, a little softened.
QColor annotationColor(const QPalette& palette);
/// Annotated ranges (record_function scopes, NCCL collectives), filled translucent over the bands near the top of a
/// plot: a slate blue, dark on a light base and light on a dark one, so that their outlines and the lines of ranges
/// too short to see read on either.
QColor annotationRangeColor(const QPalette& palette);
/// The verdict banner's background for a verdict of colour `kind`: a light tint on a light palette, a dark one on a
/// dark palette, so the palette's own text reads on it (a light pink banner glared in the dark theme).
QColor bannerColor(const QColor& kind, const QPalette& palette);
/// A mix of two colours, `share` of the first.
QColor mixed(const QColor& a, const QColor& b, double share);
/// WCAG contrast ratio of two colours (1 to 21).
double contrast(const QColor& a, const QColor& b);
/// The dark theme's palette (Appearance's DarkTheme), here so that the widgets' tests measure what it shows.
QPalette darkPalette();
/// Background, axes, grid, labels and legend of a plot in the widget palette's colours, so plots follow a light or
/// dark theme. Call again when the palette changes.
void applyPalette(QCustomPlot* plot, const QPalette& palette);
} // namespace ChartStyle

} // namespace RankScope
