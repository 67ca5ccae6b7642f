// SPDX-License-Identifier: MIT
#pragma once

#include "categories.h"
#include "composition.h"
#include "devicehistory.h"
#include "deviceroles.h"
#include "parallellayout.h"
#include "phrase.h"
#include "sitetable.h"
#include "snapshotinfo.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace RankScope {

struct AlikeRanks;

/// One rank to compare: a loaded snapshot and where it came from.
struct RankInput
{
    RankInput() = default;
    RankInput(int rank, QString path, SnapshotPtr snapshot)
        : rank(rank)
        , path(std::move(path))
        , snapshot(std::move(snapshot))
    { }

    int rank = 0;
    QString path;
    SnapshotPtr snapshot;
    /// The training step the snapshot is of (iteration folders), -1 when unknown.
    int64_t step = -1;
    /// Each device's peak event (DeviceInfo::peakEventIndex) as the load found it, by device; empty when not
    /// known, and the comparison walks the trace for it.
    std::vector<int64_t> peakEvents;
    /// The same rank's snapshots at earlier steps, oldest first: what it held then, for growth across steps.
    struct EarlierStep
    {
        int64_t step = 0;
        SnapshotPtr snapshot;
    };
    std::vector<EarlierStep> earlier;
};

/// How ranks are compared.
struct ComparisonOptions
{
    /// Where each rank is looked at; unset: the rank with the highest peak there and every other rank at the same
    /// moment of its own trace (TraceAlignment), else each at its own peak, or at its snapshot when it has no trace.
    std::optional<TimelinePoint::Spec> point;
    /// Compare against this rank (A/B); -1: against the median of the other ranks.
    int baselineRank = -1;
    /// A rank is an outlier when it holds more than this percentage above the baseline.
    double thresholdPercent = 2.0;
    SiteOptions site;
    /// Compare this device of every rank; unset: every device (see DeviceRoles), the one that matters most first.
    std::optional<int> device;
    /// How the ranks are laid out over parallel dimensions; unset: guessed where the files show groups of ranks that
    /// run different parts of the model (ParallelLayout::suggested), else every rank is every other's replica.
    std::optional<ParallelLayout> layout;
    /// Patterns added to the built-in category rules.
    CategoryRules categories;
    /// Each GPU's total memory, when the user gives it (a snapshot does not record it); 0: unknown.
    int64_t deviceMemoryBytes = 0;
    /// Keep only the findings whose site from `first` to `second` of the compared ranks hold (Finding::ranksWithSite;
    /// `--present-on K[-M]`: what is on one rank only, on all but one); unset: every finding. The verdict is decided
    /// on every finding first, so it is the same with or without.
    std::optional<std::pair<int, int>> presentOn;
    /// "K" or "K-M" as `--present-on` takes it; nullopt for anything else (K from 1, M from K).
    static std::optional<std::pair<int, int>> parsePresentOn(std::string_view text);
};

/// The moment the ranks are compared at when they are aligned: one rank's event, every other rank of its replica
/// group at the same moment of its own trace, and why that moment.
struct Moment
{
    enum Reason
    {
        HighestPeak, ///< the highest peak: what runs out of memory now
        MidStep, ///< peaks alike, but a rank holds the most beyond its baseline here: what differs most
        OutOfMemory, ///< where the verdict's rank ran out of memory
        Picked, ///< a point asked for (event:N@R)
    };
    int rank = -1;
    EventIndex event = BeforeTrace;
    Reason reason = HighestPeak;
    static const char* reasonName(Reason reason);
};

