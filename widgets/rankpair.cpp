// SPDX-License-Identifier: MIT
#include "rankpair.h"

#include "blockmapview.h"
#include "timelineview.h"

namespace RankScope {

RankPair::RankPair(Part parts, QWidget* viewParent)
    : QObject(viewParent)
{
    if (parts & Timelines)
        m_timelines = new TimelineView(viewParent);
    if (parts & BlockMaps) {
        m_mapA = new BlockMapView(viewParent);
        m_mapB = new BlockMapView(viewParent);
        // One scale and one zoom for both, so the same segment size has the same width on A and B.
        m_mapA->setPartner(m_mapB);
        m_mapB->setPartner(m_mapA);
        connect(m_mapA, &BlockMapView::blockClicked, this,
            [this](uint64_t address, StackId stack) { emit blockClicked(0, address, stack); });
        connect(m_mapB, &BlockMapView::blockClicked, this,
            [this](uint64_t address, StackId stack) { emit blockClicked(1, address, stack); });
    }
}

void RankPair::showRanks(const ComparisonPtr& comparison, int rankA, int rankB)
{
    m_comparison = comparison;
    m_rankA = rankA;
    m_rankB = rankB;
    // A finding marked before is of the ranks (or the job) shown before: its site would stay lit, the rest faded.
    markFinding(-1);
    if (!comparison || comparison->rankIndex(rankA) < 0) {
        clear();
        return;
    }
    const Comparison& c = *comparison;
    const SiteOptions& site = c.options().site;
    std::vector<TimelineTrack> tracks;
    const auto show = [&](int rank, const QString& role, BlockMapView* map) {
        const int index = c.rankIndex(rank);
        if (index < 0) {
            if (map)
                map->clear();
            return;
        }
        const RankSummary& s = c.ranks()[size_t(index)];
        tracks.push_back({ s.rank, role, c.historyPtr(size_t(index)), s.point.event, c.categoriesPtr(size_t(index)) });
        if (map) {
            map->setState(s.rank, role, c.historyPtr(size_t(index)), s.point.event, site, c.statePtr(size_t(index)));
            const Verdict& v = c.verdict();
            map->setTooSmallFor(v.kind == Verdict::Fragmentation && v.rank == s.rank ? v.oomRequestedBytes : 0);
        }
    };
    show(rankA, QStringLiteral("A"), m_mapA);
    show(rankB, QStringLiteral("B"), m_mapB);
    if (m_timelines)
        m_timelines->setTracks(std::move(tracks), site);
}

void RankPair::markFinding(int finding)
{
    std::optional<uint64_t> fingerprint;
    std::vector<FindingRun> runsA, runsB;
    if (m_comparison && finding >= 0 && size_t(finding) < m_comparison->findings().size()) {
        const Finding& f = m_comparison->findings()[size_t(finding)];
        fingerprint = m_comparison->sites().fingerprint(f.site);
        if (f.rank == m_rankA)
            runsA = f.runs;
        else if (f.rank == m_rankB)
            runsB = f.runs;
    }
    if (m_timelines)
        m_timelines->setHighlightedSite(fingerprint);
    for (auto [map, runs] : { std::pair { m_mapA, &runsA }, std::pair { m_mapB, &runsB } }) {
        if (!map)
            continue;
        map->setHighlightedSite(fingerprint);
        map->setOutlinedRuns(*runs);
    }
}

void RankPair::clear()
{
    if (m_timelines)
        m_timelines->setTracks({}, {});
    for (BlockMapView* map : { m_mapA, m_mapB }) {
        if (map)
            map->clear();
    }
}

bool RankPair::isBusy() const
{
    return (m_timelines && m_timelines->isBusy()) || (m_mapA && m_mapA->isBusy()) || (m_mapB && m_mapB->isBusy());
}

} // namespace RankScope
