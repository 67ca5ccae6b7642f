// SPDX-License-Identifier: MIT
// The real main window, offscreen: opens the given files and probes the event loop every 2 ms until the verdict,
// the timelines and the block maps are in, reporting how long the GUI thread was ever kept busy. Then times a
// timeline replot and a block map paint.
#include <qcustomplot.h> // first: it needs `foreach`

#include "blockmapview.h"
#include "mainwindow.h"
#include "ranklistmodel.h"
#include "snapshotloader.h"
#include "timelineview.h"

#include "benchutil.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <cstdio>

using namespace RankScope;
using BenchUtil::median;

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QStringList files;
    for (int i = 1; i < argc; ++i)
        files.append(QString::fromLocal8Bit(argv[i]));
    if (files.isEmpty()) {
        std::fprintf(stderr, "usage: bench_gui FILE...\n");
        return 2;
    }

    MainWindow window;
    window.resize(1920, 1080);
    window.show();

    QElapsedTimer clock;
    clock.start();
    std::vector<double> gaps;
    qint64 last = 0;
    QTimer probe;
    probe.setInterval(2);
    const bool verbose = qEnvironmentVariableIsSet("BENCH_GUI_VERBOSE");
    // The probe wakes the GUI thread 500 times a second, which a window left alone never does, and takes a share of
    // a core from the loading threads: BENCH_GUI_NO_PROBE=1 times the opening alone.
    const bool probing = !qEnvironmentVariableIsSet("BENCH_GUI_NO_PROBE");
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        gaps.push_back(double(now - last) / 1e6);
        if (verbose && gaps.back() > 50)
            std::printf("  stall of %.0f ms ending at %.3f s\n", gaps.back(), double(now) / 1e9);
        last = now;
    });
    if (verbose) {
        QObject::connect(window.loader(), &SnapshotLoader::finished, [&](int index, const LoadedFile&) {
            std::printf("  file %d loaded at %.3f s\n", index, double(clock.nsecsElapsed()) / 1e9);
        });
        QObject::connect(&window, &MainWindow::comparisonShown,
            [&] { std::printf("  comparison shown at %.3f s\n", double(clock.nsecsElapsed()) / 1e9); });
    }
    if (probing)
        probe.start();
    last = clock.nsecsElapsed();
    window.openPaths(files);
    double loadedAt = 0;
    while (!(window.comparison() && !window.isBusy())) {
        BenchUtil::waitForEvents(50);
        if (loadedAt == 0 && !window.loader()->isRunning())
            loadedAt = double(clock.elapsed()) / 1000;
    }
    const double total = double(clock.elapsed()) / 1000;
    probe.stop();

    std::vector<double> sorted = gaps;
    std::sort(sorted.begin(), sorted.end());
    const double worst = sorted.empty() ? 0 : sorted.back();
    const double p99 = sorted.empty() ? 0 : sorted[size_t(double(sorted.size() - 1) * 0.99)];
    const auto over = [&](double ms) {
        return std::count_if(gaps.begin(), gaps.end(), [ms](double g) { return g > ms; });
    };

    std::printf("GUI thread while opening %d file(s) to verdict and drawn views (%s):\n", int(files.size()),
        qPrintable(QString::number(window.rankModel()->loadedCount()) + QStringLiteral(" loaded")));
    std::printf("  files loaded after        %8.2f s\n", loadedAt);
    std::printf("  verdict and views after   %8.2f s\n", total);
    if (probing) {
        std::printf("  event-loop probes         %8zu (every 2 ms)\n", gaps.size());
        std::printf("  longest stall             %8.1f ms   target < 100 ms\n", worst);
        std::printf("  99th percentile gap       %8.1f ms\n", p99);
        std::printf("  stalls over 50 / 100 ms   %5lld / %lld\n", static_cast<long long>(over(50)),
            static_cast<long long>(over(100)));
    }

    // Drawing: a replot of both timelines and a paint of a block map, median of 15.
    std::vector<double> replots, paints;
    for (int i = 0; i < 15; ++i) {
        QElapsedTimer t;
        t.start();
        window.timelines()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        replots.push_back(double(t.nsecsElapsed()) / 1e6);
        t.restart();
        window.blockMap(0)->grab();
        paints.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::printf("  timeline replot (%d px)  %8.2f ms   median of 15, %d bands\n", window.timelines()->plot()->width(),
        median(replots), window.timelines()->bandCount(0));
    std::printf("  block map paint           %8.2f ms   median of 15, %d blocks in %d segments\n", median(paints),
        window.blockMap(0)->blockCount(), window.blockMap(0)->segmentCount());

    // Cancelling: load the first file alone, cancel once 40 % is read, time until the loader reports it stopped.
    std::vector<double> cancels;
    for (int i = 0; i < 5; ++i) {
        SnapshotLoader loader;
        QElapsedTimer sinceCancel;
        bool finished = false;
        QObject::connect(&loader, &SnapshotLoader::progress, [&](int, qint64 done, qint64 total) {
            if (!sinceCancel.isValid() && done * 10 >= total * 4) {
                sinceCancel.start();
                loader.cancel(0);
            }
        });
        QObject::connect(&loader, &SnapshotLoader::finished, [&](int, const LoadedFile&) { finished = true; });
        loader.load({ files.front() });
        while (!finished)
            BenchUtil::waitForEvents(20);
        if (sinceCancel.isValid())
            cancels.push_back(double(sinceCancel.nsecsElapsed()) / 1e6);
    }
    std::sort(cancels.begin(), cancels.end());
    if (!cancels.empty())
        std::printf("  cancel at 40 %% to stopped %8.1f ms   median of %zu (worst %.1f ms), target < 200 ms\n",
            median(cancels), cancels.size(), cancels.back());
    return worst < 100 ? 0 : 1;
}
