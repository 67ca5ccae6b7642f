// SPDX-License-Identifier: MIT
#pragma once

#include "allocatorstate.h"
#include "comparison.h"

#include <array>
#include <string>
#include <vector>

namespace RankScope {

/// What the imbalance rules (burden, input, model-parallel without a layout) judge: the rank holding the most beyond
/// its baseline, and where that excess is.
struct ImbalanceEvidence
{
    bool comparable = false; ///< two ranks or more
    int outlierRank = -1;
    int64_t excessBytes = 0;
    int64_t baselineBytes = 0;
    double thresholdPercent = 0;
    bool beyond = false; ///< the excess is beyond the threshold of the baseline
    int64_t onlyBytes = 0; ///< at sites no other rank reaches
    int64_t absentBytes = 0; ///< at sites its baseline does not reach but another rank does
    int64_t sharedBytes = 0; ///< at sites its baseline reaches
    int64_t sharedModelStateBytes = 0; ///< of sharedBytes, parameters, gradients and optimizer state
    bool layout = false; ///< ranks compared within the groups of a layout
};

/// What the model-parallel rule judges where a layout splits the ranks into groups: the group holding the most
/// model state beyond the median of the others.
struct GroupsEvidence
{
    size_t groups = 0;
    size_t heavy = 0;
    std::string heavyName;
    int64_t modelStateExcessBytes = 0;
    int64_t baseBytes = 0; ///< the median of the other groups' totals
    bool beyond = false;
};

/// What the out-of-memory rules judge: the OOM examined (of the rank that ran out most often), the free space in
/// its reserve, the replicas that went past the request, the device's total when given.
struct OomEvidence
{
    std::vector<size_t> rankIndices; ///< the ranks that ran out of memory; empty: none did
    /// Those ranks grouped by their failed requests (AlikeRanks::alikeRequests); `examined` is of the first group.
    std::vector<std::vector<size_t>> requestGroups;
    size_t examined = 0;
    OomMarker oom;
    FreeSpace free;

    std::vector<int> fittingRanks;
    std::vector<int> unreachedRanks;
    int64_t deviceMemoryBytes = 0;
    int64_t outsideBytes = 0;
    Verdict::Margin margin;
};

/// What the growth rule judges: whether steps were compared, what the rules below it answered, and what grows.
struct GrowthEvidence
{
    bool steps = false; ///< some rank has earlier steps
    Verdict::Kind below = Verdict::Balanced;
    size_t growingRanks = 0; ///< ranks holding more at every step, at sites that grow
    int chosenRank = -1; ///< the rank the verdict would name
    int64_t growthBytes = 0; ///< its growth over the last step
    int64_t atGrowingSitesBytes = 0; ///< of an imbalance's excess, at sites that grow
    int64_t excessBytes = 0; ///< the imbalance's excess
    bool namedRank = true; ///< an imbalance of one rank (a group's has no single rank to follow)
};

/// What the stray-device rule judges: other ranks' allocations on one rank's GPU (the device that decides, or the
/// one holding the most of them).
struct StrayEvidence
{
    Verdict::Kind below = Verdict::Balanced;
    int64_t belowExcessBytes = 0;
    int device = -1; ///< -1: no rank allocates on another's GPU
    int64_t bytes = 0;
    int victimRank = -1;
    int64_t victimBytes = 0;
    bool victimOom = false;
    int64_t victimRequestBytes = 0;
    int64_t victimDeviceFreeBytes = 0;
    bool beyond = false;
    bool decides = false; ///< the rule applies on this device
};

/// Everything the rules are checked against, filled by the phases (comparisonphases.h).
struct RuleFacts
{
    size_t rankCount = 0;
    ImbalanceEvidence imbalance;
    GroupsEvidence groups;
    OomEvidence oom;
    GrowthEvidence growth;
    StrayEvidence stray;
};

/// The verdict's rules: one per kind, in the order of decision. Each states what it needs to apply and, checked
/// against the facts, says whether it does, the figures it judged by and, where it does not, why not. The verdict is
/// the first rule in this order that applies; a rule may override what the rules below it answer (growth an
/// imbalance that grows, a stray device an imbalance smaller than it), and says so in its condition.
class VerdictRules
{
public:
    struct Rule
    {
        Verdict::Kind kind;
        /// When it applies, in one line (the README's table of rules says the same).
        const char* condition;
        Verdict::Consideration (*check)(const RuleFacts& facts);
    };
    static constexpr size_t Count = 9;
    /// The rules, top to bottom in the order of decision.
    static const std::array<Rule, Count>& rules();
    /// The position of a kind's rule in rules().
    static size_t position(Verdict::Kind kind);
    /// The rule of `kind` checked against the facts.
    static Verdict::Consideration check(Verdict::Kind kind, const RuleFacts& facts);
    /// The first rule that applies among rules()[from…], each one's consideration written into `considered` (at its
    /// position).
    static Verdict::Kind decide(const RuleFacts& facts, size_t from, std::vector<Verdict::Consideration>& considered);
    /// How sure a verdict is, from the evidence of the rule that decided (how far past its threshold), how many
    /// ranks' traces are incomplete, whether alike ranks agree, and whether the point was picked by hand (an event or a
    /// step).
    static void judgeConfidence(Verdict& verdict, const RuleFacts& facts, int incompleteTraces, bool pointAsked);
};

} // namespace RankScope
