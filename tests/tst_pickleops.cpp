// SPDX-License-Identifier: MIT
// Hand-built pickles for what the real files do not show: the other opcodes of the union (DICT, LIST, TUPLE,
// SETITEM, BINPUT, LONG4, BINUNICODE8, bytes …), PyTorch's C++ pickler style, legacy and partial schemas.
#include "repeatedruns.h"
#include "testprogram.h"
#include "testutils.h"

#include <QTest>

using namespace RankScope;
using namespace TestUtils;

class TestPickleOps : public QObject
{
    Q_OBJECT
private slots:
    void jitPicklerStyle();
    void dictListTupleOpcodes();
    void singleSetitemAndAppend();
    void bigIntegers();
    void legacyBlocksWithHistory();
    void bareSegmentList();
    void unknownKeysAndActions();
    void entryKindsInEveryOrder();
    void entryTimesOfEveryShape();
    void entriesOfEveryShape();
    void memoIndexStoredTwice();
    void bytesAndNoneAreIgnored();
    void sharedFramesAcrossBlockAndTrace();
    void frameListInSeveralBatches();
    void frameListsOfMemoReferences();
    void repeatedFrameLists();
    void traceEntryShapes();
    void unmemoizedEntries();

private:
    QTemporaryDir m_dir;
    SnapshotPtr read(const PickleWriter& w)
    {
        const QString path = writeFile(m_dir, QStringLiteral("t.pickle"), w.bytes());
        return SnapshotReader::read(path).snapshot;
    }
};

// One segment with one active block, written like torch::cuda::_memory_snapshot_pickled(): PROTO 2, every string
// memoized with BINPUT and reused with BINGET, MARK … TUPLE for the pool id, LONG1 with exactly 8 bytes.
void TestPickleOps::jitPicklerStyle()
{
    PickleWriter w;
    w.proto(2).emptyDict().op('q').op(0).mark();
    w.str("segments").op('q').op(1).emptyList().op('q').op(2).mark();
    w.emptyDict().op('q').op(3).mark();
    w.str("device").op('q').op(4).integer(0);
    w.str("address").op('q').op(5).op(0x8a).op(8).le<int64_t>(0x7f0000000000);
    w.str("total_size").op('q').op(6).integer(2097152);
    w.str("segment_pool_id").op('q').op(7).mark().integer(0).integer(0).op('t');
    w.str("blocks").op('q').op(8).emptyList().mark();
    w.emptyDict().mark();
    w.op('h').op(6).integer(1048576); // BINGET "total_size" as a key of the block: ignored
    w.str("size").op('r').le<uint32_t>(9).integer(1048576);
    w.str("state").str("active_allocated").op('r').le<uint32_t>(10);
    w.str("requested_size").integer(1000000);
    w.setitems();
    w.emptyDict().mark().str("size").integer(1048576).str("state").op('j').le<uint32_t>(10).setitems();
    w.appends(); // blocks
    w.setitems(); // segment
    w.appends(); // segments
    w.str("device_traces").emptyList().mark().emptyList().appends();
    w.setitems().stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->segments.size(), size_t(1));
    QCOMPARE(s->segments[0].address, uint64_t(0x7f0000000000));
    QCOMPARE(s->blocks.size(), size_t(2));
    QCOMPARE(s->blocks[0].state, BlockState::ActiveAllocated);
    QCOMPARE(s->blocks[1].state, BlockState::ActiveAllocated);
    QCOMPARE(s->blocks[1].address, uint64_t(0x7f0000000000 + 1048576));
    QCOMPARE(s->blocks[0].requestedSize, int64_t(1000000));
    QCOMPARE(s->deviceTraces.size(), size_t(1));
    QVERIFY(s->hasDeviceTraces);
}

// MARK … DICT / LIST / TUPLE build children before their parent: the reader must type them once placed.
void TestPickleOps::dictListTupleOpcodes()
{
    PickleWriter w;
    w.proto(2).mark();
    w.str("segments").mark();
    w.mark().key("device", 0).key("address", 4096).key("total_size", 1024);
    w.str("blocks").mark().mark().key("size", 512).keyStr("state", "active_allocated").op('d');
    w.mark().key("size", 512).keyStr("state", "inactive").op('d').op('l');
    w.str("segment_pool_id").integer(1).integer(2).op(0x86);
    w.op('d'); // segment
    w.op('l'); // segments
    w.str("device_traces").mark().mark();
    w.mark().keyStr("action", "alloc").key("addr", 4096).key("size", 500).key("stream", 0).op('d');
    w.mark().keyStr("action", "oom").key("device_free", 77).key("size", 1 << 30).key("stream", 0).op('d');
    w.op('l').op('l');
    w.op('d').stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->segments.size(), size_t(1));
    QCOMPARE(s->segments[0].poolId[0], int64_t(1));
    QCOMPARE(s->segments[0].poolId[1], int64_t(2));
    QCOMPARE(s->blocks.size(), size_t(2));
    QCOMPARE(s->blocks[1].address, uint64_t(4096 + 512));
    QCOMPARE(s->blocks[1].state, BlockState::Inactive);
    QCOMPARE(s->deviceTraces[0].size(), size_t(2));
    QCOMPARE(s->deviceTraces[0][0].action(), TraceAction::Alloc);
    QCOMPARE(s->deviceTraces[0][1].action(), TraceAction::Oom);
    QCOMPARE(s->deviceTraces[0][1].addr, uint64_t(77)); // device_free
    const auto info = DeviceInfo::compute(s);
    QCOMPARE(info[0].oomEvents, int64_t(1));
    QCOMPARE(info[0].allocatedBytes, int64_t(512));
}

