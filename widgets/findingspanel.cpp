// SPDX-License-Identifier: MIT
#include "findingspanel.h"

#include "excesstreemodel.h"
#include "fieldshortcuts.h"
#include "findingsfiltermodel.h"
#include "findingsmodel.h"
#include "findingstableutil.h"
#include "flamegraph.h"
#include "retranslator.h"
#include "whatifview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QResizeEvent>
#include <QScopedValueRollback>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace RankScope {

FindingsPanel::FindingsPanel(QWidget* parent)
    : QWidget(parent)
    , m_findings(new FindingsModel(this))
    , m_proxy(new FindingsFilterModel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 0, 0);
    layout->setSpacing(2);
    // The filter and the options share the tab bar's row (its corner): at 1280x720 there is no row to spare.
    auto* corner = new QWidget;
    auto* bar = new QHBoxLayout(corner);
    bar->setContentsMargins(8, 0, 0, 2);
    m_filter = new QLineEdit(corner);
    m_filter->setClearButtonEnabled(true);
    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(200);
    connect(m_filter, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_filterTimer, &QTimer::timeout, this, &FindingsPanel::applyFilter);
    FieldShortcuts::install(m_filter);
    bar->addWidget(m_filter, 1);
    // Beside the trees and the flame graph (shown with them): rank A's excess, or everything it holds.
    m_scopeCombo = new QComboBox(corner);
    m_scopeCombo->addItems({ QString(), QString() });
    m_scopeCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_scopeCombo->hide();
    connect(m_scopeCombo, &QComboBox::activated, this, [this] {
        m_scopeChosen = true;
        showExcess();
    });
    bar->addWidget(m_scopeCombo);
    bar->addSpacing(8);
    // How sites are compared goes with the findings it decides, in their bar: the bar over the timelines stays short
    // enough for a 1280-pixel screen. Where the row has no room for them beside every tab's whole label, they fold
    // behind a button (fitOptions).
    m_options = new QWidget(corner);
    auto* options = new QHBoxLayout(m_options);
    options->setContentsMargins(0, 0, 0, 0);
    // A field after its label, which names it (and gives it a mnemonic).
    const auto addLabelled = [this, options](QWidget* field) {
        auto* label = new QLabel(m_options);
        label->setBuddy(field);
        options->addWidget(label);
        options->addWidget(field);
        return label;
    };
    m_baselineCombo = new QComboBox(m_options);
    m_baselineCombo->addItem(QString());
    m_baselineCombo->addItem(QString());
    connect(m_baselineCombo, &QComboBox::currentIndexChanged, this, &FindingsPanel::optionsChanged);
    QLabel* baselineLabel = addLabelled(m_baselineCombo);
    m_threshold = new QDoubleSpinBox(m_options);
    m_threshold->setRange(0, 1000);
    m_threshold->setDecimals(1);
    m_threshold->setSuffix(QStringLiteral(" %"));
    m_threshold->setValue(ComparisonOptions().thresholdPercent);
    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, &FindingsPanel::optionsChanged);
    QLabel* thresholdLabel = addLabelled(m_threshold);
    m_myCode = new QCheckBox(m_options);
    connect(m_myCode, &QCheckBox::toggled, this, &FindingsPanel::optionsChanged);
    options->addWidget(m_myCode);
    m_depth = new QSpinBox(m_options);
    m_depth->setRange(0, 64);
    connect(m_depth, &QSpinBox::valueChanged, this, &FindingsPanel::optionsChanged);
    QLabel* depthLabel = addLabelled(m_depth);
    bar->addWidget(m_options);
    m_optionsButton = new QToolButton(corner);
    m_optionsButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_optionsButton->setArrowType(Qt::DownArrow);
    m_optionsButton->setAutoRaise(true);
    m_optionsButton->hide();
    connect(m_optionsButton, &QToolButton::clicked, this, &FindingsPanel::showFoldedOptions);
    bar->addWidget(m_optionsButton);
    m_optionsPopup = new QFrame(this, Qt::Popup);
    m_optionsPopup->setFrameShape(QFrame::StyledPanel);
    new QHBoxLayout(m_optionsPopup);
    FieldShortcuts::install(m_threshold);
    FieldShortcuts::install(m_depth);

    // A row for each group of ranks alike, its other ranks under it: the table grows with what differs, not with
    // the number of ranks.
    m_findings->setGrouped(true);
    m_proxy->setSourceModel(m_findings);
    m_view = new QTreeView(this);
    m_view->setModel(m_proxy);
    // An empty table after filtering says why, so it is not taken for "no finding at all": in the empty table itself,
    // where it moves nothing (above the tabs, the tab row went down a line and back as the filter was typed).
    m_noMatch = new QLabel(m_view->viewport());
    m_noMatch->setWordWrap(true);
    m_noMatch->setMargin(6);
    m_noMatch->setForegroundRole(QPalette::PlaceholderText);
    m_noMatch->hide();
    m_view->viewport()->installEventFilter(this);
    FindingsTableUtil::setUp(m_view);
    m_view->setRootIsDecorated(true); // a group's row opens on its ranks
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(FindingsModel::ExcessColumn, Qt::DescendingOrder);
    // A click makes its row current before it selects it; the keys and setCurrentIndex select first. In between, a
    // current row that is not selected beside one that is, nothing was chosen yet: the finding counts once it is both.
    const auto changed = [this] {
        const QItemSelectionModel* selection = m_view->selectionModel();
        if (!selection->hasSelection() || selection->isSelected(m_view->currentIndex())) {
            // A finding the filter hides stays the user's choice, to select again once the filter shows it.
            if (!m_filtering)
                m_chosenFinding = selectedFinding();
            emit currentFindingChanged(selectedFinding());
        }
    };
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, changed);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this, changed] {
        changed();
        if (!m_view->selectionModel()->hasSelection())
            emit findingReselected();
    });
    // Clicking the selected finding again (after an allocation's stack took the pane) shows its stack again.
    connect(m_view, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
        if (index.siblingAtColumn(0) == m_view->currentIndex().siblingAtColumn(0))
            emit findingReselected();
    });
    // Beside the list, as hotspot and heaptrack show it: rank A's excess by frame, from the entry script down and from
    // the allocating frame up, and as a flame graph.
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->setCornerWidget(corner, Qt::TopRightCorner);
    m_tabs->tabBar()->setElideMode(Qt::ElideNone); // "Bottom up" was cut to "Botto"; fitOptions makes the room
    m_tabs->addTab(m_view, QString());
    for (ExcessTree::Direction direction : { ExcessTree::TopDown, ExcessTree::BottomUp }) {
        auto* model = new ExcessTreeModel(this);
        auto* view = new QTreeView(this);
        view->setModel(model);
        view->setUniformRowHeights(true);
        FindingsTableUtil::fitTextColumn(view, ExcessTreeModel::FrameColumn);
        m_excessViews[direction] = view;
        m_tabs->addTab(view, QString());
    }
    m_flameGraph = new FlameGraph(this);
    auto* flame = new QScrollArea(this);
    flame->setWidgetResizable(true);
    flame->setFrameShape(QFrame::NoFrame);
    flame->setWidget(m_flameGraph);
    m_tabs->addTab(flame, QString());
    m_whatIf = new WhatIfView(this);
    m_tabs->addTab(m_whatIf, QString());
    // The filter is for the findings; the scope for the trees and the flame graph.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        m_filter->setVisible(tab == 0);
        m_scopeCombo->setVisible(tab >= 1 && tab <= 3);
    });
    layout->addWidget(m_tabs, 1);

    (new Retranslator(this))->add([=, this] {
        m_filter->setPlaceholderText(tr("Filter findings: any frame, file, function, rank… (%1)")
                                         .arg(QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText)));
        m_filter->setAccessibleName(tr("Filter findings"));
        m_filter->setToolTip(tr("Searches every cell and every frame of each finding's stack. on:K keeps the findings "
                                "whose site K ranks hold (on:1: on one rank only), on:K-M from K to M ranks, as "
                                "--present-on takes it; \"on:1 train.py\" does both"));
        m_view->setAccessibleName(tr("Findings"));
        m_tabs->setTabText(0, tr("Findings"));
        m_tabs->setTabText(1, tr("Top down"));
        m_tabs->setTabText(2, tr("Bottom up"));
        m_tabs->setTabText(3, tr("Flame"));
        m_tabs->setTabText(4, tr("What if"));
        m_tabs->setTabToolTip(1,
            tr("Rank A's excess (or everything it holds at the point) by frame, from the entry script down to where "
               "it allocates"));
        m_tabs->setTabToolTip(2,
            tr("Rank A's excess (or everything it holds at the point) by frame, from where it allocates up to its "
               "callers"));
        m_tabs->setTabToolTip(3,
            tr("Rank A's excess (or everything it holds at the point) as a flame graph (right-click to export it as "
               "SVG)"));
        m_tabs->setTabToolTip(
            4, tr("Rank A's peak had each of its largest sites, or each category, not been allocated"));
        m_scopeCombo->setItemText(ExcessTree::Excess, tr("Excess"));
        m_scopeCombo->setItemText(ExcessTree::Everything, tr("Everything"));
        m_scopeCombo->setToolTip(tr("What the trees and the flame graph show of rank A: what it holds beyond its "
                                    "baseline, or everything it holds at the point compared"));
        m_scopeCombo->setAccessibleName(tr("Memory shown by frame"));
        m_baselineCombo->setItemText(0, tr("median"));
        m_baselineCombo->setItemText(1, tr("rank B"));
        m_baselineCombo->setToolTip(tr("What each rank is compared with: the median of the other ranks, or rank B"));
        m_baselineCombo->setAccessibleName(tr("Baseline"));
        baselineLabel->setText(tr("Base&line:"));
        m_threshold->setToolTip(tr("A rank is an outlier when it holds more than this much above its baseline"));
        m_threshold->setAccessibleName(tr("Outlier threshold"));
        thresholdLabel->setText(tr("&Threshold:"));
        m_myCode->setText(tr("&My code"));
        m_myCode->setToolTip(tr("Group allocations by your own frames only: not torch, site-packages, the standard "
                                "library or C++. Where no frame is in your own folders, the framework the job runs "
                                "(torchtitan, Megatron … under site-packages) counts as yours"));
        m_depth->setSpecialValueText(tr("all"));
        // The spin box sizes itself for its numbers; "全部" is wider than "64" and would be cut at the left.
        m_depth->setMinimumWidth(std::max(m_depth->fontMetrics().horizontalAdvance(m_depth->specialValueText()),
                                     m_depth->fontMetrics().horizontalAdvance(QStringLiteral("64")))
            + m_depth->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 16);
        m_depth->setToolTip(tr("How many frames (innermost first) make a site; fewer frames merge more allocations"));
        m_depth->setAccessibleName(tr("Stack depth"));
        depthLabel->setText(tr("&Depth:"));
        m_optionsButton->setText(tr("Options"));
        m_optionsButton->setToolTip(tr("Baseline, threshold, my code and stack depth: what decides the findings"));
        showExcess();
        fitOptions();
    });
}

