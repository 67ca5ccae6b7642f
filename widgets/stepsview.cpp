// SPDX-License-Identifier: MIT
#include "chartstyle.h"
#include "exportableplot.h"

#include "stepsview.h"

#include "formatting.h"
#include "imageexport.h"
#include "retranslator.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

namespace RankScope {

namespace {

// Ranks are told apart by colour; the diverging one always takes the alert colour.
QColor rankColor(int rank)
{
    return ChartStyle::siteColor(uint64_t(rank) * 0x9E3779B97F4A7C15ULL + 1);
}

} // namespace

StepsView::StepsView(QWidget* parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_memory(new ExportablePlot(this))
    , m_input(new ExportablePlot(this))
    , m_table(new QTreeWidget(this))
{
    auto* layout = new QVBoxLayout(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setFrameShape(QFrame::StyledPanel);
    m_summary->setMargin(8);
    layout->addWidget(m_summary);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_memory);
    auto* bottom = new QSplitter(Qt::Horizontal, splitter);
    bottom->addWidget(m_input);
    bottom->addWidget(m_table);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 1);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);
    m_memory->setMinimumHeight(220);
    m_input->setMinimumHeight(140);
    m_memory->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_memory->axisRect()->setRangeZoom(Qt::Horizontal);
    m_memory->axisRect()->setRangeDrag(Qt::Horizontal);
    m_memory->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
    m_memory->legend->setVisible(true);
    m_memory->legend->setBorderPen(Qt::NoPen);
    // Lines sit high (peaks); the legend goes low, where there is room.
    m_memory->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignRight | Qt::AlignBottom);
    ImageExport::addImageMenu(m_memory, m_memory);
    ImageExport::addImageMenu(m_input, m_input);
    m_table->setRootIsDecorated(false);
    m_table->setColumnCount(4);
    m_table->header()->setStretchLastSection(true);
    (new Retranslator(this))->add([this] {
        m_table->setHeaderLabels({ tr("Rank"), tr("Reports"), tr("Max peak"), tr("Max tokens") });
        m_table->setAccessibleName(tr("Ranks in the step reports"));
        m_memory->setAccessibleName(tr("Memory per step"));
        m_input->setAccessibleName(tr("Input size per report"));
        m_summary->setAccessibleName(tr("Step report summary"));
    });
    rebuild();
}

void StepsView::setLog(StepLog log, StepAnalysis analysis)
{
    m_log = std::move(log);
    m_analysis = std::move(analysis);
    rebuild();
}

QString StepsView::summary() const
{
    return m_summary->text();
}

void StepsView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        rebuild();
}

void StepsView::rebuild()
{
    showSummary();
    drawMemory();
    drawInput();
    fillTable();
    for (QCustomPlot* plot : { m_memory, m_input }) {
        ChartStyle::applyPalette(plot, palette());
        plot->replot();
    }
}

void StepsView::showSummary()
{
    const std::optional<StepDivergence>& d = m_analysis.divergence;
    QString text;
    if (m_analysis.ranks.empty()) {
        text = tr("Open the training logs of a job: every rank's step reports, in one log or one log per rank.");
    } else if (!d) {
        text = tr("<b>The ranks agree</b>: no rank's peak departs from the others by more than 10% "
                  "(spread of the peaks: %1).")
                   .arg(Formatting::bytes(m_analysis.spreadBytes));
    } else {
        const QString where = d->tag.empty() ? tr("step %1").arg(d->step)
                                             : tr("step %1 (%2)").arg(d->step).arg(QString::fromStdString(d->tag));
        text = tr("<b>Rank %1 departs first at %2</b>: %3 against a median of %4 on the other ranks.")
                   .arg(d->rank)
                   .arg(where, Formatting::bytes(d->peakBytes), Formatting::bytes(d->othersMedianBytes));
        switch (d->suspect) {
        case StepDivergence::InputImbalance:
            text += QLatin1Char(' ')
                + tr("Its input is larger there (%1 tokens against %2): <b>input imbalance</b> suspected.")
                      .arg(d->tokens)
                      .arg(d->othersMedianTokens);
            break;
        case StepDivergence::BurdenImbalance:
            text += QLatin1Char(' ')
                + tr("Its input is the same size there (%1 tokens): <b>burden imbalance</b> suspected, extra work "
                     "on this rank.")
                      .arg(d->tokens);
            break;
        case StepDivergence::Unknown:
            text += QLatin1Char(' ')
                + tr("The reports carry no shapes, so input and burden imbalance cannot be told "
                     "apart.");
            break;
        }
        text += QLatin1String("<br>")
            + tr("Next: dump a memory snapshot on rank %1 and on one other rank just before step %2, and open both.")
                  .arg(d->rank)
                  .arg(d->step);
    }
    m_summary->setText(text);
}

