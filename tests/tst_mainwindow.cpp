// SPDX-License-Identifier: MIT
// The main window driven as a user would, offscreen: start page, the bundled example, a good and a corrupt file.
#include "appearance.h"
#include "beforeafterview.h"
#include "beforeafterwindow.h"
#include "blockmapview.h"
#include "chartstyle.h"
#include "digest.h"
#include "excesstreemodel.h"
#include "exportdialog.h"
#include "findingsmodel.h"
#include "job.h"
#include "legend.h"
#include "mainwindow.h"
#include "parallel.h"
#include "rankchart.h"
#include "ranklistmodel.h"
#include "rankname.h"
#include "rankspanel.h"
#include "recentfiles.h"
#include "settingsdialog.h"
#include "shortcutsdialog.h"
#include "snapshotreader.h"
#include "stackpane.h"
#include "steppeakschart.h"
#include "stepsview.h"
#include "stepswindow.h"
#include "testprogram.h"
#include "testutils.h"
#include "timelineview.h"
#include "verdictbanner.h"
#include "verdicttext.h"
#include "whatifmodel.h"
#include "whatifview.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QAbstractProxyModel>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

#include <functional>
#include <map>
#include <optional>

using namespace RankScope;

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void startPage();
    void exampleShowsTheAnswer();
    void findingMarksBlockMapAndTimeline();
    void swapAndRankSelection();
    void goodAndCorruptFile();
    void settingsPersist();
    void languageSwitchesWithoutRestart();
    void themeAndDetailApplyAtOnce();
    void stepLogsOpenInTheirWindow();
    void beforeAndAfterRuns();
    void digestsOpenLikeSnapshots();
    void closingWhileJobsRun();
    void openReplacesTheJobAndItsPoint();
    void jobStateStaysWithTheJob();
    void exportDrawsTheFindingOfThePicture();
    void layoutDialogSaysWhyNot();
    void addToThisJob();
    void pinnedHostMemoryBesideTheGpus();
    void stepFoldersAreSteps();
    void growthAcrossSteps();
    void fragmentationMarksSmallFreeSpans();
    void overCapacityShowsWhatFillsTheGpu();
    void midStepJobOpensWhereRanksDiffer();
    void parallelLayoutPerJob();
    void deviceMemoryPerJob();
    void optionsAndClicksKeepEachOther();
    void fieldsLeaveTheWindowsShortcuts();
    void nothingToOpen();
    void layoutAtScreenSizes_data();
    void layoutAtScreenSizes();
    void rankTableFitsAShortScreen();
    void restoredWindowFitsTheScreen();
    void keyboardShortcutsListed();
    void recentEntriesAreJobs();

private:
    QTemporaryDir m_settings;
};

namespace {

// The window's widget of type T with this accessible name: the names the window gives for assistive technology are
// the ones the tests find its parts by.
template <typename T> T* named(QWidget& window, const QString& name)
{
    for (T* child : window.findChildren<T*>()) {
        if (child->accessibleName() == name)
            return child;
    }
    return nullptr;
}

// Everything the window does in the background has settled.
bool settled(const MainWindow& w)
{
    return w.comparison() && !w.isBusy();
}

// What of the rank table's key columns (the rank, its peak, its figures at the point and its excess) is not whole in
// sight without scrolling: a column past the viewport's edge, a header narrower than its title and sort mark, a cell
// narrower than its text as the table's fonts draw it. Empty when all is in sight.
QString keyColumnsCut(const QTreeView* table)
{
    QString cut;
    const QHeaderView* header = table->header();
    const QAbstractItemModel* model = table->model();
    for (int column : { RankListModel::RankColumn, RankListModel::PeakColumn, RankListModel::AtPointColumn,
             RankListModel::ExcessColumn }) {
        const QString title = model->headerData(column, Qt::Horizontal).toString();
        const int left = header->sectionViewportPosition(column);
        const int width = header->sectionSize(column);
        // The title and, on the sorted column, the sort mark beside it.
        const int titleWidth = header->fontMetrics().horizontalAdvance(title)
            + (header->sortIndicatorSection() == column ? header->style()->pixelMetric(QStyle::PM_HeaderMarkSize) : 0);
        if (table->isColumnHidden(column) || left < 0 || left + width > table->viewport()->width()
            || width < header->sectionSizeHint(column) || width < titleWidth)
            cut += QStringLiteral("column “%1” at %2, %3 px (its title %4 px, wants %5) in %6; ")
                       .arg(title)
                       .arg(left)
                       .arg(width)
                       .arg(titleWidth)
                       .arg(header->sectionSizeHint(column))
                       .arg(table->viewport()->width());
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, column);
            QFont font = table->font();
            if (const QVariant bold = index.data(Qt::FontRole); bold.isValid())
                font = bold.value<QFont>();
            const QString text = index.data().toString();
            if (QFontMetrics(font).horizontalAdvance(text) >= width)
                cut += QStringLiteral("“%1” in %2 px; ").arg(text).arg(width);
        }
    }
    return cut;
}

} // namespace

void TestMainWindow::initTestCase()
{
    // Recent files go to a test location, never the user's settings; and settings to this run's own folder: test mode
    // alone gives every run of this test one file (~/.qttest), so a second run at the same time (another checkout's
    // tests) rewrote the recent jobs under recentEntriesAreJobs.
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_settings.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
}

void TestMainWindow::startPage()
{
    MainWindow w;
    w.show();
    QVERIFY(w.showsStartPage());
    QCOMPARE(w.rankModel()->rowCount(), 0);
}

void TestMainWindow::exampleShowsTheAnswer()
{
    MainWindow w;
    QAbstractItemModelTester ranksTester(w.rankModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester findingsTester(w.findingsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    w.show();
    w.openExample();
    QVERIFY(!w.showsStartPage());
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);

    // Which line of code comes first: the site is the leftmost column and, on a full-HD screen, the widest one.
    w.resize(1920, 1080);
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    QHeaderView* header = w.findingsView()->header();
    QCOMPARE(header->logicalIndex(0), int(FindingsModel::SiteColumn));
    for (int column = 0; column < FindingsModel::NUM_COLUMNS; ++column) {
        if (column != FindingsModel::SiteColumn)
            QVERIFY2(header->sectionSize(FindingsModel::SiteColumn) > header->sectionSize(column),
                qPrintable(QStringLiteral("column %1 is %2 px, the site %3 px")
                               .arg(column)
                               .arg(header->sectionSize(column))
                               .arg(header->sectionSize(FindingsModel::SiteColumn))));
    }

    // One set of figures: the table's free memory in the reserve is the block map's, at the same point.
    const std::optional<DeviceStats> shown = w.blockMap(0)->stats();
    QVERIFY(shown);
    const RankSummary& summaryA = w.comparison()->ranks()[size_t(w.comparison()->rankIndex(w.rankA()))];
    QCOMPARE(summaryA.unallocatedBytes, shown->inactive);
    QCOMPARE(summaryA.largestFreeBytes, shown->largestFree);

    // A filter that matches nothing says so, in the empty table (the tab row stays where it was), and the status bar
    // counts what it shows; cleared, the findings are back with the one selected before, and the note goes.
    QVERIFY(w.noMatchText().isEmpty());
    const int chosen = w.selectedFinding();
    QVERIFY(chosen >= 0);
    QTabBar* tabRow = w.findingsView()->parentWidget()->parentWidget()->findChild<QTabBar*>();
    QVERIFY(tabRow);
    const QPoint tabsAt = tabRow->mapTo(&w, QPoint());
    const QString findingsCount = QString::number(w.comparison()->findings().size());
    w.findingsFilter()->setText(QStringLiteral("no-such-site"));
    QTRY_COMPARE(w.findingsView()->model()->rowCount(), 0);
    QVERIFY2(
        w.noMatchText().contains(QStringLiteral("No finding matches “no-such-site”")), qPrintable(w.noMatchText()));
    QApplication::processEvents();
    QCOMPARE(tabRow->mapTo(&w, QPoint()), tabsAt);
    QVERIFY2(w.statusText().contains(QStringLiteral("0 of %1 finding").arg(findingsCount))
            && w.statusText().contains(QLatin1String("shown by the filter")),
        qPrintable(w.statusText()));
    QCOMPARE(w.selectedFinding(), -1);
    w.findingsFilter()->clear();
    QTRY_VERIFY(w.findingsView()->model()->rowCount() > 0);
    QVERIFY(w.noMatchText().isEmpty());
    QCOMPARE(w.selectedFinding(), chosen);
    QVERIFY2(w.statusText().contains(QStringLiteral(" %1 finding").arg(findingsCount))
            && !w.statusText().contains(QLatin1String("filter")),
        qPrintable(w.statusText()));
    QCOMPARE(tabRow->mapTo(&w, QPoint()), tabsAt);
    w.findingsView()->setCurrentIndex(w.findingsView()->model()->index(0, 0));

    // The verdict, the outlier and the top finding with its stack, without another click.
    QCOMPARE(w.comparison()->verdict().kind, Verdict::BurdenImbalance);
    QCOMPARE(w.comparison()->verdict().rank, 0);
    QCOMPARE(w.rankA(), 0);
    QVERIFY(w.rankB() > 0);
    int outliers = 0;
    for (int row = 0; row < w.rankModel()->rowCount(); ++row) {
        const QModelIndex index = w.rankModel()->index(row, RankListModel::RankColumn);
        if (index.data(RankListModel::OutlierRole).toBool()) {
            ++outliers;
            QCOMPARE(index.data().toInt(), 0);
            QVERIFY(w.rankModel()->index(row, RankListModel::ExcessColumn).data().toString().startsWith(u'+'));
        }
    }
    QCOMPARE(outliers, 1);
    QCOMPARE(w.selectedFinding(), 0);
    QVERIFY2(w.stackPane()->text().contains(QLatin1String("gather_predictions")), qPrintable(w.stackPane()->text()));
    QVERIFY(w.stackPane()->text().contains(QLatin1String("has no allocation at this site")));

    // RANKSCOPE_SCREENSHOT=FILE saves this window as the README shows it (resources/screenshots/main-window.png).
    if (const QString path = qEnvironmentVariable("RANKSCOPE_SCREENSHOT"); !path.isEmpty()) {
        w.resize(1600, 1000);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 30000);
        QTest::qWait(200);
        QVERIFY(w.grab().save(path));
    }
}

void TestMainWindow::findingMarksBlockMapAndTimeline()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    w.openExample();
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    const Finding& f = w.comparison()->findings()[size_t(w.selectedFinding())];
    QCOMPARE(f.rank, 0);
    QVERIFY(!f.runs.empty());

    // Rank A's block map outlines every run of the finding, B's none; both light the site only where it exists.
    BlockMapView* a = w.blockMap(0);
    BlockMapView* b = w.blockMap(1);
    QCOMPARE(a->visibleOutlinedRuns(), int(f.runs.size()));
    QCOMPARE(b->visibleOutlinedRuns(), 0);
    QCOMPARE(a->highlightedBlockCount(), int(f.rankCount));
    QCOMPARE(b->highlightedBlockCount(), 0);

    // The timeline lights the finding's bands on A and none on B.
    TimelineView* t = w.timelines();
    QCOMPARE(t->tracks().size(), size_t(2));
    QCOMPARE(t->tracks()[0].rank, 0);
    QVERIFY(t->bandCount(0) > 0);
    QVERIFY2(t->highlightedBandCount(0) >= 1, qPrintable(QString::number(t->highlightedBandCount(0))));
    QCOMPARE(t->highlightedBandCount(1), 0);

    // The outline is drawn where the run is: a pixel on the run's outline has the accent colour.
    const QImage image = a->grab().toImage();
    QVERIFY(!image.isNull());

    // Ctrl+click on the selected finding unselects it (it stays current): its marks go.
    const QModelIndex current = w.findingsView()->currentIndex();
    const QRect row = w.findingsView()->visualRect(current);
    QTest::mouseClick(w.findingsView()->viewport(), Qt::LeftButton, Qt::ControlModifier, row.center());
    QVERIFY(!w.findingsView()->selectionModel()->hasSelection());
    QCOMPARE(w.selectedFinding(), -1);
    QCOMPARE(t->highlightedBandCount(0), 0);
    QCOMPARE(a->highlightedBlockCount(), 0);
    QCOMPARE(a->visibleOutlinedRuns(), 0);
    // Clicking it again marks it again.
    QTest::mouseClick(w.findingsView()->viewport(), Qt::LeftButton, {}, row.center());
    QVERIFY(t->highlightedBandCount(0) >= 1);

    // No finding selected: nothing is marked.
    w.findingsView()->setCurrentIndex({});
    QCOMPARE(t->highlightedBandCount(0), 0);
}

