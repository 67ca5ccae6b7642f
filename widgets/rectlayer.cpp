// SPDX-License-Identifier: MIT
#include "rectlayer.h"

#include <QImage>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace RankScope {

namespace {

// A rectangle's whole device pixels on the canvas, rows [y0, y1) and columns [x0, x1), and its colours.
struct PixelBox
{
    int x0;
    int y0;
    int x1;
    int y1;
    QRgb color;
    QRgb outline;
};

// Left and top edges round down, right and bottom to the nearest (halves up), at least one pixel, as the raster engine
// fills an unantialiased rectangle. Outside the canvas altogether: nothing, not a pixel at its edge. Each edge is
// clamped to the canvas first, so that it converts to an int exactly and an edge far off the canvas cannot overflow;
// for a value of at least zero the conversion is the floor, without the libm calls a hundred thousand edges took.
bool pixelBox(const QRectF& r, const QPointF& origin, qreal dpr, int width, int height, PixelBox& box)
{
    const double left = (r.left() - origin.x()) * dpr;
    const double top = (r.top() - origin.y()) * dpr;
    if (r.right() <= origin.x() || r.bottom() <= origin.y() || left >= width || top >= height)
        return false;
    const auto nearest = [](double v) {
        const int whole = int(v);
        return whole + int(v - whole >= 0.5);
    };
    box.x0 = int(std::max(0.0, left));
    box.y0 = int(std::max(0.0, top));
    box.x1 = std::max(box.x0 + 1, nearest(std::min(double(width), (r.right() - origin.x()) * dpr)));
    box.y1 = std::max(box.y0 + 1, nearest(std::min(double(height), (r.bottom() - origin.y()) * dpr)));
    return true;
}

// Columns [x, x + Width) of `rows` rows from `first` on. A width known at compile time leaves a loop over rows whose
// length the branch predictor learns, where a fill of each row ends after a different count.
template <int Width> void fillColumns(QRgb* first, qsizetype stride, int rows, QRgb color)
{
    for (int r = 0; r < rows; ++r, first += stride) {
        for (int i = 0; i < Width; ++i)
            first[i] = color;
    }
}

// The fills of one to eight pixels' width: most of a block map's rectangles are that narrow and a dozen rows tall.
template <size_t... Widths> constexpr auto narrowFills(std::index_sequence<Widths...>)
{
    return std::array<void (*)(QRgb*, qsizetype, int, QRgb), sizeof...(Widths)> { &fillColumns<int(Widths) + 1>... };
}
constexpr auto NarrowFills = narrowFills(std::make_index_sequence<8>());

void fillColumns(QRgb* first, qsizetype stride, int rows, int width, QRgb color)
{
    if (width <= int(NarrowFills.size()))
        return NarrowFills[size_t(width) - 1](first, stride, rows, color);
    for (int r = 0; r < rows; ++r, first += stride)
        std::fill_n(first, width, color);
}

// A box's pixels: the fill, and with an outline its first and last row and column in the outline's colour.
void fillBox(QRgb* bits, qsizetype stride, const PixelBox& b)
{
    const int width = b.x1 - b.x0;
    QRgb* first = bits + qsizetype(b.y0) * stride + b.x0;
    if (!b.outline) {
        fillColumns(first, stride, b.y1 - b.y0, width, b.color);
        return;
    }
    fillColumns(first, stride, 1, width, b.outline);
    if (b.y1 - b.y0 == 1)
        return;
    fillColumns(first + stride, stride, b.y1 - b.y0 - 2, width, b.color);
    fillColumns<1>(first + stride, stride, b.y1 - b.y0 - 2, b.outline);
    fillColumns<1>(first + stride + width - 1, stride, b.y1 - b.y0 - 2, b.outline);
    fillColumns(first + (b.y1 - b.y0 - 1) * stride, stride, 1, width, b.outline);
}

} // namespace

void drawRectLayers(QPainter& p, const QRectF& area, std::span<const RectLayer> layers)
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

    // Each rectangle straight into the canvas, in order. Most of a block map's hundred thousand are a few pixels wide
    // and a dozen tall: a call into libm per edge, calls into QImage per rectangle and a row loop that ends after a
    // different count each time took most of its repaint, so an edge converts inline and narrow boxes fill by width.
    canvas.fill(Qt::transparent);
    const qsizetype stride = canvas.bytesPerLine() / qsizetype(sizeof(QRgb));
    auto* bits = reinterpret_cast<QRgb*>(canvas.bits());
    for (const RectLayer& l : layers) {
        const QRgb color = qPremultiply(l.color);
        const QRgb outline = l.outline ? qPremultiply(l.outline) : 0;
        for (const QRectF& r : l.rects) {
            PixelBox box { 0, 0, 0, 0, color, outline };
            if (pixelBox(r, area.topLeft(), dpr, size.width(), size.height(), box))
                fillBox(bits, stride, box);
        }
    }
    canvas.setDevicePixelRatio(dpr);
    p.drawImage(area.topLeft(), canvas);
}

} // namespace RankScope
