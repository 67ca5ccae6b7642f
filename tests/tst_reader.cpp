// SPDX-License-Identifier: MIT
// The reader against CPython's pickle module: every real file, and the same files re-written at other protocols,
// gzip-compressed and as JSON, must give the figures in expected_info.json.
#include "testutils.h"

#include <QDir>
#include <QTest>

#include <set>
#include <tuple>

using namespace RankScope;
using namespace TestUtils;

namespace {

// Every frame of a snapshot as text: file, function, line.
std::set<std::tuple<std::string, std::string, int64_t>> frameTexts(const Snapshot& s)
{
    std::set<std::tuple<std::string, std::string, int64_t>> texts;
    for (size_t id = 0; id < s.frames.size(); ++id) {
        const Frame& f = s.frames.frame(FrameId(id));
        texts.emplace(s.strings.view(f.filename), s.strings.view(f.name), f.line);
    }
    return texts;
}

} // namespace

class TestReader : public QObject
{
    Q_OBJECT
private slots:
    void realFiles_data();
    void realFiles();
    void variants_data();
    void variants();
    void framesAreInterned();
    void blocksKeepTheirStacks();
    void annotationsAndSettings();
    void jsonLoneSurrogates();
};

void TestReader::realFiles_data()
{
    QTest::addColumn<QString>("name");
    const QStringList files = QDir(dataDir()).entryList({ QStringLiteral("*.pickle") }, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 10);
    for (const QString& f : files)
        QTest::newRow(qPrintable(f)) << f;
}

void TestReader::realFiles()
{
    QFETCH(QString, name);
    const nlohmann::json expected = expectedFigures()[name.toStdString()];
    QVERIFY2(!expected.is_null(), "missing from expected_info.json");
    const SnapshotReader::Result result = SnapshotReader::read(dataDir() + QLatin1Char('/') + name);
    QCOMPARE(result.format, SnapshotReader::Format::Pickle);
    QVERIFY(!result.gzip);
    const nlohmann::json actual = figures(result.snapshot);
    QCOMPARE(QString::fromStdString(actual.dump()), QString::fromStdString(expected.dump()));
}

void TestReader::variants_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("original");
    const QString dir = QStringLiteral(RANKSCOPE_VARIANTS_DIR);
    RANKSCOPE_REQUIRE_FIXTURE(dir);
    const QStringList files = QDir(dir).entryList(QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 91); // 10 files × 9 forms, and one augmented with a second reference to a trace entry
    for (const QString& f : files) {
        const QString stem = f.section(QLatin1Char('.'), 0, 0);
        QTest::newRow(qPrintable(f)) << dir + QLatin1Char('/') + f << stem + QStringLiteral(".pickle");
    }
}

void TestReader::variants()
{
    QFETCH(QString, path);
    QFETCH(QString, original);
    const nlohmann::json expected = expectedFigures()[original.toStdString()];
    QVERIFY(!expected.is_null());
    const SnapshotReader::Result result = SnapshotReader::read(path);
    QCOMPARE(result.gzip, path.endsWith(QLatin1String(".gz")) || path.endsWith(QLatin1String(".dat")));
    QCOMPARE(result.format,
        path.contains(QLatin1String(".json")) ? SnapshotReader::Format::Json : SnapshotReader::Format::Pickle);
    QCOMPARE(QString::fromStdString(figures(result.snapshot).dump()), QString::fromStdString(expected.dump()));
    // Every frame's text survives the form: protocols 0 and 1 escape backslashes and non-Latin-1 text in their lines.
    const SnapshotPtr reference = SnapshotReader::read(dataDir() + QLatin1Char('/') + original).snapshot;
    QVERIFY(frameTexts(*result.snapshot) == frameTexts(*reference));
}

void TestReader::framesAreInterned()
{
    // cranberrii: 1,011,932 frame references to 646 frame dicts with 551 distinct contents and 6,831 frame lists
    // (counted with CPython). Interning keeps one frame per content and at most one stack per list.
    const SnapshotPtr c =
        SnapshotReader::read(dataDir() + QStringLiteral("/cranberrii_memory_snapshot.pickle")).snapshot;
    size_t cranberriiRefs = 0;
    for (const TraceEntry& e : c->deviceTraces[0])
        cranberriiRefs += c->stacks.frames(e.stack).size();
    for (const Segment& seg : c->segments) {
        cranberriiRefs += c->stacks.frames(seg.stack).size();
        for (const Block& b : c->blocksOf(seg))
            cranberriiRefs += c->stacks.frames(b.stack).size();
    }
    QCOMPARE(cranberriiRefs, size_t(1011932));
    QCOMPARE(c->frames.size(), size_t(551));
    QVERIFY(c->stacks.size() <= 6831);

    // bcrafton's frame lists share a few thousand frame dicts by memo; they must stay shared, not be copied.
    const SnapshotPtr s = SnapshotReader::read(dataDir() + QStringLiteral("/bcrafton_memory_snapshot.pickle")).snapshot;
    size_t references = 0;
    for (const TraceEntry& e : s->deviceTraces[0])
        references += s->stacks.frames(e.stack).size();
    QVERIFY(references > 100000);
    QVERIFY(s->frames.size() < 5000);
    QVERIFY(s->stacks.size() < s->deviceTraces[0].size());
    // A live block is the same frame list object as the alloc that made it, so they share one stack id.
    std::unordered_map<uint64_t, StackId> allocStack;
    for (const TraceEntry& e : s->deviceTraces[0]) {
        if (e.action() == TraceAction::Alloc)
            allocStack[e.addr] = e.stack;
    }
    int matched = 0;
    for (const Block& b : s->blocks) {
        if (b.state == BlockState::ActiveAllocated && allocStack.count(b.address)) {
            QCOMPARE(b.stack, allocStack[b.address]);
            QVERIFY(b.stack != EmptyStack);
            ++matched;
        }
    }
    QVERIFY(matched > 100);
}