void TestMainWindow::swapAndRankSelection()
{
    MainWindow w;
    w.show();
    w.openExample();
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    const int a = w.rankA();
    const int b = w.rankB();
    w.swapRanks();
    QCOMPARE(w.rankA(), b);
    QCOMPARE(w.rankB(), a);
    QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 30000);
    QCOMPARE(w.timelines()->tracks()[0].rank, b);
    // The finding is on rank 0, now B: its runs are outlined there.
    QCOMPARE(w.blockMap(1)->visibleOutlinedRuns(), int(w.comparison()->findings()[0].runs.size()));
    QCOMPARE(w.blockMap(0)->visibleOutlinedRuns(), 0);

    // A rank's bar: a click makes it A, Shift+click makes it B.
    RankChart* chart = w.findChild<RankChart*>();
    QVERIFY(chart);
    const QPoint bar3 = chart->barCenter(3);
    QVERIFY(!bar3.isNull());
    QCOMPARE(chart->rankAt(bar3), 3);
    QTest::mouseClick(chart->plot(), Qt::LeftButton, Qt::NoModifier, bar3);
    QCOMPARE(w.rankA(), 3);
    QTest::mouseClick(chart->plot(), Qt::LeftButton, Qt::ShiftModifier, chart->barCenter(1));
    QCOMPARE(w.rankA(), 3);
    QCOMPARE(w.rankB(), 1); // the user's choice holds, though the selected finding is on rank 0
    w.setRanks(b, a); // as the swap left them
    QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 30000);

    // Selecting a rank in the table makes it A; B stays.
    QTreeView* table = w.rankTable();
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        const QModelIndex index = table->model()->index(row, RankListModel::RankColumn);
        if (index.data().toInt() == 2)
            table->setCurrentIndex(index);
    }
    QCOMPARE(w.rankA(), 2);
    QCOMPARE(w.rankB(), a);
    QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 30000);
    QCOMPARE(w.timelines()->tracks()[0].rank, 2);

    // A double click on the timeline compares the clicked rank at that event, every other at the same moment.
    emit w.timelines()->pointPicked(0, 500);
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.comparison()->pointName() == "event:500@2", 30000);
    QCOMPARE(w.comparison()->ranks()[size_t(w.comparison()->rankIndex(2))].point.event, EventIndex(500));
    QCOMPARE(w.timelines()->tracks()[0].point, EventIndex(500));
    for (const RankSummary& r : w.comparison()->ranks())
        QCOMPARE(r.alignedTo, 2);
}

void TestMainWindow::goodAndCorruptFile()
{
    QTemporaryDir dir;
    QVERIFY(QFile::copy(QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/examples/rank1_memory_snapshot.pickle"),
        dir.filePath(QStringLiteral("rank1.pickle"))));
    QFile good(QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/examples/rank2_memory_snapshot.pickle"));
    QVERIFY(good.open(QIODevice::ReadOnly));
    QFile bad(dir.filePath(QStringLiteral("rank2.pickle")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(good.read(good.size() / 2)); // truncated halfway
    bad.close();

    MainWindow w;
    w.show();
    w.openPaths({ dir.path() });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    QCOMPARE(w.rankModel()->rowCount(), 2);
    QCOMPARE(w.rankModel()->loadedCount(), 1);
    QCOMPARE(w.rankModel()->failedCount(), 1);
    const QString error =
        w.rankModel()->index(1, RankListModel::StatusColumn).data(RankListModel::ErrorRole).toString();
    QVERIFY2(error.contains(QLatin1String("truncated")) || error.contains(QLatin1String("end of")), qPrintable(error));
    // Status where the eye is: the status column right after the rank (the file's name is last, so that the figures
    // fit at 1280×720), and the reason as a second line of the failed row, under its name.
    QTreeView* table = w.rankTable();
    QCOMPARE(table->header()->visualIndex(RankListModel::StatusColumn),
        table->header()->visualIndex(RankListModel::RankColumn) + 1);
    int failedRow = -1;
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        if (table->model()->index(row, RankListModel::StatusColumn).data().toString() == QLatin1String("Failed"))
            failedRow = row;
    }
    QVERIFY(failedRow >= 0);
    const QString file = table->model()->index(failedRow, RankListModel::FileColumn).data().toString();
    QVERIFY2(file.startsWith(QLatin1String("rank2.pickle\nCould not be read: ")), qPrintable(file));
    QVERIFY(table->visualRect(table->model()->index(failedRow, RankListModel::FileColumn)).height()
        > table->visualRect(table->model()->index(1 - failedRow, RankListModel::FileColumn)).height());
    // The ⚠ on the rows' peaks is explained under the table.
    bool legend = false;
    for (QLabel* label : w.findChildren<QLabel*>())
        legend = legend || (label->isVisible() && label->text().startsWith(QStringLiteral("⚠ Trace incomplete")));
    QVERIFY(legend);
    // The reason in full under the table too, in sight however narrow the window (the file's column is last).
    w.resize(1280, 720);
    QApplication::processEvents();
    QLabel* failedNote = nullptr;
    for (QLabel* label : w.findChildren<QLabel*>()) {
        if (label->isVisible()
            && label->text().startsWith(QStringLiteral("✗ Rank 2 (rank2.pickle) could not be read: ")))
            failedNote = label;
    }
    QVERIFY(failedNote);
    QVERIFY2(failedNote->text().endsWith(error), qPrintable(failedNote->text()));
    QVERIFY(QRect(QPoint(), w.size()).contains(QRect(failedNote->mapTo(&w, QPoint()), failedNote->size())));
    // The banner says what the answer rests on: one file is missing from it.
    QVERIFY2(w.banner()->text().contains(QLatin1String("Note: 1 file"))
            && w.banner()->text().contains(QLatin1String("could not be read")),
        qPrintable(w.banner()->text()));
    // The good rank works: its timeline and block map are shown.
    QCOMPARE(w.rankA(), 1);
    QCOMPARE(w.timelines()->tracks().size(), size_t(1));
    QVERIFY(w.timelines()->bandCount(0) > 0);
    QVERIFY(w.blockMap(0)->segmentCount() > 0);
    // In Chinese the sentences around the reader's (English, technical) reason are Chinese, the reason kept whole.
    {
        const auto english = qScopeGuard([] { Appearance::setLanguage(QString()); });
        Appearance::setLanguage(QStringLiteral("zh_CN"));
        QApplication::processEvents();
        const QString note = failedNote->text();
        QVERIFY2(note.startsWith(QStringLiteral("✗ Rank 2（rank2.pickle）无法读取")) && note.contains(error),
            qPrintable(note));
        const QString cell = table->model()->index(failedRow, RankListModel::FileColumn).data().toString();
        QVERIFY2(cell.startsWith(QStringLiteral("rank2.pickle\n无法读取")) && cell.contains(error), qPrintable(cell));
        const QString tip =
            table->model()->index(failedRow, RankListModel::StatusColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(
            tip.contains(QStringLiteral("无法读取")) && tip.endsWith(error + QStringLiteral("）")), qPrintable(tip));
    }
}

// Options and layout survive a restart (QSettings in QtTest's own location).
void TestMainWindow::settingsPersist()
{
    QSize saved;
    {
        MainWindow w;
        // A size the test's screen holds: a larger one is brought inside it (restoredWindowFitsTheScreen).
        w.resize(QSize(1111, 777).boundedTo(QApplication::primaryScreen()->availableGeometry().size()));
        saved = w.size();
        auto* myCode = w.findChild<QCheckBox*>();
        auto* threshold = w.findChild<QDoubleSpinBox*>();
        QVERIFY(myCode && threshold);
        myCode->setChecked(true);
        threshold->setValue(7.5);
        w.timelines()->setXAxis(TimelineView::TimeAxis);
    }
    MainWindow again;
    QCOMPARE(again.findChild<QCheckBox*>()->isChecked(), true);
    QCOMPARE(again.findChild<QDoubleSpinBox*>()->value(), 7.5);
    QCOMPARE(again.timelines()->preferredXAxis(), TimelineView::TimeAxis);
    QCOMPARE(again.size(), saved);
    // Back to the defaults for the other tests.
    again.findChild<QCheckBox*>()->setChecked(false);
    again.findChild<QDoubleSpinBox*>()->setValue(2.0);
    again.timelines()->setXAxis(TimelineView::EventAxis);
}

namespace {

QStringList menuTitles(const MainWindow& w)
{
    QStringList titles;
    for (const QAction* action : w.menuBar()->actions())
        titles.append(action->text());
    return titles;
}

QString xAxisLabel(const MainWindow& w)
{
    const QList<QCPAxisRect*> rects = w.timelines()->findChild<QCustomPlot*>()->axisRects();
    return rects.isEmpty() ? QString() : rects.last()->axis(QCPAxis::atBottom)->label();
}

} // namespace

// Chosen in Settings, the language changes in the open window: menus, verdict, tables, plots, status; and back.
void TestMainWindow::languageSwitchesWithoutRestart()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    w.openExample();
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    // A point picked on the timeline: its entry in the point box is worded in each language too.
    const EventIndex picked = w.comparison()->ranks()[0].point.event;
    emit w.timelines()->pointPicked(0, picked);
    QTRY_VERIFY_WITH_TIMEOUT(
        settled(w) && w.comparison()->pointName() == "event:" + std::to_string(picked) + "@0", 30000);
    const QString pickedText = QStringLiteral("Rank 0's event %1 (picked; the others at the same moment)").arg(picked);
    QComboBox* point = named<QComboBox>(w, QStringLiteral("Comparison point"));
    QVERIFY(point);
    QCOMPARE(point->currentText(), pickedText);
    const QStringList english { QStringLiteral("&File"), QStringLiteral("&View"), QStringLiteral("&Compare"),
        QStringLiteral("&Help") };
    QCOMPARE(menuTitles(w), english);
    QVERIFY(w.banner()->text().startsWith(QLatin1String("Burden imbalance on rank 0")));

    SettingsDialog& settings = *w.settingsDialog();
    settings.show();
    QComboBox* language = settings.languageBox();
    language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
    QCOMPARE(Appearance::effectiveLanguage(), QStringLiteral("zh_CN"));
    QTRY_COMPARE(menuTitles(w),
        QStringList({ QStringLiteral("文件(&F)"), QStringLiteral("视图(&V)"), QStringLiteral("比较(&C)"),
            QStringLiteral("帮助(&H)") }));
    QCOMPARE(w.menuBar()->actions().first()->menu()->actions().first()->text(), QStringLiteral("打开快照(&O)…"));
    QVERIFY2(w.banner()->text().startsWith(QStringLiteral("负载不均：rank 0 做了其他 rank 不做的工作")),
        qPrintable(w.banner()->text()));
    QVERIFY(w.banner()->text().contains(QStringLiteral("如何修改：")));
    QCOMPARE(w.rankTable()->model()->headerData(RankListModel::FileColumn, Qt::Horizontal).toString(),
        QStringLiteral("文件"));
    QCOMPARE(w.findingsView()->model()->index(0, FindingsModel::KindColumn).data().toString(),
        QStringLiteral("仅此 rank 有"));
    QTRY_COMPARE(xAxisLabel(w), QStringLiteral("追踪事件"));
    QVERIFY2(w.statusText().startsWith(QStringLiteral("4 个 rank")), qPrintable(w.statusText()));
    QCOMPARE(settings.windowTitle(), QStringLiteral("设置"));
    QCOMPARE(point->currentText(), QStringLiteral("rank 0 的事件 %1（选取；其他 rank 取同一时刻）").arg(picked));
    // Nothing in the comparison bar is narrower than its text needs (the depth box's "全部", the point box).
    const auto unclipped = [&w] {
        for (QWidget* box : w.findChildren<QWidget*>()) {
            if ((qobject_cast<QComboBox*>(box) || qobject_cast<QAbstractSpinBox*>(box)) && box->isVisible()
                && box->width() < box->minimumSizeHint().width())
                return false;
            // A spin box's own size hint forgets a special text wider than its numbers ("全部").
            auto* spin = qobject_cast<QSpinBox*>(box);
            if (spin && spin->isVisible() && !spin->specialValueText().isEmpty()
                && spin->width() < spin->fontMetrics().horizontalAdvance(spin->specialValueText()) + 24)
                return false;
        }
        return true;
    };
    QTRY_VERIFY(unclipped());
    // RANKSCOPE_SCREENSHOT_ZH=FILE saves the window in Chinese as the README shows it.
    if (const QString path = qEnvironmentVariable("RANKSCOPE_SCREENSHOT_ZH"); !path.isEmpty()) {
        settings.hide();
        w.resize(1600, 1000);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 30000);
        QTest::qWait(200);
        QVERIFY(w.grab().save(path));
    }
    // The selection survives: the same finding and ranks are still shown.
    QCOMPARE(w.selectedFinding(), 0);
    QCOMPARE(w.rankA(), 0);

    language->setCurrentIndex(language->findData(QStringLiteral("en")));
    QTRY_COMPARE(menuTitles(w), english);
    QVERIFY(w.banner()->text().startsWith(QLatin1String("Burden imbalance on rank 0")));
    QCOMPARE(xAxisLabel(w), QStringLiteral("Trace event"));
    // English plurals come from the English catalogue: "4 ranks", not "4 rank(s)".
    QVERIFY2(w.statusText().startsWith(QStringLiteral("4 ranks ·")), qPrintable(w.statusText()));
    QCOMPARE(settings.windowTitle(), QStringLiteral("Settings"));
    // Back in English, every entry of the point box is English again.
    QCOMPARE(point->currentText(), pickedText);
    for (int i = 0; i < point->count(); ++i) {
        const QString text = point->itemText(i);
        QVERIFY2(
            std::none_of(text.begin(), text.end(), [](QChar c) { return c.unicode() >= 0x3000; }), qPrintable(text));
    }
    Appearance::setLanguage(QString());
}

// Dark and light themes reach the plots and the block maps at once; timeline detail changes the band count.
void TestMainWindow::themeAndDetailApplyAtOnce()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    w.openExample();
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    auto* plot = w.timelines()->findChild<QCustomPlot*>();
    const auto plotCorner = [plot] { return plot->grab().toImage().pixelColor(3, 3).lightness(); };
    const auto mapCorner = [&w] {
        const QImage image = w.blockMap(0)->grab().toImage();
        return image.pixelColor(image.width() - 3, image.height() / 2).lightness();
    };
    QVERIFY2(plotCorner() > 200, qPrintable(QString::number(plotCorner())));
    QVERIFY(mapCorner() > 200);

    SettingsDialog& settings = *w.settingsDialog();
    settings.themeBox()->setCurrentIndex(Appearance::DarkTheme);
    QTRY_VERIFY(w.palette().color(QPalette::Window).lightness() < 80);
    QTRY_VERIFY2(plotCorner() < 60, qPrintable(QString::number(plotCorner())));
    QVERIFY(mapCorner() < 60);
    // Axis text in the light text colour, not black on black.
    QVERIFY(plot->axisRects().first()->axis(QCPAxis::atLeft)->tickLabelColor().lightness() > 180);
    // The rank chart's bars and the step marks stand out from the dark background (3:1 for marks, 4.5:1 for text).
    const QColor base = w.palette().color(QPalette::Base);
    QVERIFY(ChartStyle::contrast(ChartStyle::peakBarColor(w.palette()), base) >= 3.0);
    QVERIFY(ChartStyle::contrast(ChartStyle::pointBarColor(w.palette()), base) >= 3.0);
    QVERIFY(ChartStyle::contrast(ChartStyle::annotationColor(w.palette()), base) >= 4.5);
    for (auto* chartPlot : w.findChildren<QCustomPlot*>()) {
        for (int i = 0; i < chartPlot->plottableCount(); ++i) {
            if (auto* bars = qobject_cast<QCPBars*>(chartPlot->plottable(i)); bars && bars->brush() != Qt::NoBrush)
                QVERIFY(ChartStyle::contrast(bars->brush().color(), base) >= 3.0);
        }
    }

    settings.themeBox()->setCurrentIndex(Appearance::SystemTheme);
    QTRY_VERIFY(plotCorner() > 200);
    QVERIFY(mapCorner() > 200);

    // Level of detail: the most bands a timeline draws, applied at once and remembered.
    QTRY_VERIFY(!w.timelines()->isBusy());
    QVERIFY2(w.timelines()->bandCount(0) > 0, qPrintable(QString::number(w.timelines()->bandCount(0))));
    settings.detailBox()->setCurrentIndex(settings.detailBox()->findData(2000));
    QCOMPARE(w.timelines()->maxBands(), 2000);
    QTRY_VERIFY(w.timelines()->bandCount(0) <= 2000 && !w.timelines()->isBusy());
    QCOMPARE(Appearance::timelineBands(), 2000);
    settings.detailBox()->setCurrentIndex(settings.detailBox()->findData(TimelineView::DefaultBands));
}

