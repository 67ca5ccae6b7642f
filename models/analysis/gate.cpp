// SPDX-License-Identifier: MIT
#include "gate.h"

#include "composition.h"
#include "digest.h"
#include "job.h"
#include "parallel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace RankScope {

// Named rather than anonymous: a unity build puts this file beside others whose anonymous helpers share names.
namespace GateWork {

constexpr EventIndex Unplaced = -2;

// One trace's sites, as a gate sees them: a table of its own (fingerprints are the same in any table), the site of
// every stack an allocation has, and one stack per site to show.
struct TraceSites
{
    SiteTable table;
    StackSites stackSites;
    std::unordered_map<SiteId, StackId> stackOf;
    std::unordered_set<uint64_t> fingerprints;

    explicit TraceSites(const DeviceHistory& h)
    {
        const Snapshot& s = h.snapshot();
        stackSites.assign(s.stacks.size(), NoSite);
        for (const Allocation& a : h.allocations()) {
            if (a.stack >= stackSites.size() || stackSites[a.stack] != NoSite)
                continue;
            const SiteId site = table.site(s, a.stack);
            stackSites[a.stack] = site;
            stackOf.emplace(site, a.stack);
            fingerprints.insert(table.fingerprint(site));
        }
    }
};

} // namespace GateWork

GateProfile GateProfile::of(const DeviceHistoryPtr& history)
{
    using namespace GateWork;
    const DeviceHistory& h = *history;
    GateProfile p;
    p.device = h.device();
    p.events = int64_t(h.eventCount());
    p.peakBytes = h.peakBytes();
    p.peakEvent = h.peakEvent();

    const std::vector<DeviceHistoryPtr> one { history };
    const TraceAlignment aligned(one, SiteOptions {});
    const EventIndex n = EventIndex(h.eventCount());
    const EventIndex count = std::min<EventIndex>(n, stretchCount);
    for (EventIndex k = 0; k < count; ++k) {
        if (k == 0) {
            p.stretches.push_back({ {}, 0, 0, BeforeTrace });
            continue;
        }
        const auto placed = aligned.landmark(0, n * k / count);
        // Stretches start at allocations, each after the one before: where allocations are sparse, fewer stretches.
        if (placed && placed->second > p.stretches.back().startEvent)
            p.stretches.push_back({ placed->first, placed->second, 0, BeforeTrace });
    }
    for (size_t k = 0; k < p.stretches.size(); ++k) {
        const EventIndex to = k + 1 < p.stretches.size() ? p.stretches[k + 1].startEvent : n;
        std::tie(p.stretches[k].highest, p.stretches[k].highestEvent) =
            TraceAlignment::highestIn(h, p.stretches[k].startEvent, to);
    }

    const TraceSites sites(h);
    const std::vector<Category> categories = Categories::classify(h);
    std::unordered_map<SiteId, uint32_t> index; // table site → p.sites
    for (SiteId s = 0; s < sites.table.size(); ++s) {
        index.emplace(s, uint32_t(p.sites.size()));
        p.sites.push_back({ sites.table.fingerprint(s), {} });
    }
    std::vector<EventIndex> moments;
    for (size_t g = 0; g < p.stretches.size(); g += stretchesPerSample) {
        const auto last = std::min(p.stretches.size(), g + stretchesPerSample);
        moments.push_back(std::max_element(p.stretches.begin() + std::ptrdiff_t(g),
            p.stretches.begin() + std::ptrdiff_t(last), [](const Stretch& a, const Stretch& b) {
                return a.highest < b.highest;
            })->highestEvent);
    }
    if (moments.empty())
        moments.push_back(h.peakEvent()); // no trace: what the snapshot holds
    const int64_t floor = p.peakBytes * sampleFloorPerMille / 1000;
    for (EventIndex event : moments) {
        const Composition c = Composition::at(h, categories, sites.stackSites, event);
        Sample sample;
        sample.event = event;
        sample.totalBytes = c.totalBytes;
        sample.categoryBytes = c.categoryBytes;
        for (const RankScope::Holding& held : c.sites) {
            const auto it = index.find(held.site);
            if (sample.holdings.size() < sampleSites && held.bytes >= floor && held.bytes > 0 && it != index.end()) {
                sample.holdings.push_back({ it->second, held.bytes, held.count, held.category });
                Site& site = p.sites[it->second];
                if (site.frames.empty()) {
                    for (const SiteTable::SiteFrame& f : sites.table.frames(held.site))
                        site.frames.push_back({ *f.filename, *f.name, f.line });
                }
            } else {
                sample.otherBytes += held.bytes;
            }
        }
        p.samples.push_back(std::move(sample));
    }
    return p;
}

