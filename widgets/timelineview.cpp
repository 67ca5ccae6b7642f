// SPDX-License-Identifier: MIT
#include "chartstyle.h"
#include "exportableplot.h"

#include "timelineview.h"
#include "verdicttext.h"

#include "formatting.h"
#include "imageexport.h"
#include "profilerstep.h"
#include "retranslator.h"
#include "stacktext.h"
#include "tracealignment.h"

#include "legend.h"
#include "rectlayer.h"
#include "stackpane.h"
#include "timelineoverview.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QSettings>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace RankScope {

namespace {

struct BandInfo
{
    uint32_t allocation = 0;
    int64_t size = 0;
    uint64_t fingerprint = 0;
    QColor siteColor;
    Category category = Category::Other;
    QString label;
};

/// One level-of-detail result: the decimated curve and bands, and the x key of each column boundary.
struct Detail
{
    TimelineLod lod;
    std::vector<BandInfo> bands;
    std::vector<double> keys; // columns + 1
    /// The pixel rows of the memory axis the request was made for: row r is the value valueLower + r·valuePerPixel.
    double valueLower = 0;
    double valuePerPixel = 1;
    /// Per band, the columns where its edges move to other pixel rows, and its bottom and top rows from there: runs
    /// [runStart[k], runStart[k + 1]) of runColumn, runBottom and runTop. Drawing walks these, not every column of
    /// every band. Rounding each edge, not each height, keeps the stack exact: a sliver of a pixel gets the row it
    /// covers most of, or none.
    std::vector<size_t> runStart;
    std::vector<int> runColumn;
    std::vector<int> runBottom;
    std::vector<int> runTop;
    /// With a site highlighted: per column, the bytes of its allocations too small for a band (else empty).
    std::vector<int64_t> litBelow;
    std::optional<uint64_t> lit;
};

// The marks drawn over the bands, and the legend that names them: one definition for both.
QPen pointPen(const QPalette& palette)
{
    QColor color = ChartStyle::accentColor(palette);
    color.setAlpha(150);
    return QPen(color, 1, Qt::DashLine);
}

QPen stepPen(const QPalette& palette)
{
    return QPen(ChartStyle::annotationColor(palette), 1, Qt::DotLine);
}

// Annotated ranges: a translucent fill with its outline, so the bands under it still show.
QBrush rangeBrush(const QPalette& palette)
{
    QColor color = ChartStyle::annotationRangeColor(palette);
    color.setAlpha(55);
    return color;
}

QPen rangePen(const QPalette& palette)
{
    QColor color = ChartStyle::annotationRangeColor(palette);
    color.setAlpha(190);
    return QPen(color, 1);
}

const QString RangesKey = QStringLiteral("timeline/annotationRanges");

QString spanName(const DeviceHistory& h, const AnnotationSpan& span)
{
    return Formatting::text(h.snapshot().strings.view(span.name));
}

QPen oomPen()
{
    return QPen(ChartStyle::alertColor(), 1.5);
}

QPen peakPen(const QPalette& palette)
{
    return QPen(ChartStyle::accentColor(palette), 1);
}

QPen selectedPen(const QPalette& palette)
{
    return QPen(ChartStyle::accentColor(palette), 2);
}

/// What a detail job needs besides the axis.
struct DetailRequest
{
    EventIndex first = 0;
    EventIndex last = 0;
    int columns = 1;
    int64_t minBandBytes = 1;
    size_t maxBands = 0;
    double valueLower = 0;
    double valuePerPixel = 1;
    SiteOptions site;
    CategoriesPtr categories;
    std::optional<uint64_t> lit;

    bool operator==(const DetailRequest&) const = default;
};

/// Event index → x key on one of the axes. Copied into detail jobs, so it holds what it needs by value.
struct AxisMap
{
    TimelineView::XAxis axis = TimelineView::EventAxis;
    DeviceHistoryPtr history;
    /// Step axis: the event after which each profiler step starts, then the last event; and the first step's number.
    std::vector<EventIndex> stepBounds;
    int64_t firstStep = 0;
    /// Aligned axis: (event of the top track, event of this one) pairs, increasing in both; none for the top track.
    std::shared_ptr<const std::vector<std::pair<EventIndex, EventIndex>>> aligned;

    static std::vector<std::pair<EventIndex, int64_t>> steps(const DeviceHistory& h)
    {
        std::vector<std::pair<EventIndex, int64_t>> steps;
        for (const ProfilerStep::Step& step : ProfilerStep::steps(h)) {
            if (step.span->hasStart)
                steps.emplace_back(step.span->startEvent, step.number);
        }
        std::sort(steps.begin(), steps.end());
        return steps;
    }

    AxisMap(TimelineView::XAxis a, DeviceHistoryPtr h,
        std::shared_ptr<const std::vector<std::pair<EventIndex, EventIndex>>> anchors = {})
        : axis(a)
        , history(std::move(h))
        , aligned(std::move(anchors))
    {
        if (axis != TimelineView::StepAxis)
            return;
        const auto list = steps(*history);
        if (list.empty())
            return;
        firstStep = list.front().second;
        for (const auto& [event, number] : list) {
            if (stepBounds.empty() || event > stepBounds.back())
                stepBounds.push_back(event);
        }
        stepBounds.push_back(std::max(stepBounds.back() + 1, EventIndex(history->eventCount()) - 1));
    }

    double key(EventIndex event) const
    {
        const DeviceHistory& h = *history;
        if (axis == TimelineView::EventAxis || (axis == TimelineView::StepAxis && stepBounds.empty()))
            return double(event);
        if (axis == TimelineView::AlignedAxis)
            return alignedKey(event);
        if (axis == TimelineView::StepAxis) {
            // Step i spans its start to the next step's start: x = first step + i + the fraction of the way through.
            const auto it = std::upper_bound(stepBounds.begin(), stepBounds.end(), event);
            if (it == stepBounds.begin())
                return double(firstStep) - 1 + double(event + 1) / double(stepBounds.front() + 1);
            const size_t i = size_t(it - stepBounds.begin()) - 1;
            if (i + 1 >= stepBounds.size())
                return double(firstStep) + double(i) + double(event - stepBounds[i]) * 1e-9;
            return double(firstStep) + double(i)
                + double(event - stepBounds[i]) / double(stepBounds[i + 1] - stepBounds[i]);
        }
        const EventIndex n = EventIndex(h.eventCount());
        if (n == 0)
            return 0;
        const int64_t t0 = h.timeUs(0);
        return double(h.timeUs(std::clamp<EventIndex>(event, 0, n - 1)) - t0) / 1e6;
    }

