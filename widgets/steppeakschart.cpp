// SPDX-License-Identifier: MIT
#include "chartstyle.h"
#include "exportableplot.h"

#include "steppeakschart.h"

#include "imageexport.h"
#include "retranslator.h"

#include <QVBoxLayout>

namespace RankScope {

StepPeaksChart::StepPeaksChart(QWidget* parent)
    : QWidget(parent)
    , m_plot(new ExportablePlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(110);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
    m_plot->plotLayout()->insertRow(0);
    auto* title = new QCPTextElement(m_plot);
    m_plot->plotLayout()->addElement(0, 0, title);
    ImageExport::addImageMenu(m_plot, this);
    ChartStyle::applyPalette(m_plot, palette());
    (new Retranslator(this))->add([this, title] {
        setAccessibleName(tr("Peak per step"));
        title->setText(tr("Peak per step"));
        m_plot->xAxis->setLabel(tr("Step"));
        setToolTip(tr("Each rank's peak at every training step of the folder: a rank that keeps tensors from one step "
                      "to the next climbs while the others stay level. Ranks A and B are bold."));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    hide();
}

void StepPeaksChart::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        ChartStyle::applyPalette(m_plot, palette());
        rebuild();
    }
}

void StepPeaksChart::setComparison(const ComparisonPtr& comparison, int rankA, int rankB)
{
    m_comparison = comparison;
    m_rankA = rankA;
    m_rankB = rankB;
    rebuild();
}

void StepPeaksChart::rebuild()
{
    m_plot->clearGraphs();
    const bool steps = m_comparison
        && std::any_of(m_comparison->ranks().begin(), m_comparison->ranks().end(),
            [](const RankSummary& r) { return r.peakPerStep.size() > 1; });
    setVisible(steps);
    if (!steps)
        return;
    const Verdict& v = m_comparison->verdict();
    const int growing = v.kind == Verdict::Growth ? v.rank : -1;
    QCPRange x(0, 0), y(0, 0);
    bool first = true;
    // The others first, so A, B and the growing rank are drawn over them.
    std::vector<const RankSummary*> order;
    for (const RankSummary& r : m_comparison->ranks())
        order.push_back(&r);
    auto prominence = [&](int rank) { return rank == growing ? 3 : rank == m_rankA ? 2 : rank == m_rankB ? 1 : 0; };
    std::stable_sort(order.begin(), order.end(),
        [&](const RankSummary* a, const RankSummary* b) { return prominence(a->rank) < prominence(b->rank); });
    for (const RankSummary* r : order) {
        if (r->peakPerStep.size() < 2)
            continue;
        QCPGraph* g = m_plot->addGraph();
        QVector<double> keys, values;
        for (const auto& [step, peak] : r->peakPerStep) {
            keys.append(double(step));
            values.append(double(peak));
            if (first) {
                x = QCPRange(double(step), double(step));
                y = QCPRange(double(peak), double(peak));
                first = false;
            }
            x.expand(double(step));
            y.expand(double(peak));
        }
        g->setData(keys, values, true);
        const int p = prominence(r->rank);
        const QColor colour = p == 3 ? ChartStyle::alertColor()
            : p > 0                  ? ChartStyle::accentColor(palette())
                                     : ChartStyle::annotationColor(palette());
        g->setPen(QPen(colour, p > 0 ? 2.5 : 1, p == 1 ? Qt::DashLine : Qt::SolidLine));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, p > 0 ? 6 : 3));
        g->setName(tr("Rank %1").arg(r->rank));
    }
    const double pad = std::max((y.upper - y.lower) * 0.15, y.upper * 0.02 + 1);
    m_plot->yAxis->setRange(std::max(0.0, y.lower - pad), y.upper + pad);
    const double xpad = std::max((x.upper - x.lower) * 0.05, 0.5);
    m_plot->xAxis->setRange(x.lower - xpad, x.upper + xpad);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (const auto& [step, peak] : m_comparison->ranks().front().peakPerStep)
        ticker->addTick(double(step), QString::number(step));
    m_plot->xAxis->setTicker(ticker);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace RankScope