namespace {

template <typename Window> Window* topLevel()
{
    for (QWidget* w : QApplication::topLevelWidgets()) {
        if (auto* window = qobject_cast<Window*>(w))
            return window;
    }
    return nullptr;
}

void saveShot(QWidget* window, const char* variable)
{
    if (const QString path = qEnvironmentVariable(variable); !path.isEmpty()) {
        window->resize(1400, 900);
        QTest::qWait(300);
        QVERIFY(window->grab().save(path));
    }
}

} // namespace

// A folder of digests (`rankscope digest`) opens as the job's snapshots do: the same verdict, outlier and top
// finding with its stack, and timelines and block maps drawn from the digests.
void TestMainWindow::digestsOpenLikeSnapshots()
{
    QTemporaryDir dir;
    const QString examples = QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples");
    for (const QString& name : QDir(examples).entryList({ QStringLiteral("*.pickle") }, QDir::Files)) {
        const SnapshotPtr full = SnapshotReader::read(examples + QLatin1Char('/') + name).snapshot;
        Digest::Source source;
        source.rank = RankName::assign({ name }).front().rank;
        source.fileName = name.toStdString();
        Digest::write(*full, source, dir.filePath(name + QStringLiteral(".digest.pickle.gz")));
    }
    MainWindow fromFiles;
    fromFiles.openPaths({ examples });
    MainWindow w;
    w.show();
    w.openPaths({ dir.path() });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && settled(fromFiles), 60000);
    QCOMPARE(w.rankModel()->rowCount(), 4);
    QCOMPARE(w.comparison()->verdict().kind, Verdict::BurdenImbalance);
    // The same verdict; the files are compared at aligned moments, the digests (which keep no such moments) each at
    // its own peak, and the words say so.
    QCOMPARE(VerdictText::title(w.comparison()->verdict(), VerdictText::English),
        VerdictText::title(fromFiles.comparison()->verdict(), VerdictText::English));
    QCOMPARE(w.comparison()->verdict().excessBytes, fromFiles.comparison()->verdict().excessBytes);
    QCOMPARE(
        w.comparison()->verdict().topSites.front().label, fromFiles.comparison()->verdict().topSites.front().label);
    QCOMPARE(w.comparison()->pointName(), std::string("peak"));
    QCOMPARE(fromFiles.comparison()->pointName(), std::string("aligned"));
    QCOMPARE(w.comparison()->findings().size(), fromFiles.comparison()->findings().size());
    QCOMPARE(w.rankA(), 0);
    QCOMPARE(w.selectedFinding(), 0);
    QVERIFY(w.stackPane()->text().contains(QLatin1String("gather_predictions")));
    QCOMPARE(w.stackPane()->text(), fromFiles.stackPane()->text());
    QVERIFY(w.blockMap(0)->blockCount() > 0);
    QVERIFY(w.timelines()->bandCount(0) > 0);
    saveShot(&w, "RANKSCOPE_SCREENSHOT_DIGESTS");
}

// Open starts a new job: the old ranks go, and a point picked on the old job's timeline does not silently carry over
// (it would compare every rank of the new job at an unrelated event and could call an imbalance balanced).
void TestMainWindow::openReplacesTheJobAndItsPoint()
{
    MainWindow w;
    w.openPaths({ QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/examples") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    const EventIndex picked = w.comparison()->ranks()[0].point.event;
    emit w.timelines()->pointPicked(0, picked);
    QTRY_VERIFY_WITH_TIMEOUT(
        settled(w) && w.comparison()->pointName() == "event:" + std::to_string(picked) + "@0", 30000);
    const QString pickedText = QStringLiteral("Rank 0's event %1 (picked; the others at the same moment)").arg(picked);

    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_8") });
    QVERIFY(w.statusBar()->currentMessage().contains(QLatin1String("belonged to the closed job")));
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 8, 60000);
    QCOMPARE(w.rankModel()->rowCount(), 8); // not 4 + 8
    QCOMPARE(w.comparison()->pointName(), std::string("aligned"));
    QCOMPARE(w.comparison()->verdict().kind, Verdict::BurdenImbalance);
    QCOMPARE(w.comparison()->verdict().rank, 7);
    QCOMPARE(w.rankA(), 7);
}

// A job's ranks, point, lit finding and filter are the job's. A is the verdict's rank and the stack pane shows the
// finding a picture of A and B outlines, whatever the table's order: gpu0_load_4 blames rank 0, on whose GPU ranks 1-3
// put their findings, and the table's first row (rank 3's, sorted by rank) must not take A. Another job starts from its
// own: nothing lit, filtered or compared at a point of the one before, its point box and banner saying the same.
void TestMainWindow::jobStateStaysWithTheJob()
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    w.findingsView()->sortByColumn(FindingsModel::RankColumn, Qt::DescendingOrder);
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/gpu0_load_4") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 4, 60000);
    const ComparisonPtr first = w.comparison();
    QCOMPARE(first->verdict().kind, Verdict::StrayDevice);
    QCOMPARE(first->verdict().rank, 0);
    QCOMPARE(w.rankA(), 0);
    const int shown = first->findingToShow(w.rankA(), w.rankB());
    QVERIFY(shown >= 0);
    QCOMPARE(w.selectedFinding(), shown);
    QVERIFY2(w.stackPane()->text().contains(QLatin1String("load_checkpoint")), qPrintable(w.stackPane()->text()));

    // At rank 0's OOM, a filter, a finding lit.
    QComboBox* point = named<QComboBox>(w, QStringLiteral("Comparison point"));
    QVERIFY(point);
    QVERIFY(point->findData(QStringLiteral("oom")) >= 0);
    point->setCurrentIndex(point->findData(QStringLiteral("oom")));
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.comparison()->pointName() == "oom", 30000);
    w.findingsFilter()->setText(QStringLiteral("load_checkpoint"));
    QTRY_VERIFY(w.findingsView()->model()->rowCount() > 0);
    w.findingsView()->setCurrentIndex(w.findingsView()->model()->index(0, 0));
    QVERIFY(w.selectedFinding() >= 0);
    QVERIFY(w.timelines()->highlightedSite());

    // The stack as recorded and the flame graph in front: the user's choices for this job.
    w.stackPane()->setShowAllFrames(true);
    w.stackPane()->setShowNativeFrames(true);
    QTabWidget* tabs = nullptr;
    for (QTabWidget* t : w.findChildren<QTabWidget*>()) {
        if (t->isAncestorOf(w.findingsView()))
            tabs = t;
    }
    QVERIFY(tabs);
    tabs->setCurrentIndex(3);
    w.blockMap(0)->setColoring(BlockMapView::ByState);

    // A job without findings or OOMs.
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/balanced_8") });
    QVERIFY2(w.statusBar()->currentMessage().contains(QLatin1String("belonged to the closed job")),
        qPrintable(w.statusBar()->currentMessage()));
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 8, 60000);
    QVERIFY(w.comparison()->findings().empty());
    QCOMPARE(w.comparison()->verdict().kind, Verdict::Balanced);
    QCOMPARE(w.comparison()->pointName(), std::string("aligned"));
    QCOMPARE(w.rankA(), w.comparison()->defaultPair().first);
    QCOMPARE(w.selectedFinding(), -1);
    QVERIFY(!w.timelines()->highlightedSite());
    QVERIFY(!w.blockMap(0)->highlightedSite());
    QVERIFY(!w.blockMap(1)->highlightedSite());
    QCOMPARE(w.blockMap(0)->visibleOutlinedRuns(), 0);
    QVERIFY(w.findingsFilter()->text().isEmpty());
    // It opens on its own stack mode and tab: the frames views show, folded, and the findings.
    QVERIFY(!w.stackPane()->showsAllFrames());
    QVERIFY(!w.stackPane()->showsNativeFrames());
    QCOMPARE(tabs->currentIndex(), 0);
    QCOMPARE(w.blockMap(0)->coloring(), BlockMapView::BySite);
    QVERIFY2(w.noMatchText().startsWith(QLatin1String("No finding: no rank holds more")), qPrintable(w.noMatchText()));
    // The point box lists what this job has (no OOM) and says where it was compared, as the banner and status do.
    QCOMPARE(point->findData(QStringLiteral("oom")), -1);
    QCOMPARE(point->currentData().toString(), QStringLiteral("aligned"));
    QVERIFY2(point->currentText().startsWith(QLatin1String("Aligned at rank")), qPrintable(point->currentText()));
    QVERIFY2(!w.banner()->text().contains(QLatin1String("at oom"))
            && !w.banner()->text().contains(QLatin1String("could not be compared at the point asked for")),
        qPrintable(w.banner()->text()));
    QVERIFY2(w.statusText().contains(point->currentText()), qPrintable(w.statusText()));
}