    // Between two anchors, events are spread evenly; before the first and after the last they keep their spacing.
    double alignedKey(EventIndex event) const
    {
        if (!aligned || aligned->empty())
            return double(event);
        const auto& v = *aligned;
        const auto next = std::upper_bound(
            v.begin(), v.end(), event, [](EventIndex e, const auto& anchor) { return e < anchor.second; });
        if (next == v.begin())
            return double(v.front().first + (event - v.front().second));
        const auto& [topPrev, ownPrev] = *std::prev(next);
        if (next == v.end())
            return double(topPrev + (event - ownPrev));
        return double(topPrev)
            + double(event - ownPrev) * double(next->first - topPrev) / double(next->second - ownPrev);
    }
};

// Per column, the bytes of the allocations of site `lit` live there that are not bands: they are too small to see,
// so the view marks where they are.
std::vector<int64_t> litBelowBands(
    const DeviceHistory& h, const TimelineLod& lod, uint64_t lit, const SiteOptions& site)
{
    std::vector<bool> isBand(h.allocations().size(), false);
    for (uint32_t b : lod.bands)
        isBand[b] = true;
    std::vector<uint32_t> hidden;
    std::vector<StackId> stacks;
    for (size_t i = 0; i < h.allocations().size(); ++i) {
        const Allocation& a = h.allocations()[i];
        if (isBand[i] || !a.liveDuring(lod.first, lod.last) || a.size <= 0)
            continue;
        hidden.push_back(uint32_t(i));
        stacks.push_back(a.stack);
    }
    // One site lookup per distinct stack.
    std::vector<StackId> distinct = stacks;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    const std::vector<SiteTable::StackSite> sites = SiteTable::sitesOf(h.snapshot(), distinct, site, false);
    std::vector<int64_t> delta(size_t(lod.columns) + 1, 0);
    bool any = false;
    for (uint32_t i : hidden) {
        const Allocation& a = h.allocations()[i];
        const size_t at = size_t(std::lower_bound(distinct.begin(), distinct.end(), a.stack) - distinct.begin());
        if (sites[at].fingerprint != lit)
            continue;
        const EventIndex from = a.allocEvent == Allocation::NoEvent ? lod.first : EventIndex(a.allocEvent);
        const EventIndex to = a.freeEvent == Allocation::NoEvent ? lod.last : EventIndex(a.freeEvent) - 1;
        if (to < from)
            continue;
        delta[size_t(lod.columnOf(from))] += a.size;
        delta[size_t(lod.columnOf(to)) + 1] -= a.size;
        any = true;
    }
    if (!any)
        return std::vector<int64_t>(size_t(lod.columns), 0);
    std::vector<int64_t> bytes(size_t(lod.columns));
    int64_t running = 0;
    for (int c = 0; c < lod.columns; ++c)
        bytes[size_t(c)] = running += delta[size_t(c)];
    return bytes;
}

Detail computeDetail(const AxisMap& axis, const DetailRequest& r)
{
    const DeviceHistoryPtr& h = axis.history;
    Detail d;
    d.lod = h->lod(r.first, r.last, r.columns, r.minBandBytes, r.maxBands);
    std::vector<StackId> stacks;
    for (uint32_t index : d.lod.bands)
        stacks.push_back(h->allocations()[index].stack);
    const std::vector<SiteTable::StackSite> sites = SiteTable::sitesOf(h->snapshot(), stacks, r.site, true);
    d.bands.reserve(d.lod.bands.size());
    for (size_t i = 0; i < d.lod.bands.size(); ++i) {
        BandInfo band;
        band.allocation = d.lod.bands[i];
        band.size = h->allocations()[band.allocation].size;
        band.fingerprint = sites[i].fingerprint;
        band.siteColor = ChartStyle::siteColor(band.fingerprint);
        if (r.categories && band.allocation < r.categories->size())
            band.category = (*r.categories)[band.allocation];
        band.label = QString::fromStdString(sites[i].label);
        d.bands.push_back(std::move(band));
    }
    for (int c = 0; c <= d.lod.columns; ++c)
        d.keys.push_back(axis.key(d.lod.columnBegin(c)));
    d.valueLower = r.valueLower;
    d.valuePerPixel = std::max(r.valuePerPixel, 1e-9);
    const auto row = [&](int64_t value) {
        const double t = std::clamp((double(value) - d.valueLower) / d.valuePerPixel, -1e8, 1e8);
        return int(std::floor(t + 0.5));
    };
    d.runStart.reserve(d.lod.bands.size() + 1);
    // At most the decimation's runs: reserved, untouched pages cost nothing, and the arrays are never copied as they
    // grow.
    d.runColumn.reserve(d.lod.runColumn.size());
    d.runBottom.reserve(d.lod.runColumn.size());
    d.runTop.reserve(d.lod.runColumn.size());
    for (size_t k = 0; k < d.lod.bands.size(); ++k) {
        d.runStart.push_back(d.runColumn.size());
        const int64_t size = d.bands[k].size;
        int bottom = 0;
        int top = 0;
        for (size_t i = d.lod.runStart[k]; i < d.lod.runStart[k + 1]; ++i) {
            const int b = row(d.lod.runOffset[i]);
            const int t = row(d.lod.runOffset[i] + size);
            if (i == d.lod.runStart[k] || b != bottom || t != top) {
                d.runColumn.push_back(d.lod.runColumn[i]);
                d.runBottom.push_back(b);
                d.runTop.push_back(t);
                bottom = b;
                top = t;
            }
        }
    }
    d.runStart.push_back(d.runColumn.size());
    d.lit = r.lit;
    if (r.lit)
        d.litBelow = litBelowBands(*h, d.lod, *r.lit, r.site);
    return d;
}

} // namespace

struct TimelineView::Track
{
    explicit Track(AxisMap map)
        : axis(std::move(map))
    { }
    AxisMap axis;
    QCPAxisRect* rect = nullptr;
    QCPTextElement* title = nullptr;
    TimelineBands* bands = nullptr;
    std::optional<Detail> detail;
    /// What `detail` was computed for, or is being computed for while a job runs.
    std::optional<DetailRequest> requested;
    std::optional<uint32_t> selected;
    /// The annotated ranges in their rows, laid out once per track: only their pixels change with the zoom.
    std::vector<AnnotationRanges::Placed> ranges;
};

/// Draws one track's level of detail and markers; the data lives in the view.
class TimelineBands : public QCPAbstractPlottable
{
public:
    TimelineBands(QCPAxis* key, QCPAxis* value, const TimelineView* view, int track)
        : QCPAbstractPlottable(key, value)
        , m_view(view)
        , m_track(track)
    {
        setSelectable(QCP::stNone);
    }
    void set(const TimelineTrack* track, const std::optional<Detail>* detail, const std::optional<uint32_t>* selected,
        const std::optional<uint64_t>* highlight)
    {
        m_data = track;
        m_detail = detail;
        m_selected = selected;
        m_highlight = highlight;
    }

    double selectTest(const QPointF&, bool, QVariant*) const override
    {
        return -1;
    }
    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override
    {
        found = m_data && m_data->history;
        if (!found)
            return {};
        return QCPRange(m_view->keyOf(m_track, BeforeTrace), m_view->keyOf(m_track, m_data->history->eventCount()));
    }
    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override
    {
        found = m_data && m_data->history;
        return found ? QCPRange(0, double(m_data->history->peakBytes())) : QCPRange();
    }

    /// Lit bands in the current detail, for tests.
    int litBands() const
    {
        if (!m_detail || !*m_detail || !*m_highlight)
            return 0;
        int n = 0;
        for (const BandInfo& b : (*m_detail)->bands)
            n += b.fingerprint == **m_highlight;
        return n;
    }

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter*, const QRectF&) const override { }

private:
    void drawMarkers(QCPPainter* painter) const;
    void drawRanges(QCPPainter* painter) const;
    QColor bandColor(const BandInfo& band) const;

    const TimelineView* m_view;
    int m_track;
    const TimelineTrack* m_data = nullptr;
    const std::optional<Detail>* m_detail = nullptr;
    const std::optional<uint32_t>* m_selected = nullptr;
    const std::optional<uint64_t>* m_highlight = nullptr;
};

QColor TimelineBands::bandColor(const BandInfo& band) const
{
    const QPalette& palette = m_view->palette();
    const QColor color = m_view->bandColoring() == TimelineView::ColorByCategory
        ? ChartStyle::categoryColor(band.category, palette)
        : m_view->bandColoring() == TimelineView::ColorBySite ? band.siteColor
                                                              : ChartStyle::allocationColor(band.allocation, palette);
    if (!*m_highlight)
        return color;
    return band.fingerprint == **m_highlight ? ChartStyle::tinted(color, palette) : ChartStyle::faded(color, palette);
}

