// SPDX-License-Identifier: MIT
#include "rankfiles.h"
#include "rankname.h"
#include "testprogram.h"

#include <QTemporaryDir>
#include <QTest>

using namespace RankScope;

class TestRankName : public QObject
{
    Q_OBJECT
private slots:
    void fromPath_data();
    void fromPath();
    void assignFallsBackToOrder();
    void folderScan();
};

void TestRankName::fromPath_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("rank"); // -1: none
    QTest::newRow("torchtitan") << QStringLiteral("dump/memory_snapshot/iteration_12/rank3_memory_snapshot.pickle")
                                << 3;
    QTest::newRow("torchtitan oom") << QStringLiteral("memory_snapshot/iteration_7_exit/rank12_memory_snapshot.pickle")
                                    << 12;
    QTest::newRow("megatron") << QStringLiteral("out/memory_trace_5.pickle") << 5;
    QTest::newRow("fsdp example") << QStringLiteral("snapshot_2_1.pickle") << 1;
    QTest::newRow("snapshot_N") << QStringLiteral("snapshot_4.pickle") << 4;
    QTest::newRow("rank-3") << QStringLiteral("rank-3.pickle") << 3;
    QTest::newRow("rank_3") << QStringLiteral("job/rank_3.json.gz") << 3;
    QTest::newRow("oom_rank") << QStringLiteral("oom_rank7.pickle") << 7;
    QTest::newRow("upper case") << QStringLiteral("RANK10.pickle") << 10;
    QTest::newRow("folder") << QStringLiteral("run/rank6/snapshot.pickle") << 6;
    QTest::newRow("bare number") << QStringLiteral("snapshots/2.pickle") << 2;
    QTest::newRow("no rank") << QStringLiteral("memory_snapshot.pickle") << -1;
    QTest::newRow("iteration only") << QStringLiteral("iteration_12/snapshot.pickle") << -1;
    QTest::newRow("word containing rank") << QStringLiteral("frank2.pickle") << -1;
    // A local rank is the rank inside one node: not a global rank.
    QTest::newRow("local_rank") << QStringLiteral("local_rank_2_memory_snapshot.pickle") << -1;
    QTest::newRow("localrank") << QStringLiteral("node1/localrank3.pickle") << -1;
}

void TestRankName::fromPath()
{
    QFETCH(QString, path);
    QFETCH(int, rank);
    const std::optional<int> found = RankName::fromPath(path);
    QCOMPARE(found.value_or(-1), rank);
}

void TestRankName::assignFallsBackToOrder()
{
    const QList<RankName::Assigned> ranks =
        RankName::assign({ QStringLiteral("a.pickle"), QStringLiteral("rank7.pickle"), QStringLiteral("b.pickle") });
    QCOMPARE(ranks.size(), 3);
    QCOMPARE(ranks[0].rank, 0);
    QVERIFY(!ranks[0].fromName);
    QCOMPARE(ranks[1].rank, 7);
    QVERIFY(ranks[1].fromName);
    QCOMPARE(ranks[2].rank, 2);

    // A local rank never collides with a global one: the file keeps its place among the files, with a note.
    const QList<RankName::Assigned> local = RankName::assign({ QStringLiteral("rank0_memory_snapshot.pickle"),
        QStringLiteral("rank1_memory_snapshot.pickle"), QStringLiteral("local_rank_0_memory_snapshot.pickle") });
    QCOMPARE(local[2].rank, 2);
    QVERIFY(!local[2].fromName);
    QCOMPARE(local[2].localRank, 0);
    QVERIFY2(local[2].note().contains(QLatin1String("local rank 0")), qPrintable(local[2].note()));
    QVERIFY(local[0].note().isEmpty());
}

void TestRankName::folderScan()
{
    QTemporaryDir dir;
    for (const char* name : { "rank10.pickle", "rank2.pickle", "notes.txt", "sub/rank1.json.gz", "plot.png" }) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        QDir().mkpath(QFileInfo(path).path());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    const QStringList files = RankFiles::expand({ dir.path() });
    QCOMPARE(files.size(), 3);
    QVERIFY(files[0].endsWith(QLatin1String("rank1.json.gz")));
    QVERIFY(files[1].endsWith(QLatin1String("rank2.pickle")));
    QVERIFY(files[2].endsWith(QLatin1String("rank10.pickle")));
    // A file named explicitly is kept whatever its extension.
    QCOMPARE(RankFiles::expand({ dir.filePath(QStringLiteral("notes.txt")) }).size(), 1);
}

RANKSCOPE_TEST_CLASS(TestRankName)
#include "tst_rankname.moc"