namespace {

QAction* actionNamed(QWidget& window, const QString& text)
{
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == text)
            return action;
    }
    return nullptr;
}

// File → Export → Diff Screenshot into `path`; what the dialog proposed first, empty when no dialog came.
QString exportPicture(MainWindow& w, const QString& path)
{
    QString proposed;
    QTimer::singleShot(0, &w, [&proposed, path] {
        if (auto* dialog = qobject_cast<ExportDialog*>(QApplication::activeModalWidget())) {
            proposed = dialog->path();
            dialog->setPath(path);
            dialog->accept();
        }
    });
    actionNamed(w, QStringLiteral("Diff &Screenshot…"))->trigger();
    return proposed;
}

QString fileText(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

// File → Export draws the finding a picture of ranks A and B outlines, whatever the findings table's sort: rank A's
// largest (the CLI's rule, Comparison::findingToShow), or the one the user selected while its rank is in the picture,
// never one of a rank it leaves out. Its dialogs start in the job's folder, then where the last export went (in the
// next job too), never among the snapshots again.
void TestMainWindow::exportDrawsTheFindingOfThePicture()
{
    QTemporaryDir dir;
    QSettings().remove(QStringLiteral("export/folder"));
    const QString exported = QFileInfo(dir.path()).absoluteFilePath();
    const QString folder = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/midstep_input_4");
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    // The smallest finding first: the table's first row is not the one to show.
    w.findingsView()->sortByColumn(FindingsModel::ExcessColumn, Qt::AscendingOrder);
    w.openPaths({ folder });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 4, 60000);
    const Comparison& c = *w.comparison();
    QCOMPARE(w.rankA(), c.verdict().rank);
    const int largest = c.findingToShow(w.rankA(), w.rankB());
    QVERIFY(largest >= 0);
    QVERIFY(c.findings().size() > 2);
    const int firstRow = w.findingsModel()->findingAt(qobject_cast<QAbstractProxyModel*>(w.findingsView()->model())
                                                          ->mapToSource(w.findingsView()->model()->index(0, 0)));
    QVERIFY(firstRow != largest);
    QCOMPARE(w.selectedFinding(), largest);
    const QString svg = dir.filePath(QStringLiteral("sorted.svg"));
    QCOMPARE(QFileInfo(exportPicture(w, svg)).absolutePath(), QFileInfo(folder).absoluteFilePath());
    // The picture's header names the finding; a long site label wraps onto a second line of the header, so the text
    // is read without its markup and spaces.
    const auto outlines = [&c](const QString& svgText, int finding) {
        const auto words = [](QString text) {
            return text.remove(QRegularExpression(QStringLiteral("<[^>]*>")))
                .remove(QRegularExpression(QStringLiteral("\\s")));
        };
        return words(svgText).contains(words(QStringLiteral("finding %1: ").arg(finding + 1)
            + QString::fromStdString(c.sites().label(c.findings()[size_t(finding)].site)).toHtmlEscaped()));
    };
    QVERIFY2(outlines(fileText(svg), largest), qPrintable(QStringLiteral("finding %1").arg(largest + 1)));

    // The user's choice, in the picture: that one.
    w.findingsView()->setCurrentIndex(w.findingsView()->model()->index(0, 0));
    QCOMPARE(w.selectedFinding(), firstRow);
    const QString chosen = dir.filePath(QStringLiteral("chosen.svg"));
    QCOMPARE(QFileInfo(exportPicture(w, chosen)).absolutePath(), exported);
    QVERIFY(outlines(fileText(chosen), firstRow));

    // The findings' own dialog starts where the pictures went too.
    QString csvFolder;
    QTimer::singleShot(0, &w, [&csvFolder] {
        if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            csvFolder = dialog->directory().absolutePath();
            dialog->reject();
        }
    });
    actionNamed(w, QStringLiteral("Findings as &CSV…"))->trigger();
    QCOMPARE(csvFolder, exported);

    // A finding of a rank the picture leaves out (picking ranks keeps the selection): A's largest instead.
    const QString spread = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/gpu0_load_4");
    w.openPaths({ spread });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 4, 60000);
    const Comparison& g = *w.comparison();
    int ofRank3 = -1;
    for (size_t i = 0; i < g.findings().size(); ++i)
        ofRank3 = g.findings()[i].rank == 3 ? int(i) : ofRank3;
    QVERIFY(ofRank3 >= 0);
    // Clicked, as a user does: the view makes the row current before it selects it.
    QTreeView* view = w.findingsView();
    // Where rank 3 is alike to others, its row is under its group's: opened first.
    const QModelIndex rank3 =
        qobject_cast<QAbstractProxyModel*>(view->model())->mapFromSource(w.findingsModel()->indexOf(size_t(ofRank3)));
    QVERIFY(rank3.isValid());
    if (rank3.parent().isValid())
        view->expand(rank3.parent());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(rank3).center());
    QCOMPARE(w.selectedFinding(), ofRank3);
    QCOMPARE(w.rankA(), 3);
    w.setRanks(0, 1);
    QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 30000);
    QCOMPARE(w.selectedFinding(), ofRank3);
    const int inPicture = g.findingToShow(0, 1);
    QVERIFY(inPicture >= 0 && inPicture != ofRank3);
    const QString left = dir.filePath(QStringLiteral("left.svg"));
    QCOMPARE(QFileInfo(exportPicture(w, left)).absolutePath(), exported);
    const QString leftText = fileText(left);
    QVERIFY(leftText.contains(QStringLiteral("finding %1: ").arg(inPicture + 1)));
    QVERIFY(!leftText.contains(QStringLiteral("finding %1: ").arg(ofRank3 + 1)));
}

// Compare → Parallel Layout checks the answer as the command line does (Job::check) while it is typed: a layout of 12
// ranks for 8 files is refused with the job's own words in the dialog and OK disabled.
void TestMainWindow::layoutDialogSaysWhyNot()
{
    const QString folder = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/pp2_dp4_burden_8");
    MainWindow w;
    w.show();
    w.openPaths({ folder });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 8, 60000);
    ComparisonOptions twelve;
    twelve.layout = ParallelLayout::parse("pp=3,dp=4", nullptr);
    const QString words = QString::fromStdString(Job({ folder }).check(twelve).text());
    QCOMPARE(words, QStringLiteral("layout pp=3,dp=4: 12 ranks, but 8 snapshot files are given"));

    // What the dialog says and allows for each answer, read while it is open.
    struct Seen
    {
        QString why;
        bool okEnabled = false;
    };
    std::map<QString, Seen> seen;
    bool opened = false;
    std::optional<bool> promptCut;
    QTimer::singleShot(0, &w, [&] {
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        opened = true;
        QLineEdit* field = dialog->findChild<QLineEdit*>();
        auto* buttons = dialog->findChild<QDialogButtonBox*>();
        QPushButton* ok = buttons ? buttons->button(QDialogButtonBox::Ok) : nullptr;
        for (const QString& answer :
            { QStringLiteral("pp=3,dp=4"), QStringLiteral("pp=2,dp=4"), QStringLiteral("pp=two"), QString() }) {
            if (!field || !ok)
                break;
            field->setText(answer);
            QString why;
            for (QLabel* label : dialog->findChildren<QLabel*>()) {
                if (label->isVisibleTo(dialog) && label->accessibleName() == QLatin1String("Why not"))
                    why = label->text();
            }
            seen[answer] = { why, ok->isEnabled() };
            // The prompt stays whole beside a reason: a wrapped label's own minimum is one line.
            QApplication::processEvents();
            for (QLabel* label : dialog->findChildren<QLabel*>()) {
                if (label->text().contains(QLatin1String("This job has 8 snapshot file")))
                    promptCut = promptCut.value_or(false) || label->height() < label->heightForWidth(label->width());
            }
        }
        dialog->reject();
    });
    w.chooseLayout();
    QVERIFY(opened);
    QVERIFY(promptCut.has_value());
    QVERIFY(!*promptCut);
    QCOMPARE(seen.size(), size_t(4));
    QVERIFY2(seen[QStringLiteral("pp=3,dp=4")].why.contains(words), qPrintable(seen[QStringLiteral("pp=3,dp=4")].why));
    QVERIFY(!seen[QStringLiteral("pp=3,dp=4")].okEnabled);
    QVERIFY(seen[QStringLiteral("pp=2,dp=4")].why.isEmpty());
    QVERIFY(seen[QStringLiteral("pp=2,dp=4")].okEnabled);
    QVERIFY2(seen[QStringLiteral("pp=two")].why.contains(QLatin1String("is not a layout")),
        qPrintable(seen[QStringLiteral("pp=two")].why));
    QVERIFY(!seen[QStringLiteral("pp=two")].okEnabled);
    QVERIFY(seen[QString()].okEnabled); // empty: guessed from the files
    QVERIFY(w.layoutText().isEmpty());
}

