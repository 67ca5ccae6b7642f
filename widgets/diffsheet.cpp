// SPDX-License-Identifier: MIT
#include "diffsheet.h"

#include "ranktableutil.h"

#include "blockmapview.h"
#include "dataexport.h"
#include "diffreport.h"
#include "exportableplot.h"
#include "findingsmodel.h"
#include "findingstableutil.h"
#include "flamegraph.h"
#include "imageexport.h"
#include "rankchart.h"
#include "ranklistmodel.h"
#include "rankpair.h"
#include "stackpane.h"
#include "timelineview.h"
#include "verdictbanner.h"
#include "verdicttext.h"
#include "whatifview.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace RankScope {

std::optional<DiffSheet::View> DiffSheet::parseView(const QString& name)
{
    if (name == QLatin1String("diff"))
        return Diff;
    if (name == QLatin1String("timelines"))
        return Timelines;
    if (name == QLatin1String("blockmaps"))
        return BlockMaps;
    if (name == QLatin1String("overview"))
        return Overview;
    if (name == QLatin1String("flame"))
        return Flame;
    return std::nullopt;
}

DiffSheet::DiffSheet(View view, QWidget* parent)
    : QWidget(parent)
    , m_view(view)
{
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Window);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(6);
    m_header = new QLabel(this);
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);
    layout->addWidget(m_header);
    m_banner = new VerdictBanner(this);
    layout->addWidget(m_banner);

    if (view != Overview && view != Flame) {
        m_pair = new RankPair(view == Diff ? RankPair::Both
                : view == Timelines        ? RankPair::Timelines
                                           : RankPair::BlockMaps,
            this);
    }
    if (TimelineView* timelines = this->timelines())
        layout->addWidget(timelines, 3);
    if (blockMap(0)) {
        auto* maps = new QHBoxLayout;
        maps->addWidget(blockMap(0));
        maps->addWidget(blockMap(1));
        layout->addLayout(maps, view == Diff ? 2 : 3);
    }
    if (view == Diff) {
        auto* bottom = new QHBoxLayout;
        m_findings = new FindingsModel(this);
        m_findings->setGrouped(true); // a group of ranks alike once, its ranks named, as the window lists it
        m_findingsView = new QTreeView(this);
        m_findingsView->setModel(m_findings);
        FindingsTableUtil::setUp(m_findingsView);
        m_findingsView->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_findingsView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        // The picture's table always shows the largest findings: a low finding the user chose is drawn and described
        // in the stack pane, and scrolling to it would leave the largest rows out of the report.
        m_findingsView->setAutoScroll(false);
        bottom->addWidget(m_findingsView, 3);
        m_whatIf = new WhatIfView(this);
        m_whatIf->view()->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_whatIf->view()->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_whatIf->hide();
        bottom->addWidget(m_whatIf, 3);
        m_stack = new StackPane(this);
        m_stack->setForPicture();
        bottom->addWidget(m_stack, 2);
        layout->addLayout(bottom, 2);
    }
    if (view == Overview) {
        m_chart = new RankChart(this);
        layout->addWidget(m_chart, 2);
        m_rankTable = new QTreeView(this);
        m_rankTable->setRootIsDecorated(false);
        m_rankTable->setAlternatingRowColors(true);
        m_rankTable->header()->setStretchLastSection(true);
        m_rankTable->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_rankTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        layout->addWidget(m_rankTable, 3);
    }

    if (view == Flame) {
        m_flame = new FlameGraph(this);
        layout->addWidget(m_flame, 5);
    }

    m_legend = new QLabel(this);
    m_legend->setWordWrap(true);
    QFont small = m_legend->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_legend->setFont(small);
    QString legend;
    if (timelines())
        legend += tr("Timelines: live allocations over the trace on one memory scale and equal heights, every "
                     "allocation big enough to see as a band of its own (its legend says what the colours mean). ");
    if (blockMap(0))
        legend += tr("Block maps: the allocator's segments at the comparison point (rows packed by size, one scale "
                     "for both), blocks at their offsets; the selected finding's address runs outlined and flagged. ");
    if (m_chart)
        legend += tr("Bars: each rank's peak during the trace (light) and what it holds at the comparison point "
                     "(dark); the highest peak outlined.");
    if (m_flame)
        legend += tr("Flame graph: rank A's memory by frame, from the entry script at the top down to the frames "
                     "that allocate; each frame as wide as what the rank holds through it.");
    m_legend->setText(legend);
    layout->addWidget(m_legend);
}

