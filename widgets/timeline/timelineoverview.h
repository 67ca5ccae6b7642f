// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <cstdint>
#include <vector>

namespace RankScope {

/// A strip under the timelines with each rank's whole curve and the stretch the timelines show as a brush, as the
/// official viewer's mini-map: drag the brush to pan, drag elsewhere to choose a new stretch, click to centre the
/// brush there, double-click to see everything, wheel to zoom. It knows keys (the timelines' x coordinates) only.
class TimelineOverview : public QWidget
{
    Q_OBJECT
public:
    struct Curve
    {
        /// Column boundaries (columns + 1) in keys, and each column's highest total.
        std::vector<double> keys;
        std::vector<int64_t> maxTotal;
    };
    /// A key range, lower < upper.
    struct Range
    {
        double lower = 0;
        double upper = 1;
    };

    explicit TimelineOverview(QWidget* parent = nullptr);

    void setCurves(std::vector<Curve> curves);
    /// Everything there is to see, and what the timelines show of it.
    void setRanges(Range full, Range window);
    Range window() const
    {
        return m_window;
    }
    /// Pixels left and right of the plot area, so that the strip lines up with the plots above it.
    void setPlotMargins(int left, int right);
    /// The brush's rectangle in the widget (for tests).
    QRectF brushRect() const;
    bool hasCurves() const
    {
        return !m_curves.empty();
    }
    const std::vector<Curve>& curves() const
    {
        return m_curves;
    }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The user moved or drew the brush.
    void windowRequested(double lower, double upper);
    /// Double-click: show everything.
    void fitRequested();
    /// Wheel over the strip: zoom in by `notches` wheel notches (negative: out) around `key`.
    void zoomRequested(double notches, double key);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    QRectF area() const;
    double xOf(double key) const;
    double keyAt(double x) const;

    enum Drag
    {
        NoDrag,
        Moving,
        Brushing,
    };
    std::vector<Curve> m_curves;
    Range m_full;
    Range m_window;
    int m_left = 0;
    int m_right = 0;
    Drag m_drag = NoDrag;
    double m_anchor = 0; // key where a drag began
    Range m_dragStart;
    QPointF m_pressPos;
};

} // namespace RankScope