// Add to This Job keeps the open ranks; a file whose name claims a rank the job has gets a free one, with a note.
void TestMainWindow::addToThisJob()
{
    RecentFiles recent;
    recent.clear();
    MainWindow w;
    w.openPaths({ QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/examples") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    w.setDeviceMemory(QStringLiteral("16GiB"));
    w.addPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2/rank1_memory_snapshot.pickle") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 5, 60000);
    QCOMPARE(w.comparison()->ranks().size(), size_t(5));
    const LoadedFile* added = w.rankModel()->file(4);
    QVERIFY(added);
    QCOMPARE(added->rank, 4);
    QVERIFY2(added->note.contains(QLatin1String("its name says rank 1")), qPrintable(added->note));
    std::vector<int> ranks;
    for (const RankSummary& s : w.comparison()->ranks())
        ranks.push_back(s.rank);
    std::sort(ranks.begin(), ranks.end());
    QCOMPARE(ranks, (std::vector<int> { 0, 1, 2, 3, 4 }));

    // The job stays one recent entry, the added file with it: opened again, all five ranks come back.
    const QString examples = QFileInfo(QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/examples")).absoluteFilePath();
    const QString addedPath =
        QFileInfo(QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2/rank1_memory_snapshot.pickle")).absoluteFilePath();
    QCOMPARE(recent.jobs(), (QList<QStringList> { { examples, addedPath } }));
    QMenu* openRecent = nullptr;
    for (QAction* action : w.menuBar()->actions().first()->menu()->actions()) {
        if (action->menu() && action->text() == QLatin1String("Open &Recent"))
            openRecent = action->menu();
    }
    QVERIFY(openRecent);
    QCOMPARE(openRecent->actions().first()->text(), examples + QStringLiteral(" and 1 more"));
    w.closeAll();
    openRecent->actions().first()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 5, 60000);
    QCOMPARE(w.comparison()->ranks().size(), size_t(5));
    QCOMPARE(recent.jobs().size(), 1);
    // What was set for the job before the file was added belongs to the job with it.
    QCOMPARE(w.deviceMemoryText(), QStringLiteral("16GiB"));
    w.setDeviceMemory({});
}

// Pinned host memory (record_host=True) gets its own column, shown only for a job that recorded it; the GPUs' verdict
// never counts it (host_memory_balanced_4: rank 3 pins 12 times as much).
void TestMainWindow::pinnedHostMemoryBesideTheGpus()
{
    MainWindow w;
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/host_memory_balanced_4") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 4, 60000);
    QCOMPARE(w.comparison()->verdict().kind, Verdict::Balanced);
    QVERIFY(!w.rankTable()->isColumnHidden(RankListModel::HostColumn));
    QStringList shown;
    for (int row = 0; row < w.rankModel()->rowCount(); ++row)
        shown << w.rankModel()->index(row, RankListModel::HostColumn).data().toString();
    shown.sort();
    QCOMPARE(shown,
        (QStringList { QStringLiteral("512 MiB"), QStringLiteral("512 MiB"), QStringLiteral("512 MiB"),
            QStringLiteral("6 GiB") }));
    const QString tip = w.rankModel()->index(0, RankListModel::HostColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QLatin1String("never compared with the GPUs")), qPrintable(tip));

    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2") });
    QTRY_VERIFY_WITH_TIMEOUT(
        settled(w) && w.rankModel()->loadedCount() == 2 && w.comparison() && w.comparison()->ranks().size() == 2,
        60000);
    QVERIFY(w.rankTable()->isColumnHidden(RankListModel::HostColumn));
    QVERIFY(w.rankModel()->index(0, RankListModel::HostColumn).data().toString().isEmpty());
}

// A folder of several training steps (torchtitan's iteration_<N>/) opens the latest step's ranks, never ranks made of
// steps, and the step box opens another step.
void TestMainWindow::stepFoldersAreSteps()
{
    MainWindow w;
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/steps_burden_3") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 3, 60000);
    QCOMPARE(w.rankModel()->rowCount(), 3);
    QCOMPARE(w.comparison()->verdict().kind, Verdict::BurdenImbalance);
    QCOMPARE(w.comparison()->verdict().rank, 2);
    QComboBox* steps = named<QComboBox>(w, QStringLiteral("Training step"));
    QVERIFY(steps);
    QVERIFY(!steps->isHidden());
    QCOMPARE(steps->count(), 2);
    QCOMPARE(steps->currentText(), QStringLiteral("20"));
    emit steps->activated(steps->findText(QStringLiteral("10")));
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 3, 60000);
    QCOMPARE(w.rankModel()->rowCount(), 3);
    QCOMPARE(steps->currentText(), QStringLiteral("10"));
    QCOMPARE(w.comparison()->verdict().kind, Verdict::Balanced);

    // A job of one step has no step box.
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 2, 60000);
    QVERIFY(steps->isHidden());
}

// A fragmentation verdict: the rank's block map hatches the free spans between live blocks that are smaller than
// the failed request, the other map none; they add up to the free space the verdict names.
void TestMainWindow::fragmentationMarksSmallFreeSpans()
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/fragmentation_oom_4") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 4, 60000);
    const Verdict& v = w.comparison()->verdict();
    QCOMPARE(v.kind, Verdict::Fragmentation);
    QCOMPARE(w.rankA(), v.rank);
    QTRY_VERIFY(w.blockMap(0)->tooSmallGapCount() > 0);
    QCOMPARE(w.blockMap(1)->tooSmallGapCount(), 0);

    // At the OOM itself, every gap is too small and together they are the free space in reserve.
    const AllocatorState state =
        w.comparison()
            ->history(size_t(w.comparison()->rankIndex(v.rank)))
            .stateAt(
                EventIndex(w.comparison()->history(size_t(w.comparison()->rankIndex(v.rank))).ooms().back().event));
    const FreeSpace free = state.freeInUsedSegments();
    int64_t sum = 0;
    for (const FreeSpace::Gap& g : free.gaps) {
        QVERIFY(g.size < v.oomRequestedBytes);
        sum += g.size;
    }
    QCOMPARE(sum, v.freeInReserveBytes);
}

// Every rank out of memory alike: no finding, so the window shows what fills rank A's GPU (the What-if tab, the trees
// and the flame graph of everything it holds) and the failed request's stack; a job with findings goes back to them.
void TestMainWindow::midStepJobOpensWhereRanksDiffer()
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/midstep_input_4") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 4, 60000);
    QCOMPARE(w.comparison()->verdict().kind, Verdict::InputImbalance);
    QCOMPARE(w.comparison()->verdict().rank, 2);
    QCOMPARE(w.comparison()->moment().reason, Moment::MidStep);
    QCOMPARE(w.rankA(), 2);
    QComboBox* point = nullptr;
    for (QComboBox* combo : w.findChildren<QComboBox*>()) {
        if (combo->findData(QStringLiteral("aligned")) >= 0)
            point = combo;
    }
    QVERIFY(point);
    const QString own = point->itemText(0);
    QVERIFY2(own.contains(QLatin1String("mid-step")), qPrintable(own));
    QCOMPARE(point->currentIndex(), 0);
    QVERIFY(!w.banner()->text().contains(QLatin1String("job's own moment")));

    // At each rank's own peak the ranks are alike; the banner says what the job's own moment shows.
    point->setCurrentIndex(point->findData(QStringLiteral("peak")));
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.comparison()->pointName() == "peak", 30000);
    QCOMPARE(w.comparison()->verdict().kind, Verdict::Balanced);
    QVERIFY2(w.banner()->text().contains(QLatin1String("job's own moment")), qPrintable(w.banner()->text()));
    QVERIFY(w.banner()->text().contains(QLatin1String("Input imbalance on rank 2")));
    // The first item still names where "aligned" looks, not the point now compared.
    QCOMPARE(point->itemText(0), own);
    point->setCurrentIndex(0);
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.comparison()->moment().reason == Moment::MidStep, 30000);
    QVERIFY(!w.banner()->text().contains(QLatin1String("job's own moment")));
}

void TestMainWindow::overCapacityShowsWhatFillsTheGpu()
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/capacity_loss_4") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 4, 60000);
    const Verdict& v = w.comparison()->verdict();
    QCOMPARE(v.kind, Verdict::OverCapacity);
    QCOMPARE(v.rank, -1);
    QCOMPARE(w.rankA(), v.figuresRank);
    QVERIFY(w.banner()->text().startsWith(QStringLiteral("Over capacity: ranks 0\u20133")));
    QVERIFY(w.banner()->text().contains(QLatin1String("log_softmax")));
    QVERIFY(w.stackPane()->text().contains(QLatin1String("ran out of memory")));
    QVERIFY(w.stackPane()->text().contains(QLatin1String("log_softmax")));
    // In another language the failed request's header is said in it at once, not when it is shown again.
    {
        const auto english = qScopeGuard([] { Appearance::setLanguage(QString()); });
        Appearance::setLanguage(QStringLiteral("zh_CN"));
        QTRY_VERIFY2(w.stackPane()->text().contains(QStringLiteral("耗尽显存")), qPrintable(w.stackPane()->text()));
        QVERIFY(w.stackPane()->text().contains(QLatin1String("log_softmax")));
    }
    QTRY_VERIFY(w.stackPane()->text().contains(QLatin1String("ran out of memory")));
    // Another rank as A: the stack pane follows it to that rank's failed request, as the What if tab does.
    const int firstA = w.rankA();
    QVERIFY2(w.stackPane()->text().startsWith(QStringLiteral("Rank %1 ran out of memory").arg(firstA)),
        qPrintable(w.stackPane()->text()));
    const int otherA = firstA == 2 ? 3 : 2;
    w.setRanks(otherA, w.rankB());
    QTRY_VERIFY2(w.stackPane()->text().startsWith(QStringLiteral("Rank %1 ran out of memory").arg(otherA)),
        qPrintable(w.stackPane()->text()));
    w.setRanks(firstA, w.rankB() == firstA ? otherA : w.rankB());
    QTRY_VERIFY(w.stackPane()->text().startsWith(QStringLiteral("Rank %1 ran out of memory").arg(firstA)));
    auto* tabs = w.findChild<QTabWidget*>();
    auto* whatIf = w.findChild<WhatIfView*>();
    QVERIFY(tabs && whatIf);
    QCOMPARE(tabs->currentWidget(), whatIf);
    QTRY_VERIFY(!whatIf->isBusy() && whatIf->model()->rowCount() > 0);
    QCOMPARE(whatIf->model()->holdings().whatIf.size(), w.comparison()->verdictHoldings().whatIf.size());
    // The trees show everything rank A holds, the flame graph says so.
    tabs->setCurrentIndex(1);
    QTreeView* topDown = qobject_cast<QTreeView*>(tabs->currentWidget());
    QVERIFY(topDown);
    const auto* tree = static_cast<const ExcessTreeModel*>(topDown->model());
    QCOMPARE(tree->scope(), ExcessTree::Everything);
    QCOMPARE(tree->root()->inclusiveBytes,
        w.comparison()->ranks()[size_t(w.comparison()->rankIndex(w.rankA()))].bytesAtPoint);

    // A job with findings: back to them, and to the excess.
    tabs->setCurrentWidget(whatIf);
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 2, 60000);
    QCOMPARE(tabs->currentIndex(), 0);
    QCOMPARE(tree->scope(), ExcessTree::Excess);
}

// A rank that keeps tensors from one step to the next: the earlier steps are read next to the ranks, the verdict is
// growth, and each rank's peak per step is drawn, until a job of one step hides it again.
void TestMainWindow::growthAcrossSteps()
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/growth_steps_4") });
    QTRY_VERIFY_WITH_TIMEOUT(
        settled(w) && w.rankModel()->loadedCount() == 4 && w.comparison()->verdict().kind == Verdict::Growth, 60000);
    QCOMPARE(w.comparison()->verdict().rank, 1);
    auto* chart = w.findChild<StepPeaksChart*>();
    QVERIFY(chart);
    QTRY_VERIFY(chart->isVisible());
    QCOMPARE(chart->plot()->graphCount(), 4);
    for (int g = 0; g < chart->plot()->graphCount(); ++g)
        QCOMPARE(chart->plot()->graph(g)->data()->size(), 3);
    // The growing rank is drawn last, over the others, climbing.
    const QCPGraph* top = chart->plot()->graph(chart->plot()->graphCount() - 1);
    QVERIFY(top->data()->at(2)->value > top->data()->at(0)->value);
    // The legend names it first (A too here), then the others, one line alike for all.
    QCOMPARE(top->name(), QStringLiteral("Rank 1 (A, grows)"));
    QCOMPARE(chart->plot()->legend->itemCount(), 3);
    QCOMPARE(chart->plot()->legend->itemWithPlottable(top), chart->plot()->legend->item(0));
    QCOMPARE(qobject_cast<QCPPlottableLegendItem*>(chart->plot()->legend->item(2))->plottable()->name(),
        StepPeaksChart::tr("%n other rank(s)", nullptr, 2));
    // As tall as its lines need to be told apart, and every step labelled where they fit.
    QVERIFY(chart->height() >= 150);
    chart->plot()->replot();
    QCOMPARE(chart->plot()->xAxis->tickVectorLabels(),
        QVector<QString>({ QStringLiteral("10"), QStringLiteral("20"), QStringLiteral("30") }));

    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 2, 60000);
    QVERIFY(!chart->isVisible());
}

