// SPDX-License-Identifier: MIT
#include "comparisonphases.h"

#include <algorithm>
#include <string>

namespace RankScope {

void ReplicaGroups::setGroups(const std::optional<ParallelLayout>& layout)
{
    m_c.m_layout = layout;
    m_c.m_groups.clear();
    if (!layout) {
        m_groupMembers.assign(1, {});
        for (size_t r = 0; r < m_rankCount; ++r)
            m_groupMembers[0].push_back(r);
        m_c.m_groups.push_back({ "all", {}, 0, {} });
        for (const RankInput& in : m_inputs)
            m_c.m_groups[0].ranks.push_back(in.rank);
        return;
    }
    m_groupMembers.assign(size_t(layout->groupCount()), {});
    m_c.m_groups.resize(m_groupMembers.size());
    for (size_t g = 0; g < m_groupMembers.size(); ++g)
        m_c.m_groups[g].name = layout->groupName(int(g));
    for (size_t r = 0; r < m_rankCount; ++r) {
        const auto g = size_t(layout->group(m_inputs[r].rank));
        m_groupMembers[g].push_back(r);
        m_c.m_groups[g].ranks.push_back(m_inputs[r].rank);
    }
}

std::optional<ParallelLayout> ReplicaGroups::suggestLayout() const
{
    // Ranks that run different parts of the model hold activations or model state at different sites, or
    // different amounts of model state. Work outside the training step (evaluation, metrics) never counts: it is
    // what an imbalance looks like, not a layout.
    std::vector<std::pair<int, size_t>> byRank; // (rank, index)
    for (size_t r = 0; r < m_rankCount; ++r)
        byRank.push_back({ m_inputs[r].rank, r });
    std::sort(byRank.begin(), byRank.end());
    for (size_t i = 0; i < byRank.size(); ++i) {
        if (byRank[i].first != int(i))
            return std::nullopt; // ranks 0 … N-1 only
    }
    std::vector<int64_t> model(m_rankCount, 0);
    std::vector<std::vector<SiteId>> sites(m_rankCount);
    for (size_t r = 0; r < m_rankCount; ++r) {
        model[r] = modelStateBytes(m_c.m_ranks[r].categoryBytes);
        // Per site, its activations and model state; a site counts when they are more than the threshold of what
        // the rank holds (a trace cut by an OOM can tell a small temporary from an activation no better than a
        // guess, and a layout is never made of such doubts).
        std::vector<std::pair<SiteId, int64_t>> held;
        const std::span<const Allocation> allocations = m_c.m_histories[r]->allocations();
        for (const Live& l : m_live[r]) {
            const Category category = (*m_c.m_categories[r])[l.allocation];
            if (!isModelState(category) && category != Category::Activation)
                continue;
            if (held.empty() || held.back().first != l.site)
                held.push_back({ l.site, 0 });
            held.back().second += allocations[l.allocation].size;
        }
        for (const auto& [site, bytes] : held) {
            if (beyondThreshold(bytes, m_c.m_ranks[r].bytesAtPoint, m_c.m_options.thresholdPercent))
                sites[r].push_back(site);
        }
    }
    // Model state in clusters: sorted, a new cluster wherever the next rank holds more than the threshold above.
    std::vector<size_t> order(m_rankCount);
    for (size_t r = 0; r < m_rankCount; ++r)
        order[r] = r;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return model[a] < model[b]; });
    std::vector<int> cluster(m_rankCount, 0);
    for (size_t i = 1; i < order.size(); ++i) {
        const int64_t step = model[order[i]] - model[order[i - 1]];
        cluster[order[i]] = cluster[order[i - 1]]
            + (beyondThreshold(step, model[order[i - 1]], m_c.m_options.thresholdPercent) ? 1 : 0);
    }
    // Group number per rank, in rank order of first appearance.
    std::vector<int> group(m_rankCount, -1);
    std::vector<size_t> firstOf;
    for (const auto& [rank, r] : byRank) {
        for (size_t g = 0; g < firstOf.size(); ++g) {
            if (cluster[firstOf[g]] == cluster[r] && sites[firstOf[g]] == sites[r]) {
                group[size_t(rank)] = int(g);
                break;
            }
        }
        if (group[size_t(rank)] < 0) {
            group[size_t(rank)] = int(firstOf.size());
            firstOf.push_back(r);
        }
    }
    const size_t k = firstOf.size();
    const size_t n = m_rankCount;
    if (k < 2 || n % k != 0 || n / k < 2)
        return std::nullopt;
    const int size = int(n / k);
    bool contiguous = true, strided = true;
    for (size_t rank = 0; rank < n; ++rank) {
        contiguous = contiguous && group[rank] == int(rank) / size;
        strided = strided && group[rank] == int(rank % k);
    }
    // Contiguous groups are pipeline stages (Megatron and torchtitan put pp outermost); groups that alternate are
    // the fastest dimension, tensor parallelism.
    std::string text = contiguous ? "pp=" + std::to_string(k) + ",dp=" + std::to_string(size)
        : strided                 ? "dp=" + std::to_string(size) + ",tp=" + std::to_string(k)
                                  : std::string();
    if (text.empty())
        return std::nullopt;
    std::optional<ParallelLayout> layout = ParallelLayout::parse(text, nullptr);
    layout->suggested = true;
    return layout;
}

void ReplicaGroups::compareGroups()
{
    for (size_t g = 0; g < m_groupMembers.size(); ++g) {
        GroupSummary& summary = m_c.m_groups[g];
        std::vector<int64_t> totals;
        for (size_t r : m_groupMembers[g])
            totals.push_back(m_c.m_ranks[r].bytesAtPoint);
        summary.bytesAtPoint = medianOf(totals);
        for (size_t c = 0; c < size_t(CategoryCount); ++c) {
            std::vector<int64_t> values;
            for (size_t r : m_groupMembers[g])
                values.push_back(m_c.m_ranks[r].categoryBytes[c]);
            summary.categoryBytes[c] = medianOf(values);
        }
    }
    Verdict& v = m_c.m_verdict;
    if (m_c.m_layout) {
        v.layout = m_c.m_layout->text();
        v.layoutSuggested = m_c.m_layout->suggested;
    }
    if (m_c.m_groups.size() < 2)
        return;
    // The group holding the most beyond the others, and what that is made of.
    const auto [heavy, heavyExcess] = heaviestGroup(m_c.m_groups, [](const GroupSummary& g) { return g.bytesAtPoint; });
    const CategoryBytes diff = groupExcessByCategory(m_c.m_groups, heavy);
    if (beyondThreshold(heavyExcess, m_c.m_groups[heavy].bytesAtPoint - heavyExcess, m_c.m_options.thresholdPercent)) {
        v.heavierGroup = m_c.m_groups[heavy].name;
        v.groupExcessBytes = heavyExcess;
        v.groupExcessCategory = Category(std::max_element(diff.begin(), diff.end()) - diff.begin());
    }
}

} // namespace RankScope
