// SPDX-License-Identifier: MIT
#include "annotationranges.h"

#include "formatting.h"
#include "profilerstep.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace RankScope::AnnotationRanges {

QString name(const DeviceHistory& history, const AnnotationSpan& span)
{
    return Formatting::text(history.snapshot().strings.view(span.name));
}

bool isRange(const DeviceHistory& history, const AnnotationSpan& span)
{
    // Without times every span maps to the start of the trace: a range there would say nothing.
    return history.hasTimes() && (span.hasStart || span.hasEnd)
        && !ProfilerStep::number(history.snapshot().strings.view(span.name));
}

bool any(const DeviceHistory& history)
{
    return std::any_of(history.annotations().begin(), history.annotations().end(),
        [&](const AnnotationSpan& span) { return isRange(history, span); });
}

std::pair<EventIndex, EventIndex> extent(const DeviceHistory& history, const AnnotationSpan& span)
{
    const EventIndex first = span.hasStart ? span.startEvent : BeforeTrace;
    const EventIndex end = span.hasEnd ? span.endEvent + 1 : EventIndex(history.eventCount());
    return { first, std::max(first, end) };
}

std::vector<Placed> place(const DeviceHistory& history, int maxRows)
{
    maxRows = std::max(maxRows, 1);
    constexpr int64_t Open = std::numeric_limits<int64_t>::max();
    struct Range
    {
        int64_t start;
        int64_t end;
        uint32_t span;
    };
    std::vector<Range> ranges;
    const std::vector<AnnotationSpan>& spans = history.annotations();
    for (size_t i = 0; i < spans.size(); ++i) {
        const AnnotationSpan& s = spans[i];
        if (isRange(history, s))
            ranges.push_back({ s.hasStart ? s.startUs : -Open, s.hasEnd ? s.endUs : Open, uint32_t(i) });
    }
    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
        return a.start != b.start ? a.start < b.start : a.end != b.end ? a.end > b.end : a.span < b.span;
    });
    // Times, not events: back-to-back collectives between the same two events follow each other, they do not nest.
    std::vector<int64_t> rowEnd(size_t(maxRows), -Open);
    std::vector<Placed> placed;
    placed.reserve(ranges.size());
    for (const Range& r : ranges) {
        int row = maxRows - 1;
        for (int i = 0; i < maxRows; ++i) {
            if (rowEnd[size_t(i)] <= r.start) {
                row = i;
                break;
            }
        }
        rowEnd[size_t(row)] = std::max(rowEnd[size_t(row)], r.end);
        placed.push_back({ r.span, row });
    }
    return placed;
}

std::vector<Strip> layout(const DeviceHistory& history, const std::vector<Placed>& placed,
    const std::function<double(EventIndex)>& x, double left, double right)
{
    int rows = 0;
    for (const Placed& p : placed)
        rows = std::max(rows, p.row + 1);
    std::vector<std::vector<Strip>> byRow(static_cast<size_t>(rows));
    const std::vector<AnnotationSpan>& spans = history.annotations();
    for (const Placed& p : placed) {
        const AnnotationSpan& span = spans[p.span];
        const auto [first, end] = extent(history, span);
        double from = x(first);
        double to = x(end);
        if (to < left || from > right)
            continue;
        from = std::max(from, left);
        to = std::min(to, right);
        const bool narrow = to - from < MinWidth;
        std::vector<Strip>& row = byRow[size_t(p.row)];
        if (!row.empty()) {
            Strip& last = row.back();
            const bool sameName = last.oneName && spans[last.span].name == span.name;
            // Less than a pixel apart: a burst of collectives is one strip, not a comb of lines.
            const bool touches = from - last.right < 1;
            if (touches && narrow && (last.narrow || sameName)) {
                last.right = std::max(last.right, to);
                last.oneName = sameName;
                ++last.count;
                continue;
            }
        }
        Strip strip;
        strip.span = p.span;
        strip.narrow = narrow;
        strip.row = p.row;
        strip.left = from;
        strip.right = to;
        row.push_back(strip);
    }
    std::vector<Strip> strips;
    for (std::vector<Strip>& row : byRow)
        strips.insert(strips.end(), row.begin(), row.end());
    return strips;
}

} // namespace RankScope::AnnotationRanges
