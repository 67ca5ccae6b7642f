// SPDX-License-Identifier: MIT
#include "comparisonphases.h"

#include "parallel.h"

#include <QThreadPool>

#include <algorithm>
#include <unordered_map>

namespace RankScope {

namespace {

// Why a rank is not where it was asked for, in English and marked for translation.
Phrase rankNote(const char* source, std::vector<Phrase::Arg> args = {})
{
    return Phrase("RankScope::RankSummary", source, std::move(args));
}

} // namespace

std::vector<RankMeasurement::Chosen> RankMeasurement::choosePoints()
{
    const std::vector<DeviceHistoryPtr>& histories = m_c.m_histories;
    std::vector<Chosen> chosen(m_rankCount);
    for (size_t r = 0; r < m_rankCount; ++r) {
        Chosen& c = chosen[r];
        const DeviceHistory& h = *histories[r];
        c.spec = m_c.m_options.point.value_or(
            TimelinePoint::Spec { h.eventCount() > 0 ? TimelinePoint::Peak : TimelinePoint::Snapshot, 0 });
        const std::optional<TimelinePoint> point = h.point(c.spec);
        c.found = point.has_value();
        c.point = point ? *point : *h.point({ TimelinePoint::Snapshot, 0 });
    }
    Verdict& v = m_c.m_verdict;
    v.moment = {};
    m_c.m_alignedTo = -1;
    // Every other rank at the same moment of its own trace as `reference` at `event`; a rank whose trace runs other
    // code there stays where it is, and says so.
    const auto alignTo = [&](size_t reference, EventIndex event, const std::vector<size_t>& members,
                             const Phrase& unaligned) {
        // Made here, on this thread: alignment() makes it on first use, which the part pool's threads must not race.
        const TraceAlignment& placed = alignment();
        const QList<std::optional<EventIndex>> aligned =
            Parallel::mapIndices(qsizetype(members.size()), [&](qsizetype i) {
                const size_t r = members[size_t(i)];
                return r == reference ? std::optional<EventIndex>(event) : placed.align(reference, event, r);
            });
        for (size_t i = 0; i < members.size(); ++i) {
            const size_t r = members[i];
            if (const std::optional<EventIndex>& e = aligned[qsizetype(i)]) {
                if (chosen[r].point.event != *e)
                    chosen[r].point = *histories[r]->point({ TimelinePoint::Event, *e });
                chosen[r].found = true;
                chosen[r].alignedTo = m_inputs[reference].rank;
                chosen[r].note = {};
            } else {
                chosen[r].alignedTo = -1;
                chosen[r].note = unaligned;
            }
        }
        return std::count_if(aligned.begin(), aligned.end(), [](const auto& e) { return e.has_value(); });
    };
    const auto indexOf = [&](int rank) {
        for (size_t r = 0; r < m_rankCount; ++r) {
            if (m_inputs[r].rank == rank)
                return std::optional<size_t>(r);
        }
        return std::optional<size_t>();
    };
    const bool traces = alignable();

    // A point picked on one rank (event:N@R): that rank's event, every other rank at the same moment of its own trace.
    if (const std::optional<TimelinePoint::Spec>& asked = m_c.m_options.point;
        asked && asked->kind == TimelinePoint::Event && asked->rank >= 0) {
        const std::optional<size_t> reference = indexOf(asked->rank);
        if (!reference || !chosen[*reference].found)
            return chosen;
        v.moment = { asked->rank, asked->number, Moment::Picked };
        m_c.m_alignedTo = asked->rank;
        if (traces) {
            std::vector<size_t> all(m_rankCount);
            for (size_t r = 0; r < m_rankCount; ++r)
                all[r] = r;
            alignTo(*reference, asked->number, all,
                rankNote(QT_TRANSLATE_NOOP("RankScope::RankSummary",
                             "could not be aligned with rank %1's event %2 (its trace runs other code there); "
                             "compared at its own event %2"),
                    { asked->rank, asked->number }));
        }
        return chosen;
    }

    // By default the rank with the highest peak is looked at there, and every other rank at the same moment of its
    // own trace: at their own peaks, ranks may be in different phases (a buffer kept from half-way moves one rank's
    // peak into another phase), and the diff would compare optimizer state with activations. With a layout, each
    // replica group on its own: stages run other code and peak at other moments.
    if (m_c.m_options.point || !traces) {
        // A rank alone at a moment chosen for it (its OOM).
        if (m_moment && m_rankCount == 1) {
            chosen[0].point = *histories[0]->point({ TimelinePoint::Event, m_moment->event });
            chosen[0].alignedTo = m_moment->rank;
            m_c.m_alignedTo = m_moment->rank;
            v.moment = *m_moment;
        }
        return chosen;
    }
    std::optional<size_t> overallTop;
    for (const std::vector<size_t>& members : m_groupMembers) {
        if (members.size() < 2)
            continue;
        const size_t top = highestPeak(members);
        // Files of unrelated programs align nowhere: then each is simply at its own peak.
        std::vector<Chosen> before = chosen;
        const Phrase unaligned = rankNote(QT_TRANSLATE_NOOP("RankScope::RankSummary",
                                              "could not be aligned with rank %1's peak (its trace runs other code "
                                              "there); compared at its own peak"),
            { m_inputs[top].rank });
        if (alignTo(top, histories[top]->peakEvent(), members, unaligned) < 2) {
            chosen = std::move(before);
            continue;
        }
        if (!overallTop || histories[top]->peakBytes() > histories[*overallTop]->peakBytes())
            overallTop = top;
    }
    if (overallTop) {
        m_c.m_alignedTo = m_inputs[*overallTop].rank;
        v.moment = { m_c.m_alignedTo, histories[*overallTop]->peakEvent(), Moment::HighestPeak };
    }
    // A moment chosen for the verdict (an OOM, the largest mid-step excess): its rank's replica group there.
    if (m_moment) {
        const std::optional<size_t> reference = indexOf(m_moment->rank);
        if (!reference)
            return chosen;
        for (const std::vector<size_t>& members : m_groupMembers) {
            if (std::find(members.begin(), members.end(), *reference) == members.end())
                continue;
            chosen[*reference].point = *histories[*reference]->point({ TimelinePoint::Event, m_moment->event });
            const Phrase unaligned = m_moment->reason == Moment::OutOfMemory
                ? rankNote(QT_TRANSLATE_NOOP("RankScope::RankSummary",
                               "could not be aligned with rank %1's OOM (its trace runs other code there); compared "
                               "where the highest peak is"),
                    { m_moment->rank })
                : rankNote(QT_TRANSLATE_NOOP("RankScope::RankSummary",
                               "could not be aligned with rank %1's event %2 (its trace runs other code there); "
                               "compared where the highest peak is"),
                    { m_moment->rank, m_moment->event });
            alignTo(*reference, m_moment->event, members, unaligned);
            // Every rank that ran out of memory at its own OOM: the state there, after the allocator released what it
            // could, is what the verdict describes.
            if (m_moment->reason == Moment::OutOfMemory) {
                for (size_t r : members) {
                    if (!histories[r]->ooms().empty())
                        chosen[r].point = *histories[r]->point({ TimelinePoint::Oom, 0 });
                }
            }
        }
        m_c.m_alignedTo = m_moment->rank;
        v.moment = *m_moment;
    }
    return chosen;
}

void RankMeasurement::measureRanks()
{
    if (m_previous) {
        // The same ranks at another moment: what does not depend on the moment is taken as it was made. A layout
        // guessed from what the ranks hold is guessed again from what they hold there.
        const Comparison& p = m_previous->m_c;
        m_c.m_histories = p.m_histories;
        m_c.m_categories = p.m_categories;
        measureInLayout();
        return;
    }
    // With fewer ranks than cores, a rank's history is one core's work while another waits: the state at its peak,
    // nearly always the point compared, is replayed there meanwhile (the peak found by the cheap walk `info` uses).
    if (m_rankCount < size_t(Parallel::partPool()->maxThreadCount())) {
        m_peakStates = Parallel::mapIndicesLater(qsizetype(m_rankCount), [this](qsizetype r) {
            const RankInput& in = m_inputs[size_t(r)];
            const Snapshot& s = *in.snapshot;
            const int device = m_devices[size_t(r)];
            // The load's own figures have the peak (the same walk): then only the state there is this core's work.
            const EventIndex peak = size_t(device) < in.peakEvents.size()
                ? in.peakEvents[size_t(device)]
                : DeviceHistory::summarize(s, device).peakEvent;
            return std::make_pair(
                peak, std::make_shared<const AllocatorState>(DeviceHistory::stateAt(s, device, peak)));
        });
    }
    // Each rank's history and its state at its point: independent per rank, so every core takes ranks.
    const QList<DeviceHistoryPtr> histories = Parallel::mapIndices(qsizetype(m_rankCount),
        [&](qsizetype r) { return DeviceHistory::build(m_inputs[size_t(r)].snapshot, m_devices[size_t(r)]); });
    m_c.m_histories.assign(histories.begin(), histories.end());
    // Classified while the ranks are replayed to their points (measureAt takes the categories when it needs them):
    // with fewer ranks than cores, the two share them.
    m_pendingCategories = Parallel::mapIndicesLater(qsizetype(m_rankCount), [this](qsizetype r) {
        return std::make_shared<const std::vector<Category>>(
            Categories::classify(*m_c.m_histories[size_t(r)], m_c.m_options.categories));
    });
    measureInLayout();
}

void RankMeasurement::measureInLayout()
{
    // The layout, given or guessed: ranks are looked at and compared within their replica groups. A baseline rank
    // (A/B) is every rank's baseline, whatever the layout; one that does not fit the ranks is not used (the caller
    // checks it against the files).
    const bool layoutUsable = m_baselineIndex < 0 && m_rankCount > 1;
    std::optional<ParallelLayout> layout = layoutUsable ? m_c.m_options.layout : std::nullopt;
    if (layout
        && (layout->rankCount() != int(m_rankCount)
            || std::any_of(m_inputs.begin(), m_inputs.end(),
                [&](const RankInput& in) { return in.rank < 0 || in.rank >= layout->rankCount(); })))
        layout.reset();
    setGroups(layout);
    measureAt(choosePoints());
    if (layout || !layoutUsable)
        return;
    // A guess needs what every rank holds; once made, the ranks are looked at again, each group at its own peak.
    if (std::optional<ParallelLayout> guessed = suggestLayout()) {
        setGroups(guessed);
        m_c.m_ranks.clear();
        m_c.m_states.clear();
        m_live.assign(m_rankCount, {});
        m_c.m_alignedTo = -1;
        measureAt(choosePoints());
    }
}

void RankMeasurement::measureAt(const std::vector<Chosen>& chosen)
{
    std::vector<std::shared_ptr<const AllocatorState>> replayed(m_rankCount);
    if (m_peakStates.isValid()) {
        const QList<std::pair<EventIndex, std::shared_ptr<const AllocatorState>>> peaks = m_peakStates.results();
        m_peakStates = {};
        for (size_t r = 0; r < m_rankCount; ++r) {
            if (peaks[qsizetype(r)].first == chosen[r].point.event)
                replayed[r] = peaks[qsizetype(r)].second;
        }
    }
    // Each rank's state and live allocations at its point, on every core; only the sites below, numbered in the
    // order they are first met, wait for each other (the live sets and their sorting were a job of a thousand
    // digests' 85 ms on one core).
    struct AtPoint
    {
        std::shared_ptr<const AllocatorState> state;
        std::vector<uint32_t> live;
    };
    const QList<AtPoint> atPoints = Parallel::mapIndices(qsizetype(m_rankCount), [&](qsizetype r) {
        const std::shared_ptr<const AllocatorState>& done = replayed[size_t(r)];
        const DeviceHistory& h = *m_c.m_histories[size_t(r)];
        const EventIndex event = chosen[size_t(r)].point.event;
        return AtPoint { done ? done : std::make_shared<const AllocatorState>(h.stateAt(event)), h.liveSet(event) };
    });
    if (m_pendingCategories.isValid()) {
        const QList<CategoriesPtr> categories = m_pendingCategories.results();
        m_c.m_categories.assign(categories.begin(), categories.end());
        m_pendingCategories = {};
    }
    for (size_t r = 0; r < m_rankCount; ++r) {
        const RankInput& in = m_inputs[r];
        const Chosen& c = chosen[r];
        const DeviceHistoryPtr& h = m_c.m_histories[r];
        RankSummary summary;
        summary.rank = in.rank;
        summary.path = in.path;
        summary.device = h->device();
        summary.point = c.point;
        summary.note = c.note;
        summary.alignedTo = c.alignedTo;
        summary.host = HostMemory::of(*in.snapshot);
        if (m_c.m_layout) {
            summary.coordinates = m_c.m_layout->coordinates(in.rank);
            summary.group = m_c.m_layout->group(in.rank);
        }
        if (!c.found) {
            summary.note = in.snapshot->digest && TimelinePoint::insideTrace(c.spec.kind)
                ? rankNote(QT_TRANSLATE_NOOP("RankScope::RankSummary",
                    "is a digest, which keeps only the peak, the snapshot and OOMs; compared at its snapshot"))
                : rankNote(QT_TRANSLATE_NOOP("RankScope::RankSummary", "has no %1 point; compared at its snapshot"),
                    { Phrase::Arg::point(m_c.pointName()) });
        }
        summary.sourceEvent = summary.point.event;
        if (const std::optional<DigestInfo>& digest = in.snapshot->digest) {
            const DigestInfo::DeviceSource source = digest->sourceOf(summary.device);
            summary.sourceEvent = summary.point.kind == TimelinePoint::Peak ? source.peakEvent
                : summary.point.kind == TimelinePoint::Oom                  ? source.oomEvent
                                                                            : source.events - 1;
        }
        summary.peakAllocatedBytes = h->peakBytes();
        summary.bytesAtPoint = h->totalAfter(summary.point.event);
        summary.reservedAtPoint = h->reservedAfter(summary.point.event);
        // At the point, as the block maps show it: one figure in the table, the maps, the CLI and the reports.
        const std::shared_ptr<const AllocatorState>& state = atPoints[qsizetype(r)].state;
        const DeviceStats stats = state->stats();
        summary.unallocatedBytes = stats.inactive;
        summary.largestFreeBytes = stats.largestFree;
        m_c.m_states.push_back(state);
        summary.oomEvents = int64_t(h->ooms().size());
        if (!h->ooms().empty()) {
            const OomMarker& oom = h->ooms().back();
            summary.oomRequestedBytes = oom.requestedBytes;
            summary.oomDeviceFreeBytes = oom.deviceFreeBytes;
            summary.oomEvent = EventIndex(oom.event);
            summary.oomStack = oom.stack;
        }
        summary.traceIncomplete = h->traceIncomplete();
        m_c.m_ranks.push_back(summary);

        const std::span<const Allocation> allocations = h->allocations();
        const std::vector<uint32_t>& live = atPoints[qsizetype(r)].live;
        m_live[r].reserve(live.size());
        for (uint32_t i : live) {
            m_live[r].push_back({ m_c.m_sites.site(*in.snapshot, allocations[i].stack), i });
            m_c.m_ranks.back().categoryBytes[size_t((*m_c.m_categories[r])[i])] += allocations[i].size;
        }
    }
    Parallel::forIndices(qsizetype(m_rankCount), [this](qsizetype r) {
        std::vector<Live>& live = m_live[size_t(r)];
        std::sort(live.begin(), live.end(), [](const Live& a, const Live& b) { return a.site < b.site; });
    });
}

void RankMeasurement::measureForeign()
{
    // What a rank holds on another rank's GPU, at the most it holds there: all of it is memory that GPU's owner
    // does not see in its own file.
    for (size_t r = 0; r < m_rankCount; ++r) {
        const RankInput& in = m_inputs[r];
        for (int device : m_c.m_roles.ranks[r].foreign) {
            const DeviceHistoryPtr h = DeviceHistory::build(in.snapshot, device);
            const std::vector<Category> categories = Categories::classify(*h, m_c.m_options.categories);
            std::unordered_map<SiteId, Finding> bySite;
            std::unordered_map<SiteId, CategoryBytes> siteCategories;
            for (uint32_t i : h->liveSet(h->peakEvent())) {
                const Allocation& a = h->allocations()[i];
                const SiteId site = m_c.m_sites.site(*in.snapshot, a.stack);
                siteCategories[site][size_t(categories[i])] += a.size;
                Finding& f = bySite[site];
                if (f.rankCount == 0) {
                    f.rank = in.rank;
                    f.device = device;
                    f.kind = Finding::ForeignDevice;
                    f.site = site;
                    f.stack = a.stack;
                }
                f.rankBytes += a.size;
                f.excessBytes += a.size;
                ++f.rankCount;
                f.blocks.push_back({ a.addr, a.size, 0 });
            }
            for (auto& [site, f] : bySite) {
                const CategoryBytes& c = siteCategories[site];
                f.category = Category(std::max_element(c.begin(), c.end()) - c.begin());
                std::sort(f.blocks.begin(), f.blocks.end(),
                    [](const FindingRun& x, const FindingRun& y) { return x.address < y.address; });
                f.runs = f.blocks;
                m_foreign.push_back(std::move(f));
            }
        }
    }
}

void RankMeasurement::measureGrowth()
{
    // Each earlier step of a rank at the moment of its trace where this step's point is (the same code: the
    // alignment that lines up ranks lines up steps), else at its own peak.
    m_earlier.assign(m_rankCount, {});
    m_grows.assign(m_rankCount, 0);
    struct Looked
    {
        DeviceHistoryPtr history;
        std::vector<uint32_t> live;
    };
    const QList<std::vector<Looked>> looked = Parallel::mapIndices(qsizetype(m_rankCount), [&](qsizetype index) {
        const size_t r = size_t(index);
        std::vector<Looked> out;
        const DeviceHistoryPtr& now = m_c.m_histories[r];
        const TimelinePoint& point = m_c.m_ranks[r].point;
        for (const RankInput::EarlierStep& step : m_inputs[r].earlier) {
            Looked l;
            l.history = DeviceHistory::build(step.snapshot, m_devices[r]);
            std::optional<EventIndex> at;
            if (point.kind != TimelinePoint::Snapshot && now->eventCount() > 0 && l.history->eventCount() > 0
                && !now->snapshot().digest && !step.snapshot->digest) {
                const std::vector<DeviceHistoryPtr> pair = { l.history, now };
                at = TraceAlignment(pair, m_c.m_options.site).align(1, point.event, 0);
            }
            if (!at) {
                at = point.kind == TimelinePoint::Snapshot || l.history->eventCount() == 0
                    ? l.history->point({ TimelinePoint::Snapshot, 0 })->event
                    : l.history->peakEvent();
            }
            l.live = l.history->liveSet(*at);
            out.push_back(std::move(l));
        }
        return out;
    });
    for (size_t r = 0; r < m_rankCount; ++r) {
        const RankInput& in = m_inputs[r];
        RankSummary& summary = m_c.m_ranks[r];
        for (size_t k = 0; k < in.earlier.size(); ++k) {
            const Looked& l = looked[qsizetype(r)][k];
            EarlierState state;
            state.step = in.earlier[k].step;
            for (uint32_t i : l.live) {
                const Allocation& a = l.history->allocations()[i];
                auto& [bytes, count] = state.sites[m_c.m_sites.site(*in.earlier[k].snapshot, a.stack)];
                bytes += a.size;
                ++count;
                state.atPoint += a.size;
            }
            summary.peakPerStep.push_back({ state.step, l.history->peakBytes() });
            m_earlier[r].push_back(std::move(state));
        }
        if (m_earlier[r].empty())
            continue;
        summary.peakPerStep.push_back({ in.step, summary.peakAllocatedBytes });
        summary.growthBytes = summary.bytesAtPoint - m_earlier[r].back().atPoint;
        bool grows = summary.growthBytes > 0;
        for (size_t k = 1; k < m_earlier[r].size(); ++k)
            grows = grows && m_earlier[r][k].atPoint > m_earlier[r][k - 1].atPoint;
        // A slow leak is small from one step to the next: what counts is how much it adds up to over the steps.
        m_grows[r] = grows
            && beyondThreshold(summary.bytesAtPoint - m_earlier[r].front().atPoint, m_earlier[r].front().atPoint,
                m_c.m_options.thresholdPercent);
    }
}

} // namespace RankScope