// Protocol-0 style single-item opcodes: SETITEM for a one-key dict, APPEND for a one-item list.
void TestPickleOps::singleSetitemAndAppend()
{
    PickleWriter w;
    w.proto(3).emptyDict().str("segments").emptyList();
    w.emptyDict().str("total_size").integer(4096).op('s').op('a'); // one segment, one key
    w.op('s');
    w.stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->segments.size(), size_t(1));
    QCOMPARE(s->segments[0].totalSize, int64_t(4096));
    QVERIFY(!s->hasDeviceTraces);
    QCOMPARE(s->deviceCount(), 1);
}

void TestPickleOps::bigIntegers()
{
    PickleWriter w;
    w.proto(4).emptyList().mark().emptyDict().mark();
    w.str("address").op(0x8a).op(9).le<uint64_t>(0xfff0000000000000ull).op(0); // above 2^63: 9 bytes
    w.str("total_size").op(0x8b).le<int32_t>(3).op(0x00).op(0x10).op(0x00); // LONG4, 4096
    w.str("device").op(0x8a).op(0); // LONG1 of length 0 is zero
    w.str("stream").op(0x8a).op(1).op(0xff); // -1
    w.setitems().appends().stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->segments[0].address, uint64_t(0xfff0000000000000ull));
    QCOMPARE(s->segments[0].totalSize, int64_t(4096));
    QCOMPARE(s->segments[0].stream, int64_t(-1));

    PickleWriter tooBig;
    tooBig.proto(4).op(0x8a).op(10).raw(QByteArray(9, '\x01')).op(1).stop();
    QVERIFY(readError(writeFile(m_dir, QStringLiteral("big.pickle"), tooBig.bytes()))
                .contains(QLatin1String("does not fit in 64 bits")));
}

// Blocks of PyTorch ≤ 2.0: no address, no frames, a history list; requested size from history[0].real_size.
void TestPickleOps::legacyBlocksWithHistory()
{
    PickleWriter w;
    w.proto(4).emptyDict().mark().str("segments").emptyList().mark();
    w.emptyDict()
        .mark()
        .key("device", 0)
        .key("address", 1 << 20)
        .key("total_size", 3072)
        .str("blocks")
        .emptyList()
        .mark();
    // block 0: history with frames
    w.emptyDict().mark().key("size", 1024).keyStr("state", "active_allocated").str("history").emptyList().mark();
    w.emptyDict().mark().key("addr", 1 << 20).key("real_size", 1000).str("frames").emptyList().mark();
    w.emptyDict().mark().keyStr("name", "forward").keyStr("filename", "model.py").key("line", 12).setitems();
    w.appends().setitems(); // frames, history entry
    w.emptyDict().mark().key("addr", 1 << 20).key("real_size", 1).setitems(); // later history entries are ignored
    w.appends().setitems(); // history, block 0
    // block 1: no history, no requested_size → requested = size
    w.emptyDict().mark().key("size", 1024).keyStr("state", "active_allocated").setitems();
    // block 2: inactive
    w.emptyDict().mark().key("size", 1024).keyStr("state", "inactive").setitems();
    w.appends().setitems().appends().setitems().stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->blocks.size(), size_t(3));
    QCOMPARE(s->blocks[0].address, uint64_t(1 << 20));
    QCOMPARE(s->blocks[2].address, uint64_t((1 << 20) + 2048));
    QCOMPARE(s->blocks[0].requestedSize, int64_t(1000));
    QCOMPARE(s->blocks[1].requestedSize, int64_t(1024));
    const auto frames = s->stacks.frames(s->blocks[0].stack);
    QCOMPARE(frames.size(), size_t(1));
    QCOMPARE(s->strings.view(s->frames.frame(frames[0]).filename), std::string_view("model.py"));
    QCOMPARE(s->blocks[1].stack, EmptyStack);
    QCOMPARE(DeviceInfo::compute(s)[0].requestedBytes, int64_t(2024));
}

void TestPickleOps::bareSegmentList()
{
    PickleWriter w;
    w.proto(2).emptyList().mark();
    w.emptyDict().mark().key("device", 1).key("address", 0).key("total_size", 2048).setitems();
    w.appends().stop();
    const SnapshotPtr s = read(w);
    QVERIFY(!s->hasDeviceTraces);
    QCOMPARE(s->deviceCount(), 2);
    QCOMPARE(DeviceInfo::compute(s)[1].reservedBytes, int64_t(2048));
}

void TestPickleOps::unknownKeysAndActions()
{
    PickleWriter w;
    w.proto(4).emptyDict().mark().str("segments").emptyList();
    w.str("device_traces").emptyList().mark().emptyList().mark();
    w.emptyDict().mark().keyStr("action", "workspace_snapshot").key("addr", 5).key("size", 6).str("new_field");
    w.emptyDict().mark().str("nested").emptyList().mark().integer(1).integer(2).appends().setitems();
    w.keyStr("user_metadata", "step 3").setitems();
    w.emptyDict().mark().keyStr("action", "free_completed").key("addr", 5).setitems(); // no size, no stream
    w.appends().appends();
    w.str("brand_new_top_level_key").emptyDict();
    w.setitems().stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->deviceTraces[0].size(), size_t(2));
    QCOMPARE(s->deviceTraces[0][0].action(), TraceAction::Other);
    QCOMPARE(s->strings.view(s->actionName(s->deviceTraces[0][0])), std::string_view("workspace_snapshot"));
    QCOMPARE(s->strings.view(s->context(s->deviceTraces[0][0]).userMetadata), std::string_view("step 3"));
    QCOMPARE(s->deviceTraces[0][1].action(), TraceAction::FreeCompleted);
}

