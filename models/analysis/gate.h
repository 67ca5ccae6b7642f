// SPDX-License-Identifier: MIT
#pragma once

#include "categories.h"
#include "devicehistory.h"
#include "sitetable.h"
#include "tracealignment.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace RankScope {

/// One rank's memory on one GPU across its step, as much of it as a gate needs of a baseline, small enough to keep in
/// a digest: the trace cut into stretches at moments another run of the same code can find (TraceAlignment's
/// landmarks) with the highest total of each, what every site holds at the highest moment of each group of
/// stretches (the sites holding the most, by site fingerprint, with their frames), and the peak. A gate against
/// full files makes the same profile of them first, so a baseline of digests and of snapshots answer alike.
struct GateProfile
{
    /// Written with every digest (`gate`) and read back by fromJson, which refuses other versions.
    static constexpr int version = 1;
    /// Stretches of a trace, as AlignedMoments scans them.
    static constexpr int stretchCount = 512;
    /// Stretches per sampled moment: 64 moments whose sites are kept.
    static constexpr int stretchesPerSample = 8;
    /// A sample keeps at most this many sites, each holding at least sampleFloorPerMille ‰ of the peak; the rest is
    /// one figure. What the gate reports of a site is far above that floor, so what a sample leaves out never
    /// changes an answer.
    static constexpr size_t sampleSites = 256;
    static constexpr int sampleFloorPerMille = 1;

    struct Stretch
    {
        /// Where the stretch starts: its landmark and the event it names here (the first stretch starts at the
        /// trace's start and has none).
        TraceAlignment::Landmark start;
        EventIndex startEvent = 0;
        int64_t highest = 0;
        EventIndex highestEvent = BeforeTrace;
    };
    struct Holding
    {
        uint32_t site = 0; ///< index into sites
        int64_t bytes = 0;
        int64_t count = 0;
        Category category = Category::Other;
    };
    struct Sample
    {
        EventIndex event = BeforeTrace;
        int64_t totalBytes = 0;
        CategoryBytes categoryBytes {};
        std::vector<Holding> holdings; ///< largest first
        int64_t otherBytes = 0; ///< what the sites left out hold
    };
    struct Frame
    {
        std::string file;
        std::string name;
        int64_t line = 0;
        bool operator==(const Frame&) const = default;
    };
    struct Site
    {
        uint64_t fingerprint = 0;
        /// The kept frames as recorded, innermost first: only for the sites a sample holds.
        std::vector<Frame> frames;
    };

    int device = 0;
    int64_t events = 0;
    int64_t peakBytes = 0;
    EventIndex peakEvent = BeforeTrace;
    std::vector<Stretch> stretches;
    std::vector<Sample> samples; ///< one per stretchesPerSample stretches
    std::vector<Site> sites;

    /// The profile of one device's history.
    static GateProfile of(const DeviceHistoryPtr& history);
    /// Every GPU's profile as one JSON text (what a digest keeps), and back; fromJson throws std::runtime_error on a
    /// text it cannot read.
    static std::string toJson(const std::vector<GateProfile>& profiles);
    static std::vector<GateProfile> fromJson(std::string_view text);
    bool operator==(const GateProfile&) const;
};

/// The gate's thresholds: a growth fails it when it is beyond both.
struct GateOptions
{
    /// Per cent of the baseline rank's peak. The default is well above the run-to-run noise measured on real files
    /// (README: how the tolerance was chosen).
    static constexpr double defaultTolerancePercent = 2.0;
    static constexpr int64_t defaultMinBytes = 16ll << 20;
    double tolerancePercent = defaultTolerancePercent;
    int64_t minBytes = defaultMinBytes;
};

