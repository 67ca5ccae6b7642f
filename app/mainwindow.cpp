// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "appearance.h"
#include "beforeafterwindow.h"
#include "capturehelperdialog.h"
#include "comparecolumn.h"
#include "comparepanel.h"
#include "comparisonexport.h"
#include "findingspanel.h"
#include "gatewindow.h"
#include "jobsession.h"
#include "jobsettingdialog.h"
#include "rankfiles.h"
#include "ranklistmodel.h"
#include "rankspanel.h"
#include "recentfiles.h"
#include "retranslator.h"
#include "settingsdialog.h"
#include "shortcutsdialog.h"
#include "snapshotloader.h"
#include "startpage.h"
#include "steplog.h"
#include "stepswindow.h"
#include "timelineview.h"
#include "verdictbanner.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

#include <algorithm>

namespace RankScope {

namespace {

// Splitter sizes of this layout (the peaks per step under the rank chart, the stack under the ranks, the options
// with the findings, the block maps beside the timelines on a short screen): sizes saved for an earlier one would
// squeeze it.
const QString SplitterKey = QStringLiteral("window/layout4/");

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_recent(new RecentFiles(this))
    , m_texts(new Retranslator(this))
{
    setAcceptDrops(true);
    // Three quarters of a large screen (on a 4K one, 1440×900 is a stamp), and no larger than the screen: a window
    // manager may not shrink it, and without one (Xvfb) it would run off the edge.
    const QSize available = screen()->availableGeometry().size();
    resize(QSize(1440, 900).expandedTo(available * 3 / 4).boundedTo(available));

    m_stack = new QStackedWidget(this);
    m_start = new StartPage(m_stack);
    connect(m_start, &StartPage::openFilesRequested, this, &MainWindow::openFilesDialog);
    connect(m_start, &StartPage::openFolderRequested, this, &MainWindow::openFolderDialog);
    connect(m_start, &StartPage::openExampleRequested, this, &MainWindow::openExample);
    connect(m_start, &StartPage::openLogsRequested, this, &MainWindow::openStepLogsDialog);
    connect(m_start, &StartPage::captureHelperRequested, this, &MainWindow::showCaptureHelper);
    connect(m_start, &StartPage::openRecentRequested, this, [this](const QStringList& paths) { openPaths(paths); });
    m_stack->addWidget(m_start);

    // The job compares with the options the panels set.
    m_session = new JobSession(
        [this](ComparisonOptions& options) {
            m_compare->readOptions(options);
            m_findings->readOptions(options, m_compare->rankB());
        },
        this);
    m_ranks = new RanksPanel(m_session->model());
    m_compare = new ComparePanel;
    m_findings = new FindingsPanel;
    connect(m_session, &JobSession::comparisonReady, this, &MainWindow::showComparison);
    connect(m_session, &JobSession::comparing, this, [this](int ranks) {
        m_banner->setPending(tr("Comparing %n rank(s)…", nullptr, ranks));
        updateStatus();
    });
    connect(m_session, &JobSession::fileFinished, this, &MainWindow::onFileFinished);
    connect(m_session, &JobSession::earlierStepFailed, this, [this](const LoadedFile& file) {
        statusBar()->showMessage(
            tr("%1 (an earlier step) could not be read: %2").arg(QFileInfo(file.path).fileName(), file.error), 10000);
    });
    connect(m_ranks, &RanksPanel::rankPicked, m_compare, &ComparePanel::pickRank);
    connect(m_ranks, &RanksPanel::cancelRequested, this, [this](int row) { loader()->cancel(row); });
    connect(m_compare, &ComparePanel::ranksChanged, this, &MainWindow::onRanksChanged);
    connect(m_compare, &ComparePanel::pointChosen, m_session, &JobSession::scheduleComparison);
    connect(m_compare, &ComparePanel::pointPicked, m_session, &JobSession::compare);
    connect(m_compare, &ComparePanel::stepChosen, this, [this](int64_t step) { openPaths(m_session->paths(), step); });
    connect(m_compare, &ComparePanel::allocationClicked, m_ranks, &RanksPanel::showAllocation);
    connect(m_compare, &ComparePanel::oomClicked, m_ranks, &RanksPanel::showOom);
    connect(m_compare, &ComparePanel::blockClicked, m_ranks, &RanksPanel::showBlock);
    connect(m_findings, &FindingsPanel::currentFindingChanged, this, [this](int finding) {
        // Picking a finding of a rank that is not shown brings that rank as A, which shows the finding; picking ranks
        // keeps the finding.
        if (finding < 0 || !m_compare->bringIn(comparison()->findings()[size_t(finding)].rank))
            showFinding();
    });
    connect(m_findings, &FindingsPanel::findingReselected, this, &MainWindow::showFinding);
    connect(m_findings, &FindingsPanel::optionsChanged, m_session, &JobSession::scheduleComparison);
    connect(m_findings, &FindingsPanel::filterApplied, this, &MainWindow::updateStatus);
    connect(m_recent, &RecentFiles::changed, this, &MainWindow::updateRecent);

    // The ranks on the left; ranks A and B side by side over time and in memory on the right, then the findings.
    // The step, the point and the ranks shown sit in the menu bar's corner: always in sight, and the row they would
    // take goes to the timelines (a 1280×720 screen has none to spare).
    menuBar()->setCornerWidget(m_compare->bar(), Qt::TopRightCorner);
    auto* right = new CompareColumn(m_compare, qobject_cast<QSplitter*>(m_compare->blockMaps()), m_findings);
    auto* body = m_body = new QSplitter(Qt::Horizontal);
    body->setObjectName(QStringLiteral("bodySplitter"));
    body->addWidget(m_ranks);
    body->addWidget(right);
    // A third of extra width goes to the ranks' column, whose stack's lines are long; the rest to the comparison.
    body->setStretchFactor(0, 1);
    body->setStretchFactor(1, 2);
    body->setSizes({ 400, 1000 });
    m_mainPage = new QWidget(m_stack);
    auto* page = new QVBoxLayout(m_mainPage);
    page->setContentsMargins(0, 0, 0, 0);
    m_banner = new VerdictBanner(m_mainPage);
    page->addWidget(m_banner);
    page->addWidget(body, 1);
    m_stack->addWidget(m_mainPage);
    setCentralWidget(m_stack);
    m_texts->add([this] { setWindowTitle(tr("RankScope")); });

    timelines()->setMaxBands(Appearance::timelineBands());
    createActions();
    updateRecent();
    restoreSettings();
    updateStatus();
}

MainWindow::~MainWindow()
{
    saveSettings();
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    for (const QSplitter* splitter : findChildren<QSplitter*>()) {
        if (!splitter->objectName().isEmpty())
            settings.setValue(SplitterKey + splitter->objectName(), splitter->saveState());
    }
    m_findings->saveSettings(settings);
    m_compare->saveSettings(settings);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    fitToScreen();
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    for (QSplitter* splitter : findChildren<QSplitter*>()) {
        const QVariant state = settings.value(SplitterKey + splitter->objectName());
        if (!splitter->objectName().isEmpty() && state.isValid())
            splitter->restoreState(state.toByteArray());
    }
    m_findings->restoreSettings(settings);
    m_compare->restoreSettings(settings);
}

void MainWindow::fitToScreen()
{
    // A size remembered on a larger screen, or on one since unplugged, must not put the status bar below this one.
    const QScreen* screen = this->screen();
    if (!screen || isMaximized() || isFullScreen())
        return;
    const QRect available = screen->availableGeometry();
    const QRect frame = frameGeometry();
    const QRect inner = geometry();
    const QMargins decoration(inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(),
        frame.bottom() - inner.bottom());
    const QRect room = available.marginsRemoved(decoration);
    if (room.contains(inner))
        return;
    const QSize size = inner.size().boundedTo(room.size());
    const QPoint at(std::clamp(inner.left(), room.left(), room.right() + 1 - size.width()),
        std::clamp(inner.top(), room.top(), room.bottom() + 1 - size.height()));
    setGeometry(QRect(at, size));
}

void MainWindow::createActions()
{
    // Menus are made afresh in a new language. The old ones may be on the call stack (Settings was opened from one),
    // so they are deleted later; taken off the menu bar, their shortcuts no longer fire.
    for (QAction* action : menuBar()->actions()) {
        if (action->menu())
            action->menu()->deleteLater();
    }
    menuBar()->clear();

    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Snapshots…"), this, &MainWindow::openFilesDialog);
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open one snapshot file per rank"));
    QAction* folder = file->addAction(tr("Open &Folder…"), this, &MainWindow::openFolderDialog);
    folder->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    folder->setStatusTip(tr("Open every snapshot file in a folder"));
    m_addAction = file->addAction(tr("&Add to This Job…"), this, &MainWindow::addFilesDialog);
    m_addAction->setStatusTip(tr("Add ranks to the open job; Open starts a new job"));
    QAction* example = file->addAction(tr("Open &Example"), this, &MainWindow::openExample);
    example->setStatusTip(tr("Open the bundled four-rank example"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    file->addAction(tr("Open Step &Logs…"), this, &MainWindow::openStepLogsDialog)
        ->setStatusTip(tr("Training logs with per-rank step reports: which rank departs first, at which step"));
    file->addAction(tr("Compare &Before and After…"), this, &MainWindow::compareBeforeAfterDialog)
        ->setStatusTip(tr("Two runs, before and after a fix: folders of snapshots or of training logs"));
    GateWindow::addMenuAction(file, this, [this] { return m_session->paths(); });
    file->addSeparator();
    m_exportMenu = file->addMenu(tr("&Export"));
    // What the window shows, exported.
    const auto shown = [this] {
        return ComparisonExport(
            this, { comparison(), rankA(), rankB(), selectedFinding(), rankModel(), timelines(), m_session->folder() });
    };
    QAction* picture =
        m_exportMenu->addAction(tr("Diff &Screenshot…"), this, [this, shown] { exported(shown().picture()); });
    picture->setShortcut(QKeySequence(tr("Ctrl+E")));
    picture->setStatusTip(tr("Ranks A and B, their block maps, the findings and the selected stack as PNG, SVG or "
                             "PDF"));
    m_exportMenu->addAction(tr("Findings as &CSV…"), this, [this, shown] { exported(shown().findings(false)); })
        ->setStatusTip(tr("Every finding, one per line, as rankscope diff --csv writes them"));
    m_exportMenu->addAction(tr("Findings as &JSON…"), this, [this, shown] { exported(shown().findings(true)); })
        ->setStatusTip(tr("The comparison as rankscope diff --json writes it"));
    m_exportMenu->addAction(tr("&Report…"), this, [this, shown] { exported(shown().report()); })
        ->setStatusTip(tr("An HTML or Markdown report for a bug tracker: verdict, ranks, top findings with stacks "
                          "and the diff picture"));
    file->addSeparator();
    m_cancelAction = file->addAction(tr("&Cancel Loading"), this, [this] { loader()->cancelAll(); });
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setStatusTip(tr("Stop loading the files that are still loading"));
    m_closeAction = file->addAction(tr("&Close All"), this, &MainWindow::closeAll);
    m_closeAction->setShortcut(QKeySequence::Close);
    m_closeAction->setStatusTip(tr("Close every snapshot and go back to the start page"));
    file->addSeparator();
    QAction* settings = file->addAction(tr("&Settings…"), this, &MainWindow::openSettings);
    // Desktops without a standard Preferences key (GNOME, bare X11) get the common Ctrl+,.
    settings->setShortcut(QKeySequence::keyBindings(QKeySequence::Preferences).value(0, QKeySequence(tr("Ctrl+,"))));
    settings->setStatusTip(tr("Language, colour theme and timeline detail"));
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    TimelineView* timelines = this->timelines();
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, timelines, &TimelineView::zoomIn);
    view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, timelines, &TimelineView::zoomOut);
    view->addAction(tr("&Reset Zoom"), QKeySequence(tr("Ctrl+0")), timelines, &TimelineView::resetZoom);
    view->addActions({ timelines->zoomBackAction(), timelines->zoomForwardAction() });
    view->addSeparator();
    QMenu* axis = view->addMenu(tr("&X Axis"));
    auto* axes = new QActionGroup(axis);
    const std::pair<TimelineView::XAxis, QString> choices[] = {
        { TimelineView::EventAxis, tr("Trace &Events") },
        { TimelineView::TimeAxis, tr("&Time Since Start") },
        { TimelineView::StepAxis, tr("Profiler &Steps") },
        { TimelineView::AlignedAxis, tr("&Aligned with Rank A") },
    };
    for (const auto& [axisKind, text] : choices) {
        const TimelineView::XAxis which = axisKind; // clang 14 cannot capture a structured binding
        QAction* choice = axis->addAction(text, timelines, [timelines, which] { timelines->setXAxis(which); });
        choice->setCheckable(true);
        choice->setData(int(which));
        axes->addAction(choice);
    }
    axis->setStatusTip(tr("What the timelines' x axis counts: trace events, seconds since each rank's first "
                          "event, profiler steps lined up across ranks, or rank A's events with rank B at the same "
                          "moments"));
    connect(axis, &QMenu::aboutToShow, timelines, [timelines, axis] {
        for (QAction* choice : axis->actions()) {
            const auto which = TimelineView::XAxis(choice->data().toInt());
            choice->setEnabled(timelines->available(which));
            choice->setChecked(timelines->xAxis() == which);
        }
    });
    view->addAction(timelines->annotationRangesAction());
    QMenu* colour = view->addMenu(tr("&Colour Bands By"));
    connect(colour, &QMenu::aboutToShow, timelines, [timelines, colour] { timelines->fillColoringMenu(colour); });
    colour->setStatusTip(
        tr("What the colours of the timelines' bands say: which allocation, where it was made, or what "
           "it is for, as the rank chart stacks it"));

    QMenu* compare = menuBar()->addMenu(tr("&Compare"));
    compare->addAction(tr("&Swap A and B"), QKeySequence(tr("Ctrl+Shift+X")), this, &MainWindow::swapRanks);
    compare->addAction(tr("&Next Finding"), QKeySequence::FindNext, m_findings, &FindingsPanel::nextFinding);
    compare->addAction(
        tr("&Previous Finding"), QKeySequence::FindPrevious, m_findings, &FindingsPanel::previousFinding);
    compare->addAction(tr("&Find…"), QKeySequence::Find, m_findings, &FindingsPanel::focusFilter);
    compare->addSeparator();
    compare->addAction(tr("Parallel &Layout…"), this, &MainWindow::chooseLayout)
        ->setStatusTip(tr("Pipeline, tensor and data parallel sizes of the job: ranks are compared with their "
                          "replicas, and stages or shards may differ by design"));
    compare->addAction(tr("&GPU Memory…"), this, &MainWindow::chooseDeviceMemory)
        ->setStatusTip(tr("Each GPU's total memory, which snapshots do not record: an OOM outside PyTorch's allocator "
                          "then says how much is held outside"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(
        tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, this, [this] { ShortcutsDialog::open(this); });
    help->addAction(tr("&Capture Helper…"), this, &MainWindow::showCaptureHelper)
        ->setStatusTip(tr("rankscope_capture.py: step reports, snapshots and an OOM hook for your training script"));
    help->addAction(tr("&About RankScope"), this, [this] {
        QMessageBox::about(this, tr("About RankScope"),
            tr("<h3>RankScope %1</h3><p>Compares the PyTorch CUDA memory snapshots of the ranks of one job.</p>"
               "<p>RankScope's own code is under the MIT licence. It uses:</p><ul>"
               "<li>Qt %2 (LGPL-3.0): widgets, SVG and PDF output</li>"
               "<li>QCustomPlot 2.1 (GPL-3.0): the timelines and the rank chart; a binary linking it is "
               "distributed under the GPL-3.0</li>"
               "<li>nlohmann_json (MIT): the JSON reader</li>"
               "<li>zlib (Zlib licence): gzip-compressed snapshots</li></ul>")
                .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    });
}

SettingsDialog* MainWindow::settingsDialog()
{
    if (!m_settings) {
        m_settings = new SettingsDialog(this);
        connect(m_settings, &SettingsDialog::timelineBandsChanged, timelines(), &TimelineView::setMaxBands);
    }
    return m_settings;
}

void MainWindow::openSettings()
{
    // Not modal: its choices apply at once, and the user watches the window change behind it.
    SettingsDialog* dialog = settingsDialog();
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // Below about 900 pixels of height the evidence would take the timelines' room: the banner keeps its title and
    // shows the rest on request.
    m_banner->setCompact(height() < CompactBannerHeight);
}

void MainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    // Texts of fixed widgets follow through m_texts; these are made from data and are made again.
    createActions();
    updateRecent();
}

bool MainWindow::event(QEvent* event)
{
    const bool handled = QMainWindow::event(event);
    // After the panels have made their items from data anew (QWidget passes a language change on to its children
    // after its own changeEvent): the status line quotes the point box.
    if (event->type() == QEvent::LanguageChange) {
        if (comparison()) {
            showFinding();
            fitRanksColumn(); // the panels refitted their columns to the new headers
        }
        updateStatus();
    }
    return handled;
}

void MainWindow::updateRecent()
{
    m_start->setRecent(m_recent->jobs());
    m_recent->fillMenu(m_recentMenu, [this](const QStringList& job) { openPaths(job); });
}

QStringList MainWindow::snapshotFiles(const QStringList& paths)
{
    // Training logs go to the step reports; everything else is read as snapshots.
    if (!paths.isEmpty() && std::all_of(paths.begin(), paths.end(), [](const QString& path) {
            return QFileInfo(path).isFile() && RankFiles::looksLikeLog(path);
        })) {
        openStepLogs(paths);
        return {};
    }
    const RankFiles::Scan scan = RankFiles::scan(paths);
    if (const JobError error = Job::scanError(scan); !error.empty()) {
        // A folder of several jobs is never merged into one: the user picks the job.
        auto* box = new QMessageBox(
            QMessageBox::Information, tr("Folder Not Opened"), error.translated(), QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return {};
    }
    QStringList notes;
    for (const Phrase& note : Job::scanNotes(scan))
        notes << note.translated();
    if (!notes.isEmpty())
        statusBar()->showMessage(notes.join(QLatin1String("; ")), 15000);
    QStringList files = scan.files;
    if (files.isEmpty() && StepLog::holdsReports(RankFiles::expandLogs(paths))) {
        openStepLogs(paths); // a folder of training logs
        return {};
    }
    if (files.isEmpty()) {
        // Said in a dialog, not only the status bar: the user picked that folder and expects to see something.
        auto* box = new QMessageBox(QMessageBox::Information, tr("Nothing to Open"),
            tr("No memory snapshots or step reports in %1.")
                .arg(QDir::toNativeSeparators(paths.join(QLatin1String(", ")))),
            QMessageBox::Ok, this);
        box->setInformativeText(tr("RankScope opens PyTorch memory snapshots (.pickle, .pkl, .json, optionally .gz; "
                                   "folders are searched) and training logs with step report lines."));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    return files;
}

void MainWindow::openPaths(const QStringList& paths, std::optional<int64_t> step)
{
    Job job(snapshotFiles(paths), { step });
    if (job.files().isEmpty())
        return;
    // One job at a time: what is shown must never mix the ranks of two jobs.
    if (rankModel()->rowCount() > 0)
        clearJob();
    m_recent->add(paths);
    m_stack->setCurrentWidget(m_mainPage);
    // New ranks: A and B are chosen afresh once everything has loaded. A folder of several steps: one step's ranks,
    // the others one choice away.
    m_compare->startJob(job.steps(), job.step());
    m_session->open(std::move(job), paths);
    updateStatus();
}

void MainWindow::addPaths(const QStringList& paths)
{
    if (rankModel()->rowCount() == 0) {
        openPaths(paths);
        return;
    }
    const QStringList files = snapshotFiles(paths);
    if (files.isEmpty())
        return;
    m_recent->extend(m_session->paths(), paths);
    m_session->add(files, paths);
    updateStatus();
}

void MainWindow::openFilesDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Snapshots"), QString(), tr("Memory snapshots (*.pickle *.pkl *.json *.gz);;All files (*)"));
    if (!files.isEmpty())
        openPaths(files);
}

void MainWindow::addFilesDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Add Snapshots to This Job"), QString(),
        tr("Memory snapshots (*.pickle *.pkl *.json *.gz);;All files (*)"));
    if (!files.isEmpty())
        addPaths(files);
}

void MainWindow::openFolderDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Folder of Snapshots"));
    if (!folder.isEmpty())
        openPaths({ folder });
}

StepsWindow* MainWindow::openStepLogs(const QStringList& paths)
{
    auto* window = new StepsWindow;
    window->show();
    window->openLogs(paths);
    m_recent->add(paths);
    return window;
}

void MainWindow::openStepLogsDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Step Logs"), QString(), tr("Training logs (*.log *.txt *.out *.err);;All files (*)"));
    if (!files.isEmpty())
        openStepLogs(files);
}

BeforeAfterWindow* MainWindow::compareBeforeAfter(const QStringList& before, const QStringList& after)
{
    auto* window = new BeforeAfterWindow;
    window->show();
    window->compare(before, after);
    return window;
}

void MainWindow::compareBeforeAfterDialog()
{
    const QString before = QFileDialog::getExistingDirectory(this, tr("The Run Before the Change"));
    if (before.isEmpty())
        return;
    const QString after = QFileDialog::getExistingDirectory(this, tr("The Run After the Change"));
    if (!after.isEmpty())
        compareBeforeAfter({ before }, { after });
}

void MainWindow::showCaptureHelper()
{
    CaptureHelperDialog dialog(this);
    connect(&dialog, &CaptureHelperDialog::saved, this,
        [this](const QString& path) { statusBar()->showMessage(tr("Saved %1").arg(path), 8000); });
    dialog.exec();
}

bool MainWindow::showsStartPage() const
{
    return m_stack->currentWidget() == m_start;
}

void MainWindow::openExample()
{
    openPaths({ QStringLiteral(":/examples") });
}

void MainWindow::chooseLayout()
{
    if (const std::optional<QString> text =
            JobSettingDialog::askLayout(this, m_session->job(), rankModel()->rowCount(), layoutText()))
        setLayout(*text);
}

void MainWindow::chooseDeviceMemory()
{
    if (const std::optional<QString> text = JobSettingDialog::askDeviceMemory(this, m_session->deviceMemoryText()))
        setDeviceMemory(*text);
}

void MainWindow::showComparison(const ComparisonPtr& comparison)
{
    m_ranks->showComparison(comparison);
    if (comparison && !m_ranksFitted) {
        fitRanksColumn();
        m_ranksFitted = true;
    }
    m_findings->showComparison(comparison);
    m_compare->showComparison(comparison); // first: it words the job's own moment, which the banner's notes cite
    if (!comparison) {
        // Files that hold nothing get no verdict, which would call them balanced: the banner says why there is none.
        if (const QString nothing = m_session->nothingToCompare(); !nothing.isEmpty())
            m_banner->setPending(nothing);
        else
            m_banner->hide();
        showRanks();
        updateStatus();
        return;
    }
    m_banner->setVerdict(comparison->verdict(), m_session->caveats(m_compare->jobPointText()));
    showRanks();
    // Ranks that ran out of memory alike have no finding: then what fills the GPU and what failed are the answer.
    const bool selected = m_findings->selectDefaultFinding(rankA(), rankB());
    m_aboutOom = !comparison->verdict().oomRanks.empty() && !selected;
    if (!selected)
        showStackOfRanks(false);
    m_findings->setAboutOom(m_aboutOom);
    updateStatus();
    emit comparisonShown();
}

void MainWindow::onRanksChanged()
{
    if (m_findings->baselineIsRankB())
        m_session->scheduleComparison(); // the baseline is rank B, which just changed
    showRanks();
    showFinding();
    // Every pane follows the ranks shown: an out-of-memory, allocation or block of a rank no longer A or B goes.
    if (comparison() && selectedFinding() < 0)
        showStackOfRanks(true);
}

void MainWindow::showStackOfRanks(bool keep)
{
    const int shown = m_ranks->stackRank();
    const bool ranksShown =
        m_ranks->stackShowsOom() && m_aboutOom ? shown == rankA() : shown == rankA() || shown == rankB();
    if (keep && shown >= 0 && ranksShown)
        return;
    const int a = comparison()->rankIndex(rankA());
    if (m_aboutOom && a >= 0 && comparison()->ranks()[size_t(a)].oomEvents > 0) {
        const DeviceHistoryPtr& h = comparison()->historyPtr(size_t(a));
        m_ranks->showOom(h, rankA(), h->ooms().size() - 1);
    } else {
        m_ranks->clearStack();
    }
}

void MainWindow::showRanks()
{
    m_ranks->showRanks(comparison(), rankA(), rankB());
    m_findings->setRankA(rankA());
}

void MainWindow::showFinding()
{
    const int index = selectedFinding();
    if (comparison())
        m_compare->markFinding(index);
    if (index < 0)
        return;
    const int rank = comparison()->findings()[size_t(index)].rank;
    m_ranks->showFinding(*comparison(), size_t(index), rank == rankA() ? rankB() : rankA());
}

void MainWindow::exported(const QString& path)
{
    if (!path.isEmpty())
        statusBar()->showMessage(tr("Exported %1").arg(path), 8000);
}

bool MainWindow::isBusy() const
{
    return m_session->isBusy() || m_compare->isBusy();
}

void MainWindow::fitRanksColumn()
{
    constexpr int ComparisonWidth = 1400;
    // The ranks' table shows every figure without scrolling where that takes no more than two fifths of the window,
    // else as many as leave the comparison 1400 px (its timelines, maps and the findings' options side by side; on a
    // 4K screen, all of them), and its key columns, the rank to the excess, at least (1280×720). Only ever wider: a
    // column the user widened stays.
    const QList<int> sizes = m_body->sizes();
    if (sizes.size() != 2)
        return;
    const int total = sizes[0] + sizes[1];
    const int key = m_ranks->keyWidth();
    const int all = m_ranks->neededWidth();
    // The comparison keeps half the width at least.
    const int wanted =
        std::min(all <= total * 2 / 5 ? all : std::max(key, std::min(all, total - ComparisonWidth)), total / 2);
    if (wanted <= sizes[0])
        return;
    m_body->setSizes({ wanted, total - wanted });
}

void MainWindow::clearJob()
{
    m_ranksFitted = false;
    m_session->close();
    m_ranks->closeJob();
    m_findings->closeJob();
    if (const QString point = m_compare->closeJob(); !point.isEmpty())
        statusBar()->showMessage(
            tr("The comparison point “%1” belonged to the closed job: this one is compared at its own moment.")
                .arg(point),
            15000);
}

void MainWindow::closeAll()
{
    clearJob();
    m_stack->setCurrentWidget(m_start);
    updateStatus();
}

void MainWindow::onFileFinished(const LoadedFile& file)
{
    // A file that fails after the others were compared changes what the answer rests on.
    if (comparison() && !file.ok() && !file.cancelled)
        m_banner->setVerdict(comparison()->verdict(), m_session->caveats(m_compare->jobPointText()));
    if (!file.ok() && !file.cancelled)
        statusBar()->showMessage(
            tr("%1 could not be read: %2").arg(QFileInfo(file.path).fileName(), file.error), 10000);
    m_ranks->fitColumns();
    updateStatus();
}

void MainWindow::updateStatus()
{
    const RankListModel* model = rankModel();
    const int total = model->rowCount();
    const int loaded = model->loadedCount();
    const int failed = model->failedCount();
    const bool loading = loader()->isRunning();
    m_cancelAction->setEnabled(loading);
    m_closeAction->setEnabled(total > 0);
    m_addAction->setEnabled(total > 0);
    m_exportMenu->setEnabled(comparison() != nullptr);
    QString text = total == 0 ? tr("No snapshots open") : tr("%n rank(s)", nullptr, total);
    if (total > 0) {
        text += tr(" · %1 loaded").arg(loaded);
        if (failed)
            text += tr(" · %1 failed").arg(failed);
        if (loading)
            text += tr(" · loading…");
        else if (m_session->isComparing())
            text += tr(" · comparing…");
        else if (comparison() && m_findings->isFiltered())
            text += tr(" · %1 of %n finding(s) shown by the filter (%2)", nullptr, int(comparison()->findings().size()))
                        .arg(m_findings->shownFindings())
                        .arg(m_compare->pointText());
        else if (comparison())
            text += tr(" · %n finding(s) (%1)", nullptr, int(comparison()->findings().size()))
                        .arg(m_compare->pointText()); // the point in words, in the user's language
    }
    if (!m_statusLabel) {
        m_statusLabel = new QLabel(this);
        statusBar()->addPermanentWidget(m_statusLabel);
    }
    m_statusLabel->setText(text);
}

QString MainWindow::statusText() const
{
    return m_statusLabel ? m_statusLabel->text() : QString();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths.append(url.toLocalFile());
    }
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
        openPaths(paths);
    }
}

} // namespace RankScope
