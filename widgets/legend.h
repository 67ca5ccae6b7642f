// SPDX-License-Identifier: MIT
#pragma once

#include <QBrush>
#include <QPen>
#include <QString>
#include <QWidget>

#include <functional>
#include <vector>

class QPainter;

namespace RankScope {

/// One entry of a view's legend: a small picture of what the view draws and what it means.
struct LegendEntry
{
    enum Shape
    {
        /// A filled rectangle (with `pen` as its outline).
        Swatch,
        /// A short vertical line in `pen`, as markers across a plot are drawn.
        Line,
        /// A diamond filled with `brush`, outlined with `pen` (the peak).
        Diamond,
        /// Several colours side by side: each allocation in its own colour.
        Spectrum,
    };
    Shape shape = Swatch;
    QBrush brush;
    QPen pen = Qt::NoPen;
    QString text;
    /// Spectrum: the colours shown.
    std::vector<QColor> colors;
};

/// Legends drawn the same way by every view, in rows as wide as the room they get.
namespace Legend {
/// The height `entries` take at `width` in `font`.
int height(const std::vector<LegendEntry>& entries, int width, const QFont& font);
/// Draws `entries` in `area`, wrapping to new rows; text in `text`.
void paint(QPainter& painter, const QRectF& area, const std::vector<LegendEntry>& entries, const QColor& text);
/// A Spectrum entry with a few samples of a colouring (each allocation or site its own colour).
LegendEntry spectrum(const QString& text, const std::function<QColor(uint32_t)>& colorOf);
/// The entries' texts (for tests).
QStringList texts(const std::vector<LegendEntry>& entries);
} // namespace Legend

/// A legend as a widget of its own, under the view it explains; as high as its entries need at its width.
class LegendStrip : public QWidget
{
    Q_OBJECT
public:
    explicit LegendStrip(QWidget* parent = nullptr);
    void setEntries(std::vector<LegendEntry> entries);
    const std::vector<LegendEntry>& entries() const
    {
        return m_entries;
    }
    /// The entries' texts, for tests.
    QStringList texts() const;
    bool hasHeightForWidth() const override
    {
        return true;
    }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    std::vector<LegendEntry> m_entries;
};

} // namespace RankScope
