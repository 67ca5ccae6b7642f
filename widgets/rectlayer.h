// SPDX-License-Identifier: MIT
#pragma once

#include <QRectF>
#include <QRgb>

#include <span>
#include <vector>

class QPainter;

namespace RankScope {

/// Rectangles of one colour (and an optional one-pixel outline), for views that draw tens of thousands of them.
struct RectLayer
{
    QRgb color = 0;
    QRgb outline = 0;
    std::vector<QRectF> rects;
};

/// Draws `layers` in order, clipped to `area`. On screen the rectangles are filled straight into an image (whole
/// device pixels, at least one), which keeps a full repaint of tens of thousands of them within a frame; on a vector
/// device (SVG, PDF) they stay rectangles, one call per colour.
void drawRectLayers(QPainter& painter, const QRectF& area, std::span<const RectLayer> layers);

} // namespace RankScope
