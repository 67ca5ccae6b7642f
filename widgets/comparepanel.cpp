// SPDX-License-Identifier: MIT
#include "comparepanel.h"

#include "blockmapview.h"
#include "profilerstep.h"
#include "rankpair.h"
#include "retranslator.h"
#include "timelineview.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QSettings>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace RankScope {

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent)
    , m_pair(new RankPair(RankPair::Both, this))
    , m_bar(new QWidget)
{
    auto* bar = new QHBoxLayout(m_bar);
    bar->setContentsMargins(8, 0, 4, 0);
    // A box after its label, which names it (and gives it a mnemonic).
    const auto addLabelled = [this, bar](QWidget* box) {
        auto* label = new QLabel(m_bar);
        label->setBuddy(box);
        bar->addWidget(label);
        bar->addWidget(box);
        return label;
    };
    m_stepCombo = new QComboBox(m_bar);
    connect(m_stepCombo, &QComboBox::activated, this, [this](int index) {
        const QVariant step = m_stepCombo->itemData(index);
        if (step.isValid())
            emit stepChosen(step.toLongLong());
    });
    m_stepLabel = addLabelled(m_stepCombo);
    m_stepLabel->hide();
    m_stepCombo->hide();
    m_pointCombo = new QComboBox(m_bar);
    m_pointCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_pointCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            emit pointChosen();
    });
    QLabel* pointLabel = addLabelled(m_pointCombo);
    bar->addSpacing(12);
    m_aCombo = new QComboBox(m_bar);
    m_bCombo = new QComboBox(m_bar);
    const auto onRankCombo = [this] {
        if (m_updating)
            return;
        const int a = m_aCombo->currentData().toInt();
        const int b = m_bCombo->currentData().toInt();
        setRanks(a, a == b ? m_rankA : b);
    };
    connect(m_aCombo, &QComboBox::currentIndexChanged, this, onRankCombo);
    connect(m_bCombo, &QComboBox::currentIndexChanged, this, onRankCombo);
    QLabel* aLabel = addLabelled(m_aCombo);
    auto* swap = new QToolButton(m_bar);
    swap->setText(QStringLiteral("⇄"));
    connect(swap, &QToolButton::clicked, this, &ComparePanel::swapRanks);
    bar->addWidget(swap);
    QLabel* bLabel = addLabelled(m_bCombo);
    bar->addStretch(1);

    // The views of ranks A and B: the timelines here, the block maps for the window to place.
    TimelineView* timelines = m_pair->timelines();
    connect(timelines, &TimelineView::allocationClicked, this, [this, timelines](int track, uint32_t allocation) {
        if (track >= 0 && size_t(track) < timelines->tracks().size())
            emit allocationClicked(
                timelines->tracks()[size_t(track)].history, timelines->tracks()[size_t(track)].rank, allocation);
    });
    connect(timelines, &TimelineView::oomClicked, this, [this, timelines](int track, int oom) {
        if (track >= 0 && size_t(track) < timelines->tracks().size())
            emit oomClicked(
                timelines->tracks()[size_t(track)].history, timelines->tracks()[size_t(track)].rank, size_t(oom));
    });
    connect(timelines, &TimelineView::pointPicked, this, &ComparePanel::pickPoint);
    connect(m_pair, &RankPair::blockClicked, this, [this](int side, uint64_t address, StackId stack) {
        const int rank = side == 0 ? m_rankA : m_rankB;
        const int index = rankIndexOf(rank);
        if (index >= 0)
            emit blockClicked(m_comparison->historyPtr(size_t(index)), rank, address, stack);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(timelines, 1);
    auto* maps = new QSplitter(Qt::Horizontal);
    maps->setObjectName(QStringLiteral("mapsSplitter"));
    maps->addWidget(blockMap(0));
    maps->addWidget(blockMap(1));
    m_maps = maps;

    (new Retranslator(this))->add([=, this] {
        m_pointCombo->setToolTip(tr("Where each rank is looked at. Aligned (the default): the rank with the highest "
                                    "peak there, every other rank at the same moment of its own trace; or each rank "
                                    "at its own peak, its snapshot, its OOM, a profiler step or an event picked on the "
                                    "timeline (double-click it)"));
        m_pointCombo->setAccessibleName(tr("Comparison point"));
        m_aCombo->setToolTip(tr("Rank A: by default the rank the verdict names"));
        m_aCombo->setAccessibleName(tr("Rank A"));
        m_bCombo->setToolTip(tr("Rank B: by default the rank closest to the baseline"));
        m_bCombo->setAccessibleName(tr("Rank B"));
        swap->setToolTip(tr("Swap ranks A and B"));
        swap->setAccessibleName(tr("Swap A and B"));
        pointLabel->setText(tr("&Point:"));
        m_stepLabel->setText(tr("&Step:"));
        m_stepCombo->setToolTip(tr("The folder holds snapshots of several training steps (such as iteration_10/, "
                                   "iteration_20/): the ranks of this one are compared"));
        m_stepCombo->setAccessibleName(tr("Training step"));
        aLabel->setText(tr("&A:"));
        bLabel->setText(tr("&B:"));
        this->timelines()->setStatusTip(tr("Wheel: zoom · drag: zoom into a box · Shift+drag: pan · Y: fit memory · "
                                           "Home: everything · click: an allocation's stack · double-click: compare "
                                           "there"));
        blockMap(0)->setAccessibleName(tr("Block map of rank A"));
        blockMap(1)->setAccessibleName(tr("Block map of rank B"));
    });
}

ComparePanel::~ComparePanel()
{
    // The parts nobody placed (what did owns the others, or is gone with them).
    for (QWidget* part : { m_bar.data(), m_maps.data() }) {
        if (part && !part->parent())
            delete part;
    }
}

TimelineView* ComparePanel::timelines() const
{
    return m_pair->timelines();
}

BlockMapView* ComparePanel::blockMap(int side) const
{
    return m_pair->blockMap(side);
}

bool ComparePanel::isBusy() const
{
    return m_pair->isBusy();
}

void ComparePanel::saveSettings(QSettings& settings) const
{
    settings.setValue(QStringLiteral("timeline/axis"), int(timelines()->preferredXAxis()));
}

void ComparePanel::restoreSettings(const QSettings& settings)
{
    timelines()->setXAxis(TimelineView::XAxis(settings.value(QStringLiteral("timeline/axis"), 0).toInt()));
}

int ComparePanel::rankIndexOf(int rank) const
{
    return m_comparison ? m_comparison->rankIndex(rank) : -1;
}

void ComparePanel::showComparison(const ComparisonPtr& comparison)
{
    m_comparison = comparison;
    if (!m_comparison) {
        m_rankA = m_rankB = -1;
        fillRankCombos();
        m_pair->showRanks(m_comparison, m_rankA, m_rankB);
        return;
    }
    chooseDefaultRanks();
    fillRankCombos();
    fillPointCombo();
    m_pair->showRanks(m_comparison, m_rankA, m_rankB);
}

void ComparePanel::chooseDefaultRanks()
{
    const std::vector<RankSummary>& ranks = m_comparison->ranks();
    if (rankIndexOf(m_rankA) >= 0 && (ranks.size() < 2 || (rankIndexOf(m_rankB) >= 0 && m_rankA != m_rankB)))
        return; // the user's (or the last) choice still holds
    std::tie(m_rankA, m_rankB) = m_comparison->defaultPair();
}

void ComparePanel::fillRankCombos()
{
    m_updating = true;
    for (QComboBox* combo : { m_aCombo, m_bCombo }) {
        combo->clear();
        if (m_comparison) {
            for (const RankSummary& s : m_comparison->ranks())
                combo->addItem(tr("Rank %1").arg(s.rank), s.rank);
        }
    }
    m_aCombo->setCurrentIndex(m_aCombo->findData(m_rankA));
    m_bCombo->setCurrentIndex(m_bCombo->findData(m_rankB));
    m_updating = false;
    refitBar();
}

void ComparePanel::fillPointCombo()
{
    m_updating = true;
    const QString current =
        m_comparison->options().point ? QString::fromStdString(m_comparison->pointName()) : QStringLiteral("aligned");
    m_pointCombo->clear();
    // Short: the bar is narrow. The status line and the tooltip say the rest.
    // The moment the verdict chose, where it chose one: an OOM, a mid-step excess, the highest peak.
    const Moment& moment = m_comparison->moment();
    if (!m_comparison->options().point) {
        const bool aligned = m_comparison->alignedTo() >= 0;
        m_alignedPointText = !aligned && m_comparison->ranks().size() < 2 ? tr("Aligned (one rank: its own peak)")
            : !aligned                                                    ? tr("Aligned (not possible: own peaks)")
            : moment.reason == Moment::OutOfMemory ? tr("Aligned at rank %1's OOM").arg(moment.rank)
            : moment.reason == Moment::MidStep
            ? tr("Aligned mid-step at rank %1's event %2").arg(moment.rank).arg(moment.event)
            : m_comparison->groups().size() > 1 ? tr("Aligned in each replica group")
                                                : tr("Aligned at rank %1's peak").arg(moment.rank);
    }
    m_pointCombo->addItem(m_alignedPointText.isEmpty() ? tr("Aligned (the verdict's moment)") : m_alignedPointText,
        QStringLiteral("aligned"));
    m_pointCombo->addItem(tr("Each rank's own peak"), QStringLiteral("peak"));
    m_pointCombo->addItem(tr("Snapshot (end of trace)"), QStringLiteral("snapshot"));
    bool anyOom = false;
    for (size_t i = 0; i < m_comparison->ranks().size(); ++i)
        anyOom = anyOom || !m_comparison->history(i).ooms().empty();
    if (anyOom)
        m_pointCombo->addItem(tr("Out of memory"), QStringLiteral("oom"));
    // Profiler steps that rank A recorded, as record_function("ProfilerStep#N") scopes.
    const int a = rankIndexOf(m_rankA);
    if (a >= 0) {
        const DeviceHistory& h = m_comparison->history(size_t(a));
        int steps = 0;
        for (const ProfilerStep::Step& step : ProfilerStep::steps(h)) {
            if (!step.span->hasStart || ++steps > 200)
                continue;
            const QString number = QString::number(step.number);
            m_pointCombo->addItem(tr("Step %1 (start)").arg(number), QString(QStringLiteral("step:") + number));
            if (step.span->hasEnd)
                m_pointCombo->addItem(tr("Step %1 (end)").arg(number), QStringLiteral("step:%1:end").arg(number));
        }
    }
    if (m_pointCombo->findData(current) < 0 && current.startsWith(QLatin1String("event:")))
        m_pointCombo->addItem(m_comparison->moment().reason == Moment::Picked
                ? tr("Rank %1's event %2 (picked; the others at the same moment)")
                      .arg(m_comparison->moment().rank)
                      .arg(m_comparison->moment().event)
                : tr("Event %1 (picked on the timeline)").arg(current.mid(6)),
            current);
    m_pointCombo->setCurrentIndex(std::max(0, m_pointCombo->findData(current)));
    m_updating = false;
    refitBar();
}

void ComparePanel::refitBar()
{
    // A menu bar places its corner widget at the widget's size hint only when the bar itself is laid out, so boxes
    // that grew with their items (the point, the ranks, the steps) would stay cut; a resize event lays it out again.
    m_bar->adjustSize();
    if (QWidget* host = m_bar->parentWidget()) {
        QResizeEvent resize(host->size(), host->size());
        QCoreApplication::sendEvent(host, &resize);
    }
}

void ComparePanel::setRanks(int a, int b)
{
    if (a == m_rankA && b == m_rankB)
        return;
    m_rankA = a;
    m_rankB = b;
    fillRankCombos();
    m_pair->showRanks(m_comparison, m_rankA, m_rankB);
    emit ranksChanged(m_rankA, m_rankB);
}

void ComparePanel::pickRank(int rank, int side)
{
    if (rankIndexOf(rank) < 0)
        return;
    if (side == 1) {
        if (rank != m_rankB)
            setRanks(rank == m_rankA ? m_rankB : m_rankA, rank);
    } else if (rank != m_rankA) {
        setRanks(rank, rank == m_rankB ? m_rankA : m_rankB);
    }
}

void ComparePanel::swapRanks()
{
    if (m_rankB >= 0)
        setRanks(m_rankB, m_rankA);
}

bool ComparePanel::bringIn(int rank)
{
    if (rank == m_rankA || rank == m_rankB)
        return false;
    setRanks(rank, m_rankB);
    return true;
}

void ComparePanel::markFinding(int finding)
{
    m_pair->markFinding(finding);
}

void ComparePanel::pickPoint(int track, EventIndex event)
{
    // The clicked rank's event; every other rank at the same moment of its own trace, whatever its event index.
    const std::vector<TimelineTrack>& tracks = timelines()->tracks();
    if (track < 0 || size_t(track) >= tracks.size())
        return;
    const int rank = tracks[size_t(track)].rank;
    const QString spec = QStringLiteral("event:%1@%2").arg(event).arg(rank);
    m_updating = true;
    if (m_pointCombo->findData(spec) < 0)
        m_pointCombo->addItem(
            tr("Rank %1's event %2 (picked; the others at the same moment)").arg(rank).arg(event), spec);
    m_pointCombo->setCurrentIndex(m_pointCombo->findData(spec));
    m_updating = false;
    emit pointPicked();
}

void ComparePanel::startJob(const std::vector<int64_t>& steps, int64_t step)
{
    m_rankA = m_rankB = -1;
    m_stepCombo->clear();
    for (int64_t s : steps)
        m_stepCombo->addItem(QString::number(s), QVariant::fromValue(qlonglong(s)));
    m_stepCombo->setCurrentIndex(m_stepCombo->findData(QVariant::fromValue(qlonglong(step))));
    m_stepLabel->setVisible(!steps.empty());
    m_stepCombo->setVisible(!steps.empty());
    refitBar();
}

QString ComparePanel::closeJob()
{
    // The point is the job's: an event or a step is a moment of its traces, which in another job would compare
    // something else, silently; its OOM, even its peak, were chosen for what it showed, and another job may have no
    // OOM at all. The next job starts where its own verdict looks, and its list holds only what it has.
    const QString point = m_pointCombo->currentData().toString();
    QString text = point.isEmpty() || point == QLatin1String("aligned") ? QString() : m_pointCombo->currentText();
    m_alignedPointText.clear();
    m_updating = true;
    m_pointCombo->clear();
    m_pointCombo->addItem(tr("Aligned (the verdict's moment)"), QStringLiteral("aligned"));
    m_updating = false;
    // The maps' colouring by state was asked of this job's blocks; the next job's open by site, as its bands do.
    for (int side : { 0, 1 }) {
        if (BlockMapView* map = blockMap(side))
            map->setColoring(BlockMapView::BySite);
    }
    return text;
}

void ComparePanel::readOptions(ComparisonOptions& options) const
{
    // "aligned" (the default, also before the first comparison) parses to no point: the comparison aligns the ranks
    // where their traces allow it, else takes each at its own peak.
    options.point = TimelinePoint::parse(m_pointCombo->currentData().toString().toStdString());
}

QString ComparePanel::pointText() const
{
    return m_pointCombo->currentText();
}

void ComparePanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // The boxes' items are made from the comparison, so they are made again in the new language.
    if (event->type() == QEvent::LanguageChange && m_comparison) {
        fillRankCombos();
        fillPointCombo();
    }
}

} // namespace RankScope