void TestReader::blocksKeepTheirStacks()
{
    const SnapshotPtr s = SnapshotReader::read(dataDir() + QStringLiteral("/magma27_memory_snapshot.pickle")).snapshot;
    int withFrames = 0;
    for (const Segment& seg : s->segments) {
        uint64_t address = seg.address;
        for (const Block& b : s->blocksOf(seg)) {
            QCOMPARE(b.address, address); // contiguous from the segment base
            address += uint64_t(b.size);
            withFrames += b.state == BlockState::ActiveAllocated && b.stack != EmptyStack;
        }
        QCOMPARE(int64_t(address - seg.address), seg.totalSize);
    }
    QVERIFY(withFrames > 0);
    const Frame& f = s->frames.frame(s->stacks.frames(s->deviceTraces[0][0].stack).back());
    QCOMPARE(s->strings.view(f.name), std::string_view("<module>"));
    QVERIFY(s->strings.view(f.filename).ends_with("benchmarking_script.py"));
    QVERIFY(f.line > 0);
    QCOMPARE(s->deviceTraces[0][0].timeUs, int64_t(1776479641085368));
    QCOMPARE(s->strings.view(s->context(s->deviceTraces[0][0]).compileContext), std::string_view("N/A"));
}

void TestReader::annotationsAndSettings()
{
    const SnapshotPtr s = SnapshotReader::read(dataDir() + QStringLiteral("/bcrafton_memory_snapshot.pickle")).snapshot;
    QCOMPARE(s->annotations.size(), size_t(2));
    QVERIFY(s->annotations[0].isStart);
    QVERIFY(!s->annotations[1].isStart);
    QCOMPARE(s->strings.view(s->annotations[0].name), std::string_view("Optimizer.step#AdamW.step"));
    QCOMPARE(s->annotations[0].timeUs, int64_t(1773270053883781));

    const SnapshotPtr a = SnapshotReader::read(dataDir() + QStringLiteral("/albi2_dump_snapshot.pickle")).snapshot;
    std::map<std::string, std::string> settings;
    for (auto [k, v] : a->allocatorSettings)
        settings[std::string(a->strings.view(k))] = std::string(a->strings.view(v));
    QCOMPARE(QString::fromStdString(settings["expandable_segments"]), QStringLiteral("True"));
    QCOMPARE(QString::fromStdString(settings["max_split_size"]), QStringLiteral("134217728"));
    QCOMPARE(QString::fromStdString(settings["PYTORCH_CUDA_ALLOC_CONF"]),
        QStringLiteral("expandable_segments:True,max_split_size_mb:128"));
    QCOMPARE(QString::fromStdString(settings["garbage_collection_threshold"]), QStringLiteral("0.0"));
    QVERIFY(settings.count("roundup_power2_divisions.1"));
    QVERIFY(a->segments[0].isExpandable);
    QVERIFY(a->hasDeviceTraces);
}

// Python's json.dump writes a file name that is not UTF-8 with a lone surrogate escape; CPython reads it back, and so
// must we: as U+FFFD, while a proper pair stays its character and an escaped backslash before "u" stays text.
void TestReader::jsonLoneSurrogates()
{
    QTemporaryDir dir;
    const QByteArray json =
        R"({"segments": [], "device_traces": [[{"action": "alloc", "addr": 1, "size": 512, "stream": 0,
        "frames": [{"filename": "/data/caf\udce9/train.py", "line": 3, "name": "pair \ud83d\ude00 high \ud83d end"},
                   {"filename": "C:\\udcff\\x.py", "line": 4, "name": "g"}]}]]})";
    const SnapshotPtr s = SnapshotReader::read(writeFile(dir, QStringLiteral("s.json"), json)).snapshot;
    const auto texts = frameTexts(*s);
    QVERIFY(texts.count({ "/data/caf\xef\xbf\xbd/train.py", "pair \xf0\x9f\x98\x80 high \xef\xbf\xbd end", 3 }));
    QVERIFY(texts.count({ "C:\\udcff\\x.py", "g", 4 }));
}

QTEST_GUILESS_MAIN(TestReader)
#include "tst_reader.moc"
