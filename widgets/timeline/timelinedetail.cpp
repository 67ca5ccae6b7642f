// SPDX-License-Identifier: MIT
#include "timelinedetail.h"

#include "chartstyle.h"
#include "timelineaxis.h"

#include <algorithm>

namespace RankScope {

namespace {

// Per column, the bytes of the allocations of site `lit` live there that are not bands: they are too small to see,
// so the view marks where they are.
std::vector<int64_t> litBelowBands(
    const DeviceHistory& h, const TimelineLod& lod, uint64_t lit, const SiteOptions& site)
{
    std::vector<bool> isBand(h.allocations().size(), false);
    for (uint32_t b : lod.bands)
        isBand[b] = true;
    std::vector<uint32_t> hidden;
    std::vector<StackId> stacks;
    for (size_t i = 0; i < h.allocations().size(); ++i) {
        const Allocation& a = h.allocations()[i];
        if (isBand[i] || !a.liveDuring(lod.first, lod.last) || a.size <= 0)
            continue;
        hidden.push_back(uint32_t(i));
        stacks.push_back(a.stack);
    }
    // One site lookup per distinct stack.
    std::vector<StackId> distinct = stacks;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    const std::vector<SiteTable::StackSite> sites = SiteTable::sitesOf(h.snapshot(), distinct, site, false);
    std::vector<int64_t> delta(size_t(lod.columns) + 1, 0);
    bool any = false;
    for (uint32_t i : hidden) {
        const Allocation& a = h.allocations()[i];
        const size_t at = size_t(std::lower_bound(distinct.begin(), distinct.end(), a.stack) - distinct.begin());
        if (sites[at].fingerprint != lit)
            continue;
        const EventIndex from = a.allocEvent == Allocation::NoEvent ? lod.first : EventIndex(a.allocEvent);
        const EventIndex to = a.freeEvent == Allocation::NoEvent ? lod.last : EventIndex(a.freeEvent) - 1;
        if (to < from)
            continue;
        delta[size_t(lod.columnOf(from))] += a.size;
        delta[size_t(lod.columnOf(to)) + 1] -= a.size;
        any = true;
    }
    if (!any)
        return std::vector<int64_t>(size_t(lod.columns), 0);
    std::vector<int64_t> bytes(size_t(lod.columns));
    int64_t running = 0;
    for (int c = 0; c < lod.columns; ++c)
        bytes[size_t(c)] = running += delta[size_t(c)];
    return bytes;
}

} // namespace

TimelineDetail TimelineDetail::compute(const TimelineAxis& axis, const Request& request)
{
    return compute(axis, request, TimelineDetail());
}

TimelineDetail TimelineDetail::compute(const TimelineAxis& axis, const Request& r, TimelineDetail recycled)
{
    const DeviceHistoryPtr& h = axis.history();
    TimelineDetail d;
    d.lod = h->lod(r.first, r.last, r.columns, r.minBandBytes, r.maxBands, std::move(recycled.lod));
    d.runColumn = std::move(recycled.runColumn);
    d.runBottom = std::move(recycled.runBottom);
    d.runTop = std::move(recycled.runTop);
    d.runColumn.clear();
    d.runBottom.clear();
    d.runTop.clear();
    std::vector<StackId> stacks;
    for (uint32_t index : d.lod.bands)
        stacks.push_back(h->allocations()[index].stack);
    const std::vector<SiteTable::StackSite> sites = SiteTable::sitesOf(h->snapshot(), stacks, r.site, true);
    d.bands.reserve(d.lod.bands.size());
    for (size_t i = 0; i < d.lod.bands.size(); ++i) {
        Band band;
        band.allocation = d.lod.bands[i];
        band.size = h->allocations()[band.allocation].size;
        band.fingerprint = sites[i].fingerprint;
        band.siteColor = ChartStyle::siteColor(band.fingerprint);
        if (r.categories && band.allocation < r.categories->size())
            band.category = (*r.categories)[band.allocation];
        band.label = QString::fromStdString(sites[i].label);
        d.bands.push_back(std::move(band));
    }
    for (int c = 0; c <= d.lod.columns; ++c)
        d.keys.push_back(axis.key(d.lod.columnBegin(c)));
    d.valueLower = r.valueLower;
    d.valuePerPixel = std::max(r.valuePerPixel, 1e-9);
    const auto row = [&](int64_t value) {
        const double t = std::clamp((double(value) - d.valueLower) / d.valuePerPixel, -1e8, 1e8);
        return ChartStyle::nearestPixel(t);
    };
    d.runStart.reserve(d.lod.bands.size() + 1);
    // At most the decimation's runs: reserved, untouched pages cost nothing, and the arrays are never copied as they
    // grow.
    d.runColumn.reserve(d.lod.runColumn.size());
    d.runBottom.reserve(d.lod.runColumn.size());
    d.runTop.reserve(d.lod.runColumn.size());
    for (size_t k = 0; k < d.lod.bands.size(); ++k) {
        d.runStart.push_back(d.runColumn.size());
        const int64_t size = d.bands[k].size;
        int bottom = 0;
        int top = 0;
        for (size_t i = d.lod.runStart[k]; i < d.lod.runStart[k + 1]; ++i) {
            const int b = row(d.lod.runOffset[i]);
            const int t = row(d.lod.runOffset[i] + size);
            if (i == d.lod.runStart[k] || b != bottom || t != top) {
                d.runColumn.push_back(d.lod.runColumn[i]);
                d.runBottom.push_back(b);
                d.runTop.push_back(t);
                bottom = b;
                top = t;
            }
        }
    }
    d.runStart.push_back(d.runColumn.size());
    d.lit = r.lit;
    if (r.lit)
        d.litBelow = litBelowBands(*h, d.lod, *r.lit, r.site);
    return d;
}

std::pair<int, int> TimelineDetail::hitTest(double key, double value) const
{
    const auto it = std::upper_bound(keys.begin(), keys.end(), key);
    const int column = int(it - keys.begin()) - 1;
    if (column < 0 || column >= lod.columns)
        return { -1, -1 };
    for (size_t k = 0; k < bands.size(); ++k) {
        const int64_t off = lod.offset(k, column);
        if (off >= 0 && value >= double(off) && value < double(off + bands[k].size))
            return { int(k), column };
    }
    return { -1, column };
}

} // namespace RankScope