// A job's parallel layout: its ranks' coordinates in the table, replicas compared with each other, remembered for the
// job's folder; a layout that does not fit the ranks is said in the banner, never silently used.
void TestMainWindow::parallelLayoutPerJob()
{
    const QString folder = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/pp2_dp4_burden_8");
    MainWindow w;
    w.openPaths({ folder });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 8, 60000);
    // Guessed from the stages' sites, and said so.
    QVERIFY(w.comparison()->layout() && w.comparison()->layout()->suggested);
    QCOMPARE(w.comparison()->verdict().rank, 6);
    QTreeView* table = nullptr;
    for (QTreeView* view : w.findChildren<QTreeView*>()) {
        const auto* proxy = qobject_cast<const QAbstractProxyModel*>(view->model());
        if (proxy && proxy->sourceModel() == w.rankModel())
            table = view;
    }
    QVERIFY(table);
    QVERIFY(!table->isColumnHidden(RankListModel::CoordinatesColumn));

    w.setLayout(QStringLiteral("pp=2,dp=4"));
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.comparison()->layout() && !w.comparison()->layout()->suggested, 60000);
    QCOMPARE(w.comparison()->verdict().kind, Verdict::BurdenImbalance);
    for (int row = 0; row < w.rankModel()->rowCount(); ++row) {
        const int rank = w.rankModel()->index(row, RankListModel::RankColumn).data().toInt();
        QCOMPARE(w.rankModel()->index(row, RankListModel::CoordinatesColumn).data().toString(),
            QStringLiteral("pp=%1 dp=%2").arg(rank / 4).arg(rank % 4));
    }
    // Stages differ by design: no finding against stage 0.
    for (const Finding& f : w.comparison()->findings())
        QCOMPARE(f.rank, 6);

    // Remembered for this folder, not for another job.
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 2, 60000);
    QVERIFY(w.layoutText().isEmpty());
    QVERIFY(!w.comparison()->layout());
    QVERIFY(table->isColumnHidden(RankListModel::CoordinatesColumn));
    w.setLayout(QStringLiteral("pp=2,dp=4"));
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && !w.comparison()->layout(), 60000);
    auto* banner = w.findChild<VerdictBanner*>();
    QVERIFY(banner);
    // The job's own words, as the command line and the MCP server say them.
    ComparisonOptions eight;
    eight.layout = ParallelLayout::parse("pp=2,dp=4", nullptr);
    const std::string words = Job({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2") }).check(eight).text();
    QCOMPARE(words, std::string("layout pp=2,dp=4: 8 ranks, but 2 snapshot files are given"));
    QTRY_VERIFY(banner->text().contains(QString::fromStdString(words)));
    w.setLayout(QString());
    w.openPaths({ folder });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 8, 60000);
    QCOMPARE(w.layoutText(), QStringLiteral("pp=2,dp=4"));
    QVERIFY(w.comparison()->layout() && !w.comparison()->layout()->suggested);
    w.setLayout(QString()); // leave the settings as they were
}

// Each GPU's total, which snapshots do not record: given for a job, the banner says how much of an OOM's device is
// outside PyTorch, and the job remembers it.
void TestMainWindow::deviceMemoryPerJob()
{
    const QString folder = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/oom_outside_4");
    MainWindow w;
    w.openPaths({ folder });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 4, 60000);
    auto* banner = w.findChild<VerdictBanner*>();
    QVERIFY(banner->text().contains(QLatin1String("does not record the device's total memory")));
    w.setDeviceMemory(QStringLiteral("16GiB"));
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.comparison()->verdict().deviceMemoryBytes == (int64_t(16) << 30), 60000);
    QTRY_VERIFY(banner->text().contains(QLatin1String("Of the device's 16 GiB")));
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 2, 60000);
    w.openPaths({ folder });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.rankModel()->loadedCount() == 4, 60000);
    QCOMPARE(w.comparison()->verdict().deviceMemoryBytes, int64_t(16) << 30);
    w.setDeviceMemory(QString()); // leave the settings as they were
}

// Choosing one thing does not undo another: a baseline chosen after a swap keeps the swapped ranks; clicking the
// selected finding again after an allocation's stack was shown brings the finding's stack back.
void TestMainWindow::optionsAndClicksKeepEachOther()
{
    // The window's own layout, not one an earlier test's 1280×720 window saved (its ranks' column fitted to the
    // table's key columns leaves the findings' options folded at 1600 px).
    QSettings().remove(QStringLiteral("window"));
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    w.openExample();
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    const int a = w.rankA();
    const int b = w.rankB();
    w.swapRanks();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 30000);
    QComboBox* baseline = named<QComboBox>(w, QStringLiteral("Baseline"));
    QVERIFY(baseline);
    baseline->setCurrentIndex(1); // rank B
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.comparison()->options().baselineRank == a, 30000);
    QCOMPARE(w.rankA(), b);
    QCOMPARE(w.rankB(), a);
    baseline->setCurrentIndex(0);
    QTRY_VERIFY_WITH_TIMEOUT(settled(w) && w.comparison()->options().baselineRank == -1, 30000);
    QCOMPARE(w.rankA(), b);

    // An allocation's stack, then the selected finding clicked again: its stack is back.
    QTreeView* findings = w.findingsView();
    QTRY_VERIFY(findings->model()->rowCount() > 0);
    findings->setCurrentIndex(findings->model()->index(0, 0));
    const QString findingStack = w.stackPane()->text();
    emit w.timelines()->allocationClicked(0, 0);
    QTRY_VERIFY(w.stackPane()->text() != findingStack);
    const QRect row = findings->visualRect(findings->model()->index(0, 0));
    QTest::mouseClick(findings->viewport(), Qt::LeftButton, {}, row.center());
    QTRY_COMPARE(w.stackPane()->text(), findingStack);

    // The window's shortcuts work from the filter and from a spin box: Ctrl+E opens the export dialog.
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    for (const QString& name : { QStringLiteral("Filter findings"), QStringLiteral("Outlier threshold") }) {
        QWidget* field = named<QWidget>(w, name);
        QVERIFY(field);
        if (auto* spin = qobject_cast<QAbstractSpinBox*>(field))
            field = spin->findChild<QLineEdit*>();
        QApplication::setActiveWindow(&w); // again: the dialog of the field before took it
        field->setFocus();
        QTRY_VERIFY2(field->hasFocus(), qPrintable(name + QStringLiteral(" visible %1").arg(field->isVisible())));
        bool opened = false;
        QTimer::singleShot(300, &w, [&opened] {
            if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) {
                opened = true;
                dialog->reject();
            }
        });
        QTest::keyClick(field, Qt::Key_E, Qt::ControlModifier);
        QTRY_VERIFY2(opened, qPrintable(name));
    }
}

// Where the platform binds Ctrl+E to "end of line" (X11), a text field would claim the shortcut; the window keeps
// it (the field does not accept the shortcut override), while editing keys stay the field's.
void TestMainWindow::fieldsLeaveTheWindowsShortcuts()
{
    MainWindow w;
    w.show();
    w.openExample();
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    QLineEdit* filter = named<QLineEdit>(w, QStringLiteral("Filter findings"));
    QVERIFY(filter);
    const auto claimed = [filter](int key, Qt::KeyboardModifiers modifiers) {
        QKeyEvent override(QEvent::ShortcutOverride, key, modifiers);
        override.ignore();
        QCoreApplication::sendEvent(filter, &override);
        return override.isAccepted();
    };
    QVERIFY(!claimed(Qt::Key_E, Qt::ControlModifier));
    filter->setText(QStringLiteral("metrics"));
    QVERIFY(claimed(Qt::Key_A, Qt::ControlModifier)); // select all stays the field's
}

void TestMainWindow::layoutAtScreenSizes_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1920x1080") << QSize(1920, 1080);
    QTest::newRow("3840x2160") << QSize(3840, 2160);
}