void TimelineBands::draw(QCPPainter* painter)
{
    if (!m_data || !m_detail || !*m_detail)
        return;
    const Detail& d = **m_detail;
    const TimelineLod& lod = d.lod;
    const size_t columns = size_t(lod.columns);
    // Whole pixels: bands are axis-aligned rectangles that must meet without seams or overlaps.
    std::vector<int> xs(columns + 1);
    for (size_t c = 0; c <= columns; ++c)
        xs[c] = int(std::lround(mKeyAxis->coordToPixel(d.keys[c])));
    // The memory axis is linear: one multiply-add per edge instead of a call through the axis, for millions of edges.
    const double y0 = mValueAxis->coordToPixel(0);
    const double yScale = mValueAxis->coordToPixel(1e9) - y0;
    const auto y = [y0, yScale](double v) {
        // Nearest pixel, rounded the same way above and below zero (std::lround is a library call).
        const double t = y0 + v * 1e-9 * yScale + 0.5;
        const int i = int(t);
        return i - (t < double(i));
    };
    painter->setAntialiasing(false);
    const QPalette& palette = m_view->palette();

    // The comparison point, behind the data so it never hides a thin band.
    const QRect area = mKeyAxis->axisRect()->rect();
    const double point = mKeyAxis->coordToPixel(m_view->keyOf(m_track, m_data->point));
    painter->setPen(pointPen(palette));
    painter->drawLine(QPointF(point, area.top()), QPointF(point, area.bottom()));

    // Each band as rectangles: one per stretch of columns where its top and bottom stay on the same pixel rows, so
    // a band that does not move is one rectangle however many columns it spans.
    // The detail's pixel rows on the axis as it is now (the same rows unless the memory axis changed since).
    const auto rowY = [&](int row) { return y(d.valueLower + double(row) * d.valuePerPixel); };
    const auto forEachRect = [&](size_t k, auto&& sink) {
        const int end = lod.firstColumn[k] + lod.columnCount[k];
        int runStart = -1;
        int runTop = 0;
        int runBottom = 0;
        const auto flush = [&](int until) {
            if (runStart >= 0 && runTop < runBottom)
                sink(
                    QRectF(xs[size_t(runStart)], runTop, xs[size_t(until)] - xs[size_t(runStart)], runBottom - runTop));
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
    if (*m_highlight) {
        std::vector<bool> live(columns, false);
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
        for (size_t c = 0; c < columns;) {
            if (!live[c]) {
                ++c;
                continue;
            }
            size_t end = c;
            while (end < columns && live[end])
                ++end;
            // A stretch wide enough to see needs no column: its tinted bands show it.
            if (xs[end] - xs[c] >= 24) {
                c = end;
                continue;
            }
            const int left = xs[c];
            const int width = std::max(xs[end] - left, 7);
            painter->fillRect(QRect(left + (xs[end] - left - width) / 2, area.top(), width, area.height()), tint);
            c = end;
        }
    }

    // The highlighted site's bands last and at least three pixels wide, so that a tensor that lives a moment is
    // still seen at the zoom that shows the whole trace.
    std::vector<RectLayer> layers;
    layers.reserve(d.bands.size());
    std::vector<RectLayer> lit;
    for (size_t k = 0; k < d.bands.size(); ++k) {
        const bool isLit = *m_highlight && d.bands[k].fingerprint == **m_highlight;
        RectLayer& layer = (isLit ? lit : layers).emplace_back();
        layer.color = bandColor(d.bands[k]).rgba();
        forEachRect(k, [&](const QRectF& r) {
            layer.rects.push_back(
                isLit && r.width() < 3 ? r.adjusted((r.width() - 3) / 2, 0, (3 - r.width()) / 2, 0) : r);
        });
    }
    layers.insert(layers.end(), std::make_move_iterator(lit.begin()), std::make_move_iterator(lit.end()));
    drawRectLayers(*painter, area, layers);

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
    drawRanges(painter);
    drawMarkers(painter);
}

void TimelineBands::drawRanges(QCPPainter* painter) const
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
    }
    painter->restore();
}

void TimelineBands::drawMarkers(QCPPainter* painter) const
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
    const QColor annotation = ChartStyle::annotationColor(m_view->palette());
    for (const ProfilerStep::Step& step : ProfilerStep::steps(h)) {
        const AnnotationSpan& span = *step.span;
        if (!span.hasStart)
            continue;
        const double px = x(span.startEvent);
        if (px < area.left() || px > area.right())
            continue;
        painter->setPen(stepPen(m_view->palette()));
        painter->drawLine(QPointF(px, area.top()), QPointF(px, area.bottom()));
        painter->setPen(annotation);
        const QString name = spanName(h, span);
        if (px - lastLabel > metrics.horizontalAdvance(name) + 8) {
            painter->drawText(QPointF(px + 3, area.bottom() - 4), name);
            lastLabel = px;
        }
    }

    // OOMs: where the allocator gave up.
    painter->setPen(oomPen());
    for (const OomMarker& oom : h.ooms()) {
        const double px = x(oom.event);
        painter->drawLine(QPointF(px, area.top()), QPointF(px, area.bottom()));
        painter->drawText(QPointF(px + 3, area.top() + metrics.ascent() + 2), QObject::tr("OOM"));
    }

    // The peak: a diamond on the curve with its figure.
    if (h.eventCount() > 0) {
        const QPointF at(x(h.peakEvent()), mValueAxis->coordToPixel(double(h.peakBytes())));
        QPolygonF diamond;
        diamond << at + QPointF(0, -5) << at + QPointF(5, 0) << at + QPointF(0, 5) << at + QPointF(-5, 0);
        painter->setPen(peakPen(m_view->palette()));
        painter->setBrush(ChartStyle::alertColor());
        painter->drawPolygon(diamond);
        const QString label = QObject::tr("peak %1").arg(Formatting::bytes(h.peakBytes()));
        const double width = metrics.horizontalAdvance(label);
        const double left = at.x() + width + 12 > area.right() ? at.x() - width - 8 : at.x() + 8;
        painter->drawText(QPointF(left, std::max<double>(at.y() + 4, area.top() + metrics.ascent())), label);
    }
}

const double TimelineView::WheelZoomFactor = 1 / ChartStyle::WheelZoomStep;

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
    , m_plot(new ExportablePlot(this))
    , m_overview(new TimelineOverview(this))
    , m_legend(new LegendStrip(this))
    , m_detailTimer(new QTimer(this))
    , m_rangesAction(new QAction(this))
{
    m_rangesShown = QSettings().value(RangesKey, true).toBool();
    m_rangesAction->setCheckable(true);
    m_rangesAction->setChecked(m_rangesShown);
    connect(m_rangesAction, &QAction::triggered, this, [this](bool on) {
        setAnnotationRangesShown(on);
        QSettings().setValue(RangesKey, on);
    });
    m_jobs.setOnIdle([this] { emit detailReady(); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_overview);
    layout->addWidget(m_legend);
    setMinimumHeight(180);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Dragging draws a box to zoom into; Shift-drag pans (onMousePress switches before QCustomPlot looks).
    m_plot->setSelectionRectMode(QCP::srmCustom);
    connect(m_plot->selectionRect(), &QCPSelectionRect::accepted, this, [this](const QRect& box, QMouseEvent*) {
        const int track = trackAt(QPointF(box.center()));
        if (track >= 0 && box.width() > 4)
            zoomToBox(track, box);
    });
    connect(m_plot, &QCustomPlot::beforeReplot, this, &TimelineView::equalizeTrackHeights);
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (!m_views.empty()) {
            const QRect r = m_views.front()->rect->rect();
            m_overview->setPlotMargins(r.left(), m_plot->width() - r.right() - 1);
        }
    });
    connect(m_overview, &TimelineOverview::windowRequested, this, &TimelineView::zoomToKeys);
    connect(m_overview, &TimelineOverview::fitRequested, this, &TimelineView::resetZoom);
    connect(m_overview, &TimelineOverview::zoomRequested, this, [this](double notches, double key) {
        if (!m_views.empty())
            m_views.front()->rect->axis(QCPAxis::atBottom)->scaleRange(std::pow(WheelZoomFactor, notches), key);
    });
    // The keyboard too, while the timelines have focus (a click gives it): Home fits, + and - zoom, arrows pan, Y fits
    // the memory axis to what is in view.
    m_plot->setFocusPolicy(Qt::ClickFocus);
    const std::pair<QKeySequence, std::function<void()>> keys[] = {
        { QKeySequence(Qt::Key_Home), [this] { resetZoom(); } },
        { QKeySequence(Qt::Key_Plus), [this] { zoomIn(); } },
        { QKeySequence(Qt::Key_Equal), [this] { zoomIn(); } },
        { QKeySequence(Qt::Key_Minus), [this] { zoomOut(); } },
        { QKeySequence(Qt::Key_Left), [this] { pan(-0.25); } },
        { QKeySequence(Qt::Key_Right), [this] { pan(0.25); } },
        { QKeySequence(Qt::Key_Y), [this] { fitMemoryAxis(); } },
    };
    for (const auto& [key, slot] : keys) {
        auto* action = new QAction(this);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
    }
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_plot->setMouseTracking(true);
    m_plot->setNoAntialiasingOnDrag(true);
    // Zooming fires many range changes; compute the detail once the wheel has settled.
    m_detailTimer->setSingleShot(true);
    m_detailTimer->setInterval(40);
    connect(m_detailTimer, &QTimer::timeout, this, &TimelineView::requestDetail);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimelineView::onMouseMove);
    connect(m_plot, &QCustomPlot::mousePress, this, &TimelineView::onMousePress);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &TimelineView::onMouseRelease);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, &TimelineView::onDoubleClick);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &TimelineView::showContextMenu);
    (new Retranslator(this))->add([this] {
        setAccessibleName(tr("Memory timelines"));
        m_plot->setAccessibleName(tr("Memory timelines of ranks A and B"));
        m_legend->setAccessibleName(tr("Legend of the timelines"));
        m_rangesAction->setText(tr("Show Annotated Ranges"));
        m_rangesAction->setToolTip(
            tr("Show record_function scopes and NCCL collectives as named strips at the top of each timeline"));
        updateLegend();
    });
    rebuildLayout();
}

