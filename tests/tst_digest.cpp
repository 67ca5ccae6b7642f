// SPDX-License-Identifier: MIT
// Digests (`rankscope digest`) must give the comparison the full files give: the same rank figures, findings with
// their blocks and stacks, and verdict, at every point a digest keeps and with every site option. Checked on the
// bundled real files and on every diff scenario.
#include "comparison.h"
#include "devicehistory.h"
#include "diffreport.h"
#include "digest.h"
#include "loadedfile.h"
#include "rankfiles.h"
#include "rankname.h"
#include "snapshotreader.h"
#include "testprogram.h"
#include "testutils.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace RankScope;

namespace {

QString scenarioDir()
{
    return QStringLiteral(RANKSCOPE_SCENARIOS_DIR);
}

struct Loaded
{
    std::vector<RankInput> full;
    std::vector<RankInput> digests;
    int64_t fullBytes = 0;
    int64_t digestBytes = 0;
};

// Every file of `paths` read whole and as its digest (written to `dir` and read back as any file would be).
Loaded load(const QStringList& paths, const QString& dir)
{
    Loaded l;
    const QList<RankName::Assigned> ranks = RankName::assign(paths);
    for (qsizetype i = 0; i < paths.size(); ++i) {
        const SnapshotPtr full = SnapshotReader::read(paths[i]).snapshot;
        Digest::Source source;
        source.rank = ranks[i].rank;
        source.fileName = QFileInfo(paths[i]).fileName().toStdString();
        source.fileBytes = QFileInfo(paths[i]).size();
        const QString out = dir + QStringLiteral("/rank%1.digest.pickle.gz").arg(ranks[i].rank);
        const Digest::Figures f = Digest::write(*full, source, out);
        const SnapshotPtr digest = SnapshotReader::read(out).snapshot;
        l.full.push_back({ ranks[i].rank, paths[i], full });
        l.digests.push_back({ ranks[i].rank, paths[i], digest });
        l.fullBytes += source.fileBytes;
        l.digestBytes += f.bytes;
    }
    return l;
}

// The JSON report without the digests' own event indices, which DiffReport never shows, and without the what-if
// peaks (and the remedies' figures taken from them), which need the whole trace (a digest gives none).
nlohmann::json report(const std::vector<RankInput>& ranks, const ComparisonOptions& options)
{
    nlohmann::json j = nlohmann::json::parse(DiffReport::json(*Comparison::compute(ranks, options)));
    j["verdict"].erase("what_if");
    // Nor can a digest be aligned with another rank's trace: no excess across the aligned trace.
    for (auto& rank : j["ranks"]) {
        rank.erase("aligned_excess_bytes");
        rank.erase("aligned_excess_event");
    }
    if (j["verdict"].contains("remedies")) {
        for (auto& remedy : j["verdict"]["remedies"]) {
            // What a remedy saves against the margin comes from those figures too (the stranded bytes do not).
            if (remedy.contains("peak_without_bytes")) {
                remedy.erase("closes_gap");
                remedy.erase("spare_bytes");
            }
            remedy.erase("peak_without_bytes");
            remedy.erase("saved_bytes");
        }
        j["verdict"].erase("remedy"); // the same steps, without the figures
    }
    return j;
}

} // namespace

class TestDigest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        RANKSCOPE_REQUIRE_FIXTURE(scenarioDir());
    }
    void sameComparison_data();
    void sameComparison();
    void timelineKeepsItsShape();
    void pointsInsideTheTraceAreRefused();
    void pythonReadsIt();
    void rankFromTheHeaderWhenTheNameHasNone();
};

