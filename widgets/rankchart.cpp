// SPDX-License-Identifier: MIT
#include "chartstyle.h"
#include "exportableplot.h"

#include "rankchart.h"

#include "formatting.h"
#include "imageexport.h"
#include "ranklistmodel.h"
#include "retranslator.h"
#include "tooltiputil.h"
#include "verdicttext.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QStringList>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace RankScope {

RankChart::RankChart(QWidget* parent)
    : QWidget(parent)
    , m_plot(new ExportablePlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(160);
    ImageExport::addImageMenu(m_plot, this);
    m_peak = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_peak->setPen(Qt::NoPen);
    m_peak->setBrush(ChartStyle::peakBarColor(palette()));
    m_peak->setWidth(0.7);
    for (int c = 0; c < CategoryCount; ++c) {
        auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setPen(Qt::NoPen);
        bars->setBrush(ChartStyle::categoryColor(Category(c), palette()));
        bars->setWidth(0.45);
        if (!m_categories.empty())
            bars->moveAbove(m_categories.back());
        m_categories.push_back(bars);
    }
    m_outlier = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_outlier->setPen(QPen(ChartStyle::alertColor(), 2));
    m_outlier->setBrush(Qt::NoBrush);
    m_outlier->setWidth(0.7);

    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
    // The legend gets a row of its own above the bars, so it never hides the rank it would matter for.
    m_plot->legend->setVisible(true);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    ChartStyle::applyPalette(m_plot, palette());
    m_plot->installEventFilter(this);
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton)
            return;
        if (const int rank = rankAt(event->pos()); rank >= 0)
            emit rankClicked(rank, event->modifiers());
    });
    (new Retranslator(this))->add([this] {
        setAccessibleName(tr("Memory per rank"));
        m_overview = tr("Per rank: the peak of live allocations during the trace (light), what it holds at the "
                        "comparison point (dark), and the rank with the highest peak (outlined). Click a bar to show "
                        "that rank as A, Shift+click as B.");
        m_peak->setName(tr("Peak"));
        for (int c = 0; c < CategoryCount; ++c)
            m_categories[size_t(c)]->setName(VerdictText::category(Category(c), VerdictText::Translated));
        m_outlier->setName(tr("Highest"));
        m_plot->yAxis->setLabel(tr("Memory"));
        m_plot->xAxis->setLabel(tr("Rank"));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    rebuild();
}

void RankChart::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        ChartStyle::applyPalette(m_plot, palette());
        m_peak->setBrush(ChartStyle::peakBarColor(palette()));
        for (int c = 0; c < CategoryCount; ++c)
            m_categories[size_t(c)]->setBrush(ChartStyle::categoryColor(Category(c), palette()));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void RankChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // As many legend entries a row as fit whole: the categories' names must not be cut.
    m_plot->legend->setWrap(std::max(1, width() / 130));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool RankChart::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const double key = std::round(m_plot->xAxis->pixelToCoord(help->pos().x()));
        const bool onKey = m_plot->axisRect()->rect().contains(help->pos()) && key >= 0 && key < double(m_ranks.size())
            && std::abs(m_plot->xAxis->pixelToCoord(help->pos().x()) - key) <= m_peak->width() / 2;
        ToolTipUtil::show(help->globalPos(), onKey ? barText(int(key)) : m_overview, m_plot);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

int RankChart::rankAt(const QPoint& pos) const
{
    if (!m_plot->axisRect()->rect().contains(pos))
        return -1;
    const double key = m_plot->xAxis->pixelToCoord(pos.x());
    const double nearest = std::round(key);
    if (std::abs(key - nearest) > m_peak->width() / 2 || nearest < 0 || nearest >= double(m_ranks.size())
        || !m_errors[size_t(nearest)].isEmpty())
        return -1;
    return m_ranks[size_t(nearest)];
}

QPoint RankChart::barCenter(int rank) const
{
    const auto it = std::find(m_ranks.begin(), m_ranks.end(), rank);
    if (it == m_ranks.end())
        return {};
    const double key = double(it - m_ranks.begin());
    const double peak = m_peak->data()->at(int(it - m_ranks.begin()))->value;
    return QPoint(int(m_plot->xAxis->coordToPixel(key)), int(m_plot->yAxis->coordToPixel(peak / 2)));
}

QString RankChart::barText(int key) const
{
    if (key < 0 || size_t(key) >= m_ranks.size())
        return {};
    if (!m_errors[size_t(key)].isEmpty())
        return tr("Rank %1: its file did not load, so it has no bar: %2")
            .arg(QString::number(m_ranks[size_t(key)]), m_errors[size_t(key)]);
    const auto peak = int64_t(m_peak->data()->at(key)->value);
    int64_t allocated = 0;
    QStringList parts;
    for (int c = 0; c < CategoryCount; ++c) {
        const auto bytes = int64_t(m_categories[size_t(c)]->data()->at(key)->value);
        allocated += bytes;
        if (bytes > 0)
            parts << VerdictText::category(Category(c), VerdictText::Translated) + QLatin1Char(' ')
                    + Formatting::bytes(bytes);
    }
    return tr("Rank %1: peak %2, %3 at the comparison point (%4).\nClick: show it as A. Shift+click: as B.")
        .arg(m_ranks[size_t(key)])
        .arg(Formatting::bytes(peak), Formatting::bytes(allocated), parts.join(QLatin1String(", ")));
}

void RankChart::setModel(QAbstractItemModel* model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (m_model) {
        connect(m_model, &QAbstractItemModel::dataChanged, this, &RankChart::rebuild);
        connect(m_model, &QAbstractItemModel::rowsInserted, this, &RankChart::rebuild);
        connect(m_model, &QAbstractItemModel::modelReset, this, &RankChart::rebuild);
    }
    rebuild();
}

void RankChart::rebuild()
{
    QVector<double> keys, peak;
    std::vector<QVector<double>> byCategory(static_cast<size_t>(CategoryCount));
    QStringList labels;
    m_ranks.clear();
    m_errors.clear();
    for (QCPItemText* mark : m_failedMarks)
        m_plot->removeItem(mark);
    m_failedMarks.clear();
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int rows = m_model ? m_model->rowCount() : 0;
    double maxPeak = -1;
    double outlierKey = 0;
    for (int row = 0; row < rows; ++row) {
        const QModelIndex peakIndex = m_model->index(row, RankListModel::PeakColumn);
        const QString error = peakIndex.data(RankListModel::ErrorRole).toString();
        if (!peakIndex.data(Qt::DisplayRole).isValid() && error.isEmpty())
            continue; // still loading, or cancelled: no figures, and nothing went wrong
        const double key = keys.size();
        if (!error.isEmpty()) {
            // Failed: its place kept, empty, with a mark over the axis; the tooltip says why.
            keys.append(key);
            peak.append(0);
            for (int c = 0; c < CategoryCount; ++c)
                byCategory[size_t(c)].append(0);
            labels.append(m_model->index(row, RankListModel::RankColumn).data().toString());
            m_ranks.push_back(m_model->index(row, RankListModel::RankColumn).data().toInt());
            m_errors.push_back(error);
            auto* mark = new QCPItemText(m_plot);
            mark->setClipToAxisRect(true);
            mark->position->setTypeX(QCPItemPosition::ptPlotCoords);
            mark->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            mark->position->setAxes(m_plot->xAxis, m_plot->yAxis);
            mark->position->setAxisRect(m_plot->axisRect());
            mark->position->setCoords(key, 1.0);
            mark->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            mark->setColor(ChartStyle::alertColor());
            QFont bold = mark->font();
            bold.setBold(true);
            bold.setPointSizeF(bold.pointSizeF() * 1.4);
            mark->setFont(bold);
            mark->setText(QStringLiteral("\u2717")); // ✗
            m_failedMarks.push_back(mark);
            continue;
        }
        keys.append(key);
        peak.append(peakIndex.data(RankListModel::SortRole).toDouble());
        // What the rank holds at the comparison point by category: the table's category columns, whose sum is its
        // "At point".
        for (int c = 0; c < CategoryCount; ++c) {
            const QVariant bytes =
                m_model->index(row, RankListModel::ParameterColumn + c).data(RankListModel::SortRole);
            byCategory[size_t(c)].append(bytes.isValid() ? std::max(bytes.toDouble(), 0.0) : 0.0);
        }
        labels.append(m_model->index(row, RankListModel::RankColumn).data().toString());
        m_ranks.push_back(m_model->index(row, RankListModel::RankColumn).data().toInt());
        m_errors.emplace_back();
        if (peak.back() > maxPeak) {
            maxPeak = peak.back();
            outlierKey = key;
        }
    }
    m_peak->setData(keys, peak, true);
    // Mark the rank only when it alone holds the most: among equals there is no outlier to point at.
    const bool differs = std::count(peak.begin(), peak.end(), maxPeak) == 1
        && std::count(m_errors.begin(), m_errors.end(), QString()) > 1;
    if (differs && !keys.isEmpty())
        m_outlier->setData({ outlierKey }, { maxPeak }, true);
    else
        m_outlier->data()->clear();
    m_outlier->setVisible(differs);
    // The legend afresh, in one order whatever came and went before: an entry added back would go last, and the
    // categories must read in their order, the timelines' and every table's.
    m_plot->legend->clearItems();
    m_peak->addToLegend();
    for (int c = 0; c < CategoryCount; ++c) {
        m_categories[size_t(c)]->setData(keys, byCategory[size_t(c)], true);
        // Only the categories some rank holds get a legend entry.
        if (std::any_of(byCategory[size_t(c)].begin(), byCategory[size_t(c)].end(), [](double v) { return v > 0; }))
            m_categories[size_t(c)]->addToLegend();
    }
    if (differs)
        m_outlier->addToLegend();
    // Many ranks: label every n-th (and the outlier), so the labels never run into each other.
    const int every = std::max<int>(1, int(std::ceil(double(keys.size()) / 16.0)));
    for (int i = 0; i < keys.size(); ++i) {
        const bool crowdsOutlier = differs && keys[i] != outlierKey && std::abs(keys[i] - outlierKey) * 2 < every;
        // A failed rank is always named, under its mark.
        if ((i % every == 0 && !crowdsOutlier) || (differs && keys[i] == outlierKey) || !m_errors[size_t(i)].isEmpty())
            ticker->addTick(keys[i], labels[i]);
    }
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(-0.6, std::max<double>(keys.size(), 1) - 0.4);
    m_plot->yAxis->setRange(0, std::max(maxPeak, 1.0) * 1.15);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace RankScope
