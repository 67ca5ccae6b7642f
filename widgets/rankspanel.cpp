// SPDX-License-Identifier: MIT
#include "rankspanel.h"

#include "formatting.h"
#include "progressdelegate.h"
#include "rankchart.h"
#include "ranklistmodel.h"
#include "ranktableutil.h"
#include "retranslator.h"
#include "stackpane.h"
#include "steppeakschart.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace RankScope {

namespace {
// Failed files named under the table; a job where more failed says how many more.
constexpr int MaxFailedShown = 3;
} // namespace

RanksPanel::RanksPanel(RankListModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RankListModel::SortRole);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("ranksSplitter"));
    layout->addWidget(splitter);

    m_chart = new RankChart(splitter);
    m_chart->setModel(m_model);
    connect(m_chart, &RankChart::rankClicked, this, [this](int rank, Qt::KeyboardModifiers modifiers) {
        emit rankPicked(rank, modifiers & Qt::ShiftModifier ? 1 : 0);
    });
    splitter->addWidget(m_chart);
    // For a folder of several steps, each rank's peak per step under the bars (hidden, it takes no room).
    m_stepPeaks = new StepPeaksChart(splitter);
    splitter->addWidget(m_stepPeaks);

    auto* ranks = new QWidget(splitter);
    auto* ranksLayout = new QVBoxLayout(ranks);
    ranksLayout->setContentsMargins(0, 0, 0, 0);
    ranksLayout->setSpacing(0);
    m_table = new QTreeView(ranks);
    m_table->setModel(m_proxy);
    m_table->setRootIsDecorated(false);
    // A failed file's reason, or a note, is a second line under its name.
    m_table->setUniformRowHeights(false);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RankListModel::RankColumn, Qt::AscendingOrder);
    m_table->setAlternatingRowColors(true);
    auto* progress = new ProgressDelegate(m_table);
    m_table->setItemDelegateForColumn(RankListModel::StatusColumn, progress);
    connect(progress, &ProgressDelegate::cancelRequested, this,
        [this](const QModelIndex& index) { emit cancelRequested(m_proxy->mapToSource(index).row()); });
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->header()->setStretchLastSection(true);
    m_table->header()->setMinimumSectionSize(36);
    // The figures right after the rank, the file's name last (showColumnsOf): the rank says which file it is, and at
    // 1280×720 the peak, the point's figures and the excess must be in sight without scrolling; the name takes what
    // room is left.
    m_table->header()->moveSection(
        m_table->header()->visualIndex(RankListModel::FileColumn), RankListModel::NUM_COLUMNS - 1);
    m_table->header()->setContextMenuPolicy(Qt::CustomContextMenu);
    for (int column : { RankListModel::AllocatedColumn, RankListModel::SegmentsColumn,
             RankListModel::TraceEntriesColumn, RankListModel::HostColumn })
        m_table->setColumnHidden(column, true);
    connect(m_table, &QTreeView::customContextMenuRequested, this, &RanksPanel::showContextMenu);
    connect(m_table->header(), &QHeaderView::customContextMenuRequested, this, &RanksPanel::showColumnMenu);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& index) {
        if (index.isValid())
            emit rankPicked(index.siblingAtColumn(RankListModel::RankColumn).data().toInt(), 0);
    });
    ranksLayout->addWidget(m_table, 1);
    // The ⚠ that marks an incomplete trace is explained where it is seen, whenever a row shows it.
    m_incompleteLegend = new QLabel(ranks);
    m_incompleteLegend->setWordWrap(true);
    m_incompleteLegend->setContentsMargins(4, 2, 4, 2);
    m_incompleteLegend->hide();
    ranksLayout->addWidget(m_incompleteLegend);
    m_failedNote = new QLabel(ranks);
    m_failedNote->setWordWrap(true);
    m_failedNote->setContentsMargins(4, 2, 4, 2);
    m_failedNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_failedNote->hide();
    ranksLayout->addWidget(m_failedNote);
    connect(m_model, &QAbstractItemModel::modelReset, this, &RanksPanel::updateLegend);
    connect(m_model, &QAbstractItemModel::layoutChanged, this, &RanksPanel::updateLegend);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &RanksPanel::updateLegend);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &RanksPanel::updateLegend);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &RanksPanel::updateLegend);
    splitter->addWidget(ranks);

    // The selected finding's or allocation's stack, under the ranks, where this column has room at any size; the
    // findings keep the width of the comparison's column for their sites.
    m_stackPane = new StackPane(splitter);
    splitter->addWidget(m_stackPane);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 3);
    splitter->setStretchFactor(3, 2);
    // The bars get the room their legend and eight ranks need; the table as much, so that a short screen (720 px)
    // still shows six ranks' rows of a large job under the legend of an incomplete trace.
    splitter->setSizes({ 300, 170, 280, 260 });

    (new Retranslator(this))->add([this] {
        if (m_reshow)
            m_reshow();
        m_incompleteLegend->setText(tr("⚠ Trace incomplete: it misses allocations from before recording started or "
                                       "its ring buffer wrapped, so the peak can be higher than shown."));
        m_table->setAccessibleName(tr("Ranks"));
        m_table->setToolTip(tr("Select a rank to show it as A"));
        updateLegend();
        // Headers change width with the language ("Rank" is "Rank 编号" in Chinese).
        fitColumns();
    });
}

