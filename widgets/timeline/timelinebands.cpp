// SPDX-License-Identifier: MIT
#include "timelinebands.h"

#include "annotationranges.h"
#include "chartstyle.h"
#include "exportableplot.h"
#include "formatting.h"
#include "profilerstep.h"
#include "rectlayer.h"
#include "timelineview.h"

#include <algorithm>
#include <cmath>

namespace RankScope {

namespace {

// Each stretch of consecutive live columns, as [first, end).
template <typename Visit> void forEachLiveRun(const std::vector<bool>& live, size_t columns, Visit visit)
{
    for (size_t c = 0; c < columns;) {
        if (!live[c]) {
            ++c;
            continue;
        }
        size_t end = c;
        while (end < columns && live[end])
            ++end;
        visit(c, end);
        c = end;
    }
}

} // namespace

TimelineBands::TimelineBands(QCPAxis* key, QCPAxis* value, const TimelineView* view, int track)
    : QCPAbstractPlottable(key, value)
    , m_view(view)
    , m_track(track)
{
    setSelectable(QCP::stNone);
}

void TimelineBands::set(const TimelineTrack* track, const std::optional<TimelineDetail>* detail,
    const std::optional<uint32_t>* selected, const std::optional<uint64_t>* highlight)
{
    m_data = track;
    m_detail = detail;
    m_selected = selected;
    m_highlight = highlight;
}

QCPRange TimelineBands::getKeyRange(bool& found, QCP::SignDomain) const
{
    found = m_data && m_data->history;
    if (!found)
        return {};
    return QCPRange(m_view->keyOf(m_track, BeforeTrace), m_view->keyOf(m_track, m_data->history->eventCount()));
}

QCPRange TimelineBands::getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const
{
    found = m_data && m_data->history;
    return found ? QCPRange(0, double(std::max(m_data->history->peakBytes(), TimelineView::oomTop(*m_data->history))))
                 : QCPRange();
}

int TimelineBands::rugColumns() const
{
    return m_rugColumns;
}

int TimelineBands::litBands() const
{
    if (!m_detail || !*m_detail || !*m_highlight)
        return 0;
    int n = 0;
    for (const TimelineDetail::Band& b : (*m_detail)->bands)
        n += b.fingerprint == **m_highlight;
    return n;
}

// The marks drawn over the bands, and the legend that names them: one definition for both.
QPen TimelineBands::pointPen(const QPalette& palette)
{
    QColor color = ChartStyle::accentColor(palette);
    color.setAlpha(150);
    return QPen(color, 1, Qt::DashLine);
}

QPen TimelineBands::stepPen(const QPalette& palette)
{
    return QPen(ChartStyle::annotationColor(palette), 1, Qt::DotLine);
}

QBrush TimelineBands::rangeBrush(const QPalette& palette)
{
    QColor color = ChartStyle::annotationRangeColor(palette);
    color.setAlpha(55);
    return color;
}

QPen TimelineBands::rangePen(const QPalette& palette)
{
    QColor color = ChartStyle::annotationRangeColor(palette);
    color.setAlpha(190);
    return QPen(color, 1);
}

QPen TimelineBands::oomPen()
{
    return QPen(ChartStyle::alertColor(), 1.5);
}

QPen TimelineBands::peakPen(const QPalette& palette)
{
    return QPen(ChartStyle::accentColor(palette), 1);
}

QPen TimelineBands::selectedPen(const QPalette& palette)
{
    return QPen(ChartStyle::accentColor(palette), 2);
}

QColor TimelineBands::labelBackground(const QPalette& palette)
{
    QColor color = palette.color(QPalette::Base);
    color.setAlpha(230);
    return color;
}

void TimelineBands::drawLabel(
    QCPPainter* painter, const QPointF& baseline, const QString& text, const QColor& color, const QPalette& palette)
{
    const QFontMetricsF metrics(painter->font());
    const QRectF box(baseline.x() - 2, baseline.y() - metrics.ascent() - 1, metrics.horizontalAdvance(text) + 4,
        metrics.ascent() + metrics.descent() + 2);
    painter->save();
    painter->setPen(Qt::NoPen);
    painter->setBrush(labelBackground(palette));
    painter->drawRoundedRect(box, 2, 2);
    painter->restore();
    painter->setPen(color);
    painter->drawText(baseline, text);
}

QRgb TimelineBands::bandColor(const TimelineDetail::Band& band, const ChartStyle::AllocationColors& allocations) const
{
    // Unlit and by allocation, the bands of most replots: from the table. A colour to be tinted or faded keeps the
    // precision of its HSV.
    if (!*m_highlight && m_view->bandColoring() == TimelineView::ColorByAllocation)
        return allocations.rgb(band.allocation);
    const QPalette& palette = m_view->palette();
    const QColor color = m_view->bandColoring() == TimelineView::ColorByCategory
        ? ChartStyle::categoryColor(band.category, palette)
        : m_view->bandColoring() == TimelineView::ColorBySite ? band.siteColor
                                                              : ChartStyle::allocationColor(band.allocation, palette);
    if (!*m_highlight)
        return color.rgba();
    return (band.fingerprint == **m_highlight ? ChartStyle::tinted(color, palette) : ChartStyle::faded(color, palette))
        .rgba();
}

void TimelineBands::draw(QCPPainter* painter)
{
    if (!m_data || !m_detail || !*m_detail)
        return;
    if (const auto* plot = qobject_cast<const ExportablePlot*>(mParentPlot); plot && !plot->drawnForSomeone())
        return;
    const TimelineDetail& d = **m_detail;
    const TimelineLod& lod = d.lod;
    const size_t columns = size_t(lod.columns);
    // Whole pixels: bands are axis-aligned rectangles that must meet without seams or overlaps.
    std::vector<int> xs(columns + 1);
    for (size_t c = 0; c <= columns; ++c)
        xs[c] = int(std::lround(mKeyAxis->coordToPixel(d.keys[c])));
    // The memory axis is linear: one multiply-add per edge instead of a call through the axis, for millions of edges.
    const double y0 = mValueAxis->coordToPixel(0);
    const double yScale = mValueAxis->coordToPixel(1e9) - y0;
    // Nearest pixel, rounded the same way above and below zero.
    const auto y = [y0, yScale](double v) { return ChartStyle::nearestPixel(y0 + v * 1e-9 * yScale); };
    painter->setAntialiasing(false);
    const QPalette& palette = m_view->palette();
    m_rugColumns = 0;

    // The comparison point, behind the data so it never hides a thin band.
    const QRect area = mKeyAxis->axisRect()->rect();
    const double point = mKeyAxis->coordToPixel(m_view->keyOf(m_track, m_data->point));
    painter->setPen(pointPen(palette));
    painter->drawLine(QPointF(point, area.top()), QPointF(point, area.bottom()));

    // Each band as rectangles: one per stretch of columns where its top and bottom stay on the same pixel rows, so
    // a band that does not move is one rectangle however many columns it spans.
    // The detail's pixel rows on the axis as it is now (the same rows unless the memory axis changed since).
    const auto rowYOf = [&](int64_t row) { return y(d.valueLower + double(row) * d.valuePerPixel); };
    // Every run's two edges are rows: those on the plot (nearly all of them) are looked up, computed once each here,
    // where converting each edge took a third of the replot of the 1 GB rank's 9,261 bands. Any other row (the axis
    // zoomed far from the detail's rows) is computed as it comes, the same way.
    const QCPRange shown = mValueAxis->range();
    const double firstShown = std::floor((shown.lower - d.valueLower) / d.valuePerPixel) - 2;
    const double rowsShown = std::ceil((shown.upper - shown.lower) / d.valuePerPixel) + 5;
    const bool tabled = std::isfinite(firstShown) && std::abs(firstShown) < 1e15 && rowsShown > 0 && rowsShown < 65536;
    const int64_t firstRow = tabled ? int64_t(firstShown) : 0;
    std::vector<int> rowPixels(tabled ? size_t(rowsShown) : 0);
    for (size_t i = 0; i < rowPixels.size(); ++i)
        rowPixels[i] = rowYOf(firstRow + int64_t(i));
    const auto rowY = [&](int row) {
        const auto i = uint64_t(int64_t(row) - firstRow);
        return i < rowPixels.size() ? rowPixels[size_t(i)] : rowYOf(row);
    };
    // A lit band is never thinner than two pixels: the finding's allocations are seen at a memory scale that gives
    // them a sliver of a pixel each (32 of 128 MiB on a 51 GiB axis 200 pixels tall).
    const auto forEachRect = [&](size_t k, auto&& sink, bool lit = false) {
        const int end = lod.firstColumn[k] + lod.columnCount[k];
        int runStart = -1;
        int runTop = 0;
        int runBottom = 0;
        const auto flush = [&](int until) {
            if (runStart < 0 || (runTop >= runBottom && !lit))
                return;
            const int top = lit ? std::min(runTop, runBottom - 2) : runTop;
            sink(QRectF(xs[size_t(runStart)], top, xs[size_t(until)] - xs[size_t(runStart)], runBottom - top));
        };
        for (size_t r = d.runStart[k]; r < d.runStart[k + 1]; ++r) {
            const int bottom = rowY(d.runBottom[r]);
            const int top = rowY(d.runTop[r]);
            if (runStart >= 0 && top == runTop && bottom == runBottom)
                continue;
            flush(d.runColumn[r]);
            runStart = d.runColumn[r];
            runTop = top;
            runBottom = bottom;
        }
        flush(end);
    };
    // Where the highlighted site is live, a faint column across the plot behind the data: above the curve it shows
    // where the finding is at a glance, however small its tensors and however short their lives.
    std::vector<bool> live(columns, false);
    if (*m_highlight) {
        for (size_t k = 0; k < d.bands.size(); ++k) {
            if (d.bands[k].fingerprint == **m_highlight)
                std::fill_n(live.begin() + lod.firstColumn[k], lod.columnCount[k], true);
        }
        if (d.lit == *m_highlight) {
            for (size_t c = 0; c < d.litBelow.size() && c < columns; ++c)
                live[c] = live[c] || d.litBelow[c] > 0;
        }
        QColor tint = ChartStyle::findingColor(palette);
        tint.setAlpha(70);
        forEachLiveRun(live, columns, [&](size_t c, size_t end) {
            // A stretch wide enough to see needs no column: its tinted bands show it.
            if (xs[end] - xs[c] >= 24)
                return;
            const int left = xs[c];
            const int width = std::max(xs[end] - left, 7);
            painter->fillRect(QRect(left + (xs[end] - left - width) / 2, area.top(), width, area.height()), tint);
        });
    }

    // The highlighted site's bands last and at least three pixels wide, so that a tensor that lives a moment is
    // still seen at the zoom that shows the whole trace.
    // One layer per band, kept from one replot to the next with the room their rectangles took: growing the 1 GB
    // rank's 9,631 vectors again at every replot was a tenth of it. Replots are on the GUI thread, one after another,
    // so the views share them.
    thread_local std::vector<RectLayer> layers;
    size_t used = 0;
    const ChartStyle::AllocationColors allocationColors(palette);
    for (const bool lit : { false, true }) {
        for (size_t k = 0; k < d.bands.size(); ++k) {
            const bool isLit = *m_highlight && d.bands[k].fingerprint == **m_highlight;
            if (isLit != lit)
                continue;
            if (used == layers.size())
                layers.emplace_back();
            RectLayer& layer = layers[used++];
            layer.color = bandColor(d.bands[k], allocationColors);
            layer.rects.clear();
            forEachRect(
                k,
                [&](const QRectF& r) {
                    layer.rects.push_back(
                        isLit && r.width() < 3 ? r.adjusted((r.width() - 3) / 2, 0, (3 - r.width()) / 2, 0) : r);
                },
                isLit);
        }
        if (!*m_highlight)
            break;
    }
    drawRectLayers(*painter, area, std::span<const RectLayer>(layers.data(), used));

    // What is too small for a band of its own, on top of the bands as the official viewer stacks it.
    // Its top is the curve, outlined below.
    QPolygonF outline, restBottom;
    for (size_t c = 0; c < columns; ++c) {
        const double top = y(double(lod.maxTotal[c]));
        const double bottom = y(double(lod.bandsTop[c]));
        outline << QPointF(xs[c], top) << QPointF(xs[c + 1], top);
        restBottom << QPointF(xs[c], bottom) << QPointF(xs[c + 1], bottom);
    }
    std::reverse(restBottom.begin(), restBottom.end());
    QColor restColor = ChartStyle::summarizedColor();
    if (*m_highlight)
        restColor = ChartStyle::faded(restColor, palette);
    painter->setBrush(restColor);
    painter->setPen(Qt::NoPen);
    painter->drawPolygon(outline + restBottom);

    // The highlighted site's allocations too small for a band: marked at their time where the remainder starts, a
    // few pixels tall at least, so that a finding made of small tensors is still seen.
    if (!d.litBelow.empty() && d.lit == *m_highlight) {
        const QColor mark = ChartStyle::findingColor(palette);
        for (size_t c = 0; c < columns; ++c) {
            if (d.litBelow[c] <= 0)
                continue;
            const int bottom = y(double(lod.bandsTop[c]));
            const int top = std::min(y(double(lod.bandsTop[c] + d.litBelow[c])), bottom - 3);
            const int left = xs[c];
            const int right = std::max(xs[c + 1], left + 3);
            painter->fillRect(QRect(QPoint(left, top), QPoint(right - 1, bottom - 1)), mark);
        }
    }

    // A rug along the time axis wherever the highlighted site is live, over the bands, at every zoom and memory
    // scale: the finding is found by looking along the axis, whatever the bands above it show.
    if (*m_highlight) {
        const int rug = std::max(4, area.height() / 40);
        forEachLiveRun(live, columns, [&](size_t c, size_t end) {
            const int width = std::max(xs[end] - xs[c], 2);
            painter->fillRect(QRect(xs[c], area.bottom() - rug + 1, width, rug), ChartStyle::findingColor(palette));
            m_rugColumns += int(end - c);
        });
    }

    painter->setBrush(Qt::NoBrush);
    QColor outlineColor = ChartStyle::accentColor(palette);
    outlineColor.setAlpha(170);
    painter->setPen(QPen(outlineColor, 1));
    painter->drawPolyline(outline);

    if (*m_selected) {
        painter->setPen(selectedPen(palette));
        painter->setBrush(Qt::NoBrush);
        for (size_t k = 0; k < d.bands.size(); ++k) {
            if (d.bands[k].allocation == **m_selected)
                forEachRect(k, [&](const QRectF& r) { painter->drawRect(r); });
        }
    }
    std::vector<QRectF> labels;
    drawRanges(painter, labels);
    drawMarkers(painter, labels);
    drawEmptyHint(painter, columns > 0 ? *std::max_element(lod.maxTotal.begin(), lod.maxTotal.end()) : 0);
}

void TimelineBands::drawEmptyHint(QCPPainter* painter, int64_t highest)
{
    // A box drawn over one rank's memory sets both ranks' memory axes (one scale): the other rank, holding less, is
    // then an empty plot that looks like no data at all.
    m_emptyHint.clear();
    const QCPRange memory = mValueAxis->range();
    if (memory.lower <= 0 || double(highest) >= memory.lower)
        return;
    m_emptyHint = QObject::tr("Rank %1 holds at most %2 here, below the memory range shown (%3 to %4). Press Y or "
                              "Home to see it.")
                      .arg(m_data->rank)
                      .arg(Formatting::bytes(highest), Formatting::bytes(int64_t(memory.lower)),
                          Formatting::bytes(int64_t(memory.upper)));
    const QRect area = mKeyAxis->axisRect()->rect();
    const QPalette& palette = m_view->palette();
    painter->save();
    painter->setPen(palette.color(QPalette::PlaceholderText));
    painter->drawText(area.adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, m_emptyHint);
    painter->restore();
}

void TimelineBands::drawRanges(QCPPainter* painter, std::vector<QRectF>& labels) const
{
    const std::vector<AnnotationRanges::Strip> strips = m_view->annotationStrips(m_track);
    if (strips.empty())
        return;
    const QPalette& palette = m_view->palette();
    const QPen outline = rangePen(palette);
    const QBrush fill = rangeBrush(palette);
    // The markers drawn next take their font from the painter's.
    painter->save();
    const QFont font = m_view->markerFont();
    painter->setFont(font);
    const QFontMetricsF metrics(font);
    painter->setAntialiasing(false);
    for (const AnnotationRanges::Strip& strip : strips) {
        const QRectF r = m_view->stripRect(m_track, strip);
        painter->setPen(outline);
        if (r.width() < AnnotationRanges::MinWidth) {
            const double x = std::floor(r.left()) + 0.5;
            painter->drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
            continue;
        }
        painter->setBrush(fill);
        painter->drawRect(r.adjusted(0, 0, -1, 0));
        // A name only where it fits a few letters: a strip of "n…" says nothing the tooltip does not.
        if (r.width() < metrics.averageCharWidth() * 4 + 6)
            continue;
        const QString label = metrics.elidedText(m_view->stripLabel(m_track, strip), Qt::ElideRight, r.width() - 6);
        painter->setPen(palette.color(QPalette::Text));
        painter->drawText(QPointF(r.left() + 3, r.top() + metrics.ascent() + 1), label);
        labels.push_back(QRectF(r.left() + 1, r.top(), metrics.horizontalAdvance(label) + 4, metrics.height() + 2));
    }
    painter->restore();
}

void TimelineBands::drawMarkers(QCPPainter* painter, std::vector<QRectF>& labels)
{
    const DeviceHistory& h = *m_data->history;
    const QRect area = mKeyAxis->axisRect()->rect();
    const auto x = [&](EventIndex e) { return mKeyAxis->coordToPixel(m_view->keyOf(m_track, e)); };
    QFont font = painter->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    painter->setFont(font);
    const QFontMetrics metrics(font);
    painter->setAntialiasing(true);

    // Profiler steps, labelled where there is room; every other annotation is a range (drawRanges).
    double lastLabel = -1e9;
    const QPalette& palette = m_view->palette();
    const QColor annotation = ChartStyle::annotationColor(palette);
    for (const ProfilerStep::Step& step : ProfilerStep::steps(h)) {
        const AnnotationSpan& span = *step.span;
        if (!span.hasStart)
            continue;
        const double px = x(span.startEvent);
        if (px < area.left() || px > area.right())
            continue;
        painter->setPen(stepPen(palette));
        painter->drawLine(QPointF(px, area.top()), QPointF(px, area.bottom()));
        const QString name = AnnotationRanges::name(h, span);
        if (px - lastLabel > metrics.horizontalAdvance(name) + 8) {
            const QPointF baseline(px + 3, area.bottom() - 4);
            drawLabel(painter, baseline, name, annotation, palette);
            labels.push_back(QRectF(baseline.x() - 2, baseline.y() - metrics.ascent() - 1,
                metrics.horizontalAdvance(name) + 4, metrics.height() + 2));
            lastLabel = px;
        }
    }

    // Labels never cover the rank's title, a range's name or each other: one that would moves down a line at a time.
    labels.push_back(QRectF(m_view->titleRect(m_track)));
    const auto boxOf = [&](const QPointF& baseline, const QString& text) {
        return QRectF(baseline.x() - 2, baseline.y() - metrics.ascent() - 1, metrics.horizontalAdvance(text) + 4,
            metrics.height() + 2);
    };
    const auto place = [&](QPointF baseline, const QString& text) {
        for (int tries = 0; tries < 40 && baseline.y() + metrics.descent() < area.bottom(); ++tries) {
            const QRectF box = boxOf(baseline, text);
            const auto over =
                std::find_if(labels.begin(), labels.end(), [&](const QRectF& r) { return r.intersects(box); });
            if (over == labels.end())
                break;
            baseline.setY(over->bottom() + metrics.ascent() + 2);
        }
        labels.push_back(boxOf(baseline, text));
        return baseline;
    };

    // OOMs first to claim their labels' place, drawn last, over everything else: where the allocator gave up.
    struct OomLabel
    {
        double x;
        QPointF baseline;
        QString text;
    };
    std::vector<OomLabel> oomLabels;
    m_oomLabels.clear();
    for (size_t i = 0; i < h.ooms().size(); ++i) {
        const OomMarker& oom = h.ooms()[i];
        const double px = x(oom.event);
        if (px < area.left() - 20 || px > area.right() + 1)
            continue;
        const QString label = QObject::tr("OOM: %1").arg(Formatting::bytes(oom.requestedBytes));
        // Left of the line where the room to its right is too narrow for the label.
        const double width = metrics.horizontalAdvance(label);
        const double left = px + width + 8 > area.right() ? px - width - 6 : px + 4;
        const QPointF baseline = place(QPointF(left, area.top() + metrics.ascent() + 2), label);
        oomLabels.push_back({ px, baseline, label });
        m_oomLabels.emplace_back(i, boxOf(baseline, label));
    }

    // The peak: a diamond on the curve with its figure.
    if (h.eventCount() > 0) {
        const QPointF at(x(h.peakEvent()), mValueAxis->coordToPixel(double(h.peakBytes())));
        QPolygonF diamond;
        diamond << at + QPointF(0, -5) << at + QPointF(5, 0) << at + QPointF(0, 5) << at + QPointF(-5, 0);
        painter->setPen(peakPen(palette));
        painter->setBrush(ChartStyle::alertColor());
        painter->drawPolygon(diamond);
        const QString label = QObject::tr("peak %1").arg(Formatting::bytes(h.peakBytes()));
        const double width = metrics.horizontalAdvance(label);
        const double left = at.x() + width + 12 > area.right() ? at.x() - width - 8 : at.x() + 8;
        drawLabel(painter, place(QPointF(left, std::max<double>(at.y() + 4, area.top() + metrics.ascent())), label),
            label, peakPen(palette).color(), palette);
    }

    // The failed request as what it is: a bar of its size over what was held when it was made, just past the event,
    // in the room the view keeps to the right of an OOM; its line across the plot, its label on top.
    size_t k = 0;
    for (const OomMarker& oom : h.ooms()) {
        const double px = x(oom.event);
        if (px < area.left() - 20 || px > area.right() + 1)
            continue;
        const QRectF bar = m_view->oomBar(m_track, oom);
        QColor fill = ChartStyle::alertColor();
        fill.setAlpha(90);
        painter->setPen(QPen(ChartStyle::alertColor(), 1));
        painter->setBrush(fill);
        painter->drawRect(bar);
        painter->setBrush(QBrush(ChartStyle::alertColor(), Qt::BDiagPattern));
        painter->drawRect(bar);
        painter->setPen(oomPen());
        painter->drawLine(QPointF(px, area.top()), QPointF(px, area.bottom()));
        const OomLabel& l = oomLabels[k++];
        drawLabel(painter, l.baseline, l.text, oomPen().color(), palette);
    }
    m_labels = labels;
}

const std::vector<QRectF>& TimelineBands::labels() const
{
    return m_labels;
}

const std::vector<std::pair<size_t, QRectF>>& TimelineBands::oomLabels() const
{
    return m_oomLabels;
}

} // namespace RankScope
