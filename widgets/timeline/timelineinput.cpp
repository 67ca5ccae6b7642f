// SPDX-License-Identifier: MIT
#include "chartstyle.h"

#include "timelineinput.h"

#include "annotationranges.h"
#include "formatting.h"
#include "imageexport.h"
#include "retranslator.h"
#include "stackpane.h"
#include "stacktext.h"
#include "timelineaxis.h"
#include "timelineoverview.h"
#include "timelinetrack.h"
#include "tooltiputil.h"
#include "verdicttext.h"

#include <QAction>
#include <QMenu>

#include <algorithm>
#include <cmath>
#include <functional>

namespace RankScope {

TimelineInput::TimelineInput(TimelineView* view, QCustomPlot* plot, TimelineOverview* overview)
    : QObject(view)
    , m_view(view)
    , m_plot(plot)
{
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Dragging draws a box to zoom into; Shift-drag pans (onMousePress switches before QCustomPlot looks).
    m_plot->setSelectionRectMode(QCP::srmCustom);
    connect(m_plot->selectionRect(), &QCPSelectionRect::accepted, this, [this](const QRect& box, QMouseEvent*) {
        const int track = trackAt(QPointF(box.center()));
        if (track >= 0 && box.width() > 4)
            m_view->zoomToBox(track, box);
    });
    connect(overview, &TimelineOverview::windowRequested, m_view, &TimelineView::zoomToKeys);
    connect(overview, &TimelineOverview::fitRequested, m_view, &TimelineView::resetZoom);
    connect(overview, &TimelineOverview::zoomRequested, this, [this](double notches, double key) {
        if (!m_view->m_views.empty())
            m_view->m_views.front()
                ->rect->axis(QCPAxis::atBottom)
                ->scaleRange(std::pow(TimelineView::WheelZoomFactor, notches), key);
    });
    // The keyboard too, while the timelines have focus (a click gives it): Home fits, + and - zoom, arrows pan, Y fits
    // the memory axis to what is in view.
    m_plot->setFocusPolicy(Qt::ClickFocus);
    // Named, so that Help → Keyboard Shortcuts lists them.
    struct Key
    {
        QList<QKeySequence> keys;
        const char* text;
        std::function<void()> slot;
    };
    const Key keys[] = {
        { { Qt::Key_Home }, QT_TR_NOOP("Reset Zoom"), [view] { view->resetZoom(); } },
        { { Qt::Key_Plus, Qt::Key_Equal }, QT_TR_NOOP("Zoom In"), [view] { view->zoomIn(); } },
        { { Qt::Key_Minus }, QT_TR_NOOP("Zoom Out"), [view] { view->zoomOut(); } },
        { { Qt::Key_Left }, QT_TR_NOOP("Pan Earlier"), [view] { view->pan(-0.25); } },
        { { Qt::Key_Right }, QT_TR_NOOP("Pan Later"), [view] { view->pan(0.25); } },
        { { Qt::Key_Y }, QT_TR_NOOP("Fit Memory Axis to View"), [view] { view->fitMemoryAxis(); } },
    };
    std::vector<std::pair<QAction*, const char*>> named;
    for (const Key& key : keys) {
        auto* action = new QAction(view);
        action->setShortcuts(key.keys);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, view, key.slot);
        view->addAction(action);
        named.push_back({ action, key.text });
    }
    (new Retranslator(view))->add([named] {
        for (const auto& [action, text] : named)
            action->setText(tr(text));
    });
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimelineInput::onMouseMove);
    connect(m_plot, &QCustomPlot::mousePress, this, &TimelineInput::onMousePress);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &TimelineInput::onMouseRelease);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, &TimelineInput::onDoubleClick);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &TimelineInput::showContextMenu);
}

int TimelineInput::trackAt(const QPointF& pos) const
{
    for (size_t i = 0; i < m_view->m_views.size(); ++i) {
        if (m_view->m_views[i]->rect->rect().contains(pos.toPoint()))
            return int(i);
    }
    return -1;
}

std::optional<size_t> TimelineInput::oomAt(int track, const QPointF& pos) const
{
    if (track < 0 || size_t(track) >= m_view->m_views.size())
        return std::nullopt;
    const QCPAxis* axis = m_view->m_views[size_t(track)]->rect->axis(QCPAxis::atBottom);
    const std::vector<OomMarker>& ooms = m_view->m_tracks[size_t(track)].history->ooms();
    std::optional<size_t> nearest;
    double distance = 5; // the marker is a line a pixel wide: a few pixels either side take the click
    for (size_t k = 0; k < ooms.size(); ++k) {
        const double d = std::abs(axis->coordToPixel(m_view->keyOf(track, EventIndex(ooms[k].event))) - pos.x());
        if (d <= distance) {
            distance = d;
            nearest = k;
        }
    }
    if (nearest)
        return nearest;
    // Wherever else the marker is drawn: the failed request's bar and the label.
    for (size_t k = 0; k < ooms.size(); ++k) {
        if (m_view->oomBar(track, ooms[k]).adjusted(-1, -1, 1, 1).contains(pos))
            return k;
    }
    for (const auto& [k, box] : m_view->oomLabels(track)) {
        if (box.contains(pos) && k < ooms.size())
            return k;
    }
    return std::nullopt;
}