/// A rank's figures at its comparison point.
struct RankSummary
{
    int rank = 0;
    QString path;
    int device = 0;
    TimelinePoint point;
    /// The point's event in the rank's file: point.event, or for a digest the event of the file it was made from.
    EventIndex sourceEvent = BeforeTrace;
    int64_t peakAllocatedBytes = 0;
    int64_t bytesAtPoint = 0;
    int64_t reservedAtPoint = 0;
    /// bytesAtPoint minus the baseline (median of the other ranks, or the baseline rank).
    int64_t excessBytes = 0;
    /// At the comparison point, as PyTorch's own OOM message words it (and the block maps show it): reserved by
    /// PyTorch but unallocated, and the largest free block in the reserve.
    int64_t unallocatedBytes = 0;
    int64_t largestFreeBytes = 0;
    /// bytesAtPoint by category.
    CategoryBytes categoryBytes {};
    /// Coordinates in the layout (one per dimension of Comparison::layout()), empty without one.
    std::vector<int> coordinates;
    /// The replica group (index into Comparison::groups()).
    int group = 0;
    /// The rank whose peak (or chosen moment) this one is looked at the same moment of (itself for that rank), -1 at
    /// its own point.
    int alignedTo = -1;
    /// Over the whole trace aligned with its replicas: the most it holds beyond its baseline at one moment, and
    /// where (its own event); 0 and BeforeTrace where the traces could not be aligned.
    int64_t alignedExcessBytes = 0;
    EventIndex alignedExcessEvent = BeforeTrace;
    int64_t oomEvents = 0;
    /// The last failed allocation, when the rank ran out of memory: its size, what the driver still had free, and
    /// where it was asked for (its site in this comparison and the stack as recorded).
    int64_t oomRequestedBytes = 0;
    int64_t oomDeviceFreeBytes = 0;
    EventIndex oomEvent = BeforeTrace;
    SiteId oomSite = NoSite;
    StackId oomStack = EmptyStack;
    bool traceIncomplete = false;
    /// With earlier steps: the rank's peak at each step, oldest first, this one last (step, bytes).
    std::vector<std::pair<int64_t, int64_t>> peakPerStep;
    /// With earlier steps: what the rank holds at its point beyond the same moment of the previous step.
    int64_t growthBytes = 0;
    /// Why the rank is not at the requested point, when it is not (no OOM, no such step …).
    Phrase note;
    /// The rank's pinned host memory, when its file recorded it: shown beside the GPU, never compared.
    HostMemory host;
};

/// An address range of extra allocations, for outlining on the block map.
struct FindingRun
{
    uint64_t address = 0;
    int64_t size = 0;
    /// Base address of the segment holding it at the comparison point (0 when unknown).
    uint64_t segment = 0;
};

/// What one rank holds at one site beyond its baseline.
struct Finding
{
    enum Kind
    {
        OnlyOnRank, ///< no other compared rank allocates at this site
        MoreOnRank, ///< more allocations at this site than the baseline (which may have none while other ranks do)
        LargerOnRank, ///< as many allocations, larger
        ForeignDevice, ///< on another rank's GPU (shared device numbering): all of it is extra
        Growth, ///< more than at the same moment of the previous step, and more at every step before
    };
    int rank = 0;
    /// The device the allocations are on.
    int device = 0;
    Kind kind = OnlyOnRank;
    SiteId site = 0;
    int64_t excessBytes = 0;
    int64_t rankBytes = 0;
    int64_t baselineBytes = 0;
    int64_t rankCount = 0;
    int64_t baselineCount = 0;
    /// The category holding most of the rank's bytes at this site.
    Category category = Category::Other;
    /// How many of the compared ranks, this one included, hold allocations at this site.
    int ranksWithSite = 1;
    /// One allocation stack of the rank's snapshot at this site, for showing the unfiltered stack.
    StackId stack = EmptyStack;
    /// The rank's extra blocks: all of the site's for only/larger, the most recently allocated ones for more.
    std::vector<FindingRun> blocks;
    /// The blocks merged where they are address-adjacent inside one segment.
    std::vector<FindingRun> runs;
    /// The private pools (CUDA graphs, MemPool) the extra blocks are in, in order; empty when all are in the default
    /// pool.
    std::vector<std::pair<int64_t, int64_t>> privatePools;

    static const char* kindName(Kind kind);
};

