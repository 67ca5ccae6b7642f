// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "appearance.h"
#include "beforeafterwindow.h"
#include "blockmapview.h"
#include "bytesize.h"
#include "comparepanel.h"
#include "dataexport.h"
#include "diffreport.h"
#include "diffsheet.h"
#include "excesstreemodel.h"
#include "exportdialog.h"
#include "findingspanel.h"
#include "findingstableutil.h"
#include "flamegraph.h"
#include "formatting.h"
#include "imageexport.h"
#include "profilerstep.h"
#include "rankfiles.h"
#include "ranklistmodel.h"
#include "rankspanel.h"
#include "retranslator.h"
#include "settingsdialog.h"
#include "snapshotloader.h"
#include "stackpane.h"
#include "stacktext.h"
#include "startpage.h"
#include "steplog.h"
#include "stepswindow.h"
#include "timelineview.h"
#include "verdictbanner.h"
#include "verdicttext.h"
#include "whatifview.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <map>

namespace RankScope {

namespace {

// What belongs to a job (its layout, its GPUs' memory) is remembered per job: a settings key made of `group` and the
// files or folders the job was opened from.
QString jobKey(const char* group, const QStringList& paths)
{
    QStringList sorted;
    for (const QString& path : paths)
        sorted << QFileInfo(path).absoluteFilePath();
    sorted.sort();
    return QLatin1String(group) + QLatin1Char('/')
        + QString::fromLatin1(
            QCryptographicHash::hash(sorted.join(QLatin1Char('\n')).toUtf8(), QCryptographicHash::Sha1).toHex());
}

// Stores `value` under `key`, or removes the key for an empty value.
void remember(const QString& key, const QString& value)
{
    QSettings settings;
    if (value.isEmpty())
        settings.remove(key);
    else
        settings.setValue(key, value);
}

const QString RecentKey = QStringLiteral("recent/paths");
constexpr int MaxRecent = 10;

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_loader(new SnapshotLoader(this))
    , m_model(new RankListModel(this))
    , m_compareTimer(new QTimer(this))
    , m_texts(new Retranslator(this))
{
    setAcceptDrops(true);
    // No larger than the screen: a window manager may not shrink it, and without one (Xvfb) it would run off the edge.
    resize(QSize(1440, 900).boundedTo(screen()->availableGeometry().size()));

    m_stack = new QStackedWidget(this);
    m_start = new StartPage(m_stack);
    connect(m_start, &StartPage::openFilesRequested, this, &MainWindow::openFilesDialog);
    connect(m_start, &StartPage::openFolderRequested, this, &MainWindow::openFolderDialog);
    connect(m_start, &StartPage::openExampleRequested, this, &MainWindow::openExample);
    connect(m_start, &StartPage::openLogsRequested, this, &MainWindow::openStepLogsDialog);
    connect(m_start, &StartPage::captureHelperRequested, this, &MainWindow::showCaptureHelper);
    connect(m_start, &StartPage::openRecentRequested, this, [this](const QString& path) { openPaths({ path }); });
    m_stack->addWidget(m_start);

    // Left: every rank at a glance, and the stack of what is selected.
    m_ranks = new RanksPanel(m_model);
    connect(m_ranks, &RanksPanel::cancelRequested, this, [this](int row) { m_loader->cancel(row); });

    // Right: ranks A and B side by side over time and in memory, then the findings.
    m_compare = new ComparePanel;
    connect(m_compare, &ComparePanel::ranksChanged, this, &MainWindow::onRanksChanged);
    connect(m_compare, &ComparePanel::pointChosen, this, &MainWindow::scheduleComparison);
    connect(m_compare, &ComparePanel::pointPicked, this, &MainWindow::compareRanks);
    connect(m_compare, &ComparePanel::stepChosen, this, [this](int64_t step) { openPaths(m_jobPaths, step); });
    connect(m_compare, &ComparePanel::allocationClicked, m_ranks, &RanksPanel::showAllocation);
    connect(m_compare, &ComparePanel::oomClicked, m_ranks, &RanksPanel::showOom);
    connect(m_compare, &ComparePanel::blockClicked, m_ranks, &RanksPanel::showBlock);
    connect(m_ranks, &RanksPanel::rankPicked, m_compare, &ComparePanel::pickRank);
    // The step, the point and the ranks shown sit in the menu bar's corner: always in sight, and the row they would
    // take goes to the timelines (a 1280×720 screen has none to spare).
    menuBar()->setCornerWidget(m_compare->bar(), Qt::TopRightCorner);
    m_findings = new FindingsPanel;
    connect(m_findings, &FindingsPanel::currentFindingChanged, this, [this](int finding) {
        // Picking a finding of a rank that is not shown brings that rank as A; picking ranks keeps the finding.
        if (finding >= 0) {
            const int rank = m_comparison->findings()[size_t(finding)].rank;
            if (rank != m_compare->rankA() && rank != m_compare->rankB()) {
                m_compare->setRanks(rank, m_compare->rankB()); // shows the finding, now on A
                return;
            }
        }
        showFinding();
    });
    connect(m_findings, &FindingsPanel::findingReselected, this, &MainWindow::showFinding);
    connect(m_findings, &FindingsPanel::optionsChanged, this, &MainWindow::scheduleComparison);
    auto* right = new QSplitter(Qt::Vertical);
    right->setObjectName(QStringLiteral("compareSplitter"));
    right->addWidget(m_compare);
    right->addWidget(m_compare->blockMaps());
    right->addWidget(m_findings);
    right->setStretchFactor(0, 5);
    right->setStretchFactor(1, 3);
    right->setStretchFactor(2, 3);
    auto* body = new QSplitter(Qt::Horizontal);
    body->setObjectName(QStringLiteral("bodySplitter"));
    body->addWidget(m_ranks);
    body->addWidget(right);
    // Extra width goes to the comparison: the ranks' chart and table hold little however wide they are.
    body->setStretchFactor(0, 0);
    body->setStretchFactor(1, 1);
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

    // Option changes come in bursts (typing a threshold); compare once they settle.
    m_compareTimer->setSingleShot(true);
    m_compareTimer->setInterval(150);
    connect(m_compareTimer, &QTimer::timeout, this, &MainWindow::compareRanks);

    timelines()->setMaxBands(Appearance::timelineBands());
    connectLoader();
    createActions();
    updateRecent();
    restoreSettings();
    updateStatus();
}

MainWindow::~MainWindow()
{
    saveSettings();
}

namespace {
// Splitter sizes of this layout (the peaks per step under the rank chart, the stack under the ranks, the options
// with the findings): sizes saved for an earlier one would squeeze it.
const QString SplitterKey = QStringLiteral("window/layout3/");
} // namespace

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
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    for (QSplitter* splitter : findChildren<QSplitter*>()) {
        const QVariant state = settings.value(SplitterKey + splitter->objectName());
        if (!splitter->objectName().isEmpty() && state.isValid())
            splitter->restoreState(state.toByteArray());
    }
    m_findings->restoreSettings(settings);
    m_compare->restoreSettings(settings);
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
    file->addSeparator();
    m_exportMenu = file->addMenu(tr("&Export"));
    QAction* picture = m_exportMenu->addAction(tr("Diff &Screenshot…"), this, &MainWindow::exportPicture);
    picture->setShortcut(QKeySequence(tr("Ctrl+E")));
    picture->setStatusTip(tr("Ranks A and B, their block maps, the findings and the selected stack as PNG, SVG or "
                             "PDF"));
    m_exportMenu->addAction(tr("Findings as &CSV…"), this, [this] { exportFindings(false); })
        ->setStatusTip(tr("Every finding, one per line, as rankscope diff --csv writes them"));
    m_exportMenu->addAction(tr("Findings as &JSON…"), this, [this] { exportFindings(true); })
        ->setStatusTip(tr("The comparison as rankscope diff --json writes it"));
    m_exportMenu->addAction(tr("&Report…"), this, &MainWindow::exportReport)
        ->setStatusTip(tr("An HTML or Markdown report for a bug tracker: verdict, ranks, top findings with stacks "
                          "and the diff picture"));
    file->addSeparator();
    m_cancelAction = file->addAction(tr("&Cancel Loading"), this, [this] { m_loader->cancelAll(); });
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
    compare->addAction(tr("&Next Finding"), QKeySequence::FindNext, this, &MainWindow::nextFinding);
    compare->addAction(tr("&Previous Finding"), QKeySequence::FindPrevious, this, &MainWindow::previousFinding);
    compare->addAction(tr("&Find…"), QKeySequence::Find, m_findings, &FindingsPanel::focusFilter);
    compare->addSeparator();
    compare->addAction(tr("Parallel &Layout…"), this, &MainWindow::chooseLayout)
        ->setStatusTip(tr("Pipeline, tensor and data parallel sizes of the job: ranks are compared with their "
                          "replicas, and stages or shards may differ by design"));
    compare->addAction(tr("&GPU Memory…"), this, &MainWindow::chooseDeviceMemory)
        ->setStatusTip(tr("Each GPU's total memory, which snapshots do not record: an OOM outside PyTorch's allocator "
                          "then says how much is held outside"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
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
        if (m_comparison)
            showFinding();
        updateStatus();
    }
    return handled;
}

QStringList MainWindow::recentPaths() const
{
    return QSettings().value(RecentKey).toStringList();
}

void MainWindow::addRecent(const QStringList& paths)
{
    QStringList recent = recentPaths();
    for (const QString& path : paths) {
        if (path.startsWith(QLatin1Char(':')))
            continue; // the bundled example is not a place on disk
        const QString absolute = QFileInfo(path).absoluteFilePath();
        recent.removeAll(absolute);
        recent.prepend(absolute);
    }
    while (recent.size() > MaxRecent)
        recent.removeLast();
    QSettings().setValue(RecentKey, recent);
    updateRecent();
}

void MainWindow::updateRecent()
{
    const QStringList recent = recentPaths();
    m_start->setRecent(recent);
    m_recentMenu->clear();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path] { openPaths({ path }); });
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear Recent"), this, [this] {
            QSettings().remove(RecentKey);
            updateRecent();
        });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
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
    QStringList files = RankFiles::expand(paths);
    if (files.isEmpty() && holdsStepReports(RankFiles::expandLogs(paths))) {
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

bool MainWindow::holdsStepReports(const QStringList& logs)
{
    // A look at the start of each file is enough to tell a training log from a readme; the step reports window
    // reads them whole.
    for (const QString& path : logs) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString head = QString::fromUtf8(file.read(1 << 20));
        StepReport report;
        for (QStringView line : QStringView(head).split(QLatin1Char('\n'))) {
            if (StepLog::parseLine(line, 0, report))
                return true;
        }
    }
    return false;
}

