// SPDX-License-Identifier: MIT
#pragma once

// qcustomplot.h must come first: it uses `foreach`, which later Qt headers may have disabled.
#include <qcustomplot.h>

#include "timelinedetail.h"

#include <optional>

namespace RankScope {

class TimelineView;
struct TimelineTrack;
namespace ChartStyle {
class AllocationColors;
}

/// Paints one track's plot: its level of detail as bands of pixel rows, the remainder and the curve over them, the
/// highlighted site's bands lit (two pixels tall at least), its small allocations marked and a rug along the time axis
/// where it is live, the selected allocation outlined, the annotated
/// ranges as named strips, and the step, OOM, peak and comparison-point marks. The data lives in the view; the marks'
/// pens are here for the legend that names them too.
class TimelineBands : public QCPAbstractPlottable
{
public:
    TimelineBands(QCPAxis* key, QCPAxis* value, const TimelineView* view, int track);
    /// What to paint, owned by the view.
    void set(const TimelineTrack* track, const std::optional<TimelineDetail>* detail,
        const std::optional<uint32_t>* selected, const std::optional<uint64_t>* highlight);

    double selectTest(const QPointF&, bool, QVariant*) const override
    {
        return -1;
    }
    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override;
    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override;

    /// Lit bands in the current detail, for tests.
    int litBands() const;
    /// Columns the last paint marked on the rug along the time axis where the highlighted site is live, for tests.
    int rugColumns() const;
    /// The OOM labels as last painted (the OOM's index in the history's ooms(), the label's box), for the tooltip
    /// wherever the marker is drawn.
    const std::vector<std::pair<size_t, QRectF>>& oomLabels() const;
    /// Every box the last paint kept clear for a word: the rank's title, the ranges' names, the step, peak and OOM
    /// labels (for tests: none covers another).
    const std::vector<QRectF>& labels() const;
    /// What the last paint said over a plot left empty by the memory range (a box zoom on the other rank's memory):
    /// that the rank holds less here and how to see it; empty when the plot shows its curve.
    const QString& emptyHint() const
    {
        return m_emptyHint;
    }

    static QPen pointPen(const QPalette& palette);
    static QPen stepPen(const QPalette& palette);
    /// Annotated ranges: a translucent fill with its outline, so the bands under it still show.
    static QBrush rangeBrush(const QPalette& palette);
    static QPen rangePen(const QPalette& palette);
    static QPen oomPen();
    static QPen peakPen(const QPalette& palette);
    static QPen selectedPen(const QPalette& palette);
    /// The box under the step, OOM and peak labels, so that they read over any band, in either theme.
    static QColor labelBackground(const QPalette& palette);

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter*, const QRectF&) const override { }

private:
    void drawMarkers(QCPPainter* painter, std::vector<QRectF>& labels);
    /// Says so where the memory range shown is above all the rank holds in view.
    void drawEmptyHint(QCPPainter* painter, int64_t highest);
    /// Draws the annotated ranges, adding the boxes of their names to `labels`.
    void drawRanges(QCPPainter* painter, std::vector<QRectF>& labels) const;
    static void drawLabel(QCPPainter* painter, const QPointF& baseline, const QString& text, const QColor& color,
        const QPalette& palette);
    QRgb bandColor(const TimelineDetail::Band& band, const ChartStyle::AllocationColors& allocations) const;

    const TimelineView* m_view;
    int m_track;
    const TimelineTrack* m_data = nullptr;
    const std::optional<TimelineDetail>* m_detail = nullptr;
    const std::optional<uint32_t>* m_selected = nullptr;
    const std::optional<uint64_t>* m_highlight = nullptr;
    int m_rugColumns = 0;
    std::vector<std::pair<size_t, QRectF>> m_oomLabels;
    std::vector<QRectF> m_labels;
    QString m_emptyHint;
};

} // namespace RankScope
