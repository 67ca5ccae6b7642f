// SPDX-License-Identifier: MIT
// Step report logs in the shapes launchers and loggers write them: the parser finds every report line, and the
// analysis names the rank, step and phase where one rank departs, and whether its input was larger there.
#include "stepsreport.h"
#include "testprogram.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace RankScope;

class TestStepLog : public QObject
{
    Q_OBJECT
private slots:
    void parseLine_data();
    void parseLine();
    void realWorldLogs_data();
    void realWorldLogs();
    void equalShapesHigherEvalPeakIsBurden();
    void jsonShape();
    void unreadableFileIsNamed();
};

namespace {

QString logs(const QString& name)
{
    return QStringLiteral(RANKSCOPE_TEST_DATA_DIR "/logs/") + name;
}

constexpr int64_t MiB = int64_t(1) << 20;

} // namespace

void TestStepLog::parseLine_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<int>("rank");
    QTest::addColumn<qlonglong>("step");
    QTest::addColumn<QString>("tag");
    QTest::addColumn<qlonglong>("tokens");
    QTest::addColumn<qlonglong>("current");
    QTest::addColumn<qlonglong>("peak");

    QTest::newRow("the helper's format") << "[train] rank=3 step=120 shape=(8, 2048) cur=10240.0MB peak=70144.5MB" << 3
                                         << 120LL << "train" << 16384LL << 10240000000LL << 70144500000LL;
    QTest::newRow("torchrun prefix, no rank field")
        << "[rank5]:[eval] step=7 shape=(2, 512) cur=1.5GiB peak=2GiB" << 5 << 7LL << "eval" << 1024LL
        << qlonglong(1.5 * 1024 * MiB) << 2048LL * MiB;
    QTest::newRow("older torchrun prefix")
        << "[default2]:step=1 peak=100MiB" << 2 << 1LL << "" << -1LL << -1LL << 100LL * MiB;
    QTest::newRow("srun --label, bare bytes") << "12: iter=3 mode=training cur=1048576 peak=2097152" << 12 << 3LL
                                              << "train" << -1LL << 1048576LL << 2097152LL;
    QTest::newRow("mpirun --tag-output, tokens")
        << "[1,4]<stdout>:[validation] iteration=9 tokens=4096 max_allocated=300 MB" << 4 << 9LL << "val" << 4096LL
        << -1LL << 300000000LL;
    QTest::newRow("key: value, unit in the key, plain phase word")
        << "2026-11-29 10:05:00 INFO train | rank: 1 | step: 5 | peak_mem_gb: 38.25 | shape: torch.Size([16, 1024])"
        << 1 << 5LL << "train" << 16384LL << -1LL << 38250000000LL;
    QTest::newRow("fields in another order, 3-D shape")
        << "peak=1KiB cur=512B shape=[4, 10, 768] step=2 rank=0 phase=evaluation" << 0 << 2LL << "eval" << 40LL << 512LL
        << 1024LL;
    QTest::newRow("INFO: before the fields")
        << "INFO: step=5 rank=2 peak=5MB" << 2 << 5LL << "" << -1LL << -1LL << 5000000LL;
}

void TestStepLog::parseLine()
{
    QFETCH(QString, line);
    QFETCH(int, rank);
    QFETCH(qlonglong, step);
    QFETCH(QString, tag);
    QFETCH(qlonglong, tokens);
    QFETCH(qlonglong, current);
    QFETCH(qlonglong, peak);
    StepReport r;
    QVERIFY(StepLog::parseLine(line, -1, r));
    QCOMPARE(r.rank, rank);
    QCOMPARE(qlonglong(r.step), step);
    QCOMPARE(QString::fromStdString(r.tag), tag);
    QCOMPARE(qlonglong(r.tokens), tokens);
    QCOMPARE(qlonglong(r.currentBytes), current);
    QCOMPARE(qlonglong(r.peakBytes), peak);
}

void TestStepLog::realWorldLogs_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<int>("reportsPerRank");
    QTest::addColumn<int>("rank"); // -1: no divergence
    QTest::addColumn<qlonglong>("step");
    QTest::addColumn<QString>("tag");
    QTest::addColumn<int>("suspect");

    QTest::newRow("torchrun, interleaved, noise") << QStringList { logs(QStringLiteral("torchrun_interleaved.log")) }
                                                  << 8 << 3 << 40LL << "train" << int(StepDivergence::InputImbalance);
    QStringList perRank;
    for (int r = 0; r < 4; ++r)
        perRank.append(logs(QStringLiteral("per_rank/rank%1.log").arg(r)));
    QTest::newRow("one log per rank, GB, key: value")
        << perRank << 10 << 0 << 0LL << "eval" << int(StepDivergence::BurdenImbalance);
    QTest::newRow("srun --label, mixed units, balanced")
        << QStringList { logs(QStringLiteral("srun_label.log")) } << 4 << -1 << 0LL << "" << 0;
    QTest::newRow("mpirun, token counts") << QStringList { logs(QStringLiteral("mpirun_tagged.log")) } << 8 << 1 << 5LL
                                          << "val" << int(StepDivergence::InputImbalance);
}

