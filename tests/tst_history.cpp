// SPDX-License-Identifier: MIT
// The history engine on real files: replay consistency, peaks and live sets, statistics, markers, points, LOD.
#include "addressmap.h"
#include "devicehistory.h"
#include "testprogram.h"
#include "testutils.h"

#include <QDir>
#include <QTest>

#include <map>
#include <random>
#include <set>
#include <utility>

using namespace RankScope;
using namespace TestUtils;

class TestHistory : public QObject
{
    Q_OBJECT
private slots:
    void addressMap();
    void replayBackAndForth_data();
    void replayBackAndForth();
    void peakLiveSet_data();
    void peakLiveSet();
    void peakSummaryInHalves_data();
    void peakSummaryInHalves();
    void peakSummaryInHalvesAtTheSeam();
    void statsAtEndMatchSnapshot_data();
    void statsAtEndMatchSnapshot();
    void lod_data();
    void lod();
    void markersAndAnnotations();
    void points();
    void expandableSegments();
    void profilerSteps();
    void exampleBurdenSitsOnThePeak();

private:
    static void allDevices();
    static SnapshotPtr load(const QString& name)
    {
        return SnapshotReader::read(dataDir() + QLatin1Char('/') + name).snapshot;
    }
};

void TestHistory::allDevices()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("device");
    const QStringList files = realFileNames();
    for (const QString& f : files) {
        const SnapshotPtr s = load(f);
        for (int d = 0; d < s->deviceCount(); ++d)
            QTest::newRow(qPrintable(QStringLiteral("%1 device %2").arg(f).arg(d))) << f << d;
    }
}

void TestHistory::replayBackAndForth_data()
{
    allDevices();
}

// Undo every event from the final snapshot back to before the first, then redo them all: the final snapshot must
// come back. (Blocks allocated inside the trace come back with their requested size as size: the trace records no
// rounded size.)
void TestHistory::replayBackAndForth()
{
    QFETCH(QString, name);
    QFETCH(int, device);
    const SnapshotPtr s = load(name);
    const DeviceHistoryPtr h = DeviceHistory::build(s, device);
    const AllocatorState final = h->stateAt(EventIndex(h->eventCount()) - 1);

    AllocatorReplay replay(*s, device);
    for (EventIndex i = EventIndex(h->eventCount()) - 1; i >= 0; --i)
        replay.undo(h->events()[size_t(i)]);
    const AllocatorState start = replay.state();
    for (const TraceEntry& e : h->events())
        replay.redo(e);
    const AllocatorState again = replay.state();

    QCOMPARE(again.segments.size(), final.segments.size());
    for (size_t i = 0; i < final.segments.size(); ++i) {
        QCOMPARE(again.segments[i].addr, final.segments[i].addr);
        QCOMPARE(again.segments[i].size, final.segments[i].size);
        QCOMPARE(again.segments[i].stream, final.segments[i].stream);
    }
    std::set<uint64_t> allocatedInTrace;
    for (const TraceEntry& e : h->events()) {
        if (e.action() == TraceAction::Alloc)
            allocatedInTrace.insert(e.addr);
    }
    QCOMPARE(again.blocks.size(), final.blocks.size());
    for (size_t i = 0; i < final.blocks.size(); ++i) {
        QCOMPARE(again.blocks[i].addr, final.blocks[i].addr);
        QCOMPARE(again.blocks[i].requested, final.blocks[i].requested);
        QCOMPARE(again.blocks[i].pendingFree, final.blocks[i].pendingFree);
        if (!allocatedInTrace.count(final.blocks[i].addr))
            QCOMPARE(again.blocks[i].size, final.blocks[i].size);
    }
    // The reserved curve starts where the segments before the first event add up to.
    int64_t reservedAtStart = 0;
    for (const StateSegment& seg : start.segments)
        reservedAtStart += seg.size;
    QCOMPARE(h->reservedAfter(BeforeTrace), reservedAtStart);
    // After every event, the segments' events so far added to it; the final snapshot's segments after the last.
    int64_t reserved = reservedAtStart;
    const TraceView events = h->events();
    for (size_t i = 0; i < events.size(); ++i) {
        const TraceAction action = events[i].action();
        if (action == TraceAction::SegmentAlloc || action == TraceAction::SegmentMap)
            reserved += events[i].size;
        else if (action == TraceAction::SegmentFree || action == TraceAction::SegmentUnmap)
            reserved -= events[i].size;
        if (h->reservedAfter(EventIndex(i)) != reserved)
            QFAIL(qPrintable(QStringLiteral("event %1: %2 reserved, %3 expected")
                                 .arg(i)
                                 .arg(h->reservedAfter(EventIndex(i)))
                                 .arg(reserved)));
    }
    int64_t reservedAtEnd = 0;
    for (const StateSegment& seg : final.segments)
        reservedAtEnd += seg.size;
    QCOMPARE(reserved, reservedAtEnd);
}

