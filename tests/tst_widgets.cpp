// SPDX-License-Identifier: MIT
// Widgets offscreen: the verdict banner and the per-rank chart, fed by the real models.
#include <qcustomplot.h> // first: it needs `foreach`

#include "alikeranks.h"
#include "annotationranges.h"
#include "blockmapview.h"
#include "chartstyle.h"
#include "comparecolumn.h"
#include "comparison.h"
#include "diffreport.h"
#include "findingsfiltermodel.h"
#include "findingsmodel.h"
#include "findingspanel.h"
#include "findingstableutil.h"
#include "flamegraph.h"
#include "formatting.h"
#include "imageexport.h"
#include "legend.h"
#include "loadedfile.h"
#include "profilerstep.h"
#include "progressdelegate.h"
#include "rankchart.h"
#include "rankfiles.h"
#include "ranklistmodel.h"
#include "rectlayer.h"
#include "sitetable.h"
#include "snapshotreader.h"
#include "stackpane.h"
#include "stacktext.h"
#include "testprogram.h"
#include "testutils.h"
#include "timelinebands.h"
#include "timelineoverview.h"
#include "timelineview.h"
#include "tooltiputil.h"
#include "verdictbanner.h"
#include "verdicttext.h"
#include "whatifmodel.h"
#include "whatifview.h"
#include "zoomhistory.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTreeView>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace RankScope;
using namespace TestUtils;

class TestWidgets : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void verdictBanner();
    void legendTakesTheRowsItNeeds();
    void compareColumnPlacesMapsByHeight();
    void rankChartMarksTheOutlier();
    void oneCategoryOrder();
    void timelineAxesAndHover();
    void onlyTheLeftButtonDrawsAZoomBox();
    void alignedAxisLinesUpTheSameCode();
    void bandsColouredByCategory();
    void detailOnlyForWhatChanged();
    void recycledDetailDrawsTheSame();
    void nearestPixelRoundsHalvesUp();
    void rectLayersFillAsOneRectangleAfterAnother();
    void allocationColorsLookedUp();
    void flameGraphOfTheExcess();
    void outOfMemoryMarkerAndWhatIf();
    void whatIfShowsTheMargin();
    void blockMapLayoutAndHover();
    void blockMapStatesContrast();
    void progressCellCancelButton();
    void stackPaneFoldsAndToggles();
    void crispAtDevicePixelRatio();
    void countLabelsReadAsNumbers();
    void stepLabelsThinOut();
    void timelinesShowEachAllocation_data();
    void timelinesShowEachAllocation();
    void timelinesShareScaleAndZoom();
    void overviewFollowsNewTracks();
    void findingLitAtAnySize();
    void blockMapsShareScaleAndZoom();
    void annotatedRangesLaidOutInRows();
    void annotatedRangesOnTheTimeline();
    void allocationContextInStackAndTooltips();
    void zoomBackAndForward();
    void tooltipsStayInTheWindow();
    void stepLabelsReadOverAnyBand();
    void filterKeepsTheFrameFoundInSight();
    void findingsTableGroupsAlikeRanks();
    void ranksColumnAndItsFilter();
};

namespace {

// Three profiler steps over six events; step 2 is twice as long as step 1 in events.
DeviceHistoryPtr steppedHistory(const QTemporaryDir& dir)
{
    const QByteArray bytes = traceSnapshot(
        {
            { "alloc", 4096, 100, 100 }, // 0
            { "alloc", 8192, 200, 200 }, // 1
            { "free_completed", 4096, 100, 300 }, // 2
            { "alloc", 4096, 400, 400 }, // 3
            { "free_completed", 4096, 400, 500 }, // 4
            { "free_completed", 8192, 200, 600 }, // 5
        },
        {
            { "START", "ProfilerStep#7", 150 }, // after event 0
            { "START", "ProfilerStep#8", 250 }, // after event 1
            { "START", "ProfilerStep#9", 450 }, // after event 3
        });
    return DeviceHistory::build(
        SnapshotReader::read(writeFile(dir, QStringLiteral("steps.pickle"), bytes)).snapshot, 0);
}

// Pixels of exactly `colour` in the timelines' plot, drawn afresh.
int pixelsOf(TimelineView& view, const QColor& colour)
{
    view.plot()->replot();
    const QImage image = view.plot()->toPixmap().toImage();
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            n += image.pixelColor(x, y).rgb() == colour.rgb();
    }
    return n;
}

// Pixels of `colour` in the bottom rows of a track's plot: the rug that marks where the lit site is live.
int rugPixels(TimelineView& view, int track, const QColor& colour)
{
    view.plot()->replot();
    const QImage image = view.plot()->toPixmap().toImage();
    const double scale = double(image.width()) / view.plot()->width();
    const QRect area = view.plot()->axisRect(track)->rect();
    int n = 0;
    for (int y = int((area.bottom() - 2) * scale); y <= int(area.bottom() * scale); ++y) {
        for (int x = int(area.left() * scale); x < int(area.right() * scale); ++x)
            n += image.pixelColor(x, y).rgb() == colour.rgb();
    }
    return n;
}