bool GateProfile::operator==(const GateProfile& o) const
{
    const auto sameStretch = [](const Stretch& a, const Stretch& b) {
        return a.start == b.start && a.startEvent == b.startEvent && a.highest == b.highest
            && a.highestEvent == b.highestEvent;
    };
    const auto sameHolding = [](const Holding& a, const Holding& b) {
        return a.site == b.site && a.bytes == b.bytes && a.count == b.count && a.category == b.category;
    };
    const auto sameSample = [&](const Sample& a, const Sample& b) {
        return a.event == b.event && a.totalBytes == b.totalBytes && a.categoryBytes == b.categoryBytes
            && a.otherBytes == b.otherBytes
            && std::equal(a.holdings.begin(), a.holdings.end(), b.holdings.begin(), b.holdings.end(), sameHolding);
    };
    const auto sameSite = [](const Site& a, const Site& b) {
        return a.fingerprint == b.fingerprint && a.frames == b.frames;
    };
    return device == o.device && events == o.events && peakBytes == o.peakBytes && peakEvent == o.peakEvent
        && std::equal(stretches.begin(), stretches.end(), o.stretches.begin(), o.stretches.end(), sameStretch)
        && std::equal(samples.begin(), samples.end(), o.samples.begin(), o.samples.end(), sameSample)
        && std::equal(sites.begin(), sites.end(), o.sites.begin(), o.sites.end(), sameSite);
}