/// The answer to "why this rank?".
struct Verdict
{
    enum Kind
    {
        Balanced,
        BurdenImbalance, ///< the outlier does work the others do not
        InputImbalance, ///< the outlier's tensors are larger or more numerous at shared sites
        OutsideAllocator, ///< allocations agree with ranks that fit, or the device's total shows memory outside
        OverCapacity, ///< every rank that ran out of memory holds about the same, and nothing shows memory outside
        StrayDevice, ///< other ranks' allocations sit on this rank's GPU
        Fragmentation, ///< an OOM with enough free memory in reserve, but no free block as large as the request
        ModelParallelImbalance, ///< parameters, gradients or optimizer state differ between stages or shards
        Growth, ///< a rank holds more at every step: tensors kept from one step to the next
    };
    Kind kind = Balanced;
    int rank = -1;
    /// The device the verdict is about; -1 when every rank uses one device and it goes without saying.
    int device = -1;
    /// For StrayDevice: the ranks whose allocations sit on `device`.
    std::vector<int> culpritRanks;
    int64_t excessBytes = 0;
    /// The figures VerdictText words the explanation and remedy from. The outlier is the rank holding the most beyond
    /// its baseline (for OutsideAllocator it may differ from `rank`, the rank that ran out of memory).
    int rankCount = 0;
    int outlierRank = -1;
    int64_t outlierExcessBytes = 0;
    int64_t baselineBytes = 0;
    int baselineRank = -1; ///< -1: the median of the other ranks
    std::string point;
    double thresholdPercent = 0;
    int64_t onlyBytes = 0; ///< the outlier's excess at sites no other rank reaches
    int64_t absentBytes = 0; ///< at sites its baseline does not reach but another rank does
    int64_t sharedBytes = 0; ///< at sites its baseline reaches
    struct TopSite
    {
        std::string label;
        int64_t excessBytes = 0;
        int kind = 0; ///< Finding::Kind
    };
    std::vector<TopSite> topSites;
    /// The failed request of the verdict's rank (for OverCapacity and a fragmentation of several ranks: of
    /// `figuresRank`), when it ran out of memory: size, reserve, what the driver had free, and its site's label.
    int64_t oomRequestedBytes = 0;
    int64_t oomReservedBytes = 0;
    int64_t oomDeviceFreeBytes = 0;
    std::string oomSite;
    /// For the verdicts of an out-of-memory (OverCapacity, OutsideAllocator, Fragmentation): the ranks that ran out
    /// of memory. `figuresRank`: the rank whose figures a verdict about several ranks alike gives (`rank` is -1
    /// then: none of them stands out from the others).
    std::vector<int> oomRanks;
    int figuresRank = -1;
    /// Where those ranks' failed requests differ (AlikeRanks::alikeRequests): the ranks grouped by them, each group
    /// with its figures (of its rank `figuresRank`); the first is the group that stands out (the fewest ranks, then
    /// the largest request), whose figures the verdict gives. Empty where they asked alike.
    struct OomGroup
    {
        std::vector<int> ranks;
        int figuresRank = -1;
        int64_t requestedBytes = 0;
        int64_t deviceFreeBytes = 0;
    };
    std::vector<OomGroup> oomGroups;
    /// For an imbalance of a group of ranks alike (within the threshold) against the rest of their replica group:
    /// the rest (the group is `groupRanks`), and the layout their pattern fits (contiguous groups pp=K,dp=N/K,
    /// alternating dp=N/K,tp=K), "" when none does.
    std::vector<int> otherRanks;
    std::string fittingLayout;
    /// The moment compared (see Moment) and, when it is not the highest peak, what the highest peak showed: its
    /// most-above-baseline rank and by how much, and the category most of that rank's memory there was.
    Moment moment;
    int peakOutlierRank = -1;
    int64_t peakOutlierExcessBytes = 0;
    Category peakCategory = Category::Other;
    /// For Growth: the rank's growth over the steps is under the threshold, but its growing sites are what set it
    /// apart from the other ranks.
    bool growthUnderThreshold = false;
    /// For OutsideAllocator, what shows memory outside PyTorch: replicas doing the same work that did not run out of
    /// memory (`fittingRanks`), or the device's total given (`outsideBytes` beyond `contextAllowanceBytes`).
    enum Evidence
    {
        NoEvidence,
        ReplicasFit,
        DeviceTotal,
    };
    Evidence evidence = NoEvidence;
    std::vector<int> fittingRanks;
    /// Replicas that did not run out of memory but never reached the request that failed (their traces end
    /// before it, or a digest cannot show it): whether it would have fit there, the files cannot tell.
    std::vector<int> unreachedRanks;
    /// What a CUDA context and NCCL's buffers usually hold outside PyTorch's allocator, and so are not taken for
    /// memory held by something else: a context takes 0.3-1 GiB (GPU, driver, lazy module loading), NCCL's
    /// communicators 0.2-1 GiB (channels, peers, NVLS).
    static constexpr int64_t contextAllowanceBytes = int64_t(2) << 30;
    /// For OverCapacity: what fills the GPU at the OOM (`heldBytes` in all, by category; `topSites` its largest
    /// sites) and what the rank needed there (held plus the failed request).
    CategoryBytes heldByCategory {};
    int64_t neededBytes = 0;
    /// What would bring the peak down, the most bytes first: each with the bytes it addresses at the OOM and, where
    /// one site or category stands for it, the peak without them (WhatIf; 0: none, as on a digest).
    struct Remedy
    {
        enum Kind
        {
            ChunkedLoss, ///< the failed request computes a loss or its logits
            ActivationCheckpointing, ///< activations fill much of the GPU
            ShardModelState, ///< parameters, gradients and optimizer state do
            Defragment, ///< free space split between live blocks
            RebalanceStages, ///< the ranks that ran out of memory are the stage (or shard) holding the most
            ExpandableSegments, ///< the request missed by less than lay stranded in the reserve, and they were off
            RaiseLimit, ///< the device still had the request free: the process's own limit refused it
        };
        Kind kind = ActivationCheckpointing;
        int64_t bytes = 0;
        int64_t peakWithoutBytes = 0;
        int64_t savedBytes = 0; ///< the peak with everything minus peakWithoutBytes
        std::string label; ///< ChunkedLoss: the site
        /// Against the margin's shortfall: 1 where this remedy alone would have closed it (with `spareBytes` to
        /// spare), 0 where it would not, -1 where the files give no figure for what it saves.
        int closesGap = -1;
        int64_t spareBytes = 0;
        static const char* kindName(Kind kind);
    };
    std::vector<Remedy> remedies;
    /// How close an out-of-memory came to fitting, from the figures of the rank's failed request: what it needed
    /// (held + request), what the GPU offered (PyTorch's reserve + the device's free memory), how much more the request
    /// was than the device had free, and what lay unused in the reserve (in gaps between live blocks, the largest
    /// `largestGapBytes`, in `strandedSegments` segments).
    struct Margin
    {
        enum Outcome
        {
            None, ///< no out-of-memory to measure
            ShortOfBytes, ///< more than the device had free and the reserve's gaps held together
            NotInOnePiece, ///< the reserve's gaps held more than the request lacked, in no piece it could use
            NotReached, ///< the device had the request free: another limit refused it
        };
        Outcome outcome = None;
        int rank = -1;
        int64_t requestedBytes = 0;
        int64_t heldBytes = 0;
        int64_t reservedBytes = 0;
        int64_t deviceFreeBytes = 0;
        int64_t neededBytes = 0;
        int64_t offeredBytes = 0;
        int64_t shortBytes = 0;
        int64_t strandedBytes = 0;
        int64_t largestGapBytes = 0;
        int strandedSegments = 0;
        bool expandableSegments = false; ///< the rank ran with expandable segments
        /// The most a peak could have been for the request to succeed: what the GPU offered less what lay stranded
        /// (0 where no peak says so: no OOM, or the device was not full).
        int64_t fitBytes() const
        {
            return outcome == ShortOfBytes || outcome == NotInOnePiece ? offeredBytes - strandedBytes : 0;
        }
        static const char* outcomeName(Outcome outcome);
        /// The margin of `history`'s last OOM (None without one), of rank `rank`.
        static Margin of(const DeviceHistory& history, int rank);
    };
    Margin margin;
    /// One rule of the decision (VerdictRules), as it was checked: whether its kind applies, the figures it judged
    /// by, and why not where it does not.
    struct Figure
    {
        enum Unit
        {
            Bytes,
            Count,
            Rank,
            Percent,
        };
        std::string key;
        Unit unit = Bytes;
        int64_t value = 0;
        double percent = 0; ///< for Percent
    };
    struct Consideration
    {
        enum WhyNot
        {
            Applies,
            OneRank, ///< nothing to compare it with
            BelowThreshold, ///< the largest excess is within the threshold
            SharedSitesMost, ///< most of the excess is at sites the baseline has too
            OwnSitesMost, ///< most of the excess is at sites the baseline does not have
            ModelStateShared, ///< the larger tensors are model state: shards of an uneven split
            NoGroups, ///< no layout splits the ranks, and model state is not most of the excess
            GroupsAlike, ///< the groups' model state differs within the threshold
            NoOom, ///< no rank ran out of memory
            FreeBelowRequest, ///< the reserve's free space was less than the request
            BlockLargeEnough, ///< a free block as large as the request was there
            NoOutsideEvidence, ///< no replica went past the request, and the device's total was not given
            OutsideWithinAllowance, ///< what is neither reserved nor free is what a context and NCCL take
            ExplainedOtherwise, ///< fragmentation or memory outside explains the out-of-memory
            NoSteps, ///< one training step: growth needs two or more
            NothingGrows, ///< no rank holds more at every step
            ExcessNotGrowing, ///< the imbalance's excess is mostly at sites that do not grow
            OutranksGrowth, ///< the answer below is not one growth overrides
            NoForeign, ///< no rank allocates on another rank's GPU
            StrayWouldNotFit, ///< without the others' memory the request still would not have fit
            StraySmaller, ///< the imbalance on the ranks' own GPUs is larger
            RankStandsOut, ///< a rank holds more than the threshold beyond its baseline
            RanksRanOut, ///< ranks ran out of memory
            GroupsDiffer, ///< a group holds more model state than the others
        };
        Kind kind = Balanced;
        bool applies = false;
        WhyNot whyNot = Applies;
        std::vector<Figure> evidence;
        /// The figure named `key`, 0 without it.
        int64_t figure(const std::string& key) const;
    };
    /// Every rule, in the order of decision (VerdictRules::rules()).
    std::vector<Consideration> considered;
    /// How sure the verdict is, and what says so.
    enum Confidence
    {
        High,
        Medium,
        Low,
    };
    struct ConfidenceFactor
    {
        enum Kind
        {
            PastThreshold, ///< the deciding figure is `value` tenths of its threshold (or of its own bound)
            NearThreshold, ///< within twice its threshold
            TracesIncomplete, ///< `value` ranks' traces lost their start
            PointAsked, ///< the user chose the point
            AlikeAgree, ///< `value` ranks alike agree
            Unreached, ///< `value` replicas never reached the request
            OneRankOnly, ///< nothing to compare with
            MixedExcess, ///< the excess is split between own and shared sites (`value` percent the larger part)