QList<LoadedFile> examples()
{
    return LoadedFile::loadAll(
        RankFiles::expand({ QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples") }));
}

// A scenario of the fixtures (tests/tools/make_scenarios.py) compared with the default options.
ComparisonPtr compareScenario(const QString& name)
{
    std::vector<RankInput> ranks;
    for (const LoadedFile& f :
        LoadedFile::loadAll(RankFiles::expand({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/") + name })))
        ranks.push_back({ f.rank, f.path, f.snapshot });
    return Comparison::compute(ranks, {});
}

// Share of 2×2 device-pixel cells whose four pixels differ. A picture drawn at 1× and scaled up to 2× has none (each
// cell is one logical pixel); one drawn at 2× has detail inside cells along every glyph and slanted line.
double detailInsideCells(const QImage& image)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    int cells = 0;
    int detailed = 0;
    for (int y = 0; y + 1 < rgb.height(); y += 2) {
        for (int x = 0; x + 1 < rgb.width(); x += 2) {
            const QRgb p[4] = { rgb.pixel(x, y), rgb.pixel(x + 1, y), rgb.pixel(x, y + 1), rgb.pixel(x + 1, y + 1) };
            int spread = 0;
            for (int i = 1; i < 4; ++i) {
                spread = std::max({ spread, std::abs(qRed(p[i]) - qRed(p[0])), std::abs(qGreen(p[i]) - qGreen(p[0])),
                    std::abs(qBlue(p[i]) - qBlue(p[0])) });
            }
            ++cells;
            detailed += spread > 24;
        }
    }
    return cells ? double(detailed) / cells : 0;
}

} // namespace

void TestWidgets::verdictBanner()
{
    VerdictBanner banner;
    QVERIFY(banner.isHidden());
    banner.setPending(QStringLiteral("Comparing 4 ranks…"));
    QVERIFY(!banner.isHidden());
    QVERIFY(banner.text().startsWith(QStringLiteral("Comparing 4 ranks…")));

    std::vector<RankInput> ranks;
    for (const LoadedFile& f : LoadedFile::loadAll(
             RankFiles::expand({ QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples") })))
        ranks.push_back({ f.rank, f.path, f.snapshot });
    const ComparisonPtr c = Comparison::compute(ranks, {});
    banner.setVerdict(c->verdict());
    const QString text = banner.text();
    QVERIFY2(text.startsWith(QLatin1String("Burden imbalance on rank 0")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("gather_predictions")));
    QVERIFY(text.contains(QLatin1String("What to change:")));
    banner.resize(900, 120);
    const QImage image = banner.grab().toImage();
    QVERIFY(!image.isNull());
    QCOMPARE(image.pixelColor(2, 60).name(), QStringLiteral("#e15759")); // the burden colour strip
    // In the light palette a light tint; in the dark one (the window's theme switched while it shows) a dark tint,
    // not a glaring pink, under light text that reads on it. The strip keeps the verdict's colour.
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    auto* inWindow = new VerdictBanner(&window);
    layout->addWidget(inWindow);
    inWindow->setVerdict(c->verdict());
    window.resize(900, 160);
    window.show();
    QApplication::processEvents();
    const auto background = [inWindow] {
        return inWindow->grab().toImage().pixelColor(inWindow->width() - 4, inWindow->height() - 4);
    };
    QVERIFY2(background().lightness() > 180, qPrintable(background().name()));
    window.setPalette(ChartStyle::darkPalette());
    QApplication::processEvents();
    const QColor dark = background();
    QVERIFY2(dark.lightness() < 100, qPrintable(dark.name()));
    const QColor ink = inWindow->palette().color(QPalette::WindowText);
    QVERIFY2(ChartStyle::contrast(ink, dark) >= 7, qPrintable(ink.name() + QLatin1Char('/') + dark.name()));
    QCOMPARE(inWindow->grab().toImage().pixelColor(2, 60).name(), QStringLiteral("#e15759"));
}

// A legend in a layout is as tall as its rows at its width, also after the window narrows under it: the timelines'
// Chinese legend put "比较点" on a second row the layout gave no room to.
void TestWidgets::legendTakesTheRowsItNeeds()
{
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    auto* above = new QWidget;
    above->setMinimumHeight(50);
    layout->addWidget(above, 1);
    auto* legend = new LegendStrip;
    std::vector<LegendEntry> entries;
    for (const char* text : { "一次分配（各有其色）", "小于 8 MiB 的分配，合计", "该发现的分配（着色）",
             "其他分配（淡化）", "比较点", "峰值" })
        entries.push_back({ LegendEntry::Swatch, QBrush(Qt::gray), QPen(Qt::black), QString::fromUtf8(text), {} });
    legend->setEntries(entries);
    layout->addWidget(legend);
    const auto whole = [legend] {
        return legend->height() >= Legend::height(legend->entries(), legend->width() - 8, legend->font()) + 6;
    };
    window.resize(1400, 300);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(whole());
    const int oneRow = legend->height();
    for (int width : { 700, 420, 260, 1400 }) {
        window.resize(width, 300);
        QTRY_VERIFY2(whole(), qPrintable(QStringLiteral("%1 px wide: %2 px high").arg(width).arg(legend->height())));
    }
    window.resize(260, 300);
    QTRY_VERIFY(whole() && legend->height() > 2 * oneRow);
}

// The window's right column: the block maps under the timelines while it is tall enough for the three, beside them
// (one over the other) when it is not, which is why it may be as short as that; tall again, the maps are back under
// the timelines with their height.
void TestWidgets::compareColumnPlacesMapsByHeight()
{
    auto* timelines = new QWidget;
    timelines->setMinimumSize(300, 400);
    auto* maps = new QSplitter(Qt::Horizontal);
    for (int i = 0; i < 2; ++i) {
        auto* map = new QWidget;
        map->setMinimumSize(160, 90);
        maps->addWidget(map);
    }
    auto* findings = new QWidget;
    findings->setMinimumSize(300, 150);
    // In a window's layout, as in the main window: its minimum is the window's.
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* column = new CompareColumn(timelines, maps, findings);
    layout->addWidget(column);
    QCOMPARE(column->minimumSizeHint().height(), 400 + column->handleWidth() + 150);
    const auto at = [column](const QWidget* part) { return QRect(part->mapTo(column, QPoint()), part->size()); };
    const auto stacked = [&] {
        return !column->mapsBeside() && maps->orientation() == Qt::Horizontal && maps->isVisibleTo(column)
            && maps->height() >= 90 && at(maps).top() > at(timelines).bottom()
            && at(findings).top() > at(maps).bottom();
    };
    window.resize(800, 1000);
    window.show();
    QApplication::processEvents();
    QVERIFY(stacked());

    window.resize(800, 600);
    QApplication::processEvents();
    QVERIFY(column->mapsBeside());
    QCOMPARE(maps->orientation(), Qt::Vertical);
    QVERIFY(at(maps).left() > at(timelines).right());
    QVERIFY(at(findings).top() > std::max(at(timelines).bottom(), at(maps).bottom()));
    QVERIFY(timelines->height() >= 400);
    QVERIFY(findings->height() >= 150);
    QVERIFY(maps->widget(1)->mapTo(column, QPoint()).y() > maps->widget(0)->mapTo(column, QPoint()).y());

    window.resize(800, 1000);
    QApplication::processEvents();
    QVERIFY(stacked());
}

void TestWidgets::rankChartMarksTheOutlier()
{
    RankListModel model;
    RankChart chart;
    chart.setModel(&model);
    const QList<LoadedFile> files = LoadedFile::loadAll(
        RankFiles::expand({ QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples") }));
    for (int i = 0; i < files.size(); ++i) {
        model.addLoading(i, files[i].path, files[i].rank);
        model.setLoaded(i, files[i]);
    }
    auto* peaks = qobject_cast<QCPBars*>(chart.plot()->plottable(0));
    // The peaks first, then the at-point bars (one stacked bar per category), then the outline.
    auto* outline = qobject_cast<QCPBars*>(chart.plot()->plottable(chart.plot()->plottableCount() - 1));
    QVERIFY(peaks && outline);
    QCOMPARE(peaks->data()->size(), 4);
    QVERIFY(outline->visible());
    QCOMPARE(outline->data()->size(), 1);
    QCOMPARE(outline->data()->at(0)->key, 0.0); // rank 0 alone has the highest peak
    QCOMPARE(int64_t(outline->data()->at(0)->value), files[0].devices[0].peakAllocatedBytes);

    // Equal peaks: no outlier to point at.
    model.clear();
    for (int i = 1; i < files.size(); ++i) {
        model.addLoading(i - 1, files[i].path, files[i].rank);
        model.setLoaded(i - 1, files[i]);
    }
    QVERIFY(!outline->visible());
    QCOMPARE(peaks->data()->size(), 3);
    QCOMPARE(chart.failedMarks(), 0);

    // A file that did not load keeps its rank's place, marked and named on the axis, its tooltip saying why; it is
    // no rank to pick.
    QTemporaryDir dir;
    const QString broken = dir.filePath(QStringLiteral("rank7.pickle"));
    {
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a snapshot");
    }
    const QList<LoadedFile> failed = LoadedFile::loadAll({ broken });
    QCOMPARE(failed.size(), 1);
    QVERIFY(!failed.front().ok() && !failed.front().error.isEmpty());
    model.addLoading(3, broken, failed.front().rank);
    model.setLoaded(3, failed.front());
    QCOMPARE(peaks->data()->size(), 4);
    QCOMPARE(chart.failedMarks(), 1);
    QVERIFY2(chart.barText(3).contains(failed.front().error), qPrintable(chart.barText(3)));
    QVERIFY(!chart.barText(0).contains(failed.front().error));
    chart.resize(600, 300);
    chart.plot()->replot();
    auto* ticker = static_cast<QCPAxisTickerText*>(chart.plot()->xAxis->ticker().data());
    QVERIFY(ticker->ticks().values().contains(QString::number(failed.front().rank)));
    const QPoint failedBar(int(chart.plot()->xAxis->coordToPixel(3)), chart.plot()->axisRect()->center().y());
    QCOMPARE(chart.rankAt(failedBar), -1);
    QVERIFY(chart.rankAt(QPoint(int(chart.plot()->xAxis->coordToPixel(0)), failedBar.y())) >= 0);
    // Reloaded without it: the mark goes.
    model.clear();
    QCOMPARE(chart.failedMarks(), 0);
}

// The categories read in one order in every legend, the rank chart's after ranks came and went and the figures
// arrived after the ranks, as in the window: the order of Category, the timelines' legend's and every table's.
void TestWidgets::oneCategoryOrder()
{
    const QList<LoadedFile> files = examples();
    std::vector<RankInput> ranks;
    for (const LoadedFile& f : files)
        ranks.push_back({ f.rank, f.path, f.snapshot });
    const ComparisonPtr c = Comparison::compute(ranks, {});
    RankListModel model;
    RankChart chart;
    chart.setModel(&model);
    const auto legend = [&chart] {
        QStringList names;
        for (int i = 0; i < chart.plot()->legend->itemCount(); ++i) {
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(chart.plot()->legend->item(i)))
                names << item->plottable()->name();
        }
        return names;
    };
    // Loaded, not yet compared: no figures by category.
    for (int i = 0; i < files.size(); ++i) {
        model.addLoading(i, files[i].path, files[i].rank);
        model.setLoaded(i, files[i]);
    }
    QCOMPARE(legend(), QStringList({ QStringLiteral("Peak"), QStringLiteral("Highest") }));
    model.setComparison(c);
    QStringList categories;
    for (int k = 0; k < CategoryCount; ++k) {
        if (std::any_of(c->ranks().begin(), c->ranks().end(),
                [k](const RankSummary& r) { return r.categoryBytes[size_t(k)] > 0; }))
            categories << VerdictText::category(Category(k), VerdictText::Translated);
    }
    QVERIFY(categories.size() >= 2);
    QCOMPARE(legend(), QStringList() << QStringLiteral("Peak") << categories << QStringLiteral("Highest"));
    // Compared again, the same order.
    model.setComparison(nullptr);
    model.setComparison(c);
    QCOMPARE(legend(), QStringList() << QStringLiteral("Peak") << categories << QStringLiteral("Highest"));

    // The timelines' legend, coloured by category: the same names in the same order.
    const RankSummary& r = c->ranks().front();
    TimelineView view;
    view.setTracks(
        { { r.rank, QStringLiteral("A"), c->historyPtr(0), r.point.event, c->categoriesPtr(0) } }, c->options().site);
    view.setBandColoring(TimelineView::ColorByCategory);
    QStringList timeline = view.legend()->texts();
    timeline.erase(std::remove_if(timeline.begin(), timeline.end(),
                       [&categories](const QString& text) { return !categories.contains(text); }),
        timeline.end());
    QCOMPARE(timeline, categories);
}

// Coloured by category, the bands take the rank chart's colours: the activations of a training peak fill most of the
// plot in the activation colour, which no site colour is; the tooltip names each band's category.
void TestWidgets::bandsColouredByCategory()
{
    const QList<LoadedFile> files = LoadedFile::loadAll(
        RankFiles::expand({ QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples") }));
    std::vector<RankInput> ranks;
    for (const LoadedFile& f : files)
        ranks.push_back({ f.rank, f.path, f.snapshot });
    const ComparisonPtr c = Comparison::compute(ranks, {});
    const RankSummary& r = c->ranks().front();
    TimelineView view;
    view.resize(900, 300);
    view.setTracks(
        { { r.rank, QStringLiteral("A"), c->historyPtr(0), r.point.event, c->categoriesPtr(0) } }, c->options().site);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(!view.isBusy() && view.bandCount(0) > 0);
    const QColor activation = ChartStyle::categoryColor(Category::Activation, view.palette());
    const auto count = [&] { return pixelsOf(view, activation); };
    QCOMPARE(view.bandColoring(), TimelineView::ColorByAllocation);
    view.setBandColoring(TimelineView::ColorBySite);
    const int bySite = count();
    view.setBandColoring(TimelineView::ColorByCategory);
    const int byCategory = count();
    QVERIFY2(byCategory > 20 * std::max(bySite, 50), qPrintable(QStringLiteral("%1 %2").arg(bySite).arg(byCategory)));
    // Every band under the curve at the point says its category in its tooltip.
    QCPAxisRect* rect = view.plot()->axisRects().front();
    int bands = 0;
    for (int percent = 1; percent < 100; ++percent) {
        const QPointF at(rect->axis(QCPAxis::atBottom)->coordToPixel(view.keyOf(0, r.point.event)),
            rect->axis(QCPAxis::atLeft)->coordToPixel(double(r.bytesAtPoint) * percent / 100));
        const QString text = view.describeAt(at);
        if (!text.contains(QLatin1String("<br>Allocated ")))
            continue;
        ++bands;
        QVERIFY2(text.contains(QLatin1String("Category: ")), qPrintable(text));
    }
    QVERIFY(bands > 0);
}

// On the aligned axis, rank B's events sit at the same moment of rank A's trace: in phase_burden_4, rank 3 has two
// events of its own (the buffer), so after them rank 0's event e is drawn where rank 3's e + 2 is.
void TestWidgets::alignedAxisLinesUpTheSameCode()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
    const QString folder = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/phase_burden_4/");
    const LoadedFile a = LoadedFile::load(folder + QStringLiteral("rank3_memory_snapshot.pickle"), 3, true);
    const LoadedFile b = LoadedFile::load(folder + QStringLiteral("rank0_memory_snapshot.pickle"), 0, true);
    QVERIFY(a.ok() && b.ok());
    const DeviceHistoryPtr ha = DeviceHistory::build(a.snapshot, 0);
    const DeviceHistoryPtr hb = DeviceHistory::build(b.snapshot, 0);
    TimelineView view;
    view.resize(800, 400);
    view.setTracks({ { 3, QStringLiteral("A"), ha, ha->peakEvent() }, { 0, QStringLiteral("B"), hb, 0 } }, {});
    QVERIFY(view.alignmentAvailable());
    // One scale for A and B: both plots equally high (the x axis' labels under B take no height from its plot).
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();
    view.plot()->replot();
    const QList<QCPAxisRect*> rects = view.plot()->axisRects();
    QCOMPARE(rects.size(), 2);
    QVERIFY2(std::abs(rects[0]->height() - rects[1]->height()) <= 1,
        qPrintable(QStringLiteral("%1 and %2").arg(rects[0]->height()).arg(rects[1]->height())));
    view.setXAxis(TimelineView::AlignedAxis);
    QCOMPARE(view.xAxis(), TimelineView::AlignedAxis);
    // The buffer's segment_alloc and alloc: rank 3's events from there on are rank 0's plus two.
    const auto events = ha->events();
    const EventIndex buffer = EventIndex(std::find_if(events.begin(), events.end(), [](const TraceEntry& e) {
        return e.action() == TraceAction::SegmentAlloc && e.size == int64_t(1) << 30;
    }) - events.begin());
    QVERIFY(buffer > 1000 && buffer < EventIndex(events.size()));
    for (EventIndex e : { EventIndex(200), EventIndex(1000), buffer - 1, buffer, buffer + 40, EventIndex(4000) }) {
        const EventIndex inA = e < buffer ? e : e + 2;
        QVERIFY2(std::abs(view.keyOf(1, e) - double(inA)) <= 2.0,
            qPrintable(QStringLiteral("event %1 at %2, expected %3").arg(e).arg(view.keyOf(1, e)).arg(inA)));
    }
    QCOMPARE(view.eventAt(0, view.keyOf(0, 1000)), EventIndex(1000));

    // Unrelated programs do not align: the axis is not offered and the view stays on events.
    const LoadedFile other =
        LoadedFile::load(TestUtils::dataDir() + QStringLiteral("/jog_my_snapshot.pickle"), 1, false);
    QVERIFY(other.ok());
    view.setTracks(
        { { 3, QStringLiteral("A"), ha, 0 }, { 1, QStringLiteral("B"), DeviceHistory::build(other.snapshot, 0), 0 } },
        {});
    QVERIFY(!view.alignmentAvailable());
    QCOMPARE(view.xAxis(), TimelineView::EventAxis);
}

// The flame graph: the whole excess at the top, each frame under its caller as wide as its share, exported as
// vectors with its frames' names.
// A view asked again for what it already shows (layout settling after a comparison arrives) starts no job: one
// started cannot be stopped midway, and a second would do the same work again. A new size does start one.
void TestWidgets::detailOnlyForWhatChanged()
{
    const SnapshotPtr s = SnapshotReader::read(dataDir() + QStringLiteral("/voxelflex_dump_snapshot.pickle")).snapshot;
    const DeviceHistoryPtr h = DeviceHistory::build(s, DeviceHistory::mainDevice(*s));
    TimelineView view;
    view.resize(900, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setTracks({ { 0, QStringLiteral("A"), h, h->peakEvent() } }, {});
    QTRY_VERIFY(!view.isBusy() && view.bandCount(0) > 0);
    const int bands = view.bandCount(0);
    QResizeEvent same(view.size(), view.size());
    QApplication::sendEvent(&view, &same);
    QVERIFY(view.isBusy()); // the debounce
    view.flushDetail();
    QVERIFY(!view.isBusy());
    QCOMPARE(view.bandCount(0), bands);
    view.resize(1400, 300);
    QTRY_VERIFY(view.plot()->width() > 1300);
    view.flushDetail();
    QVERIFY(view.isBusy());
    QTRY_VERIFY(!view.isBusy());
    QVERIFY(view.bandCount(0) > 0);
}

// A view's detail jobs write into the arrays of the detail replaced before (wider ones and narrower ones, still
// holding their runs): the view draws what a view that never resized draws.
void TestWidgets::nearestPixelRoundsHalvesUp()
{
    // A band's edges are rounded as floor(t + 0.5) always rounded them, on both sides of zero, halves and the
    // doubles either side of them included.
    std::vector<double> values;
    for (int eighths = -4000; eighths <= 4000; ++eighths) {
        const double t = eighths / 8.0;
        values.insert(values.end(), { t, std::nextafter(t, -1e9), std::nextafter(t, 1e9) });
    }
    values.insert(values.end(), { 1e8, -1e8, 0.49999999999999994, -0.49999999999999994, 123456.5, -123456.5 });
    for (double t : values)
        QCOMPARE(ChartStyle::nearestPixel(t), int(std::floor(t + 0.5)));
    static_assert(ChartStyle::nearestPixel(-0.75) == -1 && ChartStyle::nearestPixel(-0.5) == 0);
}

void TestWidgets::rectLayersFillAsOneRectangleAfterAnother()
{
    // drawRectLayers converts edges inline and fills narrow boxes by width. Each pixel must end as the plain rule gives
    // it: left and top edges rounded down, right and bottom to the nearest, at least one pixel, an outline on its first
    // and last rows and columns, later rectangles over earlier ones.
    const auto fillInTurn = [](QImage& canvas, const QRectF& r, const QPointF& origin, qreal dpr, QRgb color,
                                QRgb outline) {
        const double left = (r.left() - origin.x()) * dpr;
        const double top = (r.top() - origin.y()) * dpr;
        if (r.right() <= origin.x() || r.bottom() <= origin.y() || left >= canvas.width() || top >= canvas.height())
            return;
        const int x0 = std::max(0, int(std::floor(left)));
        const int y0 = std::max(0, int(std::floor(top)));
        const int x1 = std::min(canvas.width(), std::max(x0 + 1, int(std::lround((r.right() - origin.x()) * dpr))));
        const int y1 = std::min(canvas.height(), std::max(y0 + 1, int(std::lround((r.bottom() - origin.y()) * dpr))));
        for (int y = y0; y < y1; ++y) {
            for (int x = x0; x < x1; ++x) {
                const bool edge = y == y0 || y == y1 - 1 || x == x0 || x == x1 - 1;
                canvas.setPixel(x, y, outline && edge ? outline : color);
            }
        }
    };
    std::mt19937 random(43);
    const auto uniform = [&random](double low, double high) {
        return std::uniform_real_distribution<double>(low, high)(random);
    };
    // Widths that the fill treats apart (one to eight pixels), wider ones, and slivers under a pixel; heights of one
    // and two rows (all outline) and more.
    const std::vector<double> widths { 0.2, 0.5, 1, 1.49, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 7.6, 8, 9, 17, 160, 900 };
    const std::vector<double> heights { 0.3, 1, 1.5, 2, 3, 12, 127.5, 129, 300, 900 };
    for (const qreal dpr : { 1.0, 1.5, 2.0 }) {
        const QRectF area(8, 6, 401.5, 297.25);
        std::vector<RectLayer> layers(9);
        for (size_t l = 0; l < layers.size(); ++l) {
            layers[l].color = qRgb(int(random() % 256), int(random() % 256), int(l * 20));
            layers[l].outline = l % 3 == 0 ? qRgb(int(l * 25), 0, int(random() % 256)) : 0;
            for (int i = 0; i < 300; ++i) {
                // The largest only in the first layers, which the rest then cover in part.
                const size_t largest = l < 2 ? 0 : 2;
                const double w = widths[random() % (widths.size() - largest)];
                const double h = heights[random() % (heights.size() - largest)];
                // Whole, half and arbitrary coordinates, some off the area on each side.
                const double x = i % 3 == 0 ? std::round(uniform(-40, 420))
                    : i % 3 == 1            ? std::round(uniform(-40, 420) * 2) / 2
                                            : uniform(-1000, 430);
                const double y = i % 2 == 0 ? std::round(uniform(-30, 310)) : uniform(-1000, 320);
                layers[l].rects.emplace_back(x, y, w, h);
            }
        }
        const QSize device = (QSizeF(430, 320) * dpr).toSize();
        QImage drawn(device, QImage::Format_ARGB32_Premultiplied);
        drawn.setDevicePixelRatio(dpr);
        drawn.fill(qRgb(250, 250, 250));
        QImage expected = drawn.copy();
        {
            QPainter p(&drawn);
            drawRectLayers(p, area, layers);
        }
        QImage canvas(int(std::ceil(area.width() * dpr)), int(std::ceil(area.height() * dpr)),
            QImage::Format_ARGB32_Premultiplied);
        canvas.fill(Qt::transparent);
        for (const RectLayer& l : layers) {
            for (const QRectF& r : l.rects)
                fillInTurn(canvas, r, area.topLeft(), dpr, l.color, l.outline);
        }
        canvas.setDevicePixelRatio(dpr);
        {
            QPainter p(&expected);
            p.drawImage(area.topLeft(), canvas);
        }
        QVERIFY2(drawn == expected, qPrintable(QStringLiteral("device pixel ratio %1").arg(dpr)));
        // Not all of one colour: the rectangles reach the canvas, cover each other and leave room between them.
        QSet<QRgb> colours;
        for (int y = 0; y < drawn.height(); y += 3) {
            for (int x = 0; x < drawn.width(); x += 3)
                colours.insert(drawn.pixel(x, y));
        }
        QVERIFY2(colours.size() > 12, qPrintable(QString::number(colours.size())));
    }
}

void TestWidgets::allocationColorsLookedUp()
{
    // The table gives what the colour's own formula gives, on a light and a dark base, for the first allocations, the
    // largest and a spread between; the formula is the one the bands were coloured with before the table.
    std::vector<uint32_t> allocations(200000);
    std::iota(allocations.begin(), allocations.end(), 0u);
    for (uint64_t a = 200000; a <= UINT32_MAX; a = a * 3 + 7)
        allocations.push_back(uint32_t(a));
    allocations.push_back(UINT32_MAX);
    for (const QColor& base : { QColor(Qt::white), QColor(0x20, 0x20, 0x20) }) {
        QPalette palette;
        palette.setColor(QPalette::Base, base);
        const bool dark = base.lightness() < 128;
        const ChartStyle::AllocationColors colors(palette);
        for (const uint32_t a : allocations) {
            const double turn = std::fmod(double(a) * 0.6180339887498949, 1.0);
            const int level = int(a % 3);
            const QColor before =
                QColor::fromHsv(30 + int(turn * 255), 150 + level * 30, dark ? 190 + level * 20 : 235 - level * 30);
            QCOMPARE(ChartStyle::allocationColor(a, palette).rgba(), before.rgba());
            QCOMPARE(colors.rgb(a), before.rgba());
        }
    }
}

void TestWidgets::recycledDetailDrawsTheSame()
{
    const SnapshotPtr s = SnapshotReader::read(dataDir() + QStringLiteral("/voxelflex_dump_snapshot.pickle")).snapshot;
    const DeviceHistoryPtr h = DeviceHistory::build(s, DeviceHistory::mainDevice(*s));
    // Settled: a detail's replot is queued, and laying the plot out for it can move its axes and ask for another
    // detail; on a loaded machine that came after the view looked idle, and the two views compared details of two
    // widths. So the view flushes and waits until a round asks for nothing new.
    const auto settled = [&](TimelineView& view, int width) {
        view.resize(width, 300);
        QTRY_VERIFY(view.plot()->width() > width - 100 && view.plot()->width() <= width);
        for (int round = 0; round < 20; ++round) {
            view.flushDetail();
            QTRY_VERIFY(!view.isBusy());
            QTest::qWait(100); // longer than the debounce: what the replot asks for has started or is done
            if (!view.isBusy())
                break;
        }
        QVERIFY(!view.isBusy());
    };
    TimelineView resized;
    resized.show();
    QVERIFY(QTest::qWaitForWindowExposed(&resized));
    resized.setTracks({ { 0, QStringLiteral("A"), h, h->peakEvent() } }, {});
    for (int width : { 1400, 500, 1200, 900 }) {
        settled(resized, width);
        if (QTest::currentTestFailed())
            return;
    }
    TimelineView fresh;
    fresh.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fresh));
    fresh.resize(900, 300);
    fresh.setTracks({ { 0, QStringLiteral("A"), h, h->peakEvent() } }, {});
    settled(fresh, 900);
    QVERIFY(resized.bandCount(0) > 0);
    QCOMPARE(resized.bandCount(0), fresh.bandCount(0));
    QCOMPARE(resized.grab().toImage(), fresh.grab().toImage());
}

void TestWidgets::flameGraphOfTheExcess()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
    const ComparisonPtr c = compareScenario(QStringLiteral("burden_2"));
    FlameGraph graph;
    graph.resize(800, 300);
    graph.setTree(ExcessTree::build(*c, 1, ExcessTree::TopDown), QStringLiteral("Rank 1"));
    QVERIFY(graph.drawnFrames() >= 3); // the root and the gathering stack's frames
    const int row = graph.fontMetrics().height() + 4;
    const ExcessNode* root = graph.nodeAt(QPointF(400, row / 2));
    QVERIFY(root && !root->parent);
    const ExcessNode* outer = graph.nodeAt(QPointF(5, row + row / 2));
    QVERIFY(outer && outer->parent == root);
    QCOMPARE(outer->inclusiveBytes, root->inclusiveBytes); // one finding: one stack all the way up
    const QByteArray svg = ImageExport::encode(&graph, ImageExport::Svg);
    QVERIFY(svg.contains("gather_predictions"));
    graph.setTree(nullptr, QString());
    QCOMPARE(graph.drawnFrames(), 0);
}

// Ranks out of memory alike: the OOM marker tells and gives the failed request's stack; the what-if table lists the
// peak without each of rank A's largest sites (the verdict's own figures for its rank), and the flame graph draws
// everything the rank holds where it has no excess.
// A job 200 MiB short of the free memory with 359 MiB stranded in its reserve: the What if tab says what the GPU
// offered (never 0 B) and what of it could hold a peak, and marks as fitting exactly the rows the JSON says fit.
void TestWidgets::whatIfShowsTheMargin()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
    const ComparisonPtr c = compareScenario(QStringLiteral("capacity_stranded_4"));
    const Verdict& v = c->verdict();
    QCOMPARE(v.kind, Verdict::OverCapacity);
    QCOMPARE(v.margin.outcome, Verdict::Margin::NotInOnePiece);
    const nlohmann::json j = nlohmann::json::parse(DiffReport::json(*c));
    QCOMPARE(j["verdict"]["offered_bytes"].get<int64_t>(), v.margin.offeredBytes);
    QCOMPARE(j["verdict"]["margin"]["fit_bytes"].get<int64_t>(), v.margin.fitBytes());

    WhatIfView whatIf;
    QAbstractItemModelTester tester(whatIf.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy ready(&whatIf, &WhatIfView::ready);
    whatIf.showRank(c, v.figuresRank);
    // Hidden (a tab not in front), it leaves the cores to the views shown: its replays start once it is shown.
    QVERIFY(!whatIf.isBusy());
    QCOMPARE(whatIf.model()->rowCount(), 0);
    whatIf.show();
    QVERIFY(whatIf.isBusy());
    QTRY_COMPARE(ready.count(), 1);
    QString header;
    for (const QLabel* label : whatIf.findChildren<QLabel*>())
        header += label->text();
    QVERIFY2(header.contains(QStringLiteral("the GPU offered %1").arg(Formatting::bytes(v.margin.offeredBytes))),
        qPrintable(header));
    QCOMPARE(c->verdictHoldings().fitLimitBytes, v.margin.fitBytes()); // the rank's highest total is at its OOM
    QVERIFY(header.contains(QStringLiteral("%1 could hold a peak").arg(Formatting::bytes(v.margin.fitBytes()))));
    QVERIFY(!header.contains(QLatin1String("offered 0 B")));
    const nlohmann::json& rows = j["verdict"]["what_if"];
    QCOMPARE(whatIf.model()->rowCount(), int(rows.size()));
    int fitting = 0;
    for (int row = 0; row < whatIf.model()->rowCount(); ++row) {
        const QString peak = whatIf.model()->index(row, WhatIfModel::PeakColumn).data().toString();
        QCOMPARE(peak.startsWith(QStringLiteral("\u2713")), rows[size_t(row)]["fits"].get<bool>());
        fitting += rows[size_t(row)]["fits"].get<bool>() ? 1 : 0;
    }
    QVERIFY(fitting > 0); // here every row saves more than the 200 MiB it lacked
}

void TestWidgets::outOfMemoryMarkerAndWhatIf()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
    const ComparisonPtr c = compareScenario(QStringLiteral("capacity_loss_4"));
    QCOMPARE(c->verdict().kind, Verdict::OverCapacity);

    TimelineView view;
    view.resize(900, 400);
    view.show();
    view.setTracks({ { 0, QStringLiteral("A"), c->historyPtr(0), c->ranks()[0].point.event } }, {});
    QTRY_VERIFY(!view.isBusy());
    QVERIFY(view.legend()->texts().contains(QStringLiteral("out of memory")));
    const OomMarker& oom = c->history(0).ooms().back();
    QCPAxisRect* rect = view.plot()->axisRect(0);
    const double x = rect->axis(QCPAxis::atBottom)->coordToPixel(view.keyOf(0, EventIndex(oom.event)));
    const QPointF onMarker(x, rect->rect().center().y());
    QCOMPARE(view.oomAt(0, onMarker), std::optional<size_t>(0));
    QVERIFY(!view.oomAt(0, QPointF(rect->rect().left() + 20, onMarker.y())));
    // The OOM is the last event, yet not on the plot's border: the failed request is a bar of its size over what was
    // held, right of the line, with room to spare; the memory axis reaches its top.
    QVERIFY2(rect->rect().right() - x >= 16, qPrintable(QString::number(rect->rect().right() - x)));
    const QRectF bar = view.oomBar(0, oom);
    QVERIFY(bar.left() > x && bar.right() < rect->rect().right());
    const QCPAxis* memory = rect->axis(QCPAxis::atLeft);
    const int64_t held = c->history(0).totalAfter(EventIndex(oom.event));
    QVERIFY(memory->range().upper >= double(held + oom.requestedBytes));
    QCOMPARE(bar.bottom(), memory->coordToPixel(double(held)));
    QVERIFY(std::abs(bar.height()
                - (memory->coordToPixel(double(held)) - memory->coordToPixel(double(held + oom.requestedBytes))))
            < 1
        || bar.height() == 2);
    // Its tooltip wherever the marker is drawn: the line, the bar, the label; no label covers another.
    view.plot()->replot();
    QCOMPARE(view.oomAt(0, bar.center()), std::optional<size_t>(0));
    QVERIFY(view.describeAt(bar.center()).contains(QLatin1String("ran out of memory")));
    QCOMPARE(view.oomLabels(0).size(), size_t(1));
    QCOMPARE(view.oomAt(0, view.oomLabels(0).front().second.center()), std::optional<size_t>(0));
    QVERIFY(view.describeAt(view.oomLabels(0).front().second.center()).contains(QLatin1String("ran out of memory")));
    const std::vector<QRectF>& labels = view.paintedLabels(0);
    for (size_t i = 0; i < labels.size(); ++i) {
        for (size_t j = i + 1; j < labels.size(); ++j)
            QVERIFY2(!labels[i].intersects(labels[j]), qPrintable(QStringLiteral("%1 and %2").arg(i).arg(j)));
    }
    QVERIFY(pixelsOf(view, ChartStyle::alertColor()) > 0);
    const QString tip = view.describeAt(onMarker);
    QVERIFY2(tip.contains(QLatin1String("ran out of memory")) && tip.contains(QLatin1String("log_softmax"))
            && tip.contains(QLatin1String("1.22 GiB")),
        qPrintable(tip));
    QSignalSpy clicked(&view, &TimelineView::oomClicked);
    QTest::mouseClick(view.plot(), Qt::LeftButton, {}, onMarker.toPoint());
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.front().at(1).toInt(), 0);
    const StackText::Description d = StackText::describeOom(c->history(0), 0, oom);
    QVERIFY(d.header.contains(QLatin1String("1.22 GiB")));
    QVERIFY(d.frames.lines.join(QLatin1Char('\n')).contains(QLatin1String("log_softmax")));

    WhatIfView whatIf;
    QAbstractItemModelTester tester(whatIf.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy ready(&whatIf, &WhatIfView::ready);
    whatIf.showRank(c, 0);
    whatIf.show();
    QTRY_COMPARE(ready.count(), 1);
    const RankHoldings verdict = c->verdictHoldings();
    QCOMPARE(whatIf.model()->rowCount(), int(verdict.whatIf.size()));
    int64_t mostSaved = 0;
    for (int row = 0; row < whatIf.model()->rowCount(); ++row) {
        QCOMPARE(whatIf.model()->index(row, WhatIfModel::PeakColumn).data(WhatIfModel::SortRole).toLongLong(),
            qint64(verdict.whatIf[size_t(row)].peakBytes));
        // Saved is an amount, never written as a negative one.
        QCOMPARE(whatIf.model()->index(row, WhatIfModel::SavedColumn).data().toString(),
            Formatting::bytes(verdict.whatIf[size_t(row)].savedBytes));
        mostSaved = std::max(mostSaved, verdict.whatIf[size_t(row)].savedBytes);
    }
    // The table opens on what saves most: the rows that answer what would have fit come first, not after every site.
    const QAbstractItemModel* shown = whatIf.view()->model();
    QCOMPARE(shown->index(0, WhatIfModel::SavedColumn).data(WhatIfModel::SortRole).toLongLong(), qint64(mostSaved));
    for (int row = 1; row < shown->rowCount(); ++row)
        QVERIFY(shown->index(row, WhatIfModel::SavedColumn).data(WhatIfModel::SortRole).toLongLong()
            <= shown->index(row - 1, WhatIfModel::SavedColumn).data(WhatIfModel::SortRole).toLongLong());
    // Another rank: computed on the view's own job, at that rank's point.
    whatIf.showRank(c, 2);
    QTRY_COMPARE(ready.count(), 2);
    QCOMPARE(whatIf.model()->holdings().rank, 2);
    QVERIFY(whatIf.model()->rowCount() > 6);
    whatIf.showRank(nullptr, -1);
    QCOMPARE(whatIf.model()->rowCount(), 0);

    FlameGraph graph;
    graph.resize(800, 300);
    const ExcessTree::Scope scope = ExcessTree::defaultScope(*c, 0);
    QCOMPARE(scope, ExcessTree::Everything);
    std::shared_ptr<const ExcessNode> tree = ExcessTree::build(*c, 0, ExcessTree::TopDown, scope);
    const QString title = FlameGraph::title(0, scope, tree->inclusiveBytes);
    QVERIFY(title.contains(QLatin1String("held at the point")));
    graph.setTree(std::move(tree), title, scope);
    QVERIFY(graph.drawnFrames() > 10);
    // Its tooltips speak of what the rank holds, not of an excess it does not have; what was recorded without a stack
    // is a box of its own, named.
    const int row = graph.fontMetrics().height() + 4;
    QVERIFY2(graph.describeAt(QPointF(5, row / 2)).contains(QLatin1String("held at the point")),
        qPrintable(graph.describeAt(QPointF(5, row / 2))));
    bool noStack = false;
    for (int x = 0; x < graph.width(); x += 2)
        noStack =
            noStack || graph.describeAt(QPointF(x, row + row / 2)).startsWith(QLatin1String("<no stack recorded>"));
    QVERIFY(noStack);
}

// A right button opens the menu and draws no zoom box: QCustomPlot starts one on any button, and the menu took the
// release, so the box followed the pointer after Esc, into the next job.
void TestWidgets::onlyTheLeftButtonDrawsAZoomBox()
{
    QTemporaryDir dir;
    const DeviceHistoryPtr h = steppedHistory(dir);
    TimelineView view;
    view.resize(800, 400);
    view.show();
    view.setTracks({ { 0, QStringLiteral("A"), h, 3 } }, {});
    QTRY_VERIFY(!view.isBusy());
    const QPoint at = view.plot()->axisRect(0)->rect().center();
    QTest::mousePress(view.plot(), Qt::RightButton, {}, at);
    QVERIFY(!view.plot()->selectionRect()->isActive());
    QTest::mouseRelease(view.plot(), Qt::RightButton, {}, at);
    QTest::mousePress(view.plot(), Qt::LeftButton, {}, at);
    QVERIFY(view.plot()->selectionRect()->isActive());
    QTest::mouseRelease(view.plot(), Qt::LeftButton, {}, at);
    QVERIFY(!view.plot()->selectionRect()->isActive());
}

void TestWidgets::timelineAxesAndHover()
{
    QTemporaryDir dir;
    const DeviceHistoryPtr h = steppedHistory(dir);
    TimelineView view;
    view.resize(800, 400);
    view.show();
    view.setTracks({ { 0, QStringLiteral("A"), h, 3 }, { 1, QStringLiteral("B"), h, 3 } }, {});
    QTRY_VERIFY(!view.isBusy());
    QVERIFY(view.timeAvailable());
    QVERIFY(view.stepsAvailable());
    QVERIFY(view.legend()->texts().contains(QStringLiteral("step begins"))); // these ranks have profiler steps
    QCOMPARE(view.keyOf(0, 3), 3.0);

    // Steps: each step one unit wide from its start, numbered as recorded.
    view.setXAxis(TimelineView::StepAxis);
    QCOMPARE(view.xAxis(), TimelineView::StepAxis);
    QCOMPARE(view.keyOf(0, 0), 7.0);
    QCOMPARE(view.keyOf(0, 1), 8.0);
    QCOMPARE(view.keyOf(0, 2), 8.5);
    QCOMPARE(view.keyOf(0, 3), 9.0);
    QCOMPARE(view.eventAt(0, 8.6), EventIndex(2));
    QCOMPARE(view.eventAt(0, 9.0), EventIndex(3));

    // Time: seconds since the first event.
    view.setXAxis(TimelineView::TimeAxis);
    QCOMPARE(view.keyOf(1, 5), 500e-6);
    QCOMPARE(view.eventAt(1, 250e-6), EventIndex(2)); // the last event at or before that time
    QCOMPARE(view.eventAt(1, 0.0), EventIndex(0));

    // A wheel notch zooms 1.25×; Home (while the timelines have focus) fits the whole trace again.
    QCPAxisRect* rect = view.plot()->axisRect(0);
    QCOMPARE(rect->rangeZoomFactor(Qt::Horizontal), TimelineView::WheelZoomFactor);
    const QCPRange whole = rect->axis(QCPAxis::atBottom)->range();
    view.zoomIn();
    QVERIFY(rect->axis(QCPAxis::atBottom)->range().size() < whole.size());
    QAction* home = nullptr;
    for (QAction* action : view.actions()) {
        if (action->shortcut() == QKeySequence(Qt::Key_Home))
            home = action;
    }
    QVERIFY(home && home->shortcutContext() == Qt::WidgetWithChildrenShortcut);
    home->trigger();
    QCOMPARE(rect->axis(QCPAxis::atBottom)->range().size(), whole.size());

    // Both allocations are bands; the peak (300 bytes after event 1) is where they stack.
    view.setXAxis(TimelineView::EventAxis);
    QTRY_VERIFY(!view.isBusy());
    QCOMPARE(view.bandCount(0), 3);
    // Hovering a band tells its size, when it was allocated and freed, and the stack; the summarized part and the
    // empty top say so.
    QStringList seen;
    const QRect plotArea = view.plot()->axisRect(0)->rect();
    for (int y = plotArea.top(); y < plotArea.bottom(); y += 2) {
        const QString text =
            view.describeAt(QPointF(view.plot()->axisRect(0)->axis(QCPAxis::atBottom)->coordToPixel(1.5), y));
        if (!text.isEmpty() && !seen.contains(text))
            seen.append(text);
    }
    QVERIFY(!seen.isEmpty());
    QVERIFY(std::any_of(seen.begin(), seen.end(), [](const QString& t) {
        return t.contains(QLatin1String("200 B")) && t.contains(QLatin1String("Allocated at event 1"))
            && t.contains(QLatin1String("freed at event 5"));
    }));
    QVERIFY(std::all_of(seen.begin(), seen.end(),
        [](const QString& t) { return t.startsWith(QLatin1String("<b>Rank 0</b>, event 1")); }));
    // Coloured by site, the bands are drawn in their site's colour (these allocations have no stack: site 0).
    view.setBandColoring(TimelineView::ColorBySite);
    view.plot()->replot();
    const QImage image = view.grab().toImage();
    const QColor bandColor = ChartStyle::siteColor(SiteTable().fingerprint(0));
    int painted = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            painted += image.pixelColor(x, y) == bandColor;
    }
    QVERIFY2(painted > 1000, qPrintable(QString::number(painted)));
    const uint64_t none = 12345;
    view.setHighlightedSite(none);
    QCOMPARE(view.highlightedBandCount(0), 0);
    QCOMPARE(view.highlightedBandCount(1), 0);
}

void TestWidgets::blockMapLayoutAndHover()
{
    const QList<LoadedFile> files = examples();
    const DeviceHistoryPtr h = DeviceHistory::build(files[0].snapshot, 0);
    BlockMapView map;
    map.resize(900, 300);
    map.show();
    QSignalSpy ready(&map, &BlockMapView::stateReady);
    map.setState(0, QStringLiteral("A"), h, h->peakEvent(), {});
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() > 0, 10000); // may already have come, if the job beat the continuation
    const AllocatorState state = h->stateAt(h->peakEvent());
    QCOMPARE(map.segmentCount(), int(state.segments.size()));
    QCOMPARE(map.blockCount(), int(state.blocks.size()));

    // Somewhere on the map a tooltip names a segment or a block with its stream.
    int described = 0;
    for (int y = 30; y < 270; y += 6) {
        const QString text = map.describeAt(QPointF(100, y));
        if (!text.isEmpty()) {
            ++described;
            QVERIFY2(text.contains(QLatin1String("0x")) && text.contains(QLatin1String("stream")), qPrintable(text));
        }
    }
    QVERIFY(described > 0);
    QVERIFY(map.describeAt(QPointF(-10, -10)).isEmpty());

    // A run outside every segment is not counted as shown; a run inside one is.
    map.setOutlinedRuns({ { 1, 10, 0 }, { state.blocks.front().addr, state.blocks.front().size, 0 } });
    QCOMPARE(map.visibleOutlinedRuns(), 1);
    const QImage image = map.grab().toImage();
    QVERIFY(!image.isNull());
}

// Every state of a block map against every other, in the light and the dark theme, as WCAG contrast ratios (printed
// in full): blocks of every state stand 3:1 or more off the free space around them, outlines off what they outline.
// Fills against each other differ in hue, not lightness: four fills 3:1 apart from each other and from the free space
// would need 3⁴ = 81:1 between the darkest and the lightest, where black on white is 21:1.
void TestWidgets::blockMapStatesContrast()
{
    const std::pair<const char*, QPalette> themes[] = { { "light", QApplication::style()->standardPalette() },
        { "dark", ChartStyle::darkPalette() } };
    for (const auto& [theme, palette] : themes) {
        const BlockMapView::StateColors c = BlockMapView::stateColors(palette);
        const std::vector<std::pair<QString, QColor>> states = { { QStringLiteral("free"), c.free },
            { QStringLiteral("segment outline"), c.segmentOutline }, { QStringLiteral("allocated"), c.allocated },
            { QStringLiteral("other sites"), c.otherSites }, { QStringLiteral("pending free"), c.pendingFree },
            { QStringLiteral("rounding"), c.rounding }, { QStringLiteral("finding"), c.finding },
            { QStringLiteral("window"), palette.color(QPalette::Window) } };
        QStringList table;
        for (size_t i = 0; i < states.size(); ++i) {
            for (size_t j = i + 1; j < states.size(); ++j)
                table << QStringLiteral("%1/%2 %3")
                             .arg(states[i].first, states[j].first)
                             .arg(ChartStyle::contrast(states[i].second, states[j].second), 0, 'f', 2);
        }
        qInfo().noquote() << theme << "theme:" << table.join(QStringLiteral("; "));
        // A structured binding cannot be captured before C++20 as clang 14 implements it: a copy can.
        const char* const themeName = theme;
        const auto atLeast3 = [&](const QColor& a, const QColor& b, const char* what) {
            QVERIFY2(ChartStyle::contrast(a, b) >= 3,
                qPrintable(QStringLiteral("%1 theme, %2: %3")
                               .arg(QLatin1String(themeName), QLatin1String(what))
                               .arg(ChartStyle::contrast(a, b))));
        };
        for (const QColor& fill : { c.allocated, c.otherSites, c.pendingFree, c.rounding }) {
            atLeast3(fill, c.free, "a block against the free space");
            atLeast3(fill, c.finding, "a block against the finding's outline");
        }
        atLeast3(c.finding, c.free, "the finding's outline against its casing");
        atLeast3(c.segmentOutline, c.free, "a segment's outline against its free space");
        atLeast3(c.segmentOutline, palette.color(QPalette::Window), "a segment's outline against the window");
    }

    // The map draws with these colours: a dark map, by state, with the finding's run outlined.
    const QList<LoadedFile> files = examples();
    const DeviceHistoryPtr h = DeviceHistory::build(files[0].snapshot, 0);
    BlockMapView map;
    map.setPalette(ChartStyle::darkPalette());
    map.setColoring(BlockMapView::ByState);
    map.resize(900, 300);
    map.show();
    QSignalSpy ready(&map, &BlockMapView::stateReady);
    map.setState(0, QStringLiteral("A"), h, h->peakEvent(), {});
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() > 0, 10000);
    const AllocatorState state = h->stateAt(h->peakEvent());
    map.setOutlinedRuns({ { state.blocks.front().addr, state.blocks.front().size, 0 } });
    const QImage image = map.grab().toImage();
    const BlockMapView::StateColors c = BlockMapView::stateColors(ChartStyle::darkPalette());
    std::map<QRgb, int> pixels;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            ++pixels[image.pixel(x, y)];
    }
    for (const QColor& colour : { c.free, c.allocated, c.finding })
        QVERIFY2(pixels[colour.rgb()] > 0, qPrintable(colour.name()));
}

void TestWidgets::progressCellCancelButton()
{
    RankListModel model;
    model.addLoading(0, QStringLiteral("rank0.pickle"), 0);
    model.setProgress(0, 10, 100);
    QTreeView view;
    view.setModel(&model);
    auto* delegate = new ProgressDelegate(&view);
    view.setItemDelegateForColumn(RankListModel::StatusColumn, delegate);
    for (int column = 0; column < RankListModel::StatusColumn; ++column)
        view.setColumnHidden(column, column != RankListModel::RankColumn);
    view.resize(600, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy cancel(delegate, &ProgressDelegate::cancelRequested);
    const QModelIndex status = model.index(0, RankListModel::StatusColumn);
    const QRect cell = view.visualRect(status);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, cell.topLeft() + QPoint(5, cell.height() / 2));
    QCOMPARE(cancel.count(), 0); // the progress bar itself does nothing
    QTest::qWait(QApplication::doubleClickInterval() + 50); // two quick clicks would make a double click
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, ProgressDelegate::cancelRect(cell).center());
    QCOMPARE(cancel.count(), 1);
    QCOMPARE(cancel.at(0).at(0).toModelIndex(), status);
}

void TestWidgets::stackPaneFoldsAndToggles()
{
    const StackText::Frame f { "/home/u/train.py", "forward", 12 };
    const StackText::Frame g { "/usr/lib/python3/site-packages/torch/nn/module.py", "_call_impl", 1501 };
    const QStringList lines = StackText::lines({ { f, g, g, g, f }, 0 });
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], QStringLiteral("forward  train.py:12  (/home/u)"));
    QVERIFY(lines[1].contains(QStringLiteral("×3")));
    QCOMPARE(StackText::lines({ { f, g, f, g }, 0 }, 2).lines.last(), QStringLiteral("… 2 more frames"));

    StackPane pane;
    pane.setContent(QStringLiteral("Rank 0"), { QStringLiteral("a") }, { QStringLiteral("a"), QStringLiteral("b") },
        QStringLiteral("Rank 1 has no allocation at this site."));
    QCOMPARE(pane.text(), QStringLiteral("Rank 0\na\n\nRank 1 has no allocation at this site."));
    pane.setShowAllFrames(true);
    QVERIFY(pane.text().contains(QLatin1String("a\nb")));
    pane.clear();
    QVERIFY(pane.text().isEmpty());

    // stacks="all": in the order called, innermost first: the C++ frames folded into the first line (a click unfolds
    // it), torch's frame dimmed, the user's frame where reading starts, marked and scrolled to.
    const StackText::Frame malloc { "CUDACachingAllocator.cpp", "c10::cuda::CUDACachingAllocator::malloc", 0 };
    const StackText::Frame add { "", "at::_ops::add_Tensor::call", 0 };
    const StackText::Frames recorded { { malloc, add, g, f }, 0 };
    const StackText::Frames shown { { g, f, malloc, add }, 2, { { 0, 2 } }, 1, { true, false } };
    const StackText::Lines folded = StackText::lines(shown);
    QCOMPARE(folded.lines.size(), 3);
    QCOMPARE(folded.lines.front(), QStringLiteral("+2 native frames"));
    QCOMPARE(folded.lines.last(), QStringLiteral("forward  train.py:12  (/home/u)"));
    QCOMPARE(folded.start, 2);
    QCOMPARE(folded.dimmed, (QList<int> { 0, 1 }));
    QCOMPARE(folded.folded.size(), 2);
    QCOMPARE(StackText::lines(shown, 1).lines.last(), QStringLiteral("… 2 more frames"));
    pane.setShowAllFrames(false);
    pane.setContent(QStringLiteral("Rank 0\nsecond header line"), folded, StackText::lines(recorded));
    QVERIFY(!pane.showsNativeFrames());
    QCOMPARE(pane.text(),
        QStringLiteral("Rank 0\nsecond header line\n+2 native frames\n") + folded.lines[1]
            + QStringLiteral("\nforward  train.py:12  (/home/u)"));
    QCOMPARE(pane.readingStartLine(), 4);
    pane.resize(600, 300);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    auto* text = pane.findChild<QPlainTextEdit*>();
    QVERIFY(text);
    QCOMPARE(text->textCursor().blockNumber(), 4);
    const auto marked = [text](int block) {
        for (const QTextEdit::ExtraSelection& mark : text->extraSelections()) {
            if (mark.cursor.blockNumber() == block && mark.format.background().style() != Qt::NoBrush)
                return true;
        }
        return false;
    };
    QVERIFY(marked(4));
    QVERIFY(!marked(3));
    // Switched to the dark theme while it shows: the dimmed lines take the new palette's colour.
    const auto dimColour = [text](int block) {
        for (const QTextEdit::ExtraSelection& mark : text->extraSelections()) {
            if (mark.cursor.blockNumber() == block && mark.format.foreground().style() != Qt::NoBrush)
                return mark.format.foreground().color();
        }
        return QColor();
    };
    QCOMPARE(dimColour(2), pane.palette().color(QPalette::PlaceholderText));
    const QPalette before = QApplication::palette();
    const QPalette dark = ChartStyle::darkPalette();
    QVERIFY(dark.color(QPalette::PlaceholderText) != before.color(QPalette::PlaceholderText));
    QApplication::setPalette(dark); // as the View menu's theme does
    QTRY_COMPARE(dimColour(2), dark.color(QPalette::PlaceholderText));
    QCOMPARE(text->textCursor().blockNumber(), 4);
    QApplication::setPalette(before);
    QTRY_COMPARE(dimColour(2), before.color(QPalette::PlaceholderText));
    const QTextBlock foldedLine = text->document()->findBlockByNumber(2);
    QCOMPARE(foldedLine.text(), QStringLiteral("+2 native frames"));
    QTextCursor cursor(foldedLine);
    QTest::mouseClick(text->viewport(), Qt::LeftButton, {}, text->cursorRect(cursor).center() + QPoint(4, 0));
    QVERIFY(pane.showsNativeFrames());
    QVERIFY(
        pane.text().contains(QLatin1String("second header line\nc10::cuda::CUDACachingAllocator::malloc  "
                                           "CUDACachingAllocator.cpp:0\nat::_ops::add_Tensor::call  :0\n_call_impl")));
    QCOMPARE(pane.readingStartLine(), 5);
    QVERIFY(marked(5));
    // A click elsewhere unfolds nothing; the button folds it again.
    pane.setShowNativeFrames(false);
    QTest::mouseClick(text->viewport(), Qt::LeftButton, {},
        text->cursorRect(QTextCursor(text->document()->findBlockByNumber(3))).center());
    QVERIFY(!pane.showsNativeFrames());
    QVERIFY(pane.text().contains(QLatin1String("header line\n+2 native frames\n")));
    // "All frames": as recorded, the allocator first.
    pane.setShowAllFrames(true);
    QVERIFY(pane.text().contains(QLatin1String("second header line\nc10::cuda::CUDACachingAllocator::malloc")));
    QVERIFY(!pane.text().contains(QLatin1String("native frames")));
}

// Run once as is and once more by ctest with QT_SCALE_FACTOR=2 (tst_widgets_2x): the plots and the block map draw
// at the screen's device pixel ratio instead of being scaled up from 1×.
void TestWidgets::crispAtDevicePixelRatio()
{
    const double ratio = qApp->devicePixelRatio();
    const QList<LoadedFile> files = examples();
    const DeviceHistoryPtr a = DeviceHistory::build(files[0].snapshot, 0);
    const DeviceHistoryPtr b = DeviceHistory::build(files[1].snapshot, 0);
    TimelineView timeline;
    timeline.resize(900, 500);
    timeline.show();
    timeline.setTracks(
        { { 0, QStringLiteral("A"), a, a->peakEvent() }, { 1, QStringLiteral("B"), b, b->peakEvent() } }, {});
    QTRY_VERIFY_WITH_TIMEOUT(!timeline.isBusy() && timeline.bandCount(0) > 0, 10000);
    BlockMapView map;
    map.resize(900, 300);
    map.show();
    QSignalSpy ready(&map, &BlockMapView::stateReady);
    map.setState(0, QStringLiteral("A"), a, a->peakEvent(), {});
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() > 0, 10000);

    const QImage plotImage = timeline.grab().toImage();
    const QImage mapImage = map.grab().toImage();
    QCOMPARE(plotImage.devicePixelRatio(), ratio);
    QCOMPARE(plotImage.size(), QSize(900, 500) * ratio);
    QCOMPARE(mapImage.size(), QSize(900, 300) * ratio);
    auto* plot = timeline.findChild<QCustomPlot*>();
    QCOMPARE(plot->bufferDevicePixelRatio(), ratio);
    if (ratio < 2)
        return; // the 2× run checks the detail

    // The plot's own pixels: the overview and legend under it are widgets of their own, always crisp.
    const double plotDetail = detailInsideCells(plot->grab().toImage());
    const double mapDetail = detailInsideCells(mapImage);
    QVERIFY2(plotDetail > 0.01, qPrintable(QString::number(plotDetail)));
    QVERIFY2(mapDetail > 0.01, qPrintable(QString::number(mapDetail)));
    // The control: the same plot with its buffer at 1× is scaled up, and the measure sees it.
    plot->setBufferDevicePixelRatio(1);
    plot->replot();
    const double blurred = detailInsideCells(plot->grab().toImage());
    QVERIFY2(blurred < plotDetail / 4, qPrintable(QStringLiteral("%1 vs %2").arg(blurred).arg(plotDetail)));
    qInfo("2x2 cells with detail at 2x: timeline %.3f, block map %.3f; timeline from a 1x buffer %.3f", plotDetail,
        mapDetail, blurred);
}

// Event and step axes read "1.6 M", not "1.6·10⁶".
void TestWidgets::countLabelsReadAsNumbers()
{
    QCOMPARE(CountTicker::label(1600000), QStringLiteral("1.6 M"));
    QCOMPARE(CountTicker::label(250000), QStringLiteral("250 k"));
    QCOMPARE(CountTicker::label(12000), QStringLiteral("12 k"));
    QCOMPARE(CountTicker::label(5000), QStringLiteral("5000"));
    QCOMPARE(CountTicker::label(0), QStringLiteral("0"));
    QCOMPARE(CountTicker::label(2.5e9), QStringLiteral("2.5 G"));
}

// Zoom Back and Forward walk the views the user settled on, on both ranks at once; a burst of wheel notches is one
// step, zooming elsewhere drops the views ahead, and other tracks start afresh.
void TestWidgets::zoomBackAndForward()
{
    ZoomHistory history;
    const auto at = [](double lower, double upper) { return ZoomHistory::View { { { lower, upper } }, {} }; };
    history.reset(at(0, 100));
    QVERIFY(!history.canGoBack() && !history.canGoForward());
    history.record(at(0, 100)); // where it is already
    QCOMPARE(history.size(), size_t(1));
    history.record(at(0, 50));
    history.record(at(0, 25));
    QCOMPARE(history.back(), std::optional(at(0, 50)));
    QCOMPARE(history.back(), std::optional(at(0, 100)));
    QCOMPARE(history.back(), std::nullopt);
    QCOMPARE(history.forward(), std::optional(at(0, 50)));
    history.record(at(10, 20));
    QVERIFY(!history.canGoForward());
    QCOMPARE(history.back(), std::optional(at(0, 50)));
    for (int i = 0; i < int(ZoomHistory::MaxViews) * 2; ++i)
        history.record(at(0, i + 1));
    QCOMPARE(history.size(), ZoomHistory::MaxViews);

    const QList<LoadedFile> files = examples();
    const DeviceHistoryPtr a = DeviceHistory::build(files[0].snapshot, 0);
    const DeviceHistoryPtr b = DeviceHistory::build(files[1].snapshot, 0);
    const std::vector<TimelineTrack> tracks = { { 0, QStringLiteral("A"), a, a->peakEvent() },
        { 1, QStringLiteral("B"), b, b->peakEvent() } };
    TimelineView view;
    view.resize(1000, 700);
    view.show();
    view.setTracks(tracks, {});
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 10000);
    const QList<QCPAxisRect*> rects = view.plot()->axisRects();
    const auto x = [&](int i) { return rects[i]->axis(QCPAxis::atBottom)->range(); };
    const QCPRange full = x(0);
    QVERIFY(!view.zoomBackAction()->isEnabled());
    QVERIFY(!view.zoomForwardAction()->isEnabled());
    QCOMPARE(view.zoomBackAction()->shortcut(), QKeySequence(Qt::ALT | Qt::Key_Left));
    QCOMPARE(view.zoomForwardAction()->shortcut(), QKeySequence(Qt::ALT | Qt::Key_Right));

    view.zoomIn();
    const QCPRange once = x(0);
    view.zoomIn();
    const QCPRange twice = x(0);
    QVERIFY(twice.size() < once.size() && once.size() < full.size());
    QVERIFY(view.zoomBackAction()->isEnabled());
    view.zoomBackAction()->trigger();
    QCOMPARE(x(0), once);
    QCOMPARE(x(1), once);
    QVERIFY(view.zoomForwardAction()->isEnabled());
    view.zoomForward();
    QCOMPARE(x(0), twice);
    QCOMPARE(x(1), twice);
    view.zoomBack();
    view.zoomBack();
    QCOMPARE(x(0), full);
    QVERIFY(!view.zoomBackAction()->isEnabled());
    QVERIFY(view.zoomForwardAction()->isEnabled());
    view.zoomBack(); // nothing before the first view
    QCOMPARE(x(0), full);

    // A box zooms memory too, and back gives both axes back.
    const QCPRange memory = rects[0]->axis(QCPAxis::atLeft)->range();
    const QRect plot0 = rects[0]->rect();
    view.zoomToBox(0, QRect(plot0.left() + 100, plot0.top() + 30, 200, 40));
    QVERIFY(!view.zoomForwardAction()->isEnabled()); // a new view drops the ones ahead
    QVERIFY(rects[0]->axis(QCPAxis::atLeft)->range().upper < memory.upper);
    view.zoomBack();
    QCOMPARE(x(0), full);
    QCOMPARE(rects[0]->axis(QCPAxis::atLeft)->range(), memory);
    QCOMPARE(rects[1]->axis(QCPAxis::atLeft)->range(), memory);

    // Wheel notches (the axis scaled as QCustomPlot's wheel does) settle into one step.
    for (int notch = 0; notch < 5; ++notch)
        rects[1]->axis(QCPAxis::atBottom)->scaleRange(TimelineView::WheelZoomFactor, x(1).center());
    QVERIFY(view.zoomBackAction()->isEnabled()); // before the wheel has settled too
    view.settleZoom();
    QVERIFY(x(0).size() < full.size() * 0.9);
    view.zoomBack();
    QCOMPARE(x(0), full);
    view.zoomForward();
    QVERIFY(x(0).size() < full.size() * 0.9);

    // Other tracks (a new job) start a new history.
    view.setTracks(tracks, {});
    QVERIFY(!view.canZoomBack());
    QVERIFY(!view.canZoomForward());
    QVERIFY(!view.zoomBackAction()->isEnabled());
}

// A long tooltip near the window's edge stays inside the window: placed left of and above the pointer, and a stack's
// long lines wrap.
void TestWidgets::tooltipsStayInTheWindow()
{
    const QRect bounds(100, 100, 800, 600);
    QCOMPARE(ToolTipUtil::place(QSize(200, 100), QPoint(300, 300), bounds), QPoint(302, 316));
    QCOMPARE(ToolTipUtil::place(QSize(200, 100), QPoint(850, 300), bounds), QPoint(646, 316));
    QCOMPARE(ToolTipUtil::place(QSize(200, 100), QPoint(300, 650), bounds), QPoint(302, 546));
    QCOMPARE(ToolTipUtil::place(QSize(200, 550), QPoint(300, 400), bounds), QPoint(302, 100));
    QCOMPARE(ToolTipUtil::place(QSize(900, 700), QPoint(300, 400), bounds), QPoint(100, 100));
    QVERIFY(ToolTipUtil::wrapping(QStringLiteral("a<pre>b</pre>")).contains(QLatin1String("pre-wrap")));

    QWidget window;
    window.resize(640, 420);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QStringList stack;
    for (int i = 0; i < 6; ++i)
        stack << QStringLiteral("site-packages/torchtitan/components/very/long/module/path_%1.py:%2 "
                                "forward_with_a_long_function_name_%1")
                     .arg(i)
                     .arg(100 + i);
    const QString text = QStringLiteral("<b>Rank 3</b>, event 5588<pre>%1</pre>").arg(stack.join(QLatin1Char('\n')));
    const QRect inside(window.mapToGlobal(QPoint(0, 0)), window.size());
    for (const QPoint corner : { QPoint(630, 410), QPoint(5, 410), QPoint(630, 5), QPoint(320, 210) }) {
        ToolTipUtil::show(window.mapToGlobal(corner), text, &window);
        QLabel* tip = nullptr;
        for (QWidget* top : QApplication::topLevelWidgets()) {
            if (top->objectName() == QLatin1String("qtooltip_label"))
                tip = qobject_cast<QLabel*>(top);
        }
        QVERIFY(tip);
        QVERIFY2(inside.contains(tip->geometry()),
            qPrintable(QStringLiteral("pointer at %1,%2: tooltip %3,%4 %5×%6 in a window %7,%8 %9×%10")
                           .arg(corner.x())
                           .arg(corner.y())
                           .arg(tip->x())
                           .arg(tip->y())
                           .arg(tip->width())
                           .arg(tip->height())
                           .arg(inside.x())
                           .arg(inside.y())
                           .arg(inside.width())
                           .arg(inside.height())));
    }
    ToolTipUtil::show(QPoint(), QString(), &window);
}

// Step, OOM and peak labels sit on a box of the plot's background: their text keeps a contrast of 4.5 over the
// darkest and the lightest band, in either theme.
// A finding the filter found by a deep frame says which frame in its site cell: however narrow the column, the frame's
// name stays whole and the site gives way (elided in the middle, the frame lost its beginning).
void TestWidgets::filterKeepsTheFrameFoundInSight()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
    FindingsModel model;
    FindingsFilterModel filter;
    filter.setSourceModel(&model);
    model.setComparison(compareScenario(QStringLiteral("native_frames_burden_4")));
    QVERIFY(model.rowCount() > 0);
    filter.setFilterText(QStringLiteral("slot_tp_call"));
    const QModelIndex site = filter.index(0, FindingsModel::SiteColumn);
    const QString found = FindingsTableUtil::foundIn(site);
    QVERIFY2(found.contains(QStringLiteral("found in slot_tp_call (typeobject.c:7494)")), qPrintable(found));
    const QString text = site.data().toString();
    QVERIFY(text.endsWith(found));
    const QFontMetrics metrics(QApplication::font());
    const int width = metrics.horizontalAdvance(found) + metrics.horizontalAdvance(QStringLiteral("model.py:1…")) + 10;
    QVERIFY(metrics.horizontalAdvance(text) > width);
    const QString shown = FindingsTableUtil::elidedSite(text, found, metrics, width);
    QVERIFY2(shown.endsWith(found) && shown.contains(QChar(0x2026)) && metrics.horizontalAdvance(shown) <= width,
        qPrintable(shown));
    // Without a frame named, or where it fits, the text is the cell's.
    QCOMPARE(FindingsTableUtil::elidedSite(text, QString(), metrics, width), text);
    QCOMPARE(FindingsTableUtil::elidedSite(text, found, metrics, metrics.horizontalAdvance(text) + 1), text);
    filter.setFilterText(QString());
    QVERIFY(FindingsTableUtil::foundIn(filter.index(0, FindingsModel::SiteColumn)).isEmpty());
}

