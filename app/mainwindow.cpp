// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "comparison.h"
#include "findingsmodel.h"
#include "formatting.h"
#include "progressdelegate.h"
#include "rankchart.h"
#include "rankfiles.h"
#include "ranklistmodel.h"
#include "snapshotloader.h"
#include "startpage.h"
#include "verdictbanner.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace RankScope {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_loader(new SnapshotLoader(this))
    , m_model(new RankListModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_findings(new FindingsModel(this))
    , m_findingsProxy(new QSortFilterProxyModel(this))
{
    setWindowTitle(tr("RankScope"));
    setAcceptDrops(true);
    resize(1200, 760);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RankListModel::SortRole);

    m_stack = new QStackedWidget(this);
    m_start = new StartPage(m_stack);
    connect(m_start, &StartPage::openFilesRequested, this, &MainWindow::openFilesDialog);
    connect(m_start, &StartPage::openFolderRequested, this, &MainWindow::openFolderDialog);
    connect(m_start, &StartPage::openExampleRequested, this, &MainWindow::openExample);
    m_stack->addWidget(m_start);

    auto* splitter = new QSplitter(Qt::Vertical, m_stack);
    m_chart = new RankChart(splitter);
    m_chart->setModel(m_model);
    m_table = new QTreeView(splitter);
    m_table->setModel(m_proxy);
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RankListModel::RankColumn, Qt::AscendingOrder);
    m_table->setAlternatingRowColors(true);
    m_table->setItemDelegateForColumn(RankListModel::StatusColumn, new ProgressDelegate(m_table));
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setAccessibleName(tr("Ranks"));
    m_table->header()->setStretchLastSection(true);
    m_table->header()->setMinimumSectionSize(60);
    connect(m_table, &QTreeView::customContextMenuRequested, this, &MainWindow::showContextMenu);
    // Findings: what each rank holds beyond its baseline, and the stack of the selected one.
    m_findingsProxy->setSourceModel(m_findings);
    m_findingsProxy->setSortRole(FindingsModel::SortRole);
    auto* findingsSplitter = new QSplitter(Qt::Horizontal);
    m_findingsView = new QTreeView(findingsSplitter);
    m_findingsView->setModel(m_findingsProxy);
    m_findingsView->setRootIsDecorated(false);
    m_findingsView->setUniformRowHeights(true);
    m_findingsView->setSortingEnabled(true);
    m_findingsView->sortByColumn(FindingsModel::ExcessColumn, Qt::DescendingOrder);
    m_findingsView->setAlternatingRowColors(true);
    m_findingsView->setAccessibleName(tr("Findings"));
    m_stackView = new QPlainTextEdit(findingsSplitter);
    m_stackView->setReadOnly(true);
    m_stackView->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_stackView->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_stackView->setPlaceholderText(tr("Select a finding to see where it was allocated"));
    m_stackView->setAccessibleName(tr("Stack of the selected finding"));
    findingsSplitter->addWidget(m_findingsView);
    findingsSplitter->addWidget(m_stackView);
    findingsSplitter->setStretchFactor(0, 3);
    findingsSplitter->setStretchFactor(1, 2);
    connect(
        m_findingsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MainWindow::showFindingStack);

    m_tabs = new QTabWidget(splitter);
    m_tabs->addTab(m_table, tr("Ranks"));
    m_tabs->addTab(findingsSplitter, tr("Findings"));
    splitter->addWidget(m_chart);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    m_ranksPage = new QWidget(m_stack);
    auto* page = new QVBoxLayout(m_ranksPage);
    page->setContentsMargins(0, 0, 0, 0);
    m_banner = new VerdictBanner(m_ranksPage);
    page->addWidget(m_banner);
    page->addWidget(splitter, 1);
    m_stack->addWidget(m_ranksPage);
    setCentralWidget(m_stack);

    connectLoader();

    createActions();
    updateStatus();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Snapshots…"), this, &MainWindow::openFilesDialog);
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open one snapshot file per rank"));
    QAction* folder = file->addAction(tr("Open &Folder…"), this, &MainWindow::openFolderDialog);
    folder->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    folder->setStatusTip(tr("Open every snapshot file in a folder"));
    QAction* example = file->addAction(tr("Open &Example"), this, &MainWindow::openExample);
    example->setStatusTip(tr("Open the bundled four-rank example"));
    file->addSeparator();
    m_cancelAction = file->addAction(tr("&Cancel Loading"), this, [this] { m_loader->cancelAll(); });
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setStatusTip(tr("Stop loading the files that are still loading"));
    m_closeAction = file->addAction(tr("&Close All"), this, &MainWindow::closeAll);
    m_closeAction->setShortcut(QKeySequence::Close);
    m_closeAction->setStatusTip(tr("Close every snapshot and go back to the start page"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About RankScope"), this, [this] {
        QMessageBox::about(this, tr("About RankScope"),
            tr("<h3>RankScope %1</h3><p>Compares the PyTorch CUDA memory snapshots of the ranks of one job.</p>"
               "<p>Built with Qt %2, QCustomPlot, nlohmann_json and zlib.</p>")
                .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    });
}

void MainWindow::openPaths(const QStringList& paths)
{
    const QStringList files = RankFiles::expand(paths);
    if (files.isEmpty()) {
        statusBar()->showMessage(tr("No snapshot files found in %1").arg(paths.join(QLatin1String(", "))), 8000);
        return;
    }
    m_stack->setCurrentWidget(m_ranksPage);
    m_loader->load(files);
    // Room for the progress bars while files load; columns fit their contents once loaded.
    m_table->setColumnWidth(RankListModel::FileColumn, 240);
    updateStatus();
}

