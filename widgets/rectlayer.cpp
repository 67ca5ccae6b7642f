// SPDX-License-Identifier: MIT
#include "rectlayer.h"

#include <QImage>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace RankScope {

namespace {

// Fills whole device pixels: left and top edges round down, right and bottom to the nearest, at least one pixel,
// as the raster engine fills an unantialiased rectangle.
void fillInto(QImage& image, const QRectF& r, const QPointF& origin, qreal dpr, QRgb color, QRgb outline)
{
    // Outside the image altogether: nothing, not a pixel at its edge.
    if (r.right() <= origin.x() || r.bottom() <= origin.y() || (r.left() - origin.x()) * dpr >= image.width()
        || (r.top() - origin.y()) * dpr >= image.height())
        return;
    const int x0 = std::max(0, int(std::floor((r.left() - origin.x()) * dpr)));
    const int y0 = std::max(0, int(std::floor((r.top() - origin.y()) * dpr)));
    const int x1 = std::min(image.width(), std::max(x0 + 1, int(std::lround((r.right() - origin.x()) * dpr))));
    const int y1 = std::min(image.height(), std::max(y0 + 1, int(std::lround((r.bottom() - origin.y()) * dpr))));
    if (x0 >= x1 || y0 >= y1)
        return;
    uchar* bits = image.bits();
    const qsizetype stride = image.bytesPerLine();
    for (int y = y0; y < y1; ++y) {
        auto* line = reinterpret_cast<QRgb*>(bits + y * stride);
        const bool edge = outline && (y == y0 || y == y1 - 1);
        std::fill(line + x0, line + x1, edge ? outline : color);
        if (outline && !edge) {
            line[x0] = outline;
            line[x1 - 1] = outline;
        }
    }
}

} // namespace

void drawRectLayers(QPainter& p, const QRectF& area, const std::vector<RectLayer>& layers)
{
    if (p.paintEngine()->type() != QPaintEngine::Raster) {
        // Vector output (SVG, PDF) keeps rectangles: one call per colour.
        for (const RectLayer& l : layers) {
            p.setPen(l.outline ? QPen(QColor::fromRgba(l.outline), 0) : QPen(Qt::NoPen));
            p.setBrush(QColor::fromRgba(l.color));
            p.drawRects(l.rects.data(), int(l.rects.size()));
        }
        return;
    }
    const qreal dpr = p.device()->devicePixelRatioF();
    // The pixels are kept from one repaint to the next, as many as the largest view drawn so far needs, each view
    // drawing into their top-left corner: a fresh image of a full-screen view is megabytes of fresh pages, whose
    // faults took a fifth of the block map's repaint, and the window repaints views of several sizes in turn.
    thread_local QImage pixels;
    const QSize size(int(std::ceil(area.width() * dpr)), int(std::ceil(area.height() * dpr)));
    if (size.isEmpty())
        return;
    if (pixels.width() < size.width() || pixels.height() < size.height())
        pixels = QImage(pixels.size().expandedTo(size), QImage::Format_ARGB32_Premultiplied);
    QImage canvas(pixels.bits(), size.width(), size.height(), pixels.bytesPerLine(), pixels.format());
    canvas.fill(Qt::transparent);
    for (const RectLayer& l : layers) {
        const QRgb color = qPremultiply(l.color);
        const QRgb outline = l.outline ? qPremultiply(l.outline) : 0;
        for (const QRectF& r : l.rects)
            fillInto(canvas, r, area.topLeft(), dpr, color, outline);
    }
    canvas.setDevicePixelRatio(dpr);
    p.drawImage(area.topLeft(), canvas);
}

} // namespace RankScope
