// SPDX-License-Identifier: MIT
// Diff benchmark: many ranks with many live allocations each (bench_diff.py generates the inputs from a real file).
// Prints figures; asserts nothing.
#include "comparison.h"
#include "snapshotreader.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>

using namespace RankScope;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_diff TYPICAL.pickle OUTLIER.pickle RANKS\n");
        return 2;
    }
    const SnapshotPtr typical = SnapshotReader::read(QString::fromLocal8Bit(argv[1])).snapshot;
    const SnapshotPtr outlier = SnapshotReader::read(QString::fromLocal8Bit(argv[2])).snapshot;
    const int rankCount = std::atoi(argv[3]);
    // Ranks share the typical snapshot's data (it is immutable); each is still replayed and diffed on its own.
    std::vector<RankInput> ranks;
    for (int r = 0; r < rankCount; ++r)
        ranks.push_back({ r, QStringLiteral("rank%1").arg(r), r == rankCount / 2 ? outlier : typical });

    std::vector<double> ms;
    ComparisonPtr result;
    for (int run = 0; run < 3; ++run) {
        QElapsedTimer timer;
        timer.start();
        result = Comparison::compute(ranks, {});
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    size_t live = 0;
    for (size_t r = 0; r < ranks.size(); ++r)
        live += result->history(r).liveSet(result->ranks()[r].point.event).size();
    std::printf("ranks                         %d\n", rankCount);
    std::printf("live allocations per rank     %zu\n", live / ranks.size());
    std::printf("diff (replay, match, verdict) %.0f ms (median of 3; target < 2000 ms)\n", ms[1]);
    std::printf("verdict                       %s on rank %d, %zu findings\n",
        Verdict::kindName(result->verdict().kind), result->verdict().rank, result->findings().size());
    return 0;
}
