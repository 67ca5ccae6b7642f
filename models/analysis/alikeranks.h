// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <vector>

namespace RankScope {

class Comparison;
struct Finding;
struct RankSummary;

/// Ranks said once: the ranks of a comparison whose figures at its point (and failed requests, where they ran out of
/// memory) are alike within the comparison's threshold, and the findings of several ranks at one site that are alike,
/// from the comparison's own figures. Every output says a group once and names its exceptions (the groups of one),
/// so an answer grows with what differs, not with the number of ranks. Computed once with the comparison.
struct AlikeRanks
{
    /// Ranks alike: indices into Comparison::ranks(), in rank order; the first is the one whose figures the group
    /// gives. A rank that is like no other is a group of one.
    struct Group
    {
        std::vector<size_t> members;
        size_t first() const
        {
            return members.front();
        }
    };
    /// Every rank in exactly one group, the groups in the order of their first members.
    std::vector<Group> groups;
    /// The group of each rank, by index into Comparison::ranks().
    std::vector<size_t> groupOf;
    /// Findings alike: indices into Comparison::findings() of one device, site, kind and category whose excess is
    /// alike, the largest first; every finding in exactly one, in the order of their first (largest excess first).
    std::vector<Group> findingGroups;
    std::vector<size_t> findingGroupOf;

    static AlikeRanks of(const Comparison& comparison);
    /// Whether two ranks' figures are alike: what they hold at the point, at their peaks, reserved and beyond their
    /// baselines within the threshold of what they hold; the same trace state; and where they ran out of memory, the
    /// same site asked for alike sizes with alike free memory.
    static bool alike(const RankSummary& a, const RankSummary& b, double thresholdPercent);
    static bool alike(const Finding& a, const Finding& b, double thresholdPercent);
    /// Whether two ranks' failed requests are alike: the same site, alike sizes, alike free memory (or neither ran
    /// out of memory). Part of alike(); the verdict of an out-of-memory tells its ranks apart by it.
    static bool alikeRequests(const RankSummary& a, const RankSummary& b, double thresholdPercent);
    /// Whether two ranks' pinned host memory is alike: both recorded, reserved, allocated and peak within the
    /// threshold of the larger (host memory is never part of alike(): it is not a GPU's).
    static bool alikeHost(const RankSummary& a, const RankSummary& b, double thresholdPercent);
    /// `items` (indices) grouped by `alike(first, item)`, as the groups above are: each joins the first group whose
    /// first member it is alike with.
    template <typename Alike> static std::vector<Group> grouped(const std::vector<size_t>& items, const Alike& alike)
    {
        std::vector<Group> groups;
        for (size_t i : items) {
            auto it = groups.begin();
            while (it != groups.end() && !alike(it->first(), i))
                ++it;
            if (it == groups.end())
                groups.push_back({ { i } });
            else
                it->members.push_back(i);
        }
        return groups;
    }
    /// The groups of several ranks (or findings).
    static size_t several(const std::vector<Group>& groups);
};

} // namespace RankScope