void DiffSheet::setComparison(
    const ComparisonPtr& comparison, int rankA, int rankB, int finding, QAbstractItemModel* ranks)
{
    const Comparison& c = *comparison;
    m_banner->setVerdict(c.verdict());
    const auto file = [&](int rank) {
        const int index = c.rankIndex(rank);
        return index < 0 ? QString() : QFileInfo(c.ranks()[size_t(index)].path).fileName();
    };
    const QString point = VerdictText::moment(c.verdict(), c.groups().size() > 1, VerdictText::Translated);
    QString header = tr("<b>RankScope</b> · %n rank(s) compared at <b>%1</b>", nullptr, int(c.ranks().size()))
                         .arg(point.toHtmlEscaped());
    if (m_view != Overview && rankA >= 0) {
        header += tr(" · A: rank %1 (%2)").arg(rankA).arg(file(rankA).toHtmlEscaped());
        if (rankB >= 0)
            header += tr(" · B: rank %1 (%2)").arg(rankB).arg(file(rankB).toHtmlEscaped());
    }
    if (finding >= 0 && size_t(finding) < c.findings().size() && m_view != Overview)
        header += tr(" · finding %1: %2")
                      .arg(finding + 1)
                      .arg(VerdictText::siteLabel(
                          c.sites().label(c.findings()[size_t(finding)].site), VerdictText::Translated)
                               .toHtmlEscaped());
    m_header->setText(header);

    if (m_pair) {
        m_pair->showRanks(comparison, rankA, rankB);
        m_pair->markFinding(finding);
    }
    // Ranks that ran out of memory alike have no finding: what fills rank A's GPU and what failed stand in for them.
    const int a = c.rankIndex(rankA);
    const bool aboutOom = c.findings().empty() && !c.verdict().oomRanks.empty() && a >= 0;
    if (m_whatIf) {
        m_findingsView->setVisible(!aboutOom);
        m_whatIf->setVisible(aboutOom);
        if (aboutOom)
            m_whatIf->showRank(comparison, rankA);
    }
    if (m_findings) {
        m_findings->setComparison(comparison);
        FindingsTableUtil::fitColumns(m_findingsView);
        // The picture's groups stay closed: a rank alike to others marks its group's row.
        QModelIndex chosen = finding >= 0 ? m_findings->indexOf(size_t(finding)) : QModelIndex();
        if (chosen.parent().isValid())
            chosen = chosen.parent();
        if (chosen.isValid())
            m_findingsView->setCurrentIndex(chosen);
        m_findingsView->scrollToTop();
    }
    if (m_stack) {
        if (finding >= 0 && size_t(finding) < c.findings().size()) {
            const Finding& f = c.findings()[size_t(finding)];
            m_stack->showFinding(c, size_t(finding), f.rank == rankA ? rankB : rankA);
        } else if (aboutOom && c.ranks()[size_t(a)].oomEvents > 0) {
            const DeviceHistory& h = c.history(size_t(a));
            m_stack->showOom(h, rankA, h.ooms().back());
        } else {
            m_stack->setContent(tr("No finding: no rank holds more than its baseline at any site."), {}, {});
        }
    }
    if (m_flame && rankA >= 0) {
        const ExcessTree::Scope scope = m_scope.value_or(ExcessTree::defaultScope(c, rankA));
        std::shared_ptr<const ExcessNode> tree = ExcessTree::build(c, rankA, ExcessTree::TopDown, scope);
        const QString title = FlameGraph::title(rankA, scope, tree->inclusiveBytes);
        m_flame->setTree(std::move(tree), title, scope);
    }
    if (m_chart && ranks) {
        m_chart->setModel(ranks);
        m_rankTable->setModel(ranks);
        RankTableUtil::showColumnsOf(m_rankTable, c);
        RankTableUtil::fitColumns(m_rankTable);
        // Every rank of a job of up to 16 on the page, which grows for them; of more, the rows in sight around the
        // verdict's rank (prepare).
        const int rows = std::min(ranks->rowCount(), 16);
        if (rows > 0) {
            const int chrome = m_rankTable->frameWidth() * 2 + m_rankTable->header()->sizeHint().height();
            m_rankTable->setMinimumHeight(chrome + rows * m_rankTable->sizeHintForRow(0));
        }
    }
}