// Ranks alike are one row of the window's findings, opened on their ranks in order; a row, a group's or a rank's,
// selects its finding (the group's: its largest), and the filter brings a chosen member back.
void TestWidgets::findingsTableGroupsAlikeRanks()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
    const ComparisonPtr c = compareScenario(QStringLiteral("two_groups_8"));
    FindingsPanel panel;
    QTreeView* view = panel.view();
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.showComparison(c);
    const std::vector<AlikeRanks::Group>& groups = c->alike().findingGroups;
    QVERIFY(groups.size() < c->findings().size());
    QCOMPARE(view->model()->rowCount(), int(groups.size()));
    QCOMPARE(panel.shownFindings(), int(c->findings().size()));
    // The largest group leads the table sorted by excess; it says its ranks and opens on the others, by rank.
    const QModelIndex top = view->model()->index(0, 0);
    const size_t lead =
        size_t(panel.model()->findingAt(static_cast<QSortFilterProxyModel*>(view->model())->mapToSource(top)));
    const AlikeRanks::Group& group = groups[c->alike().findingGroupOf[lead]];
    QVERIFY(group.members.size() > 1);
    QCOMPARE(lead, group.first());
    for (size_t member : group.members)
        QVERIFY(c->findings()[member].excessBytes <= c->findings()[lead].excessBytes);
    const QString rankCell = top.siblingAtColumn(FindingsModel::RankColumn).data().toString();
    QVERIFY2(rankCell.contains(top.data(FindingsModel::AlikeRanksRole).toString()), qPrintable(rankCell));
    QCOMPARE(view->model()->rowCount(top), int(group.members.size()) - 1);
    view->expand(top);
    QVERIFY(view->isExpanded(top));
    int previous = -1;
    for (int row = 0; row < view->model()->rowCount(top); ++row) {
        const int rank =
            view->model()->index(row, FindingsModel::RankColumn, top).data(FindingsModel::SortRole).toInt();
        QVERIFY2(rank > previous, qPrintable(QString::number(rank)));
        previous = rank;
    }
    // Selecting the group selects its largest finding; a member row its own.
    QSignalSpy chosen(&panel, &FindingsPanel::currentFindingChanged);
    view->setCurrentIndex(top);
    QCOMPARE(panel.selectedFinding(), int(lead));
    QCOMPARE(chosen.last().at(0).toInt(), int(lead));
    const QModelIndex member = view->model()->index(0, 0, top);
    view->setCurrentIndex(member);
    const int memberFinding = member.data(FindingsModel::FindingIndexRole).toInt();
    QVERIFY(memberFinding >= 0 && memberFinding != int(lead));
    QCOMPARE(c->findings()[size_t(memberFinding)].rank,
        member.siblingAtColumn(FindingsModel::RankColumn).data(FindingsModel::SortRole).toInt());
    QCOMPARE(panel.selectedFinding(), memberFinding);
    QCOMPARE(chosen.last().at(0).toInt(), memberFinding);
    // Hidden by the filter and its group closed, the chosen rank comes back selected, its group open, once cleared.
    QLineEdit* field = nullptr;
    for (QLineEdit* edit : panel.findChildren<QLineEdit*>())
        field = edit->accessibleName() == QStringLiteral("Filter findings") ? edit : field;
    QVERIFY(field);
    view->collapse(top);
    field->setText(QStringLiteral("no-such-frame-anywhere"));
    QTRY_COMPARE(panel.shownFindings(), 0);
    field->clear();
    QTRY_COMPARE(panel.selectedFinding(), memberFinding);
    QVERIFY(view->currentIndex().parent().isValid());
    QVERIFY(view->isExpanded(view->currentIndex().parent()));
    const QModelIndex opened = view->currentIndex().parent();
    QCOMPARE(opened, view->model()->index(0, 0));
    // Moving down walks into the open group; the default finding of a pair of ranks is found under its group.
    panel.nextFinding();
    QCOMPARE(view->currentIndex(),
        view->model()->rowCount(opened) > 1 ? view->model()->index(1, 0, opened) : view->model()->index(1, 0));
    const Finding& f = c->findings()[size_t(memberFinding)];
    QVERIFY(panel.selectDefaultFinding(f.rank, -1));
    QVERIFY(panel.selectedFinding() >= 0);
    QCOMPARE(c->findings()[size_t(panel.selectedFinding())].rank, f.rank);
}