TimelineView::~TimelineView() = default;

void TimelineView::setTracks(std::vector<TimelineTrack> tracks, const SiteOptions& site)
{
    m_tracks = std::move(tracks);
    m_site = site;
    m_alignmentDone = false;
    m_alignment.clear();
    m_xAxis = available(m_preferredAxis) ? m_preferredAxis : EventAxis;
    rebuildLayout();
}

bool TimelineView::timeAvailable() const
{
    return !m_tracks.empty()
        && std::all_of(m_tracks.begin(), m_tracks.end(), [](const TimelineTrack& t) { return t.history->hasTimes(); });
}

bool TimelineView::stepsAvailable() const
{
    return !m_tracks.empty() && std::all_of(m_tracks.begin(), m_tracks.end(), [](const TimelineTrack& t) {
        return !AxisMap::steps(*t.history).empty();
    });
}

bool TimelineView::alignmentAvailable() const
{
    const std::vector<Anchors>& anchors = alignment();
    return anchors.size() > 1
        && std::all_of(anchors.begin() + 1, anchors.end(), [](const Anchors& a) { return a && a->size() >= 2; });
}

const std::vector<TimelineView::Anchors>& TimelineView::alignment() const
{
    if (m_alignmentDone)
        return m_alignment;
    m_alignmentDone = true;
    m_alignment.assign(m_tracks.size(), nullptr);
    if (m_tracks.size() < 2)
        return m_alignment;
    std::vector<DeviceHistoryPtr> histories;
    for (const TimelineTrack& t : m_tracks)
        histories.push_back(t.history);
    // 512 moments: finer than any plot is wide, and a few milliseconds even on million-event traces.
    const TraceAlignment alignment(histories, m_site);
    for (size_t i = 1; i < m_tracks.size(); ++i) {
        std::vector<std::pair<EventIndex, EventIndex>> anchors = alignment.anchors(0, i, 512);
        m_alignment[i] = std::make_shared<const std::vector<std::pair<EventIndex, EventIndex>>>(std::move(anchors));
    }
    return m_alignment;
}

bool TimelineView::available(XAxis axis) const
{
    return axis == EventAxis || (axis == TimeAxis && timeAvailable()) || (axis == StepAxis && stepsAvailable())
        || (axis == AlignedAxis && alignmentAvailable());
}

void TimelineView::setBandColoring(BandColoring coloring)
{
    if (coloring == m_bandColoring)
        return;
    m_bandColoring = coloring;
    updateLegend();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

std::optional<TimelineView::BandColoring> TimelineView::parseColoring(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("allocation"))
        return ColorByAllocation;
    if (n == QLatin1String("site"))
        return ColorBySite;
    if (n == QLatin1String("category"))
        return ColorByCategory;
    return std::nullopt;
}

void TimelineView::fillColoringMenu(QMenu* menu)
{
    menu->clear();
    qDeleteAll(menu->findChildren<QActionGroup*>(Qt::FindDirectChildrenOnly));
    auto* group = new QActionGroup(menu);
    const std::pair<BandColoring, QString> colourings[] = {
        { ColorByAllocation, tr("&Allocation (each its own colour)") },
        { ColorBySite, tr("&Site (the same colour on every rank)") },
        { ColorByCategory, tr("&Category (parameters, activations …)") },
    };
    for (const auto& [kind, text] : colourings) {
        QAction* choice = menu->addAction(text, this, [this, which = kind] { setBandColoring(which); });
        choice->setCheckable(true);
        choice->setChecked(m_bandColoring == kind);
        group->addAction(choice);
    }
}

void TimelineView::setAnnotationRangesShown(bool shown)
{
    m_rangesAction->setChecked(shown);
    if (shown == m_rangesShown)
        return;
    m_rangesShown = shown;
    updateLegend();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool TimelineView::anyAnnotationRanges() const
{
    return std::any_of(
        m_views.begin(), m_views.end(), [](const std::unique_ptr<Track>& view) { return !view->ranges.empty(); });
}

QFont TimelineView::markerFont() const
{
    QFont f = font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * 0.85);
    return f;
}

std::vector<AnnotationRanges::Strip> TimelineView::annotationStrips(int track) const
{
    if (!m_rangesShown || track < 0 || size_t(track) >= m_views.size() || m_views[size_t(track)]->ranges.empty())
        return {};
    const Track& view = *m_views[size_t(track)];
    const QCPAxis* x = view.rect->axis(QCPAxis::atBottom);
    const QRect area = view.rect->rect();
    return AnnotationRanges::layout(
        *m_tracks[size_t(track)].history, view.ranges,
        [&](EventIndex event) { return x->coordToPixel(keyOf(track, event)); }, area.left(), area.right() + 1);
}

QRectF TimelineView::stripRect(int track, const AnnotationRanges::Strip& strip) const
{
    const Track& view = *m_views[size_t(track)];
    // Under the rank's title, which sits in the plot's top left.
    const int top = std::max(view.rect->rect().top(), view.title->outerRect().bottom()) + 1;
    const int row = QFontMetrics(markerFont()).height() + 2;
    return QRectF(strip.left, top + strip.row * row, std::max(strip.right - strip.left, 1.0), row - 1);
}

QString TimelineView::stripLabel(int track, const AnnotationRanges::Strip& strip) const
{
    const DeviceHistory& h = *m_tracks[size_t(track)].history;
    QString name = spanName(h, h.annotations()[strip.span]);
    if (strip.count == 1)
        return name;
    return strip.oneName ? tr("%1 ×%2").arg(name).arg(strip.count) : tr("%n range(s)", nullptr, strip.count);
}

void TimelineView::setYScale(YScale scale)
{
    if (scale == m_yScale)
        return;
    m_yScale = scale;
    applyMemoryRanges(std::nullopt);
}

void TimelineView::setZoomLinked(bool linked)
{
    m_zoomLinked = linked;
    if (linked && !m_views.empty())
        setKeyRange(nullptr, m_views.front()->rect->axis(QCPAxis::atBottom)->range());
}

void TimelineView::setMaxBands(int bands)
{
    if (bands == m_maxBands)
        return;
    m_maxBands = bands;
    requestDetail();
}

void TimelineView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::LanguageChange && event->type() != QEvent::PaletteChange)
        return;
    // Titles, axis labels and colours are made when the layout is built; rebuild it where the user is looking.
    const std::optional<QCPRange> range =
        m_views.empty() ? std::nullopt : std::optional(m_views.front()->rect->axis(QCPAxis::atBottom)->range());
    rebuildLayout();
    if (range && !m_views.empty())
        m_views.front()->rect->axis(QCPAxis::atBottom)->setRange(*range);
}

void TimelineView::setXAxis(XAxis axis)
{
    m_preferredAxis = axis;
    if (!available(axis))
        axis = EventAxis;
    if (axis == m_xAxis)
        return;
    m_xAxis = axis;
    rebuildLayout();
}

double TimelineView::keyOf(int track, EventIndex event) const
{
    return m_views[size_t(track)]->axis.key(event);
}

