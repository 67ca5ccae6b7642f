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

#include <QAction>
#include <QMenu>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace RankScope {

namespace {

struct BandInfo
{
    uint32_t allocation = 0;
    int64_t size = 0;
    uint64_t fingerprint = 0;
    QColor color; ///< by site
    Category category = Category::Other;
    QString label;
};

/// One level-of-detail result: the decimated curve and bands, and the x key of each column boundary.
struct Detail
{
    TimelineLod lod;
    std::vector<BandInfo> bands;
    std::vector<double> keys; // columns + 1
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

Detail computeDetail(const AxisMap& axis, EventIndex first, EventIndex last, int columns, int maxBands,
    const SiteOptions& siteOptions, const CategoriesPtr& categories)
{
    const DeviceHistoryPtr& h = axis.history;
    Detail d;
    d.lod = h->lod(first, last, columns, maxBands);
    std::vector<StackId> stacks;
    for (uint32_t index : d.lod.bands)
        stacks.push_back(h->allocations()[index].stack);
    const std::vector<SiteTable::StackSite> sites = SiteTable::sitesOf(h->snapshot(), stacks, siteOptions, true);
    for (size_t i = 0; i < d.lod.bands.size(); ++i) {
        BandInfo band;
        band.allocation = d.lod.bands[i];
        band.size = h->allocations()[band.allocation].size;
        band.fingerprint = sites[i].fingerprint;
        band.color = ChartStyle::siteColor(band.fingerprint);
        if (categories && band.allocation < categories->size())
            band.category = (*categories)[band.allocation];
        band.label = QString::fromStdString(sites[i].label);
        d.bands.push_back(std::move(band));
    }
    const EventIndex span = d.lod.last - d.lod.first + 1;
    for (int c = 0; c <= d.lod.columns; ++c)
        d.keys.push_back(axis.key(d.lod.first + span * c / d.lod.columns));
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
    std::optional<uint32_t> selected;
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

    const TimelineView* m_view;
    int m_track;
    const TimelineTrack* m_data = nullptr;
    const std::optional<Detail>* m_detail = nullptr;
    const std::optional<uint32_t>* m_selected = nullptr;
    const std::optional<uint64_t>* m_highlight = nullptr;
};

void TimelineBands::draw(QCPPainter* painter)
{
    if (!m_data || !m_detail || !*m_detail)
        return;
    const Detail& d = **m_detail;
    const TimelineLod& lod = d.lod;
    const size_t columns = size_t(lod.columns);
    const size_t bands = d.bands.size();
    std::vector<double> xs(columns + 1);
    for (size_t c = 0; c <= columns; ++c)
        xs[c] = mKeyAxis->coordToPixel(d.keys[c]);
    const auto y = [this](double v) { return mValueAxis->coordToPixel(v); };
    painter->setAntialiasing(false);

    // The comparison point, behind the data so it never hides a thin band.
    const QRect area = mKeyAxis->axisRect()->rect();
    const double point = mKeyAxis->coordToPixel(m_view->keyOf(m_track, m_data->point));
    QColor pointColor = ChartStyle::accentColor(m_view->palette());
    pointColor.setAlpha(150);
    painter->setPen(QPen(pointColor, 1, Qt::DashLine));
    painter->drawLine(QPointF(point, area.top()), QPointF(point, area.bottom()));

    // Allocations too small for a band of their own at the bottom, as the viewer stacks them; the bands on top, so
    // the large allocations that make a peak sit at its top. Each band is one stepped polygon per stretch of columns
    // where it is live.
    const auto bandPolygons = [&](size_t k, auto&& sink) {
        QPolygonF top, bottom;
        const int64_t size = d.bands[k].size;
        for (size_t c = 0; c <= columns; ++c) {
            const int64_t off = c < columns ? lod.bandOffsets[c * bands + k] : -1;
            if (off < 0) {
                if (!top.isEmpty()) {
                    std::reverse(bottom.begin(), bottom.end());
                    sink(top + bottom);
                    top.clear();
                    bottom.clear();
                }
                continue;
            }
            const double base = double(lod.summarized[c] + off);
            top << QPointF(xs[c], y(base + double(size))) << QPointF(xs[c + 1], y(base + double(size)));
            bottom << QPointF(xs[c], y(base)) << QPointF(xs[c + 1], y(base));
        }
    };
    const std::optional<uint64_t> lit = *m_highlight;
    QPolygonF rest, restBottom, outline;
    for (size_t c = 0; c < columns; ++c) {
        const double top = y(double(lod.summarized[c]));
        rest << QPointF(xs[c], top) << QPointF(xs[c + 1], top);
        restBottom << QPointF(xs[c], y(0)) << QPointF(xs[c + 1], y(0));
        const double max = y(double(lod.maxTotal[c]));
        outline << QPointF(xs[c], max) << QPointF(xs[c + 1], max);
    }
    std::reverse(restBottom.begin(), restBottom.end());
    QColor restColor = ChartStyle::summarizedColor();
    if (lit)
        restColor.setAlpha(110);
    painter->setBrush(restColor);
    painter->setPen(Qt::NoPen);
    painter->drawPolygon(rest + restBottom);

    // Where the highlighted site is live, a tint across the plot: a short-lived allocation can be a pixel wide.
    if (lit) {
        QColor tint = ChartStyle::accentColor(m_view->palette());
        tint.setAlpha(28);
        // One rectangle per stretch of columns where the site is live (a blended fill per column costs a frame).
        std::optional<QRectF> stretch;
        const auto flush = [&] {
            if (stretch)
                painter->fillRect(*stretch, tint);
            stretch.reset();
        };
        for (size_t c = 0; c < columns; ++c) {
            bool live = false;
            for (size_t k = 0; k < bands && !live; ++k)
                live = d.bands[k].fingerprint == *lit && lod.bandOffsets[c * bands + k] >= 0;
            if (!live)
                continue;
            // At least a few pixels wide, so a moment-long allocation is still found at a glance.
            const double width = std::max(5.0, xs[c + 1] - xs[c]);
            const QRectF r((xs[c] + xs[c + 1]) / 2 - width / 2, area.top(), width, area.height());
            if (stretch && r.left() <= stretch->right() + 0.5) {
                stretch->setRight(std::max(stretch->right(), r.right()));
            } else {
                flush();
                stretch = r;
            }
        }
        flush();
    }
    for (size_t k = 0; k < bands; ++k) {
        const BandInfo& band = d.bands[k];
        QColor color = m_view->bandColoring() == TimelineView::ColorByCategory
            ? ChartStyle::categoryColor(band.category, m_view->palette())
            : band.color;
        const bool isLit = lit && band.fingerprint == *lit;
        if (lit && !isLit)
            color.setAlpha(150); // fade the others so the site's bands stand out
        painter->setBrush(color);
        // Hairline outlines only: a wider pen goes through the raster engine's stroker, a frame's time per band.
        painter->setPen(QPen(isLit ? ChartStyle::accentColor(m_view->palette()) : color.darker(115), 0));
        bandPolygons(k, [&](const QPolygonF& polygon) { painter->drawPolygon(polygon); });
    }
    painter->setBrush(Qt::NoBrush);
    QColor outlineColor = ChartStyle::accentColor(m_view->palette());
    outlineColor.setAlpha(170);
    painter->setPen(QPen(outlineColor, 1));
    painter->drawPolyline(outline);

    if (*m_selected) {
        for (size_t k = 0; k < bands; ++k) {
            if (d.bands[k].allocation != **m_selected)
                continue;
            painter->setPen(QPen(ChartStyle::accentColor(m_view->palette()), 2.5));
            painter->setBrush(Qt::NoBrush);
            bandPolygons(k, [&](const QPolygonF& polygon) { painter->drawPolygon(polygon); });
        }
    }
    drawMarkers(painter);
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

    // Steps (record_function scopes such as ProfilerStep#N), labelled where there is room.
    double lastLabel = -1e9;
    const QColor annotation = ChartStyle::annotationColor(m_view->palette());
    for (const AnnotationSpan& span : h.annotations()) {
        if (!span.hasStart)
            continue;
        const double px = x(span.startEvent);
        if (px < area.left() || px > area.right())
            continue;
        painter->setPen(QPen(annotation, 1, Qt::DotLine));
        painter->drawLine(QPointF(px, area.top()), QPointF(px, area.bottom()));
        painter->setPen(annotation);
        const std::string_view raw = h.snapshot().strings.view(span.name);
        const QString name = QString::fromUtf8(raw.data(), qsizetype(raw.size()));
        if (px - lastLabel > metrics.horizontalAdvance(name) + 8) {
            painter->drawText(QPointF(px + 3, area.bottom() - 4), name);
            lastLabel = px;
        }
    }

    // OOMs: where the allocator gave up.
    painter->setPen(QPen(ChartStyle::alertColor(), 1.5));
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
        painter->setPen(QPen(ChartStyle::accentColor(m_view->palette()), 1));
        painter->setBrush(ChartStyle::alertColor());
        painter->drawPolygon(diamond);
        const QString label = QObject::tr("peak %1").arg(Formatting::bytes(h.peakBytes()));
        const double width = metrics.horizontalAdvance(label);
        const double left = at.x() + width + 12 > area.right() ? at.x() - width - 8 : at.x() + 8;
        painter->drawText(QPointF(left, std::max<double>(at.y() + 4, area.top() + metrics.ascent())), label);
    }
}

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
    , m_plot(new ExportablePlot(this))
    , m_detailTimer(new QTimer(this))
{
    m_jobs.setOnIdle([this] { emit detailReady(); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumHeight(180);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(m_plot, &QCustomPlot::beforeReplot, this, &TimelineView::equalizeTrackHeights);
    // The keyboard too, while the timelines have focus (a click gives it): Home fits, + and - zoom.
    m_plot->setFocusPolicy(Qt::ClickFocus);
    const std::pair<QKeySequence, void (TimelineView::*)()> keys[] = {
        { QKeySequence(Qt::Key_Home), &TimelineView::resetZoom }, { QKeySequence(Qt::Key_Plus), &TimelineView::zoomIn },
        { QKeySequence(Qt::Key_Equal), &TimelineView::zoomIn }, { QKeySequence(Qt::Key_Minus), &TimelineView::zoomOut }
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
    m_plot->replot(QCustomPlot::rpQueuedReplot);
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
    m_views.clear();
    // The timelines come first in the window: each track's plot at least MinimumTrackHeight high, and the axis
    // under the last one.
    const int line = fontMetrics().height();
    setMinimumHeight(m_tracks.empty() ? 180 : int(m_tracks.size()) * (MinimumTrackHeight + line * 2) + line * 3);
    m_plot->clearPlottables();
    m_plot->plotLayout()->clear();
    m_plot->plotLayout()->setRowSpacing(0);
    if (m_tracks.empty()) {
        auto* empty = new QCPTextElement(m_plot, tr("Timelines appear here once two ranks are compared"));
        m_plot->plotLayout()->addElement(0, 0, empty);
        ChartStyle::applyPalette(m_plot, palette());
        m_plot->replot();
        return;
    }
    auto* margins = new QCPMarginGroup(m_plot);
    double maxPeak = 1;
    for (const TimelineTrack& t : m_tracks)
        maxPeak = std::max(maxPeak, double(t.history->peakBytes()));
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
        view->rect->setRangeZoomFactor(WheelZoomFactor); // 1.25× a notch: six notches zoom about four times
        view->rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        QCPAxis* x = view->rect->axis(QCPAxis::atBottom);
        QCPAxis* y = view->rect->axis(QCPAxis::atLeft);
        y->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
        if (m_xAxis != TimeAxis)
            x->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
        y->setRange(0, maxPeak * 1.12);
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
        QCPAxisRect* rect = view->rect;
        connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this, rect](const QCPRange& r) { onRangeChanged(r, rect); });
        m_views.push_back(std::move(view));
    }
    const QCPRange range = fullRange(); // needs every track's axis map
    for (size_t i = 0; i < m_views.size(); ++i) {
        m_views[i]->bands->set(&m_tracks[i], &m_views[i]->detail, &m_views[i]->selected, &m_highlight);
        m_syncing = true;
        m_views[i]->rect->axis(QCPAxis::atBottom)->setRange(range);
        m_syncing = false;
    }
    ChartStyle::applyPalette(m_plot, palette());
    m_plot->replot();
    requestDetail();
}

void TimelineView::onRangeChanged(const QCPRange& requested, QCPAxisRect* source)
{
    if (m_syncing)
        return;
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
        if (view->rect != source || range != requested)
            view->rect->axis(QCPAxis::atBottom)->setRange(range);
    }
    m_syncing = false;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    m_detailTimer->start();
}