QSize FindingsPanel::minimumSizeHint() const
{
    // The table with MinimumRows rows in sight under its header, a scroll bar under them (its figures scroll on a
    // narrow screen), in place of the few pixels a scroll area asks for: then the window's splitters cannot squeeze
    // the findings to three rows.
    const int row = std::max(m_view->sizeHintForRow(0), m_view->fontMetrics().lineSpacing() + 2);
    const int table = 2 * m_view->frameWidth() + m_view->header()->sizeHint().height() + MinimumRows * row
        + m_view->horizontalScrollBar()->sizeHint().height();
    const QSize laidOut = QWidget::minimumSizeHint();
    return { laidOut.width(), laidOut.height() + std::max(0, table - m_view->minimumSizeHint().height()) };
}

void FindingsPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitOptions();
}

void FindingsPanel::fitOptions()
{
    // Whichever tab is in front, so switching tabs does not move them: the wider of the filter and the scope box.
    auto* bar = static_cast<QBoxLayout*>(m_filter->parentWidget()->layout());
    const QMargins margins = bar->contentsMargins();
    const int filter = m_filter->fontMetrics().averageCharWidth() * 24;
    const int field = std::max({ filter, m_filter->minimumSizeHint().width(), m_scopeCombo->sizeHint().width() });
    const int row = m_tabs->tabBar()->sizeHint().width() + margins.left() + margins.right() + field + 8
        + 4 * std::max(bar->spacing(), 0) + m_options->sizeHint().width();
    const bool fold = row > m_tabs->width();
    // The filter takes what the row leaves, up to its placeholder's width (which says what it searches).
    const int spare =
        m_tabs->width() - row + (fold ? m_options->sizeHint().width() - m_optionsButton->sizeHint().width() : 0);
    const int placeholder = m_filter->fontMetrics().horizontalAdvance(m_filter->placeholderText()) + 40;
    m_filter->setMinimumWidth(std::max(filter, std::min(filter + spare, placeholder)));
    if (fold == m_optionsFolded)
        return;
    m_optionsFolded = fold;
    m_optionsPopup->hide();
    if (fold)
        m_optionsPopup->layout()->addWidget(m_options);
    else
        bar->insertWidget(bar->indexOf(m_optionsButton), m_options);
    m_options->show();
    m_optionsButton->setVisible(fold);
}