void RanksPanel::showComparison(const ComparisonPtr& comparison)
{
    m_comparison = comparison;
    if (!m_comparison)
        return;
    RankTableUtil::showColumnsOf(m_table, *m_comparison);
    fitColumns();
}

void RanksPanel::showRanks(const ComparisonPtr& comparison, int rankA, int rankB)
{
    m_stepPeaks->setComparison(comparison, rankA, rankB);
}

void RanksPanel::fitColumns()
{
    RankTableUtil::fitColumns(m_table);
}

int RanksPanel::neededWidth() const
{
    return RankTableUtil::neededWidth(m_table) + width() - m_table->width();
}

int RanksPanel::keyWidth() const
{
    return RankTableUtil::keyWidth(m_table) + width() - m_table->width();
}

void RanksPanel::updateLegend()
{
    bool incomplete = false;
    QStringList failed;
    int more = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        incomplete =
            incomplete || m_model->index(row, RankListModel::TraceColumn).data(RankListModel::SortRole).toBool();
        const QModelIndex file = m_model->index(row, RankListModel::FileColumn);
        if (const QString error = file.data(RankListModel::ErrorRole).toString(); !error.isEmpty()) {
            // A few in full; the rest have their rows (and tooltips).
            if (failed.size() < MaxFailedShown)
                failed << tr("✗ Rank %1 (%2) could not be read: %3")
                              .arg(m_model->index(row, RankListModel::RankColumn).data().toString(),
                                  QFileInfo(file.data(RankListModel::PathRole).toString()).fileName(), error);
            else
                ++more;
        }
    }
    if (more > 0)
        failed << tr("✗ and %n more file(s) that did not load: see their rows", nullptr, more);
    m_incompleteLegend->setVisible(incomplete);
    m_failedNote->setText(failed.join(QLatin1Char('\n')));
    m_failedNote->setVisible(!failed.isEmpty());
}

void RanksPanel::showFinding(const Comparison& comparison, size_t finding, int otherRank)
{
    m_reshow = {}; // the window shows the finding again in a new language (it owns the comparison)
    m_stackRank = -1;
    m_stackOom = false;
    m_stackPane->showFinding(comparison, finding, otherRank);
}

void RanksPanel::showOom(const DeviceHistoryPtr& history, int rank, size_t oom)
{
    m_stackRank = rank;
    m_stackOom = true;
    reshowAs([this, history, rank, oom] { m_stackPane->showOom(*history, rank, history->ooms()[oom]); });
}