void TimelineView::requestDetail()
{
    if (m_views.empty())
        return;
    m_jobs.cancel();
    for (size_t i = 0; i < m_views.size(); ++i) {
        QCPAxis* x = m_views[i]->rect->axis(QCPAxis::atBottom);
        const QCPRange range = x->range();
        const EventIndex n = EventIndex(m_tracks[i].history->eventCount());
        const EventIndex first = eventAt(int(i), range.lower);
        const EventIndex last = std::max(first, eventAt(int(i), range.upper));
        // Only as many columns as this rank's data covers on screen: a shorter trace gets fewer.
        const double from = x->coordToPixel(keyOf(int(i), first));
        const double to = x->coordToPixel(keyOf(int(i), std::min(last + 1, n)));
        const int columns = std::max(1, int(std::ceil(std::abs(to - from))));
        m_jobs.add(
            [axis = m_views[i]->axis, first, last, columns, bands = m_maxBands, site = m_site,
                categories = m_tracks[i].categories] {
                return computeDetail(axis, first, last, columns, bands, site, categories);
            },
            [this, i](Detail detail) {
                if (i < m_views.size()) {
                    m_views[i]->detail = std::move(detail);
                    m_plot->replot(QCustomPlot::rpQueuedReplot);
                }
            });
    }
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
    m_highlight = fingerprint;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::setSelectedAllocation(int track, std::optional<uint32_t> allocation)
{
    for (size_t i = 0; i < m_views.size(); ++i)
        m_views[i]->selected = int(i) == track ? allocation : std::nullopt;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int TimelineView::highlightedBandCount(int track) const
{
    return track >= 0 && size_t(track) < m_views.size() ? m_views[size_t(track)]->bands->litBands() : 0;
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
    if (!m_views.empty())
        m_views.front()->rect->axis(QCPAxis::atBottom)->setRange(fullRange());
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

// The band under a point of a track's detail: (band, column), or band -1 over the summarized band, column -1 when
// outside the data.
std::pair<int, int> hitTest(const Detail& d, double key, double value)
{
    const auto it = std::upper_bound(d.keys.begin(), d.keys.end(), key);
    const int column = int(it - d.keys.begin()) - 1;
    if (column < 0 || column >= d.lod.columns)
        return { -1, -1 };
    const size_t bands = d.bands.size();
    const int64_t base = d.lod.summarized[size_t(column)];
    for (size_t k = 0; k < bands; ++k) {
        const int64_t off = d.lod.bandOffsets[size_t(column) * bands + k];
        if (off >= 0 && value >= double(base + off) && value < double(base + off + d.bands[k].size))
            return { int(k), column };
    }
    return { -1, column };
}

} // namespace

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
    if (t.history->hasTimes())
        text += tr(", %1 s").arg(AxisMap(TimeAxis, t.history).key(event), 0, 'f', 3);
    text +=
        tr("<br>Live here: %1 (%2 at most in this pixel)")
            .arg(Formatting::bytes(t.history->totalAfter(event)), Formatting::bytes(d.lod.maxTotal[size_t(column)]));
    if (band < 0) {
        if (value <= double(d.lod.maxTotal[size_t(column)]))
            text += tr("<br><br>%1 in allocations too small for a band of their own")
                        .arg(Formatting::bytes(d.lod.summarized[size_t(column)]));
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
    const QStringList stack = StackText::lines(StackText::stackFrames(t.history->snapshot(), a.stack, true), 10);
    if (!stack.isEmpty())
        text += QStringLiteral("<pre>%1</pre>").arg(stack.join(QLatin1Char('\n')).toHtmlEscaped());
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
}

void TimelineView::onMouseRelease(QMouseEvent* event)
{
    // A click, not the end of a drag.
    if (event->button() != Qt::LeftButton || (event->position().toPoint() - m_pressPos).manhattanLength() > 3)
        return;
    const int track = trackAt(event->position());
    if (track < 0)
        return;
    const std::optional<uint32_t> allocation = allocationAt(track, event->position());
    setSelectedAllocation(track, allocation);
    if (allocation)
        emit allocationClicked(track, *allocation);
}

void TimelineView::onDoubleClick(QMouseEvent* event)
{
    const int track = trackAt(event->position());
    if (track < 0)
        return;
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