std::string GateProfile::toJson(const std::vector<GateProfile>& profiles)
{
    using nlohmann::json;
    json out;
    out["version"] = version;
    json& list = out["profiles"] = json::array();
    for (const GateProfile& p : profiles) {
        json j;
        j["device"] = p.device;
        j["events"] = p.events;
        j["peak_bytes"] = p.peakBytes;
        j["peak_event"] = p.peakEvent;
        // Arrays rather than objects: a digest keeps 512 stretches and 64 samples of each GPU.
        json& stretches = j["stretches"] = json::array();
        for (const Stretch& s : p.stretches)
            stretches.push_back({ s.start.site, s.start.after, s.startEvent, s.highest, s.highestEvent });
        json& samples = j["samples"] = json::array();
        for (const Sample& s : p.samples) {
            json holdings = json::array();
            for (const Holding& h : s.holdings)
                holdings.push_back({ h.site, h.bytes, h.count, int(h.category) });
            samples.push_back({ { "event", s.event }, { "total", s.totalBytes }, { "categories", s.categoryBytes },
                { "other", s.otherBytes }, { "holdings", std::move(holdings) } });
        }
        json& sites = j["sites"] = json::array();
        for (const Site& s : p.sites) {
            json frames = json::array();
            for (const Frame& f : s.frames)
                frames.push_back({ f.file, f.name, f.line });
            sites.push_back(frames.empty() ? json::array({ s.fingerprint }) : json::array({ s.fingerprint, frames }));
        }
        list.push_back(std::move(j));
    }
    // A frame's text that is not UTF-8 (a pickle's bytes as written) is kept readable rather than refused.
    return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<GateProfile> GateProfile::fromJson(std::string_view text)
{
    using nlohmann::json;
    std::vector<GateProfile> profiles;
    try {
        const json in = json::parse(text);
        if (in.at("version").get<int>() != version)
            throw std::runtime_error("its gate profile is of version " + std::to_string(in.at("version").get<int>())
                + ", not " + std::to_string(version));
        for (const json& j : in.at("profiles")) {
            GateProfile& p = profiles.emplace_back();
            p.device = j.at("device").get<int>();
            p.events = j.at("events").get<int64_t>();
            p.peakBytes = j.at("peak_bytes").get<int64_t>();
            p.peakEvent = j.at("peak_event").get<EventIndex>();
            for (const json& s : j.at("sites")) {
                Site& site = p.sites.emplace_back();
                site.fingerprint = s.at(0).get<uint64_t>();
                if (s.size() > 1) {
                    for (const json& f : s.at(1))
                        site.frames.push_back(
                            { f.at(0).get<std::string>(), f.at(1).get<std::string>(), f.at(2).get<int64_t>() });
                }
            }
            for (const json& s : j.at("stretches")) {
                p.stretches.push_back({ { s.at(0).get<uint64_t>(), s.at(1).get<uint32_t>() }, s.at(2).get<EventIndex>(),
                    s.at(3).get<int64_t>(), s.at(4).get<EventIndex>() });
            }
            for (const json& s : j.at("samples")) {
                Sample& sample = p.samples.emplace_back();
                sample.event = s.at("event").get<EventIndex>();
                sample.totalBytes = s.at("total").get<int64_t>();
                sample.categoryBytes = s.at("categories").get<CategoryBytes>();
                sample.otherBytes = s.at("other").get<int64_t>();
                for (const json& h : s.at("holdings")) {
                    const auto site = h.at(0).get<uint32_t>();
                    const int category = h.at(3).get<int>();
                    if (site >= p.sites.size() || category < 0 || category >= int(CategoryCount))
                        throw std::runtime_error("its gate profile names a site or category it does not have");
                    sample.holdings.push_back(
                        { site, h.at(1).get<int64_t>(), h.at(2).get<int64_t>(), Category(category) });
                }
            }
        }
    } catch (const json::exception& e) {
        throw std::runtime_error(std::string("its gate profile cannot be read: ") + e.what());
    }
    return profiles;
}

const char* GateResult::SiteChange::kindName(Kind kind)
{
    switch (kind) {
    case Grew:
        return "grew";
    case Appeared:
        return "appeared";
    case Shrank:
        return "shrank";
    case Disappeared:
        return "disappeared";
    }
    return "grew";
}

bool GateResult::passed() const
{
    return std::none_of(ranks.begin(), ranks.end(), [](const Rank& r) { return r.regressed(); });
}

std::vector<int> GateResult::regressedRanks() const
{
    std::vector<int> out;
    for (const Rank& r : ranks) {
        if (r.regressed() && (out.empty() || out.back() != r.rank))
            out.push_back(r.rank);
    }
    return out;
}

namespace GateWork {

// A baseline rank's GPU, by its profile.
struct BaseSide
{
    int rank = 0;
    int device = 0;
    const GateProfile* profile = nullptr;
};

// Where a site of a change is shown from: a stack of the new job's snapshot, or the frames a baseline kept.
struct ShownFrom
{
    DeviceHistoryPtr history;
    StackId stack = EmptyStack;
    const std::vector<GateProfile::Frame>* frames = nullptr;
};

struct Outcome
{
    GateResult::Rank rank;
    std::vector<ShownFrom> shown; // per rank.sites
};

Outcome compare(const GateInput& input, const GateProfile& base, int baseRank, const GateOptions& options)
{
    const DeviceHistory& h = *input.history;
    Outcome out;
    GateResult::Rank& r = out.rank;
    r.rank = input.rank;
    r.device = h.device();
    r.baselineRank = baseRank;
    r.baselineDevice = base.device;
    r.peakBefore = base.peakBytes;
    r.peakAfter = h.peakBytes();
    r.allowedBytes =
        std::max(options.minBytes, int64_t(std::llround(double(base.peakBytes) * options.tolerancePercent / 100.0)));
    r.peakRegressed = r.peakAfter - r.peakBefore > r.allowedBytes;

    // The baseline's stretches found in this trace: each start by its landmark, only starts that keep the order.
    const std::vector<DeviceHistoryPtr> one { input.history };
    const TraceAlignment aligned(one, SiteOptions {});
    const EventIndex n = EventIndex(h.eventCount());
    const size_t count = base.stretches.size();
    std::vector<EventIndex> placed(count + 1, Unplaced);
    if (count > 0 && n > 0) {
        placed[0] = 0;
        placed[count] = n;
        EventIndex last = 0;
        for (size_t k = 1; k < count; ++k) {
            const std::optional<EventIndex> at = aligned.find(0, base.stretches[k].start);
            if (at && *at > last)
                placed[k] = last = *at;
        }
    }
    r.stretches = int(count);
    size_t bestFrom = 0;
    size_t bestTo = 0;
    bool found = false;
    // Runs of stretches between found starts; a run's highest totals are weighed against each other.
    for (size_t k = 0; k < count && placed[0] != Unplaced;) {
        size_t next = k + 1;
        while (placed[next] == Unplaced)
            ++next;
        r.placedStretches += 1;
        auto before =
            std::max_element(base.stretches.begin() + std::ptrdiff_t(k), base.stretches.begin() + std::ptrdiff_t(next),
                [](const GateProfile::Stretch& a, const GateProfile::Stretch& b) { return a.highest < b.highest; });
        const auto [after, event] = TraceAlignment::highestIn(h, placed[k], std::max(placed[next], placed[k] + 1));
        if (!found || after - before->highest > r.largestBytes) {
            found = true;
            r.largestBytes = after - before->highest;
            r.eventBefore = before->highestEvent;
            r.eventAfter = event;
            r.totalBefore = before->highest;
            r.totalAfter = after;
            bestFrom = k;
            bestTo = next;
        }
        k = next;
    }
    if (!found) {
        // No trace on one side: what each holds at its peak (a snapshot without a trace: what it holds).
        r.largestBytes = r.peakAfter - r.peakBefore;
        r.eventBefore = base.peakEvent;
        r.eventAfter = h.peakEvent();
        r.totalBefore = r.peakBefore;
        r.totalAfter = r.peakAfter;
    }
    r.stepFraction = n > 0 ? double(std::max<EventIndex>(r.eventAfter, 0)) / double(n) : 1.0;
    r.stepRegressed = r.largestBytes > r.allowedBytes;

    // What each site holds at the sampled moment of the stretches around it: the baseline's highest moment of its
    // group, and this trace's highest moment of the same group found here.
    if (base.samples.empty())
        return out;
    const size_t group = std::min(bestFrom / GateProfile::stretchesPerSample, base.samples.size() - 1);
    const GateProfile::Sample& sample = base.samples[group];
    EventIndex moment = h.peakEvent();
    if (found) {
        size_t from = std::min(group * GateProfile::stretchesPerSample, bestFrom);
        size_t to = std::max(std::min(count, (group + 1) * GateProfile::stretchesPerSample), bestTo);
        while (placed[from] == Unplaced)
            --from;
        while (placed[to] == Unplaced)
            ++to;
        moment = TraceAlignment::highestIn(h, placed[from], std::max(placed[to], placed[from] + 1)).second;
    }
    const TraceSites sites(h);
    const std::vector<Category> categories = Categories::classify(h);
    const Composition now = Composition::at(h, categories, sites.stackSites, moment);
    r.categoriesBefore = sample.categoryBytes;
    r.categoriesAfter = now.categoryBytes;

    std::unordered_set<uint64_t> inBaseline;
    for (const GateProfile::Site& s : base.sites)
        inBaseline.insert(s.fingerprint);
    struct Change
    {
        GateResult::SiteChange change;
        ShownFrom shown;
    };
    std::map<uint64_t, Change> byFingerprint;
    for (const GateProfile::Holding& held : sample.holdings) {
        const GateProfile::Site& site = base.sites[held.site];
        Change& c = byFingerprint[site.fingerprint];
        c.change.fingerprint = site.fingerprint;
        c.change.before = held.bytes;
        c.change.countBefore = held.count;
        c.change.category = held.category;
        c.shown.frames = &site.frames;
    }
    for (const Holding& held : now.sites) {
        if (held.site == NoSite)
            continue;
        const uint64_t fingerprint = sites.table.fingerprint(held.site);
        Change& c = byFingerprint[fingerprint];
        c.change.fingerprint = fingerprint;
        c.change.after += held.bytes;
        c.change.countAfter += held.count;
        c.change.category = held.category;
        if (const auto it = sites.stackOf.find(held.site); it != sites.stackOf.end())
            c.shown = { input.history, it->second, nullptr };
    }
    // Changes smaller than this are the sample's own rounding (sites under its floor) and never worth a line.
    const int64_t reported = std::max(r.allowedBytes / 8, 2 * base.peakBytes * GateProfile::sampleFloorPerMille / 1000);
    std::vector<Change> changes;
    for (auto& [fingerprint, c] : byFingerprint) {
        const int64_t delta = c.change.delta();
        if (std::abs(delta) < std::max<int64_t>(reported, 1))
            continue;
        using K = GateResult::SiteChange;
        if (delta > 0)
            c.change.kind = inBaseline.count(fingerprint) ? K::Grew : K::Appeared;
        else
            c.change.kind = sites.fingerprints.count(fingerprint) ? K::Shrank : K::Disappeared;
        c.change.rankList = { r.rank };
        changes.push_back(std::move(c));
    }
    // Growth first, the most first; then what shrank, the most first.
    std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        const bool growA = a.change.delta() > 0;
        const bool growB = b.change.delta() > 0;
        if (growA != growB)
            return growA;
        return std::abs(a.change.delta()) > std::abs(b.change.delta());
    });
    for (Change& c : changes) {
        r.sites.push_back(std::move(c.change));
        out.shown.push_back(std::move(c.shown));
    }
    return out;
}

