// SPDX-License-Identifier: MIT
// One pickle parsed on two threads (PickleSplit): wherever the second thread takes over, the snapshot is the one a
// single parse gives, to every string, frame, stack and entry and in the same order; a part it cannot take is parsed
// again, a damaged one gives the single parse's message, and a cancelled load stops.
#include "testprogram.h"
#include "testutils.h"

#include <QBuffer>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <string>

using namespace RankScope;
using namespace TestUtils;

namespace {

/// Sets RANKSCOPE_SPLIT for as long as it lives.
class SplitSetting
{
public:
    explicit SplitSetting(const char* value)
        : m_old(qgetenv("RANKSCOPE_SPLIT"))
        , m_had(qEnvironmentVariableIsSet("RANKSCOPE_SPLIT"))
    {
        qputenv("RANKSCOPE_SPLIT", value);
    }
    ~SplitSetting()
    {
        if (m_had)
            qputenv("RANKSCOPE_SPLIT", m_old);
        else
            qunsetenv("RANKSCOPE_SPLIT");
    }
    SplitSetting(const SplitSetting&) = delete;
    SplitSetting& operator=(const SplitSetting&) = delete;

private:
    QByteArray m_old;
    bool m_had;
};

QByteArray splitAt(double at)
{
    return QByteArrayLiteral("at=") + QByteArray::number(at) + QByteArrayLiteral(",min=0");
}

bool sameEntries(const TraceEntries& a, const TraceEntries& b)
{
    return std::ranges::equal(a, b);
}

// The first difference between two snapshots, by id (so the order tables were filled in counts), or nothing.
QString difference(const Snapshot& a, const Snapshot& b)
{
    if (a.strings.size() != b.strings.size())
        return QStringLiteral("strings: %1 against %2").arg(a.strings.size()).arg(b.strings.size());
    for (size_t i = 0; i < a.strings.size(); ++i) {
        if (a.strings.view(StringId(i)) != b.strings.view(StringId(i)))
            return QStringLiteral("string %1").arg(i);
    }
    if (a.frames.size() != b.frames.size())
        return QStringLiteral("frames: %1 against %2").arg(a.frames.size()).arg(b.frames.size());
    for (size_t i = 0; i < a.frames.size(); ++i) {
        if (!(a.frames.frame(FrameId(i)) == b.frames.frame(FrameId(i))))
            return QStringLiteral("frame %1").arg(i);
    }
    if (a.stacks.size() != b.stacks.size())
        return QStringLiteral("stacks: %1 against %2").arg(a.stacks.size()).arg(b.stacks.size());
    for (size_t i = 0; i < a.stacks.size(); ++i) {
        if (!std::ranges::equal(a.stacks.frames(StackId(i)), b.stacks.frames(StackId(i))))
            return QStringLiteral("stack %1").arg(i);
    }
    if (a.deviceTraces.size() != b.deviceTraces.size())
        return QStringLiteral("device traces");
    for (size_t d = 0; d < a.deviceTraces.size(); ++d) {
        if (!sameEntries(a.deviceTraces[d], b.deviceTraces[d]))
            return QStringLiteral("device %1's trace (%2 against %3 entries)")
                .arg(d)
                .arg(a.deviceTraces[d].size())
                .arg(b.deviceTraces[d].size());
    }
    if (a.deviceTimes != b.deviceTimes)
        return QStringLiteral("device traces' times");
    if (!sameEntries(a.hostTrace, b.hostTrace) || !(a.hostTimes == b.hostTimes))
        return QStringLiteral("host trace");
    if (a.streams != b.streams)
        return QStringLiteral("streams");
    if (a.entryKinds != b.entryKinds)
        return QStringLiteral("entry kinds: %1 against %2").arg(a.entryKinds.size()).arg(b.entryKinds.size());
    if (!std::ranges::equal(a.entryContexts, b.entryContexts, [](const EntryContext& x, const EntryContext& y) {
            return x.compileContext == y.compileContext && x.userMetadata == y.userMetadata && x.category == y.category
                && x.pool[0] == y.pool[0] && x.pool[1] == y.pool[1] && x.hasPool == y.hasPool;
        }))
        return QStringLiteral("entry contexts");
    if (a.segments.size() != b.segments.size() || a.blocks.size() != b.blocks.size()
        || a.annotations.size() != b.annotations.size() || a.allocatorSettings != b.allocatorSettings
        || a.profilerDerived != b.profilerDerived || a.hasHostMemory != b.hasHostMemory
        || a.hasDeviceTraces != b.hasDeviceTraces)
        return QStringLiteral("segments, blocks, annotations, settings or flags");
    return {};
}

// Read in chunks (a buffer), or with `window` as one window (as a mapped file).
SnapshotReader::Result readBytes(QByteArray bytes, const QByteArray& split, bool window = false)
{
    const SplitSetting setting(split);
    if (window)
        return SnapshotReader::readBytes(bytes);
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::ReadOnly);
    return SnapshotReader::read(&buffer);
}

