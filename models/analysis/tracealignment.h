// SPDX-License-Identifier: MIT
#pragma once

#include "devicehistory.h"
#include "sitetable.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace RankScope {

/// Finds the same moment of the same code in the traces of different ranks. Ranks run the same code, so they
/// allocate at the same sites in the same order; extra work on one rank inserts allocations at its own sites and
/// leaves the others' order alone. An event is placed by its site and by how many allocations at that site follow
/// it to the end of the trace, since every rank dumps its snapshot at the same point of the code while the start
/// of a trace that wrapped its ring buffer differs per rank. A moment is placed by the latest allocation before it at
/// a site the other rank has (a peak reached by extra work is placed where that work began), and each place is
/// checked against the allocations just before it, so traces of unrelated programs are never aligned.
class TraceAlignment
{
public:
    TraceAlignment(const std::vector<DeviceHistoryPtr>& histories, const SiteOptions& options);

    /// The event of rank `to` at the moment event `event` of rank `from` is at (indices into the histories), or
    /// nullopt when the traces do not run the same code around it.
    std::optional<EventIndex> align(size_t from, EventIndex event, size_t to) const;
    /// About `count` moments spread over rank `from`'s trace and where they are in rank `to`'s, both in increasing
    /// order: what maps one trace onto the other, for drawing them on one axis.
    std::vector<std::pair<EventIndex, EventIndex>> anchors(size_t from, size_t to, size_t count) const;

    /// The highest total of `history` over events [from, to) (at least the one after `from`) and its event: what a
    /// scan of aligned stretches weighs of each (AlignedMoments across ranks, the gate across runs).
    static std::pair<int64_t, EventIndex> highestIn(const DeviceHistory& history, EventIndex from, EventIndex to);

    /// A moment as a trace of another run of the same code finds it without this trace (a gate's baseline kept as a
    /// digest): the latest allocation at or before it, by its site's fingerprint and how many allocations at that
    /// site follow it to the end of the trace, the rule every place here is found by.
    struct Landmark
    {
        uint64_t site = 0;
        uint32_t after = 0;
        bool operator==(const Landmark&) const = default;
    };
    /// The landmark of rank `rank`'s moment `event` and the allocation event it names; nullopt before the trace's
    /// first allocation.
    std::optional<std::pair<Landmark, EventIndex>> landmark(size_t rank, EventIndex event) const;
    /// The allocation event of rank `rank` that `landmark` names, nullopt where the trace allocates fewer times at
    /// that site (or never).
    std::optional<EventIndex> find(size_t rank, const Landmark& landmark) const;

private:
    static constexpr SiteId NoSite = ~SiteId(0);
    SiteId siteOf(size_t rank, const TraceEntry& e) const;
    // The sites of up to `count` allocations before `event` of a rank, sorted.
    std::vector<SiteId> sitesBefore(size_t rank, EventIndex event, size_t count) const;
    // The event of rank `to` that is the same allocation as alloc event `q` of rank `from`, if it passes the check.
    std::optional<EventIndex> sameAllocation(size_t from, EventIndex q, size_t to) const;
    // The allocation of `from` at or before `event` that `to` has too, and its event there.
    std::optional<std::pair<EventIndex, EventIndex>> place(size_t from, EventIndex event, size_t to) const;

    const std::vector<DeviceHistoryPtr>& m_histories;
    std::vector<std::vector<SiteId>> m_stackSites;
    // The sites' fingerprints, and the sites by fingerprint, for landmarks.
    std::vector<uint64_t> m_fingerprints;
    std::unordered_map<uint64_t, SiteId>
        m_byFingerprint; // per rank: StackId → site, NoSite for stacks that never allocate
    // Per rank and site: the events that allocate there, in order.
    std::vector<std::unordered_map<SiteId, std::vector<uint32_t>>> m_positions;
};

} // namespace RankScope
