// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"
#include "spread.h"
#include "steplog.h"

#include <string>
#include <vector>

namespace RankScope {

/// What the before/after view shows, made from two snapshot comparisons or from two step logs: each rank's memory
/// before and after, the spreads, what stood out before and whether it is gone, and the verdict.
struct BeforeAfterSummary
{
    struct Row
    {
        int rank = -1;
        int64_t before = -1; ///< -1: the rank is not in that run
        int64_t after = -1;
    };
    struct Item
    {
        std::string label; ///< a site (snapshots) or "rank R at step S (tag)" (logs)
        int64_t before = 0;
        int64_t after = 0;
        bool gone = false;
    };
    std::vector<Row> ranks;
    int64_t spreadBefore = 0;
    int64_t spreadAfter = 0;
    double spreadBeforePercent = 0;
    double spreadAfterPercent = 0;
    double thresholdPercent = 0;
    std::vector<Item> items;
    bool fixed = false;
    /// Snapshot runs: the verdicts; log runs: the divergences (absent where the ranks agree).
    std::optional<Verdict> verdictBefore;
    std::optional<Verdict> verdictAfter;
    std::optional<StepDivergence> divergenceBefore;
    std::optional<StepDivergence> divergenceAfter;
    bool fromLogs = false;

    /// Logs: fixed when no rank departs after the change and the spread of the ranks' peaks is within the
    /// threshold; the item is the "before" divergence, gone when that rank no longer departs.
    static BeforeAfterSummary fromSteps(const StepAnalysis& before, const StepAnalysis& after, double thresholdPercent);
};

/// A run before a fix against the run after it, each compared across its ranks with the same options: the ranks'
/// memory at the point side by side, the spread (max − median) before and after, and whether the top sites of the
/// "before" outlier still stand out "after". Fixed means the spread fell to the threshold or below and those sites
/// are gone.
struct BeforeAfter
{
    struct Site
    {
        std::string label;
        int64_t excessBefore = 0;
        /// The most any rank holds there beyond its baseline after the fix (0: no finding there).
        int64_t excessAfter = 0;
        bool gone = false;
    };
    ComparisonPtr before;
    ComparisonPtr after;
    int64_t spreadBefore = 0;
    int64_t spreadAfter = 0;
    double spreadBeforePercent = 0;
    double spreadAfterPercent = 0;
    std::vector<Site> topSites; ///< up to three, of the "before" verdict's rank
    bool fixed = false;

    static BeforeAfter compute(ComparisonPtr before, ComparisonPtr after);
    /// The spread of the ranks' bytes at the comparison point.
    static Spread spread(const Comparison& comparison);
    BeforeAfterSummary summary() const;
};

} // namespace RankScope