TimelineView* DiffSheet::timelines() const
{
    return m_pair ? m_pair->timelines() : nullptr;
}

BlockMapView* DiffSheet::blockMap(int side) const
{
    return m_pair ? m_pair->blockMap(side) : nullptr;
}

bool DiffSheet::isBusy() const
{
    return (m_pair && m_pair->isBusy()) || (m_whatIf && m_whatIf->isBusy());
}

bool DiffSheet::isReportPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("html") || suffix == QLatin1String("htm") || suffix == QLatin1String("md");
}

QString DiffSheet::reportImagePath(const QString& path)
{
    const QFileInfo info(path);
    if (info.suffix().toLower() != QLatin1String("md"))
        return {};
    return info.dir().filePath(info.completeBaseName() + QStringLiteral(".png"));
}

QString DiffSheet::writeReport(const Comparison& comparison, const QString& path, double scale)
{
    if (!isReportPath(path))
        return tr("%1: use a .html or .md file name for a report").arg(path);
    const QByteArray png = ImageExport::encode(this, ImageExport::Png, scale);
    const QString imagePath = reportImagePath(path);
    if (imagePath.isEmpty())
        return DataExport::write(path, QByteArray::fromStdString(DiffReport::html(comparison, png)));
    if (QString error = DataExport::write(imagePath, png); !error.isEmpty())
        return error;
    return DataExport::write(
        path, QByteArray::fromStdString(DiffReport::markdown(comparison, QFileInfo(imagePath).fileName())));
}

bool DiffSheet::prepare(const QSize& size, int timeoutMs)
{
    // Laid out and polished like a shown window, but never mapped on a screen: its plots are drawn into the picture
    // alone.
    setAttribute(Qt::WA_DontShowOnScreen);
    for (ExportablePlot* plot : findChildren<ExportablePlot*>())
        plot->setPictureOnly(true);
    resize(size);
    show();
    QElapsedTimer clock;
    clock.start();
    // A few rounds even when nothing is busy yet: layout and resizes post the events that start the views' jobs.
    // After them the thread sleeps until a job reports (or the tick): spinning here took the core the views' jobs
    // needed on a two-core machine.
    QTimer tick;
    tick.start(20);
    const auto settle = [&] {
        for (int round = 0; (isBusy() || round < 3) && clock.elapsed() < timeoutMs; ++round) {
            if (round < 3)
                QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            else
                QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
            QCoreApplication::sendPostedEvents();
            // Not before the layout has settled: a detail started for a passing size runs to its end all the same.
            if (m_pair && m_pair->timelines() && round >= 2)
                m_pair->timelines()->flushDetail();
        }
    };
    settle();
    // Wrapped text (the verdict) is taller on a narrow page than the layout's minimum size says: the page grows to
    // hold every view instead of laying them over each other.
    if (const int needed = layout()->totalMinimumHeightForWidth(width()); needed > height()) {
        resize(width(), needed);
        settle();
    }
    // A picture has no scroll bars to reach the rest: tables and the stack end on whole lines.
    for (QTreeView* table : { m_findingsView, m_rankTable, m_whatIf ? m_whatIf->view() : nullptr }) {
        if (!table || !table->isVisible() || !table->model() || table->model()->rowCount() == 0)
            continue;
        const int row = table->sizeHintForRow(0);
        const int chrome = table->height() - table->viewport()->height(); // frame and header
        table->setFixedHeight(chrome + std::max(1, (table->height() - chrome) / std::max(row, 1)) * row);
    }
    if (m_stack)
        m_stack->fitWholeLines();
    if (const QAbstractItemModel* ranks = m_rankTable ? m_rankTable->model() : nullptr) {
        for (int row = 0; row < ranks->rowCount(); ++row) {
            if (ranks->index(row, 0).data(RankListModel::OutlierRole).toBool())
                m_rankTable->scrollTo(ranks->index(row, 0), QAbstractItemView::PositionAtCenter);
        }
    }
    if (m_rankTable)
        RankTableUtil::fitWidth(m_rankTable);
    if (m_findingsView && m_findingsView->isVisible())
        FindingsTableUtil::fitWidth(m_findingsView);
    // The fitted tables move the timelines, whose detail is then asked for their new size.
    settle();
    return !isBusy();
}

} // namespace RankScope
