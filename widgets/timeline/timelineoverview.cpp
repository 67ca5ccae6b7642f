// SPDX-License-Identifier: MIT
#include "timelineoverview.h"

#include "chartstyle.h"
#include "retranslator.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace RankScope {

TimelineOverview::TimelineOverview(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setCursor(Qt::CrossCursor);
    (new Retranslator(this))->add([this] {
        setAccessibleName(tr("Overview of the whole trace"));
        setToolTip(tr("The whole trace of each rank. Drag the frame to pan, drag elsewhere to choose a stretch, "
                      "click to centre there, double-click to see everything."));
    });
}

void TimelineOverview::setCurves(std::vector<Curve> curves)
{
    m_curves = std::move(curves);
    update();
}

void TimelineOverview::setRanges(Range full, Range window)
{
    m_full = full;
    m_window = window;
    update();
}

void TimelineOverview::setPlotMargins(int left, int right)
{
    if (left == m_left && right == m_right)
        return;
    m_left = left;
    m_right = right;
    update();
}

QSize TimelineOverview::sizeHint() const
{
    return QSize(400, 32);
}

QSize TimelineOverview::minimumSizeHint() const
{
    return QSize(100, 32);
}

QRectF TimelineOverview::area() const
{
    return QRectF(m_left, 2, std::max(1, width() - m_left - m_right), height() - 4);
}

double TimelineOverview::xOf(double key) const
{
    const QRectF a = area();
    const double span = std::max(m_full.upper - m_full.lower, 1e-12);
    return a.left() + (key - m_full.lower) / span * a.width();
}

double TimelineOverview::keyAt(double x) const
{
    const QRectF a = area();
    return m_full.lower + (x - a.left()) / a.width() * (m_full.upper - m_full.lower);
}

QRectF TimelineOverview::brushRect() const
{
    const QRectF a = area();
    const double left = xOf(m_window.lower);
    // At least a few pixels, so a deep zoom still shows where it is.
    const double right = std::max(xOf(m_window.upper), left + 3);
    return QRectF(left, a.top(), right - left, a.height());
}

void TimelineOverview::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    const QRectF a = area();
    p.fillRect(a, pal.color(QPalette::Base));
    int64_t max = 1;
    for (const Curve& c : m_curves)
        max = std::max(max, c.maxTotal.empty() ? int64_t(1) : *std::max_element(c.maxTotal.begin(), c.maxTotal.end()));
    // The top rank filled, the others as lines over it.
    for (size_t i = 0; i < m_curves.size(); ++i) {
        const Curve& c = m_curves[i];
        QPolygonF line;
        for (size_t col = 0; col < c.maxTotal.size(); ++col) {
            const double y = a.bottom() - double(c.maxTotal[col]) / double(max) * (a.height() - 2);
            line << QPointF(xOf(c.keys[col]), y) << QPointF(xOf(c.keys[col + 1]), y);
        }
        if (line.isEmpty())
            continue;
        QColor color = i == 0 ? ChartStyle::pointBarColor(pal) : ChartStyle::annotationColor(pal);
        if (i == 0) {
            QPolygonF area = line;
            area << QPointF(line.back().x(), a.bottom()) << QPointF(line.front().x(), a.bottom());
            QColor fill = color;
            fill.setAlpha(110);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            p.drawPolygon(area);
        }
        p.setPen(QPen(color, 1));
        p.setBrush(Qt::NoBrush);
        p.drawPolyline(line);
    }
    // What the timelines do not show, dimmed; the brush outlined.
    const QRectF brush = brushRect();
    QColor dim = pal.color(QPalette::Window);
    dim.setAlpha(150);
    p.fillRect(QRectF(a.left(), a.top(), std::max(0.0, brush.left() - a.left()), a.height()), dim);
    p.fillRect(QRectF(brush.right(), a.top(), std::max(0.0, a.right() - brush.right()), a.height()), dim);
    p.setPen(QPen(ChartStyle::accentColor(pal), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(brush.adjusted(0.5, 0.5, -0.5, -0.5));
    p.setPen(QPen(pal.color(QPalette::Mid), 0));
    p.drawRect(a.adjusted(0, 0, -1, -1));
}

void TimelineOverview::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_pressPos = event->position();
    m_anchor = keyAt(event->position().x());
    m_dragStart = m_window;
    const QRectF brush = brushRect().adjusted(-3, -100, 3, 100);
    // A brush over everything has nowhere to move: a drag on it draws a new one, or zoomed out a drag did nothing.
    const bool everything = brushRect().width() >= area().width() - 1;
    m_drag = brush.contains(event->position()) && !everything ? Moving : Brushing;
}

void TimelineOverview::mouseMoveEvent(QMouseEvent* event)
{
    if (m_drag == NoDrag)
        return;
    const double key = keyAt(event->position().x());
    if (m_drag == Moving) {
        const double shift = key - m_anchor;
        emit windowRequested(m_dragStart.lower + shift, m_dragStart.upper + shift);
    } else if (std::abs(event->position().x() - m_pressPos.x()) > 3) {
        emit windowRequested(std::min(m_anchor, key), std::max(m_anchor, key));
    }
}

void TimelineOverview::mouseReleaseEvent(QMouseEvent* event)
{
    const Drag drag = m_drag;
    m_drag = NoDrag;
    // A click outside the brush centres it there.
    if (drag == Brushing && std::abs(event->position().x() - m_pressPos.x()) <= 3) {
        const double half = (m_window.upper - m_window.lower) / 2;
        emit windowRequested(m_anchor - half, m_anchor + half);
    }
}

void TimelineOverview::mouseDoubleClickEvent(QMouseEvent*)
{
    m_drag = NoDrag;
    emit fitRequested();
}

void TimelineOverview::wheelEvent(QWheelEvent* event)
{
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0)
        return;
    emit zoomRequested(notches, keyAt(event->position().x()));
    event->accept();
}

} // namespace RankScope