            GrowthUnderThreshold, ///< the growth over the steps is under the threshold
            FewSteps, ///< only `value` steps
            ExplainedByFigures, ///< an out-of-memory whose figures decide it (fragmentation, replicas, the device
                                ///< total)
            DeviceNotFull, ///< the device still had the failed request free: a limit refused it, not the GPU
            DeviceTotalUnknown, ///< one rank out of memory, no device total: memory outside cannot be ruled out
            WellWithin, ///< balanced: the largest excess is `value` percent of the threshold
        };
        Kind kind = PastThreshold;
        int64_t value = 0;
    };
    Confidence confidence = High;
    std::vector<ConfidenceFactor> confidenceFactors;
    static const char* confidenceName(Confidence confidence);
    /// For OutsideAllocator with the device's total memory given: that total, and what is neither PyTorch's reserve
    /// nor free (total - reserved - device_free).
    int64_t deviceMemoryBytes = 0;
    int64_t outsideBytes = 0;
    /// For the verdicts of an out-of-memory: the least the GPU must have, from the files alone: PyTorch's reserve and
    /// the free memory at the OOM, or the most PyTorch reserved at once, whichever is more.
    int64_t deviceSeenBytes = 0;
    /// A single rank (nothing to compare it with): what it holds at its point; topSites are its largest sites.
    int64_t heldBytes = 0;
    /// For Fragmentation (and OverCapacity, where it is one remedy): free bytes left in segments that hold live blocks
    /// at the OOM, the largest free block, how many segments hold that free space, and whether expandable segments were
    /// on.
    int64_t freeInReserveBytes = 0;
    int64_t largestFreeBytes = 0;
    int fragmentedSegments = 0;
    bool expandableSegments = false;
    /// For OutsideAllocator: what the files show holding memory on that GPU outside the rank's own allocations.
    struct Suspect
    {
        enum Kind
        {
            ForeignDevice, ///< other ranks' allocations on this GPU (their foreign_device findings)
            PrivatePools, ///< the rank's segments in private pools (CUDA graphs, MemPool)
        };
        Kind kind = ForeignDevice;
        int64_t bytes = 0;
        std::vector<int> ranks; ///< for ForeignDevice
        static const char* kindName(Kind kind);
    };
    std::vector<Suspect> suspects;
    /// A caching-allocator setting (`allocator_settings`, e.g. expandable_segments, max_split_size) in which a rank
    /// differs from what most compared ranks ran with: a node launched without the job's PYTORCH_(CUDA_)ALLOC_CONF.
    /// Only settings both record are compared, so files of two PyTorch versions do not differ by a new key.
    struct SettingDifference
    {
        int rank = -1;
        std::string setting;
        std::string value;
        std::string usual; ///< what most of the other ranks ran with
    };
    std::vector<SettingDifference> settingDifferences;
    /// The layout the ranks were compared in ("" without one), and whether it was guessed from the files.
    std::string layout;
    bool layoutSuggested = false;
    /// For ModelParallelImbalance: the group holding more model state ("pp=0") and its ranks; `excessBytes` is its
    /// parameters, gradients and optimizer state beyond the median of the other groups'.
    std::string group;
    std::vector<int> groupRanks;
    /// Where groups differ by design and that is not the verdict: the group holding the most beyond the median of
    /// the others (by group medians), by how much, and the category most of it is in. Empty `heavierGroup`: none.
    std::string heavierGroup;
    int64_t groupExcessBytes = 0;
    Category groupExcessCategory = Category::Other;
    /// The verdict rank's excess by category (from its findings).
    CategoryBytes excessByCategory {};
    /// For Growth: the ranks that grow beyond the threshold from step to step, the steps compared (oldest first)
    /// and how much the verdict's rank grew over all of them (`excessBytes`: over the last step).
    std::vector<int> growthRanks;
    std::vector<int64_t> steps;
    int64_t totalGrowthBytes = 0;