void MainWindow::openPaths(const QStringList& paths, std::optional<int64_t> step)
{
    Job job(snapshotFiles(paths), { step });
    if (job.files().isEmpty())
        return;
    // One job at a time: what is shown must never mix the ranks of two jobs.
    if (m_model->rowCount() > 0)
        clearJob();
    addRecent(paths);
    m_stack->setCurrentWidget(m_mainPage);
    // New ranks: A and B are chosen afresh once everything has loaded. A folder of several steps: one step's ranks,
    // the others one choice away.
    m_compare->startJob(job.steps(), job.step());
    m_jobPaths = paths;
    m_layoutText = QSettings().value(jobKey("layouts", paths)).toString();
    m_deviceMemoryText = QSettings().value(jobKey("devicememory", paths)).toString();
    // The files load one job each (progress and cancel per file, in the rank table); the job gets them as they are
    // compared.
    m_loader->load(job.files());
    m_job = std::move(job);
    // The steps before this one, for growth across steps: read next to the ranks, compared again once they are in.
    m_earlierSteps.reset();
    if (!m_job->steps().empty() && m_job->steps().front() < m_job->step()) {
        m_earlierLoads.start([job = *m_job] { return job.loadEarlierSteps(); },
            [this](std::shared_ptr<const EarlierSteps> earlier) {
                for (const LoadedFile& file : earlier->failed) {
                    statusBar()->showMessage(
                        tr("%1 (an earlier step): %2").arg(QFileInfo(file.path).fileName(), file.error), 10000);
                }
                m_earlierSteps = std::move(earlier);
                if (m_comparison || m_comparisons.isBusy())
                    compareRanks();
            });
    }
    updateStatus();
}