// How the snapshot of `bytes` split at each of `points`, read both ways, differs from the single parse's (`whole`);
// empty when every split took a part and gave the same.
QString splitDifference(const QByteArray& bytes, const Snapshot& whole, std::initializer_list<double> points)
{
    for (const double at : points) {
        for (const bool window : { false, true }) {
            const SnapshotReader::Result r = readBytes(bytes, splitAt(at), window);
            const QString how = window ? QStringLiteral("as one window") : QStringLiteral("in chunks");
            if (r.partEnd <= r.partStart)
                return QStringLiteral("split at %1, %2: no part taken").arg(at).arg(how);
            if (const QString diff = difference(whole, *r.snapshot); !diff.isEmpty())
                return QStringLiteral("split at %1, %2: %3").arg(at).arg(how, diff);
        }
    }
    return {};
}

// Every form a reader takes the bytes in: a file (mapped where the platform can, else read ahead on a thread), a
// buffer (read in chunks) and bytes in memory (one window, as a mapped file).
struct Reads
{
    SnapshotReader::Result file;
    SnapshotReader::Result buffer;
    SnapshotReader::Result bytes;
};

Reads readBoth(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QByteArray bytes = f.readAll();
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::ReadOnly);
    return { SnapshotReader::read(path), SnapshotReader::read(&buffer), SnapshotReader::readBytes(bytes) };
}

// As the benchmark's ranks were written until December 2026 (a script that pickles each entry on its own): protocol 2,
// each entry's memo numbered from 0 again (so stores go over earlier ones), its frame dicts written out in full, the
// second use of one a reference.
QByteArray piecesPickle(int entries)
{
    PickleWriter w;
    w.proto(2).emptyDict().op('q').op(0).mark().str("segments").emptyList().op('q').op(1);
    w.str("device_traces").emptyList().op('q').op(2).emptyList().op('q').op(3).mark();
    for (int i = 0; i < entries; ++i) {
        uint8_t memo = 0;
        auto put = [&] { w.op('q').op(memo++); };
        w.emptyDict();
        put();
        w.mark().str("action");
        put();
        w.str(i % 3 ? "free_completed" : "alloc");
        put();
        w.str("addr");
        put();
        w.integer(4096 + int64_t(i) * 512).str("size");
        put();
        w.integer(512 + i % 9).str("stream");
        put();
        w.integer(i % 5 == 0 ? 7 : 0).str("time_us");
        put();
        w.integer(1000 + i).str("frames");
        put();
        w.emptyList();
        put();
        w.mark();
        const uint8_t first = memo;
        for (int f = 0; f < 2 + i % 4; ++f) {
            if (f == 2) {
                w.op('h').op(first); // the first frame dict again
                continue;
            }
            w.emptyDict();
            put();
            w.mark().str("filename");
            put();
            w.str(f == 0 ? "train.py" : "torch/nn/modules/module.py");
            put();
            w.str("line");
            put();
            w.integer(10 * f + i % 7).str("name");
            put();
            w.str(i % 11 == 0 ? "forward" : "step");
            put();
            w.setitems();
        }
        w.appends().setitems();
        if (i % 1000 == 999)
            w.appends().mark();
    }
    w.appends().op('a').str("allocator_settings").emptyDict().mark().key("max_split_size", 1 << 20).setitems();
    w.setitems().stop();
    return w.bytes();
}