/// A job against its baseline, rank by rank across the step (`rankscope gate`): each rank of the new job is paired
/// with the baseline's rank of the same number, or where the baseline has fewer ranks with its rank (number modulo
/// the baseline's count) as data-parallel replicas are alike; each GPU with the same GPU of its pair (else the one
/// at the same place among the rank's GPUs). The baseline's stretches are found in the new trace by their landmarks;
/// in each, the new rank's highest total is weighed against the baseline's, so a growth mid-step that the peak does
/// not show (longer sequences' activations under an optimizer step's peak) fails the gate. Immutable.
struct GateResult
{
    struct SiteChange
    {
        enum Kind
        {
            Grew,
            Appeared, ///< the baseline's trace never allocates at the site
            Shrank,
            Disappeared, ///< the new trace never allocates at the site
        };
        Kind kind = Grew;
        SiteId site = 0; ///< in GateResult::sites
        uint64_t fingerprint = 0;
        int64_t before = 0;
        int64_t after = 0;
        int64_t countBefore = 0;
        int64_t countAfter = 0;
        Category category = Category::Other;
        /// Job level: on how many of the new job's rank-GPUs the site changed so (a rank's own: 1).
        int ranks = 1;
        std::vector<int> rankList;
        int64_t delta() const
        {
            return after - before;
        }
        static const char* kindName(Kind kind);
    };
    struct Rank
    {
        int rank = 0;
        int device = 0;
        /// The baseline's rank and GPU it is weighed against.
        int baselineRank = 0;
        int baselineDevice = 0;
        int64_t peakBefore = 0;
        int64_t peakAfter = 0;
        /// Over the aligned step: the largest difference of the highest totals of a stretch (new minus baseline),
        /// where (each trace's event and the share of the new trace before it) and the totals there.
        int64_t largestBytes = 0;
        EventIndex eventBefore = BeforeTrace;
        EventIndex eventAfter = BeforeTrace;
        double stepFraction = 0;
        int64_t totalBefore = 0;
        int64_t totalAfter = 0;
        /// By category at the sampled moments around it.
        CategoryBytes categoriesBefore {};
        CategoryBytes categoriesAfter {};
        /// How many of the baseline's stretches were found in the new trace (of GateProfile::stretchCount at most).
        int placedStretches = 0;
        int stretches = 0;
        /// The tolerance in bytes: tolerancePercent of peakBefore, and at least minBytes.
        int64_t allowedBytes = 0;
        bool peakRegressed = false;
        bool stepRegressed = false;
        /// By site at the sampled moment around the largest difference: what grew or appeared, the most first, then
        /// what shrank or disappeared.
        std::vector<SiteChange> sites;
        bool regressed() const
        {
            return peakRegressed || stepRegressed;
        }
    };

    /// A rank of the new job the gate could not weigh: its file, or its baseline rank's, could not be read.
    struct Ungated
    {
        int rank = 0;
        /// The baseline rank it would have been weighed against, when that one could not be read; else -1.
        int baselineRank = -1;
        std::string reason; ///< "PATH: what is wrong"
    };

    GateOptions options;
    std::vector<Rank> ranks; ///< by rank, then device
    /// By rank. A gate with any is incomplete: its answer holds only for the ranks it weighed.
    std::vector<Ungated> ungated;
    /// Baseline ranks the new job does not have.
    std::vector<int> baselineOnly;
    int baselineRanks = 0;
    /// Whether the new job has more ranks than the baseline (some paired modulo its count).
    bool pairedModulo = false;
    /// Every site that grew or appeared on a rank that regressed, across the ranks, the most first.
    std::vector<SiteChange> jobSites;
    /// The sites of every SiteChange, with their frames (StackText::siteFrames shows them).
    std::shared_ptr<const SiteTable> sites;
    /// The frames of sites only a baseline's profile has, which `sites` was given as a snapshot's stacks.
    std::shared_ptr<const Snapshot> keptFrames;

    bool passed() const;
    bool complete() const
    {
        return ungated.empty();
    }
    std::vector<int> regressedRanks() const;
};

/// One side of a gate: a rank's GPU as loaded, or as a baseline's profile.
struct GateInput
{
    int rank = 0;
    DeviceHistoryPtr history; ///< the new job's (required), or a baseline's full file
    std::optional<GateProfile> profile; ///< a baseline digest's
};

class Job;

namespace Gate {
/// One side of a gate made from a loaded job: every GPU of each file that loaded (the GPUs a digest keeps,
/// Digest::devices), replayed on the part pool, or a digest's profiles.
struct Side
{
    std::vector<GateInput> inputs;
    /// Files whose digests keep no profile (made before digests had one) or one that cannot be read, as
    /// "PATH: what is wrong".
    std::vector<std::string> errors;
    /// Files that are digests (a new job must be snapshots: a digest keeps too little of its trace to be aligned).
    std::vector<std::string> digests;
    /// Ranks whose file could not be read or holds no gate profile, with "PATH: what is wrong": a baseline's still
    /// counts for the pairing, so no rank is weighed against another rank's baseline in its place.
    std::vector<std::pair<int, std::string>> unreadable;
};
Side sideOf(const Job& job);

/// The gate of `current` (each input's history) against `baseline` (profiles, or histories profiled here); the
/// inputs' histories are worked on the part pool.
GateResult run(
    const std::vector<GateInput>& baseline, const std::vector<GateInput>& current, const GateOptions& options);
/// The same for two sides of loaded jobs: the ranks either side could not read are the result's `ungated`.
GateResult run(const Side& baseline, const Side& current, const GateOptions& options);
} // namespace Gate

} // namespace RankScope
