// SPDX-License-Identifier: MIT
#pragma once

#include "devicehistory.h"

#include <QObject>
#include <QPoint>

#include <optional>

class QCustomPlot;
class QMouseEvent;

namespace RankScope {

class TimelineOverview;
class TimelineView;

/// How the user steers the timelines and asks about them: the wheel zooms, a box drawn on a plot zooms into it
/// (Shift+drag pans), keys while the plot has focus, the overview's brush, a click on an allocation or an OOM marker,
/// a double click to compare at an event, the context menu; and the tooltip that says what is under the pointer.
class TimelineInput : public QObject
{
    Q_OBJECT
public:
    /// Steers `view` through its `plot` and `overview`.
    TimelineInput(TimelineView* view, QCustomPlot* plot, TimelineOverview* overview);

    /// The tooltip's text at a point of the plot (in its coordinates), empty where there is nothing.
    QString describeAt(const QPointF& pos) const;
    /// The OOM marker within a few pixels of a point of a track's plot: its index in the track's history's ooms().
    std::optional<size_t> oomAt(int track, const QPointF& pos) const;

signals:
    void allocationClicked(int track, uint32_t allocation);
    void oomClicked(int track, int oom);
    void pointPicked(int track, EventIndex event);

private:
    /// The track whose plot holds a point, or -1.
    int trackAt(const QPointF& pos) const;
    std::optional<uint32_t> allocationAt(int track, const QPointF& pos) const;
    QString tooltipAt(int track, const QPointF& pos) const;
    QString rangeTooltipAt(int track, const QPointF& pos) const;
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    void onDoubleClick(QMouseEvent* event);
    void showContextMenu(const QPoint& pos);

    TimelineView* m_view;
    QCustomPlot* m_plot;
    QPoint m_pressPos;
};

} // namespace RankScope