// The window fits each screen, the timelines get their room first (each plot at least 140 px high), the block maps
// and the findings stay usable, and no box is narrower than its text. A job of 24 findings with a long verdict: at
// 1280×720 six findings rows in sight, every tab's label whole, the verdict's details read without the window growing
// past the screen (and the room given back); on a 4K screen the ranks' column and its stack take their share.
void TestMainWindow::layoutAtScreenSizes()
{
    QFETCH(QSize, size);
    MainWindow w;
    w.resize(size);
    w.show();
    w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/midstep_input_4") });
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), 60000);
    QApplication::processEvents();
    const auto why = [&w] {
        QString text =
            QStringLiteral("window minimum %1x%2;").arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height());
        for (QWidget* child : w.findChildren<QWidget*>()) {
            const QSize min = child->minimumSizeHint().expandedTo(child->minimumSize());
            if (child->isVisible() && (min.width() > 500 || min.height() > 300))
                text += QStringLiteral(" %1(%2) %3x%4;")
                            .arg(QLatin1String(child->metaObject()->className()), child->objectName())
                            .arg(min.width())
                            .arg(min.height());
        }
        return text;
    };
    QVERIFY2(w.size() == size, qPrintable(why()));
    const QList<QCPAxisRect*> rects = w.timelines()->findChild<QCustomPlot*>()->axisRects();
    QCOMPARE(rects.size(), 2);
    for (QCPAxisRect* rect : rects)
        QVERIFY2(rect->height() >= TimelineView::MinimumTrackHeight, qPrintable(QString::number(rect->height())));
    for (int i = 0; i < 2; ++i)
        QVERIFY(w.blockMap(i)->height() >= 90);
    for (QWidget* box : w.findChildren<QWidget*>()) {
        if ((qobject_cast<QComboBox*>(box) || qobject_cast<QAbstractSpinBox*>(box)) && box->isVisible())
            QVERIFY2(box->width() >= box->minimumSizeHint().width(), qPrintable(box->accessibleName()));
    }
    // The point and rank boxes in the menu bar's corner are as wide as their text once the comparison filled them.
    QWidget* corner = w.menuBar()->cornerWidget(Qt::TopRightCorner);
    QVERIFY(corner);
    QVERIFY2(corner->width() >= corner->sizeHint().width(),
        qPrintable(QStringLiteral("%1 < %2").arg(corner->width()).arg(corner->sizeHint().width())));

    // The rank table shows each rank's peak, its figure at the point and its excess without scrolling, whole.
    QTreeView* ranksTable = w.rankTable();
    const QString cut = keyColumnsCut(ranksTable);
    QVERIFY2(cut.isEmpty(), qPrintable(cut));
    QCOMPARE(ranksTable->header()->visualIndex(RankListModel::FileColumn), RankListModel::NUM_COLUMNS - 1);
    // On a 4K screen the column grows to show every figure the table shows, without scrolling.
    if (size.width() >= 3840)
        QVERIFY2(ranksTable->horizontalScrollBar()->maximum() == 0,
            qPrintable(QStringLiteral("%1 px of %2 in sight")
                           .arg(ranksTable->viewport()->width())
                           .arg(ranksTable->viewport()->width() + ranksTable->horizontalScrollBar()->maximum())));

    // Six findings in sight, not three.
    QTreeView* findings = w.findingsView();
    QVERIFY(findings->model()->rowCount() >= 6);
    QVERIFY(findings->isVisible());
    const int rowHeight = findings->visualRect(findings->model()->index(0, 0)).height();
    QVERIFY(rowHeight > 0);
    QVERIFY2(findings->viewport()->height() / rowHeight >= 6,
        qPrintable(QStringLiteral("%1 rows of %2 px in %3 px")
                       .arg(findings->viewport()->height() / rowHeight)
                       .arg(rowHeight)
                       .arg(findings->viewport()->height())));
    // The site takes what the figures leave, up to its longest text, so that on a wide screen the figures stay beside
    // the site they measure; the figures whole, inside the view.
    {
        QHeaderView* header = findings->header();
        const int site = header->sectionSize(FindingsModel::SiteColumn);
        const QAbstractItemView* view = findings; // QTreeView's sizeHintForColumn is protected
        const int text = std::max(
            view->sizeHintForColumn(FindingsModel::SiteColumn), header->sectionSizeHint(FindingsModel::SiteColumn));
        QVERIFY2(site <= text, qPrintable(QStringLiteral("site %1 px for %2 px of text").arg(site).arg(text)));
        int figures = 0;
        int right = 0;
        for (int column = 0; column < FindingsModel::NUM_COLUMNS; ++column) {
            if (findings->isColumnHidden(column) || column == FindingsModel::SiteColumn)
                continue;
            QVERIFY(header->sectionSize(column) >= view->sizeHintForColumn(column));
            figures += header->sectionSize(column);
            right = std::max(right, header->sectionViewportPosition(column) + header->sectionSize(column));
        }
        // Where the site's line and the figures fit side by side, they are: the site whole, the figures in the view.
        if (text + figures <= findings->viewport()->width())
            QVERIFY2(site == text && right <= findings->viewport()->width(),
                qPrintable(QStringLiteral("site %1 of %2 px, figures end at %3 of %4 px")
                               .arg(site)
                               .arg(text)
                               .arg(right)
                               .arg(findings->viewport()->width())));
    }
    // Every tab's label whole: no tab narrower than its text, none past the end of its bar.
    for (QTabBar* tabs : w.findChildren<QTabBar*>()) {
        if (!tabs->isVisible())
            continue;
        for (int i = 0; i < tabs->count(); ++i) {
            const QRect tab = tabs->tabRect(i);
            const int text = tabs->fontMetrics().horizontalAdvance(QString(tabs->tabText(i)).remove(u'&'));
            QVERIFY2(tab.width() >= text && tabs->rect().contains(tab),
                qPrintable(QStringLiteral("tab “%1”: %2 px at %3 for %4 px of text, in a bar of %5 px")
                               .arg(tabs->tabText(i))
                               .arg(tab.width())
                               .arg(tab.x())
                               .arg(text)
                               .arg(tabs->width())));
        }
    }
    // Options that do not fit beside the tabs are one click away.
    QComboBox* baseline = named<QComboBox>(w, QStringLiteral("Baseline"));
    QVERIFY(baseline);
    if (!baseline->isVisible()) {
        QToolButton* options = nullptr;
        for (QToolButton* button : w.findChildren<QToolButton*>()) {
            if (button->text() == QLatin1String("Options") && button->isVisible())
                options = button;
        }
        QVERIFY(options);
        options->click();
        QTRY_VERIFY(baseline->isVisible());
        baseline->window()->hide();
    }
    // The status bar in the window.
    const auto statusInSight = [&w, size] {
        return w.statusBar()->isVisible() && QRect(QPoint(), size).contains(w.statusBar()->geometry());
    };
    QVERIFY(statusInSight());

    // The verdict's details open inside the window, never past the screen, and closed give back every pixel.
    QVERIFY2(w.minimumSizeHint().height() <= size.height(), qPrintable(why()));
    QToolButton* details = w.banner()->findChild<QToolButton*>();
    QVERIFY(details);
    QCOMPARE(details->isVisible(), size.height() < MainWindow::CompactBannerHeight);
    if (details->isVisible()) {
        const QRect findingsBefore(findings->mapTo(&w, QPoint()), findings->size());
        const int bannerBefore = w.banner()->height();
        details->click();
        QApplication::processEvents();
        // Shown, three lines at least, inside the window.
        const QWidget* shown = w.banner()->details();
        QVERIFY(shown && shown->isVisible());
        const QRect shownAt(shown->mapTo(&w, QPoint()), shown->size());
        QVERIFY2(shownAt.height() >= 3 * w.banner()->fontMetrics().height() && w.rect().contains(shownAt),
            qPrintable(QStringLiteral("%1x%2 at %3,%4")
                           .arg(shownAt.width())
                           .arg(shownAt.height())
                           .arg(shownAt.x())
                           .arg(shownAt.y())));
        QVERIFY2(w.size() == size, qPrintable(QStringLiteral("%1x%2; ").arg(w.width()).arg(w.height()) + why()));
        QVERIFY2(w.minimumSizeHint().height() <= size.height(), qPrintable(why()));
        QVERIFY(statusInSight());
        details->click();
        QApplication::processEvents();
        QCOMPARE(w.size(), size);
        QCOMPARE(w.banner()->height(), bannerBefore);
        QCOMPARE(QRect(findings->mapTo(&w, QPoint()), findings->size()), findingsBefore);
        QVERIFY(statusInSight());
    }

    // On a large screen the extra room goes to the comparison and to the ranks' column with its stack, whose lines
    // are then whole.
    if (size.width() >= 3840) {
        QVERIFY(w.timelines()->width() > w.width() / 2);
        QWidget* ranks = w.rankTable()->parentWidget();
        while (ranks && !qobject_cast<RanksPanel*>(ranks))
            ranks = ranks->parentWidget();
        QVERIFY(ranks);
        QVERIFY2(ranks->width() >= w.width() / 4, qPrintable(QString::number(ranks->width())));
        // Every column of the rank table in sight, none cut: no horizontal scrolling.
        QVERIFY2(!ranksTable->horizontalScrollBar()->isVisible() || ranksTable->horizontalScrollBar()->maximum() == 0,
            qPrintable(QStringLiteral("%1 px of columns in %2")
                           .arg(ranksTable->header()->length())
                           .arg(ranksTable->viewport()->width())));
        QVERIFY2(w.stackPane()->width() >= w.width() / 4, qPrintable(QString::number(w.stackPane()->width())));
        auto* stack = w.stackPane()->findChild<QPlainTextEdit*>();
        QVERIFY(stack);
        const QStringList lines = stack->toPlainText().split(u'\n');
        QVERIFY(lines.size() > 3);
        for (const QString& line : lines)
            QVERIFY2(stack->fontMetrics().horizontalAdvance(line) <= stack->viewport()->width(),
                qPrintable(QStringLiteral("“%1”: %2 px in %3")
                               .arg(line)
                               .arg(stack->fontMetrics().horizontalAdvance(line))
                               .arg(stack->viewport()->width())));
    }
}