    static const char* kindName(Kind kind);
};

/// One replica group of a layout: its ranks and the medians of their figures.
struct GroupSummary
{
    std::string name;
    std::vector<int> ranks;
    int64_t bytesAtPoint = 0;
    CategoryBytes categoryBytes {};
    int64_t modelStateBytes() const
    {
        return RankScope::modelStateBytes(categoryBytes);
    }
};

/// What fills one rank's GPU at a moment, and the peak it would have reached without its largest sites and without
/// each category it holds there (WhatIf): the figures of `rankscope top`, the window's composition and the
/// over-capacity verdict.
struct RankHoldings
{
    /// How many of the largest sites get a what-if figure unless asked otherwise.
    static constexpr size_t DefaultSites = 8;
    int rank = -1;
    size_t rankIndex = 0;
    Composition composition;
    /// The highest total with everything, failed requests counted at their OOMs (WhatIf::peakBytes).
    int64_t peakBytes = 0;
    /// The sites (the largest at the moment, and the failed request's), then the categories, each by what leaving it
    /// out saves, the most first. Empty for a digest, which keeps too little of the trace for them.
    std::vector<WhatIf::Result> whatIf;
    /// For a rank that ran out of memory: how close its last OOM came (Verdict::Margin::of; the verdict's own margin
    /// for the rank it is about), with what the GPU offered there; outcome None otherwise.
    Verdict::Margin margin;
    /// The most a peak could have been and fit: what the GPU offered less what lay stranded in the reserve, where
    /// the OOM is what the peak must stay under (the rank's highest total is at it); 0 where no peak says what would
    /// have fit (no OOM, the device still had the request free, or the rank held more earlier without failing).
    int64_t fitLimitBytes = 0;
    /// Whether a peak would have fit (only where fitLimitBytes says).
    bool fits(int64_t peak) const
    {
        return fitLimitBytes > 0 && peak <= fitLimitBytes;
    }
};

