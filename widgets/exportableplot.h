// SPDX-License-Identifier: MIT
#pragma once

// qcustomplot.h must come first: it uses `foreach`, which later Qt headers may have disabled.
#include <qcustomplot.h>

namespace RankScope {

/// A QCustomPlot that can paint itself as vectors. On screen QCustomPlot paints a cached pixmap; rendered into an
/// export (PNG at 2×, SVG, PDF) that pixmap would be blurry or a raster blob, so while vector painting is on, a
/// paint event draws every layer directly onto whatever device the painting is redirected to. On screen its cached
/// pixmap follows the screen's device pixel ratio, so plots stay sharp at 2× and when moved between screens.
class ExportablePlot : public QCustomPlot
{
    Q_OBJECT
public:
    using QCustomPlot::QCustomPlot;

    void setVectorPainting(bool on)
    {
        m_vector = on;
    }
    /// For a plot only ever drawn into pictures (a sheet never on a screen): its screen pixmap is never seen.
    void setPictureOnly(bool on)
    {
        m_pictureOnly = on;
    }
    /// False while a replot draws the screen pixmap of a picture-only plot, which no one sees: what costs to draw
    /// (a timeline's bands, millions of edges) is drawn once, into the picture.
    bool drawnForSomeone() const
    {
        return !m_pictureOnly || m_vector;
    }
    /// Lays the plot out for its present size as a replot would (afterLayout included), without drawing it.
    void layOut()
    {
        emit beforeReplot();
        updateLayout();
    }

protected:
    bool event(QEvent* event) override
    {
        if (event->type() == QEvent::ScreenChangeInternal || event->type() == QEvent::Show)
            syncPixelRatio();
        return QCustomPlot::event(event);
    }
    void paintEvent(QPaintEvent* event) override
    {
        if (!m_vector) {
            QCustomPlot::paintEvent(event);
            return;
        }
        QCPPainter painter(this);
        if (painter.isActive())
            toPainter(&painter, width(), height());
    }

private:
    void syncPixelRatio()
    {
        const double ratio = devicePixelRatioF();
        if (!qFuzzyCompare(bufferDevicePixelRatio(), ratio)) {
            setBufferDevicePixelRatio(ratio);
            replot(rpQueuedReplot);
        }
    }

    bool m_vector = false;
    bool m_pictureOnly = false;
};

} // namespace RankScope
