// SPDX-License-Identifier: MIT
#include "chartstyle.h"

#include "formatting.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace RankScope {

double BytesTicker::getTickStep(const QCPRange& range)
{
    const double raw = range.size() / 5.0;
    if (raw <= 0)
        return 1;
    double unit = 1;
    while (unit * 1024 <= raw)
        unit *= 1024;
    for (double mult : { 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0 }) {
        if (unit * mult >= raw)
            return unit * mult;
    }
    return unit * 1024;
}

QString BytesTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return Formatting::bytes(int64_t(tick));
}

QString CountTicker::label(double value)
{
    const double magnitude = std::abs(value);
    // Returns a QString: an auto-typed QStringBuilder would outlive the temporaries it refers to.
    const auto scaled = [&](double unit, const char* suffix) -> QString {
        // Up to three significant digits, no trailing zeros: 1.6 M, 12 k, 250 k.
        return QString::number(value / unit, 'g', 3) + QLatin1Char(' ') + QLatin1String(suffix);
    };
    if (magnitude >= 1e9)
        return scaled(1e9, "G");
    if (magnitude >= 1e6)
        return scaled(1e6, "M");
    if (magnitude >= 1e4)
        return scaled(1e3, "k");
    return QString::number(value, 'g', 6);
}

QString CountTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return label(tick);
}

void StepTicker::setSteps(std::vector<int64_t> steps)
{
    std::sort(steps.begin(), steps.end());
    m_steps = std::move(steps);
}

QVector<double> StepTicker::createTickVector(double tickStep, const QCPRange& range)
{
    // In each stretch of one tick step, the first step from its round start ("2000", not "2100", where steps go by
    // hundreds) that is half a tick step or more past the one labelled before.
    QVector<double> ticks;
    if (tickStep <= 0)
        return ticks;
    for (double start = std::floor(range.lower / tickStep) * tickStep; start <= range.upper; start += tickStep) {
        for (auto it = std::lower_bound(m_steps.begin(), m_steps.end(), int64_t(std::ceil(start)));
             it != m_steps.end() && double(*it) < start + tickStep; ++it) {
            const auto at = double(*it);
            if (range.contains(at) && (ticks.isEmpty() || at - ticks.back() >= tickStep / 2)) {
                ticks.append(at);
                break;
            }
        }
    }
    return ticks;
}

int StepTicker::getSubTickCount(double)
{
    return 0;
}

QString StepTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return QString::number(qint64(tick));
}