// "k of N" ranks hold each finding's site; "on:K[-M]" in the filter keeps those K to M ranks hold, as --present-on.
void TestWidgets::ranksColumnAndItsFilter()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
    FindingsModel model;
    model.setGrouped(true);
    FindingsFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // The burdened rank's extra work is on it alone; the uneven input's site is on every rank.
    for (const auto& [scenario, ranks] :
        { std::pair(QStringLiteral("burden_8"), 1), std::pair(QStringLiteral("input_8"), 8) }) {
        const ComparisonPtr c = compareScenario(scenario);
        model.setComparison(c);
        filter.setFilterText(QString());
        QVERIFY(!filter.isFiltering());
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex at = model.index(0, FindingsModel::RanksColumn);
        const Finding& f = c->findings()[size_t(model.findingAt(at))];
        QCOMPARE(f.ranksWithSite, ranks);
        QCOMPARE(at.data().toString(), QStringLiteral("%1 of 8").arg(ranks));
        QCOMPARE(at.data(FindingsModel::SortRole).toInt(), ranks);
        // "<no stack recorded>" and the like as the user reads them, the recorded label otherwise.
        QCOMPARE(model.index(0, FindingsModel::SiteColumn).data().toString(),
            VerdictText::siteLabel(c->sites().label(f.site), VerdictText::Translated));
        const auto shown = [&filter](const QString& text) {
            filter.setFilterText(text);
            return filter.rowCount();
        };
        QCOMPARE(shown(QStringLiteral("on:1")), ranks == 1 ? 1 : 0);
        QVERIFY(filter.isFiltering());
        QCOMPARE(shown(QStringLiteral("on:2-8")), ranks == 1 ? 0 : 1);
        QCOMPARE(shown(QStringLiteral("ON:%1").arg(ranks)), 1);
        // The cell's own text finds it too; with words to search both must hold.
        QCOMPARE(shown(QStringLiteral("%1 of 8").arg(ranks)), 1);
        QCOMPARE(shown(QStringLiteral("on:%1 no-such-frame-anywhere").arg(ranks)), 0);
        // Not a range (M below K): searched as written, and matching nothing.
        QCOMPARE(shown(QStringLiteral("on:3-2")), 0);
    }
    filter.setFilterText(QString());
    QCOMPARE(filter.rowCount(), 1);
}

