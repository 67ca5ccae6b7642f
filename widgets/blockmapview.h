// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"
#include "jobtracker.h"

#include <QWidget>

#include <optional>
#include <vector>

namespace RankScope {

/// The allocator's memory of one rank at one moment, drawn as the official viewer's Allocator State History
/// does: segments sorted by size and packed left to right into rows as wide as the largest segment, each block at
/// its offset inside its segment. Blocks are coloured by site (or by state), pending frees in the alert colour,
/// rounding waste as a thin alert strip after its block, free space inside segments left blank. The selected
/// finding's contiguous runs are outlined; hover tells address, size, state and stack; the wheel zooms around the
/// cursor, dragging pans, a double click resets. Two maps can be linked (setPartner): they then share one
/// bytes-per-pixel scale, so the same segment size has the same width on both, and zoom and pan together. The state
/// is replayed off the GUI thread; the newest request wins.
class BlockMapView : public QWidget
{
    Q_OBJECT
public:
    enum Coloring
    {
        BySite,
        ByState,
    };

    explicit BlockMapView(QWidget* parent = nullptr);
    ~BlockMapView() override;

    /// Shows `history` after `event`; `site` must be the comparison's, so that colours match its sites. `state` is the
    /// allocator's state after `event` where the caller has it (the comparison's), else it is replayed here.
    void setState(int rank, const QString& role, DeviceHistoryPtr history, EventIndex event, const SiteOptions& site,
        std::shared_ptr<const AllocatorState> state = nullptr);
    void clear();
    /// Address ranges to outline (a finding's runs on this rank); empty for none.
    void setOutlinedRuns(std::vector<FindingRun> runs);
    /// Lights one site's blocks (SiteTable::fingerprint) and fades the rest.
    void setHighlightedSite(std::optional<uint64_t> fingerprint);
    std::optional<uint64_t> highlightedSite() const
    {
        return m_highlight;
    }
    void setColoring(Coloring coloring);
    Coloring coloring() const
    {
        return m_coloring;
    }
    /// The map shown beside this one (ranks A and B); both must be told of each other.
    void setPartner(BlockMapView* partner);
    /// While linked (the default), this map and its partner share one scale and zoom and pan together.
    void setLinked(bool linked);
    bool isLinked() const
    {
        return m_linked;
    }
    /// Bytes in a row of the map at zoom 1 (the same on linked maps: the same bytes, the same pixels).
    double rowBytes() const
    {
        return m_packing.rowWidth;
    }
    double zoom() const
    {
        return m_zoom;
    }
    /// Zooms by `factor` around `at` (widget pixels), as the wheel does.
    void zoomAt(const QPointF& at, double factor);
    /// The legend's entries, for tests.
    QStringList legendTexts() const;
    /// What the map draws each state in, for `palette`: the map and its legend take their colours from here.
    struct StateColors
    {
        QColor free; ///< inside a segment, between blocks
        QColor segmentOutline;
        QColor allocated; ///< a block, coloured by state
        QColor otherSites; ///< with a site lit, every other site's blocks
        QColor pendingFree;
        QColor rounding; ///< the strip a block's rounding wastes
        QColor finding; ///< the selected finding's outline, drawn on a casing of the free colour
    };
    static StateColors stateColors(const QPalette& palette);
    /// Marks the free spans between live blocks smaller than `request` bytes (a fragmentation verdict's failed
    /// request on this rank); 0 for none.
    void setTooSmallFor(int64_t request);
    /// Free spans marked as too small in the shown state (for tests).
    int tooSmallGapCount() const;

    /// Outlined runs that lie in a segment of the shown state (for tests).
    int visibleOutlinedRuns() const;
    /// Blocks of the highlighted site in the shown state (for tests and the stack pane).
    int highlightedBlockCount() const;
    int blockCount() const;
    /// The allocator's figures at the shown moment (the header's), or none before the state is in.
    std::optional<DeviceStats> stats() const;
    int segmentCount() const;
    bool isBusy() const
    {
        return m_jobs.isBusy();
    }
    /// The text the tooltip shows at a point of the widget, empty where there is nothing.
    QString describeAt(const QPointF& pos) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// A new state is shown.
    void stateReady();
    /// A block was clicked: its address and stack in the shown rank's snapshot.
    void blockClicked(uint64_t address, StackId stack);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

public:
    struct Layout;
    /// Where each segment is drawn: rows of segments, each row at most `rowWidth` bytes wide.
    struct Packing
    {
        std::vector<int> segmentRow; // per segment
        std::vector<double> segmentOffset; // per segment: bytes from the row's start
        std::vector<std::vector<uint32_t>> rows; // segments of each row, left to right
        double rowWidth = 1;
    };

private:
    QRectF mapArea() const;
    QRectF segmentRect(size_t segment) const;
    // The same for a map area computed once, for a paint of tens of thousands of segments.
    QRectF segmentRect(size_t segment, const QRectF& area) const;
    double xOf(size_t segment, uint64_t address) const;
    std::optional<size_t> segmentAt(const QPointF& pos) const;

    void repack();
    /// The row width this map would choose on its own: as wide as its largest segment, wider until rows fit.
    double ownRowWidth() const;
    void setView(double zoom, QPointF pan);
    std::vector<struct LegendEntry> legendEntries() const;
    double legendHeight() const;

    std::shared_ptr<const Layout> m_layout;
    Packing m_packing;
    int m_rank = -1;
    QString m_role;
    EventIndex m_event = BeforeTrace;
    std::vector<FindingRun> m_runs;
    std::optional<uint64_t> m_highlight;
    Coloring m_coloring = BySite;
    int64_t m_tooSmallFor = 0;
    JobTracker m_jobs { this };
    // What the legend's height depends on (reset when the language or font changes).
    struct LegendCache
    {
        int width = -1;
        bool highlight = false;
        Coloring coloring = BySite;
        int64_t tooSmallFor = 0;
        double height = 0;
        bool sameEntries(const LegendCache& o) const
        {
            return width == o.width && highlight == o.highlight && coloring == o.coloring
                && tooSmallFor == o.tooSmallFor;
        }
    };
    mutable LegendCache m_legendCache;
    BlockMapView* m_partner = nullptr;
    bool m_linked = true;
    double m_zoom = 1;
    QPointF m_pan; // in unzoomed map pixels
    QPointF m_dragFrom;
    QPointF m_pressPos;
};

} // namespace RankScope
