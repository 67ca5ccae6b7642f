// SPDX-License-Identifier: MIT
#include "chartstyle.h"

#include "pairedbars.h"

#include "imageexport.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace RankScope::PairedBars {

namespace {

void setUpHeadline(QLabel* headline)
{
    QFont bold = headline->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    headline->setFont(bold);
    headline->setAutoFillBackground(true);
    headline->setMargin(8);
    headline->setWordWrap(true);
    headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void setUpPlot(QCustomPlot* plot, QWidget* menuOwner)
{
    plot->setMinimumHeight(240);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
    plot->legend->setVisible(true);
    plot->legend->setBorderPen(Qt::NoPen);
    // The legend in a row of its own above the bars: inside the axis rect it hid the last ranks' bars.
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setMargins(QMargins(4, 2, 4, 0));
    ImageExport::addImageMenu(plot, menuOwner);
}

} // namespace

void layOut(QWidget* owner, QLabel* headline, QLabel* details, QCustomPlot* plot, QTreeWidget* items, int plotStretch,
    int itemsStretch)
{
    auto* layout = new QVBoxLayout(owner);
    setUpHeadline(headline);
    details->setWordWrap(true);
    details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(headline);
    layout->addWidget(details);
    layout->addWidget(plot, plotStretch);
    layout->addWidget(items, itemsStretch);
    // Takes the height the plot and the tree leave when a view hides them (nothing to show), not the labels.
    layout->addStretch(0);
    setUpPlot(plot, owner);
    items->header()->setStretchLastSection(false);
    items->header()->setSectionResizeMode(0, QHeaderView::Stretch);
}

void setAnswer(QLabel* headline, std::optional<bool> good)
{
    const QWidget* parent = headline->parentWidget();
    QPalette palette = parent ? parent->palette() : headline->palette();
    if (good) {
        const QColor kind = *good ? QColor(0x59, 0xa1, 0x4f) : ChartStyle::alertColor();
        palette.setColor(QPalette::Window, ChartStyle::bannerColor(kind, palette));
    }
    headline->setPalette(palette);
}

Bars draw(QCustomPlot* plot, const std::vector<Pair>& pairs, const QString& beforeName, const QString& afterName)
{
    plot->clearPlottables();
    plot->clearItems();
    Bars bars { new QCPBars(plot->xAxis, plot->yAxis), new QCPBars(plot->xAxis, plot->yAxis) };
    bars.before->setName(beforeName);
    bars.after->setName(afterName);
    bars.before->setBrush(QColor(0xe1, 0x57, 0x59, 150));
    bars.after->setBrush(QColor(0x4e, 0x79, 0xa7));
    for (QCPBars* b : { bars.before, bars.after }) {
        b->setPen(Qt::NoPen);
        b->setWidth(Width);
    }
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    double top = 1;
    const size_t every = std::max<size_t>(1, pairs.size() / 16);
    for (size_t i = 0; i < pairs.size(); ++i) {
        const Pair& pair = pairs[i];
        if (pair.before >= 0)
            bars.before->addData(double(i) - Offset, double(pair.before));
        if (pair.after >= 0)
            bars.after->addData(double(i) + Offset, double(pair.after));
        top = std::max({ top, double(pair.before), double(pair.after) });
        if (i % every == 0)
            ticks->addTick(double(i), pair.label);
    }
    plot->xAxis->setTicker(ticks);
    plot->xAxis->setRange(-0.6, std::max<double>(double(pairs.size()), 1) - 0.4);
    plot->yAxis->setRange(0, top * 1.15);
    ChartStyle::applyPalette(plot, plot->palette());
    return bars;
}

} // namespace RankScope::PairedBars