// The baseline rank a rank is weighed against: its own number, else that number modulo the baseline's count of
// ranks (every rank it has, read or not); -1 for an empty baseline.
int baselineRankOf(const std::vector<int>& baseRanks, int rank)
{
    if (baseRanks.empty())
        return -1;
    return std::binary_search(baseRanks.begin(), baseRanks.end(), rank) ? rank
                                                                        : baseRanks[size_t(rank) % baseRanks.size()];
}

// The baseline's GPU a new rank's GPU is weighed against (see GateResult); none where its baseline rank could not be
// read.
const BaseSide* pairOf(const std::vector<BaseSide>& baseline, const std::vector<int>& baseRanks, const GateInput& input,
    const std::vector<GateInput>& current)
{
    const int rank = baselineRankOf(baseRanks, input.rank);
    if (rank < 0)
        return nullptr;
    std::vector<const BaseSide*> devices;
    for (const BaseSide& s : baseline) {
        if (s.rank == rank)
            devices.push_back(&s);
    }
    const int device = input.history->device();
    for (const BaseSide* s : devices) {
        if (s->device == device)
            return s;
    }
    // Another device number (ranks numbered by their own GPUs): the GPU at the same place among the rank's.
    std::vector<int> mine;
    for (const GateInput& c : current) {
        if (c.rank == input.rank)
            mine.push_back(c.history->device());
    }
    std::sort(mine.begin(), mine.end());
    const size_t place = size_t(std::find(mine.begin(), mine.end(), device) - mine.begin());
    return devices.empty() ? nullptr : devices[std::min(place, devices.size() - 1)];
}

} // namespace GateWork