// Protocol 4, as PyTorch writes snapshots: keys and frame dicts memoized once and referenced after, and, as a script
// that repeats a trace writes them, entries that refer to frame lists made far earlier; every entry that `pools`
// says has a `pool_id` pair, one tuple shared by consecutive entries. With `last`, the snapshot refers once more to
// its last entry (snapshot["last"] = entry), through the memo a part hands over as runs of entries.
QByteArray sharedPickle(int entries, bool pools, bool last = false)
{
    PickleWriter w;
    uint32_t memo = 0;
    auto put = [&] {
        w.op(0x94);
        return memo++;
    };
    auto get = [&](uint32_t index) { w.op('j').le<uint32_t>(index); };
    w.proto(4).emptyDict();
    put();
    w.mark().str("segments").emptyList();
    put();
    w.str("device_traces").emptyList();
    put();
    w.emptyList();
    put();
    w.mark();
    uint32_t keys[6] = {};
    std::vector<uint32_t> lists;
    uint32_t pool = 0;
    uint32_t lastEntry = 0;
    for (int i = 0; i < entries; ++i) {
        w.emptyDict();
        lastEntry = put();
        w.mark();
        const char* names[6] = { "action", "addr", "size", "frames", "time_us", "pool_id" };
        auto key = [&](int k) {
            if (i == 0) {
                w.str(names[k]);
                keys[k] = put();
            } else {
                get(keys[k]);
            }
        };
        key(0);
        w.str(i % 2 ? "free_completed" : "alloc");
        put();
        key(1);
        w.integer(1 << 20 | (i / 2) * 512);
        key(2);
        w.integer(512);
        key(3);
        if (i < 5) {
            w.emptyList();
            lists.push_back(put());
            w.mark();
            for (int f = 0; f <= i; ++f) {
                w.emptyDict();
                put();
                w.mark().keyStr("name", "f").keyStr("filename", "a.py").key("line", 10 * i + f).setitems();
            }
            w.appends();
        } else {
            get(lists[size_t(i % 5)]);
        }
        key(4);
        w.integer(i);
        if (pools) {
            key(5);
            if (i % 50 == 7 || i == 0) { // the entries just after a batch use a pair made before it
                w.integer(1).integer(i / 50).op(0x86);
                pool = put();
            } else {
                get(pool);
            }
        }
        w.setitems();
        if (i % 1000 == 999)
            w.appends().mark();
    }
    w.appends().op('a');
    if (last) {
        w.str("last");
        get(lastEntry);
    }
    w.setitems().stop();
    return w.bytes();
}

// Protocol 2, as a script that pickles pieces may write it: "N/A" stored at two memo indices before the trace, the
// later of them then stored over with "X"; every entry's compile context refers to the other. Strings of one text
// are one string to a part (PickleSplit's TextClass), which must not take the index stored over for "N/A" any more.
QByteArray storedOverPickle(int entries)
{
    PickleWriter w;
    w.proto(2).emptyDict().op('q').op(0).mark();
    w.str("first").str("N/A").op('q').op(201);
    w.str("second").str("N/A").op('q').op(200);
    w.str("stored over").str("X").op('q').op(200);
    w.str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    for (int i = 0; i < entries; ++i) {
        w.emptyDict().mark().keyStr("action", i % 2 ? "free_completed" : "alloc");
        w.key("addr", 4096 + int64_t(i / 2) * 512).key("size", 512).key("time_us", i);
        w.str("compile_context").op('h').op(201).setitems();
        if (i % 1000 == 999)
            w.appends().mark();
    }
    w.appends().op('a').setitems().stop();
    return w.bytes();
}

