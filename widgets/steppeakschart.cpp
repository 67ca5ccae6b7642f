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
    // The step labels and the axis's name leave the lines two thirds of this.
    m_plot->setMinimumHeight(150);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
    m_plot->yAxis->ticker()->setTickCount(3);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new StepTicker));
    // Title and legend in a column beside the lines, at its top: the chart is short, so every row of height goes to
    // the lines, and the legend never covers one.
    auto* side = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 1, side);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    auto* title = new QCPTextElement(m_plot);
    title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    title->setMargins(QMargins(6, 4, 2, 2));
    side->addElement(0, 0, title);
    m_plot->legend->setVisible(true);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    m_plot->legend->setRowSpacing(0);
    m_plot->legend->setIconSize(18, 10);
    side->addElement(1, 0, m_plot->legend);
    side->addElement(2, 0, new QCPLayoutElement(m_plot)); // takes the height left over
    side->setRowStretchFactors({ 0.001, 0.001, 1 });
    ImageExport::addImageMenu(m_plot, this);
    ChartStyle::applyPalette(m_plot, palette());
    (new Retranslator(this))->add([this, title] {
        setAccessibleName(tr("Peak per step"));
        title->setText(tr("Peak per step"));
        m_plot->xAxis->setLabel(tr("Step"));
        setToolTip(tr("Each rank's peak at every training step of the folder: a rank that keeps tensors from one step "
                      "to the next climbs while the others stay level. Ranks A and B are bold."));
        rebuild();
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

void StepPeaksChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    labelSteps();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void StepPeaksChart::setComparison(const ComparisonPtr& comparison, int rankA, int rankB)
{
    m_comparison = comparison;
    m_rankA = rankA;
    m_rankB = rankB;
    rebuild();
}

void StepPeaksChart::labelSteps()
{
    auto ticker = qSharedPointerCast<StepTicker>(m_plot->xAxis->ticker());
    ticker->setSteps(m_steps);
    const QFontMetrics metrics(m_plot->xAxis->tickLabelFont());
    const int label = metrics.horizontalAdvance(QString::number(m_steps.empty() ? 0 : m_steps.back()))
        + 2 * metrics.averageCharWidth();
    // The axis as wide as it was last drawn; before that, the widget less the legend and the memory labels.
    const int axis = m_plot->axisRect()->width() > 0 ? m_plot->axisRect()->width() : width() - 160;
    ticker->setTickCount(std::max(2, axis / std::max(1, label)));
}

void StepPeaksChart::rebuild()
{
    m_plot->clearGraphs();
    m_plot->legend->clearItems();
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
    std::vector<QCPGraph*> named;
    QCPGraph* other = nullptr;
    int others = 0;
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
        // The legend names A, B and the growing rank; the other ranks share one entry, a line alike for all.
        QStringList roles;
        if (r->rank == m_rankA)
            roles << QStringLiteral("A");
        if (r->rank == m_rankB)
            roles << QStringLiteral("B");
        if (r->rank == growing)
            roles << tr("grows");
        g->setName(roles.isEmpty() ? tr("Rank %1").arg(r->rank)
                                   : tr("Rank %1 (%2)").arg(r->rank).arg(roles.join(QLatin1String(", "))));
        if (p > 0)
            named.push_back(g);
        else if (++others == 1)
            other = g;
    }
    m_plot->legend->clearItems(); // addGraph added each
    for (auto it = named.rbegin(); it != named.rend(); ++it)
        (*it)->addToLegend();
    if (other) {
        if (others > 1)
            other->setName(tr("%n other rank(s)", nullptr, others));
        other->addToLegend();
    }
    const double pad = std::max((y.upper - y.lower) * 0.15, y.upper * 0.02 + 1);
    m_plot->yAxis->setRange(std::max(0.0, y.lower - pad), y.upper + pad);
    const double xpad = std::max((x.upper - x.lower) * 0.05, 0.5);
    m_plot->xAxis->setRange(x.lower - xpad, x.upper + xpad);
    m_steps.clear();
    for (const auto& [step, peak] : m_comparison->ranks().front().peakPerStep)
        m_steps.push_back(step);
    labelSteps();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace RankScope