// An entry holds one index for its action, stream and context, whichever order its keys come in: every entry gives
// back what it was written with, each combination is held once, and the common one (an action on stream 0 without a
// context) is the fixed kind of its action.
void TestPickleOps::entryKindsInEveryOrder()
{
    const char* actions[] = { "alloc", "free_completed", "workspace_snapshot" };
    const int64_t streams[] = { 0, 7, 9, int64_t(1) << 40, 7 * 64 };
    const char* contexts[] = { nullptr, "compiled 0", "compiled 1" };
    PickleWriter w;
    w.proto(4).emptyDict().mark().str("segments").emptyList();
    w.str("device_traces").emptyList().mark().emptyList().mark();
    constexpr int n = 900;
    for (int i = 0; i < n; ++i) {
        w.emptyDict().mark();
        const char* context = contexts[(i / 15) % 3];
        if (i % 2)
            w.key("stream", streams[i % 5]).keyStr("action", actions[i % 3]);
        else
            w.keyStr("action", actions[i % 3]).key("stream", streams[i % 5]);
        if (context)
            w.keyStr("compile_context", context);
        w.key("addr", 4096 * (i + 1)).key("size", 512).setitems();
        if (i % 100 == 99)
            w.appends().mark();
    }
    w.appends().appends().setitems().stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->deviceTraces[0].size(), size_t(n));
    for (int i = 0; i < n; ++i) {
        const TraceEntry e = s->deviceTraces[0][size_t(i)];
        const char* context = contexts[(i / 15) % 3];
        QCOMPARE(s->strings.view(s->actionName(e)), std::string_view(actions[i % 3]));
        QCOMPARE(e.action(),
            i % 3 == 0       ? TraceAction::Alloc
                : i % 3 == 1 ? TraceAction::FreeCompleted
                             : TraceAction::Other);
        QCOMPARE(s->stream(e), streams[i % 5]);
        QCOMPARE(s->strings.view(s->context(e).compileContext), std::string_view(context ? context : ""));
        if (i % 3 < 2 && streams[i % 5] == 0 && !context)
            QCOMPARE(e.kind, EntryKinds::plain(e.action()));
    }
    for (size_t a = 0; a < s->entryKinds.size(); ++a) {
        for (size_t b = a + 1; b < s->entryKinds.size(); ++b)
            QVERIFY(!(s->entryKinds[a] == s->entryKinds[b]));
    }
}

// Entry times are held apart from the entries, in 4 bytes where they allow: every shape of time sequence must read
// back as written, in a trace read from a file as in one built entry by entry.
void TestPickleOps::entryTimesOfEveryShape()
{
    constexpr int64_t epoch = int64_t(1776479641085368);
    constexpr int64_t hour = int64_t(3600) * 1000 * 1000;
    constexpr int64_t most = std::numeric_limits<int64_t>::max();
    constexpr int64_t least = std::numeric_limits<int64_t>::min();
    const auto shape = [&](int which, size_t i) -> int64_t {
        switch (which) {
        case 0: // a training job's: a few microseconds apart
            return epoch + int64_t(i) * 37;
        case 1: // no times (a writer before time_us)
            return 0;
        case 2: // an hour between each run of entries, and a long run backwards within one
            return epoch + int64_t(i / 1024) * hour - int64_t(i % 1024) * 1000;
        case 3: // an hour's gap within a run: 8 bytes each from there on
            return epoch + (i >= 1500 ? hour : 0) + int64_t(i);
        case 4: // a time of 0 among others (still 4 bytes)
            return i == 2000 ? 0 : epoch + int64_t(i);
        default: // a hand-made file's extremes
            return i % 3 == 0 ? most - int64_t(i) : i % 3 == 1 ? least + int64_t(i) : int64_t(i) - 1000;
        }
    };
    constexpr size_t n = 3000;
    for (int which = 0; which < 6; ++which) {
        TraceTimes built;
        for (size_t i = 0; i < n; ++i)
            built.push_back(shape(which, i));
        QCOMPARE(built.size(), n);
        for (size_t i = 0; i < n; ++i)
            QCOMPARE(built[i], shape(which, i));
        QCOMPARE(built.isWide(), which == 3 || which == 5);

        PickleWriter w;
        w.proto(4).emptyDict().mark().str("segments").emptyList();
        w.str("device_traces").emptyList().mark().emptyList().mark();
        for (size_t i = 0; i < n; ++i) {
            w.emptyDict().mark().keyStr("action", "alloc").key("addr", int64_t(4096 * (i + 1))).key("size", 512);
            if (const int64_t t = shape(which, i); t != 0)
                w.key("time_us", t);
            w.setitems();
            if (i % 1000 == 999)
                w.appends().mark();
        }
        w.appends().appends().setitems().stop();
        const SnapshotPtr s = read(w);
        QCOMPARE(s->deviceTimes.size(), size_t(1));
        QVERIFY(s->deviceTimes[0] == built);
    }

    // Set after the entry was made, as the reader does: a later time may widen what is already there.
    TraceTimes set;
    for (size_t i = 0; i < 2048; ++i)
        set.push_back(0);
    set.set(5, epoch);
    set.set(1030, epoch + hour);
    QVERIFY(!set.isWide());
    set.set(6, epoch + hour);
    QVERIFY(set.isWide());
    QCOMPARE(set[5], epoch);
    QCOMPARE(set[6], epoch + hour);
    QCOMPARE(set[1030], epoch + hour);
    QCOMPARE(set[7], int64_t(0));
    set.resize(6);
    QCOMPARE(set.size(), size_t(6));
    QCOMPARE(set.back(), epoch);
}

