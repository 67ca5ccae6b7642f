// SPDX-License-Identifier: MIT
#include "chartstyle.h"
#include "exportableplot.h"

#include "timelineview.h"

#include "formatting.h"
#include "legend.h"
#include "profilerstep.h"
#include "retranslator.h"
#include "timelinebands.h"
#include "timelineinput.h"
#include "timelineoverview.h"
#include "timelinetrack.h"
#include "verdicttext.h"

#include <QAction>
#include <QActionGroup>
#include <QGuiApplication>
#include <QMenu>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

namespace RankScope {

namespace {

const QString RangesKey = QStringLiteral("timeline/annotationRanges");

} // namespace

const double TimelineView::WheelZoomFactor = 1 / ChartStyle::WheelZoomStep;

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
    , m_plot(new ExportablePlot(this))
    , m_overview(new TimelineOverview(this))
    , m_legend(new LegendStrip(this))
    , m_detailTimer(new QTimer(this))
    , m_rangesAction(new QAction(this))
    , m_backAction(new QAction(this))
    , m_forwardAction(new QAction(this))
    , m_settleTimer(new QTimer(this))
    , m_input(new TimelineInput(this, m_plot, m_overview))
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
    connect(m_plot, &QCustomPlot::beforeReplot, this, &TimelineView::equalizeTrackHeights);
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (!m_views.empty()) {
            const QRect r = m_views.front()->rect->rect();
            m_overview->setPlotMargins(r.left(), m_plot->width() - r.right() - 1);
        }
        // A plot's height changes inside the widget too (the legend's rows, the tracks' shares): the bands were cut for
        // the old pixel, and an export taken now would depend on which size the detail happened to be asked for.
        if (!m_views.empty() && !m_detailTimer->isActive() && !detailIsCurrent())
            m_detailTimer->start();
    });
    m_plot->setNoAntialiasingOnDrag(true);
    // Zooming fires many range changes; compute the detail once the wheel has settled.
    m_detailTimer->setSingleShot(true);
    m_detailTimer->setInterval(40);
    connect(m_detailTimer, &QTimer::timeout, this, &TimelineView::requestDetail);
    // A view is a step of the zoom history once the wheel or a drag has rested this long.
    m_settleTimer->setSingleShot(true);
    m_settleTimer->setInterval(400);
    connect(m_settleTimer, &QTimer::timeout, this, [this] {
        if (QGuiApplication::mouseButtons() != Qt::NoButton)
            m_settleTimer->start(); // still dragging
        else
            settleZoom();
    });
    m_backAction->setShortcuts(QKeySequence::Back);
    m_forwardAction->setShortcuts(QKeySequence::Forward);
    connect(m_backAction, &QAction::triggered, this, &TimelineView::zoomBack);
    connect(m_forwardAction, &QAction::triggered, this, &TimelineView::zoomForward);
    // Wherever the timelines are shown in a window, whether a menu offers the actions or not.
    addAction(m_backAction);
    addAction(m_forwardAction);
    connect(m_input, &TimelineInput::allocationClicked, this, &TimelineView::allocationClicked);
    connect(m_input, &TimelineInput::oomClicked, this, &TimelineView::oomClicked);
    connect(m_input, &TimelineInput::pointPicked, this, &TimelineView::pointPicked);
    (new Retranslator(this))->add([this] {
        setAccessibleName(tr("Memory timelines"));
        m_plot->setAccessibleName(tr("Memory timelines of ranks A and B"));
        m_legend->setAccessibleName(tr("Legend of the timelines"));
        m_rangesAction->setText(tr("Show Annotated Ranges"));
        m_rangesAction->setToolTip(
            tr("Show record_function scopes and NCCL collectives as named strips at the top of each timeline"));
        m_backAction->setText(tr("Zoom &Back"));
        m_backAction->setStatusTip(tr("The timelines' view before the last zoom or pan"));
        m_forwardAction->setText(tr("Zoom &Forward"));
        m_forwardAction->setStatusTip(tr("The view Zoom Back left"));
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
    restartZoomHistory();
}

bool TimelineView::timeAvailable() const
{
    return !m_tracks.empty()
        && std::all_of(m_tracks.begin(), m_tracks.end(), [](const TimelineTrack& t) { return t.history->hasTimes(); });
}

bool TimelineView::stepsAvailable() const
{
    return !m_tracks.empty() && std::all_of(m_tracks.begin(), m_tracks.end(), [](const TimelineTrack& t) {
        return !TimelineAxis::steps(*t.history).empty();
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
    if (!m_alignmentDone) {
        m_alignmentDone = true;
        m_alignment = TimelineAxis::align(m_tracks, m_site);
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
    const int top = std::max(view.rect->rect().top(), titleRect(track).bottom()) + 1;
    const int row = QFontMetrics(markerFont()).height() + 2;
    return QRectF(strip.left, top + strip.row * row, std::max(strip.right - strip.left, 1.0), row - 1);
}

QRect TimelineView::titleRect(int track) const
{
    return m_views[size_t(track)]->title->outerRect();
}

QString TimelineView::stripLabel(int track, const AnnotationRanges::Strip& strip) const
{
    const DeviceHistory& h = *m_tracks[size_t(track)].history;
    QString name = AnnotationRanges::name(h, h.annotations()[strip.span]);
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
    const ZoomHistory::View view = currentView();
    rebuildLayout();
    showView(view);
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
    restartZoomHistory();
}

double TimelineView::keyOf(int track, EventIndex event) const
{
    return m_views[size_t(track)]->axis.key(event);
}

EventIndex TimelineView::eventAt(int track, double key) const
{
    return m_views[size_t(track)]->axis.eventAt(key);
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
    // An OOM is the last event of its trace: room to its right for the failed request's bar and label, so that it is
    // not drawn on the plot's border.
    if (std::any_of(
            m_tracks.begin(), m_tracks.end(), [](const TimelineTrack& t) { return !t.history->ooms().empty(); }))
        range.upper += range.size() * 0.04;
    return range;
}

int64_t TimelineView::oomTop(const DeviceHistory& history)
{
    int64_t top = 0;
    for (const OomMarker& oom : history.ooms())
        top = std::max(top, history.totalAfter(EventIndex(oom.event)) + oom.requestedBytes);
    return top;
}

QRectF TimelineView::oomBar(int track, const OomMarker& oom) const
{
    const Track& view = *m_views[size_t(track)];
    const QCPAxis* x = view.rect->axis(QCPAxis::atBottom);
    const QCPAxis* y = view.rect->axis(QCPAxis::atLeft);
    const double px = x->coordToPixel(keyOf(track, EventIndex(oom.event)));
    const double room = x->coordToPixel(fullRange().upper) - px;
    const double width = std::clamp(room * 0.45, 6.0, 14.0);
    const int64_t held = m_tracks[size_t(track)].history->totalAfter(EventIndex(oom.event));
    const double bottom = y->coordToPixel(double(held));
    // Two pixels tall at least: a small request that failed is still a request.
    const double top = std::min(y->coordToPixel(double(held + oom.requestedBytes)), bottom - 2);
    return QRectF(px + 1, top, width, bottom - top);
}

void TimelineView::rebuildLayout()
{
    // Results of the old layout must not land on the new one.
    m_jobs.cancel();
    m_overviewJobs.cancel();
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
        auto view = std::make_unique<Track>(
            TimelineAxis(m_xAxis, t.history, m_xAxis == AlignedAxis ? alignment()[i] : Anchors()));
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
    // Laid out now, drawn with the window's next paint: the comparison's arrival lays out the panes around the
    // timelines in the same turn of the event loop, and a replot here (13 ms for eight 200 MB ranks, their bands not
    // yet computed) was followed by the queued one before anything was shown.
    m_plot->layOut();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    updateOverviewWindow();
    updateLegend();
    // A job runs to its end once started, so the first detail waits for the layout too: a shown view is laid out
    // again as the window fills in the comparison around it, and the job asked for the passing size took a core from
    // the one asked for the final size (a 1 GB rank's bands: 370 ms with it, 220-280 ms without). That layout is
    // what the window posted meanwhile: shown, the detail is asked once those events are handled, not the timer's
    // 40 ms later (the 1 GB rank's window, load to views: 0.26 s against 0.28 s).
    m_overviewWidth = -1; // the new tracks' overview, whatever the width
    m_detailTimer->start();
    if (isVisible())
        QTimer::singleShot(0, this, &TimelineView::flushDetail);
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
        peaks.push_back(double(std::max(t.history->peakBytes(), oomTop(*t.history))));
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
        if (const std::optional<TimelineDetail>& d = m_views[i]->detail; d && !d->lod.maxTotal.empty())
            highest[i] = double(*std::max_element(d->lod.maxTotal.begin(), d->lod.maxTotal.end()));
        // The failed request's bar, where its OOM is in view.
        const QCPRange keys = m_views[i]->rect->axis(QCPAxis::atBottom)->range();
        for (const OomMarker& oom : m_tracks[i].history->ooms()) {
            if (keys.contains(keyOf(int(i), EventIndex(oom.event))))
                highest[i] = std::max(
                    highest[i], double(m_tracks[i].history->totalAfter(EventIndex(oom.event)) + oom.requestedBytes));
        }
    }
    fitMemoryAxes(highest);
    m_zoomPending = !m_views.empty();
    settleZoom();
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
        TimelineDetail::Request request;
        request.first = BeforeTrace;
        request.last = last;
        request.columns = width;
        request.minBandBytes = std::numeric_limits<int64_t>::max(); // the curve only
        m_overviewJobs.add([axis = m_views[i]->axis, request] { return TimelineDetail::compute(axis, request); },
            [this, i, curves, pending](TimelineDetail detail) {
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
    entries.push_back({ LegendEntry::Line, {}, TimelineBands::pointPen(pal), tr("comparison point"), {} });
    entries.push_back({ LegendEntry::Diamond, ChartStyle::alertColor(), TimelineBands::peakPen(pal), tr("peak"), {} });
    const auto any = [this](auto has) { return std::any_of(m_tracks.begin(), m_tracks.end(), has); };
    if (any([](const TimelineTrack& t) { return !t.history->ooms().empty(); }))
        entries.push_back({ LegendEntry::Line, {}, TimelineBands::oomPen(), tr("out of memory"), {} });
    if (any([](const TimelineTrack& t) { return !ProfilerStep::steps(*t.history).empty(); }))
        entries.push_back({ LegendEntry::Line, {}, TimelineBands::stepPen(pal), tr("step begins"), {} });
    if (m_rangesShown && anyAnnotationRanges())
        entries.push_back({ LegendEntry::Swatch, TimelineBands::rangeBrush(pal), TimelineBands::rangePen(pal),
            tr("annotated ranges (record_function, NCCL)"), {} });
    if (std::any_of(m_views.begin(), m_views.end(), [](const auto& view) { return view->selected.has_value(); }))
        entries.push_back(
            { LegendEntry::Swatch, Qt::NoBrush, TimelineBands::selectedPen(pal), tr("selected allocation"), {} });
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
    m_zoomPending = true;
    m_settleTimer->start();
    updateZoomActions();
}

ZoomHistory::View TimelineView::currentView() const
{
    ZoomHistory::View view;
    for (const auto& track : m_views) {
        const QCPRange x = track->rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = track->rect->axis(QCPAxis::atLeft)->range();
        view.keys.push_back({ x.lower, x.upper });
        view.values.push_back({ y.lower, y.upper });
    }
    return view;
}

void TimelineView::showView(const ZoomHistory::View& view)
{
    if (view.keys.size() != m_views.size() || view.values.size() != m_views.size())
        return;
    m_syncing = true;
    for (size_t i = 0; i < m_views.size(); ++i) {
        m_views[i]->rect->axis(QCPAxis::atBottom)->setRange(view.keys[i].lower, view.keys[i].upper);
        m_views[i]->rect->axis(QCPAxis::atLeft)->setRange(view.values[i].lower, view.values[i].upper);
    }
    m_syncing = false;
    updateOverviewWindow();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    m_detailTimer->start();
}

void TimelineView::settleZoom()
{
    m_settleTimer->stop();
    if (!m_zoomPending)
        return;
    m_zoomPending = false;
    m_zoomHistory.record(currentView());
    updateZoomActions();
}

void TimelineView::restartZoomHistory()
{
    m_settleTimer->stop();
    m_zoomPending = false;
    m_zoomHistory.reset(currentView());
    updateZoomActions();
}

bool TimelineView::canZoomBack() const
{
    return m_zoomHistory.canGoBack() || m_zoomPending;
}

bool TimelineView::canZoomForward() const
{
    return m_zoomHistory.canGoForward() && !m_zoomPending;
}

void TimelineView::zoomBack()
{
    settleZoom();
    if (const std::optional<ZoomHistory::View> view = m_zoomHistory.back())
        showView(*view);
    updateZoomActions();
}

void TimelineView::zoomForward()
{
    settleZoom();
    if (const std::optional<ZoomHistory::View> view = m_zoomHistory.forward())
        showView(*view);
    updateZoomActions();
}

void TimelineView::updateZoomActions()
{
    m_backAction->setEnabled(canZoomBack());
    m_forwardAction->setEnabled(canZoomForward());
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
        m_zoomPending = true;
    }
    settleZoom();
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

std::vector<TimelineDetail::Request> TimelineView::detailRequests() const
{
    std::vector<TimelineDetail::Request> requests;
    for (size_t i = 0; i < m_views.size(); ++i) {
        QCPAxis* x = m_views[i]->rect->axis(QCPAxis::atBottom);
        const QCPRange range = x->range();
        const EventIndex n = EventIndex(m_tracks[i].history->eventCount());
        TimelineDetail::Request request;
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
    return requests;
}

QCustomPlot* TimelineView::plot() const
{
    return m_plot;
}

bool TimelineView::detailIsCurrent() const
{
    return isRequested(detailRequests());
}

bool TimelineView::isRequested(const std::vector<TimelineDetail::Request>& requests) const
{
    for (size_t i = 0; i < m_views.size(); ++i) {
        if (!(m_views[i]->requested == requests[i]))
            return false;
    }
    return true;
}

void TimelineView::requestDetail()
{
    if (m_views.empty())
        return;
    if (m_overview->width() != m_overviewWidth)
        requestOverview();
    const std::vector<TimelineDetail::Request> requests = detailRequests();
    // Layout settling after a comparison arrives asks again for what is already being computed: the job in flight
    // (which cannot be stopped midway) is kept rather than its result thrown away and the same work done twice.
    if (isRequested(requests))
        return;
    m_jobs.cancel();
    for (size_t i = 0; i < m_views.size(); ++i) {
        m_views[i]->requested = requests[i];
        // The job writes into the run arrays of the detail replaced last, its pages faulted in already; a job
        // superseded takes them with it.
        auto recycled = std::make_shared<TimelineDetail>(std::exchange(m_views[i]->recycled, {}));
        m_jobs.add([axis = m_views[i]->axis, request = requests[i],
                       recycled] { return TimelineDetail::compute(axis, request, std::move(*recycled)); },
            [this, i](TimelineDetail detail) {
                if (i < m_views.size()) {
                    if (m_views[i]->detail)
                        m_views[i]->recycled = std::move(*m_views[i]->detail);
                    m_views[i]->detail = std::move(detail);
                    m_plot->replot(QCustomPlot::rpQueuedReplot);
                    updateLegend();
                }
            });
    }
}

void TimelineView::flushDetail()
{
    // The plot lays out its tracks only when it replots: a replot still queued would change what a pixel is worth
    // inside the picture's own paint, after the detail had been asked for the old one. Laid out, not drawn: this runs
    // every 20 ms while an export waits for its jobs.
    m_plot->layOut();
    if (!m_detailTimer->isActive())
        return;
    m_detailTimer->stop();
    requestDetail();
}

bool TimelineView::isBusy() const
{
    return m_jobs.isBusy() || m_overviewJobs.isBusy() || m_detailTimer->isActive();
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

const std::vector<std::pair<size_t, QRectF>>& TimelineView::oomLabels(int track) const
{
    return m_views[size_t(track)]->bands->oomLabels();
}

const std::vector<QRectF>& TimelineView::paintedLabels(int track) const
{
    return m_views[size_t(track)]->bands->labels();
}

QString TimelineView::emptyHint(int track) const
{
    return track >= 0 && size_t(track) < m_views.size() ? m_views[size_t(track)]->bands->emptyHint() : QString();
}

int TimelineView::litRugColumns(int track) const
{
    return track >= 0 && size_t(track) < m_views.size() ? m_views[size_t(track)]->bands->rugColumns() : 0;
}

int TimelineView::litMarkerColumns(int track) const
{
    if (track < 0 || size_t(track) >= m_views.size() || !m_views[size_t(track)]->detail)
        return 0;
    const TimelineDetail& d = *m_views[size_t(track)]->detail;
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
    settleZoom();
}

void TimelineView::zoomOut()
{
    if (!m_views.empty())
        m_views.front()->rect->axis(QCPAxis::atBottom)->scaleRange(2.0);
    settleZoom();
}

void TimelineView::resetZoom()
{
    if (m_views.empty())
        return;
    setKeyRange(nullptr, fullRange());
    applyMemoryRanges(std::nullopt);
    settleZoom();
}

std::optional<size_t> TimelineView::oomAt(int track, const QPointF& pos) const
{
    return m_input->oomAt(track, pos);
}

QString TimelineView::describeAt(const QPointF& pos) const
{
    return m_input->describeAt(pos);
}

} // namespace RankScope
