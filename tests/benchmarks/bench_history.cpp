// SPDX-License-Identifier: MIT
// History engine benchmark: replay time and memory per event, and level-of-detail query time, on a large
// snapshot generated at run time (bench_history.py makes it from a real file). Prints figures; asserts nothing.
#include "categories.h"
#include "comparison.h"
#include "devicehistory.h"
#include "snapshotreader.h"

#include "benchutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <vector>

using namespace RankScope;
using BenchUtil::median;
using BenchUtil::rssKb;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_history SNAPSHOT\n");
        return 2;
    }
    const SnapshotPtr snapshot = SnapshotReader::read(QString::fromLocal8Bit(argv[1])).snapshot;
    const size_t events = snapshot->deviceTraces.empty() ? 0 : snapshot->deviceTraces[0].size();

    std::vector<double> buildMs;
    long perEventBytes = 0;
    DeviceHistoryPtr history;
    for (int run = 0; run < 5; ++run) {
        history.reset();
        const long before = rssKb();
        QElapsedTimer timer;
        timer.start();
        history = DeviceHistory::build(snapshot, 0);
        buildMs.push_back(double(timer.nsecsElapsed()) / 1e6);
        perEventBytes = (rssKb() - before) * 1024 / long(std::max<size_t>(events, 1));
    }

    // Every allocation's category: the comparison waits for it after the replay, on one core for one rank.
    std::vector<double> classifyMs;
    for (int run = 0; run < 5; ++run) {
        QElapsedTimer timer;
        timer.start();
        const std::vector<Category> categories = Categories::classify(*history);
        classifyMs.push_back(double(timer.nsecsElapsed()) / 1e6);
    }

    const EventIndex last = EventIndex(events) - 1;
    auto lodMs = [&](EventIndex first, EventIndex end) {
        std::vector<double> ms;
        for (int run = 0; run < 7; ++run) {
            QElapsedTimer timer;
            timer.start();
            const TimelineLod lod =
                history->lod(first, end, 1920, std::max<int64_t>(1, history->peakBytes() / 400), 15000);
            ms.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
        return median(ms);
    };
    const double lodFull = lodMs(BeforeTrace, last);
    const double lodZoom = lodMs(last / 2, last / 2 + last / 100);

    auto stateMs = [&](EventIndex at) {
        std::vector<double> ms;
        for (int run = 0; run < 3; ++run) {
            QElapsedTimer timer;
            timer.start();
            const AllocatorState state = history->stateAt(at);
            ms.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
        return median(ms);
    };

    std::printf("events                        %zu\n", events);
    std::printf("allocations                   %zu\n", history->allocations().size());
    std::printf("full replay (build)           %.0f ms (median of 5; target < 1000 ms)\n", median(buildMs));
    std::printf("replay memory                 %ld bytes/event (target <= 48)\n", perEventBytes);
    std::printf("trace entries held            %zu bytes/event\n", sizeof(TraceEntry));
    // A pixel of a 400-pixel plot: every allocation that tall a band, smaller ones where they add up (the window's own
    // figure, with its plot's height, is bench_draw's re-decimation; target < 50 ms there).
    std::printf("categories (classify)         %.0f ms (median of 5)\n", median(classifyMs));
    std::printf("LOD 1920x400 px, whole trace  %.1f ms (median of 7)\n", lodFull);
    std::printf("LOD 1920x400 px, 1%% window    %.1f ms\n", lodZoom);
    std::printf("block map at the peak         %.0f ms (event %lld, undone from the end)\n",
        stateMs(history->peakEvent()), static_cast<long long>(history->peakEvent()));
    std::printf("block map before event 0      %.0f ms (every event undone)\n", stateMs(BeforeTrace));

    // What-if peaks: the trace replayed without each of 44 sites (those allocating the most bytes over the trace) and
    // each of the 6 categories, on the comparison's sites and categories (the rank compared alone).
    const ComparisonPtr comparison = Comparison::compute({ { 0, QString(), snapshot } }, {});
    const DeviceHistory& compared = comparison->history(0);
    std::unordered_map<SiteId, int64_t> allocated;
    for (const Allocation& a : compared.allocations())
        allocated[comparison->stackSites(0)[a.stack]] += a.size;
    std::vector<std::pair<int64_t, SiteId>> bySize;
    for (const auto& [site, bytes] : allocated)
        bySize.push_back({ bytes, site });
    std::sort(bySize.rbegin(), bySize.rend());
    std::vector<WhatIf::Candidate> candidates;
    for (size_t i = 0; i < bySize.size() && candidates.size() < 44; ++i)
        candidates.push_back({ WhatIf::Candidate::Site, bySize[i].second, Category::Other });
    for (int c = 0; c < CategoryCount; ++c)
        candidates.push_back({ WhatIf::Candidate::CategoryOf, 0, Category(c) });
    std::vector<double> whatIfMs;
    for (int run = 0; run < 3; ++run) {
        QElapsedTimer timer;
        timer.start();
        const WhatIf whatIf(compared, comparison->categories(0), comparison->stackSites(0));
        const std::vector<WhatIf::Result> results = whatIf.without(candidates);
        whatIfMs.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::printf("what-if, %zu candidates        %.0f ms (median of 3; target < 1000 ms)\n", candidates.size(),
        median(whatIfMs));
    return 0;
}