std::optional<uint32_t> TimelineInput::allocationAt(int track, const QPointF& pos) const
{
    const TimelineView::Track& view = *m_view->m_views[size_t(track)];
    if (!view.detail)
        return std::nullopt;
    const double key = view.rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
    const double value = view.rect->axis(QCPAxis::atLeft)->pixelToCoord(pos.y());
    const auto [band, column] = view.detail->hitTest(key, value);
    if (band < 0)
        return std::nullopt;
    return view.detail->bands[size_t(band)].allocation;
}

QString TimelineInput::tooltipAt(int track, const QPointF& pos) const
{
    const TimelineView::Track& view = *m_view->m_views[size_t(track)];
    const TimelineTrack& t = m_view->m_tracks[size_t(track)];
    if (!view.detail)
        return {};
    const TimelineDetail& d = *view.detail;
    const double key = view.rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
    const double value = view.rect->axis(QCPAxis::atLeft)->pixelToCoord(pos.y());
    const auto [band, column] = d.hitTest(key, value);
    // On an OOM marker, wherever it is drawn (right of the last event too): the allocation that failed (a click shows
    // its whole stack).
    if (const std::optional<size_t> oom = oomAt(track, pos)) {
        const OomMarker& o = t.history->ooms()[*oom];
        QString text = tr("<b>Rank %1 ran out of memory</b> at event %2, asking for %3 with %4 free on the device")
                           .arg(t.rank)
                           .arg(o.event)
                           .arg(Formatting::bytes(o.requestedBytes), Formatting::bytes(o.deviceFreeBytes));
        const QStringList stack = StackText::lines(StackText::stackFrames(t.history->snapshot(), o.stack, true), 10);
        if (!stack.isEmpty())
            text += QStringLiteral("<pre>%1</pre>").arg(stack.join(QLatin1Char('\n')).toHtmlEscaped());
        return text + tr("Click to show its stack");
    }
    if (column < 0)
        return {};
    const EventIndex event = m_view->eventAt(track, key);
    QString text = tr("<b>Rank %1</b>, event %2").arg(t.rank).arg(event);
    if (QString range = rangeTooltipAt(track, pos); !range.isEmpty())
        return range;
    if (t.history->hasTimes())
        text += tr(", %1 s").arg(TimelineAxis(TimelineView::TimeAxis, t.history).key(event), 0, 'f', 3);
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
    const TimelineDetail::Band& b = d.bands[size_t(band)];
    const Allocation& a = t.history->allocations()[b.allocation];
    text += QStringLiteral("<br><br><b>%1</b> %2")
                .arg(Formatting::bytes(a.size),
                    VerdictText::siteLabel(b.label.toStdString(), VerdictText::Translated).toHtmlEscaped());
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

QString TimelineInput::rangeTooltipAt(int track, const QPointF& pos) const
{
    const std::vector<AnnotationRanges::Strip> strips = m_view->annotationStrips(track);
    // The last drawn lies on top; a line for a range too short to see takes the pointer a pixel either side.
    const auto hit = std::find_if(strips.rbegin(), strips.rend(), [&](const AnnotationRanges::Strip& strip) {
        const QRectF r = m_view->stripRect(track, strip);
        return r.adjusted(r.width() < 3 ? -1.5 : 0, 0, r.width() < 3 ? 1.5 : 0, 0).contains(pos);
    });
    if (hit == strips.rend())
        return {};
    const TimelineTrack& t = m_view->m_tracks[size_t(track)];
    const DeviceHistory& h = *t.history;
    const AnnotationSpan& first = h.annotations()[hit->span];
    QString text;
    const AnnotationSpan* last = &first;
    if (hit->count == 1) {
        text = tr("<b>Rank %1</b> · annotated range <b>%2</b>")
                   .arg(t.rank)
                   .arg(AnnotationRanges::name(h, first).toHtmlEscaped());
    } else {
        // The strip's ranges are the next ones of its row, in order of start.
        const std::vector<AnnotationRanges::Placed>& placed = m_view->m_views[size_t(track)]->ranges;
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
        text += hit->oneName ? tr("<br>each <b>%1</b>").arg(AnnotationRanges::name(h, first).toHtmlEscaped())
                             : tr("<br>from <b>%1</b> to <b>%2</b>")
                                   .arg(AnnotationRanges::name(h, first).toHtmlEscaped(),
                                       AnnotationRanges::name(h, *last).toHtmlEscaped());
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

QString TimelineInput::describeAt(const QPointF& pos) const
{
    const int track = trackAt(pos);
    return track >= 0 ? tooltipAt(track, pos) : QString();
}

void TimelineInput::onMouseMove(QMouseEvent* event)
{
    if (event->buttons() != Qt::NoButton)
        return;
    ToolTipUtil::show(event->globalPosition().toPoint(), describeAt(event->position()), m_plot);
}

void TimelineInput::onMousePress(QMouseEvent* event)
{
    m_pressPos = event->position().toPoint();
    // QCustomPlot looks at the mode after this signal: a box to zoom into, or with Shift a pan. Only the left button
    // draws a box: QCustomPlot starts one on any button, and a right button's menu takes the release, so the box would
    // follow the pointer after the menu closed, into the next job.
    const bool box = event->button() == Qt::LeftButton && !(event->modifiers() & Qt::ShiftModifier);
    m_plot->setSelectionRectMode(box ? QCP::srmCustom : QCP::srmNone);
}

void TimelineInput::onMouseRelease(QMouseEvent* event)
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
    m_view->setSelectedAllocation(track, allocation);
    if (allocation)
        emit allocationClicked(track, *allocation);
}

void TimelineInput::onDoubleClick(QMouseEvent* event)
{
    // On a plot a double click compares there; on the axes around them it shows everything, as on the overview.
    const int track = trackAt(event->position());
    if (track < 0) {
        m_view->resetZoom();
        return;
    }
    const double key =
        m_view->m_views[size_t(track)]->rect->axis(QCPAxis::atBottom)->pixelToCoord(event->position().x());
    emit pointPicked(track, m_view->eventAt(track, key));
}

void TimelineInput::showContextMenu(const QPoint& pos)
{
    QMenu menu(m_view);
    const int track = trackAt(pos);
    if (track >= 0) {
        const double key = m_view->m_views[size_t(track)]->rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
        const EventIndex event = m_view->eventAt(track, key);
        menu.addAction(
            tr("Compare at Event %1").arg(event), this, [this, track, event] { emit pointPicked(track, event); });
        menu.addSeparator();
    }
    TimelineView* view = m_view;
    menu.addAction(tr("Zoom In"), view, &TimelineView::zoomIn);
    menu.addAction(tr("Zoom Out"), view, &TimelineView::zoomOut);
    menu.addAction(tr("Reset Zoom"), view, &TimelineView::resetZoom);
    menu.addAction(view->zoomBackAction());
    menu.addAction(view->zoomForwardAction());
    menu.addAction(tr("Fit Memory Axis to View"), view, &TimelineView::fitMemoryAxis);
    QAction* fitEach = menu.addAction(tr("Fit Each Rank's Memory Axis"), view,
        [view](bool on) { view->setYScale(on ? TimelineView::FitEachScale : TimelineView::SharedScale); });
    fitEach->setCheckable(true);
    fitEach->setChecked(view->yScale() == TimelineView::FitEachScale);
    QAction* linked = menu.addAction(tr("Link Zoom Across Ranks"), view, &TimelineView::setZoomLinked);
    linked->setCheckable(true);
    linked->setChecked(view->zoomLinked());
    menu.addAction(view->annotationRangesAction());
    menu.addSeparator();
    view->fillColoringMenu(menu.addMenu(tr("Colour Bands By")));
    menu.addSeparator();
    const std::pair<TimelineView::XAxis, QString> axes[] = {
        { TimelineView::EventAxis, tr("X Axis: Trace Events") },
        { TimelineView::TimeAxis, tr("X Axis: Time") },
        { TimelineView::StepAxis, tr("X Axis: Profiler Steps") },
        { TimelineView::AlignedAxis,
            tr("X Axis: Aligned with Rank %1").arg(view->tracks().empty() ? 0 : view->tracks().front().rank) },
    };
    for (const auto& [axis, text] : axes) {
        const TimelineView::XAxis which = axis; // clang 14 cannot capture a structured binding
        QAction* choice = menu.addAction(text, view, [view, which] { view->setXAxis(which); });
        choice->setCheckable(true);
        choice->setChecked(view->xAxis() == which);
        choice->setEnabled(view->available(which));
    }
    menu.addSeparator();
    ImageExport::addImageActions(&menu, view);
    menu.exec(m_plot->mapToGlobal(pos));
}

} // namespace RankScope
