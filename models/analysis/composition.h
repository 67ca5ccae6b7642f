// SPDX-License-Identifier: MIT
#pragma once

#include "categories.h"
#include "devicehistory.h"
#include "sitetable.h"

#include <span>
#include <vector>

namespace RankScope {

/// The site a stack of one rank's snapshot has in a comparison, for every stack its history allocates at or fails
/// to allocate at; NoSite for any other.
using StackSites = std::vector<SiteId>;
constexpr SiteId NoSite = 0xffffffffu;

/// What one site holds on a rank at a moment.
struct Holding
{
    SiteId site = 0;
    int64_t bytes = 0;
    int64_t count = 0;
    /// The category holding most of the site's bytes.
    Category category = Category::Other;
};

/// What fills one rank's GPU at one moment, by category and by site: everything it holds, not only what it holds
/// beyond a baseline. Sites are the comparison's sites, so they are the ones its findings name.
struct Composition
{
    EventIndex event = BeforeTrace;
    int64_t totalBytes = 0;
    CategoryBytes categoryBytes {};
    /// Largest first (then by site id, so equal holdings keep one order).
    std::vector<Holding> sites;

    static Composition at(const DeviceHistory& history, const std::vector<Category>& categories,
        const StackSites& sites, EventIndex event);
};

/// The peak a rank's curve would have reached had some of its allocations not been made: the trace replayed
/// without them, exact for allocated bytes. For a rank that ran out of memory, each failed request counts as
/// allocated at its OOM (what the rank needed), and goes with its site and category. Immutable after construction;
/// the candidates of one call are computed on the part pool.
class WhatIf
{
public:
    struct Candidate
    {
        enum Kind
        {
            Site,
            CategoryOf,
        };
        Kind kind = Site;
        SiteId site = 0;
        Category category = Category::Other;
        bool operator==(const Candidate&) const = default;
    };
    struct Result
    {
        Candidate without;
        int64_t peakBytes = 0;
        /// The peak with everything minus peakBytes.
        int64_t savedBytes = 0;
        /// A failed request goes with these allocations (so what is saved can exceed what they hold).
        bool withRequest = false;
    };

    WhatIf(const DeviceHistory& history, const std::vector<Category>& categories, const StackSites& sites);

    /// The highest total with every allocation and failed request: what the rank needed at most.
    int64_t peakBytes() const
    {
        return m_peak;
    }
    std::vector<Result> without(std::span<const Candidate> candidates) const;
    /// The peak without the allocations `dropped` (indices into the history's allocations, any order) and, where
    /// `droppedRequests[k]` is set, the failed request of the k-th OOM.
    int64_t peakWithout(std::span<const uint32_t> dropped, const std::vector<uint8_t>& droppedRequests) const;
    /// The category a failed request is counted in: the one holding most at its site on this rank, else other.
    Category requestCategory(size_t oom) const
    {
        return m_requestCategories[oom];
    }

private:
    // The highest net total over positions [from, to) (position p is the state after event p - 1).
    int64_t maxNet(size_t from, size_t to) const;

    const DeviceHistory& m_history;
    const std::vector<Category>& m_categories;
    const StackSites& m_sites;
    std::vector<Category> m_requestCategories;
    // Net totals by position (0: before the trace) and their maxima per block of positions.
    std::span<const int64_t> m_net;
    std::vector<int64_t> m_blockMax;
    int64_t m_peak = 0;
};

} // namespace RankScope
