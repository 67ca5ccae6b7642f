// SPDX-License-Identifier: MIT
#include "chartstyle.h"
#include "exportableplot.h"

#include "gateview.h"

#include "formatting.h"
#include "gatereport.h"
#include "pairedbars.h"
#include "retranslator.h"
#include "stacktext.h"
#include "verdicttext.h"

#include <QLabel>
#include <QTreeWidget>

#include <algorithm>
#include <cmath>
#include <limits>

namespace RankScope {

namespace {

enum Column
{
    WhatColumn,
    ChangeColumn,
    GrowthColumn,
    FiguresColumn,
    RanksColumn,
    WhenColumn,
    ColumnCount,
};

QString signedBytes(int64_t bytes)
{
    return (bytes < 0 ? QStringLiteral("−") : QStringLiteral("+")) + Formatting::bytes(std::abs(bytes));
}

QString percentOf(int64_t part, int64_t whole)
{
    return whole > 0 ? QStringLiteral("%1%2%")
                           .arg(part < 0 ? QStringLiteral("−") : QStringLiteral("+"))
                           .arg(100.0 * double(std::abs(part)) / double(whole), 0, 'f', 1)
                     : QString();
}

} // namespace

GateView::GateView(QWidget* parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_details(new QLabel(this))
    , m_plot(new ExportablePlot(this))
    , m_items(new QTreeWidget(this))
{
    PairedBars::layOut(this, m_headline, m_details, m_plot, m_items, 2, 3);
    m_details->setTextFormat(Qt::PlainText); // file names, never markup
    m_items->setColumnCount(ColumnCount);
    m_items->setUniformRowHeights(true);
    (new Retranslator(this))->add([this] {
        m_items->setHeaderLabels({ tr("Ranks, and what changed where"), tr("Change"), tr("Growth"),
            tr("Baseline → this job"), tr("Ranks"), tr("When in the step") });
        m_items->setAccessibleName(tr("What grew where, rank by rank"));
        m_plot->setAccessibleName(tr("Memory per rank in the baseline and in this job"));
    });
    rebuild();
}

void GateView::setPending(const QString& message)
{
    m_result.reset();
    m_problems.clear();
    m_hasResult = false;
    m_pending = message;
    rebuild();
}

void GateView::setResult(std::shared_ptr<const GateResult> result, QStringList problems)
{
    m_result = std::move(result);
    m_problems = std::move(problems);
    m_hasResult = true;
    rebuild();
}

QString GateView::headline() const
{
    return m_headline->text();
}

QString GateView::details() const
{
    return m_details->text();
}

std::vector<std::pair<int, int>> GateView::markedRanks() const
{
    std::vector<std::pair<int, int>> out;
    if (!m_marks || !m_result)
        return out;
    for (const QCPGraphData& mark : *m_marks->data()) {
        const auto i = size_t(std::lround(mark.key));
        if (i < m_columns.size())
            out.push_back(m_columns[i]);
    }
    return out;
}

void GateView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        rebuild();
}

void GateView::rebuild()
{
    const GateResult* g = m_result.get();
    QStringList details;
    if (!m_hasResult) {
        m_headline->setText(m_pending);
        PairedBars::setAnswer(m_headline, std::nullopt);
    } else if (!g || g->ranks.empty()) {
        // What stopped it, when something was said (an empty baseline folder, files that could not be read), is
        // under it.
        m_headline->setText(m_problems.isEmpty()
                ? tr("The gate could not run: found no ranks to weigh against the baseline")
                : tr("The gate could not run"));
        PairedBars::setAnswer(m_headline, false);
    } else {
        // Pass or fail as `rankscope gate` decides it, from the same result; never a plain pass while a rank could
        // not be weighed.
        const std::vector<int> failed = g->regressedRanks();
        QString headline = !failed.empty()
            ? tr("Fail: %1 of %2 ranks (%3) hold more than the baseline beyond the tolerance")
                  .arg(failed.size())
                  .arg(GateReport::rankCount(*g))
                  .arg(Formatting::ranks(failed))
            : g->complete() ? tr("Pass: no rank holds more than the baseline beyond the tolerance")
                            : tr("Incomplete: no rank gated holds more than the baseline beyond the tolerance");
        if (!g->complete())
            headline += tr("; ranks not gated: %1").arg(Formatting::ranks(GateReport::ungatedRanks(*g)));
        m_headline->setText(headline);
        PairedBars::setAnswer(m_headline,
            !failed.empty()     ? std::optional(false)
                : g->complete() ? std::optional(true)
                                : std::nullopt);
        details.append(tr("A rank fails when it grows, at its peak or at any moment of the step aligned with the "
                          "baseline's, by more than %1% of its peak in the baseline and more than %2.")
                           .arg(g->options.tolerancePercent)
                           .arg(Formatting::bytes(g->options.minBytes)));
        const std::vector<int> modulo = GateReport::moduloRanks(*g);
        QString pairing = !g->pairedModulo ? tr("Each rank is weighed against the baseline's rank of the same number "
                                                "(the baseline has %1 ranks).")
                                                 .arg(g->baselineRanks)
            : modulo.size() == 1
            ? tr("The baseline has %1 ranks: rank %2 has none of its own there, so rank R is weighed against "
                 "baseline rank R modulo %1.")
                  .arg(g->baselineRanks)
                  .arg(Formatting::ranks(modulo))
            : tr("The baseline has %1 ranks: ranks %2 have none of their own there, so rank R is weighed against "
                 "baseline rank R modulo %1.")
                  .arg(g->baselineRanks)
                  .arg(Formatting::ranks(modulo));
        if (!g->baselineOnly.empty())
            pairing += QLatin1Char(' ')
                + (g->baselineOnly.size() == 1 ? tr("Baseline rank %1 is not in this job.")
                                               : tr("Baseline ranks %1 are not in this job."))
                      .arg(Formatting::ranks(g->baselineOnly));
        QStringList byPlace;
        for (const auto& [device, baseline] : GateReport::devicePairs(*g))
            byPlace.append(tr("cuda:%1 against cuda:%2").arg(device).arg(baseline));
        if (!byPlace.isEmpty())
            pairing += QLatin1Char(' ')
                + tr("A rank's GPUs are weighed against the baseline rank's GPU at the same place among its GPUs, or "
                     "its last (%1).")
                      .arg(byPlace.join(QLatin1String(", ")));
        details.append(pairing);
        for (const GateResult::Ungated& u : g->ungated)
            details.append(u.baselineRank >= 0 ? tr("Rank %1 not gated: its baseline, rank %2, could not be read (%3).")
                                                     .arg(u.rank)
                                                     .arg(u.baselineRank)
                                                     .arg(QString::fromStdString(u.reason))
                                               : tr("Rank %1 not gated: its file could not be read (%2).")
                                                     .arg(u.rank)
                                                     .arg(QString::fromStdString(u.reason)));
    }
    const bool ran = g && !g->ranks.empty();
    for (const QString& problem : std::as_const(m_problems)) {
        // A file a rank was not gated for is said above, with that rank.
        const bool said = g && std::any_of(g->ungated.begin(), g->ungated.end(), [&](const GateResult::Ungated& u) {
            return QString::fromStdString(u.reason) == problem;
        });
        if (!said)
            details.append(ran ? tr("Not gated: %1").arg(problem) : problem);
    }
    m_details->setText(details.join(QLatin1Char('\n')));
    m_details->setVisible(!details.isEmpty());
    // Nothing to draw nor list until the gate ran: the headline and the problems alone.
    m_plot->setVisible(ran);
    m_items->setVisible(ran);
    rebuildPlot();
    rebuildTree();
}

void GateView::rebuildPlot()
{
    const GateResult* g = m_result.get();
    const std::vector<GateResult::Rank> none;
    const std::vector<GateResult::Rank>& ranks = g ? g->ranks : none;
    const bool devices = g && GateReport::namesDevices(*g);
    // Each rank's peak in the baseline and in this job, as the before/after view pairs them; inside each, what the
    // rank held at the moment of its largest aligned growth, where the gate weighs the whole step: a growth mid-step
    // shows there under peaks that stayed alike.
    // A rank the gate could not weigh keeps its place, without bars, marked ✗ as the main window marks a file that
    // could not be read.
    std::vector<PairedBars::Pair> pairs;
    std::vector<size_t> columnOf; // per rank of the result, its pair
    m_columns.clear();
    size_t next = 0;
    const auto addUngated = [&](int below) {
        for (; g && next < g->ungated.size() && g->ungated[next].rank < below; ++next) {
            pairs.push_back({ tr("%1 ✗").arg(g->ungated[next].rank), -1, -1 });
            m_columns.emplace_back(g->ungated[next].rank, -1);
        }
    };
    for (const GateResult::Rank& r : ranks) {
        addUngated(r.rank);
        const QString label = devices ? tr("%1 cuda:%2").arg(r.rank).arg(r.device) : QString::number(r.rank);
        columnOf.push_back(pairs.size());
        pairs.push_back({ label, r.peakBefore, r.peakAfter });
        m_columns.emplace_back(r.rank, r.device);
    }
    addUngated(std::numeric_limits<int>::max());
    const PairedBars::Bars bars = PairedBars::draw(m_plot, pairs, tr("Baseline's peak"), tr("This job's peak"));
    const double axisTop = m_plot->yAxis->range().upper;
    auto* momentBefore = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    auto* momentAfter = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    momentBefore->setName(tr("Baseline, at the largest growth"));
    momentAfter->setName(tr("This job, at the largest growth"));
    const QColor text = palette().color(QPalette::WindowText);
    momentBefore->setBrush(ChartStyle::mixed(bars.before->brush().color(), text, 0.55));
    momentAfter->setBrush(ChartStyle::mixed(bars.after->brush().color(), text, 0.55));
    for (QCPBars* b : { momentBefore, momentAfter }) {
        b->setPen(QPen(palette().color(QPalette::Base), 1));
        b->setWidth(PairedBars::Width / 2);
    }
    // Ranks beyond the tolerance: a band behind the pair and a mark above it, in the alert colour outlined in the
    // text's, which read on a light and a dark background.
    m_marks = m_plot->addGraph();
    m_marks->setName(tr("Beyond the tolerance"));
    m_marks->setLineStyle(QCPGraph::lsNone);
    m_marks->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssTriangleInverted, QPen(text, 1), ChartStyle::alertColor(), 12));
    QColor band = ChartStyle::alertColor();
    band.setAlpha(40);
    for (size_t k = 0; k < ranks.size(); ++k) {
        const GateResult::Rank& r = ranks[k];
        const auto i = double(columnOf[k]);
        // Without growth there is no moment to show: the gate's first stretch, where nothing differs.
        if (r.largestBytes > 0) {
            momentBefore->addData(i - PairedBars::Offset, double(r.totalBefore));
            momentAfter->addData(i + PairedBars::Offset, double(r.totalAfter));
        }
        if (!r.regressed())
            continue;
        const double high = std::max({ r.peakBefore, r.peakAfter, r.totalBefore, r.totalAfter });
        m_marks->addData(i, high + axisTop * 0.05);
        auto* behind = new QCPItemRect(m_plot);
        behind->setLayer(QStringLiteral("background"));
        behind->topLeft->setCoords(i - 0.5, axisTop);
        behind->bottomRight->setCoords(i + 0.5, 0);
        behind->setPen(Qt::NoPen);
        behind->setBrush(band);
    }
    if (!g || g->regressedRanks().empty())
        m_marks->removeFromLegend();
    if (momentBefore->dataCount() == 0) {
        momentBefore->removeFromLegend();
        momentAfter->removeFromLegend();
    }
    m_plot->xAxis->setLabel(tr("Rank"));
    m_plot->yAxis->setLabel(tr("Memory"));
    ChartStyle::applyPalette(m_plot, palette());
    m_plot->replot();
}