// Protocol 2 with the memo's indices in two groups: values at 3 to 29 stored before the trace, each entry storing over
// 1, 2, 30 and 31, and the allocator's settings after the trace referring to 5 and 25. The part hands over only the
// indices it stored itself, not those between them.
QByteArray memoGapsPickle(int entries)
{
    PickleWriter w;
    w.proto(2).emptyDict().op('q').op(0).mark();
    for (int k = 3; k < 30; ++k)
        w.str(("v" + std::to_string(k)).c_str()).integer(1000 + k).op('q').op(uint8_t(k));
    w.str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    for (int i = 0; i < entries; ++i) {
        w.emptyDict().op('q').op(30).mark();
        w.str("action").op('q').op(1).str(i % 2 ? "free_completed" : "alloc").op('q').op(2);
        w.key("addr", 4096 + int64_t(i / 2) * 512).key("size", 512).key("time_us", i);
        w.str("compile_context").str("N/A").op('q').op(31).setitems();
        if (i % 1000 == 999)
            w.appends().mark();
    }
    w.appends().op('a').str("allocator_settings").emptyDict().mark();
    w.str("max_split_size").op('h').op(5).str("garbage_collection_threshold").op('h').op(25).setitems();
    w.setitems().stop();
    return w.bytes();
}

// Protocol 4, as PyTorch writes a training job's snapshot: keys, actions' names and frame dicts memoized once and
// referenced after (new frames written out in full where they first appear, all through the file), each entry with a
// frame list of its own and a compile context of its own, numbers of every width Python gives them, now and then a
// user metadata string of its own and a FRAME opcode between entries. The walk steps over most of these entries by
// their shape (EntryShapes): the part it finds must be the one an opcode at a time finds.
QByteArray shapesPickle(int entries)
{
    PickleWriter w;
    uint32_t memo = 0;
    auto put = [&] {
        w.op(0x94);
        return memo++;
    };
    auto get = [&](uint32_t index) {
        if (index < 256)
            w.op('h').op(uint8_t(index));
        else
            w.op('j').le<uint32_t>(index);
    };
    auto number = [&](int64_t v) {
        if (v >= 0 && v < 256)
            w.op('K').op(uint8_t(v));
        else if (v >= 0 && v < 65536)
            w.op('M').le<uint16_t>(uint16_t(v));
        else if (v >= INT32_MIN && v <= INT32_MAX)
            w.op('J').le<int32_t>(int32_t(v));
        else {
            uint8_t n = 1;
            while (n < 8 && (v >> (8 * n - 1) != 0 && v >> (8 * n - 1) != -1))
                ++n;
            w.op(0x8a).op(n);
            for (uint8_t b = 0; b < n; ++b)
                w.op(uint8_t(uint64_t(v) >> (8 * b)));
        }
    };
    std::map<std::string, uint32_t> known;
    auto memoStr = [&](const std::string& text) {
        if (const auto it = known.find(text); it != known.end()) {
            get(it->second);
            return;
        }
        w.str(text.c_str());
        known[text] = put();
    };
    w.proto(4).emptyDict();
    put();
    w.mark();
    memoStr("segments");
    w.emptyList();
    put();
    memoStr("device_traces");
    w.emptyList();
    put();
    w.emptyList();
    put();
    w.mark();
    std::vector<uint32_t> frames;
    uint32_t lastList = 0;
    const char* actions[4] = { "alloc", "free_requested", "free_completed", "segment_map" };
    // The entries of both devices: the second device's come after the first's, and refer to strings and frame dicts
    // the first device's last entries memoized (a part's, where it is split).
    auto entry = [&](int i, int device) {
        if (i % 777 == 5)
            w.op(0x95).le<uint64_t>(65536);
        w.emptyDict();
        put();
        w.mark();
        memoStr("action");
        memoStr(actions[i > entries * 9 / 10 && i % 7 == 0 ? 3 : i % 3]);
        memoStr("addr");
        number(int64_t(i) * 4096 + (i % 5 == 0 ? int64_t(1) << 40 : 0));
        memoStr("size");
        number(i % 4 == 0 ? 100 : i % 4 == 1 ? 3000 : i % 4 == 2 ? 70000 : int64_t(1) << 33);
        memoStr("stream");
        number(i % 13 == 0 ? -1 : 0);
        memoStr("time_us");
        number(int64_t(1700000000000000) + i);
        memoStr("compile_context");
        w.str("N/A");
        put();
        memoStr("user_metadata");
        if (device == 1)
            memoStr("note " + std::to_string(entries - 1 - (entries - 1) % 97));
        else if (i % 97 == 0)
            memoStr("note " + std::to_string(i));
        else
            memoStr("");
        memoStr("frames");
        if (device == 1 && i == entries - 1) { // the very list of the first device's last entry
            get(lastList);
            w.setitems();
            return;
        }
        w.emptyList();
        lastList = put();
        w.mark();
        for (int f = 0; f <= i % 6; ++f) {
            const size_t frame =
                device == 1 ? frames.size() - 1 - size_t(f) : size_t((i * 7 + f * 3) % std::max(1, 1 + i / 250));
            if (frame < frames.size()) {
                get(frames[frame]);
                continue;
            }
            w.emptyDict();
            frames.push_back(put());
            w.mark();
            memoStr("name");
            w.str(("f" + std::to_string(frames.size())).c_str());
            put();
            memoStr("filename");
            memoStr("train.py");
            memoStr("line");
            number(int64_t(frames.size()));
            w.setitems();
        }
        w.appends().setitems();
    };
    for (int i = 0; i < entries; ++i) {
        entry(i, 0);
        if (i % 1000 == 999)
            w.appends().mark();
    }
    w.appends().op('a').emptyList();
    put();
    w.mark();
    for (int i = 0; i < 50; ++i)
        entry(entries - 1 - i, 1);
    w.appends().op('a').setitems().stop();
    return w.bytes();
}

} // namespace