Gate::Side Gate::sideOf(const Job& job)
{
    Side side;
    struct Part
    {
        SnapshotPtr snapshot;
        int rank = 0;
        int device = 0;
    };
    std::vector<Part> parts;
    for (const LoadedFile& file : job.loaded()) {
        if (!file.ok()) {
            side.unreadable.emplace_back(file.rank, file.path.toStdString() + ": " + file.error.toStdString());
            continue;
        }
        const Snapshot& s = *file.snapshot;
        if (s.digest) {
            side.digests.push_back(file.path.toStdString());
            if (s.digest->gate == EmptyString) {
                side.errors.push_back(file.path.toStdString() + ": a digest of version "
                    + std::to_string(s.digest->version)
                    + ", which keeps no gate profile; make it again with this rankscope's digest");
                side.unreadable.emplace_back(file.rank, side.errors.back());
                continue;
            }
            try {
                for (GateProfile& p : GateProfile::fromJson(s.strings.view(s.digest->gate)))
                    side.inputs.push_back({ file.rank, nullptr, std::move(p) });
            } catch (const std::runtime_error& e) {
                side.errors.push_back(file.path.toStdString() + ": " + e.what());
                side.unreadable.emplace_back(file.rank, side.errors.back());
            }
            continue;
        }
        for (int device : Digest::devices(s))
            parts.push_back({ file.snapshot, file.rank, device });
    }
    const QList<DeviceHistoryPtr> histories = Parallel::mapIndices(qsizetype(parts.size()),
        [&](qsizetype i) { return DeviceHistory::build(parts[size_t(i)].snapshot, parts[size_t(i)].device); });
    for (size_t i = 0; i < parts.size(); ++i)
        side.inputs.push_back({ parts[i].rank, histories[qsizetype(i)], std::nullopt });
    return side;
}