void FindingsPanel::showFoldedOptions()
{
    m_optionsPopup->adjustSize();
    // Under the button's right end, or over it where the screen ends first (the findings are low in the window).
    const QSize size = m_optionsPopup->size();
    const QRect screen = m_optionsButton->screen()->availableGeometry();
    QPoint at =
        m_optionsButton->mapToGlobal(QPoint(m_optionsButton->width() - size.width(), m_optionsButton->height()));
    if (at.y() + size.height() > screen.bottom())
        at.setY(m_optionsButton->mapToGlobal(QPoint()).y() - size.height());
    at.setX(std::clamp(at.x(), screen.left(), std::max(screen.left(), screen.right() - size.width())));
    m_optionsPopup->move(at);
    m_optionsPopup->show();
}

QString FindingsPanel::noMatchText() const
{
    return m_noMatch->isVisibleTo(m_noMatch->parentWidget()) ? m_noMatch->text() : QString();
}

int FindingsPanel::shownFindings() const
{
    // Each group's row and the ranks under it that the filter leaves: the status bar counts findings, not rows.
    int shown = m_proxy->rowCount();
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        shown += m_proxy->rowCount(m_proxy->index(row, 0));
    return shown;
}

bool FindingsPanel::isFiltered() const
{
    return m_proxy->isFiltering();
}

