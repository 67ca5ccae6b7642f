// SPDX-License-Identifier: MIT
#pragma once

#include "categories.h"
#include "devicehistory.h"
#include "jobtracker.h"
#include "sitetable.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPRange;
class QCPTextElement;
class QTimer;

namespace RankScope {

class TimelineBands;

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

/// The ranks' Active Memory Timelines stacked vertically: one plot per rank sharing the x axis (event index,
/// seconds since each rank's first event, or aligned profiler steps) and one memory scale, so a difference in height is
/// a difference in memory. The largest allocations are bands coloured by site, the rest one grey band; peak, OOM, step
/// and comparison-point markers on top. Level of detail is recomputed off the GUI thread whenever the visible range or
/// the width changes; the newest request wins. Zoom and pan (wheel, drag) are horizontal and shared by all ranks.
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
        ColorBySite,
        ColorByCategory,
    };

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
    BandColoring bandColoring() const
    {
        return m_bandColoring;
    }
    /// Level of detail: how many of the largest allocations get a band of their own (the rest are one grey band).
    /// More bands cost drawing time, and colours stop being told apart.
    void setMaxBands(int bands);
    int maxBands() const
    {
        return m_maxBands;
    }
    static constexpr int DefaultBands = 48;
    /// The least height a track's plot gets, at any window size.
    static constexpr int MinimumTrackHeight = 140;
    /// The range kept per wheel notch (QCustomPlot's factor): 0.8 zooms 1.25× a notch.
    static constexpr double WheelZoomFactor = 0.8;

    void zoomIn();
    void zoomOut();
    void resetZoom();

    /// Bands drawn lit for the highlighted site on a track (for tests and the status line).
    int highlightedBandCount(int track) const;
    /// Band count of a track's current level of detail.
    int bandCount(int track) const;
    /// True while a level-of-detail job is running or about to start.
    bool isBusy() const;
    QCustomPlot* plot() const
    {
        return m_plot;
    }
    /// The text the tooltip shows at a point of the plot (in its coordinates), empty where there is nothing.
    QString describeAt(const QPointF& pos) const;
    /// The x coordinate of an event of a track on the current axis.
    double keyOf(int track, EventIndex event) const;
    /// The event of a track at an x coordinate of the current axis.
    EventIndex eventAt(int track, double key) const;

signals:
    /// An allocation was clicked.
    void allocationClicked(int track, uint32_t allocation);
    /// The user asked to compare at this event of this track (double click or context menu).
    void pointPicked(int track, EventIndex event);
    /// A level-of-detail result was applied and none is pending.
    void detailReady();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Track;
    void rebuildLayout();
    void onRangeChanged(const QCPRange& range, QCPAxisRect* source);
    void requestDetail();
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    void onDoubleClick(QMouseEvent* event);
    void showContextMenu(const QPoint& pos);
    int trackAt(const QPointF& pos) const;
    QString tooltipAt(int track, const QPointF& pos) const;
    std::optional<uint32_t> allocationAt(int track, const QPointF& pos) const;
    QCPRange fullRange() const;
    void equalizeTrackHeights();
    // Per track, where its events are in the top track's trace (empty for the top one); computed when first needed.
    using Anchors = std::shared_ptr<const std::vector<std::pair<EventIndex, EventIndex>>>;
    const std::vector<Anchors>& alignment() const;

    QCustomPlot* m_plot;
    QTimer* m_detailTimer;
    std::vector<TimelineTrack> m_tracks;
    std::vector<std::unique_ptr<Track>> m_views;
    SiteOptions m_site;
    int m_maxBands = DefaultBands;
    BandColoring m_bandColoring = ColorBySite;
    XAxis m_xAxis = EventAxis;
    XAxis m_preferredAxis = EventAxis;
    std::optional<uint64_t> m_highlight;
    JobTracker m_jobs { this };
    bool m_syncing = false;
    QPoint m_pressPos;
    mutable std::vector<Anchors> m_alignment;
    mutable bool m_alignmentDone = false;
};

} // namespace RankScope
