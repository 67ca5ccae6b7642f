// SPDX-License-Identifier: MIT
#include "whatifview.h"

#include "findingstableutil.h"

#include "formatting.h"
#include "retranslator.h"
#include "whatifmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace RankScope {

WhatIfView::WhatIfView(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_view(new QTreeView(this))
    , m_model(new WhatIfModel(this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_jobs(this)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_header);
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(WhatIfModel::SortRole);
    m_view->setModel(m_sorted);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSortingEnabled(true);
    // What saves most first: the rows that answer "what would have fit" (a category, often) in sight at 1280×720,
    // however many sites come before them in the order computed.
    m_view->sortByColumn(WhatIfModel::SavedColumn, Qt::DescendingOrder);
    m_view->setTextElideMode(Qt::ElideMiddle);
    FindingsTableUtil::fitTextColumn(m_view, WhatIfModel::WithoutColumn);
    layout->addWidget(m_view, 1);
    m_jobs.setOnIdle([this] { emit ready(); });
    (new Retranslator(this))->add([this] {
        m_view->setAccessibleName(tr("Peak without each site or category"));
        showHeader();
    });
}

void WhatIfView::showRank(ComparisonPtr comparison, int rank)
{
    if (comparison == m_comparison && rank == m_rank)
        return;
    m_comparison = std::move(comparison);
    m_rank = rank;
    const int index = m_comparison ? m_comparison->rankIndex(rank) : -1;
    m_jobs.cancel();
    m_pending = index >= 0;
    if (index < 0) {
        m_model->setHoldings(nullptr, {});
        showHeader();
        return;
    }
    showHeader();
    if (isVisible())
        computeShown();
}

void WhatIfView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_pending)
        computeShown();
}

void WhatIfView::computeShown()
{
    m_pending = false;
    const int index = m_comparison->rankIndex(m_rank);
    // A replay of the whole trace per site: off the GUI thread. The verdict's rank gets the verdict's figures.
    m_jobs.start(
        [c = m_comparison, index] {
            const RankSummary& r = c->ranks()[size_t(index)];
            return r.rank == c->verdictHoldingsRank() ? c->verdictHoldings()
                                                      : c->holdingsOf(size_t(index), r.point.event);
        },
        [this, c = m_comparison](RankHoldings holdings) {
            m_model->setHoldings(c, std::move(holdings));
            for (int column = WhatIfModel::HeldColumn; column < WhatIfModel::NUM_COLUMNS; ++column)
                m_view->resizeColumnToContents(column);
            FindingsTableUtil::refitTextColumn(m_view, WhatIfModel::WithoutColumn);
            showHeader();
        });
}

void WhatIfView::showHeader()
{
    const RankHoldings& h = m_model->holdings();
    if (!m_comparison || m_rank < 0) {
        m_header->setText(tr("No rank selected"));
        return;
    }
    if (m_jobs.isBusy() || h.rank != m_rank) {
        m_header->setText(tr("Rank %1: replaying its trace without each of its largest sites…").arg(m_rank));
        return;
    }
    const RankSummary& r = m_comparison->ranks()[h.rankIndex];
    const bool atOom = r.oomEvents > 0 && h.composition.event == r.oomEvent;
    const QString moment = atOom ? tr("at its OOM (event %1)").arg(h.composition.event)
                                 : tr("at the point compared (event %1)").arg(h.composition.event);
    QString text = m_comparison->history(h.rankIndex).ooms().empty()
        ? tr("Rank %1's peak is %2. Had these allocations not been made (its largest sites %3, and each category), "
             "it would have been:")
              .arg(m_rank)
              .arg(Formatting::bytes(h.peakBytes), moment)
        : h.fitLimitBytes > 0
        ? tr("Rank %1 needed %2 at most (its failed requests counted where they were made); the GPU offered %4 at its "
             "OOM (PyTorch's reserve and the free memory), of which %5 could hold a peak: %6 lay stranded in the "
             "reserve. Had these allocations not been made (its largest sites %3, and each category), it would have "
             "needed (✓: that alone would have fit):")
              .arg(m_rank)
              .arg(Formatting::bytes(h.peakBytes), moment, Formatting::bytes(h.margin.offeredBytes),
                  Formatting::bytes(h.fitLimitBytes), Formatting::bytes(h.margin.strandedBytes))
        : tr("Rank %1 needed %2 at most (its failed requests counted where they were made); the GPU offered %4 at its "
             "OOM (PyTorch's reserve and the free memory), which does not say what a smaller peak would have fit in: "
             "%5. Had these allocations not been made (its largest sites %3, and each category), it would have "
             "needed:")
              .arg(m_rank)
              .arg(Formatting::bytes(h.peakBytes), moment, Formatting::bytes(h.margin.offeredBytes),
                  h.margin.outcome == Verdict::Margin::NotReached
                      ? tr("the device still had the request free")
                      : tr("the rank held more earlier in its trace and went on"));
    if (m_comparison->history(h.rankIndex).snapshot().digest)
        text = tr("Rank %1 is a digest, which keeps too little of its trace for the peak without a site: open its full "
                  "snapshot for these figures.")
                   .arg(m_rank);
    m_header->setText(text);
}

} // namespace RankScope