void StepsView::drawMemory()
{
    const std::optional<StepDivergence>& d = m_analysis.divergence;
    // Memory per step: one line per rank and phase; phases after the first are dashed.
    m_memory->clearGraphs();
    m_memory->clearItems();
    std::map<std::pair<int, std::string>, std::pair<QCPGraph*, QCPGraph*>> lines;
    const auto lineOf = [&](const StepReport& r) {
        auto it = lines.find({ r.rank, r.tag });
        if (it != lines.end())
            return it->second;
        const bool diverging = d && d->rank == r.rank;
        const size_t phase =
            size_t(std::find(m_analysis.tags.begin(), m_analysis.tags.end(), r.tag) - m_analysis.tags.begin());
        const QColor color = diverging ? ChartStyle::alertColor() : rankColor(r.rank);
        QPen peakPen(color, diverging ? 2.5 : 1.5, phase == 0 ? Qt::SolidLine : Qt::DashLine);
        QCPGraph* peak = m_memory->addGraph();
        peak->setPen(peakPen);
        peak->setName(r.tag.empty() ? tr("rank %1").arg(r.rank)
                                    : tr("rank %1, %2").arg(r.rank).arg(QString::fromStdString(r.tag)));
        peak->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 3));
        QCPGraph* current = m_memory->addGraph();
        QColor faint = color;
        faint.setAlpha(110);
        current->setPen(QPen(faint, 1, Qt::DotLine));
        current->removeFromLegend();
        // Only the diverging rank and a few others in the legend: 64 entries would bury the plot.
        if (!diverging && lines.size() >= 8)
            peak->removeFromLegend();
        return lines[{ r.rank, r.tag }] = { peak, current };
    };
    for (const StepReport& r : m_log.reports) {
        const auto [peak, current] = lineOf(r);
        peak->addData(double(r.step), double(r.memoryBytes()));
        if (r.currentBytes >= 0 && r.peakBytes >= 0)
            current->addData(double(r.step), double(r.currentBytes));
    }
    if (d) {
        auto* marker = new QCPItemStraightLine(m_memory);
        marker->setPen(QPen(ChartStyle::alertColor(), 1, Qt::DashLine));
        marker->point1->setCoords(double(d->step), 0);
        marker->point2->setCoords(double(d->step), 1);
        auto* label = new QCPItemText(m_memory);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(double(d->step), 0.02);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setText(QStringLiteral(" ") + tr("rank %1 departs").arg(d->rank));
        label->setColor(ChartStyle::alertColor());
    }
    m_memory->xAxis->setLabel(tr("Step"));
    m_memory->yAxis->setLabel(tr("Allocated memory: peak (solid), current (dotted)"));
    m_memory->rescaleAxes();
    m_memory->yAxis->setRangeLower(0);
    m_memory->yAxis->setRangeUpper(m_memory->yAxis->range().upper * 1.1);
}

