// SPDX-License-Identifier: MIT
#include "chartstyle.h"
#include "exportableplot.h"

#include "beforeafterview.h"

#include "formatting.h"
#include "imageexport.h"
#include "retranslator.h"
#include "verdicttext.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace RankScope {

BeforeAfterView::BeforeAfterView(QWidget* parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_details(new QLabel(this))
    , m_plot(new ExportablePlot(this))
    , m_items(new QTreeWidget(this))
{
    auto* layout = new QVBoxLayout(this);
    QFont bold = m_headline->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_headline->setFont(bold);
    m_headline->setAutoFillBackground(true);
    m_headline->setMargin(8);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_headline);
    layout->addWidget(m_details);
    layout->addWidget(m_plot, 3);
    layout->addWidget(m_items, 1);
    m_plot->setMinimumHeight(240);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
    m_plot->legend->setVisible(true);
    m_plot->legend->setBorderPen(Qt::NoPen);
    ImageExport::addImageMenu(m_plot, this);
    m_items->setRootIsDecorated(false);
    m_items->setColumnCount(4);
    m_items->header()->setStretchLastSection(false);
    m_items->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    (new Retranslator(this))->add([this] {
        m_items->setHeaderLabels({ tr("Stood out before"), tr("Before"), tr("After"), tr("Now") });
        m_items->setAccessibleName(tr("What stood out before the change"));
        m_plot->setAccessibleName(tr("Memory per rank before and after"));
    });
    rebuild();
}

void BeforeAfterView::setSummary(BeforeAfterSummary summary)
{
    m_summary = std::move(summary);
    m_hasSummary = true;
    rebuild();
}

QString BeforeAfterView::headline() const
{
    return m_headline->text();
}

void BeforeAfterView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        rebuild();
}

void BeforeAfterView::rebuild()
{
    const BeforeAfterSummary& s = m_summary;
    QPalette headlinePalette = palette();
    if (!m_hasSummary) {
        m_headline->setText(tr("Choose the run before the change and the run after it."));
    } else {
        m_headline->setText(s.fixed ? tr("Fixed: the ranks agree after the change")
                                    : tr("Not fixed: the ranks still differ after the change"));
        const QColor tint = s.fixed ? QColor(0x59, 0xa1, 0x4f) : ChartStyle::alertColor();
        headlinePalette.setColor(QPalette::Window, tint.lighter(170));
        headlinePalette.setColor(QPalette::WindowText, Qt::black);
    }
    m_headline->setPalette(headlinePalette);

    // The figures behind the headline.
    QString details;
    if (m_hasSummary) {
        const auto spread = [](int64_t bytes, double percent) {
            return tr("%1 (%2%)").arg(Formatting::bytes(bytes)).arg(percent, 0, 'f', 1);
        };
        details = tr("Spread of the ranks (max − median): %1 before, %2 after; the threshold is %3%.")
                      .arg(spread(s.spreadBefore, s.spreadBeforePercent), spread(s.spreadAfter, s.spreadAfterPercent))
                      .arg(s.thresholdPercent);
        const auto divergence = [](const std::optional<StepDivergence>& d) {
            return d ? tr("rank %1 departs at step %2").arg(d->rank).arg(d->step) : tr("no rank departs");
        };
        if (s.fromLogs) {
            details += QLatin1Char(' ')
                + tr("Step reports: %1 before, %2 after.")
                      .arg(divergence(s.divergenceBefore), divergence(s.divergenceAfter));
        } else if (s.verdictBefore && s.verdictAfter) {
            details += QLatin1String("<br>")
                + tr("Before: %1<br>After: %2")
                      .arg(VerdictText::title(*s.verdictBefore, VerdictText::Translated),
                          VerdictText::title(*s.verdictAfter, VerdictText::Translated));
        }
    }
    m_details->setText(details);

    // Paired bars: before (light) and after (dark) for each rank.
    m_plot->clearPlottables();
    auto* before = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    auto* after = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    before->setName(tr("Before"));
    after->setName(tr("After"));
    before->setBrush(QColor(0xe1, 0x57, 0x59, 150));
    after->setBrush(QColor(0x4e, 0x79, 0xa7));
    for (QCPBars* bars : { before, after }) {
        bars->setPen(Qt::NoPen);
        bars->setWidth(0.38);
    }
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    double top = 1;
    const size_t every = std::max<size_t>(1, s.ranks.size() / 16);
    for (size_t i = 0; i < s.ranks.size(); ++i) {
        const auto& row = s.ranks[i];
        if (row.before >= 0)
            before->addData(double(i) - 0.2, double(row.before));
        if (row.after >= 0)
            after->addData(double(i) + 0.2, double(row.after));
        top = std::max({ top, double(row.before), double(row.after) });
        if (i % every == 0)
            ticks->addTick(double(i), QString::number(row.rank));
    }
    m_plot->xAxis->setTicker(ticks);
    m_plot->xAxis->setLabel(tr("Rank"));
    m_plot->yAxis->setLabel(s.fromLogs ? tr("Highest peak in the step reports") : tr("Memory at the comparison point"));
    m_plot->xAxis->setRange(-0.6, std::max<double>(double(s.ranks.size()), 1) - 0.4);
    m_plot->yAxis->setRange(0, top * 1.15);
    ChartStyle::applyPalette(m_plot, palette());
    m_plot->replot();

    m_items->clear();
    for (const BeforeAfterSummary::Item& item : s.items) {
        auto* row = new QTreeWidgetItem(m_items);
        row->setText(0, QString::fromStdString(item.label));
        row->setToolTip(0, row->text(0));
        row->setText(1, QLatin1Char('+') + Formatting::bytes(item.before));
        row->setText(2, item.after > 0 ? QLatin1Char('+') + Formatting::bytes(item.after) : QStringLiteral("–"));
        row->setText(3, item.gone ? tr("gone") : tr("still there"));
        row->setForeground(3, item.gone ? QColor(0x3b, 0x7d, 0x32) : ChartStyle::alertColor());
    }
    for (int column = 1; column < 4; ++column)
        m_items->resizeColumnToContents(column);
}

} // namespace RankScope