void TestHistory::peakLiveSet_data()
{
    allDevices();
}

void TestHistory::peakLiveSet()
{
    QFETCH(QString, name);
    QFETCH(int, device);
    const DeviceHistoryPtr h = DeviceHistory::build(load(name), device);
    const auto sum = [&](EventIndex at) {
        int64_t total = 0;
        for (uint32_t i : h->liveSet(at))
            total += h->allocations()[i].size;
        return total;
    };
    QCOMPARE(sum(h->peakEvent()), h->peakBytes());
    // info's light scan (checked against CPython's reading of the viewer) and the full replay agree.
    const DeviceHistory::PeakSummary light = DeviceHistory::summarize(h->snapshot(), device);
    QCOMPARE(h->peakBytes(), light.peakBytes);
    QCOMPARE(h->peakEvent(), light.peakEvent);
    QCOMPARE(h->traceIncomplete(), light.traceIncomplete);
    QCOMPARE(sum(BeforeTrace), h->initialTotal());
    const EventIndex last = EventIndex(h->eventCount()) - 1;
    QCOMPARE(sum(last), h->totalAfter(last));
    for (EventIndex i = 0; i <= last; ++i)
        QVERIFY(h->totalAfter(i) <= h->peakBytes());
}

namespace {
// The fields of two peak summaries that differ, or nothing.
QString summaryDifference(const DeviceHistory::PeakSummary& a, const DeviceHistory::PeakSummary& b)
{
    if (a.peakBytes == b.peakBytes && a.peakEvent == b.peakEvent && a.traceIncomplete == b.traceIncomplete
        && a.oomEvents == b.oomEvents)
        return {};
    return QStringLiteral("peak %1 B at %2, incomplete %3, %4 OOMs against %5 B at %6, %7, %8")
        .arg(a.peakBytes)
        .arg(a.peakEvent)
        .arg(a.traceIncomplete)
        .arg(a.oomEvents)
        .arg(b.peakBytes)
        .arg(b.peakEvent)
        .arg(b.traceIncomplete)
        .arg(b.oomEvents);
}

// Every split of `s`'s trace of `device` in [from, to) gives the summary of one walk; empty, or the first that does
// not.
QString halvesDifference(const Snapshot& s, int device, size_t from, size_t to, size_t step = 1)
{
    const size_t n = size_t(device) < s.deviceTraces.size() ? s.deviceTraces[size_t(device)].size() : 0;
    const DeviceHistory::PeakSummary whole = DeviceHistory::summarizeInHalves(s, device, n);
    for (size_t split = from; split < to; split += step) {
        if (const QString d = summaryDifference(DeviceHistory::summarizeInHalves(s, device, split), whole);
            !d.isEmpty())
            return QStringLiteral("split at %1 of %2: %3").arg(split).arg(n).arg(d);
    }
    return {};
}
} // namespace

void TestHistory::peakSummaryInHalves_data()
{
    allDevices();
}

// `info`'s walk of a long trace runs in two halves: wherever they meet, the summary is the one walk's (which
// peakLiveSet holds to the full replay's).
void TestHistory::peakSummaryInHalves()
{
    QFETCH(QString, name);
    QFETCH(int, device);
    const SnapshotPtr s = load(name);
    const size_t n = size_t(device) < s->deviceTraces.size() ? s->deviceTraces[size_t(device)].size() : 0;
    QCOMPARE(summaryDifference(DeviceHistory::summarizeInHalves(*s, device, n), DeviceHistory::summarize(*s, device)),
        QString());
    QCOMPARE(halvesDifference(*s, device, 0, n + 2, std::max<size_t>(1, n / 97)), QString());
}