void MainWindow::addPaths(const QStringList& paths)
{
    if (m_model->rowCount() == 0) {
        openPaths(paths);
        return;
    }
    const QStringList files = snapshotFiles(paths);
    if (files.isEmpty())
        return;
    std::map<int, QString> taken;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (const LoadedFile* file = m_model->file(row))
            taken.emplace(file->rank, file->path);
    }
    addRecent(paths);
    m_loader->load(files, taken);
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
    addRecent(paths);
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
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Capture Helper"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* intro = new QLabel(tr("<p><b>rankscope_capture.py</b> is one Python file (standard library and torch) to put "
                                "next to your training script. It prints a step report on every rank, dumps a "
                                "snapshot per rank, and writes one on the rank that runs out of memory before the "
                                "error propagates.</p><p>Collect the output of all ranks in one log (or one per rank) "
                                "and open it with File → Open Step Logs…: RankScope names the rank and the step where "
                                "memory departs. Then dump snapshots just before that step and open them.</p>"),
        &dialog);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* code = new QPlainTextEdit(&dialog);
    code->setReadOnly(true);
    code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    code->setPlainText(QStringLiteral("import rankscope_capture as rc\n\n"
                                      "rc.enable()                                   # every rank, before training\n"
                                      "for step, batch in enumerate(loader):\n"
                                      "    ...\n"
                                      "    if step % 10 == 0:\n"
                                      "        rc.step_report(step, batch, \"train\")  # [train] rank=3 step=120 ...\n"
                                      "rc.dump(\"train\")                              # rank{r}_train.pickle\n"));
    code->setMinimumSize(560, code->fontMetrics().lineSpacing() * 9);
    layout->addWidget(code);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QPushButton* save = buttons->addButton(tr("Save rankscope_capture.py…"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(save, &QPushButton::clicked, &dialog, [this, &dialog] {
        const QString path = QFileDialog::getSaveFileName(&dialog, tr("Save Capture Helper"),
            QDir::home().filePath(QStringLiteral("rankscope_capture.py")), tr("Python (*.py)"));
        if (path.isEmpty())
            return;
        QFile helper(QStringLiteral(":/python/rankscope_capture.py"));
        const QString error =
            helper.open(QIODevice::ReadOnly) ? DataExport::write(path, helper.readAll()) : helper.errorString();
        if (!error.isEmpty())
            QMessageBox::warning(&dialog, tr("Save Capture Helper"), error);
        else
            statusBar()->showMessage(tr("Saved %1").arg(path), 8000);
    });
    layout->addWidget(buttons);
    dialog.exec();
}

void MainWindow::openExample()
{
    openPaths({ QStringLiteral(":/examples") });
}

void MainWindow::connectLoader()
{
    connect(m_loader, &SnapshotLoader::started, m_model, &RankListModel::addLoading);
    connect(m_loader, &SnapshotLoader::progress, m_model, &RankListModel::setProgress);
    connect(m_loader, &SnapshotLoader::finished, this, &MainWindow::onFinished);
    connect(m_loader, &SnapshotLoader::allFinished, this, &MainWindow::compareRanks);
}

void MainWindow::scheduleComparison()
{
    if (m_comparison)
        m_compareTimer->start();
}

void MainWindow::readOptions()
{
    m_compare->readOptions(m_options);
    m_findings->readOptions(m_options, m_compare->rankB());
    m_options.layout =
        m_layoutText.isEmpty() ? std::nullopt : ParallelLayout::parse(m_layoutText.toStdString(), nullptr);
    m_options.deviceMemoryBytes = parseByteSizeWithUnit(m_deviceMemoryText).value_or(0);
}

std::optional<QString> MainWindow::askJobSetting(const QString& title, const QString& prompt, const QString& current,
    const std::function<QString(const QString&)>& whatIsWrong)
{
    // Asked again, with what was typed, until it is right or cancelled: a mistake must not cost the typing.
    QString text = current;
    for (;;) {
        bool ok = false;
        text = QInputDialog::getText(this, title, prompt, QLineEdit::Normal, text, &ok).trimmed();
        if (!ok)
            return std::nullopt;
        const QString wrong = text.isEmpty() ? QString() : whatIsWrong(text);
        if (wrong.isEmpty())
            return text;
        QMessageBox::warning(this, title, wrong);
    }
}

void MainWindow::setJobSetting(QString& member, const char* group, const QString& value)
{
    member = value;
    if (!m_jobPaths.isEmpty())
        remember(jobKey(group, m_jobPaths), value);
    if (m_comparison)
        compareRanks();
}

void MainWindow::chooseLayout()
{
    const std::optional<QString> text = askJobSetting(tr("Parallel Layout"),
        tr("Sizes of the job's parallel dimensions, slowest first, as a device mesh is written (pp, dp, tp, cp, ep), "
           "e.g. pp=2,dp=4 for Megatron or torchtitan with two pipeline stages of four data-parallel ranks.\n"
           "Ranks are compared with their replicas (the ranks that differ only in dp). Leave empty to let RankScope "
           "guess where the files show groups of ranks running different parts of the model.\n"
           "This job has %n snapshot file(s).",
            nullptr, m_model->rowCount()),
        m_layoutText, [this](const QString& t) {
            std::string why;
            ComparisonOptions options;
            options.layout = ParallelLayout::parse(t.toStdString(), &why);
            if (!options.layout)
                return tr("%1 is not a layout: %2").arg(t, QString::fromStdString(why));
            // The job's own check, in the words the command line and the MCP server use.
            return m_job ? QString::fromStdString(m_job->check(options).text()) : QString();
        });
    if (text)
        setLayout(*text);
}

void MainWindow::setLayout(const QString& layout)
{
    setJobSetting(m_layoutText, "layouts", layout);
}

void MainWindow::chooseDeviceMemory()
{
    const std::optional<QString> text = askJobSetting(tr("GPU Memory"),
        tr("The total memory of each GPU of the job, as nvidia-smi or the OOM message gives it (80GiB, 79.3GiB …). A "
           "snapshot does not record it; with it, an OOM outside PyTorch's allocator says how much is held outside. "
           "Leave empty when unknown."),
        m_deviceMemoryText, [](const QString& t) {
            return parseByteSizeWithUnit(t) ? QString() : tr("%1 is not a size with its unit, such as 80GiB.").arg(t);
        });
    if (text)
        setDeviceMemory(*text);
}

void MainWindow::setDeviceMemory(const QString& size)
{
    setJobSetting(m_deviceMemoryText, "devicememory", size);
}

void MainWindow::compareRanks()
{
    m_compareTimer->stop();
    QList<LoadedFile> files;
    QStringList paths;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (const LoadedFile* file = m_model->file(row)) {
            files.append(*file);
            paths.append(file->path);
        }
    }
    const int ranks = int(std::count_if(files.begin(), files.end(), [](const LoadedFile& f) { return f.ok(); }));
    if (ranks == 0) {
        m_comparisons.cancel();
        applyComparison(nullptr);
        return;
    }
    readOptions();
    if (!m_job)
        m_job.emplace(paths);
    m_job->setLoaded(std::move(files), m_earlierSteps);
    // What the job cannot use of the options is said in the banner, and the ranks compared without it, rather than
    // nothing shown: the user is looking at the job and can fix the option from there.
    ComparisonOptions options = m_options;
    const JobError unusable = m_job->check(options);
    m_unusedOption = QString::fromStdString(unusable.text());
    if (unusable.option == "layout")
        options.layout.reset();
    else if (unusable.option == "baseline")
        options.baselineRank = -1;
    m_banner->setPending(tr("Comparing %n rank(s)…", nullptr, ranks));
    m_comparisons.start([job = *m_job, options] { return job.compare(options, Job::Points::MayMiss).comparison; },
        [this](ComparisonPtr comparison) { applyComparison(std::move(comparison)); });
    updateStatus();
}

