// SPDX-License-Identifier: MIT
#include "comparisonphases.h"

#include "parallel.h"

#include <algorithm>

namespace RankScope {

void AlignedMoments::scanAlignedExcess()
{
    // Peaks can be alike while one rank holds far more mid-step (its longer sequences' activations, work it frees
    // again before the peak). The traces of each replica group are cut into stretches at moments aligned with its
    // top rank's trace; in each stretch every rank's highest total is weighed against the others', so a burst
    // between two moments is not missed and a moment placed a few events off changes nothing.
    if (!alignable())
        return;
    const std::vector<DeviceHistoryPtr>& histories = m_c.m_histories;
    const TraceAlignment& aligned = alignment();
    constexpr EventIndex Unknown = -2;
    for (const std::vector<size_t>& members : m_groupMembers) {
        if (members.size() < 2)
            continue;
        const size_t top = highestPeak(members);
        const EventIndex n = EventIndex(histories[top]->eventCount());
        const EventIndex stretches = std::min<EventIndex>(n, 512);
        // Each member's highest total in each stretch and where (-1: the stretch could not be placed in its trace).
        using Highest = std::vector<std::pair<int64_t, EventIndex>>;
        const QList<Highest> highest = Parallel::mapIndices(qsizetype(members.size()), [&](qsizetype i) {
            const size_t r = members[size_t(i)];
            const DeviceHistory& h = *histories[r];
            // Where the stretches start in this trace; the traces end together (every rank dumps its snapshot at the
            // same point of the code). Only starts that keep the order.
            std::vector<EventIndex> starts(size_t(stretches) + 1, Unknown);
            EventIndex last = -1;
            for (EventIndex k = 0; k < stretches; ++k) {
                const EventIndex e = n * k / stretches;
                const EventIndex at = r == top ? e : aligned.align(top, e, r).value_or(Unknown);
                if (at != Unknown && at >= last)
                    starts[size_t(k)] = last = at;
            }
            starts.back() = EventIndex(h.eventCount());
            Highest out(size_t(stretches), { -1, BeforeTrace });
            for (size_t k = 0; k < size_t(stretches); ++k) {
                if (starts[k] == Unknown || starts[k + 1] == Unknown)
                    continue;
                out[k] = TraceAlignment::highestIn(h, starts[k], std::max(starts[k + 1], starts[k] + 1));
            }
            return out;
        });
        std::vector<int64_t> peaks;
        peaks.reserve(members.size());
        for (size_t r : members)
            peaks.push_back(m_c.m_ranks[r].peakAllocatedBytes);
        const int64_t medianPeak = medianOf(std::move(peaks));
        const auto baseline = std::find(members.begin(), members.end(), size_t(std::max(m_baselineIndex, 0)));
        std::vector<int64_t> values;
        for (size_t k = 0; k < size_t(stretches); ++k) {
            values.clear();
            for (const Highest& h : highest) {
                if (h[k].first >= 0)
                    values.push_back(h[k].first);
            }
            if (values.size() < 2)
                continue;
            std::sort(values.begin(), values.end());
            for (size_t i = 0; i < members.size(); ++i) {
                const auto [own, event] = highest[qsizetype(i)][k];
                if (own < 0 || int(members[i]) == m_baselineIndex)
                    continue;
                int64_t base = medianWithout(values, own);
                if (m_baselineIndex >= 0) {
                    if (baseline == members.end() || highest[qsizetype(baseline - members.begin())][k].first < 0)
                        continue;
                    base = highest[qsizetype(baseline - members.begin())][k].first;
                }
                RankSummary& rank = m_c.m_ranks[members[i]];
                if (own - base > rank.alignedExcessBytes) {
                    rank.alignedExcessBytes = own - base;
                    rank.alignedExcessEvent = event;
                }
                if (!m_largestExcess || own - base > m_largestExcess->bytes)
                    m_largestExcess = Excess { members[i], event, own - base, medianPeak };
            }
        }
    }
}

std::optional<Moment> AlignedMoments::betterMoment() const
{
    const Verdict& v = m_c.m_verdict;
    if (m_c.m_options.point || m_moment || m_rankCount == 0)
        return std::nullopt;
    // The state a verdict about an out-of-memory describes is at the OOM, not at the peak.
    if (aboutOutOfMemory(v.kind) && v.figuresRank >= 0) {
        const RankSummary& r = m_c.m_ranks[size_t(m_c.rankIndex(v.figuresRank))];
        if (r.oomEvents > 0 && r.point.event != r.oomEvent && (m_rankCount == 1 || alignable()))
            return Moment { r.rank, r.oomEvent, Moment::OutOfMemory };
        return std::nullopt;
    }
    // Alike at the peak, but one rank holds more than the threshold of the ranks' peaks beyond its baseline
    // mid-step: weighed against the peaks, ordinary batch-to-batch wobble of a small total never counts.
    if (v.kind == Verdict::Balanced && m_largestExcess
        && beyondThreshold(m_largestExcess->bytes, m_largestExcess->medianPeak, v.thresholdPercent))
        return Moment { m_inputs[m_largestExcess->rankIndex].rank, m_largestExcess->event, Moment::MidStep };
    return std::nullopt;
}

void AlignedMoments::keepFromPeak(const Comparison& peak)
{
    for (size_t r = 0; r < m_rankCount; ++r) {
        m_c.m_ranks[r].alignedExcessBytes = peak.m_ranks[r].alignedExcessBytes;
        m_c.m_ranks[r].alignedExcessEvent = peak.m_ranks[r].alignedExcessEvent;
    }
    const Verdict& p = peak.m_verdict;
    Verdict& v = m_c.m_verdict;
    v.peakOutlierRank = p.outlierRank;
    v.peakOutlierExcessBytes = std::max<int64_t>(0, p.outlierExcessBytes);
    if (const int top = peak.rankIndex(p.moment.rank); top >= 0) {
        const CategoryBytes& c = peak.m_ranks[size_t(top)].categoryBytes;
        v.peakCategory = Category(std::max_element(c.begin(), c.end()) - c.begin());
    }
}

} // namespace RankScope
