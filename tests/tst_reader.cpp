// SPDX-License-Identifier: MIT
// The reader against CPython's pickle module: every real file, and the same files re-written at other protocols,
// gzip-compressed and as JSON, must give the figures in expected_info.json.
#include "gziputil.h"
#include "testprogram.h"
#include "testutils.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
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
    void newerKeysInEveryForm();
    void framesAreInterned();
    void blocksKeepTheirStacks();
    void annotationsAndSettings();
    void jsonLoneSurrogates();
    void jsonInPieces();
    void readAhead();
    void sharedFrameLists();
    void oneBatchOfEntries();
};

void TestReader::realFiles_data()
{
    realFileRows();
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
    // A real file's entries fit 16 bytes: the whole 24 are for hand-made numbers and digests.
    for (const TraceEntries& trace : result.snapshot->deviceTraces)
        QVERIFY(!trace.isWide());
    QVERIFY(!result.snapshot->hostTrace.isWide());
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
        // Under AddressSanitizer the JSON forms of the three largest files (28 to 138 MB of JSON, frames written out
        // where pickle's memo shares them) are left out: they took three quarters of the reader's test time in CI's
        // sanitizer stage and run no path of the JSON reader that the other seven files' JSON forms do not. The gcc
        // stage reads them all.
        if (TestUtils::sanitized && f.contains(QLatin1String(".json"))
            && QFileInfo(dir + QLatin1Char('/') + stem + QStringLiteral(".json")).size() > (int64_t(16) << 20))
            continue;
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

// What newer PyTorch writes, the same in every form the reader takes (the pickle reader's own trace entry path,
// protocols without it, JSON's arrays for tuples): annotated ranges, pinned host memory apart from the GPU's trace,
// and each entry's pool.
void TestReader::newerKeysInEveryForm()
{
    const QString dir = QStringLiteral(RANKSCOPE_VARIANTS_DIR "/newer");
    RANKSCOPE_REQUIRE_FIXTURE(dir);
    const SnapshotPtr original =
        SnapshotReader::read(dataDir() + QStringLiteral("/magma27_memory_snapshot.pickle")).snapshot;
    nlohmann::json first;
    for (const QString& name : { QStringLiteral("newer.p0.pickle"), QStringLiteral("newer.p2.pickle"),
             QStringLiteral("newer.p4.pickle"), QStringLiteral("newer.json") }) {
        const SnapshotReader::Result result = SnapshotReader::read(dir + QLatin1Char('/') + name);
        QVERIFY2(result.snapshot, qPrintable(name));
        const Snapshot& s = *result.snapshot;
        // The same figures in every form; the GPU's segments are the original's: the host's are never a device's.
        const nlohmann::json gpu = figures(result.snapshot);
        if (first.is_null())
            first = gpu;
        QCOMPARE(QString::fromStdString(gpu.dump()), QString::fromStdString(first.dump()));
        const nlohmann::json before = figures(original);
        for (const char* key : { "segments", "blocks", "reserved_bytes", "allocated_bytes" })
            QVERIFY2(gpu[0][key] == before[0][key], key);
        QVERIFY(s.hasHostMemory);
        QCOMPARE(s.hostSegments.size(), size_t(8));
        QCOMPARE(s.hostTrace.size(), size_t(24));
        const HostMemory host = HostMemory::of(s);
        QCOMPARE(host.allocatedBytes, int64_t(512) << 20);
        QCOMPARE(host.reservedBytes, int64_t(1) << 30);
        QCOMPARE(host.peakAllocatedBytes, int64_t(1) << 30);
        QCOMPARE(s.annotations.size(), size_t(3 * 2 * 6));
        // Every entry names its pool: the default one, and the CUDA graph's (1, 5) for its five entries.
        QCOMPARE(s.deviceTraces[0].size(), original->deviceTraces[0].size() + 5);
        int graph = 0;
        for (const TraceEntry& e : s.deviceTraces[0]) {
            const EntryContext& c = s.context(e);
            QVERIFY(c.hasPool);
            graph += c.pool[0] == 1 && c.pool[1] == 5;
        }
        QCOMPARE(graph, 5);
    }
    // The control: a file without the keys has none of it.
    QVERIFY(!original->hasHostMemory);
    QVERIFY(original->hostSegments.empty() && original->hostTrace.empty());
    for (const EntryContext& c : original->entryContexts)
        QVERIFY(!c.hasPool);
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
    QCOMPARE(s->deviceTimes[0][0], int64_t(1776479641085368));
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

// A JSON file read whole through its mapping (where the platform maps files) is handed to the parser a piece at a
// time, as one read in chunks: progress every megabyte or so, a cancel heard there, and pairs of escapes cut by a
// piece's end still one character.
void TestReader::jsonInPieces()
{
    QByteArray json = R"({"segments": [], "device_traces": [[)";
    for (int i = 0; i < 60000; ++i) {
        json += QStringLiteral(R"(%1{"action": "%2", "addr": %3, "size": 512, "stream": 0, "frames": )"
                               R"([{"filename": "/w/pair \ud83d\ude00 %4.py", "line": %5, "name": "f"}]})")
                    .arg(QLatin1String(i ? "," : ""), QLatin1String(i % 2 ? "free_completed" : "alloc"))
                    .arg(4096 + (i / 2) * 512)
                    .arg(i % 3)
                    .arg(i % 11)
                    .toUtf8();
    }
    json += "]]}";
    QVERIFY(json.size() > 6 << 20);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("big.json"), json);
    QBuffer buffer(&json);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const SnapshotPtr inChunks = SnapshotReader::read(&buffer).snapshot;
    std::vector<uint64_t> reports;
    const SnapshotPtr whole = SnapshotReader::read(path, [&](uint64_t done, uint64_t) {
        reports.push_back(done);
        return true;
    }).snapshot;
    QVERIFY2(reports.size() >= size_t(json.size() >> 21), qPrintable(QString::number(reports.size())));
    QVERIFY(std::ranges::is_sorted(reports));
    QCOMPARE(whole->deviceTraces[0].size(), size_t(60000));
    QCOMPARE(QString::fromStdString(figures(whole).dump()), QString::fromStdString(figures(inChunks).dump()));
    const auto texts = frameTexts(*whole);
    for (int i = 0; i < 3; ++i)
        QVERIFY(texts.count({ "/w/pair \xf0\x9f\x98\x80 " + std::to_string(i) + ".py", "f", 10 }));
    QVERIFY_THROWS_EXCEPTION(
        ReadCancelled, SnapshotReader::read(path, [&](uint64_t done, uint64_t total) { return done < total / 3; }));
}

RANKSCOPE_TEST_CLASS(TestReader)
// A file of several chunks is read (and inflated) ahead on a thread of its own: it must give what the same bytes give
// read on the calling thread, a string longer than a chunk included, and fail and cancel the same way.
void TestReader::readAhead()
{
    // 120,000 entries whose frame lists reference memoized frame dicts, as CPython writes them, and annotations
    // whose names are 1.5 MB and 9 MB long (more than the room a chunk keeps for the window's end, and more than
    // two chunks).
    PickleWriter w;
    w.proto(2).emptyDict().mark().str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    for (int i = 0; i < 120000; ++i) {
        w.emptyDict().mark().keyStr("action", i % 2 ? "free_completed" : "alloc").key("addr", 4096 + (i / 2) * 512);
        w.key("size", 512 + i % 7).key("time_us", i).str("frames").emptyList().mark();
        // The first entry holds the five frame dicts, memoized; the others reference them.
        for (int f = 0; f < (i == 0 ? 5 : 1 + i % 5); ++f) {
            if (i == 0) {
                w.emptyDict().op('r').le<uint32_t>(uint32_t(1000 + f)).mark().keyStr("name", "f");
                w.keyStr("filename", "a.py").key("line", f).setitems();
            } else {
                w.op('j').le<uint32_t>(uint32_t(1000 + (f + i) % 5));
            }
        }
        w.appends().setitems();
        if (i % 1000 == 999)
            w.appends().mark();
    }
    w.appends().op('a').str("external_annotations").emptyList().mark();
    for (const int length : { 1500000, 9000000 }) {
        const QByteArray name(length, 'n');
        w.emptyDict().mark().keyStr("stage", "START").keyStr("name", name.constData()).key("device", 0);
        w.key("time_us", length).setitems();
    }
    w.appends().setitems().stop();
    QByteArray bytes = w.bytes();
    QVERIFY2(bytes.size() > 16 << 20, qPrintable(QString::number(bytes.size())));

    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("big.pickle"), bytes);
    QBuffer buffer(&bytes);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const SnapshotPtr inline_ = SnapshotReader::read(&buffer).snapshot;
    const SnapshotPtr ahead = SnapshotReader::read(path).snapshot;
    QCOMPARE(inline_->deviceTraces[0].size(), size_t(120000));
    QCOMPARE(QString::fromStdString(figures(ahead).dump()), QString::fromStdString(figures(inline_).dump()));
    for (size_t i = 0; i < inline_->deviceTraces[0].size(); ++i) {
        const TraceEntry a = ahead->deviceTraces[0][i];
        const TraceEntry b = inline_->deviceTraces[0][i];
        QVERIFY(a.addr == b.addr && a.size == b.size && ahead->deviceTimes[0][i] == inline_->deviceTimes[0][i]
            && ahead->actionName(a) == inline_->actionName(b));
        QVERIFY(std::ranges::equal(ahead->stacks.frames(a.stack), inline_->stacks.frames(b.stack)));
        QCOMPARE(inline_->stacks.frames(b.stack).size(), i == 0 ? 5 : 1 + i % 5);
    }
    QCOMPARE(ahead->annotations.size(), size_t(2));
    QCOMPARE(ahead->strings.view(ahead->annotations[1].name).size(), size_t(9000000));
    QCOMPARE(ahead->annotations[1].timeUs, int64_t(9000000));

    // Compressed (over a megabyte: inflated on the reading thread).
    const QString packed = writeFile(dir, QStringLiteral("big.pickle.gz"), gzip(bytes));
    QVERIFY(QFileInfo(packed).size() > 1 << 20);
    const SnapshotReader::Result gz = SnapshotReader::read(packed);
    QVERIFY(gz.gzip);
    QCOMPARE(QString::fromStdString(figures(gz.snapshot).dump()), QString::fromStdString(figures(inline_).dump()));

    // Members one after another, as `gzip -d` reads them, then bytes that are no member (ignored, as gzip does). A name
    // in the first member's header makes it end a byte short of a megabyte, the compressed bytes' read: the second
    // member's magic lies across two reads.
    const qsizetype half = bytes.size() / 2 + 7;
    QByteArray first = gzip(bytes.left(half));
    constexpr qsizetype readBytes = qsizetype(1) << 20;
    const qsizetype nameBytes = (2 * readBytes - 2 - first.size() % readBytes) % readBytes;
    first = first.left(3) + char(0x08) + first.mid(4, 6) + QByteArray(nameBytes, 'n') + '\0' + first.mid(10); // FNAME
    QCOMPARE(first.size() % readBytes, readBytes - 1);
    const QString members =
        writeFile(dir, QStringLiteral("members.pickle.gz"), first + gzip(bytes.mid(half)) + "not a gzip member");
    QCOMPARE(QString::fromStdString(figures(SnapshotReader::read(members).snapshot).dump()),
        QString::fromStdString(figures(inline_).dump()));

    // Cut short: the same message, with the same byte offset, as the bytes read on the calling thread.
    for (const qsizetype cut : { bytes.size() / 3, bytes.size() - 4000000 }) {
        const QString name = QStringLiteral("cut%1.pickle").arg(cut);
        const QString error = readError(writeFile(dir, name, bytes.left(cut)));
        QVERIFY2(error.contains(QLatin1String("truncated")), qPrintable(error));
        QCOMPARE(error, readError(bytes.left(cut)));
    }

    // Progress comes every megabyte or so of the parse, however the chunks fall: it is also where a cancel is seen and
    // where the pages the parse fills next are faulted in ahead.
    std::vector<uint64_t> reports;
    SnapshotReader::read(path, [&](uint64_t done, uint64_t) {
        reports.push_back(done);
        return true;
    });
    QVERIFY2(reports.size() >= size_t(bytes.size() >> 21), qPrintable(QString::number(reports.size())));

    // Cancelled at about a third: stops there, with the reading thread joined.
    uint64_t seen = 0;
    QVERIFY_THROWS_EXCEPTION(ReadCancelled, SnapshotReader::read(path, [&](uint64_t done, uint64_t total) {
        seen = done;
        return done < total / 3;
    }));
    QVERIFY(seen >= uint64_t(bytes.size()) / 3 && seen < uint64_t(bytes.size()));
}