// A window remembered larger than the screen, or partly off it (another screen, since unplugged), opens inside it:
// the status bar in sight.
// At 1280×720 the 64-rank job's table shows its key columns whole beside the rows' scroll bar, and six ranks or more,
// in English and in Chinese, whose titles are wider ("Rank 编号"), also after switching the language in the open
// window.
void TestMainWindow::rankTableFitsAShortScreen()
{
    const auto english = qScopeGuard([] { Appearance::setLanguage(QString()); });
    for (const QString& language : { QString(), QStringLiteral("zh_CN") }) {
        Appearance::setLanguage(language);
        MainWindow w;
        QAbstractItemModelTester tester(w.rankModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.resize(1280, 720);
        w.show();
        w.openPaths({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/capacity_loss_outlier_64") });
        QTRY_VERIFY_WITH_TIMEOUT(settled(w), 120000);
        QApplication::processEvents();
        QTreeView* table = w.rankTable();
        QCOMPARE(table->model()->rowCount(), 64);
        QVERIFY(table->verticalScrollBar()->isVisible());
        QString cut = keyColumnsCut(table);
        QVERIFY2(cut.isEmpty(), qPrintable(language + QLatin1Char(' ') + cut));
        const int rowHeight = table->visualRect(table->model()->index(0, 0)).height();
        QVERIFY2(rowHeight > 0 && table->viewport()->height() / rowHeight >= 6,
            qPrintable(QStringLiteral("%1 px rows in %2 px").arg(rowHeight).arg(table->viewport()->height())));
        // The timelines' legend whole, however many rows it takes at this width.
        for (LegendStrip* legend : w.findChildren<LegendStrip*>()) {
            if (legend->isVisible())
                QVERIFY2(legend->height() >= legend->heightForWidth(legend->width()),
                    qPrintable(QStringLiteral("legend %1 px high, needs %2: %3")
                                   .arg(legend->height())
                                   .arg(legend->heightForWidth(legend->width()))
                                   .arg(legend->texts().join(QLatin1String(", ")))));
        }
        // The other language in the same window: the titles change width, the columns follow.
        Appearance::setLanguage(language.isEmpty() ? QStringLiteral("zh_CN") : QString());
        QApplication::processEvents();
        QCOMPARE(table->model()->headerData(RankListModel::RankColumn, Qt::Horizontal).toString(),
            language.isEmpty() ? QStringLiteral("Rank 编号") : QStringLiteral("Rank"));
        cut = keyColumnsCut(table);
        QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("switched from “%1”: ").arg(language) + cut));
    }
}

void TestMainWindow::restoredWindowFitsTheScreen()
{
    const QRect available = QApplication::primaryScreen()->availableGeometry();
    {
        MainWindow big;
        big.setGeometry(QRect(available.topLeft() + QPoint(200, 150), available.size() + QSize(900, 700)));
    }
    // The destructor saved it; the next window restores it, inside the screen (or as small as the window can be,
    // where the test's screen is smaller than that).
    MainWindow w;
    const QSize most = available.size().expandedTo(w.minimumSizeHint());
    const QString where = QStringLiteral("%1x%2 at %3,%4 on %5x%6")
                              .arg(w.width())
                              .arg(w.height())
                              .arg(w.x())
                              .arg(w.y())
                              .arg(available.width())
                              .arg(available.height());
    QVERIFY2(w.width() <= most.width() && w.height() <= most.height(), qPrintable(where));
    QVERIFY2(available.contains(w.geometry().topLeft()), qPrintable(where));
    if (available.size() == most)
        QVERIFY2(available.contains(w.geometry()), qPrintable(where));
}

// A folder with neither snapshots nor step reports (a readme, or nothing) says so in a dialog, and opens no window.
void TestMainWindow::nothingToOpen()
{
    QTemporaryDir dir;
    QFile readme(dir.filePath(QStringLiteral("readme.txt")));
    QVERIFY(readme.open(QIODevice::WriteOnly));
    readme.write("Snapshots will be copied here after the run.\n");
    readme.close();
    MainWindow w;
    w.show();
    const int windows = QApplication::topLevelWidgets().size();
    w.openPaths({ dir.path() });
    auto* box = w.findChild<QMessageBox*>();
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    QVERIFY2(box->text().contains(QLatin1String("No memory snapshots or step reports")), qPrintable(box->text()));
    QVERIFY(w.showsStartPage());
    QCOMPARE(QApplication::topLevelWidgets().size(), windows + 1); // the box, no step reports window
    box->close();
}

// A window closed while its comparison and views are still computed in the background: the jobs finish into
// nothing (Qt 6.4's QFuture::then asserts when its context died meanwhile, so the app must not use it).
void TestMainWindow::closingWhileJobsRun()
{
    // A block map closed the moment it asked for a state: its layout job is certainly still queued or running.
    const QString example =
        QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples/rank0_memory_snapshot.pickle");
    const SnapshotPtr snapshot = SnapshotReader::read(example).snapshot;
    const DeviceHistoryPtr history = DeviceHistory::build(snapshot, 0);
    for (int i = 0; i < 3; ++i) {
        auto map = std::make_unique<BlockMapView>();
        map->setState(0, QString(), history, history->peakEvent(), SiteOptions {});
        QVERIFY(map->isBusy());
        map.reset();
        Parallel::jobPool()->waitForDone();
        QTest::qWait(20);
    }
    // Whole windows closed once their files are in, while they compare and draw (or just after).
    for (int i = 0; i < 3; ++i) {
        auto w = std::make_unique<MainWindow>();
        w->show();
        w->openExample();
        QTRY_VERIFY_WITH_TIMEOUT(!w->loader()->isRunning(), 60000);
        w.reset();
        Parallel::jobPool()->waitForDone();
        QTest::qWait(50);
    }
}

// A training log dropped on the window (or passed on the command line) opens the step reports, which name the
// diverging rank, step and phase and draw every rank.
void TestMainWindow::stepLogsOpenInTheirWindow()
{
    MainWindow w;
    w.show();
    w.openPaths({ QStringLiteral(RANKSCOPE_TEST_DATA_DIR "/logs/torchrun_interleaved.log") });
    QVERIFY(w.showsStartPage()); // the snapshot side is untouched
    StepsWindow* steps = topLevel<StepsWindow>();
    QVERIFY(steps);
    QTRY_VERIFY_WITH_TIMEOUT(!steps->isBusy() && !steps->view()->analysis().ranks.empty(), 20000);
    const QString summary = steps->view()->summary();
    QVERIFY2(summary.contains(QLatin1String("Rank 3 departs first at step 40 (train)")), qPrintable(summary));
    QVERIFY(summary.contains(QLatin1String("input imbalance")));
    QCOMPARE(steps->view()->memoryPlot()->graphCount(), 8); // peak and current for 4 ranks, one phase
    QCOMPARE(steps->view()->inputPlot()->plottableCount(), 1);
    {
        QTreeWidget* table = steps->view()->rankTable();
        QAbstractItemModelTester tester(table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(table->topLevelItemCount(), 4);
        QVERIFY(table->topLevelItem(3)->font(0).bold());
        QVERIFY(!table->topLevelItem(0)->font(0).bold());
    }
    saveShot(steps, "RANKSCOPE_SCREENSHOT_STEPS");
    steps->close();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);

    // A folder of logs, one per rank, opens the same way.
    w.openPaths({ QStringLiteral(RANKSCOPE_TEST_DATA_DIR "/logs/per_rank") });
    steps = topLevel<StepsWindow>();
    QVERIFY(steps);
    QTRY_VERIFY_WITH_TIMEOUT(!steps->isBusy() && !steps->view()->analysis().ranks.empty(), 20000);
    QVERIFY2(steps->view()->summary().contains(QLatin1String("Rank 0 departs first at step 0 (eval)")),
        qPrintable(steps->view()->summary()));
    QVERIFY(steps->view()->summary().contains(QLatin1String("burden imbalance")));
    steps->close();
}

// Before and after a fix, from snapshots and from logs: fixed, or not.
void TestMainWindow::beforeAndAfterRuns()
{
    MainWindow w;
    const QString scenarios = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/");
    BeforeAfterWindow* window =
        w.compareBeforeAfter({ scenarios + QLatin1String("burden_8") }, { scenarios + QLatin1String("balanced_8") });
    QTRY_VERIFY_WITH_TIMEOUT(!window->isBusy() && window->view()->summary().ranks.size() == 8, 60000);
    QVERIFY2(window->view()->headline().startsWith(QLatin1String("Fixed")), qPrintable(window->view()->headline()));
    QCOMPARE(window->view()->items()->topLevelItemCount(), 1);
    QCOMPARE(window->view()->items()->topLevelItem(0)->text(3), QStringLiteral("gone"));
    QCOMPARE(window->view()->plot()->plottableCount(), 2);
    saveShot(window, "RANKSCOPE_SCREENSHOT_BEFORE_AFTER");
    window->close();

    window = w.compareBeforeAfter({ scenarios + QLatin1String("burden_8") }, { scenarios + QLatin1String("input_8") });
    QTRY_VERIFY_WITH_TIMEOUT(window && !window->isBusy() && !window->view()->summary().ranks.empty(), 60000);
    QVERIFY(window->view()->headline().startsWith(QLatin1String("Not fixed")));
    window->close();

    // Logs: the torchrun job before, and the same job with equal sequence lengths after.
    QTemporaryDir dir;
    QFile fixedLog(dir.filePath(QStringLiteral("after.log")));
    QVERIFY(fixedLog.open(QIODevice::WriteOnly));
    for (int step = 0; step < 80; step += 10) {
        for (int r = 0; r < 4; ++r)
            fixedLog.write(QStringLiteral("[rank%1]:[train] rank=%1 step=%2 shape=(8, 2048) cur=10240.0MiB "
                                          "peak=%3MiB\n")
                               .arg(r)
                               .arg(step)
                               .arg(61000 + step * 8 + r * 11)
                               .toUtf8());
    }
    fixedLog.close();
    window = w.compareBeforeAfter(
        { QStringLiteral(RANKSCOPE_TEST_DATA_DIR "/logs/torchrun_interleaved.log") }, { fixedLog.fileName() });
    QTRY_VERIFY_WITH_TIMEOUT(window && !window->isBusy() && !window->view()->summary().ranks.empty(), 20000);
    QVERIFY(window->view()->summary().fromLogs);
    QVERIFY2(window->view()->headline().startsWith(QLatin1String("Fixed")), qPrintable(window->view()->headline()));
    QCOMPARE(window->view()->items()->topLevelItem(0)->text(0), QStringLiteral("rank 3 at step 40 (train)"));
    window->close();
}

// Help → Keyboard Shortcuts lists every shortcut the window has, read from its actions: each menu action's keys and
// words, the zoom history's Alt+Left and Alt+Right, the timelines' own keys; in Chinese too.
void TestMainWindow::keyboardShortcutsListed()
{
    MainWindow w;
    w.show();
    const QList<ShortcutsDialog::Entry> entries = ShortcutsDialog::entries(&w);
    const auto listed = [&](const QKeySequence& key) {
        return std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.keys.contains(key); });
    };
    QVERIFY(listed(QKeySequence(Qt::CTRL | Qt::Key_F)));
    QVERIFY(listed(QKeySequence(Qt::ALT | Qt::Key_Left)));
    QVERIFY(listed(QKeySequence(Qt::ALT | Qt::Key_Right)));
    QVERIFY(listed(QKeySequence(Qt::Key_Home)));
    QVERIFY(listed(QKeySequence(Qt::Key_Y)));
    int menuShortcuts = 0;
    std::function<void(const QMenu*, const QString&)> walk = [&](const QMenu* menu, const QString& group) {
        for (QAction* action : menu->actions()) {
            if (action->menu()) {
                walk(action->menu(), group + QStringLiteral(" → ") + action->menu()->title().remove(u'&'));
                continue;
            }
            if (action->shortcuts().isEmpty())
                continue;
            ++menuShortcuts;
            const QString text = action->text().remove(u'&');
            QVERIFY2(
                std::any_of(entries.begin(), entries.end(),
                    [&](const auto& e) { return e.group == group && e.text == text && e.keys == action->shortcuts(); }),
                qPrintable(group + QStringLiteral(": ") + text));
        }
    };
    for (QAction* top : w.menuBar()->actions()) {
        if (top->menu())
            walk(top->menu(), top->menu()->title().remove(u'&'));
    }
    QVERIFY(menuShortcuts >= 15);

    // Help → Keyboard Shortcuts (F1) shows them in a dialog, a row each.
    QAction* help = nullptr;
    for (QAction* action : w.menuBar()->actions().last()->menu()->actions()) {
        if (action->shortcut() == QKeySequence(QKeySequence::HelpContents))
            help = action;
    }
    QVERIFY(help);
    help->trigger();
    auto* dialog = w.findChild<ShortcutsDialog*>();
    QVERIFY(dialog && dialog->isVisible());
    QTreeWidget* tree = dialog->tree();
    const auto rows = [tree](const QKeySequence& key) {
        const QString keys = key.toString(QKeySequence::NativeText);
        QStringList found;
        for (int g = 0; g < tree->topLevelItemCount(); ++g) {
            for (int i = 0; i < tree->topLevelItem(g)->childCount(); ++i) {
                const QTreeWidgetItem* row = tree->topLevelItem(g)->child(i);
                if (row->text(1).split(QStringLiteral(", ")).contains(keys))
                    found << tree->topLevelItem(g)->text(0) + QLatin1Char('/') + row->text(0);
            }
        }
        return found;
    };
    const QKeySequence find(Qt::CTRL | Qt::Key_F);
    const QKeySequence back(Qt::ALT | Qt::Key_Left);
    QCOMPARE(rows(find), QStringList { QStringLiteral("Compare/Find…") });
    QCOMPARE(rows(back), QStringList { QStringLiteral("View/Zoom Back") });
    QCOMPARE(rows(QKeySequence(Qt::Key_Home)),
        QStringList { QStringLiteral("Memory timelines (when it has the focus)/Reset Zoom") });
    int total = 0;
    for (int g = 0; g < tree->topLevelItemCount(); ++g)
        total += tree->topLevelItem(g)->childCount();
    QCOMPARE(total, int(entries.size() + ShortcutsDialog::mouseGestures().size()));
    // And what the mouse does on the timelines, which no key does.
    QStringList mouse;
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        for (int i = 0; g == tree->topLevelItemCount() - 1 && i < tree->topLevelItem(g)->childCount(); ++i)
            mouse << tree->topLevelItem(g)->child(i)->text(1);
    }
    QCOMPARE(tree->topLevelItem(tree->topLevelItemCount() - 1)->text(0), QStringLiteral("Mouse on the timelines"));
    QVERIFY(mouse.contains(QStringLiteral("Double-click")) && mouse.contains(QStringLiteral("Drag")));

    const auto english = qScopeGuard([] { Appearance::setLanguage(QString()); });
    Appearance::setLanguage(QStringLiteral("zh_CN"));
    QTRY_COMPARE(dialog->windowTitle(), QStringLiteral("键盘快捷键"));
    QTRY_COMPARE(rows(find), QStringList { QStringLiteral("比较/查找…") });
    QCOMPARE(rows(back), QStringList { QStringLiteral("视图/上一缩放视图") });
    dialog->close();
}

// A recent entry is a job: the files opened together, reopened together, the same files in another order the same
// entry; the entries of the time when each path was its own are read as jobs of one path.
void TestMainWindow::recentEntriesAreJobs()
{
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.pickle"));
    const QString b = dir.filePath(QStringLiteral("b.pickle"));
    const QString c = dir.filePath(QStringLiteral("c.pickle"));
    RecentFiles recent;
    recent.clear();
    QSettings().setValue(QStringLiteral("recent/paths"), QStringList { a, b });
    QCOMPARE(recent.jobs(), (QList<QStringList> { { a }, { b } }));
    recent.add({ a, b });
    QCOMPARE(recent.jobs(), (QList<QStringList> { { a, b }, { a }, { b } }));
    QVERIFY(!QSettings().contains(QStringLiteral("recent/paths")));
    recent.add({ b, a }); // the same job
    QCOMPARE(recent.jobs().size(), 3);
    QCOMPARE(recent.jobs().first(), (QStringList { b, a }));
    recent.add({ c });
    recent.extend({ a, b }, { c }); // updated where it is, not moved nor split
    QCOMPARE(recent.jobs(), (QList<QStringList> { { c }, { b, a, c }, { a }, { b } }));
    recent.extend({ a, b }, { c }); // already there
    QCOMPARE(recent.jobs()[1], (QStringList { b, a, c }));
    QCOMPARE(RecentFiles::label({ a, b, c }), a + QStringLiteral(" and 2 more"));
    QCOMPARE(RecentFiles::label({ a }), a);
    // The bundled example is no place on disk: a file added to it is what can be opened again.
    recent.extend({ QStringLiteral(":/examples") }, { c });
    QCOMPARE(recent.jobs().first(), QStringList { c });
    for (int i = 0; i < 20; ++i)
        recent.add({ dir.filePath(QStringLiteral("%1.pickle").arg(i)) });
    QCOMPARE(recent.jobs().size(), 10);
    recent.clear();
    QVERIFY(recent.jobs().isEmpty());
}

RANKSCOPE_TEST_CLASS(TestMainWindow)
#include "tst_mainwindow.moc"