bool FindingsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        placeNoMatch();
    return QWidget::eventFilter(watched, event);
}

void FindingsPanel::placeNoMatch()
{
    const int width = m_view->viewport()->width();
    m_noMatch->setGeometry(0, 0, width, m_noMatch->heightForWidth(width));
}

void FindingsPanel::applyFilter()
{
    {
        const QScopedValueRollback filtering(m_filtering, true);
        m_proxy->setFilterText(m_filter->text());
    }
    // The finding chosen before the filter hid it comes back with it (cleared, the filter took the selection with it).
    if (m_chosenFinding >= 0 && selectedFinding() < 0) {
        const QModelIndex row = m_proxy->mapFromSource(m_findings->indexOf(size_t(m_chosenFinding)));
        if (row.isValid()) {
            m_view->setCurrentIndex(row);
            m_view->scrollTo(row);
        }
    }
    updateNoMatch();
    emit filterApplied();
}

void FindingsPanel::updateNoMatch()
{
    // An empty table always says why: nothing matches the filter, or no rank holds more than its baseline.
    const bool filtered = m_proxy->rowCount() == 0 && m_findings->rowCount() > 0;
    const bool none = m_comparison && m_findings->rowCount() == 0;
    m_noMatch->setVisible(filtered || none);
    if (filtered)
        m_noMatch->setText(
            tr("No finding matches “%1”: every finding's site, rank and every frame of its stack were searched.")
                .arg(m_filter->text()));
    else if (none)
        m_noMatch->setText(tr("No finding: no rank holds more than its baseline at any site. What fills rank A's GPU "
                              "is under What if, and by frame under Top down and Flame."));
    placeNoMatch();
}