// Trace entries take 16 bytes where a real file's numbers fit (a digest's stand-in address too), 24 where one does not;
// both must read back as written, whether the entry was made whole or field by field as the reader does, and a late
// misfit must keep what came before.
void TestPickleOps::entriesOfEveryShape()
{
    constexpr uint64_t base = 0x7f0000000000;
    constexpr uint64_t addrEnd = uint64_t(1) << 48;
    constexpr int64_t sizeEnd = int64_t(1) << 40;
    constexpr size_t n = 5000;
    constexpr size_t late = 4321; // a misfit after several runs of fitting entries
    struct Shape
    {
        const char* what;
        bool wide;
        uint64_t (*addr)(size_t);
        int64_t (*size)(size_t);
        int64_t (*stream)(size_t);
    };
    const Shape shapes[] = {
        { "a training job's", false, [](size_t i) { return base + 512 * i; },
            [](size_t i) { return int64_t(512 * (i % 100 + 1)); }, [](size_t i) { return int64_t(i % 3); } },
        { "the largest address and size that fit", false, [](size_t) { return addrEnd - 2; },
            [](size_t) { return sizeEnd - 1; }, [](size_t) { return int64_t(0); } },
        { "an address of 2^48, late", true, [](size_t i) { return i == late ? addrEnd : base + i; },
            [](size_t) { return int64_t(512); }, [](size_t) { return int64_t(0); } },
        // 48 ones are the stand-in's packed form: an entry at that very address keeps the wide form.
        { "an address of 2^48 - 1, late", true, [](size_t i) { return i == late ? addrEnd - 1 : base + i; },
            [](size_t) { return int64_t(512); }, [](size_t) { return int64_t(0); } },
        { "a digest's stand-in address, throughout", false,
            [](size_t i) { return i % 3 == 0 ? DigestInfo::leftOutAddress : base + i; },
            [](size_t) { return int64_t(512); }, [](size_t) { return int64_t(0); } },
        { "a size of 2^40, late", true, [](size_t i) { return base + i; },
            [](size_t i) { return i == late ? sizeEnd : int64_t(i); }, [](size_t) { return int64_t(0); } },
        { "a negative size, late", true, [](size_t i) { return base + i; },
            [](size_t i) { return i == late ? int64_t(-1) : int64_t(i); }, [](size_t) { return int64_t(0); } },
        { "a stream of its own for every entry (more than 4096 kinds)", true, [](size_t i) { return base + i; },
            [](size_t) { return int64_t(512); }, [](size_t i) { return int64_t(i + 1); } },
    };
    for (const Shape& shape : shapes) {
        PickleWriter w;
        w.proto(4).emptyDict().mark().str("segments").emptyList();
        w.str("device_traces").emptyList().mark().emptyList().mark();
        for (size_t i = 0; i < n; ++i) {
            w.emptyDict().mark().keyStr("action", i % 2 ? "free_completed" : "alloc");
            w.key("addr", int64_t(shape.addr(i))).key("size", shape.size(i)).key("stream", shape.stream(i));
            w.setitems();
            if (i % 1000 == 999)
                w.appends().mark();
        }
        w.appends().appends().setitems().stop();
        const SnapshotPtr s = read(w);
        QVERIFY2(s, shape.what);
        const TraceEntries& trace = s->deviceTraces[0];
        QCOMPARE(trace.size(), n);
        QVERIFY2(trace.isWide() == shape.wide, shape.what);
        TraceEntries whole;
        for (size_t i = 0; i < n; ++i) {
            const TraceEntry e = trace[i];
            QVERIFY2(e.addr == shape.addr(i) && e.size == shape.size(i), shape.what);
            QCOMPARE(e.action(), i % 2 ? TraceAction::FreeCompleted : TraceAction::Alloc);
            QCOMPARE(s->stream(e), shape.stream(i));
            whole.push_back(e);
        }
        QCOMPARE(whole.isWide(), shape.wide);
        QVERIFY(std::ranges::equal(whole, trace));
        QCOMPARE(whole.bytes(), n * (shape.wide ? sizeof(TraceEntry) : sizeof(PackedEntry)));
    }

    // Stacks: a file would need 2^24 of them, so the entries are set here as the reader sets them.
    TraceEntries set;
    for (size_t i = 0; i < 3; ++i)
        set.push_back({});
    const TraceEntry largest { addrEnd - 2, sizeEnd - 1, (StackId(1) << 24) - 1,
        EntryKinds::make(TraceAction::Oom, 4095) };
    set.set(0, largest);
    set.set(1, { 1, 2, 3, EntryKinds::plain(TraceAction::Alloc) });
    QVERIFY(!set.isWide());
    QVERIFY(set[0] == largest);
    QCOMPARE(set[1].stack, StackId(3));
    QCOMPARE(set[1].action(), TraceAction::Alloc);
    QVERIFY(set[2] == TraceEntry {});
    set.set(2, { 4, 5, StackId(1) << 24, EntryKinds::plain(TraceAction::FreeCompleted) });
    QVERIFY(set.isWide());
    QCOMPARE(set[2].stack, StackId(1) << 24);
    QVERIFY(set[0] == largest);
    QCOMPARE(set[1].size, int64_t(2));
    set.resize(1);
    QCOMPARE(set.size(), size_t(1));
    QVERIFY(set[0] == largest);
}