void RanksPanel::showAllocation(const DeviceHistoryPtr& history, int rank, uint32_t allocation)
{
    m_stackRank = rank;
    m_stackOom = false;
    reshowAs([this, history, rank, allocation] {
        const DeviceHistory& h = *history;
        const Allocation& a = h.allocations()[allocation];
        QString header =
            tr("Rank %1 · allocation of %2 at 0x%3").arg(rank).arg(Formatting::bytes(a.size)).arg(a.addr, 0, 16);
        header += QLatin1Char('\n')
            + (a.allocEvent == Allocation::NoEvent ? tr("allocated before the trace began")
                                                   : tr("allocated at event %1").arg(a.allocEvent))
            + tr(", ")
            + (a.freeEvent == Allocation::NoEvent ? tr("still live at the end")
                                                  : tr("freed at event %1").arg(a.freeEvent));
        m_stackPane->showStack(header, h.snapshot(), a.stack);
        m_stackPane->showContextOf(h, a);
    });
}

void RanksPanel::showBlock(const DeviceHistoryPtr& history, int rank, uint64_t address, StackId stack)
{
    m_stackRank = rank;
    m_stackOom = false;
    reshowAs([this, history, rank, address, stack] {
        m_stackPane->showStack(tr("Rank %1 · block at 0x%2").arg(rank).arg(address, 0, 16), history->snapshot(), stack);
    });
}

void RanksPanel::reshowAs(std::function<void()> show)
{
    // Shown now and again in a new language: the pane's words are made from the data, not kept as a widget's text.
    m_reshow = std::move(show);
    m_reshow();
}

void RanksPanel::clearStack()
{
    m_reshow = {};
    m_stackRank = -1;
    m_stackOom = false;
    m_stackPane->clear();
}

void RanksPanel::closeJob()
{
    m_reshow = {};
    m_stackRank = -1;
    m_stackOom = false;
    m_stackPane->clear();
    // The stack's mode is the job's: the next one opens on the frames views show, folded.
    m_stackPane->setShowAllFrames(false);
    m_stackPane->setShowNativeFrames(false);
}

void RanksPanel::showColumnMenu(const QPoint& pos)
{
    QMenu menu(this);
    for (int column = 0; column < RankListModel::NUM_COLUMNS; ++column) {
        QAction* toggle = menu.addAction(m_model->headerData(column, Qt::Horizontal).toString(), this,
            [this, column](bool on) { m_table->setColumnHidden(column, !on); });
        toggle->setCheckable(true);
        toggle->setChecked(!m_table->isColumnHidden(column));
    }
    menu.exec(m_table->header()->mapToGlobal(pos));
}

void RanksPanel::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_proxy->mapToSource(m_table->indexAt(pos));
    if (!index.isValid())
        return;
    const int row = index.row();
    QMenu menu(this);
    if (index.siblingAtColumn(RankListModel::StatusColumn).data(RankListModel::ProgressRole).toInt() >= 0)
        menu.addAction(tr("Cancel Loading"), this, [this, row] { emit cancelRequested(row); });
    const int rank = index.siblingAtColumn(RankListModel::RankColumn).data().toInt();
    if (m_comparison && m_comparison->rankIndex(rank) >= 0) {
        menu.addAction(tr("Show as A"), this, [this, rank] { emit rankPicked(rank, 0); });
        menu.addAction(tr("Show as B"), this, [this, rank] { emit rankPicked(rank, 1); });
        menu.addSeparator();
    }
    const QString error = index.data(RankListModel::ErrorRole).toString();
    const QString path = index.data(RankListModel::PathRole).toString();
    if (!error.isEmpty())
        menu.addAction(tr("Copy Error"), this,
            [path, error] { QApplication::clipboard()->setText(path + QLatin1String(": ") + error); });
    menu.addAction(tr("Copy Path"), this, [path] { QApplication::clipboard()->setText(path); });
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

} // namespace RankScope