void MainWindow::applyComparison(ComparisonPtr comparison)
{
    m_comparison = std::move(comparison);
    m_model->setComparison(m_comparison);
    m_ranks->showComparison(m_comparison);
    m_findings->showComparison(m_comparison);
    m_compare->showComparison(m_comparison); // first: it words the job's own moment, which the banner's notes cite
    if (!m_comparison) {
        m_banner->hide();
        showRanks();
        updateStatus();
        return;
    }
    if (!m_comparison->options().point)
        m_jobVerdict = m_comparison->verdict();
    m_banner->setVerdict(m_comparison->verdict(), caveats());
    showRanks();
    // Ranks that ran out of memory alike have no finding: then what fills the GPU and what failed are the answer.
    const int rankA = m_compare->rankA();
    const int a = m_comparison->rankIndex(rankA);
    const bool selected = m_findings->selectFirstFinding();
    const bool aboutOom = !m_comparison->verdict().oomRanks.empty() && !selected;
    if (aboutOom && a >= 0 && m_comparison->ranks()[size_t(a)].oomEvents > 0) {
        const DeviceHistoryPtr& h = m_comparison->historyPtr(size_t(a));
        m_ranks->showOom(h, rankA, h->ooms().size() - 1);
    } else if (!selected) {
        m_ranks->clearStack();
    }
    m_findings->setAboutOom(aboutOom);
    updateStatus();
    emit comparisonShown();
}

