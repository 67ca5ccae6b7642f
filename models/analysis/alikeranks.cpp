// SPDX-License-Identifier: MIT
#include "alikeranks.h"

#include "comparison.h"

#include <algorithm>
#include <cstdlib>

namespace RankScope {

namespace {

// Within `percent` of `scale`: the comparison's own test of a rank against its baseline.
bool near(int64_t a, int64_t b, int64_t scale, double percent)
{
    return double(std::llabs(a - b)) <= percent / 100.0 * double(std::max<int64_t>(scale, 0));
}

// Each item joins the first group whose first member it is alike with: a group's figures are its first member's,
// so every member is alike with what the group says, never only with a neighbour.
template <typename Alike>
std::vector<AlikeRanks::Group> groupedAll(size_t count, std::vector<size_t>& groupOf, const Alike& alike)
{
    std::vector<size_t> items(count);
    for (size_t i = 0; i < count; ++i)
        items[i] = i;
    std::vector<AlikeRanks::Group> groups = AlikeRanks::grouped(items, alike);
    groupOf.assign(count, 0);
    for (size_t g = 0; g < groups.size(); ++g) {
        for (size_t i : groups[g].members)
            groupOf[i] = g;
    }
    return groups;
}

} // namespace

bool AlikeRanks::alike(const RankSummary& a, const RankSummary& b, double percent)
{
    const int64_t held = std::max({ a.bytesAtPoint, b.bytesAtPoint, a.peakAllocatedBytes, b.peakAllocatedBytes });
    if (a.traceIncomplete != b.traceIncomplete || (a.oomEvents > 0) != (b.oomEvents > 0))
        return false;
    if (!near(a.bytesAtPoint, b.bytesAtPoint, held, percent)
        || !near(a.peakAllocatedBytes, b.peakAllocatedBytes, held, percent)
        || !near(a.reservedAtPoint, b.reservedAtPoint, std::max(a.reservedAtPoint, b.reservedAtPoint), percent)
        || !near(a.excessBytes, b.excessBytes, held, percent))
        return false;
    return alikeRequests(a, b, percent);
}

bool AlikeRanks::alikeRequests(const RankSummary& a, const RankSummary& b, double percent)
{
    if ((a.oomEvents > 0) != (b.oomEvents > 0))
        return false;
    if (a.oomEvents == 0)
        return true;
    const int64_t held = std::max({ a.bytesAtPoint, b.bytesAtPoint, a.peakAllocatedBytes, b.peakAllocatedBytes });
    const int64_t asked = std::max(a.oomRequestedBytes, b.oomRequestedBytes);
    return a.oomSite == b.oomSite && near(a.oomRequestedBytes, b.oomRequestedBytes, asked, percent)
        && near(a.oomDeviceFreeBytes, b.oomDeviceFreeBytes, std::max(asked, held), percent);
}

bool AlikeRanks::alike(const Finding& a, const Finding& b, double percent)
{
    return a.device == b.device && a.site == b.site && a.kind == b.kind && a.category == b.category
        && near(a.excessBytes, b.excessBytes, std::max(a.rankBytes, b.rankBytes), percent);
}

bool AlikeRanks::alikeHost(const RankSummary& a, const RankSummary& b, double percent)
{
    const HostMemory& x = a.host;
    const HostMemory& y = b.host;
    return x.recorded && y.recorded
        && near(x.reservedBytes, y.reservedBytes, std::max(x.reservedBytes, y.reservedBytes), percent)
        && near(x.allocatedBytes, y.allocatedBytes, std::max(x.allocatedBytes, y.allocatedBytes), percent)
        && near(
            x.peakAllocatedBytes, y.peakAllocatedBytes, std::max(x.peakAllocatedBytes, y.peakAllocatedBytes), percent);
}

size_t AlikeRanks::several(const std::vector<Group>& groups)
{
    return size_t(std::count_if(groups.begin(), groups.end(), [](const Group& g) { return g.members.size() > 1; }));
}

AlikeRanks AlikeRanks::of(const Comparison& c)
{
    const double percent = c.options().thresholdPercent;
    AlikeRanks out;
    const std::vector<RankSummary>& ranks = c.ranks();
    out.groups = groupedAll(
        ranks.size(), out.groupOf, [&](size_t first, size_t i) { return alike(ranks[first], ranks[i], percent); });
    const std::vector<Finding>& findings = c.findings();
    out.findingGroups = groupedAll(findings.size(), out.findingGroupOf,
        [&](size_t first, size_t i) { return alike(findings[first], findings[i], percent); });
    return out;
}

} // namespace RankScope
