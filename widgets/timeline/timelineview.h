// SPDX-License-Identifier: MIT
#pragma once

#include "annotationranges.h"
#include "categories.h"
#include "devicehistory.h"
#include "jobtracker.h"
#include "sitetable.h"
#include "timelinedetail.h"
#include "zoomhistory.h"

#include <QWidget>

#include <optional>
#include <vector>

class QAction;
class QCustomPlot;
class QCPAxisRect;
class QCPRange;
class QMenu;
class QTimer;

namespace RankScope {

class ExportablePlot;
class LegendStrip;
class TimelineInput;
class TimelineOverview;

/// One rank's timeline to show.
struct TimelineTrack
{
    TimelineTrack() = default;
    TimelineTrack(int rank, QString role, DeviceHistoryPtr history, EventIndex point, CategoriesPtr categories = {})
        : rank(rank)
        , role(std::move(role))
        , history(std::move(history))
        , point(point)
        , categories(std::move(categories))
    { }

    int rank = 0;
    /// "A", "B" or empty: the role of the rank in the comparison, shown in its title.
    QString role;
    DeviceHistoryPtr history;
    /// The comparison point, drawn as a vertical line.
    EventIndex point = BeforeTrace;
    /// The category of each allocation of `history` (Comparison::categoriesPtr), for colouring by category.
    CategoriesPtr categories;
};

/// The ranks' Active Memory Timelines stacked vertically: one plot per rank of equal height sharing the x axis
/// (event index, seconds since each rank's first event, aligned profiler steps or the top rank's aligned trace) and
/// one memory scale, so a difference in height is a difference in memory. Every allocation at least a pixel tall at
/// the current zoom is a band of its own, in its own colour (or its site's, or its category's), and smaller ones too
/// where they add up (TimelineLod); the rest is one grey remainder. Peak, OOM, step and comparison-point markers on
/// top, annotated ranges (record_function scopes, NCCL collectives) as named strips near the top of each plot, an
/// overview strip with a brush and a legend below. Level of detail is recomputed off the GUI thread whenever
/// the visible range, the memory scale or the size changes; the newest request wins. The wheel zooms time, dragging
/// draws a box to zoom into, Shift-drag pans; zoom is linked across ranks unless unlinked. Every view the user settles
/// on is remembered for Zoom Back and Zoom Forward (Alt+Left, Alt+Right) until other tracks are shown.
///
/// The view lays the plots out and keeps their axes, zoom and legend; its parts live beside it in widgets/timeline:
/// TimelineAxis maps events to x keys, TimelineDetail is what a level-of-detail job is asked and answers,
/// TimelineBands paints a track, TimelineInput takes the mouse, keys and menus and words the tooltips.
class TimelineView : public QWidget
{
    Q_OBJECT
public:
    enum XAxis
    {
        EventAxis,
        /// Seconds since each rank's first event.
        TimeAxis,
        /// Profiler steps (ProfilerStep#N scopes), each step stretched to one unit so steps line up across ranks.
        StepAxis,
        /// The top rank's trace events; every other rank's events are placed at the same moment of that trace
        /// (TraceAlignment), so the same code lines up event for event.
        AlignedAxis,
    };

    /// What a band's colour says: where the allocation was made (the same site in the same colour on every rank), or
    /// what it is for (parameters, activations …, as the rank chart stacks them).
    enum BandColoring
    {
        /// Each allocation its own colour (ChartStyle::allocationColor), so neighbouring tensors can be told apart.
        ColorByAllocation,
        ColorBySite,
        ColorByCategory,
    };
    /// How the memory axes of the ranks relate: one scale for all (the default: equal bytes, equal pixels), or each
    /// rank's plot fitted to its own data.
    enum YScale
    {
        SharedScale,
        FitEachScale,
    };

    /// Per track, where its events are in the top track's trace: (event of the top track, event of this one) pairs,
    /// increasing in both (TimelineAxis::align).
    using Anchors = std::shared_ptr<const std::vector<std::pair<EventIndex, EventIndex>>>;

    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    /// Shows these ranks, top to bottom; `site` must be the comparison's, so that colours match its sites.
    void setTracks(std::vector<TimelineTrack> tracks, const SiteOptions& site);
    const std::vector<TimelineTrack>& tracks() const
    {
        return m_tracks;
    }
    /// Lights the allocations of one site on every rank (by SiteTable::fingerprint) and fades the others.
    void setHighlightedSite(std::optional<uint64_t> fingerprint);
    std::optional<uint64_t> highlightedSite() const
    {
        return m_highlight;
    }
    /// Outlines one allocation (index into the track's DeviceHistory::allocations()).
    void setSelectedAllocation(int track, std::optional<uint32_t> allocation);
    /// Uses `axis` when every track supports it (now or once tracks arrive), else the event axis.
    void setXAxis(XAxis axis);
    XAxis preferredXAxis() const
    {
        return m_preferredAxis;
    }
    XAxis xAxis() const
    {
        return m_xAxis;
    }
    /// True when every track has event times, so the time axis can be used.
    bool timeAvailable() const;
    /// True when every track recorded profiler steps, so the step axis can be used.
    bool stepsAvailable() const;
    /// True when there are several tracks and every other one aligns with the top one.
    bool alignmentAvailable() const;
    bool available(XAxis axis) const;