void MainWindow::setRanks(int a, int b)
{
    m_compare->setRanks(a, b);
}

void MainWindow::swapRanks()
{
    m_compare->swapRanks();
}

int MainWindow::rankA() const
{
    return m_compare->rankA();
}

int MainWindow::rankB() const
{
    return m_compare->rankB();
}

TimelineView* MainWindow::timelines() const
{
    return m_compare->timelines();
}

BlockMapView* MainWindow::blockMap(int side) const
{
    return m_compare->blockMap(side);
}

void MainWindow::onRanksChanged()
{
    if (m_findings->baselineIsRankB())
        scheduleComparison(); // the baseline is rank B, which just changed
    showRanks();
    showFinding();
}

void MainWindow::showRanks()
{
    m_ranks->showRanks(m_comparison, m_compare->rankA(), m_compare->rankB());
    m_findings->setRankA(m_compare->rankA());
}

bool MainWindow::showsStartPage() const
{
    return m_stack->currentWidget() == m_start;
}

int MainWindow::selectedFinding() const
{
    return m_findings->selectedFinding();
}

void MainWindow::showFinding()
{
    const int index = selectedFinding();
    if (m_comparison)
        m_compare->markFinding(index);
    if (index < 0)
        return;
    const int rank = m_comparison->findings()[size_t(index)].rank;
    m_ranks->showFinding(
        *m_comparison, size_t(index), rank == m_compare->rankA() ? m_compare->rankB() : m_compare->rankA());
}