class TestSplit : public QObject
{
    Q_OBJECT

private slots:
    void realFiles_data();
    void realFiles();
    void pieces();
    void sharedFrameLists_data();
    void sharedFrameLists();
    void poolPairsFromBefore();
    void stringStoredOver();
    void entryShapes();
    void memoGaps();
    void damagedPart();
    void cancelled();
};

void TestSplit::realFiles_data()
{
    realFileRows();
}

void TestSplit::realFiles()
{
    QFETCH(QString, name);
    const QString path = dataDir() + QLatin1Char('/') + name;
    SnapshotPtr whole;
    {
        const SplitSetting off("off");
        whole = SnapshotReader::read(path).snapshot;
    }
    size_t entries = 0;
    for (const TraceEntries& trace : whole->deviceTraces)
        entries = std::max(entries, trace.size());
    int splits = 0;
    for (const double at : { 0.05, 0.3, 0.5, 0.7, 0.9 }) {
        const SplitSetting split(splitAt(at));
        const Reads reads = readBoth(path);
        for (const SnapshotReader::Result* r : { &reads.file, &reads.buffer, &reads.bytes }) {
            QVERIFY(r->snapshot);
            const QString diff = difference(*whole, *r->snapshot);
            QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("split at %1: %2").arg(at).arg(diff)));
            QCOMPARE(
                QString::fromStdString(figures(r->snapshot).dump()), QString::fromStdString(figures(whole).dump()));
            splits += r->partEnd > r->partStart;
        }
        QCOMPARE(reads.file.partStart, reads.buffer.partStart);
        QCOMPARE(reads.bytes.partStart, reads.buffer.partStart);
    }
    // A split needs a point between two batches of a trace list's entries (CPython writes them 1,000 at a time).
    if (entries > 2000)
        QVERIFY2(splits >= 3, qPrintable(QString::number(splits)));
    qInfo("%s: %zu entries, split in %d of 15 reads", qPrintable(name), entries, splits);
}

void TestSplit::pieces()
{
    const QByteArray bytes = piecesPickle(6500);
    const SnapshotPtr whole = readBytes(bytes, "off").snapshot;
    QCOMPARE(whole->deviceTraces[0].size(), size_t(6500));
    QCOMPARE(whole->streams.size(), size_t(2));
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("pieces.pickle"), bytes);
    for (const double at : { 0.2, 0.45, 0.8 }) {
        const SplitSetting split(splitAt(at));
        const Reads reads = readBoth(path);
        for (const SnapshotReader::Result* r : { &reads.file, &reads.buffer, &reads.bytes }) {
            QVERIFY(r->partEnd > r->partStart);
            QVERIFY(r->partStart >= uint64_t(double(bytes.size()) * at));
            const QString diff = difference(*whole, *r->snapshot);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
    }
}

void TestSplit::sharedFrameLists_data()
{
    QTest::addColumn<bool>("last");
    QTest::newRow("entries") << false;
    QTest::newRow("the last entry referred to again") << true;
}

