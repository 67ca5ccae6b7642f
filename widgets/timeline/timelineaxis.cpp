// SPDX-License-Identifier: MIT
#include "timelineaxis.h"

#include "profilerstep.h"
#include "tracealignment.h"

#include <algorithm>
#include <cmath>

namespace RankScope {

TimelineAxis::TimelineAxis(TimelineView::XAxis axis, DeviceHistoryPtr history, TimelineView::Anchors anchors)
    : m_axis(axis)
    , m_history(std::move(history))
    , m_aligned(std::move(anchors))
{
    if (m_axis != TimelineView::StepAxis)
        return;
    const auto list = steps(*m_history);
    if (list.empty())
        return;
    m_firstStep = list.front().second;
    for (const auto& [event, number] : list) {
        if (m_stepBounds.empty() || event > m_stepBounds.back())
            m_stepBounds.push_back(event);
    }
    m_stepBounds.push_back(std::max(m_stepBounds.back() + 1, EventIndex(m_history->eventCount()) - 1));
}

std::vector<std::pair<EventIndex, int64_t>> TimelineAxis::steps(const DeviceHistory& history)
{
    std::vector<std::pair<EventIndex, int64_t>> steps;
    for (const ProfilerStep::Step& step : ProfilerStep::steps(history)) {
        if (step.span->hasStart)
            steps.emplace_back(step.span->startEvent, step.number);
    }
    std::sort(steps.begin(), steps.end());
    return steps;
}

std::vector<TimelineView::Anchors> TimelineAxis::align(
    const std::vector<TimelineTrack>& tracks, const SiteOptions& site)
{
    std::vector<TimelineView::Anchors> anchors(tracks.size());
    if (tracks.size() < 2)
        return anchors;
    std::vector<DeviceHistoryPtr> histories;
    for (const TimelineTrack& t : tracks)
        histories.push_back(t.history);
    // 512 moments: finer than any plot is wide, and a few milliseconds even on million-event traces.
    const TraceAlignment alignment(histories, site);
    for (size_t i = 1; i < tracks.size(); ++i) {
        std::vector<std::pair<EventIndex, EventIndex>> pairs = alignment.anchors(0, i, 512);
        anchors[i] = std::make_shared<const std::vector<std::pair<EventIndex, EventIndex>>>(std::move(pairs));
    }
    return anchors;
}

double TimelineAxis::key(EventIndex event) const
{
    const DeviceHistory& h = *m_history;
    if (m_axis == TimelineView::EventAxis || (m_axis == TimelineView::StepAxis && m_stepBounds.empty()))
        return double(event);
    if (m_axis == TimelineView::AlignedAxis)
        return alignedKey(event);
    if (m_axis == TimelineView::StepAxis) {
        // Step i spans its start to the next step's start: x = first step + i + the fraction of the way through.
        const auto it = std::upper_bound(m_stepBounds.begin(), m_stepBounds.end(), event);
        if (it == m_stepBounds.begin())
            return double(m_firstStep) - 1 + double(event + 1) / double(m_stepBounds.front() + 1);
        const size_t i = size_t(it - m_stepBounds.begin()) - 1;
        if (i + 1 >= m_stepBounds.size())
            return double(m_firstStep) + double(i) + double(event - m_stepBounds[i]) * 1e-9;
        return double(m_firstStep) + double(i)
            + double(event - m_stepBounds[i]) / double(m_stepBounds[i + 1] - m_stepBounds[i]);
    }
    const EventIndex n = EventIndex(h.eventCount());
    if (n == 0)
        return 0;
    const int64_t t0 = h.timeUs(0);
    return double(h.timeUs(std::clamp<EventIndex>(event, 0, n - 1)) - t0) / 1e6;
}

// Between two anchors, events are spread evenly; before the first and after the last they keep their spacing.
double TimelineAxis::alignedKey(EventIndex event) const
{
    if (!m_aligned || m_aligned->empty())
        return double(event);
    const auto& v = *m_aligned;
    const auto next =
        std::upper_bound(v.begin(), v.end(), event, [](EventIndex e, const auto& anchor) { return e < anchor.second; });
    if (next == v.begin())
        return double(v.front().first + (event - v.front().second));
    const auto& [topPrev, ownPrev] = *std::prev(next);
    if (next == v.end())
        return double(topPrev + (event - ownPrev));
    return double(topPrev) + double(event - ownPrev) * double(next->first - topPrev) / double(next->second - ownPrev);
}

EventIndex TimelineAxis::eventAt(double key) const
{
    const EventIndex n = EventIndex(m_history->eventCount());
    if (m_axis == TimelineView::EventAxis)
        return std::clamp<EventIndex>(EventIndex(std::floor(key)), BeforeTrace, n - 1);
    // Keys only grow with the event (times, steps), so the event at a key is found by bisection.
    EventIndex lo = 0, hi = n;
    while (lo < hi) {
        const EventIndex mid = (lo + hi) / 2;
        if (this->key(mid) <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return std::clamp<EventIndex>(lo - 1, BeforeTrace, n - 1);
}

} // namespace RankScope