void MainWindow::openFilesDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Snapshots"), QString(), tr("Memory snapshots (*.pickle *.pkl *.json *.gz);;All files (*)"));
    if (!files.isEmpty())
        openPaths(files);
}

void MainWindow::openFolderDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Folder of Snapshots"));
    if (!folder.isEmpty())
        openPaths({ folder });
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

void MainWindow::compareRanks()
{
    std::vector<RankInput> ranks;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const LoadedFile* file = m_model->file(row);
        if (file && file->ok())
            ranks.push_back({ file->rank, file->path, file->snapshot });
    }
    const int job = ++m_comparisonJob;
    if (ranks.size() < 2) {
        m_banner->hide();
        m_findings->setComparison(nullptr);
        return;
    }
    m_banner->setPending(tr("Comparing %n rank(s)…", nullptr, int(ranks.size())));
    QtConcurrent::run([ranks] {
        return Comparison::compute(ranks, {});
    }).then(this, [this, job](ComparisonPtr comparison) {
        if (job != m_comparisonJob) // a newer comparison supersedes this one
            return;
        m_banner->setVerdict(comparison->verdict());
        m_findings->setComparison(comparison);
        m_tabs->setTabText(1, tr("Findings (%1)").arg(comparison->findings().size()));
        for (int column = 0; column < FindingsModel::NUM_COLUMNS - 1; ++column)
            m_findingsView->resizeColumnToContents(column);
        if (m_findingsProxy->rowCount() > 0)
            m_findingsView->setCurrentIndex(m_findingsProxy->index(0, 0));
    });
}

void MainWindow::showFindingStack()
{
    const QModelIndex current = m_findingsView->currentIndex();
    if (!current.isValid()) {
        m_stackView->clear();
        return;
    }
    const QModelIndex source = m_findingsProxy->mapToSource(current);
    const Finding& f = m_findings->comparison()->findings()[size_t(source.row())];
    const QString excess = Formatting::bytes(f.excessBytes);
    QString text = tr("Rank %1: %2, +%3 over the baseline\n").arg(f.rank).arg(FindingsModel::kindText(f.kind), excess);
    // Function and file:line first, the folder after: long absolute paths would hide what matters.
    const auto& frames = m_findings->comparison()->sites().frames(f.site);
    if (frames.empty())
        text += tr("(no stack was recorded for these allocations)");
    for (const auto& frame : frames) {
        const QString path = QString::fromStdString(*frame.filename);
        const qsizetype slash = std::max(path.lastIndexOf(QLatin1Char('/')), path.lastIndexOf(QLatin1Char('\\')));
        text += QStringLiteral("%1  %2:%3  (%4)\n")
                    .arg(QString::fromStdString(*frame.name), path.mid(slash + 1))
                    .arg(frame.line)
                    .arg(slash > 0 ? path.left(slash) : QString());
    }
    m_stackView->setPlainText(text);
}

void MainWindow::closeAll()
{
    // A fresh loader drops the old jobs (waiting for them to stop), so late results cannot reach the new model.
    delete m_loader;
    m_loader = new SnapshotLoader(this);
    connectLoader();
    ++m_comparisonJob;
    m_banner->hide();
    m_findings->setComparison(nullptr);
    m_tabs->setTabText(1, tr("Findings"));
    m_model->clear();
    m_stack->setCurrentWidget(m_start);
    updateStatus();
}

void MainWindow::onFinished(int index, const LoadedFile& file)
{
    m_model->setLoaded(index, file);
    if (!file.ok() && !file.cancelled)
        statusBar()->showMessage(tr("%1: %2").arg(QFileInfo(file.path).fileName(), file.error), 10000);
    for (int column = 0; column < RankListModel::NUM_COLUMNS - 1; ++column)
        m_table->resizeColumnToContents(column);
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
    QString text = total == 0 ? tr("No snapshots open") : tr("%n rank(s)", nullptr, total);
    if (total > 0) {
        text += tr(" · %1 loaded").arg(loaded);
        if (failed)
            text += tr(" · %1 failed").arg(failed);
        if (loading)
            text += tr(" · loading…");
    }
    if (!m_statusLabel) {
        m_statusLabel = new QLabel(this);
        statusBar()->addPermanentWidget(m_statusLabel);
    }
    m_statusLabel->setText(text);
}

void MainWindow::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_proxy->mapToSource(m_table->indexAt(pos));
    if (!index.isValid())
        return;
    const int row = index.row();
    QMenu menu(this);
    if (index.siblingAtColumn(RankListModel::StatusColumn).data(RankListModel::ProgressRole).toInt() >= 0)
        menu.addAction(tr("Cancel Loading"), this, [this, row] { m_loader->cancel(row); });
    const QString error = index.data(RankListModel::ErrorRole).toString();
    const QString path = index.data(RankListModel::PathRole).toString();
    if (!error.isEmpty())
        menu.addAction(tr("Copy Error"), this,
            [path, error] { QApplication::clipboard()->setText(path + QLatin1String(": ") + error); });
    menu.addAction(tr("Copy Path"), this, [path] { QApplication::clipboard()->setText(path); });
    menu.exec(m_table->viewport()->mapToGlobal(pos));
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