void TestWidgets::stepLabelsReadOverAnyBand()
{
    const std::pair<const char*, QPalette> themes[] = { { "light", QApplication::style()->standardPalette() },
        { "dark", ChartStyle::darkPalette() } };
    for (const auto& [theme, palette] : themes) {
        const QColor box = TimelineBands::labelBackground(palette);
        for (const QColor band : { QColor(Qt::black), QColor(Qt::white), ChartStyle::allocationColor(0, palette),
                 ChartStyle::summarizedColor() }) {
            const double alpha = box.alphaF();
            const QColor under = QColor::fromRgbF(float(box.redF() * alpha + band.redF() * (1 - alpha)),
                float(box.greenF() * alpha + band.greenF() * (1 - alpha)),
                float(box.blueF() * alpha + band.blueF() * (1 - alpha)));
            const double ratio = ChartStyle::contrast(ChartStyle::annotationColor(palette), under);
            QVERIFY2(ratio >= 4.5,
                qPrintable(QStringLiteral("%1 theme, over %2: %3").arg(QLatin1String(theme), band.name()).arg(ratio)));
        }
    }
}

RANKSCOPE_TEST_CLASS(TestWidgets)
#include "tst_widgets.moc"

// Another job's tracks get their own overview, also when they arrive while the view is hidden (another tab) at the
// width the last overview was made for.
void TestWidgets::overviewFollowsNewTracks()
{
    const QList<LoadedFile> files = examples();
    const DeviceHistoryPtr a = DeviceHistory::build(files[0].snapshot, 0);
    const DeviceHistoryPtr b = DeviceHistory::build(files[1].snapshot, 0);
    QVERIFY(a->peakBytes() != b->peakBytes());
    const auto highest = [](const TimelineOverview* overview) {
        const std::vector<int64_t>& totals = overview->curves().front().maxTotal;
        return *std::max_element(totals.begin(), totals.end());
    };
    TimelineView view;
    view.resize(1000, 500);
    view.show();
    view.setTracks({ { 0, QStringLiteral("A"), a, a->peakEvent() } }, {});
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && view.overview()->hasCurves(), 10000);
    QCOMPARE(highest(view.overview()), a->peakBytes());
    view.hide();
    view.setTracks({ { 1, QStringLiteral("A"), b, b->peakEvent() } }, {});
    view.show();
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 10000);
    QCOMPARE(highest(view.overview()), b->peakBytes());
}

