// SPDX-License-Identifier: MIT
#include "legend.h"

#include <QPainter>

namespace RankScope {

namespace {

constexpr int IconWidth = 14;
constexpr int IconGap = 4;
constexpr int EntryGap = 14;
constexpr int RowGap = 3;

// Where each entry goes: one walk, used both to measure and to paint, so they never disagree.
template <typename Place>
int layOut(const std::vector<LegendEntry>& entries, int width, const QFontMetrics& metrics, Place place)
{
    const int rowHeight = metrics.height();
    int x = 0;
    int y = 0;
    for (const LegendEntry& entry : entries) {
        const int w = IconWidth + IconGap + metrics.horizontalAdvance(entry.text);
        if (x > 0 && x + w > width) {
            x = 0;
            y += rowHeight + RowGap;
        }
        place(entry, x, y, rowHeight);
        x += w + EntryGap;
    }
    return entries.empty() ? 0 : y + rowHeight;
}

} // namespace

namespace Legend {

int height(const std::vector<LegendEntry>& entries, int width, const QFont& font)
{
    return layOut(entries, width, QFontMetrics(font), [](const LegendEntry&, int, int, int) {});
}

void paint(QPainter& painter, const QRectF& area, const std::vector<LegendEntry>& entries, const QColor& text)
{
    const QFontMetrics metrics = painter.fontMetrics();
    painter.save();
    layOut(entries, int(area.width()), metrics, [&](const LegendEntry& entry, int x, int y, int rowHeight) {
        const QRectF icon(area.left() + x, area.top() + y + (rowHeight - 10) / 2.0, IconWidth, 10);
        painter.setRenderHint(QPainter::Antialiasing, entry.shape == LegendEntry::Diamond);
        switch (entry.shape) {
        case LegendEntry::Swatch:
            painter.setPen(entry.pen);
            painter.setBrush(entry.brush);
            painter.drawRect(icon.adjusted(0.5, 0.5, -0.5, -0.5));
            break;
        case LegendEntry::Line:
            painter.setPen(entry.pen);
            painter.drawLine(QPointF(icon.center().x(), icon.top() - 1), QPointF(icon.center().x(), icon.bottom() + 1));
            break;
        case LegendEntry::Diamond: {
            const QPointF c = icon.center();
            painter.setPen(entry.pen);
            painter.setBrush(entry.brush);
            painter.drawPolygon(
                QPolygonF { c + QPointF(0, -5), c + QPointF(5, 0), c + QPointF(0, 5), c + QPointF(-5, 0) });
            break;
        }
        case LegendEntry::Spectrum: {
            const double part = icon.width() / double(std::max<size_t>(entry.colors.size(), 1));
            for (size_t i = 0; i < entry.colors.size(); ++i)
                painter.fillRect(
                    QRectF(icon.left() + part * double(i), icon.top(), part, icon.height()), entry.colors[i]);
            break;
        }
        }
        painter.setPen(text);
        painter.drawText(QPointF(area.left() + x + IconWidth + IconGap, area.top() + y + metrics.ascent()), entry.text);
    });
    painter.restore();
}

LegendEntry spectrum(const QString& text, const std::function<QColor(uint32_t)>& colorOf)
{
    LegendEntry entry { LegendEntry::Spectrum, {}, Qt::NoPen, text, {} };
    for (uint32_t i = 0; i < 5; ++i)
        entry.colors.push_back(colorOf(i));
    return entry;
}

QStringList texts(const std::vector<LegendEntry>& entries)
{
    QStringList list;
    for (const LegendEntry& e : entries)
        list << e.text;
    return list;
}

} // namespace Legend

LegendStrip::LegendStrip(QWidget* parent)
    : QWidget(parent)
{
    // Its height is its size hint's, its rows at its width (resizeEvent asks again when the width changes). Not a
    // height-for-width policy: with one, the exported page's layout grew the picture past the size asked for.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void LegendStrip::setEntries(std::vector<LegendEntry> entries)
{
    m_entries = std::move(entries);
    updateGeometry();
    update();
}

QStringList LegendStrip::texts() const
{
    return Legend::texts(m_entries);
}

int LegendStrip::heightForWidth(int width) const
{
    return Legend::height(m_entries, width - 8, font()) + 6;
}

QSize LegendStrip::sizeHint() const
{
    return QSize(400, heightForWidth(std::max(width(), 400)));
}

QSize LegendStrip::minimumSizeHint() const
{
    return QSize(100, heightForWidth(std::max(width(), 100)));
}

void LegendStrip::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Narrower, the entries take another row ("比较点" went under the plot's edge, cut): ask the layout for it.
    if (heightForWidth(width()) != height())
        updateGeometry();
}

void LegendStrip::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    Legend::paint(painter, QRectF(4, 3, width() - 8, height() - 3), m_entries, palette().color(QPalette::Text));
}

} // namespace RankScope