EventIndex TimelineView::eventAt(int track, double key) const
{
    const DeviceHistory& h = *m_tracks[size_t(track)].history;
    const EventIndex n = EventIndex(h.eventCount());
    if (m_xAxis == EventAxis)
        return std::clamp<EventIndex>(EventIndex(std::floor(key)), BeforeTrace, n - 1);
    // Keys only grow with the event (times, steps), so the event at a key is found by bisection.
    EventIndex lo = 0, hi = n;
    while (lo < hi) {
        const EventIndex mid = (lo + hi) / 2;
        if (keyOf(track, mid) <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return std::clamp<EventIndex>(lo - 1, BeforeTrace, n - 1);
}

QCPRange TimelineView::fullRange() const
{
    QCPRange range(0, 1);
    bool first = true;
    for (size_t i = 0; i < m_tracks.size(); ++i) {
        const double lo = keyOf(int(i), BeforeTrace);
        const double hi = keyOf(int(i), EventIndex(m_tracks[i].history->eventCount()));
        range = first ? QCPRange(lo, hi) : QCPRange(std::min(range.lower, lo), std::max(range.upper, hi));
        first = false;
    }
    if (range.size() <= 0)
        range.upper = range.lower + 1;
    return range;
}

void TimelineView::rebuildLayout()
{
    m_jobs.cancel(); // results of the old layout must not land on the new one
    // The old plottables first: they point into the views and tracks, and a resize below replots at once.
    m_plot->clearPlottables();
    m_plot->plotLayout()->clear();
    m_plot->plotLayout()->setRowSpacing(0);
    m_views.clear();
    // The timelines come first in the window: each track's plot at least MinimumTrackHeight high, and the axis
    // under the last one.
    const int line = fontMetrics().height();
    // The overview and the legend come on top of that.
    const int below = m_overview->minimumSizeHint().height() + m_legend->heightForWidth(std::max(width(), 800));
    setMinimumHeight(
        m_tracks.empty() ? 180 : int(m_tracks.size()) * (MinimumTrackHeight + line * 2) + line * 3 + below);
    if (m_tracks.empty()) {
        auto* empty = new QCPTextElement(m_plot, tr("Timelines appear here once two ranks are compared"));
        m_plot->plotLayout()->addElement(0, 0, empty);
        ChartStyle::applyPalette(m_plot, palette());
        m_plot->replot();
        m_overview->setCurves({});
        m_overview->hide();
        m_rangesAction->setEnabled(false);
        updateLegend();
        return;
    }
    m_overview->show();
    auto* margins = new QCPMarginGroup(m_plot);
    QFont titleFont = font();
    titleFont.setBold(true);
    for (size_t i = 0; i < m_tracks.size(); ++i) {
        const TimelineTrack& t = m_tracks[i];
        auto view =
            std::make_unique<Track>(AxisMap(m_xAxis, t.history, m_xAxis == AlignedAxis ? alignment()[i] : Anchors()));
        QString title = t.role.isEmpty() ? tr("Rank %1").arg(t.rank) : tr("Rank %1 (%2)").arg(t.rank).arg(t.role);
        if (const std::optional<DigestInfo>& digest = t.history->snapshot().digest) {
            // A digest's own events are a sample; the count that means something is the source's.
            title += tr(" — peak %1, digest of %n event(s)", nullptr, int(digest->sourceEvents))
                         .arg(Formatting::bytes(t.history->peakBytes()));
        } else {
            title += tr(" — peak %1, %n event(s)", nullptr, int(t.history->eventCount()))
                         .arg(Formatting::bytes(t.history->peakBytes()));
        }
        view->title = new QCPTextElement(m_plot, title, titleFont);
        view->title->setLayer(QStringLiteral("axes"));
        view->title->setMargins(QMargins(6, 2, 0, 0));
        view->title->setTextColor(palette().color(QPalette::Text)); // in the inset, applyPalette does not reach it
        view->rect = new QCPAxisRect(m_plot);
        view->rect->setRangeDrag(Qt::Horizontal);
        view->rect->setRangeZoom(Qt::Horizontal);
        view->rect->setRangeZoomFactor(WheelZoomFactor);
        view->rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        QCPAxis* x = view->rect->axis(QCPAxis::atBottom);
        QCPAxis* y = view->rect->axis(QCPAxis::atLeft);
        y->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
        if (m_xAxis != TimeAxis)
            x->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
        const bool last = i + 1 == m_tracks.size();
        x->setTickLabels(last);
        // Height goes to the data: above each plot only room for the top tick label, and below every plot but the
        // last (which carries the x axis) only the ticks.
        const int line = fontMetrics().height();
        view->rect->setAutoMargins(last ? QCP::msLeft | QCP::msRight | QCP::msBottom : QCP::msLeft | QCP::msRight);
        view->rect->setMargins(QMargins(0, line / 2 + 2, 0, last ? 0 : 6));
        if (last)
            x->setLabel(m_xAxis == EventAxis ? tr("Trace event")
                    : m_xAxis == TimeAxis    ? tr("Seconds since the rank's first event")
                    : m_xAxis == StepAxis    ? tr("Profiler step (ProfilerStep#N), aligned across ranks")
                                          : tr("Trace event of rank %1; the others at the same moment of their traces")
                                                .arg(m_tracks.front().rank));
        // The title sits inside the plot's top left, over the headroom above the highest peak, so that the height
        // of a title row goes to the data.
        m_plot->plotLayout()->addElement(int(i), 0, view->rect);
        view->rect->insetLayout()->addElement(view->title, Qt::AlignTop | Qt::AlignLeft);
        view->bands = new TimelineBands(x, y, this, int(i));
        view->ranges = AnnotationRanges::place(*t.history);
        QCPAxisRect* rect = view->rect;
        connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this, rect](const QCPRange& r) { onRangeChanged(r, rect); });
        // A new memory scale changes what a pixel is worth, so which allocations are bands.
        connect(y, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_detailTimer, qOverload<>(&QTimer::start));
        m_views.push_back(std::move(view));
    }
    m_rangesAction->setEnabled(anyAnnotationRanges());
    const QCPRange range = fullRange(); // needs every track's axis map
    for (size_t i = 0; i < m_views.size(); ++i) {
        m_views[i]->bands->set(&m_tracks[i], &m_views[i]->detail, &m_views[i]->selected, &m_highlight);
        m_syncing = true;
        m_views[i]->rect->axis(QCPAxis::atBottom)->setRange(range);
        m_syncing = false;
    }
    applyMemoryRanges(std::nullopt);
    ChartStyle::applyPalette(m_plot, palette());
    m_plot->replot();
    updateOverviewWindow();
    updateLegend();
    // A view not yet laid out would compute for a size it is about to leave (and a job runs to its end once
    // started): it asks once its size is known.
    if (isVisible()) {
        requestOverview(); // first: the detail asks for the overview only when its width changed
        requestDetail();
    } else {
        m_detailTimer->start();
    }
}