// Entries that refer to frame lists defined far earlier (memo references, as a script that repeats a real trace
// writes them): the reader's trace entry path takes them as the general path would, the key before or after others.
void TestReader::sharedFrameLists()
{
    PickleWriter w;
    w.proto(2).emptyDict().mark().str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    auto frames = [&](int i) {
        w.str("frames");
        if (i >= 3) {
            // BINGET and LONG_BINGET, to the lists the first three entries memoized under 200, 201 and 202.
            if (i % 2)
                w.op('h').le<uint8_t>(uint8_t(200 + i % 3));
            else
                w.op('j').le<uint32_t>(uint32_t(200 + i % 3));
            return;
        }
        w.emptyList().op('r').le<uint32_t>(uint32_t(200 + i)).mark();
        for (int f = 0; f <= i; ++f)
            w.emptyDict().mark().keyStr("name", "f").keyStr("filename", "a.py").key("line", 10 * i + f).setitems();
        w.appends();
    };
    const int entries = 3000;
    for (int i = 0; i < entries; ++i) {
        w.emptyDict().mark();
        if (i % 4 == 0)
            frames(i);
        w.keyStr("action", "alloc").key("addr", 4096 + i * 512).key("size", 512);
        if (i % 4 != 0)
            frames(i);
        w.setitems();
        if (i % 1000 == 999)
            w.appends().mark();
    }
    w.appends().op('a').setitems().stop();
    QByteArray bytes = w.bytes();
    QBuffer buffer(&bytes);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const SnapshotPtr s = SnapshotReader::read(&buffer).snapshot;
    QCOMPARE(s->deviceTraces.size(), size_t(1));
    QCOMPARE(s->deviceTraces[0].size(), size_t(entries));
    for (int i = 0; i < entries; ++i) {
        const TraceEntry e = s->deviceTraces[0][size_t(i)];
        QCOMPARE(e.addr, uint64_t(4096 + i * 512));
        QCOMPARE(e.stack, s->deviceTraces[0][size_t(i % 3)].stack);
        const std::span<const FrameId> ids = s->stacks.frames(e.stack);
        QCOMPARE(ids.size(), size_t(i % 3 + 1));
        for (size_t f = 0; f < ids.size(); ++f)
            QCOMPARE(s->frames.frame(ids[f]).line, int64_t(10 * (i % 3) + int(f)));
    }
}