// Edits of a real trace that put each way the halves meet right at the seam: a free the second half cannot pair is
// the first half's allocation's (of the same size, or not), or comes after the second half allocated over it, or
// frees it twice; a block of the final snapshot that the first half left live is allocated over and freed (memory
// from before the trace, to the whole walk) or only freed and allocated again.
void TestHistory::peakSummaryInHalvesAtTheSeam()
{
    const SnapshotPtr real = load(QStringLiteral("cranberrii_memory_snapshot.pickle"));
    const int device = DeviceHistory::mainDevice(*real);
    const DeviceHistoryPtr h = DeviceHistory::build(real, device);
    const TraceView events = h->events();
    const size_t n = events.size();
    std::set<uint64_t> finalBlocks;
    for (const Segment& seg : real->segments) {
        for (const Block& b : real->blocksOf(seg))
            if (seg.device == device && b.state == BlockState::ActiveAllocated)
                finalBlocks.insert(b.address);
    }
    // The latest allocation from the first half freed in the second, and the latest one still live at the end.
    const Allocation* crossing = nullptr;
    const Allocation* lasting = nullptr;
    for (const Allocation& a : h->allocations()) {
        if (a.initial || a.allocEvent >= n / 2)
            continue;
        if (a.freeEvent != Allocation::NoEvent && a.freeEvent > n / 2
            && (!crossing || a.allocEvent > crossing->allocEvent))
            crossing = &a;
        if (a.freeEvent == Allocation::NoEvent && finalBlocks.count(a.addr)
            && (!lasting || a.allocEvent > lasting->allocEvent))
            lasting = &a;
    }
    QVERIFY(crossing && lasting);

    // The trace with `inserted` entries put before event `at` (and `resized`'s size changed), the seam just before
    // them.
    const auto check = [&](const char* what, size_t at, std::vector<TraceEntry> inserted, size_t resized = SIZE_MAX) {
        // What the walk reads of a snapshot: its segments, their blocks and the trace.
        auto edited = std::make_shared<Snapshot>();
        edited->segments = real->segments;
        edited->blocks = real->blocks;
        edited->deviceTraces.resize(real->deviceTraces.size());
        TraceEntries trace;
        for (size_t i = 0; i < n; ++i) {
            if (i == at)
                for (const TraceEntry& e : inserted)
                    trace.push_back(e);
            TraceEntry e = events[i];
            if (i == resized)
                e.size = int64_t(1) << 39;
            trace.push_back(e);
        }
        edited->deviceTraces[size_t(device)] = std::move(trace);
        const size_t seam = at == SIZE_MAX ? crossing->freeEvent : at;
        const QString d = halvesDifference(*edited, device, seam - 3, seam + inserted.size() + 3);
        QVERIFY2(d.isEmpty(), qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(what), d)));
    };
    const TraceEntry crossingAlloc = events[crossing->allocEvent];
    const TraceEntry crossingFree = events[crossing->freeEvent];
    check("the free of an allocation from the first half", crossing->freeEvent, {});
    check("the same, allocated larger than it is freed", SIZE_MAX, {}, crossing->allocEvent);
    check("allocated over before it is freed", crossing->freeEvent, { crossingAlloc, crossingFree });
    check("freed twice", crossing->freeEvent, { crossingFree, crossingFree });
    const TraceEntry lastingAlloc = events[lasting->allocEvent];
    TraceEntry lastingFree = crossingFree;
    lastingFree.addr = lasting->addr;
    lastingFree.size = lastingAlloc.size;
    check("a final block allocated over and freed", n / 2, { lastingAlloc, lastingFree });
    check("a final block freed and allocated again", n / 2, { lastingFree, lastingAlloc });
    check("a final block freed", n / 2, { lastingFree });
}

void TestHistory::statsAtEndMatchSnapshot_data()
{
    allDevices();
}