/// The verdict of one device compared across ranks, when ranks use several.
struct DeviceVerdict
{
    int device = 0;
    Verdict::Kind kind = Verdict::Balanced;
    int rank = -1;
    int64_t excessBytes = 0;
    size_t findings = 0;
};

/// Compares the ranks of one job at a point in time: matches live allocations by site (never by address), reports
/// per site what a rank holds beyond the median of the others (or a chosen baseline rank), and gives a verdict.
/// Every device is compared: where ranks use several, this is the one that matters most, and otherDevices() the
/// rest. Immutable once computed.
class Comparison
{
public:
    static std::shared_ptr<const Comparison> compute(
        const std::vector<RankInput>& ranks, const ComparisonOptions& options);

    const ComparisonOptions& options() const
    {
        return m_options;
    }
    const std::vector<RankSummary>& ranks() const
    {
        return m_ranks;
    }
    /// Largest excess first.
    const std::vector<Finding>& findings() const
    {
        return m_findings;
    }
    const Verdict& verdict() const
    {
        return m_verdict;
    }
    const SiteTable& sites() const
    {
        return m_sites;
    }
    const DeviceHistory& history(size_t rankIndex) const
    {
        return *m_histories[rankIndex];
    }
    const DeviceHistoryPtr& historyPtr(size_t rankIndex) const
    {
        return m_histories[rankIndex];
    }
    /// The category of each allocation of history(rankIndex), in its order.
    const std::vector<Category>& categories(size_t rankIndex) const
    {
        return *m_categories[rankIndex];
    }
    /// The same, shared with views that colour by category off the GUI thread.
    const CategoriesPtr& categoriesPtr(size_t rankIndex) const
    {
        return m_categories[rankIndex];
    }
    /// The allocator's segments and blocks of rank rankIndex at its point (ranks()[rankIndex].point): what its
    /// fragmentation figure was computed from, and what its block map shows.
    const std::shared_ptr<const AllocatorState>& statePtr(size_t rankIndex) const
    {
        return m_states[rankIndex];
    }
    /// The site of each stack of rank `rankIndex`'s snapshot that its history allocates at or fails to allocate at.
    const StackSites& stackSites(size_t rankIndex) const
    {
        return m_stackSites[rankIndex];
    }
    /// What fills rank `rankIndex`'s GPU after `event`, and its peak without each of its `sites` largest sites there
    /// (and the failed request's site) and without each category it holds there.
    RankHoldings holdingsOf(size_t rankIndex, EventIndex event, size_t sites = RankHoldings::DefaultSites) const;
    /// The holdings of the rank the verdict is about (its rank, the rank its figures are of, else the rank holding
    /// the most beyond its baseline), at its last OOM for the verdicts of an out-of-memory, else at its point: the
    /// figures an over-capacity verdict was worded from, the same wherever they are shown. `sites` as holdingsOf.
    RankHoldings verdictHoldings(size_t sites = RankHoldings::DefaultSites) const;
    /// The rank verdictHoldings() is of, -1 without ranks.
    int verdictHoldingsRank() const;
    /// What fills `rank`'s GPU at its point, or with -1 what fills the rank the verdict is about where the verdict
    /// looks at it (verdictHoldings, unless a point was asked for); nullopt when no rank has that number.
    std::optional<RankHoldings> holdingsFor(int rank, size_t sites = RankHoldings::DefaultSites) const;
    /// The ranks to show side by side by default: A is the verdict's rank (or the one holding the most beyond its
    /// baseline), B the other rank closest to its baseline (-1 with a single rank).
    std::pair<int, int> defaultPair() const;
    /// The finding a view of ranks A and B shows: `selected` (an index into findings(), the user's choice) where it is
    /// A's or B's, else A's largest, else B's, so a picture of the pair always outlines a finding it shows, whatever
    /// order a table lists them in; -1 when neither rank has any. `among` (when given) says which findings may be
    /// taken by size, as a filtered table shows them.
    int findingToShow(
        int rankA, int rankB, int selected = -1, const std::function<bool(size_t)>& among = nullptr) const;
    /// findingToShow() of the default pair.
    int defaultFinding() const;
    /// The moment the ranks were compared at (Moment::rank -1 when each rank is at its own point).
    const Moment& moment() const
    {
        return m_verdict.moment;
    }
    /// The index into ranks() of a rank number, or -1.
    int rankIndex(int rank) const;
    /// What rank `rankIndex` holds at `site` at its comparison point: bytes and number of allocations.
    std::pair<int64_t, int64_t> siteTotal(SiteId site, size_t rankIndex) const
    {
        const size_t i = size_t(site) * m_ranks.size() + rankIndex;
        return { m_siteBytes[i], m_siteCount[i] };
    }
    /// "aligned" (the default where traces align), "peak", "snapshot", "oom", "event:<i>", "step:<N>" or
    /// "step:<N>:end", as the point was asked for.
    std::string pointName() const;
    /// The point rank `rankIndex` is looked at, by the same names: pointName(), or "snapshot" for a rank that does
    /// not have the point asked for (no OOM, no such step) and is compared at its snapshot instead, so that no answer
    /// about it carries the name of a point it does not have.
    std::string pointNameOf(size_t rankIndex) const;
    /// Whether rank `rankIndex` lacks the point asked for and is compared at its snapshot instead.
    bool missesPoint(size_t rankIndex) const;
    /// The rank whose peak the others were aligned with (the one with the highest peak), -1 when each rank is at its
    /// own point.
    int alignedTo() const
    {
        return m_alignedTo;
    }
    /// Which device of each rank's file is whose.
    const DeviceRoles& deviceRoles() const
    {
        return m_roles;
    }
    /// Whether texts must name devices (some rank uses several, or ranks train on different device numbers).
    bool namesDevices() const
    {
        return m_roles.namesDevices() || m_options.device.has_value();
    }
    /// The layout the ranks were compared in, given or guessed (ParallelLayout::suggested); unset without one.
    const std::optional<ParallelLayout>& layout() const
    {
        return m_layout;
    }
    /// The replica groups, one without a layout.
    const std::vector<GroupSummary>& groups() const
    {
        return m_groups;
    }
    /// Every device compared on its own, this one included, in device order; empty when only one was.
    const std::vector<DeviceVerdict>& devices() const
    {
        return m_devices;
    }
    /// The comparisons of the other devices in devices().
    const std::vector<std::shared_ptr<const Comparison>>& otherDevices() const
    {
        return m_otherDevices;
    }
    /// The ranks and findings alike, each group said once by every output.
    const AlikeRanks& alike() const
    {
        return *m_alike;
    }

private:
    // The phases of compute() (comparisonphases.h) fill it in.
    friend class PhaseState;
    friend class ReplicaGroups;
    friend class RankMeasurement;
    friend class ExcessSearch;
    friend class AlignedMoments;
    friend class OutOfMemoryFacts;
    friend class VerdictDecision;
    Comparison() = default;

    ComparisonOptions m_options;
    std::vector<RankSummary> m_ranks;
    std::vector<DeviceHistoryPtr> m_histories;
    std::vector<CategoriesPtr> m_categories;
    std::vector<std::shared_ptr<const AllocatorState>> m_states;
    std::vector<StackSites> m_stackSites;
    std::optional<RankHoldings> m_holdings;
    std::vector<Finding> m_findings;
    // sites × ranks
    std::vector<int64_t> m_siteBytes;
    std::vector<int64_t> m_siteCount;
    Verdict m_verdict;
    SiteTable m_sites;
    DeviceRoles m_roles;
    std::vector<DeviceVerdict> m_devices;
    std::optional<ParallelLayout> m_layout;
    std::vector<GroupSummary> m_groups;
    std::vector<std::shared_ptr<const Comparison>> m_otherDevices;
    int m_alignedTo = -1;
    std::shared_ptr<const AlikeRanks> m_alike;
};

using ComparisonPtr = std::shared_ptr<const Comparison>;

} // namespace RankScope
