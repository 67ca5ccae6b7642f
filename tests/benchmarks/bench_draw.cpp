// SPDX-License-Identifier: MIT
// Drawing benchmark: the real timeline and block map widgets, offscreen, on one rank with millions of trace events
// and one with tens of thousands of blocks. Times a full replot of the timeline 1920 px wide and a full paint of the
// block map at 1920x1080 (medians), and reports the memory each trace event and each block costs once loaded and
// drawn. Prints figures; asserts nothing.
#include <qcustomplot.h> // first: it needs `foreach`

#include "blockmapview.h"
#include "devicehistory.h"
#include "imageexport.h"
#include "pngencoder.h"
#include "sitetable.h"
#include "snapshotreader.h"
#include "timelineview.h"

#include "benchutil.h"

#include <QApplication>
#include <QBuffer>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>

using namespace RankScope;
using BenchUtil::median;
using BenchUtil::rssKb;

namespace {

template <typename F> double timeMs(int runs, F f)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        f();
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    return median(ms);
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_draw EVENTS.pickle BLOCKS.pickle\n");
        return 2;
    }

    // Block map: every block of a snapshot with tens of thousands of them, at 1920x1080.
    long before = rssKb();
    const SnapshotPtr blocks = SnapshotReader::read(QString::fromLocal8Bit(argv[2])).snapshot;
    const int blockDevice = DeviceHistory::mainDevice(*blocks);
    const DeviceHistoryPtr blockHistory = DeviceHistory::build(blocks, blockDevice);
    BlockMapView map;
    map.resize(1920, 1080);
    map.show();
    map.setState(0, QString(), blockHistory, EventIndex(blockHistory->eventCount()) - 1, SiteOptions {});
    QElapsedTimer layout;
    layout.start();
    while (map.isBusy())
        BenchUtil::waitForEvents(5);
    const double layoutMs = double(layout.nsecsElapsed()) / 1e6;
    QImage image(map.size(), QImage::Format_ARGB32_Premultiplied);
    const double paint = timeMs(15, [&] { map.render(&image); });
    const double perBlock = double(rssKb() - before) * 1024.0 / double(std::max(map.blockCount(), 1));
    std::printf("block map                     %d blocks in %d segments\n", map.blockCount(), map.segmentCount());
    std::printf("block map layout (off GUI)    %.0f ms\n", layoutMs);
    std::printf("block map paint               %.2f ms at 1920x1080 (median of 15; target < 16 ms)\n", paint);
    std::printf("memory per block              %.0f bytes (file read, replayed, laid out and drawn)\n", perBlock);

    // Timeline: a rank with millions of events, as the window shows it (every allocation a pixel tall as a band, 1920
    // px of plot).
    before = rssKb();
    const SnapshotPtr big = SnapshotReader::read(QString::fromLocal8Bit(argv[1])).snapshot;
    const int device = DeviceHistory::mainDevice(*big);
    const DeviceHistoryPtr history = DeviceHistory::build(big, device);
    TimelineView timeline;
    timeline.resize(1920 + 120, 500);
    timeline.show();
    timeline.setTracks({ { 0, QString(), history, history->peakEvent() } }, SiteOptions {});
    const auto settle = [&] {
        do
            BenchUtil::waitForEvents(5);
        while (timeline.isBusy());
    };
    settle();
    // The plot area exactly 1920 px wide, its bands computed for that width.
    timeline.resize(timeline.width() + 1920 - timeline.plot()->axisRect()->width(), 500);
    settle();
    const int plotWidth = timeline.plot()->axisRect()->width();
    const double replot = timeMs(15, [&] { timeline.plot()->replot(QCustomPlot::rpImmediateRefresh); });
    const int fullViewBands = timeline.bandCount(0);
    // What a zoom or resize asks of a worker thread: the curve and bands decimated again for the new range, into the
    // arrays of the decimation it replaces, as the view does; and into fresh arrays, as the first one and an export do.
    const auto decimate = [&](TimelineLod recycled) {
        return history->lod(BeforeTrace, EventIndex(history->eventCount()) - 1, 1920, timeline.pixelBytes(0),
            size_t(TimelineView::DefaultBands), std::move(recycled));
    };
    TimelineLod replaced = decimate({});
    const double detail = timeMs(7, [&] { replaced = decimate(std::move(replaced)); });
    const double freshDetail = timeMs(7, [&] { decimate({}); });
    const double zoomed = timeMs(7, [&] {
        QCPAxis* x = timeline.plot()->axisRect()->axis(QCPAxis::atBottom);
        x->scaleRange(0.8, x->range().center());
        timeline.plot()->replot(QCustomPlot::rpImmediateRefresh);
        settle();
    });
    const double perEvent = double(rssKb() - before) * 1024.0 / double(std::max<size_t>(history->eventCount(), 1));
    // The same with a finding's site lit: the worker also finds its allocations too small for a band.
    const std::vector<uint32_t> live = history->liveSet(history->peakEvent());
    const uint32_t largest = *std::max_element(live.begin(), live.end(),
        [&](uint32_t a, uint32_t b) { return history->allocations()[a].size < history->allocations()[b].size; });
    const std::vector<StackId> stack { history->allocations()[largest].stack };
    timeline.setHighlightedSite(SiteTable::sitesOf(*big, stack, SiteOptions {}, false).front().fingerprint);
    settle();
    const double zoomedLit = timeMs(7, [&] {
        QCPAxis* x = timeline.plot()->axisRect()->axis(QCPAxis::atBottom);
        x->scaleRange(1.25, x->range().center());
        timeline.plot()->replot(QCustomPlot::rpImmediateRefresh);
        settle();
    });
    // An exported picture of it (scale 2, as `rankscope export` draws): encoded as the export does, and as libpng
    // does through Qt's writer at quality 50 (zlib level 4), the peer.
    const QImage picture = ImageExport::image(&timeline, 2.0);
    QByteArray ours;
    QByteArray peer;
    const double encoded = timeMs(5, [&] { ours = PngEncoder::encode(picture); });
    const double encodedByPeer = timeMs(5, [&] {
        peer.clear();
        QBuffer buffer(&peer);
        buffer.open(QIODevice::WriteOnly);
        picture.save(&buffer, "PNG", 50);
    });
    std::printf("timeline rank                 %zu events, %zu allocations\n", history->eventCount(),
        history->allocations().size());
    std::printf(
        "timeline bands                %d at the full view (every allocation a pixel tall, and smaller ones that "
        "add up)\n",
        fullViewBands);
    std::printf("timeline replot               %.2f ms at %d px (median of 15; target < 16 ms)\n", replot, plotWidth);
    std::printf(
        "timeline re-decimation        %.1f ms for the whole trace at 1920 px (worker thread, median of 7)\n", detail);
    std::printf("timeline decimation, fresh    %.1f ms into arrays of its own (the first, an export's)\n", freshDetail);
    std::printf(
        "timeline zoom step to redrawn %.1f ms (median of 7, including the 40 ms debounce and the worker)\n", zoomed);
    std::printf("timeline zoom step, site lit  %.1f ms (median of 7; its allocations too small for a band found too)\n",
        zoomedLit);
    std::printf("memory per trace event        %.0f bytes (file read, replayed and drawn)\n", perEvent);
    std::printf("png encode                    %.1f ms for %dx%d px, %lld bytes (median of 5)\n", encoded,
        picture.width(), picture.height(), static_cast<long long>(ours.size()));
    std::printf("png encode by libpng          %.1f ms, %lld bytes (Qt's writer, zlib level 4; median of 5)\n",
        encodedByPeer, static_cast<long long>(peer.size()));
    return 0;
}