void TestHistory::statsAtEndMatchSnapshot()
{
    QFETCH(QString, name);
    QFETCH(int, device);
    const SnapshotPtr s = load(name);
    const DeviceHistoryPtr h = DeviceHistory::build(s, device);
    const DeviceStats stats = h->stateAt(EventIndex(h->eventCount()) - 1).stats();
    const DeviceInfo info = DeviceInfo::compute(s)[size_t(device)];
    QCOMPARE(stats.reserved, info.reservedBytes);
    QCOMPARE(stats.allocated, info.allocatedBytes);
    QCOMPARE(stats.active, info.activeBytes);
    QCOMPARE(stats.requested, info.requestedBytes);
    QCOMPARE(stats.segments, info.segments);
    QCOMPARE(stats.inactive, info.reservedBytes - info.activeBytes);
    // The largest free block of the snapshot is its largest inactive block.
    int64_t largestInactive = 0;
    for (const Segment& seg : s->segments) {
        for (const Block& b : s->blocksOf(seg)) {
            if (seg.device == device && b.state == BlockState::Inactive)
                largestInactive = std::max(largestInactive, b.size);
        }
    }
    QCOMPARE(stats.largestFree, largestInactive);
    QVERIFY(stats.largestFree <= stats.inactive && stats.inactive <= stats.reserved);
}

void TestHistory::lod_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("cranberrii") << QStringLiteral("cranberrii_memory_snapshot.pickle");
    QTest::newRow("bcrafton") << QStringLiteral("bcrafton_memory_snapshot.pickle");
    QTest::newRow("kk (no trace)") << QStringLiteral("kk_memory_snapshot.pickle");
}

void TestHistory::lod()
{
    QFETCH(QString, name);
    const DeviceHistoryPtr h = DeviceHistory::build(load(name), 0);
    const EventIndex last = EventIndex(h->eventCount()) - 1;
    // A pixel of a 300-pixel plot, uncapped and capped.
    const int64_t pixel = std::max<int64_t>(h->peakBytes() / 300, 1);
    // Each decimation is also written into the arrays of the one before (as a view recycles them): larger ones
    // and smaller, still holding their runs, give the same result as fresh arrays.
    TimelineLod replaced;
    for (auto [first, end, columns, cap] :
        { std::tuple<EventIndex, EventIndex, int, size_t>(BeforeTrace, last, 500, 1000000),
            std::tuple<EventIndex, EventIndex, int, size_t>(BeforeTrace, last, 500, 40),
            std::tuple<EventIndex, EventIndex, int, size_t>(last / 3, last / 2, 97, 1000000),
            std::tuple<EventIndex, EventIndex, int, size_t>(last / 3, last / 3 + 199, 200, 1000000),
            { h->peakEvent(), h->peakEvent(), 10, 1000000 } }) {
        const TimelineLod lod = h->lod(first, end, columns, pixel, cap);
        replaced = h->lod(first, end, columns, pixel, cap, std::move(replaced));
        QVERIFY(replaced == lod);
        QVERIFY(lod.columns >= 1 && lod.columns <= columns);
        QVERIFY(lod.bands.size() <= cap);
        QVERIFY(lod.minBandBytes <= pixel && lod.minBandBytes >= std::max<int64_t>(1, pixel / 64));
        std::set<uint32_t> drawn(lod.bands.begin(), lod.bands.end());
        int64_t overallMax = 0;
        for (int c = 0; c < lod.columns; ++c) {
            QVERIFY(lod.minTotal[size_t(c)] <= lod.maxTotal[size_t(c)]);
            int64_t expectedOffset = 0;
            for (size_t k = 0; k < lod.bands.size(); ++k) {
                const int64_t offset = lod.offset(k, c);
                if (offset < 0)
                    continue;
                QCOMPARE(offset, expectedOffset); // bands stack without gaps or overlaps
                expectedOffset += h->allocations()[lod.bands[k]].size;
            }
            QCOMPARE(lod.bandsTop[size_t(c)], expectedOffset);
            QVERIFY(lod.remainder(c) >= 0);
            overallMax = std::max(overallMax, lod.maxTotal[size_t(c)]);
        }
        for (size_t k = 0; k < lod.bands.size(); ++k) {
            QVERIFY(h->allocations()[lod.bands[k]].size >= lod.minBandBytes);
            QVERIFY(lod.columnCount[k] > 0);
        }
        // Small allocations that add up are bands too: the tallest column is left at most 3 % to the remainder,
        // unless the bands went down to their least size or hit the cap.
        const int tallest = int(std::max_element(lod.maxTotal.begin(), lod.maxTotal.end()) - lod.maxTotal.begin());
        if (lod.bands.size() < cap && lod.minBandBytes > std::max<int64_t>(1, pixel / 64))
            QVERIFY2(lod.remainder(tallest) <= lod.maxTotal[size_t(tallest)] * 3 / 100 + 1,
                qPrintable(QStringLiteral("%1 of %2").arg(lod.remainder(tallest)).arg(lod.maxTotal[size_t(tallest)])));
        // Uncapped with a column per event, every allocation a pixel tall live in the window is a band of its own.
        if (cap > lod.bands.size() && lod.columns == end - first + 1) {
            for (size_t i = 0; i < h->allocations().size(); ++i) {
                const Allocation& a = h->allocations()[i];
                const EventIndex from =
                    a.allocEvent == Allocation::NoEvent ? first : std::max<EventIndex>(a.allocEvent, first);
                const EventIndex to =
                    a.freeEvent == Allocation::NoEvent ? end + 1 : std::min<EventIndex>(a.freeEvent, end + 1);
                if (a.size >= pixel && from < to)
                    QVERIFY2(drawn.count(uint32_t(i)), qPrintable(QString::number(i)));
            }
        }
        if (first == BeforeTrace && end == last)
            QCOMPARE(overallMax, h->peakBytes()); // decimation keeps the peak
    }
}