void TestSplit::sharedFrameLists()
{
    QFETCH(bool, last);
    const QByteArray bytes = sharedPickle(5500, false, last);
    try {
        const SnapshotPtr whole = readBytes(bytes, "off").snapshot;
        QCOMPARE(whole->deviceTraces[0].size(), size_t(5500));
        QCOMPARE(whole->stacks.size(), size_t(6));
        const QString diff = splitDifference(bytes, *whole, { 0.3, 0.6 });
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    } catch (const ReadError& e) {
        QFAIL(e.what());
    }
}

void TestSplit::poolPairsFromBefore()
{
    // A pool pair made before the point and used after it may still be pending when the reader gets there: the
    // part is refused and read again, to the same snapshot.
    const QByteArray bytes = sharedPickle(5500, true);
    const SnapshotPtr whole = readBytes(bytes, "off").snapshot;
    QVERIFY(whole->entryContexts.size() > 100);
    const SnapshotReader::Result r = readBytes(bytes, splitAt(0.5));
    QCOMPARE(r.partEnd, r.partStart);
    const QString diff = difference(*whole, *r.snapshot);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestSplit::stringStoredOver()
{
    const QByteArray bytes = storedOverPickle(5500);
    const SnapshotPtr whole = readBytes(bytes, "off").snapshot;
    QCOMPARE(whole->deviceTraces[0].size(), size_t(5500));
    QCOMPARE(whole->entryContexts.size(), size_t(2));
    QCOMPARE(whole->strings.view(whole->entryContexts[1].compileContext), std::string_view("N/A"));
    const QString diff = splitDifference(bytes, *whole, { 0.3, 0.6 });
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestSplit::entryShapes()
{
    const QByteArray bytes = shapesPickle(6000);
    const SnapshotPtr whole = readBytes(bytes, "off").snapshot;
    QCOMPARE(whole->deviceTraces[0].size(), size_t(6000));
    QCOMPARE(whole->deviceTraces[1].size(), size_t(50));
    QVERIFY(whole->frames.size() > 20);
    QVERIFY(whole->stacks.size() > 100);
    const QString diff = splitDifference(bytes, *whole, { 0.2, 0.45, 0.7 });
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestSplit::memoGaps()
{
    const QByteArray bytes = memoGapsPickle(5500);
    const SnapshotPtr whole = readBytes(bytes, "off").snapshot;
    QCOMPARE(whole->deviceTraces[0].size(), size_t(5500));
    QCOMPARE(whole->allocatorSettings.size(), size_t(2));
    const QString diff = splitDifference(bytes, *whole, { 0.3, 0.6 });
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestSplit::damagedPart()
{
    // Cut inside the part, and a refused opcode inside it: the single parse's message, with its offset.
    const QByteArray bytes = piecesPickle(6500);
    QByteArray refused = bytes;
    const qsizetype at = refused.indexOf(QByteArrayLiteral("\x8c\x04size"), bytes.size() * 3 / 4);
    QVERIFY(at > 0);
    refused[at] = 'R'; // REDUCE
    for (const QByteArray& damaged : { bytes.left(bytes.size() * 9 / 10), refused }) {
        QString whole;
        {
            const SplitSetting off("off");
            whole = readError(damaged);
        }
        QVERIFY(!whole.isEmpty());
        const SplitSetting split(splitAt(0.5));
        QCOMPARE(readError(damaged), whole);
    }
}

void TestSplit::cancelled()
{
    // Cancelled while the reader waits for the walk at the trace list and while it waits for the part: stops, with
    // the second thread joined. Which of them the third call comes in depends on the threads' timing; large enough
    // that a reader which never waits (on a loaded machine, say) still reports every megabyte and is cancelled there.
    QByteArray bytes = piecesPickle(20000);
    QVERIFY(bytes.size() > 5 * (1 << 20));
    for (const double at : { 0.3, 0.9 }) {
        const SplitSetting split(splitAt(at));
        QBuffer buffer(&bytes);
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(
            ReadCancelled, SnapshotReader::read(&buffer, [&](uint64_t, uint64_t) { return ++calls < 3; }));
    }
}

RANKSCOPE_TEST_CLASS(TestSplit)
#include "tst_split.moc"