// A memo index stored again holds what was stored last, a trace entry dict too (its slot is the one never written).
void TestPickleOps::memoIndexStoredTwice()
{
    const auto file = [](bool again) {
        PickleWriter w;
        w.proto(4).emptyDict().mark().str("segments").emptyList();
        w.str("device_traces").emptyList().mark().emptyList().mark();
        w.emptyDict().op('q').op(4).mark().str("action").str("alloc").op('q').op(5); // memo 5: "alloc"
        w.key("addr", 4096).key("size", 512).setitems();
        w.emptyDict().op('q').op(again ? 5 : 6).mark().str("action").op('h').op(5); // memo 5: this entry, or "alloc"
        w.key("addr", 8192).key("size", 512).setitems();
        w.appends().appends().setitems().stop();
        return w;
    };
    const SnapshotPtr once = read(file(false));
    QCOMPARE(once->deviceTraces[0].size(), size_t(2));
    QCOMPARE(once->strings.view(once->actionName(once->deviceTraces[0][1])), std::string_view("alloc"));
    QCOMPARE(
        readError(file(true).bytes()), QStringLiteral("trace 'action' should be a string, found a dict at byte 114"));
}

void TestPickleOps::bytesAndNoneAreIgnored()
{
    PickleWriter w;
    w.proto(5).emptyDict().mark().str("segments").emptyList();
    w.str("blob").op('C').op(3).raw("abc"); // SHORT_BINBYTES
    w.str("blob2").op('B').le<uint32_t>(2).raw("xy"); // BINBYTES
    w.str("blob3").op(0x96).le<uint64_t>(1).raw("z"); // BYTEARRAY8
    w.str("long_name").op(0x8d).le<uint64_t>(5).raw("hello"); // BINUNICODE8
    w.str("nothing").op('N');
    w.str("flag").op(0x88).str("flag2").op(0x89);
    w.str("ratio").op('G').raw(QByteArray::fromHex("3ff8000000000000")); // 1.5, big-endian
    w.setitems().stop();
    const SnapshotPtr s = read(w);
    QVERIFY(s->segments.empty());
    QCOMPARE(s->deviceCount(), 0);
}

// PyTorch shares one frame list between an alloc and the live block it made; sharing must survive.
void TestPickleOps::sharedFramesAcrossBlockAndTrace()
{
    PickleWriter w;
    w.proto(4).emptyDict().op(0x94).mark().str("segments").emptyList().mark();
    w.emptyDict().mark().key("device", 0).key("address", 8192).key("total_size", 512).str("blocks").emptyList();
    w.emptyDict().mark().key("size", 512).keyStr("state", "active_allocated").str("frames");
    w.emptyList().op(0x94).mark(); // memo 1 (memo 0 is the top-level dict)
    w.emptyDict().mark().keyStr("name", "f").keyStr("filename", "a.py").key("line", 1).setitems();
    w.emptyDict().mark().keyStr("name", "g").keyStr("filename", "a.py").key("line", 2).setitems();
    w.appends().setitems().op('a').setitems().appends();
    // The alloc that made the block refers to the very same list object (memo 1), as PyTorch writes it.
    w.str("device_traces").emptyList().emptyList().mark();
    w.emptyDict().mark().keyStr("action", "alloc").key("addr", 8192).key("size", 500).str("frames").op('h').op(1);
    w.setitems().appends().op('a').setitems().stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->frames.size(), size_t(2));
    QCOMPARE(s->stacks.size(), size_t(2)); // the empty stack and the one shared stack
    QCOMPARE(s->blocks[0].stack, s->deviceTraces[0][0].stack);
}

// Python's pickler appends long lists in batches of 1000 (APPENDS each), and APPEND adds one item: however a frame
// list arrives, its stack holds every frame in order, and one appended after it was used is refused.
void TestPickleOps::frameListInSeveralBatches()
{
    const auto frame = [](PickleWriter& w, int line) {
        w.emptyDict().mark().keyStr("name", "f").keyStr("filename", "a.py").key("line", line).setitems();
    };
    PickleWriter w;
    w.proto(4).emptyDict().mark().str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    w.emptyDict().mark().keyStr("action", "alloc").key("addr", 8192).key("size", 500).str("frames");
    w.emptyList().mark();
    frame(w, 1);
    frame(w, 2);
    w.appends().mark();
    frame(w, 3);
    w.appends();
    frame(w, 4);
    w.op('a'); // APPEND
    w.setitems().appends().op('a').setitems().stop();
    const SnapshotPtr s = read(w);
    const auto frames = s->stacks.frames(s->deviceTraces[0][0].stack);
    QCOMPARE(frames.size(), size_t(4));
    for (int i = 0; i < 4; ++i)
        QCOMPARE(s->frames.frame(frames[size_t(i)]).line, int64_t(i + 1));

    // The list used as an entry's frames (memo 1), then appended to.
    PickleWriter bad;
    bad.proto(4).emptyDict().mark().str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    bad.emptyDict().mark().keyStr("action", "alloc").key("addr", 8192).key("size", 500).str("frames");
    bad.emptyList().op(0x94).mark(); // memo 0
    frame(bad, 1);
    bad.appends().setitems().appends().op('a');
    bad.op('h').op(0).mark();
    frame(bad, 2);
    bad.appends().setitems().stop();
    QVERIFY_THROWS_EXCEPTION(ReadError, read(bad));
}

