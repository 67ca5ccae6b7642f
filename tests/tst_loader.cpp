// SPDX-License-Identifier: MIT
// Background loading and the rank table: parallel jobs with progress, a failing file among good ones, cancelling,
// and RankListModel under QAbstractItemModelTester through all of it.
#include "jobtracker.h"
#include "ranklistmodel.h"
#include "snapshotloader.h"
#include "testprogram.h"
#include "testutils.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace RankScope;
using namespace TestUtils;

class TestLoader : public QObject
{
    Q_OBJECT
private slots:
    void loadsInParallelAndKeepsGoodFiles();
    void cancel();
    void loadAllMatchesFileOrder();
    void jobResultsMovedNotCopied();

private:
    QTemporaryDir m_dir;
};

void TestLoader::loadsInParallelAndKeepsGoodFiles()
{
    RankListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    SnapshotLoader loader;
    connect(&loader, &SnapshotLoader::started, &model, &RankListModel::addLoading);
    connect(&loader, &SnapshotLoader::progress, &model, &RankListModel::setProgress);
    connect(&loader, &SnapshotLoader::finished, &model, &RankListModel::setLoaded);
    QSignalSpy finished(&loader, &SnapshotLoader::finished);
    QSignalSpy all(&loader, &SnapshotLoader::allFinished);

    const QString bad = writeFile(m_dir, QStringLiteral("rank1.pickle"), QByteArray("\x80\x04}(", 4));
    loader.load({ dataDir() + QStringLiteral("/cranberrii_memory_snapshot.pickle"), bad,
        dataDir() + QStringLiteral("/jasper_snapshot.pickle") });
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(model.index(0, RankListModel::StatusColumn).data(RankListModel::ProgressRole).toInt() >= 0);
    QVERIFY(all.wait(30000));
    QCOMPARE(finished.count(), 3);
    QTest::qWait(50);
    QCOMPARE(all.count(), 1); // once per batch, however close together the files finish
    QCOMPARE(model.loadedCount(), 2);
    QCOMPARE(model.failedCount(), 1);
    QCOMPARE(model.index(1, RankListModel::RankColumn).data().toInt(), 1);
    QVERIFY(model.index(1, RankListModel::StatusColumn)
                .data(RankListModel::ErrorRole)
                .toString()
                .contains(QLatin1String("truncated")));
    QCOMPARE(model.index(0, RankListModel::TraceEntriesColumn).data(RankListModel::SortRole).toLongLong(), 10307);
    QCOMPARE(model.index(2, RankListModel::ReservedColumn).data(RankListModel::SortRole).toLongLong(), 134217728);
    QCOMPARE(model.index(2, RankListModel::ReservedColumn).data().toString(), QStringLiteral("128 MiB"));
    QCOMPARE(model.index(2, RankListModel::StatusColumn).data(RankListModel::ProgressRole).toInt(), -1);

    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestLoader::cancel()
{
    // A snapshot big enough to still be loading when the cancel arrives: 400k trace entries.
    PickleWriter w;
    w.proto(4).emptyDict().mark().str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    for (int i = 0; i < 400000; ++i) {
        w.emptyDict().mark().keyStr("action", "alloc").key("addr", 4096 + i * 512).key("size", 512).setitems();
        if (i % 1000 == 999)
            w.appends().mark();
    }
    w.appends().op('a').setitems().stop();
    const QString big = writeFile(m_dir, QStringLiteral("big.pickle"), w.bytes());
    QVERIFY(QFileInfo(big).size() > 4 << 20);

    SnapshotLoader loader;
    QSignalSpy finished(&loader, &SnapshotLoader::finished);
    loader.load({ big, dataDir() + QStringLiteral("/jog_my_snapshot.pickle") });
    loader.cancel(0);
    QVERIFY(finished.wait(30000) || finished.count() > 0);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
    for (const QList<QVariant>& args : finished) {
        const auto file = args[1].value<LoadedFile>();
        if (file.path == big) {
            QVERIFY(file.cancelled);
            QVERIFY(!file.ok());
        } else {
            QVERIFY(file.ok()); // the other rank is not affected
        }
    }

    // Uncancelled, the same file loads fully.
    const LoadedFile full = LoadedFile::load(big, 0, false);
    QVERIFY2(full.ok(), qPrintable(full.error));
    QCOMPARE(full.snapshot->deviceTraces[0].size(), size_t(400000));
}

void TestLoader::loadAllMatchesFileOrder()
{
    const QStringList paths = { dataDir() + QStringLiteral("/kk_memory_snapshot.pickle"),
        dataDir() + QStringLiteral("/angel_my_snapshot.pickle") };
    const QList<LoadedFile> files = LoadedFile::loadAll(paths);
    QCOMPARE(files.size(), 2);
    QCOMPARE(files[0].path, paths[0]);
    QCOMPARE(files[0].snapshot->segments.size(), size_t(1457));
    QCOMPARE(files[1].rank, 1);
}

RANKSCOPE_TEST_CLASS(TestLoader)
namespace {
// Counts its copies: a job's result (a timeline's detail is tens of MB) must reach the GUI thread without one.
struct Counted
{
    explicit Counted(std::shared_ptr<int> copies = std::make_shared<int>(0))
        : copies(std::move(copies))
    { }
    Counted(const Counted& other)
        : copies(other.copies)
    {
        ++*copies;
    }
    Counted(Counted&&) = default;
    Counted& operator=(const Counted& other)
    {
        copies = other.copies;
        ++*copies;
        return *this;
    }
    Counted& operator=(Counted&&) = default;
    std::shared_ptr<int> copies;
};
} // namespace

void TestLoader::jobResultsMovedNotCopied()
{
    QObject owner;
    JobTracker jobs(&owner);
    auto copies = std::make_shared<int>(0);
    int applied = 0;
    jobs.start([copies] { return Counted(copies); },
        [&](Counted result) {
            QCOMPARE(result.copies, copies);
            ++applied;
        });
    QVERIFY(jobs.isBusy());
    QTRY_COMPARE(applied, 1);
    QVERIFY(!jobs.isBusy());
    QCOMPARE(*copies, 0);
    // The latest job wins: a superseded one is never applied.
    jobs.start([] { return Counted(); }, [&](Counted) { applied += 10; });
    jobs.start([copies] { return Counted(copies); }, [&](Counted) { ++applied; });
    QTRY_COMPARE(applied, 2);
    QTest::qWait(50);
    QCOMPARE(applied, 2);
    QCOMPARE(*copies, 0);
}

#include "tst_loader.moc"
