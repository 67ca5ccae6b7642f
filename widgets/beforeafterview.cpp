// SPDX-License-Identifier: MIT
#include "chartstyle.h"
#include "exportableplot.h"

#include "beforeafterview.h"

#include "formatting.h"
#include "pairedbars.h"
#include "retranslator.h"
#include "verdicttext.h"

#include <QLabel>
#include <QTreeWidget>

namespace RankScope {

BeforeAfterView::BeforeAfterView(QWidget* parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_details(new QLabel(this))
    , m_plot(new ExportablePlot(this))
    , m_items(new QTreeWidget(this))
{
    PairedBars::layOut(this, m_headline, m_details, m_plot, m_items, 3, 1);
    m_items->setRootIsDecorated(false);
    m_items->setColumnCount(4);
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
    if (!m_hasSummary) {
        m_headline->setText(tr("Choose the run before the change and the run after it."));
        PairedBars::setAnswer(m_headline, std::nullopt);
    } else {
        m_headline->setText(s.fixed ? tr("Fixed: the ranks agree after the change")
                                    : tr("Not fixed: the ranks still differ after the change"));
        PairedBars::setAnswer(m_headline, s.fixed);
    }

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
    std::vector<PairedBars::Pair> pairs;
    for (const auto& row : s.ranks)
        pairs.push_back({ QString::number(row.rank), row.before, row.after });
    PairedBars::draw(m_plot, pairs, tr("Before"), tr("After"));
    m_plot->xAxis->setLabel(tr("Rank"));
    m_plot->yAxis->setLabel(s.fromLogs ? tr("Highest peak in the step reports") : tr("Memory at the comparison point"));
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