// How CPython writes the frame lists of a large file: each frame dict memoized once, each list a MARK, a memo
// reference per frame (BINGET below index 256, LONG_BINGET above) and APPENDS. The reader takes that shape in one go;
// every other shape around it must read as the general path reads it, errors included.
void TestPickleOps::frameListsOfMemoReferences()
{
    const auto get = [](PickleWriter& w, uint32_t index) -> PickleWriter& {
        return index < 256 ? w.op('h').op(uint8_t(index)) : w.op('j').le<uint32_t>(index);
    };
    const auto put = [](PickleWriter& w, uint32_t index) -> PickleWriter& { return w.op('r').le<uint32_t>(index); };
    // The first entry holds the frame dicts themselves, memoized at 1 and 300, and its key "frames" at 2; the batch of
    // entries stays open.
    const auto start = [&](PickleWriter& w) {
        w.proto(2).emptyDict().mark().str("segments").emptyList();
        w.str("device_traces").emptyList().emptyList().mark();
        w.emptyDict().mark().keyStr("action", "alloc").key("addr", 4096).key("size", 1).str("frames");
        put(w, 2).emptyList().mark().emptyDict();
        put(w, 1).mark().keyStr("name", "f").keyStr("filename", "a.py").key("line", 1).setitems().emptyDict();
        put(w, 300).mark().keyStr("name", "g").keyStr("filename", "b.py").key("line", 2).setitems();
        w.appends().setitems();
    };
    const auto entry = [&](PickleWriter& w, int64_t addr) -> PickleWriter& {
        w.emptyDict().mark().keyStr("action", "alloc").key("addr", addr).key("size", 1);
        return get(w, 2);
    };

    // Two lists with the same frames share one stack; a list referenced again by memo is the same stack; an
    // empty list is the empty stack; a list in two batches keeps both.
    PickleWriter w;
    start(w);
    entry(w, 8192).emptyList();
    put(w, 10).mark();
    get(w, 1);
    get(w, 300).appends().setitems();
    entry(w, 8704).emptyList().mark();
    get(w, 1);
    get(w, 300).appends().setitems();
    entry(w, 9216);
    get(w, 10).setitems();
    entry(w, 9728).emptyList().mark().appends().setitems();
    entry(w, 10240).emptyList().mark();
    get(w, 300).appends().mark();
    get(w, 1);
    get(w, 1).appends().setitems();
    w.appends().op('a').setitems().stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->deviceTraces[0].size(), size_t(6));
    const auto& trace = s->deviceTraces[0];
    QVERIFY(trace[0].stack != EmptyStack);
    QCOMPARE(trace[1].stack, trace[0].stack);
    QCOMPARE(trace[2].stack, trace[0].stack);
    QCOMPARE(trace[3].stack, trace[0].stack);
    QCOMPARE(trace[4].stack, EmptyStack);
    const auto lines = [&](StackId id) {
        std::vector<int64_t> out;
        for (FrameId f : s->stacks.frames(id))
            out.push_back(s->frames.frame(f).line);
        return out;
    };
    QCOMPARE(lines(trace[0].stack), (std::vector<int64_t> { 1, 2 }));
    QCOMPARE(lines(trace[5].stack), (std::vector<int64_t> { 2, 1, 1 }));

    // A frame dict stored over a memo index: a list of the same references as before is the new frame's.
    PickleWriter over;
    start(over);
    entry(over, 8192).emptyList().mark();
    get(over, 1);
    get(over, 300).appends().setitems();
    entry(over, 8704).emptyList().mark().emptyDict();
    put(over, 1).mark().keyStr("name", "h").keyStr("filename", "c.py").key("line", 3).setitems();
    over.appends().setitems();
    entry(over, 9216).emptyList().mark();
    get(over, 1);
    get(over, 300).appends().setitems();
    over.appends().op('a').setitems().stop();
    const SnapshotPtr o = read(over);
    QCOMPARE(o->deviceTraces[0].size(), size_t(4));
    QCOMPARE(o->stacks.frames(o->deviceTraces[0][1].stack).size(), size_t(2));
    QCOMPARE(o->frames.frame(o->stacks.frames(o->deviceTraces[0][1].stack)[0]).line, int64_t(1));
    QCOMPARE(o->frames.frame(o->stacks.frames(o->deviceTraces[0][3].stack)[0]).line, int64_t(3));
    QCOMPARE(o->frames.frame(o->stacks.frames(o->deviceTraces[0][3].stack)[1]).line, int64_t(2));

    // A memo reference to something that is not a frame dict, inside a frame list.
    PickleWriter notFrame;
    start(notFrame);
    entry(notFrame, 8192).emptyList().mark();
    get(notFrame, 1);
    get(notFrame, 2).appends().setitems().appends().op('a').setitems().stop();
    QCOMPARE(readError(notFrame.bytes()),
        QStringLiteral("expected a frame dict in 'frames', found a string at byte %1")
            .arg(notFrame.bytes().size() - 6));
    // A memo index never stored, inside a frame list.
    PickleWriter unset;
    start(unset);
    entry(unset, 8192).emptyList().mark();
    get(unset, 1);
    get(unset, 77).appends().setitems().appends().op('a').setitems().stop();
    QCOMPARE(readError(unset.bytes()),
        QStringLiteral("memo index 77 was never stored at byte %1").arg(unset.bytes().size() - 8));
    // A list used as an entry's frames, then appended to by memo references.
    PickleWriter changed;
    start(changed);
    entry(changed, 8192).emptyList();
    put(changed, 10).mark();
    get(changed, 1).appends().setitems();
    get(changed, 10).mark();
    get(changed, 300).appends().op('0').appends().op('a').setitems().stop();
    QVERIFY(readError(changed.bytes()).startsWith(QStringLiteral("a frame list was changed after it was used")));
}