void TimelineView::applyMemoryRanges(std::optional<QCPRange> range)
{
    if (range) {
        for (const auto& view : m_views)
            view->rect->axis(QCPAxis::atLeft)->setRange(*range);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    std::vector<double> peaks;
    for (const TimelineTrack& t : m_tracks)
        peaks.push_back(double(t.history->peakBytes()));
    fitMemoryAxes(peaks);
}

void TimelineView::fitMemoryAxes(const std::vector<double>& highest)
{
    // From zero to the highest of all ranks (one scale) or each rank's own, with room above for the title.
    const double shared = highest.empty() ? 1.0 : std::max(1.0, *std::max_element(highest.begin(), highest.end()));
    for (size_t i = 0; i < m_views.size() && i < highest.size(); ++i) {
        const double top = m_yScale == SharedScale ? shared : std::max(1.0, highest[i]);
        m_views[i]->rect->axis(QCPAxis::atLeft)->setRange(0, top * 1.12);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::fitMemoryAxis()
{
    // The highest total each rank has in view, from the level of detail on screen.
    std::vector<double> highest(m_views.size(), 0);
    for (size_t i = 0; i < m_views.size(); ++i) {
        if (const std::optional<Detail>& d = m_views[i]->detail; d && !d->lod.maxTotal.empty())
            highest[i] = double(*std::max_element(d->lod.maxTotal.begin(), d->lod.maxTotal.end()));
    }
    fitMemoryAxes(highest);
}

void TimelineView::requestOverview()
{
    const int width = m_overview->width();
    m_overviewWidth = width;
    m_overviewJobs.cancel();
    if (m_views.empty() || width <= 0)
        return;
    auto curves = std::make_shared<std::vector<TimelineOverview::Curve>>(m_views.size());
    auto pending = std::make_shared<size_t>(m_views.size());
    for (size_t i = 0; i < m_views.size(); ++i) {
        const EventIndex last = EventIndex(m_tracks[i].history->eventCount()) - 1;
        DetailRequest request;
        request.first = BeforeTrace;
        request.last = last;
        request.columns = width;
        request.minBandBytes = std::numeric_limits<int64_t>::max(); // the curve only
        m_overviewJobs.add([axis = m_views[i]->axis, request] { return computeDetail(axis, request); },
            [this, i, curves, pending](Detail detail) {
                (*curves)[i] = { std::move(detail.keys), std::move(detail.lod.maxTotal) };
                if (--*pending == 0)
                    m_overview->setCurves(std::move(*curves));
            });
    }
}

void TimelineView::updateOverviewWindow()
{
    if (m_views.empty())
        return;
    const QCPRange full = fullRange();
    const QCPRange window = m_views.front()->rect->axis(QCPAxis::atBottom)->range();
    m_overview->setRanges({ full.lower, full.upper }, { window.lower, window.upper });
}

void TimelineView::updateLegend()
{
    const QPalette& pal = palette();
    std::vector<LegendEntry> entries;
    // Outlined, so that a faded swatch still shows on the background.
    const auto swatch = [&](const QColor& color, const QString& text) {
        entries.push_back({ LegendEntry::Swatch, color, QPen(pal.color(QPalette::Mid), 0), text, {} });
    };
    switch (m_bandColoring) {
    case ColorByAllocation:
        entries.push_back(Legend::spectrum(tr("an allocation (each its own colour)"),
            [&pal](uint32_t i) { return ChartStyle::allocationColor(i, pal); }));
        break;
    case ColorBySite:
        entries.push_back(Legend::spectrum(tr("an allocation (colour: its site)"), ChartStyle::siteColor));
        break;
    case ColorByCategory:
        for (int c = 0; c < CategoryCount; ++c)
            swatch(ChartStyle::categoryColor(Category(c), pal),
                VerdictText::category(Category(c), VerdictText::Translated));
        break;
    }
    // The least band size of what is on screen (smaller than a pixel where small allocations add up).
    int64_t pixel = 0;
    for (const auto& view : m_views)
        pixel = std::max(pixel, view->detail ? view->detail->lod.minBandBytes : 0);
    swatch(m_highlight ? ChartStyle::faded(ChartStyle::summarizedColor(), pal) : ChartStyle::summarizedColor(),
        pixel > 1 ? tr("allocations under %1, summed").arg(Formatting::bytes(pixel)) : tr("small allocations, summed"));
    // Only what the plots show now, so that the legend keeps to a row or two.
    if (m_highlight) {
        swatch(ChartStyle::tinted(ChartStyle::allocationColor(0, pal), pal), tr("the finding's allocations (tinted)"));
        bool marked = false;
        for (size_t i = 0; i < m_views.size(); ++i)
            marked = marked || litMarkerColumns(int(i)) > 0;
        if (marked)
            swatch(ChartStyle::findingColor(pal), tr("the finding's allocations among the summed ones"));
        swatch(ChartStyle::faded(ChartStyle::allocationColor(0, pal), pal), tr("other allocations (faded)"));
    }
    entries.push_back({ LegendEntry::Line, {}, pointPen(pal), tr("comparison point"), {} });
    entries.push_back({ LegendEntry::Diamond, ChartStyle::alertColor(), peakPen(pal), tr("peak"), {} });
    const auto any = [this](auto has) { return std::any_of(m_tracks.begin(), m_tracks.end(), has); };
    if (any([](const TimelineTrack& t) { return !t.history->ooms().empty(); }))
        entries.push_back({ LegendEntry::Line, {}, oomPen(), tr("out of memory"), {} });
    if (any([](const TimelineTrack& t) { return !ProfilerStep::steps(*t.history).empty(); }))
        entries.push_back({ LegendEntry::Line, {}, stepPen(pal), tr("step begins"), {} });
    if (m_rangesShown && anyAnnotationRanges())
        entries.push_back({ LegendEntry::Swatch, rangeBrush(pal), rangePen(pal),
            tr("annotated ranges (record_function, NCCL)"), {} });
    if (std::any_of(m_views.begin(), m_views.end(), [](const auto& view) { return view->selected.has_value(); }))
        entries.push_back({ LegendEntry::Swatch, Qt::NoBrush, selectedPen(pal), tr("selected allocation"), {} });
    m_legend->setEntries(std::move(entries));
}

void TimelineView::onRangeChanged(const QCPRange& requested, QCPAxisRect* source)
{
    if (m_syncing)
        return;
    setKeyRange(source, requested);
}

void TimelineView::setKeyRange(QCPAxisRect* source, QCPRange requested)
{
    // Keep the view inside the data: no zooming out past everything, no panning into nothing.
    const QCPRange full = fullRange();
    QCPRange range = requested;
    if (range.size() > full.size() || range.size() <= 0)
        range = full;
    if (range.lower < full.lower)
        range = QCPRange(full.lower, full.lower + range.size());
    if (range.upper > full.upper)
        range = QCPRange(full.upper - range.size(), full.upper);
    m_syncing = true;
    for (const auto& view : m_views) {
        if (source && view->rect != source && !m_zoomLinked)
            continue;
        if (view->rect != source || range != requested)
            view->rect->axis(QCPAxis::atBottom)->setRange(range);
    }
    m_syncing = false;
    updateOverviewWindow();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    m_detailTimer->start();
}

void TimelineView::zoomToKeys(double lower, double upper)
{
    if (m_views.empty() || upper <= lower)
        return;
    setKeyRange(m_zoomLinked ? nullptr : m_views.front()->rect, QCPRange(lower, upper));
}

void TimelineView::zoomToBox(int track, const QRect& box)
{
    if (track < 0 || size_t(track) >= m_views.size())
        return;
    QCPAxisRect* rect = m_views[size_t(track)]->rect;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const double from = x->pixelToCoord(box.left());
    const double to = x->pixelToCoord(box.right());
    if (to > from)
        setKeyRange(m_zoomLinked ? nullptr : rect, QCPRange(from, to));
    // A box of a few pixels' height means "this stretch of time", not "these bytes".
    if (box.height() >= 8) {
        const QCPRange memory(std::max(0.0, y->pixelToCoord(box.bottom())), y->pixelToCoord(box.top()));
        if (m_zoomLinked)
            applyMemoryRanges(memory);
        else
            y->setRange(memory);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void TimelineView::pan(double fraction)
{
    if (m_views.empty())
        return;
    const QCPRange r = m_views.front()->rect->axis(QCPAxis::atBottom)->range();
    setKeyRange(nullptr, QCPRange(r.lower + r.size() * fraction, r.upper + r.size() * fraction));
}

double TimelineView::valuePerPixel(int track) const
{
    const QCPAxisRect* rect = m_views[size_t(track)]->rect;
    return rect->axis(QCPAxis::atLeft)->range().size() / std::max(1, rect->height());
}

int64_t TimelineView::pixelBytes(int track) const
{
    if (track < 0 || size_t(track) >= m_views.size())
        return 0;
    return std::max<int64_t>(1, int64_t(valuePerPixel(track)));
}

void TimelineView::requestDetail()
{
    if (m_views.empty())
        return;
    if (m_overview->width() != m_overviewWidth)
        requestOverview();
    std::vector<DetailRequest> requests;
    for (size_t i = 0; i < m_views.size(); ++i) {
        QCPAxis* x = m_views[i]->rect->axis(QCPAxis::atBottom);
        const QCPRange range = x->range();
        const EventIndex n = EventIndex(m_tracks[i].history->eventCount());
        DetailRequest request;
        request.first = eventAt(int(i), range.lower);
        request.last = std::max(request.first, eventAt(int(i), range.upper));
        // Only as many columns as this rank's data covers on screen: a shorter trace gets fewer.
        const double from = x->coordToPixel(keyOf(int(i), request.first));
        const double to = x->coordToPixel(keyOf(int(i), std::min(request.last + 1, n)));
        request.columns = std::max(1, int(std::ceil(std::abs(to - from))));
        request.minBandBytes = pixelBytes(int(i));
        request.valueLower = m_views[i]->rect->axis(QCPAxis::atLeft)->range().lower;
        request.valuePerPixel = valuePerPixel(int(i));
        request.maxBands = size_t(std::max(m_maxBands, 0));
        request.site = m_site;
        request.categories = m_tracks[i].categories;
        request.lit = m_highlight;
        requests.push_back(std::move(request));
    }
    // Layout settling after a comparison arrives asks again for what is already being computed: the job in flight
    // (which cannot be stopped midway) is kept rather than its result thrown away and the same work done twice.
    bool same = true;
    for (size_t i = 0; i < m_views.size(); ++i)
        same = same && m_views[i]->requested == requests[i];
    if (same)
        return;
    m_jobs.cancel();
    for (size_t i = 0; i < m_views.size(); ++i) {
        m_views[i]->requested = requests[i];
        m_jobs.add([axis = m_views[i]->axis, request = requests[i]] { return computeDetail(axis, request); },
            [this, i](Detail detail) {
                if (i < m_views.size()) {
                    m_views[i]->detail = std::move(detail);
                    m_plot->replot(QCustomPlot::rpQueuedReplot);
                    updateLegend();
                }
            });
    }
}

void TimelineView::flushDetail()
{
    if (!m_detailTimer->isActive())
        return;
    m_detailTimer->stop();
    requestDetail();
}

bool TimelineView::isBusy() const
{
    return m_jobs.isBusy() || m_detailTimer->isActive();
}

void TimelineView::equalizeTrackHeights()
{
    // Rows share the height by their outer rects, but only the last track carries the x axis' labels under it: with
    // equal rows its plot would be the smallest, and the same bytes would look smaller on B than on A. Stretch each
    // row by its margins plus an equal share, so every plot gets the same height and one byte the same pixels.
    if (m_views.size() < 2)
        return;
    int margins = 0;
    for (const auto& view : m_views)
        margins += view->rect->margins().top() + view->rect->margins().bottom();
    const double share = double(m_plot->viewport().height() - margins) / double(m_views.size());
    if (share <= 0)
        return;
    for (size_t i = 0; i < m_views.size(); ++i) {
        const QMargins m = m_views[i]->rect->margins();
        m_plot->plotLayout()->setRowStretchFactor(int(i), share + m.top() + m.bottom());
    }
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_detailTimer->start();
}

void TimelineView::setHighlightedSite(std::optional<uint64_t> fingerprint)
{
    if (fingerprint == m_highlight)
        return;
    m_highlight = fingerprint;
    updateLegend();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    // Its allocations too small for a band are found by a detail job.
    if (m_highlight)
        requestDetail();
}

void TimelineView::setSelectedAllocation(int track, std::optional<uint32_t> allocation)
{
    for (size_t i = 0; i < m_views.size(); ++i)
        m_views[i]->selected = int(i) == track ? allocation : std::nullopt;
    updateLegend();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int TimelineView::highlightedBandCount(int track) const
{
    return track >= 0 && size_t(track) < m_views.size() ? m_views[size_t(track)]->bands->litBands() : 0;
}

int TimelineView::litMarkerColumns(int track) const
{
    if (track < 0 || size_t(track) >= m_views.size() || !m_views[size_t(track)]->detail)
        return 0;
    const Detail& d = *m_views[size_t(track)]->detail;
    if (d.lit != m_highlight)
        return 0;
    return int(std::count_if(d.litBelow.begin(), d.litBelow.end(), [](int64_t bytes) { return bytes > 0; }));
}

int TimelineView::bandCount(int track) const
{
    if (track < 0 || size_t(track) >= m_views.size() || !m_views[size_t(track)]->detail)
        return 0;
    return int(m_views[size_t(track)]->detail->bands.size());
}

void TimelineView::zoomIn()
{
    if (!m_views.empty())
        m_views.front()->rect->axis(QCPAxis::atBottom)->scaleRange(0.5);
}

void TimelineView::zoomOut()
{
    if (!m_views.empty())
        m_views.front()->rect->axis(QCPAxis::atBottom)->scaleRange(2.0);
}

void TimelineView::resetZoom()
{
    if (m_views.empty())
        return;
    setKeyRange(nullptr, fullRange());
    applyMemoryRanges(std::nullopt);
}

int TimelineView::trackAt(const QPointF& pos) const
{
    for (size_t i = 0; i < m_views.size(); ++i) {
        if (m_views[i]->rect->rect().contains(pos.toPoint()))
            return int(i);
    }
    return -1;
}

namespace {

// The band under a point of a track's detail: (band, column), or band -1 over the remainder, column -1 when outside
// the data.
std::pair<int, int> hitTest(const Detail& d, double key, double value)
{
    const auto it = std::upper_bound(d.keys.begin(), d.keys.end(), key);
    const int column = int(it - d.keys.begin()) - 1;
    if (column < 0 || column >= d.lod.columns)
        return { -1, -1 };
    for (size_t k = 0; k < d.bands.size(); ++k) {
        const int64_t off = d.lod.offset(k, column);
        if (off >= 0 && value >= double(off) && value < double(off + d.bands[k].size))
            return { int(k), column };
    }
    return { -1, column };
}

} // namespace

std::optional<size_t> TimelineView::oomAt(int track, const QPointF& pos) const
{
    if (track < 0 || size_t(track) >= m_views.size())
        return std::nullopt;
    const QCPAxis* axis = m_views[size_t(track)]->rect->axis(QCPAxis::atBottom);
    const std::vector<OomMarker>& ooms = m_tracks[size_t(track)].history->ooms();
    std::optional<size_t> nearest;
    double distance = 5; // the marker is a line a pixel wide: a few pixels either side take the click
    for (size_t k = 0; k < ooms.size(); ++k) {
        const double d = std::abs(axis->coordToPixel(keyOf(track, EventIndex(ooms[k].event))) - pos.x());
        if (d <= distance) {
            distance = d;
            nearest = k;
        }
    }
    return nearest;
}

std::optional<uint32_t> TimelineView::allocationAt(int track, const QPointF& pos) const
{
    const Track& view = *m_views[size_t(track)];
    if (!view.detail)
        return std::nullopt;
    const double key = view.rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
    const double value = view.rect->axis(QCPAxis::atLeft)->pixelToCoord(pos.y());
    const auto [band, column] = hitTest(*view.detail, key, value);
    if (band < 0)
        return std::nullopt;
    return view.detail->bands[size_t(band)].allocation;
}

QString TimelineView::tooltipAt(int track, const QPointF& pos) const
{
    const Track& view = *m_views[size_t(track)];
    const TimelineTrack& t = m_tracks[size_t(track)];
    if (!view.detail)
        return {};
    const Detail& d = *view.detail;
    const double key = view.rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
    const double value = view.rect->axis(QCPAxis::atLeft)->pixelToCoord(pos.y());
    const auto [band, column] = hitTest(d, key, value);
    if (column < 0)
        return {};
    const EventIndex event = eventAt(track, key);
    QString text = tr("<b>Rank %1</b>, event %2").arg(t.rank).arg(event);
    // On an OOM marker: the allocation that failed (a click shows its whole stack).
    if (const std::optional<size_t> oom = oomAt(track, pos)) {
        const OomMarker& o = t.history->ooms()[*oom];
        text = tr("<b>Rank %1 ran out of memory</b> at event %2, asking for %3 with %4 free on the device")
                   .arg(t.rank)
                   .arg(o.event)
                   .arg(Formatting::bytes(o.requestedBytes), Formatting::bytes(o.deviceFreeBytes));
        const QStringList stack = StackText::lines(StackText::stackFrames(t.history->snapshot(), o.stack, true), 10);
        if (!stack.isEmpty())
            text += QStringLiteral("<pre>%1</pre>").arg(stack.join(QLatin1Char('\n')).toHtmlEscaped());
        return text + tr("Click to show its stack");
    }
    if (QString range = rangeTooltipAt(track, pos); !range.isEmpty())
        return range;
    if (t.history->hasTimes())
        text += tr(", %1 s").arg(AxisMap(TimeAxis, t.history).key(event), 0, 'f', 3);
    text +=
        tr("<br>Live here: %1 (%2 at most in this pixel)")
            .arg(Formatting::bytes(t.history->totalAfter(event)), Formatting::bytes(d.lod.maxTotal[size_t(column)]));
    if (band < 0) {
        if (value <= double(d.lod.maxTotal[size_t(column)]))
            text += tr("<br><br>%1 in allocations smaller than a pixel (%2) here")
                        .arg(Formatting::bytes(d.lod.remainder(column)), Formatting::bytes(d.lod.minBandBytes));
        if (!d.litBelow.empty() && d.litBelow[size_t(column)] > 0)
            text += tr("<br>of which %1 are the finding's").arg(Formatting::bytes(d.litBelow[size_t(column)]));
        return text;
    }
    const BandInfo& b = d.bands[size_t(band)];
    const Allocation& a = t.history->allocations()[b.allocation];
    text += QStringLiteral("<br><br><b>%1</b> %2").arg(Formatting::bytes(a.size), b.label.toHtmlEscaped());
    if (t.categories)
        text += tr("<br>Category: %1").arg(VerdictText::category(b.category, VerdictText::Translated));
    const QString allocated =
        a.allocEvent == Allocation::NoEvent ? tr("before the trace began") : tr("at event %1").arg(a.allocEvent);
    const QString freed =
        a.freeEvent == Allocation::NoEvent ? tr("still live at the end") : tr("freed at event %1").arg(a.freeEvent);
    text += tr("<br>Allocated %1, %2; address 0x%3").arg(allocated, freed).arg(a.addr, 0, 16);
    for (const QString& line : StackPane::contextLines(*t.history, a))
        text += QStringLiteral("<br>") + line.toHtmlEscaped();
    const QStringList stack = StackText::lines(StackText::stackFrames(t.history->snapshot(), a.stack, true), 10);
    if (!stack.isEmpty())
        text += QStringLiteral("<pre>%1</pre>").arg(stack.join(QLatin1Char('\n')).toHtmlEscaped());
    return text;
}

QString TimelineView::rangeTooltipAt(int track, const QPointF& pos) const
{
    const std::vector<AnnotationRanges::Strip> strips = annotationStrips(track);
    // The last drawn lies on top; a line for a range too short to see takes the pointer a pixel either side.
    const auto hit = std::find_if(strips.rbegin(), strips.rend(), [&](const AnnotationRanges::Strip& strip) {
        const QRectF r = stripRect(track, strip);
        return r.adjusted(r.width() < 3 ? -1.5 : 0, 0, r.width() < 3 ? 1.5 : 0, 0).contains(pos);
    });
    if (hit == strips.rend())
        return {};
    const TimelineTrack& t = m_tracks[size_t(track)];
    const DeviceHistory& h = *t.history;
    const AnnotationSpan& first = h.annotations()[hit->span];
    QString text;
    const AnnotationSpan* last = &first;
    if (hit->count == 1) {
        text = tr("<b>Rank %1</b> · annotated range <b>%2</b>").arg(t.rank).arg(spanName(h, first).toHtmlEscaped());
    } else {
        // The strip's ranges are the next ones of its row, in order of start.
        const std::vector<AnnotationRanges::Placed>& placed = m_views[size_t(track)]->ranges;
        auto at = std::find_if(
            placed.begin(), placed.end(), [&](const AnnotationRanges::Placed& p) { return p.span == hit->span; });
        for (int n = 1; at != placed.end() && n < hit->count; ++at) {
            if (at->row == hit->row && at->span != hit->span) {
                last = &h.annotations()[at->span];
                ++n;
            }
        }
        text = tr("<b>Rank %1</b> · %n annotated range(s), too short at this zoom to tell apart", nullptr, hit->count)
                   .arg(t.rank);
        text += hit->oneName ? tr("<br>each <b>%1</b>").arg(spanName(h, first).toHtmlEscaped())
                             : tr("<br>from <b>%1</b> to <b>%2</b>")
                                   .arg(spanName(h, first).toHtmlEscaped(), spanName(h, *last).toHtmlEscaped());
    }
    if (first.hasStart && last->hasEnd)
        text += tr("<br>%1 ms, %n trace event(s) inside", nullptr,
            int(std::max<EventIndex>(0, last->endEvent - first.startEvent)))
                    .arg(double(last->endUs - first.startUs) / 1000, 0, 'f', 3);
    else if (first.hasStart)
        text += tr("<br>From its START to the end of the trace: no END was recorded");
    else
        text += tr("<br>From the start of the trace to its END: no START was recorded");
    const EventIndex n = EventIndex(h.eventCount());
    const int64_t before = h.totalAfter(first.hasStart ? first.startEvent : BeforeTrace);
    const int64_t after = h.totalAfter(last->hasEnd ? std::min(last->endEvent, n - 1) : n - 1);
    text += tr("<br>Allocated at its start: %1, at its end: %2 (%3%4)")
                .arg(Formatting::bytes(before), Formatting::bytes(after),
                    after >= before ? QStringLiteral("+") : QString(), Formatting::bytes(after - before));
    return text;
}

QString TimelineView::describeAt(const QPointF& pos) const
{
    const int track = trackAt(pos);
    return track >= 0 ? tooltipAt(track, pos) : QString();
}

void TimelineView::onMouseMove(QMouseEvent* event)
{
    if (event->buttons() != Qt::NoButton)
        return;
    const QString text = describeAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

void TimelineView::onMousePress(QMouseEvent* event)
{
    m_pressPos = event->position().toPoint();
    // QCustomPlot looks at the mode after this signal: a box to zoom into, or with Shift a pan.
    m_plot->setSelectionRectMode(event->modifiers() & Qt::ShiftModifier ? QCP::srmNone : QCP::srmCustom);
}

void TimelineView::onMouseRelease(QMouseEvent* event)
{
    // A click, not the end of a drag.
    if (event->button() != Qt::LeftButton || (event->position().toPoint() - m_pressPos).manhattanLength() > 3)
        return;
    const int track = trackAt(event->position());
    if (track < 0)
        return;
    if (const std::optional<size_t> oom = oomAt(track, event->position())) {
        emit oomClicked(track, int(*oom));
        return;
    }
    const std::optional<uint32_t> allocation = allocationAt(track, event->position());
    setSelectedAllocation(track, allocation);
    if (allocation)
        emit allocationClicked(track, *allocation);
}

void TimelineView::onDoubleClick(QMouseEvent* event)
{
    // On a plot a double click compares there; on the axes around them it shows everything, as on the overview.
    const int track = trackAt(event->position());
    if (track < 0) {
        resetZoom();
        return;
    }
    const double key = m_views[size_t(track)]->rect->axis(QCPAxis::atBottom)->pixelToCoord(event->position().x());
    emit pointPicked(track, eventAt(track, key));
}

void TimelineView::showContextMenu(const QPoint& pos)
{
    QMenu menu(this);
    const int track = trackAt(pos);
    if (track >= 0) {
        const double key = m_views[size_t(track)]->rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
        const EventIndex event = eventAt(track, key);
        menu.addAction(
            tr("Compare at Event %1").arg(event), this, [this, track, event] { emit pointPicked(track, event); });
        menu.addSeparator();
    }
    menu.addAction(tr("Zoom In"), this, &TimelineView::zoomIn);
    menu.addAction(tr("Zoom Out"), this, &TimelineView::zoomOut);
    menu.addAction(tr("Reset Zoom"), this, &TimelineView::resetZoom);
    menu.addAction(tr("Fit Memory Axis to View"), this, &TimelineView::fitMemoryAxis);
    QAction* fitEach = menu.addAction(
        tr("Fit Each Rank's Memory Axis"), this, [this](bool on) { setYScale(on ? FitEachScale : SharedScale); });
    fitEach->setCheckable(true);
    fitEach->setChecked(m_yScale == FitEachScale);
    QAction* linked = menu.addAction(tr("Link Zoom Across Ranks"), this, &TimelineView::setZoomLinked);
    linked->setCheckable(true);
    linked->setChecked(m_zoomLinked);
    menu.addAction(m_rangesAction);
    menu.addSeparator();
    fillColoringMenu(menu.addMenu(tr("Colour Bands By")));
    menu.addSeparator();
    QAction* events = menu.addAction(tr("X Axis: Trace Events"), this, [this] { setXAxis(EventAxis); });
    events->setCheckable(true);
    events->setChecked(m_xAxis == EventAxis);
    QAction* time = menu.addAction(tr("X Axis: Time"), this, [this] { setXAxis(TimeAxis); });
    time->setCheckable(true);
    time->setChecked(m_xAxis == TimeAxis);
    time->setEnabled(timeAvailable());
    QAction* steps = menu.addAction(tr("X Axis: Profiler Steps"), this, [this] { setXAxis(StepAxis); });
    steps->setCheckable(true);
    steps->setChecked(m_xAxis == StepAxis);
    steps->setEnabled(stepsAvailable());
    QAction* aligned =
        menu.addAction(tr("X Axis: Aligned with Rank %1").arg(m_tracks.empty() ? 0 : m_tracks.front().rank), this,
            [this] { setXAxis(AlignedAxis); });
    aligned->setCheckable(true);
    aligned->setChecked(m_xAxis == AlignedAxis);
    aligned->setEnabled(alignmentAvailable());
    menu.addSeparator();
    ImageExport::addImageActions(&menu, this);
    menu.exec(m_plot->mapToGlobal(pos));
}

} // namespace RankScope