    void setBandColoring(BandColoring coloring);
    /// "allocation", "site", "category"; nullopt for anything else.
    static std::optional<BandColoring> parseColoring(const QString& name);
    /// Fills `menu` with the colourings to choose from, the current one checked (the window's View menu and the
    /// timelines' context menu).
    void fillColoringMenu(QMenu* menu);
    BandColoring bandColoring() const
    {
        return m_bandColoring;
    }
    void setYScale(YScale scale);
    YScale yScale() const
    {
        return m_yScale;
    }
    /// Draws the annotated ranges (AnnotationRanges) over the plots; on by default. Not remembered: the user's choice
    /// goes through annotationRangesAction().
    void setAnnotationRangesShown(bool shown);
    bool annotationRangesShown() const
    {
        return m_rangesShown;
    }
    /// "Show Annotated Ranges", checkable: the timelines' context menu offers it, a window may offer it too. The
    /// user's choice, remembered (QSettings) for every timeline made afterwards.
    QAction* annotationRangesAction() const
    {
        return m_rangesAction;
    }
    /// The strips a track's annotated ranges are drawn as at the current zoom and size, in the plot's pixels; none
    /// while they are hidden.
    std::vector<AnnotationRanges::Strip> annotationStrips(int track) const;
    /// Where a strip of a track is drawn on the plot.
    QRectF stripRect(int track, const AnnotationRanges::Strip& strip) const;
    /// Where the rank's title sits on a track's plot, in its top left: strips and labels keep clear of it.
    QRect titleRect(int track) const;
    /// A strip's label: its range's name, or how many ranges it merges.
    QString stripLabel(int track, const AnnotationRanges::Strip& strip) const;
    /// The font of the markers' and strips' labels.
    QFont markerFont() const;
    /// Zoom and pan of one rank's plot move the others too (the default).
    void setZoomLinked(bool linked);
    bool zoomLinked() const
    {
        return m_zoomLinked;
    }
    /// Level of detail: the most bands a plot draws. Every allocation a pixel tall gets one up to this many; past it
    /// the smallest join the remainder. More cost drawing time.
    void setMaxBands(int bands);
    int maxBands() const
    {
        return m_maxBands;
    }
    /// As many as the official viewer draws.
    static constexpr int DefaultBands = 15000;
    /// The least height a track's plot gets, at any window size.
    static constexpr int MinimumTrackHeight = 130;
    /// The range kept per wheel notch (QCustomPlot's factor): ChartStyle::WheelZoomStep a notch.
    static const double WheelZoomFactor;

    void zoomIn();
    void zoomOut();
    /// Time and memory axes back to everything.
    void resetZoom();
    /// The memory axes fitted to the highest total in view.
    void fitMemoryAxis();
    /// Back to the view before the last zoom or pan, and forward again; both kept until other tracks are shown.
    void zoomBack();
    void zoomForward();
    bool canZoomBack() const;
    bool canZoomForward() const;
    /// "Zoom Back" (Alt+Left) and "Zoom Forward" (Alt+Right), enabled while there is a view to go to: the timelines'
    /// context menu has them, a window's menu may too.
    QAction* zoomBackAction() const
    {
        return m_backAction;
    }
    QAction* zoomForwardAction() const
    {
        return m_forwardAction;
    }
    /// Records the view on screen in the zoom history now. Zooms by command are recorded at once; the wheel, the
    /// overview's brush and panning once they have rested a moment, so that a burst of wheel notches is one step.
    void settleZoom();
    /// Pans time by `fraction` of the visible range (negative: earlier).
    void pan(double fraction);
    /// Zooms time into [lower, upper] (keys of the current axis), on every rank while zoom is linked.
    void zoomToKeys(double lower, double upper);
    /// Zooms into a rectangle of a track's plot, in the plot widget's pixels: time to its width, memory to its height
    /// (its height only when it is at least a few pixels tall).
    void zoomToBox(int track, const QRect& box);