void StepsView::drawInput()
{
    const std::optional<StepDivergence>& d = m_analysis.divergence;
    // Input size: ranks down, reports of the divergence's phase (else the first) across, coloured by tokens.
    m_input->clearPlottables();
    if (m_input->plotLayout()->hasElement(0, 1))
        m_input->plotLayout()->remove(m_input->plotLayout()->element(0, 1)); // the old colour scale
    m_input->plotLayout()->simplify();
    const std::string phase = d ? d->tag : (m_analysis.tags.empty() ? std::string() : m_analysis.tags.front());
    std::map<int, std::vector<const StepReport*>> byRank;
    std::vector<int64_t> steps;
    for (const StepReport& r : m_log.reports) {
        if (r.tag != phase || r.tokens < 0)
            continue;
        byRank[r.rank].push_back(&r);
        if (std::find(steps.begin(), steps.end(), r.step) == steps.end())
            steps.push_back(r.step);
    }
    std::sort(steps.begin(), steps.end());
    if (!byRank.empty() && !steps.empty()) {
        auto* map = new QCPColorMap(m_input->xAxis, m_input->yAxis);
        const int first = byRank.begin()->first;
        const int last = byRank.rbegin()->first;
        map->data()->setSize(int(steps.size()), last - first + 1);
        map->data()->setRange(QCPRange(0, double(steps.size()) - 1), QCPRange(first, last));
        map->data()->fill(qQNaN());
        for (const auto& [rank, reports] : byRank) {
            for (const StepReport* r : reports) {
                const int column = int(std::lower_bound(steps.begin(), steps.end(), r->step) - steps.begin());
                map->data()->setCell(column, rank - first, double(r->tokens));
            }
        }
        // The scale first: attached, it owns the gradient and the range the map is drawn with.
        auto* scale = new QCPColorScale(m_input);
        m_input->plotLayout()->addElement(0, 1, scale);
        scale->setBarWidth(10);
        scale->axis()->setLabel(tr("Tokens"));
        map->setColorScale(scale);
        // Pale for the usual input, the alert colour for the largest: a rank fed more stands out.
        QCPColorGradient gradient;
        gradient.setColorStopAt(0, QColor(0xd6, 0xe4, 0xf0));
        gradient.setColorStopAt(0.5, QColor(0xf2, 0x8e, 0x2c));
        gradient.setColorStopAt(1, ChartStyle::alertColor().darker(130));
        gradient.setNanHandling(QCPColorGradient::nhTransparent);
        map->setGradient(gradient);
        map->setInterpolate(false);
        map->rescaleDataRange(true);
        if (map->dataRange().size() <= 0) // every rank the same: keep the pale end, not a flat midpoint
            map->setDataRange(QCPRange(map->dataRange().lower, map->dataRange().lower + 1));
        QSharedPointer<QCPAxisTickerText> stepTicks(new QCPAxisTickerText);
        const size_t every = std::max<size_t>(1, steps.size() / 12);
        for (size_t i = 0; i < steps.size(); i += every)
            stepTicks->addTick(double(i), QString::number(steps[i]));
        m_input->xAxis->setTicker(stepTicks);
        m_input->rescaleAxes();
        m_input->xAxis->setRange(-0.5, double(steps.size()) - 0.5);
        m_input->yAxis->setRange(first - 0.5, last + 0.5);
    }
    m_input->xAxis->setLabel(phase.empty() ? tr("Step") : tr("Step (%1)").arg(QString::fromStdString(phase)));
    m_input->yAxis->setLabel(tr("Rank; colour: tokens per batch"));
    m_input->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerFixed));
    qSharedPointerCast<QCPAxisTickerFixed>(m_input->yAxis->ticker())->setTickStep(1);
    qSharedPointerCast<QCPAxisTickerFixed>(m_input->yAxis->ticker())->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
}

void StepsView::fillTable()
{
    const std::optional<StepDivergence>& d = m_analysis.divergence;
    m_table->clear();
    for (const StepAnalysis::Rank& r : m_analysis.ranks) {
        auto* item = new QTreeWidgetItem(m_table);
        item->setText(0, QString::number(r.rank));
        item->setText(1, QString::number(r.reports));
        item->setText(2, Formatting::bytes(r.maxPeakBytes));
        item->setText(3, r.maxTokens >= 0 ? QString::number(r.maxTokens) : QStringLiteral("–"));
        for (int column = 1; column < 4; ++column)
            item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
        if (d && d->rank == r.rank) {
            QFont bold = item->font(0);
            bold.setBold(true);
            for (int column = 0; column < 4; ++column) {
                item->setFont(column, bold);
                item->setForeground(column, ChartStyle::alertColor());
            }
        }
    }
}

} // namespace RankScope