void FindingsPanel::showComparison(const ComparisonPtr& comparison)
{
    m_comparison = comparison;
    m_chosenFinding = -1; // the window selects one of the new comparison's findings
    m_findings->setComparison(m_comparison);
    updateNoMatch();
    if (m_comparison)
        FindingsTableUtil::fitColumns(m_view);
    updateGeometry(); // the minimum counts rows of the height the first one has
}

void FindingsPanel::setRankA(int rank)
{
    m_rankA = rank;
    showExcess();
}

void FindingsPanel::showExcess()
{
    // Cheap (a pass over rank A's findings, or its sites, and their frames), so made here rather than on a worker;
    // the flame graph draws the same top-down tree the Top down tab shows.
    if (!m_scopeChosen && m_comparison)
        m_scopeCombo->setCurrentIndex(ExcessTree::defaultScope(*m_comparison, m_rankA));
    const auto scope = ExcessTree::Scope(m_scopeCombo->currentIndex());
    std::shared_ptr<const ExcessNode> topDown;
    for (ExcessTree::Direction direction : { ExcessTree::TopDown, ExcessTree::BottomUp }) {
        QTreeView* view = m_excessViews[direction];
        std::shared_ptr<const ExcessNode> tree =
            m_comparison ? ExcessTree::build(*m_comparison, m_rankA, direction, scope) : nullptr;
        if (direction == ExcessTree::TopDown)
            topDown = tree;
        auto* model = static_cast<ExcessTreeModel*>(view->model());
        model->setTree(std::move(tree), scope);
        view->expandToDepth(direction == ExcessTree::TopDown ? 2 : 0);
        for (int column = ExcessTreeModel::InclusiveColumn; column < ExcessTreeModel::NUM_COLUMNS; ++column)
            view->resizeColumnToContents(column);
        FindingsTableUtil::refitTextColumn(view, ExcessTreeModel::FrameColumn);
        // The frames stay in the order called (the process's entry on top); reading starts at the user's first frame,
        // opened and scrolled to.
        if (const QModelIndex start = model->readingStart(); start.isValid()) {
            for (QModelIndex up = start.parent(); up.isValid(); up = up.parent())
                view->expand(up);
            view->expand(start);
            view->scrollTo(start, QAbstractItemView::PositionAtTop);
            view->selectionModel()->setCurrentIndex(start, QItemSelectionModel::NoUpdate);
        }
    }
    const QString title = FlameGraph::title(m_rankA, scope, topDown ? topDown->inclusiveBytes : 0);
    m_flameGraph->setTree(std::move(topDown), title, scope);
    m_whatIf->showRank(m_comparison, m_rankA);
}

bool FindingsPanel::selectDefaultFinding(int rankA, int rankB)
{
    if (!m_comparison)
        return false;
    const auto row = [this](size_t finding) { return m_proxy->mapFromSource(m_findings->indexOf(finding)); };
    // Of the findings the table shows: the filter may hide the one it would show.
    const int finding = m_comparison->findingToShow(rankA, rankB, -1, [&row](size_t f) { return row(f).isValid(); });
    if (finding < 0)
        return false;
    m_view->setCurrentIndex(row(size_t(finding)));
    m_view->scrollTo(row(size_t(finding)));
    return true;
}