    /// Bytes a pixel of a track's memory axis is worth now: allocations this big or bigger are bands of their own.
    int64_t pixelBytes(int track) const;
    /// Columns of a track where allocations of the highlighted site too small for a band are marked.
    int litMarkerColumns(int track) const;
    /// The failed request of an OOM of a track as drawn: a bar of its size over what was held, just right of its line.
    QRectF oomBar(int track, const OomMarker& oom) const;
    /// A track's OOM labels as last painted: (index in its history's ooms(), box).
    const std::vector<std::pair<size_t, QRectF>>& oomLabels(int track) const;
    /// The boxes of a track's title and labels as last painted (TimelineBands::labels).
    const std::vector<QRectF>& paintedLabels(int track) const;
    /// What a track's plot said as last painted when the memory range left it empty (TimelineBands::emptyHint).
    QString emptyHint(int track) const;
    /// The most a history's failed requests reach: what was held at each OOM plus what it asked for.
    static int64_t oomTop(const DeviceHistory& history);
    /// Columns of a track's rug along the time axis where the highlighted site is live, as last painted.
    int litRugColumns(int track) const;
    /// The strip with the whole trace and its brush, and the legend under the plots.
    TimelineOverview* overview() const
    {
        return m_overview;
    }
    LegendStrip* legend() const
    {
        return m_legend;
    }
    /// Bands drawn lit for the highlighted site on a track (for tests and the status line).
    int highlightedBandCount(int track) const;
    /// Band count of a track's current level of detail.
    int bandCount(int track) const;
    /// True while a level-of-detail job is running or about to start.
    bool isBusy() const;
    /// True when the detail asked for last (shown or in flight) is the one the plots' present geometry needs.
    bool detailIsCurrent() const;
    /// Lays the plot out now and starts at once the detail a zoom or resize waits for (debounced while the user
    /// drags): a picture drawn off screen has nothing to wait for.
    void flushDetail();
    QCustomPlot* plot() const;
    /// The text the tooltip shows at a point of the plot (in its coordinates), empty where there is nothing.
    QString describeAt(const QPointF& pos) const;
    /// The x coordinate of an event of a track on the current axis.
    double keyOf(int track, EventIndex event) const;
    /// The OOM marker within a few pixels of a point of a track's plot: its index in the track's history's ooms().
    std::optional<size_t> oomAt(int track, const QPointF& pos) const;
    /// The event of a track at an x coordinate of the current axis.
    EventIndex eventAt(int track, double key) const;

signals:
    /// An allocation was clicked.
    void allocationClicked(int track, uint32_t allocation);
    /// An OOM marker was clicked: the `oom`-th of the track's history's ooms().
    void oomClicked(int track, int oom);
    /// The user asked to compare at this event of this track (double click or context menu).
    void pointPicked(int track, EventIndex event);
    /// A level-of-detail result was applied and none is pending.
    void detailReady();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // The user's input reads the tracks' plots and details to say what is under the pointer.
    friend class TimelineInput;
    /// What the view keeps per track (timelinetrack.h).
    struct Track;
    void rebuildLayout();
    void onRangeChanged(const QCPRange& range, QCPAxisRect* source);
    void requestDetail();
    /// What a detail for the plots' present ranges and sizes would ask, one request per track.
    std::vector<TimelineDetail::Request> detailRequests() const;
    /// True when `requests` are what each track's detail was asked for last.
    bool isRequested(const std::vector<TimelineDetail::Request>& requests) const;
    bool anyAnnotationRanges() const;
    QCPRange fullRange() const;
    void equalizeTrackHeights();
    /// The memory axes to `range`, or without one fitted to each rank's peak (fitMemoryAxes).
    void applyMemoryRanges(std::optional<QCPRange> range);
    /// The memory axes from zero to the highest of `highest` (one scale) or each rank's own, with headroom.
    void fitMemoryAxes(const std::vector<double>& highest);
    double valuePerPixel(int track) const;
    void requestOverview();
    void updateOverviewWindow();
    void updateLegend();
    void setKeyRange(QCPAxisRect* source, QCPRange range);
    ZoomHistory::View currentView() const;
    void showView(const ZoomHistory::View& view);
    /// A new set of tracks or a new x axis: the views remembered are of other keys.
    void restartZoomHistory();
    void updateZoomActions();
    // Per track, where its events are in the top track's trace (empty for the top one); computed when first needed.
    const std::vector<Anchors>& alignment() const;

    ExportablePlot* m_plot;
    TimelineOverview* m_overview;
    LegendStrip* m_legend;
    QTimer* m_detailTimer;
    QAction* m_rangesAction;
    QAction* m_backAction;
    QAction* m_forwardAction;
    QTimer* m_settleTimer;
    TimelineInput* m_input;
    std::vector<TimelineTrack> m_tracks;
    std::vector<std::unique_ptr<Track>> m_views;
    SiteOptions m_site;
    int m_maxBands = DefaultBands;
    BandColoring m_bandColoring = ColorByAllocation;
    YScale m_yScale = SharedScale;
    bool m_zoomLinked = true;
    bool m_rangesShown = true;
    int m_overviewWidth = 0;
    XAxis m_xAxis = EventAxis;
    XAxis m_preferredAxis = EventAxis;
    std::optional<uint64_t> m_highlight;
    JobTracker m_jobs { this };
    JobTracker m_overviewJobs { this };
    bool m_syncing = false;
    ZoomHistory m_zoomHistory;
    /// The view changed since it was last recorded.
    bool m_zoomPending = false;
    mutable std::vector<Anchors> m_alignment;
    mutable bool m_alignmentDone = false;
};

} // namespace RankScope