GateResult Gate::run(
    const std::vector<GateInput>& baseline, const std::vector<GateInput>& current, const GateOptions& options)
{
    return run(Side { baseline, {}, {}, {} }, Side { current, {}, {}, {} }, options);
}

GateResult Gate::run(const Side& baseSide, const Side& currentSide, const GateOptions& options)
{
    using namespace GateWork;
    const std::vector<GateInput>& baseline = baseSide.inputs;
    const std::vector<GateInput>& current = currentSide.inputs;
    GateResult result;
    result.options = options;
    // Profiles of a baseline's full files are made here as a digest makes and keeps them (through its JSON, which
    // keeps a frame's text that is not UTF-8 readable), so both answer alike to the byte.
    const QList<std::optional<GateProfile>> made = Parallel::mapIndices(qsizetype(baseline.size()), [&](qsizetype i) {
        const GateInput& b = baseline[size_t(i)];
        if (b.profile || !b.history)
            return std::optional<GateProfile>();
        return std::optional<GateProfile>(
            GateProfile::fromJson(GateProfile::toJson({ GateProfile::of(b.history) })).front());
    });
    std::vector<BaseSide> sides;
    std::vector<int> baseRanks;
    for (size_t i = 0; i < baseline.size(); ++i) {
        const GateProfile* p = baseline[i].profile ? &*baseline[i].profile
            : made[qsizetype(i)]                   ? &*made[qsizetype(i)]
                                                   : nullptr;
        if (!p)
            continue;
        sides.push_back({ baseline[i].rank, p->device, p });
        baseRanks.push_back(baseline[i].rank);
    }
    // A baseline rank that could not be read still has its number: the ranks are paired as if it had been read,
    // and the rank weighed against it is not gated, rather than weighed against another rank's baseline.
    for (const auto& [rank, reason] : baseSide.unreadable)
        baseRanks.push_back(rank);
    std::sort(baseRanks.begin(), baseRanks.end());
    baseRanks.erase(std::unique(baseRanks.begin(), baseRanks.end()), baseRanks.end());
    result.baselineRanks = int(baseRanks.size());

    std::vector<int> newRanks;
    newRanks.reserve(current.size() + currentSide.unreadable.size());
    for (const GateInput& c : current)
        newRanks.push_back(c.rank);
    for (const auto& [rank, reason] : currentSide.unreadable) {
        newRanks.push_back(rank);
        result.ungated.push_back({ rank, -1, reason });
    }
    std::sort(newRanks.begin(), newRanks.end());
    for (const GateInput& c : current) {
        const int paired = baselineRankOf(baseRanks, c.rank);
        const auto unread = std::find_if(baseSide.unreadable.begin(), baseSide.unreadable.end(),
            [&](const std::pair<int, std::string>& u) { return u.first == paired; });
        const bool listed = std::any_of(result.ungated.begin(), result.ungated.end(),
            [&](const GateResult::Ungated& u) { return u.rank == c.rank; });
        if (unread != baseSide.unreadable.end() && !listed
            && std::none_of(sides.begin(), sides.end(), [&](const BaseSide& b) { return b.rank == paired; }))
            result.ungated.push_back({ c.rank, paired, unread->second });
    }
    std::sort(result.ungated.begin(), result.ungated.end(),
        [](const GateResult::Ungated& a, const GateResult::Ungated& b) { return a.rank < b.rank; });
    for (int r : baseRanks) {
        if (!std::binary_search(newRanks.begin(), newRanks.end(), r))
            result.baselineOnly.push_back(r);
    }

    const QList<std::optional<Outcome>> outcomes = Parallel::mapIndices(qsizetype(current.size()), [&](qsizetype i) {
        const GateInput& input = current[size_t(i)];
        const BaseSide* pair = input.history ? pairOf(sides, baseRanks, input, current) : nullptr;
        return pair ? std::optional<Outcome>(compare(input, *pair->profile, pair->rank, options))
                    : std::optional<Outcome>();
    });

    // The sites of the changes in one table, for their labels and frames.
    auto table = std::make_shared<SiteTable>();
    auto kept = std::make_shared<Snapshot>(); // the frames baselines kept of the sites only they hold
    std::map<const std::vector<GateProfile::Frame>*, StackId> keptStacks;
    for (const std::optional<Outcome>& o : outcomes) {
        for (const ShownFrom& from : o ? o->shown : std::vector<ShownFrom>()) {
            if (from.history || !from.frames || keptStacks.count(from.frames))
                continue;
            std::vector<FrameId> frames;
            for (const GateProfile::Frame& f : *from.frames) {
                Frame frame;
                frame.filename = kept->strings.intern(f.file);
                frame.name = kept->strings.intern(f.name);
                frame.line = f.line;
                frames.push_back(kept->frames.intern(frame));
            }
            keptStacks.emplace(from.frames, kept->stacks.intern(frames));
        }
    }
    for (const std::optional<Outcome>& o : outcomes) {
        if (!o)
            continue;
        GateResult::Rank rank = o->rank;
        for (size_t k = 0; k < rank.sites.size(); ++k) {
            const ShownFrom& from = o->shown[k];
            if (from.history)
                rank.sites[k].site = table->site(from.history->snapshot(), from.stack);
            else if (from.frames)
                rank.sites[k].site = table->site(*kept, keptStacks.at(from.frames));
        }
        result.pairedModulo = result.pairedModulo || rank.baselineRank != rank.rank;
        result.ranks.push_back(std::move(rank));
    }
    std::sort(result.ranks.begin(), result.ranks.end(), [](const GateResult::Rank& a, const GateResult::Rank& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.device < b.device;
    });

    // Across the ranks that regressed: each site that grew or appeared once, on how many ranks, its largest growth.
    std::map<uint64_t, GateResult::SiteChange> job;
    for (const GateResult::Rank& r : result.ranks) {
        if (!r.regressed())
            continue;
        for (const GateResult::SiteChange& c : r.sites) {
            if (c.delta() <= 0)
                continue;
            auto [it, added] = job.emplace(c.fingerprint, c);
            GateResult::SiteChange& j = it->second;
            if (!added) {
                if (c.delta() > j.delta()) {
                    const std::vector<int> ranks = j.rankList;
                    j = c;
                    j.rankList = ranks;
                }
                if (j.rankList.back() != r.rank)
                    j.rankList.push_back(r.rank);
            }
            j.ranks = int(j.rankList.size());
        }
    }
    for (auto& [fingerprint, c] : job)
        result.jobSites.push_back(std::move(c));
    std::stable_sort(result.jobSites.begin(), result.jobSites.end(),
        [](const GateResult::SiteChange& a, const GateResult::SiteChange& b) { return a.delta() > b.delta(); });
    result.sites = std::move(table);
    result.keptFrames = std::move(kept);
    return result;
}

} // namespace RankScope