// A and B on one memory scale with equal plot heights; zoom linked across ranks (and unlinkable), box zoom, the
// overview's brush, Home.
void TestWidgets::timelinesShareScaleAndZoom()
{
    const QList<LoadedFile> files = examples();
    const DeviceHistoryPtr a = DeviceHistory::build(files[0].snapshot, 0);
    const DeviceHistoryPtr b = DeviceHistory::build(files[1].snapshot, 0);
    QVERIFY(a->peakBytes() > b->peakBytes()); // rank 0 holds more
    TimelineView view;
    view.resize(1000, 700);
    view.show();
    view.setTracks(
        { { 0, QStringLiteral("A"), a, a->peakEvent() }, { 1, QStringLiteral("B"), b, b->peakEvent() } }, {});
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && view.overview()->hasCurves(), 10000);
    view.plot()->replot();
    const QList<QCPAxisRect*> rects = view.plot()->axisRects();
    QCOMPARE(rects.size(), 2);
    const auto x = [&](int i) { return rects[i]->axis(QCPAxis::atBottom)->range(); };
    const auto y = [&](int i) { return rects[i]->axis(QCPAxis::atLeft)->range(); };

    // One scale: the same bytes are the same pixels on A and B.
    QCOMPARE(y(0), y(1));
    QCOMPARE(rects[0]->height(), rects[1]->height());
    QVERIFY(y(0).upper >= double(a->peakBytes()));
    view.setYScale(TimelineView::FitEachScale);
    QVERIFY(y(1).upper < y(0).upper);
    QVERIFY(y(1).upper >= double(b->peakBytes()));
    view.setYScale(TimelineView::SharedScale);
    QCOMPARE(y(0), y(1));

    // Zooming B (the wheel scales the axis under the cursor) zooms A too; the overview's brush follows.
    const double full = x(0).size();
    rects[1]->axis(QCPAxis::atBottom)->scaleRange(0.5, x(1).center());
    QCOMPARE(x(0), x(1));
    QVERIFY(x(0).size() < full * 0.6);
    QCOMPARE(view.overview()->window().lower, x(0).lower);
    QCOMPARE(view.overview()->window().upper, x(0).upper);
    // Unlinked, B zooms alone; linked again, B follows A.
    view.setZoomLinked(false);
    rects[1]->axis(QCPAxis::atBottom)->scaleRange(0.5, x(1).center());
    QVERIFY(x(1).size() < x(0).size() * 0.6);
    view.setZoomLinked(true);
    QCOMPARE(x(0), x(1));

    // A box: time to its width, memory to its height, on both ranks.
    const QRect plot0 = rects[0]->rect();
    const QRect box(plot0.left() + 100, plot0.top() + 30, 200, 40);
    const double from = rects[0]->axis(QCPAxis::atBottom)->pixelToCoord(box.left());
    const double to = rects[0]->axis(QCPAxis::atBottom)->pixelToCoord(box.right());
    const double top = rects[0]->axis(QCPAxis::atLeft)->pixelToCoord(box.top());
    view.zoomToBox(0, box);
    QVERIFY(std::abs(x(0).lower - from) < 1e-6 * full && std::abs(x(0).upper - to) < 1e-6 * full);
    QVERIFY(std::abs(y(0).upper - top) < 1e-6 * top);
    QVERIFY(y(0).lower > 0);
    QCOMPARE(y(0), y(1));
    // A memory axis zoomed in makes a pixel worth fewer bytes: more allocations are bands.
    const int64_t zoomedPixel = view.pixelBytes(0);
    view.resetZoom();
    QVERIFY(view.pixelBytes(0) > zoomedPixel * 2);
    QCOMPARE(x(0).size(), full);
    QCOMPARE(y(0).upper, double(a->peakBytes()) * 1.12);
    // A box over what A holds above B's peak leaves B's plot empty (one scale): it says so, and how to see B again.
    QVERIFY(view.emptyHint(0).isEmpty() && view.emptyHint(1).isEmpty());
    const QCPAxis* memory0 = rects[0]->axis(QCPAxis::atLeft);
    const int aboveB = int(memory0->coordToPixel(double(b->peakBytes() + (a->peakBytes() - b->peakBytes()) / 2)));
    const int overA = int(memory0->coordToPixel(double(a->peakBytes()) * 1.05));
    QVERIFY2(aboveB - overA >= 8, qPrintable(QStringLiteral("%1 to %2").arg(overA).arg(aboveB)));
    view.zoomToBox(0, QRect(QPoint(plot0.left() + 1, overA), QPoint(plot0.right() - 1, aboveB)));
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 10000);
    view.plot()->replot();
    QVERIFY(y(1).lower > double(b->peakBytes()));
    QVERIFY(view.emptyHint(0).isEmpty());
    QVERIFY2(view.emptyHint(1).startsWith(QStringLiteral("Rank 1 holds at most")), qPrintable(view.emptyHint(1)));
    view.resetZoom();
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 10000);
    view.plot()->replot();
    QVERIFY(view.emptyHint(1).isEmpty());
    // Y fits the memory axis to what is in view: a stretch before the peaks holds less than they do.
    view.zoomToKeys(x(0).lower, x(0).lower + full / 20);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 10000);
    view.fitMemoryAxis();
    QVERIFY(y(0).upper < double(a->peakBytes()));
    QCOMPARE(y(0), y(1));
    view.resetZoom();

    // Dragging across the overview chooses the stretch; a double-click shows everything.
    TimelineOverview* overview = view.overview();
    const QRectF strip = overview->brushRect();
    const QPoint start(int(strip.left() + strip.width() * 0.2), overview->height() / 2);
    const QPoint end(int(strip.left() + strip.width() * 0.4), overview->height() / 2);
    view.zoomToKeys(x(0).lower + full * 0.6, x(0).lower + full * 0.7); // so the drag starts outside the brush
    QTest::mousePress(overview, Qt::LeftButton, {}, start);
    QTest::mouseMove(overview, end);
    QTest::mouseRelease(overview, Qt::LeftButton, {}, end);
    QVERIFY2(std::abs(x(0).size() - full * 0.2) < full * 0.02, qPrintable(QString::number(x(0).size() / full)));
    QVERIFY(std::abs(x(0).lower - (full * 0.2 + strip.left() * 0)) < full * 0.03 + std::abs(x(0).lower));
    QCOMPARE(x(0), x(1));
    QTest::mouseDClick(overview, Qt::LeftButton, {}, start);
    QCOMPARE(x(0).size(), full);
    // Zoomed all the way out the brush covers everything: a drag on it draws a new one.
    QTest::mousePress(overview, Qt::LeftButton, {}, start);
    QTest::mouseMove(overview, end);
    QTest::mouseRelease(overview, Qt::LeftButton, {}, end);
    QVERIFY2(std::abs(x(0).size() - full * 0.2) < full * 0.02, qPrintable(QString::number(x(0).size() / full)));
    QTest::mouseDClick(overview, Qt::LeftButton, {}, start);
    QCOMPARE(x(0).size(), full);

    // The legend names what the plots draw.
    const QStringList legend = view.legend()->texts();
    for (const QString& entry : { QStringLiteral("an allocation (each its own colour)"),
             QStringLiteral("comparison point"), QStringLiteral("peak") })
        QVERIFY2(legend.contains(entry), qPrintable(legend.join(QLatin1Char('|'))));
    // Only what is drawn: these ranks have no OOM, no profiler step and no allocation selected yet.
    QVERIFY(!legend.contains(QStringLiteral("out of memory")));
    QVERIFY(!legend.contains(QStringLiteral("step begins")));
    QVERIFY(!legend.contains(QStringLiteral("selected allocation")));
    view.setSelectedAllocation(0, a->liveSet(a->peakEvent()).front());
    QVERIFY(view.legend()->texts().contains(QStringLiteral("selected allocation")));
    QVERIFY(std::any_of(
        legend.begin(), legend.end(), [](const QString& t) { return t.contains(QLatin1String("summed")); }));
    view.setBandColoring(TimelineView::ColorByCategory);
    QVERIFY(view.legend()->texts().contains(QStringLiteral("activations")));
}