// The runs a reader (and the split's walk) does not step over again: predicted from the two runs before, or the one
// before, and only ever as a whole run, never as the head of a longer one.
void TestPickleOps::repeatedFrameLists()
{
    RepeatedRuns runs;
    uint32_t made = 0;
    // How the run of `frames` (memo indices as BINGETs, then APPENDS) was known: "predicted", "found" or "new", then
    // the value it was remembered with.
    const auto see = [&](const std::vector<uint8_t>& frames) -> QString {
        std::vector<uint8_t> bytes;
        for (const uint8_t frame : frames)
            bytes.insert(bytes.end(), { 'h', frame });
        const size_t length = bytes.size();
        bytes.push_back('e');
        const uint8_t* p = bytes.data();
        if (const RepeatedRuns::Run* run = runs.predict(p, p + bytes.size(), 'e'))
            return QStringLiteral("predicted %1").arg(run->value);
        if (const RepeatedRuns::Run* run = runs.find(p, length))
            return QStringLiteral("found %1").arg(run->value);
        runs.remember(p, length, made);
        return QStringLiteral("new %1").arg(made++);
    };
    const std::vector<uint8_t> x { 1, 2, 3, 4 };
    const std::vector<uint8_t> z { 9, 8, 7, 6 };
    const std::vector<uint8_t> a { 5, 5, 5, 5 };
    // y and w begin alike: what is looked up by the run before and the head of the next cannot tell them apart.
    const std::vector<uint8_t> y { 1, 1, 1, 1, 1 };
    const std::vector<uint8_t> w { 1, 1, 1, 1, 2 };
    const std::vector<uint8_t> longer { 5, 5, 5, 5, 6 };
    QCOMPARE(see(x), QStringLiteral("new 0"));
    QCOMPARE(see(a), QStringLiteral("new 1"));
    QCOMPARE(see(y), QStringLiteral("new 2"));
    QCOMPARE(see(z), QStringLiteral("new 3"));
    QCOMPARE(see(a), QStringLiteral("found 1"));
    QCOMPARE(see(w), QStringLiteral("new 4"));
    // After x and a came y, after z and a came w: the run before alone (a) would say w.
    QCOMPARE(see(x), QStringLiteral("found 0"));
    QCOMPARE(see(a), QStringLiteral("predicted 1"));
    QCOMPARE(see(y), QStringLiteral("predicted 2"));
    QCOMPARE(see(z), QStringLiteral("predicted 3"));
    QCOMPARE(see(a), QStringLiteral("predicted 1"));
    QCOMPARE(see(w), QStringLiteral("predicted 4"));
    // a begins this longer run after x: not the answer, and the longer run is remembered, then predicted.
    QCOMPARE(see(x), QStringLiteral("predicted 0"));
    QCOMPARE(see(longer), QStringLiteral("new 5"));
    QCOMPARE(see(y), QStringLiteral("found 2"));
    QCOMPARE(see(x), QStringLiteral("found 0"));
    QCOMPARE(see(longer), QStringLiteral("predicted 5"));
    // Forgotten (a frame dict's memo index stored over): nothing is known any more.
    runs.forget();
    QCOMPARE(see(y), QStringLiteral("new 6"));
}