void FindingsPanel::closeJob()
{
    m_filter->clear(); // with its signals: the field's clear button goes with the text
    m_filterTimer->stop();
    m_chosenFinding = -1;
    m_proxy->setFilterText(QString());
    emit filterApplied();
    m_scopeChosen = false;
    // The next job opens on its own tab: the findings, or What if once its verdict is about an OOM (setAboutOom).
    m_tabs->setCurrentIndex(0);
    m_whatIfShownForOom = false;
    updateNoMatch();
}

void FindingsPanel::setAboutOom(bool aboutOom)
{
    if (aboutOom && m_tabs->currentIndex() == 0)
        m_tabs->setCurrentWidget(m_whatIf);
    else if (!aboutOom && m_tabs->currentWidget() == m_whatIf && m_whatIfShownForOom)
        m_tabs->setCurrentIndex(0);
    m_whatIfShownForOom = aboutOom;
}

int FindingsPanel::selectedFinding() const
{
    // Ctrl+click on the selected finding unselects it but leaves it current: then no finding is marked.
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid() || !m_comparison || !m_view->selectionModel()->isSelected(current))
        return -1;
    return m_findings->findingAt(m_proxy->mapToSource(current));
}

void FindingsPanel::nextFinding()
{
    // The rows as shown: into a group that is open, past one that is closed.
    const QModelIndex current = m_view->currentIndex();
    const QModelIndex next = current.isValid() ? m_view->indexBelow(current) : m_proxy->index(0, 0);
    if (next.isValid())
        m_view->setCurrentIndex(next);
}

void FindingsPanel::previousFinding()
{
    const QModelIndex current = m_view->currentIndex();
    const QModelIndex previous = current.isValid() ? m_view->indexAbove(current) : m_proxy->index(0, 0);
    if (previous.isValid())
        m_view->setCurrentIndex(previous);
}

void FindingsPanel::focusFilter()
{
    m_tabs->setCurrentIndex(0); // the filter is the findings'
    m_filter->window()->activateWindow();
    m_filter->setFocus();
    m_filter->selectAll();
}

void FindingsPanel::readOptions(ComparisonOptions& options, int rankB) const
{
    options.baselineRank = baselineIsRankB() ? rankB : -1;
    options.thresholdPercent = m_threshold->value();
    options.site.myCodeOnly = m_myCode->isChecked();
    options.site.depth = m_depth->value();
}

bool FindingsPanel::baselineIsRankB() const
{
    return m_baselineCombo->currentIndex() == 1;
}

void FindingsPanel::saveSettings(QSettings& settings) const
{
    settings.setValue(QStringLiteral("compare/baseline"), m_baselineCombo->currentIndex());
    settings.setValue(QStringLiteral("compare/threshold"), m_threshold->value());
    settings.setValue(QStringLiteral("compare/myCode"), m_myCode->isChecked());
    settings.setValue(QStringLiteral("compare/depth"), m_depth->value());
}

void FindingsPanel::restoreSettings(const QSettings& settings)
{
    // Not the user's change: nothing to compare anew.
    const QSignalBlocker baseline(m_baselineCombo), threshold(m_threshold), myCode(m_myCode), depth(m_depth);
    m_baselineCombo->setCurrentIndex(std::clamp(settings.value(QStringLiteral("compare/baseline"), 0).toInt(), 0, 1));
    m_threshold->setValue(
        settings.value(QStringLiteral("compare/threshold"), ComparisonOptions().thresholdPercent).toDouble());
    m_myCode->setChecked(settings.value(QStringLiteral("compare/myCode"), false).toBool());
    m_depth->setValue(settings.value(QStringLiteral("compare/depth"), 0).toInt());
}

} // namespace RankScope