void TestStepLog::realWorldLogs()
{
    QFETCH(QStringList, files);
    QFETCH(int, reportsPerRank);
    QFETCH(int, rank);
    QFETCH(qlonglong, step);
    QFETCH(QString, tag);
    QFETCH(int, suspect);
    const StepLog log = StepLog::read(files);
    QVERIFY(log.errors.empty());
    QVERIFY(log.skippedLines > 0); // the noise lines
    const StepAnalysis a = StepAnalysis::analyse(log);
    QCOMPARE(a.ranks.size(), size_t(4));
    for (const StepAnalysis::Rank& r : a.ranks)
        QCOMPARE(r.reports, int64_t(reportsPerRank));
    if (rank < 0) {
        QVERIFY2(!a.divergence, StepsReport::text(a).c_str());
        QVERIFY(a.spreadPercent < 1);
        return;
    }
    QVERIFY2(a.divergence, StepsReport::text(a).c_str());
    QCOMPARE(a.divergence->rank, rank);
    QCOMPARE(qlonglong(a.divergence->step), step);
    QCOMPARE(QString::fromStdString(a.divergence->tag), tag);
    QCOMPARE(int(a.divergence->suspect), suspect);
    QVERIFY(a.divergence->peakBytes > a.divergence->othersMedianBytes);
}

// The acceptance case in its plainest form: equal shapes everywhere, one rank's eval peak higher.
void TestStepLog::equalShapesHigherEvalPeakIsBurden()
{
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("job.log")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (int step = 0; step < 3; ++step) {
        for (int r = 0; r < 8; ++r)
            file.write(QStringLiteral("[train] rank=%1 step=%2 shape=(4, 1024) cur=9000.0MB peak=40000.0MB\n")
                           .arg(r)
                           .arg(step)
                           .toUtf8());
    }
    for (int r = 0; r < 8; ++r)
        file.write(QStringLiteral("[eval] rank=%1 step=0 shape=(4, 1024) cur=9000.0MB peak=%2MB\n")
                       .arg(r)
                       .arg(r == 6 ? 52000.0 : 40100.0)
                       .toUtf8());
    file.close();
    const StepAnalysis a = StepAnalysis::analyse(StepLog::read({ file.fileName() }));
    QVERIFY(a.divergence);
    QCOMPARE(a.divergence->rank, 6);
    QCOMPARE(a.divergence->tag, std::string("eval"));
    QCOMPARE(a.divergence->suspect, StepDivergence::BurdenImbalance);
    QCOMPARE(a.tags, (std::vector<std::string> { "train", "eval" }));
}

void TestStepLog::jsonShape()
{
    const StepAnalysis a = StepAnalysis::analyse(StepLog::read({ logs(QStringLiteral("torchrun_interleaved.log")) }));
    const auto json = nlohmann::json::parse(StepsReport::json(a));
    QCOMPARE(json["ranks"].size(), size_t(4));
    QCOMPARE(json["ranks"][3]["rank"].get<int>(), 3);
    QCOMPARE(json["ranks"][3]["reports"].get<int>(), 8);
    QVERIFY(json["ranks"][3]["max_peak_bytes"].get<int64_t>() > json["ranks"][0]["max_peak_bytes"].get<int64_t>());
    QCOMPARE(json["divergence"]["rank"].get<int>(), 3);
    QCOMPARE(json["divergence"]["step"].get<int>(), 40);
    QCOMPARE(json["divergence"]["tag"].get<std::string>(), std::string("train"));
    QCOMPARE(json["divergence"]["suspect"].get<std::string>(), std::string("input_imbalance"));
    const StepAnalysis balanced = StepAnalysis::analyse(StepLog::read({ logs(QStringLiteral("srun_label.log")) }));
    QVERIFY(nlohmann::json::parse(StepsReport::json(balanced))["divergence"].is_null());
}

void TestStepLog::unreadableFileIsNamed()
{
    const QString missing = QDir::temp().filePath(QStringLiteral("no-such-rankscope.log"));
    const StepLog log = StepLog::read({ missing, logs(QStringLiteral("srun_label.log")) });
    QCOMPARE(log.errors.size(), size_t(1));
    QCOMPARE(log.errors.front().first, missing);
    QCOMPARE(StepAnalysis::analyse(log).ranks.size(), size_t(4)); // the readable one still counts
}

RANKSCOPE_TEST_CLASS(TestStepLog)
#include "tst_steplog.moc"