void TestHistory::markersAndAnnotations()
{
    const DeviceHistoryPtr jasper = DeviceHistory::build(load(QStringLiteral("jasper_snapshot.pickle")), 0);
    QCOMPARE(jasper->snapshotMarkers().size(), size_t(9));
    QVERIFY(jasper->ooms().empty());
    QVERIFY(!jasper->traceIncomplete());
    QVERIFY(jasper->hasTimes());

    const DeviceHistoryPtr jog = DeviceHistory::build(load(QStringLiteral("jog_my_snapshot.pickle")), 0);
    QVERIFY(jog->traceIncomplete()); // its only event frees a block it never allocated
    QVERIFY(jog->allocations().back().initial);

    const DeviceHistoryPtr b = DeviceHistory::build(load(QStringLiteral("bcrafton_memory_snapshot.pickle")), 0);
    QCOMPARE(b->annotations().size(), size_t(1));
    const AnnotationSpan& span = b->annotations().front();
    QVERIFY(span.hasStart && span.hasEnd);
    QCOMPARE(b->snapshot().strings.view(span.name), std::string_view("Optimizer.step#AdamW.step"));
    QVERIFY(span.startEvent < span.endEvent);
    QVERIFY(b->timeUs(span.startEvent) < span.startUs);
    QVERIFY(b->timeUs(span.startEvent + 1) >= span.startUs);
    QVERIFY(b->timeUs(span.endEvent) <= span.endUs);
}

void TestHistory::points()
{
    QCOMPARE(TimelinePoint::parse("peak")->kind, TimelinePoint::Peak);
    QCOMPARE(TimelinePoint::parse("end")->kind, TimelinePoint::Snapshot);
    QCOMPARE(TimelinePoint::parse("event:12")->number, int64_t(12));
    QCOMPARE(TimelinePoint::parse("step:3")->kind, TimelinePoint::StepStart);
    QCOMPARE(TimelinePoint::parse("step:3:end")->kind, TimelinePoint::StepEnd);
    QVERIFY(!TimelinePoint::parse("event:x"));
    QVERIFY(!TimelinePoint::parse("step:-1"));
    QVERIFY(!TimelinePoint::parse("later"));

    const DeviceHistoryPtr h = DeviceHistory::build(load(QStringLiteral("cranberrii_memory_snapshot.pickle")), 0);
    QCOMPARE(h->point(*TimelinePoint::parse("peak"))->event, h->peakEvent());
    QCOMPARE(h->point(*TimelinePoint::parse("snapshot"))->event, EventIndex(10306));
    QCOMPARE(h->point(*TimelinePoint::parse("event:5"))->event, EventIndex(5));
    QVERIFY(!h->point(*TimelinePoint::parse("event:10307")));
    QVERIFY(!h->point(*TimelinePoint::parse("oom")));
    QVERIFY(!h->point(*TimelinePoint::parse("step:1")));
}