void GateView::rebuildTree()
{
    m_items->clear();
    const GateResult* g = m_result.get();
    if (!g)
        return;
    const size_t total = GateReport::rankCount(*g);
    const bool devices = GateReport::namesDevices(*g);
    const QColor alert = ChartStyle::alertColor();
    const QColor dim = palette().color(QPalette::PlaceholderText);
    QColor startBackground = palette().color(QPalette::Highlight);
    startBackground.setAlpha(48);

    // Failing groups first, each group's figures those of its first rank (alike ranks read the same).
    std::vector<GateReport::RankGroup> groups = GateReport::rankGroups(*g);
    std::stable_partition(
        groups.begin(), groups.end(), [](const GateReport::RankGroup& group) { return group.first->regressed(); });

    const auto jobSite = [g](const GateResult::SiteChange& c) -> const GateResult::SiteChange* {
        for (const GateResult::SiteChange& j : g->jobSites) {
            if (j.fingerprint == c.fingerprint && c.delta() > 0)
                return &j;
        }
        return nullptr;
    };
    const auto addStack = [&](QTreeWidgetItem* site, SiteId id) {
        const StackText::Lines lines = StackText::lines(StackText::siteFrames(*g->sites, id));
        qsizetype folded = 0;
        for (int i = 0; i < int(lines.lines.size()); ++i) {
            auto* line = new QTreeWidgetItem(site, FrameItem);
            const bool start = i == lines.start;
            line->setText(WhatColumn, (start ? QStringLiteral("▶ ") : QStringLiteral("   ")) + lines.lines[i]);
            line->setToolTip(WhatColumn, lines.lines[i]);
            line->setData(WhatColumn, OwnFrameRole, start);
            line->setFirstColumnSpanned(true);
            if (start) {
                QFont bold = m_items->font();
                bold.setBold(true);
                line->setFont(WhatColumn, bold);
                line->setBackground(WhatColumn, startBackground);
                line->setToolTip(WhatColumn, tr("Your code: reading starts here"));
            } else if (lines.dimmed.contains(i)) {
                line->setForeground(WhatColumn, dim);
            }
            // A folded run of native frames opens, in its place, to the frames it stands for.
            if (const qsizetype fold = lines.foldLines.indexOf(i); fold >= 0) {
                for (int k = 0; k < lines.foldSizes[fold]; ++k) {
                    auto* frame = new QTreeWidgetItem(line, FrameItem);
                    frame->setText(WhatColumn, lines.folded.value(folded + k));
                    frame->setData(WhatColumn, OwnFrameRole, false);
                    frame->setForeground(WhatColumn, dim);
                    frame->setFirstColumnSpanned(true);
                }
                folded += lines.foldSizes[fold];
            }
        }
    };
    const auto kindWord = [](GateResult::SiteChange::Kind kind) {
        switch (kind) {
        case GateResult::SiteChange::Grew:
            return tr("grew");
        case GateResult::SiteChange::Appeared:
            return tr("appeared");
        case GateResult::SiteChange::Shrank:
            return tr("shrank");
        case GateResult::SiteChange::Disappeared:
            return tr("disappeared");
        }
        return QString();
    };

    // Ranks the gate could not weigh, after the failing ones: what it lacks for each.
    const auto addUngated = [&] {
        for (const GateResult::Ungated& u : g->ungated) {
            auto* row = new QTreeWidgetItem(m_items, RanksItem);
            row->setText(WhatColumn, tr("Rank %1").arg(u.rank));
            row->setText(ChangeColumn, tr("not gated"));
            row->setText(RanksColumn, tr("%1 of %2").arg(1).arg(total));
            QFont bold = m_items->font();
            bold.setBold(true);
            row->setFont(WhatColumn, bold);
            row->setFont(ChangeColumn, bold);
            auto* why = new QTreeWidgetItem(row, SiteItem);
            why->setText(WhatColumn,
                u.baselineRank >= 0 ? tr("Its baseline, rank %1, could not be read: %2")
                                          .arg(u.baselineRank)
                                          .arg(QString::fromStdString(u.reason))
                                    : tr("Its file could not be read: %1").arg(QString::fromStdString(u.reason)));
            why->setToolTip(WhatColumn, why->text(WhatColumn));
            why->setFirstColumnSpanned(true);
            row->setExpanded(true);
        }
    };
    bool ungatedShown = false;
    bool openedStack = false;
    for (const GateReport::RankGroup& group : groups) {
        const GateResult::Rank& r = *group.first;
        if (!r.regressed() && !ungatedShown) {
            addUngated();
            ungatedShown = true;
        }
        QString ranks =
            group.ranks.size() == 1 ? tr("Rank %1").arg(r.rank) : tr("Ranks %1").arg(Formatting::ranks(group.ranks));
        if (devices)
            ranks = tr("%1, cuda:%2").arg(ranks).arg(r.device);
        auto* row = new QTreeWidgetItem(m_items, RanksItem);
        row->setText(WhatColumn, ranks);
        row->setText(ChangeColumn, r.regressed() ? tr("fail") : tr("pass"));
        row->setText(GrowthColumn,
            r.largestBytes > 0 ? tr("%1 (%2)").arg(signedBytes(r.largestBytes), percentOf(r.largestBytes, r.peakBefore))
                               : tr("none"));
        row->setText(FiguresColumn,
            r.largestBytes > 0 ? tr("%1 → %2").arg(Formatting::bytes(r.totalBefore), Formatting::bytes(r.totalAfter))
                               : QStringLiteral("–"));
        row->setText(RanksColumn, tr("%1 of %2").arg(group.ranks.size()).arg(total));
        const QString when = r.largestBytes <= 0 ? QStringLiteral("–")
            : r.eventAfter < 0                   ? tr("before the trace")
                                                 : tr("%1% into the step").arg(std::lround(r.stepFraction * 100));
        row->setText(WhenColumn, when);
        QString figures = r.largestBytes > 0
            ? tr("Largest growth across the aligned step: %1 (%2 of the baseline's peak), %3 → %4 at event %5 (the "
                 "baseline's event %6); %7 allowed.")
                  .arg(signedBytes(r.largestBytes), percentOf(r.largestBytes, r.peakBefore),
                      Formatting::bytes(r.totalBefore), Formatting::bytes(r.totalAfter))
                  .arg(r.eventAfter)
                  .arg(r.eventBefore)
                  .arg(Formatting::bytes(r.allowedBytes))
            : tr("No growth across the aligned step; %1 allowed.").arg(Formatting::bytes(r.allowedBytes));
        figures += QLatin1Char('\n')
            + tr("Peak: %1 → %2 (%3)%4.")
                  .arg(Formatting::bytes(r.peakBefore), Formatting::bytes(r.peakAfter),
                      percentOf(r.peakAfter - r.peakBefore, r.peakBefore),
                      r.peakRegressed ? tr(", beyond the tolerance") : QString());
        if (r.baselineRank != r.rank || r.baselineDevice != r.device)
            figures += QLatin1Char('\n')
                + tr("Weighed against the baseline's rank %1, cuda:%2.").arg(r.baselineRank).arg(r.baselineDevice);
        figures += QLatin1Char('\n')
            + tr("%1 of the baseline's %2 stretches of the step were found in this job.")
                  .arg(r.placedStretches)
                  .arg(r.stretches);
        if (group.ranks.size() > 1 && !r.sites.empty())
            figures += QLatin1Char('\n')
                + tr("The sites below are rank %1's; the other ranks of the row read alike.").arg(r.rank);
        for (int column = 0; column < ColumnCount; ++column)
            row->setToolTip(column, figures);
        QFont bold = m_items->font();
        bold.setBold(true);
        row->setFont(WhatColumn, bold);
        if (r.regressed()) {
            row->setFont(ChangeColumn, bold);
            row->setForeground(ChangeColumn, alert);
            row->setForeground(GrowthColumn, alert);
        }

        for (const GateResult::SiteChange& c : r.sites) {
            auto* site = new QTreeWidgetItem(row, SiteItem);
            const QString label =
                g->sites ? VerdictText::siteLabel(g->sites->label(c.site), VerdictText::Translated) : QString();
            site->setText(WhatColumn, label);
            site->setToolTip(WhatColumn, label);
            site->setText(ChangeColumn,
                tr("%1, %2").arg(kindWord(c.kind), VerdictText::category(c.category, VerdictText::Translated)));
            site->setText(GrowthColumn, signedBytes(c.delta()));
            site->setText(FiguresColumn,
                tr("%1 → %2 (%3 → %4 allocations)")
                    .arg(Formatting::bytes(c.before), Formatting::bytes(c.after))
                    .arg(c.countBefore)
                    .arg(c.countAfter));
            // On how many ranks it grew: the gate's count across the failing ranks, for theirs.
            if (const GateResult::SiteChange* j = r.regressed() ? jobSite(c) : nullptr) {
                site->setText(RanksColumn, tr("%1 of %2").arg(j->ranks).arg(total));
                site->setToolTip(RanksColumn, tr("Grew on the failing ranks %1").arg(Formatting::ranks(j->rankList)));
            }
            site->setText(WhenColumn, when);
            if (c.delta() > 0 && r.regressed())
                site->setForeground(GrowthColumn, alert);
            if (g->sites)
                addStack(site, c.site);
            // The first failing rank's largest growth opens on its stack.
            if (!openedStack && r.regressed() && c.delta() > 0) {
                site->setExpanded(true);
                openedStack = true;
            }
        }
        row->setExpanded(r.regressed());
    }
    if (!ungatedShown)
        addUngated();
    for (int column = 1; column < ColumnCount; ++column)
        m_items->resizeColumnToContents(column);
}

} // namespace RankScope
