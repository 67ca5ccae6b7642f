// SPDX-License-Identifier: MIT
#include "comparecolumn.h"

#include <QEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace RankScope {

namespace {

int leastHeight(const QWidget* widget)
{
    return std::max(widget->minimumSizeHint().height(), widget->minimumHeight());
}

int leastWidth(const QWidget* widget)
{
    return std::max(widget->minimumSizeHint().width(), widget->minimumWidth());
}

} // namespace

CompareColumn::CompareColumn(QWidget* timelines, QSplitter* maps, QWidget* findings, QWidget* parent)
    : QSplitter(Qt::Vertical, parent)
    , m_timelines(timelines)
    , m_maps(maps)
    , m_findings(findings)
    , m_top(new QSplitter(Qt::Horizontal))
    , m_mapsSlot(new QWidget)
{
    setObjectName(QStringLiteral("compareSplitter"));
    m_top->addWidget(m_timelines);
    m_top->setStretchFactor(0, 1);
    auto* slot = new QVBoxLayout(m_mapsSlot);
    slot->setContentsMargins(0, 0, 0, 0);
    slot->addWidget(m_maps);
    addWidget(m_top);
    addWidget(m_mapsSlot);
    addWidget(m_findings);
    setStretchFactor(0, 5);
    setStretchFactor(1, 3);
    setStretchFactor(2, 3);
}

int CompareColumn::stackedHeight() const
{
    // The maps' own minimum, whichever way their splitter is turned now.
    int maps = 0;
    for (int i = 0; i < m_maps->count(); ++i)
        maps = std::max(maps, leastHeight(m_maps->widget(i)));
    return leastHeight(m_timelines) + maps + leastHeight(m_findings) + 2 * handleWidth();
}

QSize CompareColumn::minimumSizeHint() const
{
    int mapsHeight = 0;
    int mapsWidth = 0;
    for (int i = 0; i < m_maps->count(); ++i) {
        mapsHeight += leastHeight(m_maps->widget(i)) + (i > 0 ? m_maps->handleWidth() : 0);
        mapsWidth = std::max(mapsWidth, leastWidth(m_maps->widget(i)));
    }
    const int top = std::max(leastHeight(m_timelines), mapsHeight);
    return { std::max(QSplitter::minimumSizeHint().width(), leastWidth(m_timelines) + handleWidth() + mapsWidth),
        top + handleWidth() + leastHeight(m_findings) };
}

bool CompareColumn::event(QEvent* event)
{
    const bool handled = QSplitter::event(event);
    // A part's minimum changed (the timelines got their tracks, another language, another font).
    if (event->type() == QEvent::LayoutRequest && m_placed)
        fit();
    return handled;
}

void CompareColumn::resizeEvent(QResizeEvent* event)
{
    QSplitter::resizeEvent(event);
    fit();
}

void CompareColumn::fit()
{
    const bool beside = height() < stackedHeight();
    if (!m_placed || beside != m_beside)
        placeMaps(beside);
}

void CompareColumn::placeMaps(bool beside)
{
    m_placed = true;
    m_beside = beside;
    if (beside) {
        m_top->addWidget(m_maps);
        m_top->setStretchFactor(1, 0);
        m_maps->setOrientation(Qt::Vertical);
        m_mapsSlot->hide();
        // The maps a third as wide as the timelines: a map is read by its rows, the timelines by their width.
        const int width = m_top->width() > 0 ? m_top->width() : this->width();
        m_top->setSizes({ width * 3 / 4, width / 4 });
        // The findings what the timelines leave (sizes saved with the maps under the timelines do not fit here).
        const int findings = std::max(leastHeight(m_findings), height() - leastHeight(m_timelines) - handleWidth());
        setSizes({ height() - findings - handleWidth(), 0, findings });
    } else {
        m_mapsSlot->layout()->addWidget(m_maps);
        m_maps->setOrientation(Qt::Horizontal);
        m_mapsSlot->show();
        // Sizes saved or made with the maps beside the timelines left the maps no height.
        const QList<int> now = sizes();
        if (now.value(1) < leastHeight(m_mapsSlot)) {
            const int free = std::max(0, height() - stackedHeight());
            setSizes({ leastHeight(m_timelines) + free * 5 / 11, leastHeight(m_mapsSlot) + free * 3 / 11,
                leastHeight(m_findings) + free * 3 / 11 });
        }
    }
}

} // namespace RankScope