// Expandable segments grow by segment_map and shrink by segment_unmap: undoing must split and trim, redoing
// must merge, with the reserved curve following.
void TestHistory::expandableSegments()
{
    PickleWriter w;
    w.proto(4).emptyDict().mark().str("segments").emptyList().mark();
    // Final state: one expandable segment of 6 MiB at 64 MiB, one 2 MiB block allocated at its start.
    w.emptyDict().mark().key("device", 0).key("address", 64 << 20).key("total_size", 6 << 20).str("is_expandable");
    w.op(0x88).str("blocks").emptyList().mark();
    w.emptyDict().mark().key("size", 2 << 20).key("requested_size", 2 << 20).keyStr("state", "active_allocated");
    w.setitems();
    w.emptyDict().mark().key("size", 4 << 20).key("requested_size", 0).keyStr("state", "inactive").setitems();
    w.appends().setitems().appends();
    w.str("device_traces").emptyList().emptyList().mark();
    auto event = [&](const char* action, int64_t addr, int64_t size) {
        w.emptyDict().mark().keyStr("action", action).key("addr", addr).key("size", size).key("stream", 0).setitems();
    };
    event("segment_map", 64 << 20, 2 << 20); // 0: first 2 MiB
    event("segment_map", 66 << 20, 6 << 20); // 1: grows to 8 MiB
    event("alloc", 64 << 20, 2 << 20); // 2
    event("segment_unmap", 70 << 20, 2 << 20); // 3: shrinks back to 6 MiB
    w.appends().op('a').setitems().stop();
    QTemporaryDir dir;
    const SnapshotPtr s = SnapshotReader::read(writeFile(dir, QStringLiteral("e.pickle"), w.bytes())).snapshot;
    const DeviceHistoryPtr h = DeviceHistory::build(s, 0);
    QCOMPARE(h->reservedAfter(BeforeTrace), int64_t(0));
    QCOMPARE(h->reservedAfter(0), int64_t(2 << 20));
    QCOMPARE(h->reservedAfter(2), int64_t(8 << 20));
    QCOMPARE(h->reservedAfter(3), int64_t(6 << 20));
    QCOMPARE(h->peakReservedBytes(), int64_t(8 << 20));
    QVERIFY(h->stateAt(BeforeTrace).segments.empty());
    const AllocatorState atFirst = h->stateAt(0);
    QCOMPARE(atFirst.segments.size(), size_t(1));
    QCOMPARE(atFirst.segments[0].size, int64_t(2 << 20));
    const AllocatorState grown = h->stateAt(2);
    QCOMPARE(grown.segments.size(), size_t(1)); // the two maps are one segment
    QCOMPARE(grown.segments[0].size, int64_t(8 << 20));
    QCOMPARE(grown.blocks.size(), size_t(1));
    QCOMPARE(h->stateAt(1).blocks.size(), size_t(0));
    QCOMPARE(h->stateAt(2).stats().largestFree, int64_t(6 << 20));
    QCOMPARE(h->stateAt(2).stats().inactive, int64_t(6 << 20)); // all of it one free block: nothing split
}