// One APPENDS of 400,000 entries whose keys an earlier object memoized: the reader reads such a batch's entries one
// after another without the general loop, and still reports progress every megabyte or so inside it, where a cancel
// is heard.
void TestReader::oneBatchOfEntries()
{
    PickleWriter w;
    w.proto(4).emptyDict().mark().str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    const char* strings[] = { "action", "addr", "size", "alloc" };
    for (uint8_t i = 0; i < 4; ++i)
        w.str(strings[i]).op('q').le<uint8_t>(i + 1).op('0'); // BINPUT at 1 to 4, POP
    auto get = [&](uint8_t index) -> PickleWriter& { return w.op('h').le<uint8_t>(index); };
    const int entries = 400000;
    for (int i = 0; i < entries; ++i) {
        w.emptyDict().op(0x94).mark();
        get(1);
        get(4);
        get(2).integer(4096 + int64_t(i) * 512);
        get(3).integer(512 + i % 7);
        w.setitems();
    }
    w.appends().op('a').setitems().stop();
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("batch.pickle"), w.bytes());
    const qsizetype size = w.bytes().size();
    std::vector<uint64_t> reports;
    const SnapshotPtr s = SnapshotReader::read(path, [&](uint64_t done, uint64_t) {
        reports.push_back(done);
        return true;
    }).snapshot;
    QCOMPARE(s->deviceTraces[0].size(), size_t(entries));
    for (const int i : { 0, 1, entries / 2, entries - 1 }) {
        const TraceEntry e = s->deviceTraces[0][size_t(i)];
        QCOMPARE(e.action(), TraceAction::Alloc);
        QCOMPARE(e.addr, uint64_t(4096 + int64_t(i) * 512));
        QCOMPARE(e.size, int64_t(512 + i % 7));
    }
    QVERIFY2(reports.size() >= size_t(size >> 21), qPrintable(QString::number(reports.size())));
    uint64_t seen = 0;
    QVERIFY_THROWS_EXCEPTION(ReadCancelled, SnapshotReader::read(path, [&](uint64_t done, uint64_t total) {
        seen = done;
        return done < total / 3;
    }));
    QVERIFY2(seen >= uint64_t(size) / 3 && seen < uint64_t(size) / 3 + (2 << 20), qPrintable(QString::number(seen)));
}

#include "tst_reader.moc"