void TestDigest::sameComparison_data()
{
    QTest::addColumn<QStringList>("paths");
    QStringList real;
    for (const QString& name : QDir(TestUtils::dataDir()).entryList({ QStringLiteral("*.pickle") }, QDir::Files))
        real.append(TestUtils::dataDir() + QLatin1Char('/') + name);
    QTest::newRow("bundled real files as ranks") << real;
    for (const QString& file : real)
        QTest::newRow(qPrintable(QFileInfo(file).fileName())) << QStringList { file };
    const QStringList names = QDir(scenarioDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY(!names.isEmpty());
    // Under AddressSanitizer every other scenario, by name: each row writes and reads its ranks' digests through the
    // same code, and the 78 rows took a third of that stage's tests. The gcc suite takes every row.
    qsizetype taken = 0;
    for (const QString& n : names)
        if (TestUtils::runsScenario(n) && (!TestUtils::sanitized || taken++ % 2 == 0))
            QTest::newRow(qPrintable(n))
                << RankFiles::chooseStep(RankFiles::expand({ scenarioDir() + QLatin1Char('/') + n })).files;
}

void TestDigest::sameComparison()
{
    QFETCH(QStringList, paths);
    QTemporaryDir dir;
    const Loaded l = load(paths, dir.path());
    QVERIFY(l.digestBytes < std::max<int64_t>(l.fullBytes, 4096));

    std::vector<ComparisonOptions> variants;
    for (const char* point : { "peak", "snapshot", "oom" }) {
        ComparisonOptions o;
        o.point = TimelinePoint::parse(point);
        variants.push_back(o);
    }
    // The default compares ranks at aligned moments inside their traces, which a digest does not keep: a job of
    // digests is compared with each rank at its own peak, as the full files are with --at peak.
    variants.emplace_back();
    ComparisonOptions myCode;
    myCode.site.myCodeOnly = true;
    myCode.site.depth = 2;
    variants.push_back(myCode);
    ComparisonOptions baseline;
    baseline.baselineRank = l.full.front().rank;
    baseline.thresholdPercent = 0.5;
    variants.push_back(baseline);
    if (paths.size() >= 4 && paths.size() % 2 == 0) {
        // Replicas within two stages, and the groups' difference: from a digest's categories as from the file.
        ComparisonOptions layout;
        layout.layout = ParallelLayout::parse("pp=2,dp=" + std::to_string(paths.size() / 2), nullptr);
        variants.push_back(layout);
    }

    if (TestUtils::sanitized) {
        // Under AddressSanitizer the proof of equality is the gcc suite's; here the rows' digests are still written,
        // read and compared (the memory paths), at each rank's peak or OOM: one of the two per row, by the row's
        // name, so that each point is taken on about half of the fifty rows (both took a quarter of the sanitizer
        // stage's tests).
        const ComparisonOptions point = variants[qHash(QByteArray(QTest::currentDataTag()), 0) % 2 == 0 ? 0 : 2];
        variants = { point };
    }
    for (const ComparisonOptions& o : variants) {
        ComparisonOptions fullOptions = o;
        if (!o.point)
            fullOptions.point = TimelinePoint::Spec { TimelinePoint::Peak, 0 };
        nlohmann::json full = report(l.full, fullOptions);
        nlohmann::json digest = report(l.digests, o);
        // A digest cannot show that a replica went on past the request that failed on another rank: where the full
        // files show memory outside the allocator that way, the digests say over capacity, naming those replicas as
        // ones the files cannot tell about. Everything else is the same.
        if (full["verdict"].value("evidence", "") == "replicas_fit") {
            QCOMPARE(digest["verdict"]["kind"].get<std::string>(), std::string("over_capacity"));
            QVERIFY(digest["verdict"]["ranks"] == full["verdict"]["ranks"]);
            QVERIFY(digest["findings"] == full["findings"]);
            QVERIFY(digest["ranks"] == full["ranks"]);
            continue;
        }
        // The same where the verdict does not rest on it: the rules of an out-of-memory weigh the replicas that went
        // on (the full files) or never reached the request (the digests), and the confidence says so.
        nlohmann::json& fullRules = full["verdict"]["considered"];
        const auto outside = std::find_if(fullRules.begin(), fullRules.end(),
            [](const nlohmann::json& rule) { return rule["kind"] == "outside_allocator"; });
        if (outside != fullRules.end() && (*outside)["evidence"].value("fitting_ranks", 0) > 0) {
            for (nlohmann::json* j : { &full, &digest }) {
                nlohmann::json& rules = (*j)["verdict"]["considered"];
                for (auto& rule : rules) {
                    if (rule["kind"] == "outside_allocator" || rule["kind"] == "over_capacity")
                        rule = rule["kind"];
                }
                (*j)["verdict"].erase("confidence");
                (*j)["verdict"].erase("confidence_reason");
            }
        }
        if (full != digest) {
            qWarning("full:   %s", full.dump().substr(0, 2000).c_str());
            qWarning("digest: %s", digest.dump().substr(0, 2000).c_str());
        }
        QVERIFY(digest == full);
        QCOMPARE(qsizetype(full["ranks"].size()), paths.size());
    }
}

void TestDigest::timelineKeepsItsShape()
{
    // A real trace whose curve rises and falls: the digest's curve stays at or under it, meets it at the peak and
    // at the end, and reaches within 1 % of each column's highest value.
    const QString path = TestUtils::dataDir() + QStringLiteral("/cranberrii_memory_snapshot.pickle");
    const SnapshotPtr full = SnapshotReader::read(path).snapshot;
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("d.pickle.gz"));
    const Digest::Figures f = Digest::write(*full, {}, out);
    const SnapshotPtr digest = SnapshotReader::read(out).snapshot;
    QVERIFY(digest->digest);
    QCOMPARE(digest->digest->sourceEvents, int64_t(f.sourceEvents));

    const DeviceHistoryPtr a = DeviceHistory::build(full, 0);
    const DeviceHistoryPtr b = DeviceHistory::build(digest, 0);
    QVERIFY(f.keptEvents < a->eventCount());
    QCOMPARE(b->peakBytes(), a->peakBytes());
    QCOMPARE(b->totalAfter(EventIndex(b->eventCount()) - 1), a->totalAfter(EventIndex(a->eventCount()) - 1));
    QCOMPARE(b->traceIncomplete(), a->traceIncomplete());
    QCOMPARE(b->initialTotal(), a->initialTotal());
    QCOMPARE(b->peakReservedBytes(), a->peakReservedBytes());
    for (EventIndex i = 0; i < EventIndex(b->eventCount()); ++i)
        QVERIFY(b->totalAfter(i) <= a->peakBytes());

    // By time, as the timeline's time axis shows them: 200 columns of the whole recording.
    const int columns = 200;
    const int64_t t0 = a->timeUs(0);
    const int64_t t1 = a->timeUs(EventIndex(a->eventCount()) - 1);
    std::vector<int64_t> maxA(columns, 0), maxB(columns, 0);
    auto column = [&](int64_t t) {
        return std::min<int64_t>(columns - 1, (t - t0) * columns / std::max<int64_t>(t1 - t0, 1));
    };
    for (EventIndex i = 0; i < EventIndex(a->eventCount()); ++i)
        maxA[size_t(column(a->timeUs(i)))] = std::max(maxA[size_t(column(a->timeUs(i)))], a->totalAfter(i));
    for (EventIndex i = 0; i < EventIndex(b->eventCount()); ++i)
        maxB[size_t(column(b->timeUs(i)))] = std::max(maxB[size_t(column(b->timeUs(i)))], b->totalAfter(i));
    for (int c = 0; c < columns; ++c) {
        QVERIFY2(maxB[size_t(c)] <= maxA[size_t(c)], qPrintable(QString::number(c)));
        QVERIFY2(maxB[size_t(c)] * 100 >= maxA[size_t(c)] * 99, qPrintable(QString::number(c)));
    }
    // The stand-in for what was left out is never a band, nor in the block map.
    const TimelineLod lod = b->lod(BeforeTrace, EventIndex(b->eventCount()) - 1, 400, 1, 48);
    QCOMPARE(lod.bands.size(), size_t(48));
    for (uint32_t band : lod.bands)
        QVERIFY(b->allocations()[band].addr != DigestInfo::leftOutAddress);
    const AllocatorState atPeak = b->stateAt(b->peakEvent());
    QCOMPARE(atPeak.stats().allocated, a->stateAt(a->peakEvent()).stats().allocated);
}