namespace ChartStyle {

QRgb siteRgb(uint64_t fingerprint)
{
    // Tableau 20 minus its reds (kept for alerts) and greys (kept for the summarized band).
    static constexpr std::array<QRgb, 16> palette = { 0x4e79a7, 0xa0cbe8, 0xf28e2b, 0xffbe7d, 0x59a14f, 0x8cd17d,
        0xb6992d, 0xf1ce63, 0x499894, 0x86bcb6, 0xd37295, 0xfabfd2, 0xb07aa1, 0xd4a6c8, 0x9d7660, 0xd7b5a6 };
    return 0xff000000 | palette[(fingerprint ^ (fingerprint >> 32)) % palette.size()];
}

QColor siteColor(uint64_t fingerprint)
{
    return QColor::fromRgb(siteRgb(fingerprint));
}

QColor alertColor()
{
    return QColor(0xe1, 0x57, 0x59);
}

QColor accentColor(const QPalette& palette)
{
    return palette.color(QPalette::Text);
}

QColor summarizedColor()
{
    return QColor(0xba, 0xb0, 0xac);
}

namespace {

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

double luminance(const QColor& c)
{
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

} // namespace

QColor mixed(const QColor& a, const QColor& b, double share)
{
    return QColor::fromRgbF(float(a.redF() * share + b.redF() * (1 - share)),
        float(a.greenF() * share + b.greenF() * (1 - share)), float(a.blueF() * share + b.blueF() * (1 - share)));
}

namespace {

// Golden-ratio steps through hues 30° (orange) to 285° (violet): any run of neighbours is spread over the range, and
// the same allocation keeps its colour at every zoom. Three lightness levels split similar hues. The step's fraction
// x - floor(x) is exact, as fmod(x, 1) is.
constexpr size_t AllocationHues = 255;
constexpr size_t AllocationLevels = 3;

std::pair<size_t, size_t> allocationHueAndLevel(uint32_t allocation)
{
    constexpr double golden = 0.6180339887498949;
    const double steps = double(allocation) * golden;
    return { size_t((steps - std::floor(steps)) * double(AllocationHues)), allocation % AllocationLevels };
}

QColor allocationHsv(size_t hue, size_t level, bool dark)
{
    const int l = int(level);
    return QColor::fromHsv(30 + int(hue), 150 + l * 30, dark ? 190 + l * 20 : 235 - l * 30);
}

} // namespace

QColor allocationColor(uint32_t allocation, const QPalette& palette)
{
    const auto [hue, level] = allocationHueAndLevel(allocation);
    return allocationHsv(hue, level, isDark(palette));
}

AllocationColors::AllocationColors(const QPalette& palette)
{
    // Every colour allocationColor gives, converted from HSV once per theme.
    static const auto table = [] {
        std::array<QRgb, 2 * AllocationLevels * AllocationHues> colors {};
        for (size_t dark = 0; dark < 2; ++dark) {
            for (size_t level = 0; level < AllocationLevels; ++level) {
                for (size_t hue = 0; hue < AllocationHues; ++hue)
                    colors[(dark * AllocationLevels + level) * AllocationHues + hue] =
                        allocationHsv(hue, level, dark != 0).rgba();
            }
        }
        return colors;
    }();
    m_table = table.data() + (isDark(palette) ? AllocationLevels * AllocationHues : 0);
}

QRgb AllocationColors::rgb(uint32_t allocation) const
{
    const auto [hue, level] = allocationHueAndLevel(allocation);
    return m_table[level * AllocationHues + hue];
}

QColor findingColor(const QPalette& palette)
{
    return isDark(palette) ? QColor(0xf0, 0x4c, 0xd2) : QColor(0xc0, 0x1a, 0x9e);
}

QColor tinted(const QColor& color, const QPalette& palette)
{
    return mixed(findingColor(palette), color, 0.55);
}

QColor faded(const QColor& color, const QPalette& palette)
{
    return mixed(color, palette.color(QPalette::Base), 0.25);
}

QColor peakBarColor(const QPalette& palette)
{
    // Opaque tints, so the bar reads the same over grid lines; on a dark base a lighter blue than the at-point bar.
    return isDark(palette) ? QColor(0x8c, 0xb1, 0xd9)
                           : mixed(QColor(0x4e, 0x79, 0xa7), palette.color(QPalette::Base), 0.4);
}

QColor pointBarColor(const QPalette& palette)
{
    return isDark(palette) ? QColor(0x5b, 0x8d, 0xc4) : QColor(0x4e, 0x79, 0xa7);
}

QColor categoryColor(Category category, const QPalette& palette)
{
    // Model state in blues and teal, what a step makes in greens and yellow, the rest grey.
    static const QColor light[CategoryCount] = { QColor(0x4e, 0x79, 0xa7), QColor(0x9d, 0x7a, 0xd2),
        QColor(0x76, 0xb7, 0xb2), QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48), QColor(0xa0, 0x98, 0x94) };
    const QColor c = light[size_t(category)];
    return isDark(palette) ? c.lighter(120) : c;
}

QColor annotationColor(const QPalette& palette)
{
    return mixed(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.75);
}

QColor annotationRangeColor(const QPalette& palette)
{
    return isDark(palette) ? QColor(0x9d, 0xb8, 0xe0) : QColor(0x2f, 0x4b, 0x7c);
}

QColor bannerColor(const QColor& kind, const QPalette& palette)
{
    return isDark(palette) ? mixed(kind, palette.color(QPalette::Window), 0.35) : kind.lighter(175);
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2d, 0x2d, 0x30), base(0x1e, 0x1e, 0x20), text(0xe8, 0xe8, 0xe8), button(0x3a, 0x3a, 0x3d);
    const QColor disabledText(0x80, 0x80, 0x80), highlight(0x3d, 0x7f, 0xc4);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x28, 0x28, 0x2b));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, button.lighter(150));
    p.setColor(QPalette::Midlight, button.lighter(125));
    p.setColor(QPalette::Mid, button.darker(130));
    p.setColor(QPalette::Dark, button.darker(180));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6a, 0xa9, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xf0));
    for (QPalette::ColorRole role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, button);
    return p;
}

void applyPalette(QCustomPlot* plot, const QPalette& palette)
{
    const QColor text = palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(45);
    QColor subGrid = text;
    subGrid.setAlpha(18);
    plot->setBackground(palette.base());
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(text, 0));
            axis->setTickPen(QPen(text, 0));
            axis->setSubTickPen(QPen(text, 0));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
            axis->grid()->setSubGridPen(QPen(subGrid, 0, Qt::DotLine));
            axis->grid()->setZeroLinePen(Qt::NoPen);
        }
    }
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        if (auto* title = qobject_cast<QCPTextElement*>(element))
            title->setTextColor(text);
    }
    if (plot->legend) { // gone when the plot's layout was rebuilt without one
        plot->legend->setTextColor(text);
        plot->legend->setBrush(palette.base());
    }
}

} // namespace ChartStyle

} // namespace RankScope