// ProfilerStep#N annotations map onto the trace by time: a step starts after the last event before its START and
// ends after the last event at or before its END.
void TestHistory::profilerSteps()
{
    const QByteArray bytes = traceSnapshot(
        {
            { "alloc", 4096, 100, 100 }, // 0
            { "alloc", 8192, 200, 200 }, // 1
            { "free_completed", 4096, 100, 300 }, // 2
            { "alloc", 4096, 400, 400 }, // 3
        },
        {
            { "START", "ProfilerStep#1", 150 }, { "END", "ProfilerStep#1", 350 }, { "START", "ProfilerStep#2", 360 },
            { "START", "ProfilerStep#1", 380 }, // the same name again: a separate span
        });
    QTemporaryDir dir;
    const SnapshotPtr s = SnapshotReader::read(writeFile(dir, QStringLiteral("steps.pickle"), bytes)).snapshot;
    const DeviceHistoryPtr h = DeviceHistory::build(s, 0);
    QCOMPARE(h->annotations().size(), size_t(3));
    QCOMPARE(h->point(*TimelinePoint::parse("step:1"))->event, EventIndex(0));
    QCOMPARE(h->point(*TimelinePoint::parse("step:1:end"))->event, EventIndex(2));
    QCOMPARE(h->point(*TimelinePoint::parse("step:2"))->event, EventIndex(2));
    QVERIFY(!h->point(*TimelinePoint::parse("step:2:end"))); // never ended
    QVERIFY(!h->point(*TimelinePoint::parse("step:3")));
    QCOMPARE(h->totalAfter(h->point(*TimelinePoint::parse("step:1:end"))->event), int64_t(200));
    QCOMPARE(h->peakBytes(), int64_t(600));
    QCOMPARE(h->peakEvent(), EventIndex(3));
}

// The bundled example: rank 0 holds an extra gigabyte of evaluation outputs at its peak, at its own site.
void TestHistory::exampleBurdenSitsOnThePeak()
{
    const QString dir = QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples/");
    const DeviceHistoryPtr rank0 =
        DeviceHistory::build(SnapshotReader::read(dir + QStringLiteral("rank0_memory_snapshot.pickle")).snapshot, 0);
    const DeviceHistoryPtr rank1 =
        DeviceHistory::build(SnapshotReader::read(dir + QStringLiteral("rank1_memory_snapshot.pickle")).snapshot, 0);
    QCOMPARE(rank0->peakBytes() - rank1->peakBytes(), int64_t(1) << 30);
    int64_t evaluation = 0;
    for (uint32_t i : rank0->liveSet(rank0->peakEvent())) {
        const Allocation& a = rank0->allocations()[i];
        const auto frames = rank0->snapshot().stacks.frames(a.stack);
        if (!frames.empty()
            && rank0->snapshot().strings.view(rank0->snapshot().frames.frame(frames[0]).name) == "gather_predictions")
            evaluation += a.size;
    }
    QCOMPARE(evaluation, int64_t(1) << 30);
}

RANKSCOPE_TEST_CLASS(TestHistory)
// The walks' live allocations by address: against std::map through a million random sets and takes, over few
// enough addresses that the table is full of collisions and removals shift entries back across its end.
void TestHistory::addressMap()
{
    AddressMap<int64_t> map;
    std::map<uint64_t, int64_t> reference;
    std::mt19937_64 random(7);
    for (int i = 0; i < 1000000; ++i) {
        // Aligned addresses, as allocations are, a few beyond 2^63, and the one a slot is empty with.
        const uint64_t address = random() % 1000 == 0
            ? ~uint64_t(0)
            : (random() % 3000) * 512 + (random() % 8 == 0 ? (uint64_t(1) << 63) : 0);
        if (random() % 2) {
            map.set(address, int64_t(i));
            reference[address] = i;
        } else {
            const std::optional<int64_t> taken = map.take(address);
            const auto it = reference.find(address);
            QCOMPARE(taken.has_value(), it != reference.end());
            if (taken) {
                QCOMPARE(*taken, it->second);
                reference.erase(it);
            }
        }
        if (i % 1000 == 0) {
            QCOMPARE(map.size(), reference.size());
            const uint64_t probe = i % 3000 == 0 ? ~uint64_t(0) : (random() % 3000) * 512;
            QCOMPARE(map.contains(probe), reference.count(probe) == 1);
        }
    }
    size_t seen = 0;
    map.forEach([&](uint64_t address, int64_t value) {
        ++seen;
        QCOMPARE(reference.at(address), value);
    });
    QCOMPARE(seen, reference.size());
    if (int64_t* value = map.find(reference.begin()->first))
        *value = -1;
    QCOMPARE(*map.take(reference.begin()->first), int64_t(-1));
}

#include "tst_history.moc"