// A finding whose allocations are far below a pixel is still seen: marked where it is, in the finding's colour, and
// said in the legend; a site that has no allocation marks nothing.
void TestWidgets::findingLitAtAnySize()
{
    const QList<LoadedFile> files = examples();
    const DeviceHistoryPtr h = DeviceHistory::build(files[0].snapshot, 0);
    TimelineView view;
    view.resize(1000, 500);
    view.show();
    view.setTracks({ { 0, QStringLiteral("A"), h, h->peakEvent() } }, {});
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && view.bandCount(0) > 0, 10000);
    // A site all of whose allocations are under 1/64 of a pixel: never a band.
    std::vector<StackId> stacks;
    for (const Allocation& a : h->allocations())
        stacks.push_back(a.stack);
    const std::vector<SiteTable::StackSite> sites = SiteTable::sitesOf(h->snapshot(), stacks, SiteOptions {}, false);
    std::map<uint64_t, int64_t> largest;
    std::map<uint64_t, int> inTrace;
    for (size_t i = 0; i < sites.size(); ++i) {
        largest[sites[i].fingerprint] = std::max(largest[sites[i].fingerprint], h->allocations()[i].size);
        inTrace[sites[i].fingerprint] += h->allocations()[i].allocEvent != Allocation::NoEvent;
    }
    std::optional<uint64_t> small;
    for (const auto& [fingerprint, size] : largest) {
        if (size < view.pixelBytes(0) / 64 && inTrace[fingerprint] > 0)
            small = fingerprint;
    }
    QVERIFY(small);
    const QColor mark = ChartStyle::findingColor(view.palette());
    const auto marked = [&] { return pixelsOf(view, mark); };
    QCOMPARE(marked(), 0);
    view.setHighlightedSite(*small);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 10000);
    QCOMPARE(view.highlightedBandCount(0), 0);
    QVERIFY(view.litMarkerColumns(0) > 0);
    QVERIFY(marked() > 3 * view.litMarkerColumns(0) / 2);
    // And a rug along the time axis where it is live, whatever the memory scale.
    QVERIFY(view.litRugColumns(0) >= view.litMarkerColumns(0));
    QVERIFY(rugPixels(view, 0, mark) > 0);
    QVERIFY(view.legend()->texts().contains(QStringLiteral("the finding's allocations among the summed ones")));
    QVERIFY(view.legend()->texts().contains(QStringLiteral("other allocations (faded)")));
    // The control: a site with no allocation.
    view.setHighlightedSite(uint64_t(12345));
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 10000);
    QCOMPARE(view.litMarkerColumns(0), 0);
    QCOMPARE(marked(), 0);
    QCOMPARE(view.litRugColumns(0), 0);
    // A site of bands: the rug too, so that a band a sliver of a pixel tall on a tall axis is still found.
    std::optional<uint64_t> banded;
    for (const auto& [fingerprint, size] : largest) {
        if (size > view.pixelBytes(0) * 4 && inTrace[fingerprint] > 0)
            banded = fingerprint;
    }
    QVERIFY(banded);
    view.setHighlightedSite(*banded);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 10000);
    QVERIFY(view.highlightedBandCount(0) > 0);
    QVERIFY(rugPixels(view, 0, mark) > 0);
    QVERIFY(view.litRugColumns(0) > 0);
}

// Linked block maps draw a byte the same width on both and zoom together; unlinked they do not.
void TestWidgets::blockMapsShareScaleAndZoom()
{
    const auto load = [](const char* name) {
        return DeviceHistory::build(
            SnapshotReader::read(dataDir() + QLatin1Char('/') + QLatin1String(name)).snapshot, 0);
    };
    const DeviceHistoryPtr small = load("magma27_memory_snapshot.pickle");
    const DeviceHistoryPtr large = load("cranberrii_memory_snapshot.pickle");
    BlockMapView a;
    BlockMapView b;
    a.setPartner(&b);
    b.setPartner(&a);
    for (BlockMapView* map : { &a, &b }) {
        map->resize(700, 320);
        map->show();
    }
    QSignalSpy readyA(&a, &BlockMapView::stateReady);
    QSignalSpy readyB(&b, &BlockMapView::stateReady);
    a.setState(0, QStringLiteral("A"), small, small->peakEvent(), {});
    b.setState(1, QStringLiteral("B"), large, large->peakEvent(), {});
    QTRY_VERIFY_WITH_TIMEOUT(readyA.count() > 0 && readyB.count() > 0, 10000);
    QCOMPARE(a.rowBytes(), b.rowBytes());
    a.zoomAt(QPointF(350, 150), 2.0);
    QCOMPARE(b.zoom(), a.zoom());
    QVERIFY(a.zoom() > 1.9);
    a.setLinked(false);
    QVERIFY(!b.isLinked());
    QVERIFY(a.rowBytes() != b.rowBytes()); // each at its own scale again
    b.zoomAt(QPointF(350, 150), 2.0);
    QVERIFY(b.zoom() > a.zoom() * 1.9);
    a.setLinked(true);
    QCOMPARE(a.rowBytes(), b.rowBytes());
    QCOMPARE(b.zoom(), a.zoom());
    // Fading the other sites for a finding says so in the legend.
    QVERIFY(!a.legendTexts().contains(QStringLiteral("allocated, other sites")));
    a.setHighlightedSite(uint64_t(1));
    QVERIFY(a.legendTexts().contains(QStringLiteral("allocated, other sites")));
}

// Step labels sit at steps the chart has, as many as the tick count asks for, evenly spaced: a hundred steps never
// crowd the axis, three get a label each.
void TestWidgets::stepLabelsThinOut()
{
    QCustomPlot plot;
    QSharedPointer<StepTicker> ticker(new StepTicker);
    std::vector<int64_t> steps;
    for (int64_t step = 100; step <= 10000; step += 100)
        steps.push_back(step);
    ticker->setSteps(steps);
    ticker->setTickCount(5);
    plot.xAxis->setTicker(ticker);
    plot.xAxis->setRange(0, 10100);
    plot.toPixmap(400, 200); // lays the axis out
    QCOMPARE(plot.xAxis->tickVectorLabels(),
        QVector<QString>({ QStringLiteral("100"), QStringLiteral("2000"), QStringLiteral("4000"),
            QStringLiteral("6000"), QStringLiteral("8000"), QStringLiteral("10000") }));
    // Steps off the round numbers: one a stretch, never two close together.
    ticker->setSteps({ 1999, 2001, 3500, 3990, 4010, 9000 });
    plot.toPixmap(400, 200);
    QCOMPARE(plot.xAxis->tickVector(), QVector<double>({ 1999, 3500, 9000 }));

    ticker->setSteps({ 10, 20, 30 });
    plot.xAxis->setRange(9, 31);
    plot.toPixmap(400, 200);
    QCOMPARE(plot.xAxis->tickVectorLabels(),
        QVector<QString>({ QStringLiteral("10"), QStringLiteral("20"), QStringLiteral("30") }));
}

void TestWidgets::timelinesShowEachAllocation_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("height");
    // Real full-step training snapshots, at the least height the window gives a plot and at a roomy one.
    for (const char* name : { "cranberrii_memory_snapshot.pickle", "bcrafton_memory_snapshot.pickle",
             "magma27_memory_snapshot.pickle", "jasper_snapshot.pickle" }) {
        for (int height : { 340, 700 })
            QTest::addRow("%s %d", name, height) << QString::fromLatin1(name) << height;
    }
}

// At the default zoom the grey remainder is a sliver of the area under the curve, and no colour covers much of it:
// the plot shows allocations, not a grey mass or one striped slab.
void TestWidgets::timelinesShowEachAllocation()
{
    QFETCH(QString, name);
    QFETCH(int, height);
    const DeviceHistoryPtr h =
        DeviceHistory::build(SnapshotReader::read(dataDir() + QLatin1Char('/') + name).snapshot, 0);
    TimelineView view;
    view.resize(1600, height);
    view.show();
    view.setTracks({ { 0, QStringLiteral("A"), h, h->peakEvent() } }, {});
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && view.bandCount(0) > 0, 10000);
    const QRect plot = view.plot()->axisRect()->rect().adjusted(1, 1, -1, -1);
    // (remainder, area under the curve, largest single colour) in pixels.
    const auto measure = [&] {
        view.plot()->replot();
        const QImage image = view.plot()->toPixmap(0, 0, 1.0).toImage();
        const QRgb rest = ChartStyle::summarizedColor().rgb();
        int remainder = 0;
        int bands = 0;
        std::map<QRgb, int> colours;
        for (int y = plot.top(); y <= plot.bottom(); ++y) {
            for (int x = plot.left(); x <= plot.right(); ++x) {
                const QColor c = image.pixelColor(x, y);
                if (c.rgb() == rest) {
                    ++remainder;
                } else if (c.hsvSaturationF() > 0.2 && c.valueF() > 0.3) {
                    ++bands;
                    ++colours[c.rgb()];
                }
            }
        }
        int largest = remainder;
        for (const auto& [colour, count] : colours)
            largest = std::max(largest, count);
        return std::tuple(remainder, remainder + bands, largest);
    };
    const auto [remainder, area, largest] = measure();
    QVERIFY(area > plot.width() * plot.height() / 10);
    qInfo("%s, plot %d px high: %d bands, remainder %.1f%% of the area under the curve, largest colour %.1f%%",
        qPrintable(name), plot.height(), view.bandCount(0), 100.0 * remainder / area, 100.0 * largest / area);
    QVERIFY(remainder * 10 <= area);
    QVERIFY(largest * 3 <= area);
    // The control: with only the ten largest allocations as bands, the measure sees the grey.
    view.setMaxBands(10);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && view.bandCount(0) <= 10, 10000);
    const auto [fewRemainder, fewArea, fewLargest] = measure();
    QVERIFY2(fewRemainder * 10 > fewArea, qPrintable(QString::number(double(fewRemainder) / fewArea)));
}

void TestWidgets::initTestCase()
{
    // The timelines remember whether annotated ranges are shown: in QtTest's own settings, from the default on.
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("timeline/annotationRanges"));
}

namespace {

const QString AnnotatedFile = QStringLiteral("bcrafton_memory_snapshot.pickle");
const QString RangesEntry = QStringLiteral("annotated ranges (record_function, NCCL)");

// A snapshot of our own, read afresh from a real file, for a test to add to before anything shares it.
std::shared_ptr<Snapshot> ownCopy(const QString& name)
{
    return std::const_pointer_cast<Snapshot>(SnapshotReader::read(dataDir() + QLatin1Char('/') + name).snapshot);
}

// bcrafton's real annotation (Optimizer.step#AdamW.step, events 1817 to 6479 of 6486) and ranges added around it, as
// torchtitan's traces carry them: nested scopes four deep, a burst of 100 collectives of two names, and a range
// without a START and one without an END.
DeviceHistoryPtr annotatedHistory()
{
    std::shared_ptr<Snapshot> s = ownCopy(AnnotatedFile);
    const TraceTimes& trace = s->deviceTimes[0];
    const auto mark = [&](bool start, const char* name, int64_t timeUs) {
        s->annotations.push_back({ s->strings.intern(name), 0, timeUs, start });
    };
    const auto range = [&](const char* name, size_t from, size_t to) {
        mark(true, name, trace[from] + 1);
        mark(false, name, trace[to] + 1);
    };
    mark(false, "open.start", trace[50]);
    range("forward", 100, 1500);
    range("layer.0", 200, 600);
    range("nccl:_all_gather_base", 300, 310);
    range("deep", 302, 305);
    for (size_t e = 1000; e < 1100; ++e)
        range(e % 2 ? "nccl:_reduce_scatter_base" : "nccl:_all_reduce", e, e);
    mark(true, "open.end", trace[6000]);
    return DeviceHistory::build(s, 0);
}

QString nameOf(const DeviceHistory& h, uint32_t span)
{
    const std::string_view name = h.snapshot().strings.view(h.annotations()[span].name);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

} // namespace

// Rows by nesting, capped; strips merged where ranges share a pixel column, and clipped to the plot.
void TestWidgets::annotatedRangesLaidOutInRows()
{
    const DeviceHistoryPtr h = annotatedHistory();
    QVERIFY(ProfilerStep::steps(*h).empty());
    const std::vector<AnnotationRanges::Placed> placed = AnnotationRanges::place(*h);
    QCOMPARE(placed.size(), size_t(1 + 1 + 4 + 100 + 1));
    std::map<QString, std::set<int>> rows;
    for (const AnnotationRanges::Placed& p : placed)
        rows[nameOf(*h, p.span)].insert(p.row);
    const std::map<QString, std::set<int>> expected = {
        { QStringLiteral("open.start"), { 0 } }, // from the start of the trace, ended before "forward" began
        { QStringLiteral("forward"), { 0 } }, { QStringLiteral("layer.0"), { 1 } },
        { QStringLiteral("nccl:_all_gather_base"), { 2 } },
        { QStringLiteral("deep"), { 2 } }, // a fourth level shares the last row
        { QStringLiteral("nccl:_all_reduce"), { 1 } }, // back to back inside "forward": one row
        { QStringLiteral("nccl:_reduce_scatter_base"), { 1 } }, { QStringLiteral("Optimizer.step#AdamW.step"), { 0 } },
        { QStringLiteral("open.end"), { 1 } }, // inside the optimizer step, to the end of the trace
    };
    QCOMPARE(rows, expected);

    const auto count = [&](const std::vector<AnnotationRanges::Strip>& strips, double from, double to, int row) {
        return std::count_if(strips.begin(), strips.end(),
            [&](const AnnotationRanges::Strip& s) { return s.row == row && s.left >= from && s.right <= to; });
    };
    // Ten events a pixel: the burst of 100 collectives (events 1000 to 1100) is one strip of both names.
    const std::vector<AnnotationRanges::Strip> narrow = AnnotationRanges::layout(
        *h, placed, [](EventIndex e) { return double(e) / 10; }, 0, 1000);
    QCOMPARE(count(narrow, 99, 111, 1), 1);
    const auto burst = std::find_if(
        narrow.begin(), narrow.end(), [](const AnnotationRanges::Strip& s) { return s.row == 1 && s.left >= 99; });
    QCOMPARE(burst->count, 100);
    QVERIFY(!burst->oneName);
    // Every range is still drawn: the strips stand for all of them.
    int ranges = 0;
    for (const AnnotationRanges::Strip& s : narrow)
        ranges += s.count;
    QCOMPARE(ranges, int(placed.size()));
    // Ten pixels an event: a strip each.
    const std::vector<AnnotationRanges::Strip> wide = AnnotationRanges::layout(
        *h, placed, [](EventIndex e) { return double(e) * 10; }, 0, 70000);
    QCOMPARE(count(wide, 9980, 11020, 1), 100);
    QCOMPARE(int(wide.size()), int(placed.size()));
    // Clipped to the plot: between events 5000 and 5900 only the optimizer step shows, edge to edge.
    const std::vector<AnnotationRanges::Strip> clipped = AnnotationRanges::layout(
        *h, placed, [](EventIndex e) { return double(e) / 10; }, 500, 590);
    QCOMPARE(clipped.size(), size_t(1));
    QCOMPARE(nameOf(*h, clipped[0].span), QStringLiteral("Optimizer.step#AdamW.step"));
    QCOMPARE(clipped[0].left, 500.0);
    QCOMPARE(clipped[0].right, 590.0);

    // Same-name ranges merge with a wide strip of their name in the column it ends in; others do not.
    std::shared_ptr<Snapshot> s = ownCopy(AnnotatedFile);
    s->annotations.clear();
    const TraceTimes& trace = s->deviceTimes[0];
    const auto range = [&](const char* name, size_t from, size_t to) {
        s->annotations.push_back({ s->strings.intern(name), 0, trace[from] + 1, true });
        s->annotations.push_back({ s->strings.intern(name), 0, trace[to] + 1, false });
    };
    range("a", 100, 199); // events 100 to 200: pixels 10 to 20
    range("a", 200, 200);
    range("b", 201, 201);
    const DeviceHistoryPtr merged = DeviceHistory::build(s, 0);
    const std::vector<AnnotationRanges::Strip> strips = AnnotationRanges::layout(
        *merged, AnnotationRanges::place(*merged), [](EventIndex e) { return double(e) / 10; }, 0, 1000);
    QCOMPARE(strips.size(), size_t(2));
    QCOMPARE(strips[0].count, 2);
    QVERIFY(strips[0].oneName);
    QCOMPARE(strips[1].count, 1);
}

// The timeline draws ranges as strips with their own legend entry and tooltip, behind a remembered toggle; steps keep
// their lines.
void TestWidgets::annotatedRangesOnTheTimeline()
{
    // The real file as it is: its one annotation is an optimizer step, a range, not a profiler step.
    const DeviceHistoryPtr real =
        DeviceHistory::build(SnapshotReader::read(dataDir() + QLatin1Char('/') + AnnotatedFile).snapshot, 0);
    {
        TimelineView view;
        view.resize(1000, 400);
        view.show();
        view.setTracks({ { 0, QStringLiteral("A"), real, real->peakEvent() } }, {});
        QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 10000);
        QVERIFY(view.annotationRangesShown()); // on by default
        QVERIFY(view.legend()->texts().contains(RangesEntry));
        QVERIFY(!view.legend()->texts().contains(QStringLiteral("step begins")));
        QCOMPARE(view.annotationStrips(0).size(), size_t(1));
    }