void TestDigest::pointsInsideTheTraceAreRefused()
{
    QTemporaryDir dir;
    const Loaded l = load({ TestUtils::dataDir() + QStringLiteral("/magma27_memory_snapshot.pickle") }, dir.path());
    ComparisonOptions o;
    o.point = TimelinePoint::parse("event:100");
    const ComparisonPtr c = Comparison::compute(l.digests, o);
    QCOMPARE(c->ranks().front().point.kind, TimelinePoint::Snapshot);
    QVERIFY(QString::fromStdString(c->ranks().front().note.english()).contains(QLatin1String("digest")));
    // The full file has that point.
    QCOMPARE(Comparison::compute(l.full, o)->ranks().front().point.event, EventIndex(100));
}

void TestDigest::pythonReadsIt()
{
    // A digest is an ordinary snapshot pickle: CPython (and so the official viewer's tooling) reads it.
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    QVERIFY2(!python.isEmpty(), "python3 is not installed (the build needs it for the test fixtures too)");
    QTemporaryDir dir;
    const QString path = TestUtils::dataDir() + QStringLiteral("/bcrafton_memory_snapshot.pickle");
    const SnapshotPtr full = SnapshotReader::read(path).snapshot;
    const QString out = dir.filePath(QStringLiteral("rank3.digest.pickle.gz"));
    Digest::Source source;
    source.rank = 3;
    source.fileName = "bcrafton_memory_snapshot.pickle";
    Digest::write(*full, source, out);
    QProcess p;
    p.start(python,
        { QStringLiteral("-c"),
            QStringLiteral("import gzip, pickle, sys; s = pickle.load(gzip.open(sys.argv[1]));"
                           "d = s['rankscope_digest']; t = s['device_traces'][d['device']];"
                           "print(d['rank'], d['source'], len(s['segments']), len(t), t[0]['action'])"),
            out });
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const QStringList words = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char(' '));
    QCOMPARE(words.value(0), QStringLiteral("3"));
    QCOMPARE(words.value(1), QStringLiteral("bcrafton_memory_snapshot.pickle"));
    QCOMPARE(words.value(2).toLongLong(),
        qlonglong(std::count_if(
            full->segments.begin(), full->segments.end(), [](const Segment& s) { return s.device == 0; })));
}

void TestDigest::rankFromTheHeaderWhenTheNameHasNone()
{
    QTemporaryDir dir;
    const SnapshotPtr full =
        SnapshotReader::read(TestUtils::dataDir() + QStringLiteral("/jasper_snapshot.pickle")).snapshot;
    Digest::Source source;
    source.rank = 7;
    const QString unnamed = dir.filePath(QStringLiteral("renamed.pickle.gz"));
    const QString named = dir.filePath(QStringLiteral("rank2.digest.pickle.gz"));
    Digest::write(*full, source, unnamed);
    Digest::write(*full, source, named);
    const QList<LoadedFile> files = LoadedFile::loadAll({ unnamed, named });
    QCOMPARE(files[0].rank, 7); // the header's
    QCOMPARE(files[1].rank, 2); // the name's, as for any snapshot
}

RANKSCOPE_TEST_CLASS(TestDigest)
#include "tst_digest.moc"