void MainWindow::exportPicture()
{
    if (!m_comparison)
        return;
    ExportDialog dialog(this);
    dialog.setPath(QDir::home().filePath(QStringLiteral("rankscope-diff.png")));
    if (dialog.exec() != QDialog::Accepted)
        return;
    DiffSheet sheet(dialog.view());
    // The page draws the timelines as the window does.
    if (TimelineView* timelines = sheet.timelines()) {
        timelines->setBandColoring(this->timelines()->bandColoring());
        timelines->setXAxis(this->timelines()->preferredXAxis());
        timelines->setYScale(this->timelines()->yScale());
    }
    sheet.setComparison(m_comparison, rankA(), rankB(), selectedFinding(), m_model);
    QString error;
    if (!sheet.prepare(dialog.imageSize()))
        error = tr("Drawing the views took too long.");
    else
        error = ImageExport::save(&sheet, dialog.path(), dialog.scale());
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export Diff Screenshot"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(dialog.path()), 8000);
}

void MainWindow::exportFindings(bool json)
{
    if (!m_comparison)
        return;
    // The file dialog asks before replacing a file.
    const QString path =
        QFileDialog::getSaveFileName(this, json ? tr("Export Findings as JSON") : tr("Export Findings as CSV"),
            QDir::home().filePath(
                json ? QStringLiteral("rankscope-findings.json") : QStringLiteral("rankscope-findings.csv")),
            json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    const std::string text = json ? DiffReport::json(*m_comparison) : DiffReport::csv(*m_comparison);
    if (const QString error = DataExport::write(path, QByteArray::fromStdString(text)); !error.isEmpty())
        QMessageBox::warning(this, tr("Export Findings"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 8000);
}

void MainWindow::exportReport()
{
    if (!m_comparison)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Report"),
        QDir::home().filePath(QStringLiteral("rankscope-report.html")), tr("HTML page (*.html);;Markdown (*.md)"));
    if (path.isEmpty())
        return;
    if (!DiffSheet::isReportPath(path)) {
        QMessageBox::warning(this, tr("Export Report"), tr("Name the report .html or .md."));
        return;
    }
    const QString image = DiffSheet::reportImagePath(path);
    if (!image.isEmpty() && QFileInfo::exists(image)
        && QMessageBox::question(
               this, tr("Export Report"), tr("%1 exists. Replace it with the report's picture?").arg(image))
            != QMessageBox::Yes)
        return;
    DiffSheet sheet(DiffSheet::Diff);
    sheet.setComparison(m_comparison, rankA(), rankB(), selectedFinding(), m_model);
    QString error = sheet.prepare(QSize(1600, 1000)) ? sheet.writeReport(*m_comparison, path)
                                                     : tr("Drawing the views took too long.");
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export Report"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 8000);
}

void MainWindow::nextFinding()
{
    m_findings->nextFinding();
}

void MainWindow::previousFinding()
{
    m_findings->previousFinding();
}

bool MainWindow::isBusy() const
{
    return m_loader->isRunning() || m_comparisons.isBusy() || m_earlierLoads.isBusy() || m_compareTimer->isActive()
        || m_compare->isBusy();
}

void MainWindow::clearJob()
{
    // A fresh loader drops the old jobs (waiting for them to stop), so late results cannot reach the new model.
    delete m_loader;
    m_loader = new SnapshotLoader(this);
    connectLoader();
    m_comparisons.cancel();
    m_earlierLoads.cancel();
    m_earlierSteps.reset();
    m_job.reset();
    m_unusedOption.clear();
    m_compareTimer->stop();
    m_model->clear();
    m_jobVerdict.reset();
    applyComparison(nullptr);
    m_ranks->clearStack();
    if (const QString point = m_compare->closeJob(); !point.isEmpty())
        statusBar()->showMessage(tr("The comparison point “%1” belonged to the closed job: ranks are compared at their "
                                    "own peaks again.")
                                     .arg(point),
            15000);
}

void MainWindow::closeAll()
{
    clearJob();
    m_stack->setCurrentWidget(m_start);
    updateStatus();
}

VerdictBanner::Caveats MainWindow::caveats() const
{
    VerdictBanner::Caveats c;
    if (m_comparison) {
        c.ranks = int(m_comparison->ranks().size());
        for (const RankSummary& r : m_comparison->ranks()) {
            c.incompleteTraces += r.traceIncomplete ? 1 : 0;
            c.offPoint += r.note.empty() ? 0 : 1;
        }
    }
    c.failedFiles = m_model->unreadableCount();
    if (m_comparison && m_comparison->options().point && m_jobVerdict) {
        const Verdict& here = m_comparison->verdict();
        if (here.kind != m_jobVerdict->kind || here.rank != m_jobVerdict->rank
            || here.groupRanks != m_jobVerdict->groupRanks) {
            c.jobVerdict = VerdictText::title(*m_jobVerdict, VerdictText::Translated);
            c.jobPoint = m_compare->jobPointText();
        }
    }
    if (m_comparison)
        c.unusedOption = m_unusedOption;
    // A layout that fits the files but not the ranks that could be read.
    if (m_comparison && c.unusedOption.isEmpty() && m_options.layout && !m_comparison->layout())
        c.unusedOption = tr("layout %1: %2 ranks, but %3 are compared")
                             .arg(QString::fromStdString(m_options.layout->text()))
                             .arg(m_options.layout->rankCount())
                             .arg(c.ranks);
    return c;
}

void MainWindow::onFinished(int index, const LoadedFile& file)
{
    m_model->setLoaded(index, file);
    // A file that fails after the others were compared changes what the answer rests on.
    if (m_comparison && !file.ok() && !file.cancelled)
        m_banner->setVerdict(m_comparison->verdict(), caveats());
    if (!file.ok() && !file.cancelled)
        statusBar()->showMessage(tr("%1: %2").arg(QFileInfo(file.path).fileName(), file.error), 10000);
    m_ranks->fitColumns();
    updateStatus();
}

void MainWindow::updateStatus()
{
    const int total = m_model->rowCount();
    const int loaded = m_model->loadedCount();
    const int failed = m_model->failedCount();
    const bool loading = m_loader->isRunning();
    m_cancelAction->setEnabled(loading);
    m_closeAction->setEnabled(total > 0);
    m_addAction->setEnabled(total > 0);
    m_exportMenu->setEnabled(m_comparison != nullptr);
    QString text = total == 0 ? tr("No snapshots open") : tr("%n rank(s)", nullptr, total);
    if (total > 0) {
        text += tr(" · %1 loaded").arg(loaded);
        if (failed)
            text += tr(" · %1 failed").arg(failed);
        if (loading)
            text += tr(" · loading…");
        else if (m_comparisons.isBusy())
            text += tr(" · comparing…");
        else if (m_comparison)
            text += tr(" · %n finding(s) (%1)", nullptr, int(m_comparison->findings().size()))
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

FindingsModel* MainWindow::findingsModel() const
{
    return m_findings->model();
}

QTreeView* MainWindow::findingsView() const
{
    return m_findings->view();
}

QLineEdit* MainWindow::findingsFilter() const
{
    return m_findings->filter();
}

QString MainWindow::noMatchText() const
{
    return m_findings->noMatchText();
}

QTreeView* MainWindow::rankTable() const
{
    return m_ranks->table();
}

StackPane* MainWindow::stackPane() const
{
    return m_ranks->stackPane();
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