    const DeviceHistoryPtr h = annotatedHistory();
    TimelineView view;
    view.resize(1000, 400);
    view.show();
    view.setTracks({ { 0, QStringLiteral("A"), h, h->peakEvent() }, { 1, QStringLiteral("B"), real, 0 } }, {});
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 10000);
    view.plot()->replot();
    const std::vector<AnnotationRanges::Strip> strips = view.annotationStrips(0);
    std::set<int> rows;
    int ranges = 0;
    for (const AnnotationRanges::Strip& s : strips) {
        rows.insert(s.row);
        ranges += s.count;
        const QRectF r = view.stripRect(0, s);
        QVERIFY(view.plot()->axisRect(0)->rect().contains(r.center().toPoint()));
    }
    QCOMPARE(rows, (std::set<int> { 0, 1, 2 }));
    QCOMPARE(ranges, 107);
    QVERIFY(int(strips.size()) < ranges); // at a thousand pixels for 6486 events, the burst merges
    // Rows go down from the top of the plot, under the rank's title.
    const QRect area = view.plot()->axisRect(0)->rect();
    QVERIFY(view.stripRect(0, strips.front()).top() < area.top() + area.height() / 6);
    QVERIFY(view.stripRect(0, strips.back()).top() > view.stripRect(0, strips.front()).top());
    // Readable in a light and a dark theme.
    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    for (const QPalette& palette : { light, dark })
        QVERIFY(ChartStyle::contrast(ChartStyle::annotationRangeColor(palette), palette.color(QPalette::Base)) >= 3);

    // Hovering the optimizer step's strip names it, with its duration and what was allocated at its ends.
    const auto optimizer = std::find_if(strips.begin(), strips.end(), [&](const AnnotationRanges::Strip& s) {
        return s.count == 1 && nameOf(*h, s.span) == QStringLiteral("Optimizer.step#AdamW.step");
    });
    QVERIFY(optimizer != strips.end());
    const AnnotationSpan& span = h->annotations()[optimizer->span];
    const QString tip = view.describeAt(view.stripRect(0, *optimizer).center());
    QVERIFY2(tip.contains(QLatin1String("annotated range <b>Optimizer.step#AdamW.step</b>")), qPrintable(tip));
    QVERIFY2(tip.contains(QString::number(double(span.endUs - span.startUs) / 1000, 'f', 3) + QLatin1String(" ms")),
        qPrintable(tip));
    QVERIFY2(
        tip.contains(QLatin1String("Allocated at its start: ") + Formatting::bytes(h->totalAfter(span.startEvent))),
        qPrintable(tip));
    // The merged burst says so.
    const auto burst = std::find_if(strips.begin(), strips.end(), [](const auto& s) { return s.count >= 50; });
    QVERIFY(burst != strips.end());
    QVERIFY2(view.describeAt(view.stripRect(0, *burst).center()).contains(QLatin1String("too short at this zoom")),
        qPrintable(view.describeAt(view.stripRect(0, *burst).center())));
    QVERIFY(view.stripLabel(0, *burst).startsWith(QString::number(burst->count) + QLatin1String(" range")));
    QCOMPARE(view.stripLabel(0, *optimizer), QStringLiteral("Optimizer.step#AdamW.step"));

    // Hidden: no strips, no legend entry, no tooltip, and the picture changes.
    const QImage shown = view.plot()->toPixmap(0, 0, 1.0).toImage();
    const QPointF at = view.stripRect(0, *optimizer).center();
    view.setAnnotationRangesShown(false);
    QVERIFY(!view.annotationRangesAction()->isChecked());
    QVERIFY(view.annotationStrips(0).empty());
    QVERIFY(!view.legend()->texts().contains(RangesEntry));
    QVERIFY(!view.describeAt(at).contains(QLatin1String("annotated range")));
    view.plot()->replot();
    QVERIFY(view.plot()->toPixmap(0, 0, 1.0).toImage() != shown);
    view.setAnnotationRangesShown(true);
    QVERIFY(view.legend()->texts().contains(RangesEntry));
    view.plot()->replot();
    QCOMPARE(view.plot()->toPixmap(0, 0, 1.0).toImage(), shown);

    // The context menu's toggle is the user's choice: remembered for the timelines made afterwards. A program's own
    // setAnnotationRangesShown is not.
    QAction* toggle = view.annotationRangesAction();
    QVERIFY(toggle->isEnabled() && toggle->isCheckable() && toggle->isChecked());
    QCOMPARE(toggle->text(), QStringLiteral("Show Annotated Ranges"));
    QVERIFY(!QSettings().contains(QStringLiteral("timeline/annotationRanges")));
    toggle->trigger();
    QVERIFY(!view.annotationRangesShown());
    QVERIFY(!view.legend()->texts().contains(RangesEntry));
    QCOMPARE(QSettings().value(QStringLiteral("timeline/annotationRanges")), QVariant(false));
    QVERIFY(!TimelineView().annotationRangesShown());
    toggle->trigger();
    QVERIFY(view.annotationRangesShown());
    QVERIFY(TimelineView().annotationRangesShown());

    // The control: a trace with only profiler steps gets their lines and no range.
    QTemporaryDir dir;
    const DeviceHistoryPtr stepped = steppedHistory(dir);
    QCOMPARE(ProfilerStep::steps(*stepped).size(), size_t(3));
    QVERIFY(!AnnotationRanges::any(*stepped));
    view.setTracks({ { 0, QStringLiteral("A"), stepped, 3 } }, {});
    QTRY_VERIFY(!view.isBusy());
    QVERIFY(view.legend()->texts().contains(QStringLiteral("step begins")));
    QVERIFY(!view.legend()->texts().contains(RangesEntry));
    QVERIFY(view.annotationStrips(0).empty());
    QVERIFY(!toggle->isEnabled());
    QSettings().remove(QStringLiteral("timeline/annotationRanges"));
}

// compile_context, user_metadata and a private pool, where the trace has them: in the stack pane between the header
// and the frames, and in the timeline's and the block map's tooltips. An allocation without them shows none.
void TestWidgets::allocationContextInStackAndTooltips()
{
    // The file records 'N/A' and '' for every allocation and only the default pool: a copy gets a compiled region,
    // metadata and a private pool for its largest allocation still live at the end.
    const DeviceHistoryPtr plain =
        DeviceHistory::build(SnapshotReader::read(dataDir() + QLatin1Char('/') + AnnotatedFile).snapshot, 0);
    const auto segmentOf = [](const Snapshot& s, uint64_t address) {
        for (size_t i = 0; i < s.segments.size(); ++i) {
            if (address >= s.segments[i].address && address < s.segments[i].address + uint64_t(s.segments[i].totalSize))
                return int(i);
        }
        return -1;
    };
    std::optional<uint32_t> chosen;
    for (uint32_t i = 0; i < plain->allocations().size(); ++i) {
        const Allocation& a = plain->allocations()[i];
        if (a.allocEvent != Allocation::NoEvent && a.freeEvent == Allocation::NoEvent
            && segmentOf(plain->snapshot(), a.addr) >= 0 && (!chosen || a.size > plain->allocations()[*chosen].size))
            chosen = i;
    }
    QVERIFY(chosen);
    const uint32_t event = plain->allocations()[*chosen].allocEvent;
    std::shared_ptr<Snapshot> s = ownCopy(AnnotatedFile);
    const int segment = segmentOf(*s, plain->allocations()[*chosen].addr);
    s->entryContexts.push_back({ s->strings.intern("0/1"), s->strings.intern("microbatch=2 layer=3"), EmptyString });
    TraceEntry entry = s->deviceTraces[0][event];
    s->entryKinds.push_back(
        { s->actionName(entry), s->kindOf(entry).streamIndex, uint32_t(s->entryContexts.size() - 1) });
    entry.kind = EntryKinds::make(entry.action(), uint32_t(s->entryKinds.size() - 1));
    s->deviceTraces[0].set(event, entry);
    s->segments[size_t(segment)].poolId[0] = 1;
    s->segments[size_t(segment)].poolId[1] = 7;
    const DeviceHistoryPtr h = DeviceHistory::build(s, 0);
    const Allocation& a = h->allocations()[*chosen];
    QCOMPARE(a.allocEvent, event);
    // The control: an allocation of another segment, made with the file's own 'N/A' and ''.
    const auto control = std::find_if(h->allocations().begin(), h->allocations().end(), [&](const Allocation& c) {
        return c.allocEvent != Allocation::NoEvent && c.allocEvent != event && segmentOf(*s, c.addr) >= 0
            && segmentOf(*s, c.addr) != segment;
    });
    QVERIFY(control != h->allocations().end());
    QVERIFY(h->snapshot().strings.view(h->contextOf(*control).compileContext) == "N/A");

    const QString compiled = QStringLiteral("Compiled region: 0/1");
    const QString metadata = QStringLiteral("Metadata: microbatch=2 layer=3");
    const QString pool = QStringLiteral("Private pool (1, 7): CUDA graph or MemPool");
    QCOMPARE(StackPane::contextLines(*h, a), (QStringList { compiled, metadata, pool }));
    QVERIFY(StackPane::contextLines(*h, *control).isEmpty());

    StackPane pane;
    pane.setContent(QStringLiteral("Rank 0 · allocation"), { QStringLiteral("forward  train.py:12") }, {});
    pane.showContextOf(*h, a);
    QCOMPARE(pane.text(),
        QStringLiteral("Rank 0 · allocation\n") + compiled + QLatin1Char('\n') + metadata + QLatin1Char('\n') + pool
            + QStringLiteral("\nforward  train.py:12"));
    // The next content is another allocation's until it says otherwise.
    pane.setContent(QStringLiteral("Rank 0 · block"), { QStringLiteral("forward  train.py:12") }, {});
    QCOMPARE(pane.text(), QStringLiteral("Rank 0 · block\nforward  train.py:12"));
    pane.showContextOf(*h, *control);
    QCOMPARE(pane.text(), QStringLiteral("Rank 0 · block\nforward  train.py:12"));

    // The timeline's tooltip over its band, somewhere up the column in the middle of its life.
    TimelineView view;
    view.resize(1000, 500);
    view.show();
    view.setTracks({ { 0, QStringLiteral("A"), h, h->peakEvent() } }, {});
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && view.bandCount(0) > 0, 10000);
    view.plot()->replot();
    const QCPAxisRect* rect = view.plot()->axisRect(0);
    const double x = rect->axis(QCPAxis::atBottom)
                         ->coordToPixel(view.keyOf(0, (EventIndex(event) + EventIndex(h->eventCount())) / 2));
    int withContext = 0;
    int without = 0;
    for (int y = rect->rect().top(); y < rect->rect().bottom(); y += 2) {
        const QString text = view.describeAt(QPointF(x, y));
        if (!text.contains(QLatin1String("Allocated")))
            continue;
        if (text.contains(compiled) && text.contains(metadata) && text.contains(pool))
            ++withContext;
        else if (!text.contains(QLatin1String("Compiled region")) && !text.contains(QLatin1String("Private pool")))
            ++without;
    }
    QVERIFY(withContext > 0);
    QVERIFY(without > 0); // the other bands of the column

    // The block map's tooltip over its block, at the end of the trace.
    BlockMapView map;
    map.resize(900, 300);
    map.show();
    QSignalSpy ready(&map, &BlockMapView::stateReady);
    map.setState(0, QStringLiteral("A"), h, EventIndex(h->eventCount()) - 1, {});
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() > 0, 10000);
    int blocksWith = 0;
    int blocksWithout = 0;
    for (int y = 0; y < map.height(); y += 3) {
        for (int px = 0; px < map.width(); px += 3) {
            const QString text = map.describeAt(QPointF(px, y));
            if (!text.startsWith(QLatin1String("<b>Block")))
                continue;
            if (text.contains(compiled) && text.contains(pool))
                ++blocksWith;
            else if (!text.contains(QLatin1String("Compiled region")))
                ++blocksWithout;
        }
    }
    QVERIFY(blocksWith > 0);
    QVERIFY(blocksWithout > 0);

    // A finding stands for one of its extra blocks live at its rank's point; the examples have no context to show.
    std::vector<RankInput> ranks;
    for (const LoadedFile& f : examples())
        ranks.push_back({ f.rank, f.path, f.snapshot });
    const ComparisonPtr c = Comparison::compute(ranks, {});
    QVERIFY(!c->findings().empty());
    const Finding& f = c->findings().front();
    const std::optional<uint32_t> representative = StackPane::representativeAllocation(*c, 0);
    QVERIFY(representative);
    const size_t rank = size_t(c->rankIndex(f.rank));
    const Allocation& r = c->history(rank).allocations()[*representative];
    QVERIFY(r.liveAfter(c->ranks()[rank].point.event));
    QVERIFY(std::any_of(f.blocks.begin(), f.blocks.end(), [&](const FindingRun& b) { return b.address == r.addr; }));
    const StackText::Description d = StackText::describeFinding(*c, 0, -1);
    pane.setContent(d.header, d.frames, d.allFrames);
    pane.showContextOf(*c, 0);
    QVERIFY(!pane.text().contains(QLatin1String("Compiled region")));
    QVERIFY(!pane.text().contains(QLatin1String("Private pool")));
}