// Trace entry dicts are read without the general loop while their items have the usual shapes; any other item
// hands what was read to the general loop, which must end with the same entry, or the same error at the same byte.
void TestPickleOps::traceEntryShapes()
{
    // Protocol 4 memoizes every string with MEMOIZE (implicit indices); the second entry's keys are references.
    const auto entry = [](PickleWriter& w, bool inlineKeys, bool withFloat) {
        w.emptyDict().op(0x94).mark();
        const auto key = [&](const char* k, uint8_t index) {
            if (inlineKeys)
                w.str(k).op(0x94);
            else
                w.op('h').op(index);
        };
        key("action", 1);
        w.str("alloc").op(0x94);
        key("addr", 3);
        w.op(0x8a).op(9).le<int64_t>(4096).op(0); // LONG1 of 9 bytes: the general loop's
        if (withFloat) {
            w.str("ratio").op(0x94).op('G').le<uint64_t>(0); // BINFLOAT: unknown key, the general loop's
        }
        key("size", 4);
        w.integer(70000);
        key("time_us", 5);
        w.integer(int64_t(1) << 40);
        key("stream", 6);
        w.integer(0);
    };
    PickleWriter w;
    w.proto(4).emptyDict().mark().str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    // Memo: 0 the entry, 1 "action", 2 "alloc", 3 "addr", 4 "size", 5 "time_us", 6 "stream" (no float yet).
    entry(w, true, false);
    w.setitems();
    entry(w, false, true);
    w.setitems();
    entry(w, false, false);
    w.setitems();
    // Memoized keys read as pairs, then a pool id (a pair of ints the general loop makes a tuple of) and a key after
    // it: the entry's fields are set from its items all the same.
    entry(w, false, false);
    w.str("pool_id").op(0x94).integer(1).integer(5).op(0x86).op('h').op(4).integer(512);
    w.setitems().appends().op('a').setitems().stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->deviceTraces[0].size(), size_t(4));
    for (size_t i = 0; i < 4; ++i) {
        const TraceEntry e = s->deviceTraces[0][i];
        QCOMPARE(e.action(), TraceAction::Alloc);
        QCOMPARE(e.addr, uint64_t(4096));
        QCOMPARE(e.size, int64_t(i == 3 ? 512 : 70000));
        QCOMPARE(s->deviceTimes[0][i], int64_t(1) << 40);
        QCOMPARE(s->context(e).hasPool, i == 3);
    }
    QCOMPARE(s->context(s->deviceTraces[0][3]).pool[1], int64_t(5));

    // The same errors at the same bytes: a field of the wrong type, an odd number of items.
    const auto broken = [&](bool odd) {
        PickleWriter b;
        b.proto(4).emptyDict().mark().str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
        b.emptyDict().op(0x94).mark().keyStr("action", "alloc").keyStr("size", "big");
        if (odd)
            b.str("addr");
        const qsizetype at = b.bytes().size();
        b.setitems().appends().op('a').setitems().stop();
        return std::pair(readError(b.bytes()), at);
    };
    const auto [wrongType, typeAt] = broken(false);
    QCOMPARE(wrongType, QStringLiteral("'size' should be an int, found a string at byte %1").arg(typeAt));
    const auto [odd, oddAt] = broken(true);
    QCOMPARE(odd, QStringLiteral("SETITEMS with an odd number of items at byte %1").arg(oddAt));

    // The same with the keys memoized, as the pairs are read: the wrong field is found at SETITEMS too.
    PickleWriter b;
    b.proto(4).emptyDict().mark().str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    // Memo: 0 the entry, 1 "action", 2 "alloc", 3 "size", 4 the second entry.
    b.emptyDict().op(0x94).mark().str("action").op(0x94).str("alloc").op(0x94).str("size").op(0x94).integer(1);
    b.setitems().emptyDict().op(0x94).mark().op('h').op(1).op('h').op(2).op('h').op(3).op('h').op(2);
    const qsizetype at = b.bytes().size();
    b.setitems().appends().op('a').setitems().stop();
    QCOMPARE(readError(b.bytes()), QStringLiteral("'size' should be an int, found a string at byte %1").arg(at));
}

// A digest's writer leaves its entry dicts unmemoized, as nothing refers to them, and names a category in each: read
// without the general loop all the same, with the memo's later indices and every entry's category as written.
void TestPickleOps::unmemoizedEntries()
{
    PickleWriter w;
    w.proto(4).emptyDict().mark().str("segments").emptyList().str("device_traces").emptyList().emptyList().mark();
    // Memo: 0 "action", 1 "alloc", 2 "size", 3 "rankscope_category", 4 "activation"; 5 "parameter" (the third
    // entry), 6 "free_completed" (the fourth). An entry dict memoized by mistake would move 5 and 6.
    const auto get = [&](uint8_t index) { w.op('h').op(index); };
    w.emptyDict().mark().str("action").op(0x94).str("alloc").op(0x94).str("size").op(0x94).integer(1);
    w.str("rankscope_category").op(0x94).str("activation").op(0x94).setitems();
    const auto entry = [&](uint8_t action, int64_t size, uint8_t category) {
        w.emptyDict().mark();
        get(0);
        get(action);
        get(2);
        w.integer(size);
        get(3);
        get(category);
        w.setitems();
    };
    entry(1, 2, 4);
    w.emptyDict().mark();
    get(0);
    get(1);
    get(2);
    w.integer(3);
    get(3);
    w.str("parameter").op(0x94).setitems();
    w.emptyDict().mark();
    get(0);
    w.str("free_completed").op(0x94);
    get(2);
    w.integer(4);
    get(3);
    get(5);
    w.setitems();
    entry(6, 5, 4);
    entry(1, 6, 5);
    w.appends().op('a').setitems().stop();
    const SnapshotPtr s = read(w);
    QCOMPARE(s->deviceTraces[0].size(), size_t(6));
    const char* categories[] = { "activation", "activation", "parameter", "parameter", "activation", "parameter" };
    for (size_t i = 0; i < 6; ++i) {
        const TraceEntry e = s->deviceTraces[0][i];
        QCOMPARE(e.size, int64_t(i + 1));
        QCOMPARE(e.action(), i == 3 || i == 4 ? TraceAction::FreeCompleted : TraceAction::Alloc);
        QCOMPARE(s->strings.view(s->context(e).category), std::string_view(categories[i]));
    }
}

RANKSCOPE_TEST_CLASS(TestPickleOps)
#include "tst_pickleops.moc"
