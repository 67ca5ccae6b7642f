// SPDX-License-Identifier: MIT
// Widgets offscreen: the verdict banner and the per-rank chart, fed by the real models.
#include <qcustomplot.h> // first: it needs `foreach`

#include "comparison.h"
#include "rankchart.h"
#include "rankfiles.h"
#include "ranklistmodel.h"
#include "snapshotloader.h"
#include "testutils.h"
#include "verdictbanner.h"

#include <QTest>

using namespace RankScope;

class TestWidgets : public QObject
{
    Q_OBJECT
private slots:
    void verdictBanner();
    void rankChartMarksTheOutlier();
};

void TestWidgets::verdictBanner()
{
    VerdictBanner banner;
    QVERIFY(banner.isHidden());
    banner.setPending(QStringLiteral("Comparing 4 ranks…"));
    QVERIFY(!banner.isHidden());
    QVERIFY(banner.text().startsWith(QStringLiteral("Comparing 4 ranks…")));

    std::vector<RankInput> ranks;
    for (const LoadedFile& f : SnapshotLoader::loadAll(
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
}

void TestWidgets::rankChartMarksTheOutlier()
{
    RankListModel model;
    RankChart chart;
    chart.setModel(&model);
    const QList<LoadedFile> files = SnapshotLoader::loadAll(
        RankFiles::expand({ QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples") }));
    for (int i = 0; i < files.size(); ++i) {
        model.addLoading(i, files[i].path, files[i].rank);
        model.setLoaded(i, files[i]);
    }
    auto* peaks = qobject_cast<QCPBars*>(chart.plot()->plottable(0));
    auto* outline = qobject_cast<QCPBars*>(chart.plot()->plottable(2));
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
}

QTEST_MAIN(TestWidgets)
#include "tst_widgets.moc"
