// SPDX-License-Identifier: MIT
// The cross-rank diff on scenarios built by editing copies of real files (tests/tools/make_scenarios.py): each
// must give the verdict, rank, site and finding kind its edit built in, with 2, 8 and 64 ranks, at the peak and,
// for trace-less files, at the snapshot.
#include "alikeranks.h"
#include "comparison.h"
#include "diffreport.h"
#include "excesstreemodel.h"
#include "findingsfiltermodel.h"
#include "findingsmodel.h"
#include "formatting.h"
#include "loadedfile.h"
#include "parallel.h"
#include "profilerstep.h"
#include "rankfiles.h"
#include "snapshotreader.h"
#include "stacktext.h"
#include "testprogram.h"
#include "testutils.h"
#include "verdictrules.h"
#include "verdicttext.h"

#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QDir>
#include <QFutureWatcher>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>
#include <QtConcurrent>

#include <set>

using namespace RankScope;
using namespace TestUtils;

namespace {

// The files of one step when the folder holds several (the latest), with the steps before it, as the command line
// and the window choose them.
std::vector<RankInput> loadRanks(const QString& folder)
{
    std::vector<RankInput> ranks;
    const QStringList files = RankFiles::expand({ folder });
    const RankFiles::Step step = RankFiles::chooseStep(files);
    for (const LoadedFile& f : LoadedFile::loadAll(step.files)) {
        if (f.ok())
            ranks.push_back({ f.rank, f.path, f.snapshot });
    }
    if (step.chosen >= 0)
        EarlierSteps::load(files, step.chosen).attach(ranks, step.chosen);
    return ranks;
}

QString scenarioDir()
{
    return QStringLiteral(RANKSCOPE_SCENARIOS_DIR);
}

std::string innermostName(const Comparison& c, const Finding& f)
{
    const auto& frames = c.sites().frames(f.site);
    return frames.empty() ? std::string() : *frames.front().name;
}

} // namespace

class TestComparison : public QObject
{
    Q_OBJECT
private slots:
    void scenarios_data();
    void scenarios();
    void rulePerKind_data();
    void rulePerKind();
    void siteKeysSurviveRelocation();
    void categoriesFromStackAndLifetime();
    void categoryRules();
    void sitesNumberedInTheOrderMet();
    void parallelLayout();
    void alignedByDefault();
    void excessByFrame();
    void sharedSiteIsNotOnlyOnRank();
    void oneRankHasNothingToCompare();
    void oneRankOutOfMemory();
    void genuineOutOfMemory();
    void whatIfMatchesAnIndependentReplay();
    void momentsAcrossTheAlignedTrace();
    void pickedPointsAreAlignedMoments();
    void groupsOfIdenticalRanks();
    void statesAtThePoints();
    void runsMergeAdjacentBlocks();
    void abBaseline();
    void siteKeys();
    void bundledExample();
    void reportFormats();
    void findingsModel();
    void findingsModelGrouped();
    void filterFindsAnyFrame();
    void computeOnAPoolThread();
};

void TestComparison::scenarios_data()
{
    QTest::addColumn<QString>("folder");
    RANKSCOPE_REQUIRE_FIXTURE(scenarioDir());
    const QStringList names = QDir(scenarioDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QCOMPARE(names.size(), 83);
    for (const QString& n : names)
        if (TestUtils::runsScenario(n))
            QTest::newRow(qPrintable(n)) << scenarioDir() + QLatin1Char('/') + n;
}

// What every verdict about an out-of-memory must hold: it names no single rank among ranks alike, claims memory
// outside PyTorch only with evidence, and names the failed request.
static void checkOutOfMemory(const nlohmann::json& expected, const Comparison& c)
{
    const Verdict& v = c.verdict();
    if (v.oomRanks.size() > 1)
        QCOMPARE(v.rank, -1);
    if (v.kind == Verdict::OutsideAllocator) {
        QVERIFY(v.evidence != Verdict::NoEvidence);
        if (v.evidence == Verdict::ReplicasFit) {
            QVERIFY(!v.fittingRanks.empty());
            for (int r : v.fittingRanks)
                QVERIFY(std::find(v.oomRanks.begin(), v.oomRanks.end(), r) == v.oomRanks.end());
        } else {
            QVERIFY(v.deviceMemoryBytes > 0 && v.outsideBytes > Verdict::contextAllowanceBytes);
        }
    }
    if (expected.contains("oom_ranks"))
        QCOMPARE(v.oomRanks, expected["oom_ranks"].get<std::vector<int>>());
    // Ranks whose failed requests differ: the group that stands out gives the figures, each group once.
    std::vector<std::vector<int>> oomGroups;
    for (const Verdict::OomGroup& g : v.oomGroups)
        oomGroups.push_back(g.ranks);
    QCOMPARE(oomGroups, expected.value("oom_groups", std::vector<std::vector<int>>()));
    if (!oomGroups.empty()) {
        QCOMPARE(v.figuresRank, oomGroups.front().front());
        QCOMPARE(v.margin.rank, v.figuresRank);
    }
    if (expected.contains("evidence"))
        QCOMPARE(std::string(v.evidence == Verdict::DeviceTotal ? "device_total" : "replicas_fit"),
            expected["evidence"].get<std::string>());
    if (expected.contains("fitting_ranks"))
        QCOMPARE(v.fittingRanks, expected["fitting_ranks"].get<std::vector<int>>());
    if (expected.contains("unreached_ranks")) {
        QCOMPARE(v.unreachedRanks, expected["unreached_ranks"].get<std::vector<int>>());
        QVERIFY(VerdictText::explanation(v, VerdictText::English).contains(QLatin1String("never reached")));
    }
    if (expected.contains("request_site")) {
        QVERIFY2(v.oomSite.find(expected["request_site"].get<std::string>()) != std::string::npos, v.oomSite.c_str());
        QVERIFY(VerdictText::explanation(v, VerdictText::English).contains(QString::fromStdString(v.oomSite)));
    }
    if (v.kind != Verdict::OverCapacity)
        return;
    for (const Finding& f : c.findings()) // alike: nothing to report per site but what lies on another rank's GPU
        QCOMPARE(f.kind, Finding::ForeignDevice);
    // What fills the GPU, from the same computation everywhere: the verdict's figures are its rank's holdings.
    const RankHoldings holdings = c.verdictHoldings();
    QCOMPARE(holdings.rank, v.figuresRank);
    QCOMPARE(holdings.composition.totalBytes, v.heldBytes);
    QCOMPARE(holdings.composition.categoryBytes, v.heldByCategory);
    QCOMPARE(v.neededBytes, v.heldBytes + v.oomRequestedBytes);
    QVERIFY(holdings.peakBytes >= v.neededBytes);
    QVERIFY(!v.topSites.empty());
    QCOMPARE(v.topSites.front().excessBytes, holdings.composition.sites.front().bytes);
    std::vector<std::string> remedies;
    for (const Verdict::Remedy& r : v.remedies)
        remedies.push_back(Verdict::Remedy::kindName(r.kind));
    if (expected.contains("remedies"))
        QCOMPARE(remedies, expected["remedies"].get<std::vector<std::string>>());
    QVERIFY(!remedies.empty());
    // How close it came, from the rank's own figures; each remedy against that shortfall, the one computation the
    // text, JSON and What if tab show.
    const Verdict::Margin& m = v.margin;
    QCOMPARE(m.rank, v.figuresRank);
    QCOMPARE(m.neededBytes, v.neededBytes);
    QCOMPARE(m.offeredBytes, v.oomReservedBytes + v.oomDeviceFreeBytes);
    QCOMPARE(m.shortBytes, v.oomRequestedBytes - v.oomDeviceFreeBytes);
    // What lay unused in the reserve is what the rank table shows at the OOM (one computation).
    const RankSummary& examined = c.ranks()[size_t(c.rankIndex(v.figuresRank))];
    if (examined.point.event == examined.oomEvent)
        QCOMPARE(m.strandedBytes, examined.unallocatedBytes);
    QCOMPARE(m.fitBytes(), m.offeredBytes - m.strandedBytes);
    QCOMPARE(holdings.margin.fitBytes(), m.fitBytes());
    QCOMPARE(holdings.fitLimitBytes, holdings.peakBytes <= m.neededBytes ? m.fitBytes() : 0);
    QCOMPARE(holdings.margin.offeredBytes, m.offeredBytes);
    if (expected.contains("margin")) {
        QCOMPARE(std::string(Verdict::Margin::outcomeName(m.outcome)), expected["margin"].get<std::string>());
        QCOMPARE(m.shortBytes, expected["short_bytes"].get<int64_t>());
        std::vector<bool> closes;
        for (const Verdict::Remedy& r : v.remedies)
            closes.push_back(r.closesGap > 0);
        QCOMPARE(closes, expected["closes"].get<std::vector<bool>>());
        QVERIFY(VerdictText::explanation(v, VerdictText::English)
                    .contains(QStringLiteral("It was %1 from fitting").arg(Formatting::bytes(m.shortBytes))));
    }
    for (const Verdict::Remedy& r : v.remedies) {
        if (r.closesGap >= 0)
            QCOMPARE(r.closesGap > 0, r.spareBytes >= 0);
        if (r.kind == Verdict::Remedy::ExpandableSegments) {
            QVERIFY(!m.expandableSegments);
            QCOMPARE(r.bytes, m.strandedBytes);
            QCOMPARE(r.spareBytes, m.strandedBytes - m.shortBytes);
            QCOMPARE(&r, &v.remedies.front()); // the cheapest change first
        }
    }
    // A what-if row fits where its peak stays within what the GPU offered less what lay stranded.
    for (const WhatIf::Result& r : holdings.whatIf)
        QCOMPARE(holdings.fits(r.peakBytes), holdings.fitLimitBytes > 0 && r.peakBytes <= holdings.fitLimitBytes);
    const QString remedy = VerdictText::remedy(v, VerdictText::English);
    for (const Verdict::Remedy& r : v.remedies) {
        if (r.kind == Verdict::Remedy::ChunkedLoss) // the what-if figure, cited
            QVERIFY(remedy.contains(QStringLiteral("the peak would be %1").arg(Formatting::bytes(r.peakWithoutBytes))));
    }
    QVERIFY(VerdictText::explanation(v, VerdictText::English).contains(QLatin1String("does not fit")));
}

// Every rule was checked, in the order of decision; the verdict is the first that applies; each rule that does not
// says why, and the runners-up's figures are the verdict's own (one computation).
static void checkConsidered(const Comparison& c)
{
    const Verdict& v = c.verdict();
    QCOMPARE(v.considered.size(), VerdictRules::Count);
    const size_t decided = VerdictRules::position(v.kind);
    for (size_t i = 0; i < VerdictRules::Count; ++i) {
        const Verdict::Consideration& rule = v.considered[i];
        QCOMPARE(rule.kind, VerdictRules::rules()[i].kind);
        QCOMPARE(rule.applies, rule.whyNot == Verdict::Consideration::Applies);
        if (i < decided)
            QVERIFY2(!rule.applies, Verdict::kindName(rule.kind));
        if (!rule.applies)
            QVERIFY(!VerdictText::consideration(rule, VerdictText::English).isEmpty());
    }
    QVERIFY(v.considered[decided].applies);
    const Verdict::Consideration& burden = v.considered[VerdictRules::position(Verdict::BurdenImbalance)];
    if (v.rankCount > 1) {
        QCOMPARE(int(burden.figure("outlier_rank")), v.outlierRank);
        QCOMPARE(burden.figure("excess_bytes"), v.outlierExcessBytes);
    }
    if (v.kind == Verdict::BurdenImbalance || v.kind == Verdict::InputImbalance || v.kind == Verdict::Balanced)
        QCOMPARE(burden.figure("baseline_bytes"), v.baselineBytes);
    if (v.kind == Verdict::BurdenImbalance || v.kind == Verdict::InputImbalance) {
        QCOMPARE(burden.figure("only_bytes"), v.onlyBytes);
        QCOMPARE(burden.figure("shared_bytes"), v.sharedBytes);
    }
    if (v.kind == Verdict::OverCapacity || v.kind == Verdict::Fragmentation || v.kind == Verdict::OutsideAllocator) {
        const Verdict::Consideration& fragmentation = v.considered[VerdictRules::position(Verdict::Fragmentation)];
        QCOMPARE(fragmentation.figure("free_in_reserve_bytes"), v.freeInReserveBytes);
        QCOMPARE(fragmentation.figure("largest_free_bytes"), v.largestFreeBytes);
        QCOMPARE(fragmentation.figure("requested_bytes"), v.oomRequestedBytes);

        const Verdict::Consideration& over = v.considered[VerdictRules::position(Verdict::OverCapacity)];
        QCOMPARE(over.figure("needed_bytes"), v.margin.neededBytes);
        QCOMPARE(over.figure("short_bytes"), v.margin.shortBytes);
        QCOMPARE(over.figure("stranded_bytes"), v.margin.strandedBytes);
        if (v.kind == Verdict::OverCapacity) {
            // The runner-up line names the other causes of an out-of-memory with their figures.
            const QString considered = VerdictText::considered(v, VerdictText::English);
            QVERIFY2(considered.contains(QLatin1String("fragmentation")), qPrintable(considered));
            QVERIFY(considered.contains(Formatting::bytes(v.freeInReserveBytes))
                || considered.contains(Formatting::bytes(v.largestFreeBytes)));
        }
    }
    QVERIFY(!VerdictText::confidence(v, VerdictText::English).isEmpty());
    // The JSON carries the same: every rule, why not, the confidence and (for an OOM) the margin.
    const nlohmann::json j = nlohmann::json::parse(DiffReport::json(c));
    QCOMPARE(j["verdict"]["considered"].size(), VerdictRules::Count);
    for (size_t i = 0; i < VerdictRules::Count; ++i)
        QCOMPARE(j["verdict"]["considered"][i].contains("why_not"), !v.considered[i].applies);
    QCOMPARE(j["verdict"]["confidence"].get<std::string>(), std::string(Verdict::confidenceName(v.confidence)));
    QCOMPARE(j["verdict"].contains("margin"), v.margin.outcome != Verdict::Margin::None);
    if (v.margin.outcome != Verdict::Margin::None) {
        QCOMPARE(j["verdict"]["margin"]["short_bytes"].get<int64_t>(), v.margin.shortBytes);
        QCOMPARE(j["verdict"]["margin"]["stranded_bytes"].get<int64_t>(), v.margin.strandedBytes);
        QCOMPARE(j["verdict"]["margin"]["largest_gap_bytes"].get<int64_t>(), v.margin.largestGapBytes);
    }
}

// What newer PyTorch writes, where the scenario has it: profiler steps among other annotated ranges, pinned host
// memory per rank (never a GPU's), and the pools trace entries name. Files without them show none of it.
static void checkNewerFields(const nlohmann::json& expected, const Comparison& c)
{
    for (size_t i = 0; i < c.ranks().size(); ++i) {
        const DeviceHistory& h = c.history(i);
        if (expected.contains("profiler_steps")) {
            const size_t steps = expected["profiler_steps"].get<size_t>();
            QCOMPARE(ProfilerStep::steps(h).size(), steps);
            QVERIFY(h.annotations().size() > steps); // the collectives and regions are there, and are not steps
        }
        const HostMemory& host = c.ranks()[i].host;
        QCOMPARE(host.recorded, expected.contains("host_allocated"));
        if (host.recorded) {
            QCOMPARE(host.allocatedBytes, expected["host_allocated"][size_t(c.ranks()[i].rank)].get<int64_t>());
            QCOMPARE(host.peakAllocatedBytes, expected["host_peak"][size_t(c.ranks()[i].rank)].get<int64_t>());
        }
    }
    // Pinned host memory alike said once: a line for each set of figures, not for each rank.
    if (expected.contains("host_allocated")) {
        std::set<std::pair<int64_t, int64_t>> figures;
        for (size_t r = 0; r < expected["host_allocated"].size(); ++r)
            figures.insert({ expected["host_allocated"][r].get<int64_t>(), expected["host_peak"][r].get<int64_t>() });
        const std::string text = DiffReport::text(c);
        const size_t section = text.find("\nPinned host memory");
        QVERIFY(section != std::string::npos);
        size_t lines = 0;
        for (size_t at = text.find("\n  rank", section); at != std::string::npos && at < text.find("\n\n", section + 1);
             at = text.find("\n  rank", at + 1))
            ++lines;
        QCOMPARE(lines, figures.size());
    }
    // A finding names the private pools its blocks are in, and only then.
    for (const Finding& f : c.findings()) {
        std::vector<std::vector<int64_t>> pools;
        for (const auto& [first, second] : f.privatePools)
            pools.push_back({ first, second });
        QVERIFY(pools == expected.value("finding_pools", std::vector<std::vector<int64_t>>()));
    }
    if (!expected.contains("entry_pools"))
        return;
    for (const auto& [site, pool] : expected["entry_pools"].items()) {
        const std::pair<int64_t, int64_t> wanted(pool[0].get<int64_t>(), pool[1].get<int64_t>());
        int found = 0;
        for (size_t i = 0; i < c.ranks().size(); ++i) {
            const DeviceHistory& h = c.history(i);
            for (const Allocation& a : h.allocations()) {
                const std::vector<StackText::Frame> frames =
                    StackText::stackFrames(h.snapshot(), a.stack, false).frames;
                if (frames.empty() || frames.front().name != site)
                    continue;
                QCOMPARE(h.pools()[a.poolIndex], wanted);
                ++found;
            }
        }
        QVERIFY2(found > 0, site.c_str());
    }
}

// Ranks alike said once: every rank in one group, alike with the figures the group gives; where the scenario says
// which groups, those, and each answer says each group once: the text and the JSON stay the size of what differs.
static void checkAlike(const nlohmann::json& expected, const Comparison& c)
{
    const AlikeRanks& alike = c.alike();
    size_t members = 0;
    for (size_t g = 0; g < alike.groups.size(); ++g) {
        for (size_t i : alike.groups[g].members) {
            QCOMPARE(alike.groupOf[i], g);
            QVERIFY(AlikeRanks::alike(c.ranks()[alike.groups[g].first()], c.ranks()[i], c.options().thresholdPercent));
        }
        members += alike.groups[g].members.size();
    }
    QCOMPARE(members, c.ranks().size());
    size_t findings = 0;
    for (const AlikeRanks::Group& g : alike.findingGroups)
        findings += g.members.size();
    QCOMPARE(findings, c.findings().size());
    if (!expected.contains("alike_groups"))
        return;
    std::vector<std::vector<int>> groups;
    for (const AlikeRanks::Group& g : alike.groups)
        groups.push_back(DiffReport::groupRanks(c, g.members));
    QCOMPARE(groups, expected["alike_groups"].get<std::vector<std::vector<int>>>());
    // The text: each group's failed request once, with its stack; the exceptions by their numbers.
    const std::string text = DiffReport::text(c);
    size_t asked = 0;
    for (size_t at = text.find("  asked for "); at != std::string::npos; at = text.find("  asked for ", at + 1))
        ++asked;
    QCOMPARE(asked, groups.size());
    for (const std::vector<int>& g : groups) {
        const std::string name = g.size() > 1 ? "ranks " + Formatting::ranks(g).toStdString() + ", alike:  asked for"
                                              : "rank " + std::to_string(g.front()) + "  asked for";
        QVERIFY2(text.find(name) != std::string::npos, name.c_str());
    }
    QVERIFY2(text.size() < 8000, std::to_string(text.size()).c_str());
    // The rank table lines up whatever its labels' length ("0–40, 42–63"): every row's file where the header's is.
    const QStringList lines = QString::fromStdString(text).split(QLatin1Char('\n'));
    const qsizetype header = lines.indexOf(QRegularExpression(QStringLiteral("^  rank .* file$")));
    QVERIFY(header >= 0);
    const qsizetype fileColumn = lines[header].indexOf(QLatin1String("file"));
    for (qsizetype i = header + 1;
         i < lines.size() && lines[i].startsWith(QLatin1String("  ")) && !lines[i].startsWith(QLatin1String("  ("));
         ++i)
        QVERIFY2(lines[i].indexOf(QLatin1String("  ") + scenarioDir()) + 2 == fileColumn, qPrintable(lines[i]));
    // The verdict names the group that stands out with its own request, and every other group once.
    const Verdict& v = c.verdict();
    for (const Verdict::OomGroup& g : v.oomGroups) {
        const std::string said = (g.ranks.size() > 1 ? "ranks " + Formatting::ranks(g.ranks).toStdString() + " alike"
                                                     : "rank " + std::to_string(g.figuresRank))
            + " asked for " + Formatting::bytes(g.requestedBytes).toStdString();
        QVERIFY2(text.find(said) != std::string::npos && text.find(said) == text.rfind(said), said.c_str());
    }
    if (!v.oomGroups.empty())
        QVERIFY(text.find("; rank " + std::to_string(v.figuresRank) + " needed ") != std::string::npos);
    // The reports: a section per group, the rank table a row per group.
    const std::string markdown = DiffReport::markdown(c, QString());
    size_t sections = 0;
    for (size_t at = markdown.find(" free on the device (event "); at != std::string::npos;
         at = markdown.find(" free on the device (event ", at + 1))
        ++sections;
    QCOMPARE(sections, groups.size());
    QVERIFY(markdown.find("Ranks " + Formatting::ranks(groups.front()).toStdString() + " alike ran out of memory")
        != std::string::npos);
    // The JSON: one stack for the request every group failed at per checkout its ranks ran from (ranks 0-1 on
    // Windows, the others from a container: each rank's answer names its own files), not one per rank; per-rank
    // records without frames.
    const nlohmann::json j = nlohmann::json::parse(DiffReport::json(c));
    QCOMPARE(j["groups"].size(), groups.size());
    QCOMPARE(j["stacks"].size(), size_t(2));
    QCOMPARE(j["verdict"]["oom"]["rank"].get<int>(), v.figuresRank);
    QCOMPARE(j["verdict"].contains("oom_groups"), !v.oomGroups.empty());
    const nlohmann::json& frames = j["stacks"][j["verdict"]["oom"]["stack"].get<size_t>()]["frames"];
    const bool container = v.figuresRank >= 2;
    for (const nlohmann::json& frame : frames) {
        const std::string file = frame.value("filename", "");
        QVERIFY2(file.empty() || file.starts_with("/") == container, file.c_str());
    }
    QVERIFY(frames[0].contains("inner_frames"));
    QVERIFY(frames[1]["own_code"].get<bool>());
    // A rank alike with its group's first says only what differs (its file); made whole, it is that rank's record.
    const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(DiffReport::json(c));
    for (size_t i = 0; i < c.ranks().size(); ++i) {
        const size_t first = alike.groups[alike.groupOf[i]].first();
        QCOMPARE(j["ranks"][i].contains("alike_with"), first != i);
        if (first != i)
            QVERIFY2(!j["ranks"][i].contains("categories") && j["ranks"][i].size() <= 5, j["ranks"][i].dump().c_str());
        const nlohmann::ordered_json whole = DiffReport::rankRecord(ordered, i);
        QCOMPARE(whole["rank"].get<int>(), c.ranks()[i].rank);
        QCOMPARE(whole["bytes_at_point"].get<int64_t>(), c.ranks()[i].bytesAtPoint);
        QVERIFY(!whole["oom"].contains("frames"));
        QCOMPARE(whole["oom"]["stack"].get<size_t>(), size_t(i >= 2 ? 1 : 0)); // ranks 2 and up: the container's
    }
    // A few hundred bytes a rank (each member's file, and from the container its stack), not a record of its own.
    const size_t bytes = DiffReport::json(c).size();
    QVERIFY2(bytes < 250 * c.ranks().size() + 20000, std::to_string(bytes).c_str());
}

// The verdict and findings a scenario expects, of one comparison of its ranks.
static void checkScenario(const nlohmann::json& expected, const ComparisonPtr& c, bool withLayout)
{
    QCOMPARE(c->layout().has_value(), withLayout);
    if (withLayout) {
        // B is a replica of A: a rank of another stage differs by design. Every rank is aligned within its group.
        const auto [a, b] = c->defaultPair();
        QCOMPARE(c->ranks()[size_t(c->rankIndex(a))].group, c->ranks()[size_t(c->rankIndex(b))].group);
        for (const RankSummary& r : c->ranks()) {
            if (r.alignedTo >= 0)
                QCOMPARE(c->ranks()[size_t(c->rankIndex(r.alignedTo))].group, r.group);
        }
    }
    if (expected.contains("findings_ranks")) {
        // With a layout, ranks are compared with their replicas: stages that differ by design give no finding.
        const std::vector<int> allowed = expected["findings_ranks"];
        for (const Finding& f : c->findings())
            QVERIFY(std::find(allowed.begin(), allowed.end(), f.rank) != allowed.end());
    }
    // A finding's runs in the JSON: each run while there are few; past the limit one range per segment, that holds
    // every run (here every finding's runs together, with a limit of 4).
    std::vector<FindingRun> runs;
    for (const Finding& f : c->findings())
        runs.insert(runs.end(), f.runs.begin(), f.runs.end());
    if (runs.size() > 4) {
        QCOMPARE(DiffReport::runsJson(runs, runs.size()).size(), runs.size());
        const nlohmann::ordered_json ranges = DiffReport::runsJson(runs, 4);
        std::set<uint64_t> segments;
        uint64_t count = 0;
        uint64_t bytes = 0;
        for (const FindingRun& r : runs) {
            segments.insert(r.segment);
            bytes += uint64_t(r.size);
        }
        for (const nlohmann::ordered_json& r : ranges)
            count += r["count"].get<uint64_t>();
        QCOMPARE(ranges.size(), segments.size());
        QCOMPARE(count, uint64_t(runs.size()));
        uint64_t rangeBytes = 0;
        for (const nlohmann::ordered_json& r : ranges)
            rangeBytes += r["bytes"].get<uint64_t>();
        QCOMPARE(rangeBytes, bytes);
    }
    // The finding a view selects first is of the ranks it shows: A's largest where A has any, else B's.
    const auto [a, b] = c->defaultPair();
    const int selected = c->defaultFinding();
    int largestOfA = -1;
    for (size_t i = 0; i < c->findings().size(); ++i) {
        if (c->findings()[i].rank == a
            && (largestOfA < 0 || c->findings()[i].excessBytes > c->findings()[size_t(largestOfA)].excessBytes))
            largestOfA = int(i);
    }
    if (largestOfA >= 0)
        QCOMPARE(selected, largestOfA);
    else if (selected >= 0)
        QCOMPARE(c->findings()[size_t(selected)].rank, b);
    // The user's finding where its rank is shown, else the same default; the largest of those a filter leaves.
    for (size_t i = 0; i < c->findings().size(); ++i) {
        const int rank = c->findings()[i].rank;
        QCOMPARE(c->findingToShow(a, b, int(i)), rank == a || rank == b ? int(i) : selected);
        const int among = c->findingToShow(a, b, -1, [i](size_t f) { return f != i; });
        QVERIFY(among != int(i));
        if (int(i) != selected)
            QCOMPARE(among, selected);
    }
    const Verdict& v = c->verdict();
    QCOMPARE(QString::fromLatin1(Verdict::kindName(v.kind)), QString::fromStdString(expected["kind"]));
    checkConsidered(*c);
    checkOutOfMemory(expected, *c);
    checkNewerFields(expected, *c);
    checkAlike(expected, *c);
    // The moment compared, where the scenario says which.
    if (expected.contains("moment"))
        QCOMPARE(std::string(Moment::reasonName(v.moment.reason)), expected["moment"].get<std::string>());
    // Ranks alike that stand out together are named together, never one of them alone.
    if (expected.contains("group_ranks") && v.kind != Verdict::ModelParallelImbalance) {
        QCOMPARE(v.rank, -1);
        QCOMPARE(v.groupRanks, expected["group_ranks"].get<std::vector<int>>());
        QCOMPARE(v.otherRanks, expected["other_ranks"].get<std::vector<int>>());
        QCOMPARE(v.fittingLayout, expected["suggested_layout_text"].get<std::string>());
        QVERIFY(VerdictText::explanation(v, VerdictText::English)
                    .contains(v.fittingLayout.empty() ? QStringLiteral("stand out together")
                                                      : QString::fromStdString("give the layout " + v.fittingLayout)));
    }
    // Only the kinds of finding the edit makes: a relocated rank must not turn shared code into "only on rank".
    if (expected.contains("finding_kinds")) {
        const std::vector<std::string> kinds = expected["finding_kinds"];
        for (const Finding& f : c->findings())
            QVERIFY2(std::find(kinds.begin(), kinds.end(), Finding::kindName(f.kind)) != kinds.end(),
                qPrintable(QStringLiteral("rank %1: %2 at %3")
                               .arg(f.rank)
                               .arg(QLatin1String(Finding::kindName(f.kind)),
                                   QString::fromStdString(c->sites().label(f.site)))));
    }
    if (expected["kind"] == "balanced") {
        if (!expected.contains("findings_rank")) {
            QVERIFY(c->findings().empty()); // identical ranks cancel everywhere
            return;
        }
        QVERIFY(!c->findings().empty());
        for (const Finding& f : c->findings())
            QCOMPARE(f.rank, expected["findings_rank"].get<int>());
        return;
    }
    QCOMPARE(v.rank, expected["rank"].get<int>());
    // The device is named where ranks use several (or each its own number), and only then.
    QCOMPARE(v.device, expected.value("device", -1));
    if (expected.contains("culprit_ranks"))
        QCOMPARE(v.culpritRanks, expected["culprit_ranks"].get<std::vector<int>>());
    if (v.kind == Verdict::Growth) {
        // Every step compared, how much it adds up to, and who grows.
        QCOMPARE(v.growthRanks, expected["growth_ranks"].get<std::vector<int>>());
        const std::vector<int64_t> steps = expected.value("steps", std::vector<int64_t>({ 10, 20, 30 }));
        QCOMPARE(v.steps, steps);
        QCOMPARE(v.totalGrowthBytes, int64_t(steps.size() - 1) * v.excessBytes);
        QCOMPARE(c->ranks()[size_t(c->rankIndex(v.rank))].peakPerStep.size(), steps.size());
        QVERIFY(VerdictText::explanation(v, VerdictText::English)
                    .contains(v.growthRanks.size() == 1 ? QLatin1String("Only rank") : QLatin1String("grow.")));
    }
    if (expected.contains("suspect_ranks")) {
        // Below the threshold no stray verdict, but the culprit is named among the suspects, with its bytes.
        QCOMPARE(v.suspects.size(), size_t(1));
        QCOMPARE(v.suspects[0].kind, Verdict::Suspect::ForeignDevice);
        QCOMPARE(v.suspects[0].ranks, expected["suspect_ranks"].get<std::vector<int>>());
        QVERIFY(VerdictText::explanation(v, VerdictText::English).contains(QLatin1String("Suspects the files show")));
    } else {
        QVERIFY(v.suspects.empty());
    }
    // A rank that ran with other allocator settings is named, and only then: files of two PyTorch versions (another
    // set of keys, the variable's new name) are no difference.
    std::vector<std::pair<int, std::string>> settings;
    for (const Verdict::SettingDifference& d : v.settingDifferences)
        settings.emplace_back(d.rank, d.setting);
    std::vector<std::pair<int, std::string>> expectedSettings;
    for (const auto& d : expected.value("settings_differ", nlohmann::json::array()))
        expectedSettings.emplace_back(d["rank"].get<int>(), d["setting"].get<std::string>());
    QCOMPARE(settings, expectedSettings);
    QCOMPARE(VerdictText::explanation(v, VerdictText::English).contains(QLatin1String("Allocator settings differ")),
        !settings.empty());
    if (v.kind == Verdict::Fragmentation) {
        // Enough free in reserve for the request, in no block as large: and the remedy fits the allocator's settings.
        QVERIFY(v.freeInReserveBytes >= v.oomRequestedBytes);
        QVERIFY(v.largestFreeBytes < v.oomRequestedBytes);
        QVERIFY(v.fragmentedSegments > 0);
        QCOMPARE(v.expandableSegments, expected["expandable_segments"].get<bool>());
        QCOMPARE(VerdictText::remedy(v, VerdictText::English)
                     .startsWith(QLatin1String("Expandable segments are already on")),
            v.expandableSegments);
    }
    if (v.kind == Verdict::ModelParallelImbalance) {
        // The group is named with its ranks and the layers' site; the stages' replicas agree, so nothing else shows.
        QCOMPARE(v.group, expected["group"].get<std::string>());
        QCOMPARE(v.groupRanks, expected["group_ranks"].get<std::vector<int>>());
        QVERIFY(!v.topSites.empty());
        QVERIFY2(v.topSites.front().label.find(expected["top_site"].get<std::string>()) != std::string::npos,
            v.topSites.front().label.c_str());
        QVERIFY(c->findings().empty());
        QVERIFY(VerdictText::explanation(v, VerdictText::English).contains(QLatin1String("split unevenly")));
    }
    QVERIFY(!VerdictText::explanation(v, VerdictText::English).isEmpty());
    QVERIFY(!VerdictText::remedy(v, VerdictText::English).isEmpty());
    if (expected.contains("point")) {
        for (const RankSummary& r : c->ranks())
            QCOMPARE(r.point.kind, TimelinePoint::Snapshot); // no trace: compared at the snapshot
    }
    if (!expected.contains("finding_kind"))
        return;
    QVERIFY(!c->findings().empty());
    const Finding& top = c->findings().front();
    QCOMPARE(top.rank, expected.value("finding_rank", expected["rank"].get<int>()));
    QCOMPARE(QString::fromLatin1(Finding::kindName(top.kind)), QString::fromStdString(expected["finding_kind"]));
    if (expected.contains("site"))
        QCOMPARE(QString::fromStdString(innermostName(*c, top)), QString::fromStdString(expected["site"]));
    if (expected.contains("label")) {
        const std::string label = c->sites().label(top.site);
        QVERIFY2(label.starts_with(expected["label"].get<std::string>()), label.c_str());
    }
    if (expected.contains("excess_bytes"))
        QCOMPARE(top.excessBytes, expected["excess_bytes"].get<int64_t>());
    if (expected.contains("ranks_with_site"))
        QCOMPARE(top.ranksWithSite, expected["ranks_with_site"].get<int>());
    if (v.kind == Verdict::StrayDevice) {
        // The culprits' allocations on the victim's GPU make up the whole excess.
        int64_t stray = 0;
        for (const Finding& f : c->findings())
            stray += f.kind == Finding::ForeignDevice && f.device == v.device ? f.excessBytes : 0;
        QCOMPARE(stray, v.excessBytes);
        return;
    }
    // The finding explains the rank's excess (unless the edit spread it over many sites); nothing else stands out.
    if (!expected.value("findings_spread", false))
        QVERIFY(top.excessBytes * 10 >= v.excessBytes * 9);
    for (size_t i = 1; i < c->findings().size(); ++i)
        QVERIFY(c->findings()[i].excessBytes <= top.excessBytes);
    QVERIFY(
        VerdictText::explanation(v, VerdictText::English).contains(QString::fromStdString(c->sites().label(top.site))));
}

void TestComparison::rulePerKind_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("control");
    QTest::addColumn<QString>("figure");
    QTest::addColumn<qint64>("atLeast");
    RANKSCOPE_REQUIRE_FIXTURE(scenarioDir());
    const auto row = [](Verdict::Kind kind, const char* scenario, const char* control, const char* figure,
                         qint64 atLeast) {
        QTest::newRow(Verdict::kindName(kind))
            << int(kind) << QString::fromLatin1(scenario) << QString::fromLatin1(control) << QString::fromLatin1(figure)
            << atLeast;
    };
    const qint64 MiB = 1 << 20;
    row(Verdict::StrayDevice, "gpu0_load_4", "shared_numbering_balanced_4", "stray_bytes", 4608 * MiB);
    row(Verdict::Growth, "growth_steps_4", "growth_balanced_steps_4", "growth_bytes", 256 * MiB);
    row(Verdict::BurdenImbalance, "burden_8", "balanced_8", "only_bytes", 1024 * MiB);
    row(Verdict::InputImbalance, "input_8", "balanced_8", "shared_bytes", 512 * MiB);
    row(Verdict::ModelParallelImbalance, "pp2_uneven_stages_8", "pp2_dp4_balanced_8", "group_model_state_excess_bytes",
        2048 * MiB);
    row(Verdict::Fragmentation, "fragmentation_oom_4", "oom_outside_4", "free_in_reserve_bytes", 982 * MiB);
    row(Verdict::OutsideAllocator, "outside_one_of_4", "capacity_one_unreached_4", "fitting_ranks", 3);
    row(Verdict::OverCapacity, "capacity_activations_4", "capacity_activations_balanced_4", "needed_bytes",
        13 * 1024 * MiB);
    row(Verdict::Balanced, "balanced_8", "burden_8", "oom_ranks", 0);
}

// Each rule on its own: it applies on its scenario (and decides it), with the figure it judged by, and does not on
// its control, saying why.
void TestComparison::rulePerKind()
{
    QFETCH(int, kind);
    QFETCH(QString, scenario);
    QFETCH(QString, control);
    QFETCH(QString, figure);
    QFETCH(qint64, atLeast);
    const size_t at = VerdictRules::position(Verdict::Kind(kind));
    const ComparisonPtr on = Comparison::compute(loadRanks(scenarioDir() + QLatin1Char('/') + scenario), {});
    const Verdict::Consideration& applied = on->verdict().considered[at];
    QCOMPARE(int(on->verdict().kind), kind);
    QVERIFY(applied.applies);
    QVERIFY2(applied.figure(figure.toStdString()) >= atLeast,
        qPrintable(QString::number(applied.figure(figure.toStdString()))));
    const ComparisonPtr off = Comparison::compute(loadRanks(scenarioDir() + QLatin1Char('/') + control), {});
    const Verdict::Consideration& not_ = off->verdict().considered[at];
    QVERIFY(!not_.applies);
    QVERIFY(not_.whyNot != Verdict::Consideration::Applies);
    QVERIFY(int(off->verdict().kind) != kind);
    QVERIFY(VerdictText::consideration(not_, VerdictText::English)
                .startsWith(QString::fromLatin1(Verdict::kindName(Verdict::Kind(kind))) + QLatin1String(": ")));
}

// Files PyTorch wrote itself on a GPU (tests/data/gpu_jobs): the margin from the failed request's own figures. Capped
// by a memory fraction, every rank ran out with the device mostly free: not reached, and said to be a limit; with
// memory taken outside PyTorch on one rank, its replicas went on and it missed by what its device lacked.
void TestComparison::genuineOutOfMemory()
{
    const QString jobs = dataDir() + QStringLiteral("/gpu_jobs/");
    const ComparisonPtr capped = Comparison::compute(loadRanks(jobs + QStringLiteral("fraction")), {});
    const Verdict& v = capped->verdict();
    QCOMPARE(v.kind, Verdict::OverCapacity);
    QCOMPARE(v.oomRanks, std::vector<int>({ 0, 1, 2, 3 }));
    QCOMPARE(v.margin.outcome, Verdict::Margin::NotReached);
    QCOMPARE(v.margin.requestedBytes, int64_t(512) << 20);
    QVERIFY(v.margin.deviceFreeBytes > int64_t(100) << 30);
    QCOMPARE(v.margin.fitBytes(), int64_t(0));
    QCOMPARE(capped->verdictHoldings().fits(0), false); // no peak says what would have fit
    QCOMPARE(v.confidence, Verdict::Medium);
    QCOMPARE(v.remedies.front().kind, Verdict::Remedy::RaiseLimit); // the limit first, not sharding 768 MiB
    QVERIFY(
        VerdictText::explanation(v, VerdictText::English).contains(QLatin1String("set_per_process_memory_fraction")));
    QVERIFY(
        VerdictText::explanation(v, VerdictText::English).contains(QLatin1String("in what the process was allowed")));
    QVERIFY(VerdictText::confidence(v, VerdictText::English).contains(QLatin1String("a limit, not the GPU")));

    const ComparisonPtr outside = Comparison::compute(loadRanks(jobs + QStringLiteral("outside")), {});
    const Verdict& o = outside->verdict();
    QCOMPARE(o.kind, Verdict::OutsideAllocator);
    QCOMPARE(o.rank, 2);
    QCOMPARE(o.fittingRanks, std::vector<int>({ 0, 1, 3 }));
    QCOMPARE(o.margin.outcome, Verdict::Margin::ShortOfBytes);
    QCOMPARE(o.margin.shortBytes, o.oomRequestedBytes - o.oomDeviceFreeBytes);
    QVERIFY(o.margin.shortBytes > 0 && o.margin.shortBytes < int64_t(100) << 20);
    QCOMPARE(o.confidence, Verdict::High);
    checkConsidered(*outside);
    checkConsidered(*capped);
}

// A rank alone that ran out of memory: over capacity on its own file, named; the same file without the OOM is a
// one-rank summary, not an out-of-memory verdict.
void TestComparison::oneRankOutOfMemory()
{
    const auto one = [](const QString& folder) {
        const LoadedFile f =
            LoadedFile::load(scenarioDir() + folder + QStringLiteral("/rank2_memory_snapshot.pickle"), 2, false);
        return Comparison::compute({ { 2, f.path, f.snapshot } }, {});
    };
    const ComparisonPtr c = one(QStringLiteral("/capacity_loss_4"));
    const Verdict& v = c->verdict();
    QCOMPARE(v.kind, Verdict::OverCapacity);
    QCOMPARE(v.rank, 2);
    QCOMPARE(v.oomRanks, std::vector<int>({ 2 }));
    QVERIFY(v.oomSite.find("log_softmax") != std::string::npos);
    QVERIFY(std::any_of(v.remedies.begin(), v.remedies.end(),
        [](const Verdict::Remedy& r) { return r.kind == Verdict::Remedy::ChunkedLoss; }));
    QVERIFY(VerdictText::title(v, VerdictText::English).contains(QLatin1String("rank 2 needs more memory")));
    QCOMPARE(c->defaultPair().first, 2);

    const ComparisonPtr control = one(QStringLiteral("/capacity_loss_balanced_4"));
    QCOMPARE(control->verdict().kind, Verdict::Balanced);
    QVERIFY(control->verdict().oomRanks.empty());
    QVERIFY(VerdictText::title(control->verdict(), VerdictText::English).startsWith(QLatin1String("One rank")));
}

// The what-if peaks against a replay written the plain way: at every moment, the bytes of every allocation live there
// that is not left out, plus each failed request at its OOM; the highest of them.
void TestComparison::whatIfMatchesAnIndependentReplay()
{
    struct Case
    {
        const char* folder;
        int rank;
    };
    for (const Case& k : { Case { "/capacity_loss_4", 1 }, Case { "/burden_8", 7 }, Case { "/outside_one_of_4", 2 },
             Case { "/fragmentation_oom_4", 3 } }) {
        const ComparisonPtr c = Comparison::compute(loadRanks(scenarioDir() + QLatin1String(k.folder)), {});
        const size_t r = size_t(c->rankIndex(k.rank));
        const DeviceHistory& h = c->history(r);
        const std::vector<Category>& categories = c->categories(r);
        const StackSites& sites = c->stackSites(r);
        const RankHoldings holdings = c->holdingsOf(r, h.peakEvent(), 12); // many sites live there
        QVERIFY(holdings.whatIf.size() > 6);
        const WhatIf whatIf(h, categories, sites); // for the category a failed request counts in
        const auto plainPeak = [&](const WhatIf::Candidate* without) {
            const auto dropped = [&](StackId stack, Category category) {
                return without
                    && (without->kind == WhatIf::Candidate::Site ? sites[stack] == without->site
                                                                 : category == without->category);
            };
            int64_t best = std::numeric_limits<int64_t>::min();
            const std::span<const Allocation> allocations = h.allocations();
            for (EventIndex e = BeforeTrace; e < EventIndex(h.eventCount()); ++e) {
                int64_t total = 0;
                for (size_t i = 0; i < allocations.size(); ++i)
                    total += allocations[i].liveAfter(e) && !dropped(allocations[i].stack, categories[i])
                        ? allocations[i].size
                        : 0;
                for (size_t k = 0; k < h.ooms().size(); ++k) {
                    const OomMarker& oom = h.ooms()[k];
                    if (EventIndex(oom.event) == e && !dropped(oom.stack, whatIf.requestCategory(k)))
                        total += oom.requestedBytes;
                }
                best = std::max(best, total);
            }
            return best;
        };
        const int64_t all = plainPeak(nullptr);
        QCOMPARE(holdings.peakBytes, all);
        if (h.ooms().empty())
            QCOMPARE(all, h.peakBytes()); // without failed requests, the viewer's peak
        else
            QVERIFY(all >= h.peakBytes()); // the request counts where it was made, which may be after the peak
        for (const WhatIf::Result& result : holdings.whatIf) {
            QCOMPARE(result.peakBytes, plainPeak(&result.without));
            QCOMPARE(result.savedBytes, all - result.peakBytes);
        }
    }
}

// Peaks alike, one rank holding far more mid-step: compared there, and said why; the control stays at the peak. An
// out-of-memory verdict is compared at the OOM.
void TestComparison::momentsAcrossTheAlignedTrace()
{
    const ComparisonPtr c = Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/midstep_input_4")), {});
    const Verdict& v = c->verdict();
    QCOMPARE(v.kind, Verdict::InputImbalance);
    QCOMPARE(v.moment.reason, Moment::MidStep);
    QCOMPARE(v.moment.rank, 2);
    QCOMPARE(c->alignedTo(), 2);
    QCOMPARE(c->pointName(), std::string("aligned"));
    // At the peak it was under the threshold; each rank's largest aligned excess is kept, rank 2's the largest.
    QVERIFY(v.peakOutlierExcessBytes * 50 < c->ranks()[0].peakAllocatedBytes);
    QCOMPARE(v.peakCategory, Category::OptimizerState);
    const RankSummary& two = c->ranks()[size_t(c->rankIndex(2))];
    for (const RankSummary& r : c->ranks()) {
        QCOMPARE(r.alignedTo, 2);
        QVERIFY(r.rank == 2 || r.alignedExcessBytes < two.alignedExcessBytes);
    }
    QCOMPARE(two.point.event, v.moment.event);
    QVERIFY(VerdictText::explanation(v, VerdictText::English)
                .contains(QLatin1String("At the highest peak the ranks are alike")));
    const nlohmann::json j = nlohmann::json::parse(DiffReport::json(*c));
    QCOMPARE(j["moment"]["reason"].get<std::string>(), std::string("mid_step"));
    QCOMPARE(j["ranks"][2]["aligned_excess_bytes"].get<int64_t>(), two.alignedExcessBytes);

    const ComparisonPtr control =
        Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/midstep_balanced_4")), {});
    QCOMPARE(control->verdict().kind, Verdict::Balanced);
    QCOMPARE(control->verdict().moment.reason, Moment::HighestPeak);
    for (const RankSummary& r : control->ranks())
        QCOMPARE(r.alignedExcessBytes, int64_t(0));
    // --at peak stays each rank's own peak.
    ComparisonOptions atPeak;
    atPeak.point = TimelinePoint::parse("peak");
    QCOMPARE(Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/midstep_input_4")), atPeak)->verdict().kind,
        Verdict::Balanced);

    const ComparisonPtr oom = Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/capacity_loss_4")), {});
    QCOMPARE(oom->verdict().moment.reason, Moment::OutOfMemory);
    for (size_t i = 0; i < oom->ranks().size(); ++i)
        QCOMPARE(oom->ranks()[i].point.event, EventIndex(oom->history(i).ooms().back().event));
}

// A point picked on one rank is that rank's event and every other rank at the same moment of its own trace, even
// where the traces start at different events; event:N alone keeps its meaning.
void TestComparison::pickedPointsAreAlignedMoments()
{
    const std::vector<RankInput> ranks = loadRanks(scenarioDir() + QStringLiteral("/phase_shift_4"));
    ComparisonOptions picked;
    picked.point = TimelinePoint::parse("event:1500@0");
    QVERIFY(picked.point && picked.point->rank == 0);
    const ComparisonPtr c = Comparison::compute(ranks, picked);
    QCOMPARE(c->pointName(), std::string("event:1500@0"));
    QCOMPARE(c->verdict().moment.reason, Moment::Picked);
    for (const RankSummary& r : c->ranks())
        QCOMPARE(r.point.event, EventIndex(r.rank == 2 ? 1800 : 1500));
    QVERIFY(c->findings().empty());
    QCOMPARE(c->verdict().kind, Verdict::Balanced);

    ComparisonOptions index;
    index.point = TimelinePoint::parse("event:1500");
    const ComparisonPtr same = Comparison::compute(ranks, index);
    for (const RankSummary& r : same->ranks())
        QCOMPARE(r.point.event, EventIndex(1500));
    QVERIFY(!same->findings().empty()); // rank 2's event 1500 is another moment
    QVERIFY(!TimelinePoint::parse("event:1500@x"));
    QVERIFY(!TimelinePoint::parse("event:@2"));
}

// Two groups of identical ranks: named as groups with the layout they fit, with a layout of one replica group as
// without one; with the layout that makes them stages, nothing stands out.
void TestComparison::groupsOfIdenticalRanks()
{
    const std::vector<RankInput> ranks = loadRanks(scenarioDir() + QStringLiteral("/two_groups_8"));
    ComparisonOptions flat;
    flat.layout = ParallelLayout::parse("dp=8", nullptr);
    const ComparisonPtr c = Comparison::compute(ranks, flat);
    QCOMPARE(c->verdict().rank, -1);
    QCOMPARE(c->verdict().groupRanks, std::vector<int>({ 0, 1, 2, 3 }));
    QCOMPARE(c->verdict().fittingLayout, std::string("pp=2,dp=4"));
    QCOMPARE(c->defaultPair().first, 0);
    QVERIFY(c->ranks()[size_t(c->rankIndex(c->defaultPair().second))].rank >= 4);
    ComparisonOptions stages;
    stages.layout = ParallelLayout::parse("pp=2,dp=4", nullptr);
    const ComparisonPtr s = Comparison::compute(ranks, stages);
    QCOMPARE(s->verdict().kind, Verdict::Balanced);
    QVERIFY(s->findings().empty());
}

void TestComparison::scenarios()
{
    QFETCH(QString, folder);
    QFile f(folder + QStringLiteral("/scenario.expect"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const nlohmann::json expected = nlohmann::json::parse(f.readAll().toStdString());
    const std::vector<RankInput> ranks = loadRanks(folder);
    QVERIFY(ranks.size() >= 2);
    // A folder of several steps is one step's ranks, never ranks made of steps.
    QCOMPARE(RankFiles::chooseStep(RankFiles::expand({ folder })).chosen, expected.value("step", int64_t(-1)));
    std::set<int> rankNumbers;
    for (const RankInput& r : ranks)
        QVERIFY(rankNumbers.insert(r.rank).second);
    QCOMPARE(ranks.back().rank, int(ranks.size()) - 1);
    if (expected.contains("notes")) {
        // Local ranks are not global ranks: each such file says so, and keeps its place among the files.
        int notes = 0;
        for (const LoadedFile& f : LoadedFile::loadAll(RankFiles::expand({ folder })))
            notes += f.note.contains(QLatin1String("local rank")) ? 1 : 0;
        QCOMPARE(notes, expected["notes"].get<int>());
    }
    // With a layout, and where the files show it, without one: the guess must give the same answer.
    ComparisonOptions options;
    if (expected.contains("layout"))
        options.layout = ParallelLayout::parse(expected["layout"].get<std::string>(), nullptr);
    options.deviceMemoryBytes = expected.value("device_memory", int64_t(0));
    options.site.myCodeOnly = expected.value("my_code", false);
    const ComparisonPtr compared = Comparison::compute(ranks, options);
    checkScenario(expected, compared, options.layout.has_value());
    if (options.site.myCodeOnly) {
        // A framework under site-packages is the user's code where no frame is theirs: its frames key the sites, and
        // no more memory goes to the site without frames than without --my-code.
        QCOMPARE(compared->sites().frameworksCounted(), expected["my_code_counted"].get<std::vector<std::string>>());
        ComparisonOptions all = options;
        all.site.myCodeOnly = false;
        const ComparisonPtr unfiltered = Comparison::compute(ranks, all);
        for (size_t i = 0; i < ranks.size(); ++i)
            QCOMPARE(compared->siteTotal(0, i).first, unfiltered->siteTotal(0, i).first);
        for (const Finding& f : compared->findings())
            QVERIFY(!compared->sites().frames(f.site).empty());
    }
    if (expected.contains("suggested_layout")) {
        ComparisonOptions guessing;
        guessing.deviceMemoryBytes = options.deviceMemoryBytes;
        const ComparisonPtr guessed = Comparison::compute(ranks, guessing);
        QVERIFY(guessed->layout() && guessed->layout()->suggested);
        QCOMPARE(guessed->layout()->text(), expected["suggested_layout"].get<std::string>());
        checkScenario(expected, guessed, true);
    } else if (!expected.contains("layout")) {
        QVERIFY(!Comparison::compute(ranks, options)->layout()); // nothing to guess where no layout is expected
    }
}

// One training step written as PyTorch records it: the batch, forward, backward (the autograd engine's allocations
// without frames, as its threads record none), an optimizer step, and what is held from before the trace.
void TestComparison::categoriesFromStackAndLifetime()
{
    const char* json = R"({"segments": [{"device": 0, "address": 36864, "total_size": 1024, "allocated_size": 1024,
        "active_size": 1024, "requested_size": 1000, "stream": 0, "segment_type": "large",
        "blocks": [{"address": 36864, "size": 1024, "requested_size": 1000, "state": "active_allocated"}]}],
      "device_traces": [[
        {"action": "alloc", "addr": 40960, "size": 10, "stream": 0, "frames": [
            {"name": "forward", "filename": "/p/model.py", "line": 12}]},
        {"action": "alloc", "addr": 45056, "size": 10, "stream": 0, "frames": [
            {"name": "_init_group", "filename": "/v/torch/optim/adam.py", "line": 1}]},
        {"action": "free_completed", "addr": 45056, "size": 10, "stream": 0},
        {"action": "free_completed", "addr": 40960, "size": 10, "stream": 0},
        {"action": "alloc", "addr": 4096, "size": 100, "stream": 0, "frames": [
            {"name": "load_batch", "filename": "/p/train.py", "line": 9}]},
        {"action": "alloc", "addr": 8192, "size": 200, "stream": 0, "frames": [
            {"name": "forward", "filename": "/p/model.py", "line": 10},
            {"name": "_call_impl", "filename": "/v/torch/nn/modules/module.py", "line": 1},
            {"name": "<module>", "filename": "/p/train.py", "line": 20}]},
        {"action": "alloc", "addr": 12288, "size": 50, "stream": 0, "frames": [
            {"name": "forward", "filename": "/p/model.py", "line": 11},
            {"name": "<module>", "filename": "/p/train.py", "line": 20}]},
        {"action": "free_completed", "addr": 12288, "size": 50, "stream": 0},
        {"action": "alloc", "addr": 28672, "size": 8, "stream": 0, "frames": [
            {"name": "cross_entropy", "filename": "/p/train.py", "line": 21}]},
        {"action": "alloc", "addr": 16384, "size": 300, "stream": 0, "frames": []},
        {"action": "alloc", "addr": 20480, "size": 30, "stream": 0, "frames": [
            {"name": "backward", "filename": "/v/torch/_tensor.py", "line": 1},
            {"name": "<module>", "filename": "/p/train.py", "line": 22}]},
        {"action": "free_completed", "addr": 20480, "size": 30, "stream": 0},
        {"action": "free_completed", "addr": 8192, "size": 200, "stream": 0},
        {"action": "alloc", "addr": 24576, "size": 400, "stream": 0, "frames": [
            {"name": "_init_group", "filename": "/v/torch/optim/adam.py", "line": 1},
            {"name": "<module>", "filename": "/p/train.py", "line": 23}]},
        {"action": "alloc", "addr": 32768, "size": 40, "stream": 0, "frames": [
            {"name": "_multi_tensor_adam", "filename": "/v/torch/optim/adam.py", "line": 2},
            {"name": "<module>", "filename": "/p/train.py", "line": 23}]},
        {"action": "free_completed", "addr": 32768, "size": 40, "stream": 0},
        {"action": "free_completed", "addr": 28672, "size": 8, "stream": 0}
      ]]})";
    QByteArray bytes(json);
    QBuffer buffer(&bytes);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const SnapshotPtr snapshot = SnapshotReader::read(&buffer).snapshot;
    const DeviceHistoryPtr h = DeviceHistory::build(snapshot, 0);
    const std::vector<Category> categories = Categories::classify(*h);
    std::vector<std::string> names;
    for (Category c : categories)
        names.push_back(categoryName(c));
    // In allocation order, then what was held before the trace. The first forward allocation outlives its run (an
    // optimizer's allocation ends it) but is freed before backward begins: a temporary, not saved for backward.
    const std::vector<std::string> expected = { "temporary", "temporary", "other", "activation", "temporary", "other",
        "gradient", "temporary", "optimizer_state", "temporary", "parameter" };
    QCOMPARE(names, expected);

    // A rule of the user's decides before the built-in ones.
    CategoryRules rules =
        CategoryRules::parse("# the batch is the model's input here\nactivation  train.py:load_batch\n", "rules.txt");
    QCOMPARE(categoryName(Categories::classify(*h, rules)[2]), "activation");
    // The first rule any frame of the stack matches decides, in the rules' order, not the frames': the second
    // forward allocation's outer frame meets the first rule and its inner frame the second.
    rules = CategoryRules::parse("parameter train.py:<module>\ngradient model.py:forward\n", "rules.txt");
    const std::vector<Category> ruled = Categories::classify(*h, rules);
    QCOMPARE(categoryName(ruled[0]), "gradient");
    QCOMPARE(categoryName(ruled[3]), "parameter");
    QCOMPARE(categoryName(ruled[4]), "parameter");
    QCOMPARE(categoryName(ruled[2]), "other");

    // A profile's own categories decide before the stack: the loss outside the model, "other" by its stack, is an
    // activation where the profiler says so.
    const ComparisonPtr plain = Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/balanced_8")), {});
    const ComparisonPtr profiled =
        Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/profiler_host_balanced_4")), {});
    QVERIFY(plain->ranks()[0].categoryBytes[size_t(Category::Other)] > (900 << 20));
    QVERIFY(profiled->ranks()[0].categoryBytes[size_t(Category::Other)] < (1 << 20));
    QCOMPARE(profiled->ranks()[0].bytesAtPoint, plain->ranks()[0].bytesAtPoint);
}

void TestComparison::sitesNumberedInTheOrderMet()
{
    // Sites are numbered as the comparison first meets them, whichever core found what each rank holds: each rank's
    // live allocations at its point, rank by rank, then each rank's allocations and failed requests at any moment.
    // Ties between equal holdings are broken by these numbers, so another order would change what is listed.
    for (const char* job : { "/input_2", "/burden_8", "/capacity_loss_4" }) {
        const ComparisonPtr c = Comparison::compute(loadRanks(scenarioDir() + QLatin1String(job)), {});
        // Site 0, of stacks without frames, is there from the start.
        std::vector<uint8_t> seen(c->sites().size(), 0);
        seen[0] = 1;
        std::vector<SiteId> firstMet { 0 };
        const auto meet = [&](size_t r, StackId stack) {
            const SiteId site = c->stackSites(r)[stack];
            if (site != NoSite && !seen[site]) {
                seen[site] = 1;
                firstMet.push_back(site);
            }
        };
        for (size_t r = 0; r < c->ranks().size(); ++r) {
            for (uint32_t i : c->history(r).liveSet(c->ranks()[r].point.event))
                meet(r, c->history(r).allocations()[i].stack);
        }
        for (size_t r = 0; r < c->ranks().size(); ++r) {
            for (const Allocation& a : c->history(r).allocations())
                meet(r, a.stack);
            for (const OomMarker& oom : c->history(r).ooms())
                meet(r, oom.stack);
        }
        std::vector<SiteId> inOrder(c->sites().size());
        std::iota(inOrder.begin(), inOrder.end(), SiteId(0));
        QCOMPARE(firstMet, inOrder);
    }
}

void TestComparison::categoryRules()
{
    const CategoryRules rules =
        CategoryRules::parse("  optimizer_state\tmy\\ema.py:update  # trailing comment\n\nother :gather\r\n", "r.txt");
    QCOMPARE(rules.rules.size(), size_t(2));
    QCOMPARE(rules.rules[0].category, Category::OptimizerState);
    QCOMPARE(rules.rules[0].pattern, std::string("my/ema.py:update"));
    QCOMPARE(rules.rules[1].pattern, std::string(":gather"));
    auto error = [](const char* text) {
        try {
            CategoryRules::parse(text, "r.txt");
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    QCOMPARE(error("parameter x\nweights y\n"),
        std::string("r.txt:2: 'weights' is not a category (parameter, gradient, optimizer_state, activation, "
                    "temporary, other)"));
    QCOMPARE(error("gradient\n"), std::string("r.txt:1: the rule has no pattern after 'gradient'"));
    QCOMPARE(error("INPUT x\n").substr(0, 9), std::string("r.txt:1: ")); // the profiler's names are not rule names
    QVERIFY(categoryFromName("OPTIMIZER_STATE") == Category::OptimizerState);
    QVERIFY(categoryFromName("INPUT") == Category::Other);
    QVERIFY(!categoryFromName("unknown"));
}

void TestComparison::parallelLayout()
{
    std::string why;
    const std::optional<ParallelLayout> l = ParallelLayout::parse("pp=2,dp=2,tp=2", &why);
    QVERIFY(l);
    QCOMPARE(l->rankCount(), 8);
    QCOMPARE(l->text(), std::string("pp=2,dp=2,tp=2"));
    QCOMPARE(l->coordinates(5), std::vector<int>({ 1, 0, 1 }));
    QCOMPARE(l->groupCount(), 4);
    QCOMPARE(l->group(5), 3);
    QCOMPARE(l->group(7), 3); // rank 7 is rank 5's replica: they differ only in dp
    QCOMPARE(l->groupName(3), std::string("pp=1,tp=1"));
    QCOMPARE(ParallelLayout::parse("dp=8", nullptr)->groupName(0), std::string("all"));
    for (const char* bad : { "", "pp=2,pp=2", "pp", "pp=0", "pp=2,zz=2", "pp=2x", "pp=-1" }) {
        why.clear();
        QVERIFY2(!ParallelLayout::parse(bad, &why), bad);
        QVERIFY(!why.empty());
    }
}

// By default the rank with the highest peak is compared there and every other rank at the same moment of its trace; at
// their own peaks the ranks of phase_burden_4 are in different phases and the buffer hides among phase differences.
// Files of unrelated programs never align.
void TestComparison::alignedByDefault()
{
    const std::vector<RankInput> ranks = loadRanks(scenarioDir() + QStringLiteral("/phase_burden_4"));
    const ComparisonPtr aligned = Comparison::compute(ranks, {});
    QCOMPARE(aligned->pointName(), std::string("aligned"));
    QCOMPARE(aligned->alignedTo(), 3);
    const EventIndex top = aligned->ranks()[3].point.event;
    QCOMPARE(top, aligned->history(3).peakEvent());
    for (size_t r = 0; r < 3; ++r) {
        QCOMPARE(aligned->ranks()[r].point.event, top - 2); // the buffer's segment_alloc and alloc are rank 3's own
        QVERIFY(aligned->ranks()[r].note.empty());
    }
    QCOMPARE(aligned->verdict().kind, Verdict::BurdenImbalance);
    QCOMPARE(aligned->findings().size(), size_t(1));

    ComparisonOptions atPeak;
    atPeak.point = TimelinePoint::Spec { TimelinePoint::Peak, 0 };
    const ComparisonPtr peaks = Comparison::compute(ranks, atPeak);
    QCOMPARE(peaks->pointName(), std::string("peak"));
    QCOMPARE(peaks->alignedTo(), -1);
    QVERIFY(peaks->findings().size() > 1); // phase differences, as each rank at its own peak sees them

    std::vector<RankInput> unrelated;
    for (const QString& name : { QStringLiteral("magma27_memory_snapshot.pickle"),
             QStringLiteral("jog_my_snapshot.pickle"), QStringLiteral("cranberrii_memory_snapshot.pickle") }) {
        const LoadedFile f =
            LoadedFile::load(TestUtils::dataDir() + QLatin1Char('/') + name, int(unrelated.size()), false);
        QVERIFY(f.ok());
        unrelated.push_back({ int(unrelated.size()), f.path, f.snapshot });
    }
    const ComparisonPtr apart = Comparison::compute(unrelated, {});
    QCOMPARE(apart->alignedTo(), -1);
    QCOMPARE(apart->pointName(), std::string("peak"));
}

// A rank's excess by frame, both ways: every level adds up to what the rank holds beyond its baseline, the
// allocating frames carry it as self, and the item model passes QAbstractItemModelTester.
void TestComparison::excessByFrame()
{
    const ComparisonPtr c = Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/two_trees_4")), {});
    int64_t excess = 0;
    for (const Finding& f : c->findings())
        excess += f.rank == 3 ? f.excessBytes : 0;
    QVERIFY(excess > 0);
    const auto selfOf = [](const ExcessNode& node, auto&& self) -> int64_t {
        int64_t total = node.selfBytes;
        for (const ExcessNode& child : node.children)
            total += self(child, self);
        return total;
    };
    for (ExcessTree::Direction direction : { ExcessTree::TopDown, ExcessTree::BottomUp }) {
        const std::shared_ptr<const ExcessNode> root = ExcessTree::build(*c, 3, direction);
        QCOMPARE(root->inclusiveBytes, excess);
        QCOMPARE(root->sites, int64_t(std::count_if(c->findings().begin(), c->findings().end(), [](const Finding& f) {
            return f.rank == 3;
        })));
        int64_t children = 0;
        for (const ExcessNode& child : root->children) {
            children += child.inclusiveBytes;
            QCOMPARE(child.parent, root.get());
        }
        QCOMPARE(children + root->selfBytes, excess);
        QCOMPARE(selfOf(*root, selfOf), excess); // every byte is allocated in exactly one frame
        for (size_t i = 1; i < root->children.size(); ++i)
            QVERIFY(root->children[i - 1].inclusiveBytes >= root->children[i].inclusiveBytes);
        ExcessTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTree(root);
        QCOMPARE(model.rowCount(), int(root->children.size()));
        const QModelIndex first = model.index(0, 0);
        QCOMPARE(model.index(0, ExcessTreeModel::InclusiveColumn).data(ExcessTreeModel::SortRole).toLongLong(),
            qint64(root->children[0].inclusiveBytes));
        if (model.rowCount(first) > 0)
            QCOMPARE(model.parent(model.index(0, 0, first)), first);
    }
    // Bottom-up starts where the stacks do, at the frame that allocated (the torch function), and goes out to its
    // callers in the order called; reading starts at the user's innermost frame along the largest branch.
    const std::shared_ptr<const ExcessNode> up = ExcessTree::build(*c, 3, ExcessTree::BottomUp);
    const SiteId top = c->findings().front().site;
    const SiteTable::SiteFrame& first = c->sites().frames(top)[c->sites().shown(top).front()];
    QCOMPARE(first.kind, FrameKind::Yours);
    const auto& frames = c->sites().frames(top);
    const auto allocating = std::find_if(
        frames.begin(), frames.end(), [](const SiteTable::SiteFrame& f) { return f.kind != FrameKind::Native; });
    QVERIFY(allocating != frames.end() && allocating->kind != FrameKind::Yours);
    QCOMPARE(up->children.front().name, *allocating->name);
    ExcessTreeModel upModel;
    QAbstractItemModelTester upTester(&upModel, QAbstractItemModelTester::FailureReportingMode::QtTest);
    upModel.setTree(up);
    const QModelIndex start = upModel.readingStart();
    QVERIFY(start.isValid());
    QCOMPARE(upModel.node(start)->name, *first.name);
    QCOMPARE(ExcessTree::defaultScope(*c, 3), ExcessTree::Excess);

    // Everything at the point: every byte the rank holds there, by frame, even where ranks are alike (no excess).
    const ComparisonPtr alike = Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/capacity_loss_4")), {});
    QVERIFY(alike->findings().empty());
    QCOMPARE(ExcessTree::build(*alike, 1, ExcessTree::TopDown)->inclusiveBytes, int64_t(0));
    QCOMPARE(ExcessTree::defaultScope(*alike, 1), ExcessTree::Everything);
    const RankSummary& rank1 = alike->ranks()[size_t(alike->rankIndex(1))];
    for (ExcessTree::Direction direction : { ExcessTree::TopDown, ExcessTree::BottomUp }) {
        const std::shared_ptr<const ExcessNode> all = ExcessTree::build(*alike, 1, direction, ExcessTree::Everything);
        QCOMPARE(all->inclusiveBytes, rank1.bytesAtPoint);
        QCOMPARE(selfOf(*all, selfOf), rank1.bytesAtPoint);
        ExcessTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTree(all, ExcessTree::Everything);
        QCOMPARE(model.headerData(ExcessTreeModel::InclusiveColumn, Qt::Horizontal).toString(), QStringLiteral("Held"));
        QVERIFY(model.rowCount() > 0);
    }
}

// Site keys compare code, not where a rank's copy of it lives; files that differ stay apart.
void TestComparison::siteKeysSurviveRelocation()
{
    const auto key = [](const char* file, const char* root) { return SiteTable::fileKey(file, root); };
    QCOMPARE(key("/home/u/proj/a/train.py", "/home/u/proj/"), key("/workspace/proj/a/train.py", "/workspace/proj/"));
    QVERIFY(key("/home/u/proj/a/train.py", "/home/u/proj/") != key("/home/u/proj/b/train.py", "/home/u/proj/"));
    // The script in scripts/, the package beside it: both relative to the tree they share.
    QCOMPARE(key("/home/u/proj/src/model.py", "/home/u/proj/scripts/"),
        key("/workspace/proj/src/model.py", "/workspace/proj/scripts/"));
    // Windows next to Linux, and a drive letter typed in either case.
    QCOMPARE(key("D:\\Dev\\proj\\x.py", "d:/dev/proj/"), key("/home/u/proj/x.py", "/home/u/proj/"));
    QCOMPARE(key("D:\\Dev\\proj\\x.py", "d:/dev/proj/"), key("d:\\dev\\proj\\x.py", "d:/dev/proj/"));
    // Installed packages and the standard library, whatever the virtualenv or interpreter.
    QCOMPARE(key("/opt/venv/lib/python3.10/site-packages/torch/nn/modules/module.py", "/workspace/"),
        key("D:\\Dev\\proj\\.venv\\Lib\\site-packages\\torch\\nn\\modules\\module.py", "d:/dev/proj/"));
    QCOMPARE(key("/usr/lib/python3.10/dist-packages/numpy/core.py", "/"), key("/x/site-packages/numpy/core.py", "/"));
    QCOMPARE(
        key("/usr/lib/python3.10/json/decoder.py", "/a/"), key("/opt/conda/lib/python3.10/json/decoder.py", "/b/"));
    // Linux paths keep their case: Train.py and train.py are two files there.
    QVERIFY(key("/p/Train.py", "/p/") != key("/p/train.py", "/p/"));
}

// Site counts 4/4/0/0: both ranks get "more", the words say how many ranks allocate there, and the verdict says the
// memory is at sites most ranks do not reach, not at sites no other rank reaches.
void TestComparison::sharedSiteIsNotOnlyOnRank()
{
    const ComparisonPtr c = Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/shared_burden_4")), {});
    QCOMPARE(c->findings().size(), size_t(2));
    for (const Finding& f : c->findings()) {
        QCOMPARE(f.kind, Finding::MoreOnRank);
        QCOMPARE(f.ranksWithSite, 2);
        QCOMPARE(f.baselineCount, int64_t(0));
    }
    const Verdict& v = c->verdict();
    QCOMPARE(v.onlyBytes, int64_t(0));
    QCOMPARE(v.absentBytes, int64_t(1) << 30);
    const QString explanation = VerdictText::explanation(v, VerdictText::English);
    // The two ranks that gather hold the same: named together, against the two that do not.
    QCOMPARE(v.rank, -1);
    QCOMPARE(v.groupRanks, std::vector<int>({ 0, 1 }));
    QVERIFY2(explanation.contains(QLatin1String("100% of the extra memory is at sites ranks 2, 3 do not reach")),
        qPrintable(explanation));
    // (No translator is installed here, so the plural stays in its source form.)
    QVERIFY(StackText::describeFinding(*c, 0, 2).header.contains(QLatin1String(" (1 other rank")));
    const nlohmann::json j = nlohmann::json::parse(DiffReport::json(*c));
    QCOMPARE(j["findings"][0]["ranks_with_site"].get<int>(), 2);
    QCOMPARE(j["findings"][0]["kind"].get<std::string>(), std::string("more_on_rank"));
}

// One file alone: no baseline, so no excess and no "balanced" verdict that reads like a comparison, but a summary.
void TestComparison::oneRankHasNothingToCompare()
{
    std::vector<RankInput> ranks = loadRanks(scenarioDir() + QStringLiteral("/burden_2"));
    ranks.resize(1);
    const ComparisonPtr c = Comparison::compute(ranks, {});
    QCOMPARE(c->ranks().front().excessBytes, int64_t(0));
    QVERIFY(c->findings().empty());
    QCOMPARE(
        VerdictText::title(c->verdict(), VerdictText::English), QStringLiteral("One rank: nothing to compare it with"));
    // A summary instead: what it holds at its peak and its largest sites, the same figures as its row.
    const Verdict& v = c->verdict();
    QCOMPARE(v.heldBytes, c->ranks().front().bytesAtPoint);
    QCOMPARE(v.topSites.size(), size_t(3));
    QVERIFY(v.topSites[0].excessBytes >= v.topSites[1].excessBytes);
    const QString words = VerdictText::explanation(v, VerdictText::English);
    QVERIFY2(words.contains(QString::fromStdString(v.topSites[0].label)), qPrintable(words));
    QVERIFY(QString::fromStdString(DiffReport::text(*c)).startsWith(QLatin1String("Verdict: none (one rank")));
}

void TestComparison::statesAtThePoints()
{
    // Each rank's allocator state at its point, kept for the block maps: with one rank it is replayed beside the
    // history, at the peak the cheap walk finds, and must be thrown away when the point is elsewhere.
    const std::vector<RankInput> all = loadRanks(scenarioDir() + QStringLiteral("/burden_8"));
    const std::vector<RankInput> one(all.begin(), all.begin() + 1);
    const std::vector<RankInput> two(all.begin(), all.begin() + 2);
    const EventIndex middle = EventIndex(one.front().snapshot->deviceTraces.at(0).size() / 2);
    QVERIFY(middle > 10);
    ComparisonOptions atMiddle;
    atMiddle.point = TimelinePoint::Spec { TimelinePoint::Event, middle };
    int checked = 0;
    for (const auto& [ranks, options] : { std::pair { &one, ComparisonOptions {} }, std::pair { &one, atMiddle },
             std::pair { &two, ComparisonOptions {} }, std::pair { &all, ComparisonOptions {} } }) {
        const ComparisonPtr c = Comparison::compute(*ranks, options);
        QCOMPARE(c->ranks().size(), ranks->size());
        for (size_t i = 0; i < c->ranks().size(); ++i) {
            const RankSummary& r = c->ranks()[i];
            if (options.point)
                QCOMPARE(r.point.event, middle);
            else
                QCOMPARE(r.point.event, c->history(i).peakEvent());
            const AllocatorState replayed = c->history(i).stateAt(r.point.event);
            const std::shared_ptr<const AllocatorState>& kept = c->statePtr(i);
            QVERIFY(kept);
            QVERIFY(kept->segments == replayed.segments);
            QVERIFY(kept->blocks == replayed.blocks);
            QCOMPARE(r.unallocatedBytes, replayed.stats().inactive);
            QCOMPARE(r.largestFreeBytes, replayed.stats().largestFree);
            ++checked;
        }
    }
    QCOMPARE(checked, 1 + 1 + 2 + int(all.size()));
    // The middle of the trace is not the peak: the state replayed at the peak was not used.
    const ComparisonPtr c = Comparison::compute(one, atMiddle);
    QVERIFY(c->history(0).peakEvent() != middle);
    QVERIFY(!(c->statePtr(0)->blocks == c->history(0).stateAt(c->history(0).peakEvent()).blocks));
}

void TestComparison::runsMergeAdjacentBlocks()
{
    const ComparisonPtr c = Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/burden_8")), {});
    const Finding& f = c->findings().front();
    // Four 256 MiB evaluation tensors, address-adjacent in one 1 GiB segment: four blocks, one run.
    QCOMPARE(f.blocks.size(), size_t(4));
    QCOMPARE(f.runs.size(), size_t(1));
    QCOMPARE(f.runs[0].size, int64_t(1) << 30);
    QCOMPARE(f.runs[0].segment, f.runs[0].address);
    QCOMPARE(f.rankCount, int64_t(4));
    QCOMPARE(f.baselineCount, int64_t(0));
}

void TestComparison::abBaseline()
{
    const std::vector<RankInput> ranks = loadRanks(scenarioDir() + QStringLiteral("/input_8"));
    ComparisonOptions options;
    options.baselineRank = 2;
    const ComparisonPtr c = Comparison::compute(ranks, options);
    QCOMPARE(c->verdict().kind, Verdict::InputImbalance);
    QCOMPARE(c->verdict().rank, 7);
    for (const Finding& f : c->findings())
        QVERIFY(f.rank != 2); // the baseline itself has no findings
    QVERIFY(VerdictText::explanation(c->verdict(), VerdictText::English).contains(QLatin1String("rank 2")));

    // Against the outlier as the baseline, every other rank holds less at that site: no finding there.
    options.baselineRank = 7;
    const ComparisonPtr reversed = Comparison::compute(ranks, options);
    QCOMPARE(reversed->verdict().kind, Verdict::Balanced);
}

void TestComparison::siteKeys()
{
    const std::vector<RankInput> ranks = loadRanks(scenarioDir() + QStringLiteral("/input_2"));
    ComparisonOptions options;
    options.site.myCodeOnly = true;
    options.site.depth = 2;
    const ComparisonPtr c = Comparison::compute(ranks, options);
    QCOMPARE(c->verdict().kind, Verdict::InputImbalance);
    const auto& frames = c->sites().frames(c->findings().front().site);
    QCOMPARE(frames.size(), size_t(2));
    for (const auto& f : frames) {
        QVERIFY(f.filename->find("site-packages") == std::string::npos);
        QVERIFY(f.line > 0);
    }
    QCOMPARE(*frames[0].name, std::string("forward")); // model.py:39, the user's frame calling einsum

    QVERIFY(SiteTable::isViewerNoise("torch::unwind::unwind()", ""));
    QVERIFY(SiteTable::isViewerNoise("train_start", "train.py")); // the viewer's plain substring test
    QVERIFY(SiteTable::isViewerNoise("f", "/src/ceval.c"));
    QVERIFY(!SiteTable::isViewerNoise("forward", "/src/model.py"));
    QVERIFY(SiteTable::isLibraryFrame("einsum", "/usr/lib/python3/site-packages/torch/functional.py", 373));
    QVERIFY(SiteTable::isLibraryFrame("at::empty", "", 0));
    QVERIFY(!SiteTable::isLibraryFrame("evaluate", "/home/me/train.py", 301));
}

void TestComparison::bundledExample()
{
    const ComparisonPtr c = Comparison::compute(
        loadRanks(QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples")), {});
    QCOMPARE(c->verdict().kind, Verdict::BurdenImbalance);
    QCOMPARE(c->verdict().rank, 0);
    QCOMPARE(c->verdict().excessBytes, int64_t(1) << 30);
    QCOMPARE(innermostName(*c, c->findings().front()), std::string("gather_predictions"));
}

void TestComparison::reportFormats()
{
    const ComparisonPtr c = Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/burden_2")), {});
    const nlohmann::json j = nlohmann::json::parse(DiffReport::json(*c));
    QCOMPARE(QString::fromStdString(j["at"]), QStringLiteral("aligned"));
    QCOMPARE(j["aligned_to"].get<int>(), 1);
    QCOMPARE(j["ranks"].size(), size_t(2));
    QCOMPARE(j["ranks"][1]["bytes_at_point"].get<int64_t>() - j["ranks"][0]["bytes_at_point"].get<int64_t>(),
        int64_t(1) << 30);
    QCOMPARE(QString::fromStdString(j["findings"][0]["kind"]), QStringLiteral("only_on_rank"));
    const nlohmann::json& stack = j["stacks"][j["findings"][0]["stack"].get<size_t>()];
    QCOMPARE(QString::fromStdString(stack["frames"][0]["name"]), QStringLiteral("gather_predictions"));
    QVERIFY(stack["frames"][0]["own_code"].get<bool>());
    QCOMPARE(j["finding_groups"].size(), j["findings"].size());
    QCOMPARE(j["groups"].size(), size_t(2)); // rank 1 holds 1 GiB more: not alike with rank 0
    QCOMPARE(j["findings"][0]["runs"][0]["size"].get<int64_t>(), int64_t(1) << 30);
    QCOMPARE(QString::fromStdString(j["verdict"]["kind"]), QStringLiteral("burden_imbalance"));
    QCOMPARE(j["verdict"]["rank"].get<int>(), 1);

    const std::string csv = DiffReport::csv(*c);
    QVERIFY(csv.starts_with("rank,kind,excess_bytes,"));
    QVERIFY(csv.find("\n1,only_on_rank,1073741824,") != std::string::npos);
    const std::string text = DiffReport::text(*c);
    QVERIFY(text.starts_with("Verdict: burden_imbalance (rank 1, +1 GiB)"));
    QVERIFY(text.find("metrics.py:88 gather_predictions") != std::string::npos);
}

void TestComparison::findingsModel()
{
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    const ComparisonPtr c = Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/input_8")), {});
    model.setComparison(c);
    QCOMPARE(model.rowCount(), int(c->findings().size()));
    QVERIFY(model.rowCount() >= 1);
    const auto cell = [&](int column, int role = Qt::DisplayRole) { return model.index(0, column).data(role); };
    QCOMPARE(cell(FindingsModel::RankColumn).toInt(), 7);
    QCOMPARE(cell(FindingsModel::KindColumn).toString(), QStringLiteral("larger allocations"));
    QCOMPARE(cell(FindingsModel::ExcessColumn, FindingsModel::SortRole).toLongLong(), c->findings()[0].excessBytes);
    QVERIFY(cell(FindingsModel::ExcessColumn).toString().startsWith(QLatin1Char('+')));
    QCOMPARE(cell(FindingsModel::CountColumn).toLongLong(), cell(FindingsModel::BaselineCountColumn).toLongLong());
    const QStringList stack = cell(FindingsModel::SiteColumn, FindingsModel::StackRole).toStringList();
    QVERIFY(stack.size() > 3);
    // The tooltip reads the stack in the order called, innermost first: torch's einsum, then the model's own frame
    // that called it.
    const qsizetype einsum = stack.indexOf(QRegularExpression(QStringLiteral("einsum .*")));
    const qsizetype own = stack.indexOf(QRegularExpression(QStringLiteral(".*model\\.py:.*")));
    QVERIFY2(einsum >= 0 && own > einsum, qPrintable(stack.join(QLatin1Char('\n'))));
    QCOMPARE(
        cell(FindingsModel::SiteColumn).toString(), QString::fromStdString(c->sites().label(c->findings()[0].site)));
    model.setComparison(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

// Grouped, the findings of ranks alike are one row naming them, the others its children; every row still says which
// finding it is, and each finding's row is found again.
void TestComparison::findingsModelGrouped()
{
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const ComparisonPtr c = Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/two_groups_8")), {});
    model.setComparison(c);
    model.setGrouped(true);
    const AlikeRanks& alike = c->alike();
    QVERIFY(AlikeRanks::several(alike.findingGroups) >= 1);
    QCOMPARE(model.rowCount(), int(alike.findingGroups.size()));
    const QModelIndex first = model.index(0, FindingsModel::RankColumn);
    const AlikeRanks::Group& group = alike.findingGroups[0];
    QCOMPARE(model.rowCount(model.index(0, 0)), int(group.members.size()) - 1);
    QCOMPARE(first.data().toString(), QStringLiteral("0\u20133 (4 alike)"));
    QCOMPARE(first.data(FindingsModel::AlikeRanksRole).toString(), QStringLiteral("0\u20133"));
    for (size_t i = 0; i < c->findings().size(); ++i) {
        const QModelIndex row = model.indexOf(i, FindingsModel::ExcessColumn);
        QCOMPARE(model.findingAt(row), int(i));
        QCOMPARE(row.data(FindingsModel::FindingIndexRole).toInt(), int(i));
        QCOMPARE(row.data(FindingsModel::SortRole).toLongLong(), c->findings()[i].excessBytes);
    }
    // The report's CSV: one row for the group, every rank named.
    const std::string csv = DiffReport::csv(*c);
    QVERIFY2(
        csv.find(",\"0\u20133\",") != std::string::npos || csv.find(",0\u20133,") != std::string::npos, csv.c_str());
    model.setGrouped(false);
    QCOMPARE(model.rowCount(), int(c->findings().size()));
}

// The findings' filter searches every frame of each finding's stack, not only what the table shows: a C frame that
// every stack of native_frames_burden_4 starts with is in no cell, yet finds every finding and says which frame it is.
void TestComparison::filterFindsAnyFrame()
{
    FindingsModel model;
    FindingsFilterModel filter;
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&model);
    model.setComparison(Comparison::compute(loadRanks(scenarioDir() + QStringLiteral("/native_frames_burden_4")), {}));
    QVERIFY(model.rowCount() >= 1);
    QCOMPARE(filter.rowCount(), model.rowCount());
    const QString frame = QStringLiteral("slot_tp_call");
    // Searching the cells alone (the table's filter before) finds nothing.
    QSortFilterProxyModel cells;
    cells.setSourceModel(&model);
    cells.setFilterKeyColumn(-1);
    cells.setFilterFixedString(frame);
    QCOMPARE(cells.rowCount(), 0);

    QSignalSpy changed(&filter, &QAbstractItemModel::dataChanged);
    filter.setFilterText(frame.toUpper()); // case does not matter
    QCOMPARE(filter.rowCount(), model.rowCount());
    QVERIFY(!changed.isEmpty());
    const QModelIndex site = filter.index(0, FindingsModel::SiteColumn);
    const QString matched = site.data(FindingsFilterModel::MatchedFrameRole).toString();
    QVERIFY2(matched.startsWith(QStringLiteral("slot_tp_call  typeobject.c:7494")), qPrintable(matched));
    QVERIFY2(site.data().toString().endsWith(QStringLiteral(" — found in slot_tp_call (typeobject.c:7494)")),
        qPrintable(site.data().toString()));
    QVERIFY(site.data().toString().startsWith(model.index(0, FindingsModel::SiteColumn).data().toString()));
    const QString tip = site.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("frame 2 of this finding's stack")), qPrintable(tip));
    QVERIFY(tip.endsWith(matched));
    // Other cells and the figures keep their own text.
    QCOMPARE(filter.index(0, FindingsModel::RankColumn).data(), model.index(0, FindingsModel::RankColumn).data());

    // A file by its folder and line, the outermost frame: the evaluation rank's finding only.
    filter.setFilterText(QStringLiteral("cs336_systems\\benchmarking_script.py:65"));
    QCOMPARE(filter.rowCount(), 1);
    QVERIFY2(filter.index(0, FindingsModel::SiteColumn)
                 .data(FindingsFilterModel::MatchedFrameRole)
                 .toString()
                 .startsWith(QStringLiteral("<module>  benchmarking_script.py:65")),
        qPrintable(filter.index(0, FindingsModel::SiteColumn).data(FindingsFilterModel::MatchedFrameRole).toString()));

    // Text a cell shows needs no frame named.
    filter.setFilterText(QStringLiteral("gather_predictions"));
    QVERIFY(filter.rowCount() >= 1);
    QVERIFY(
        filter.index(0, FindingsModel::SiteColumn).data(FindingsFilterModel::MatchedFrameRole).toString().isEmpty());
    QCOMPARE(filter.index(0, FindingsModel::SiteColumn).data(),
        model.index(filter.mapToSource(filter.index(0, 0)).row(), FindingsModel::SiteColumn).data());

    filter.setFilterText(QStringLiteral("no_such_frame"));
    QCOMPARE(filter.rowCount(), 0);
    filter.setFilterText({});
    QCOMPARE(filter.rowCount(), model.rowCount());
    QVERIFY(
        filter.index(0, FindingsModel::SiteColumn).data(FindingsFilterModel::MatchedFrameRole).toString().isEmpty());
    model.setComparison(nullptr);
    QCOMPARE(filter.rowCount(), 0);
}

// The GUI runs compute() as a job on the job pool, and compute() fans its replays out on the part pool. With both
// pools down to one thread, compute() must not wait for work queued behind itself.
void TestComparison::computeOnAPoolThread()
{
    const std::vector<RankInput> ranks = loadRanks(scenarioDir() + QStringLiteral("/burden_8"));
    const int jobThreads = Parallel::jobPool()->maxThreadCount();
    const int partThreads = Parallel::partPool()->maxThreadCount();
    Parallel::jobPool()->setMaxThreadCount(1);
    Parallel::partPool()->setMaxThreadCount(1);
    QFutureWatcher<ComparisonPtr> watcher;
    QSignalSpy done(&watcher, &QFutureWatcher<ComparisonPtr>::finished);
    watcher.setFuture(QtConcurrent::run(Parallel::jobPool(), [&ranks] { return Comparison::compute(ranks, {}); }));
    const bool finished = done.wait(60000);
    Parallel::jobPool()->setMaxThreadCount(jobThreads);
    Parallel::partPool()->setMaxThreadCount(partThreads);
    QVERIFY2(finished, "compute() on a pool thread did not finish");
    QCOMPARE(watcher.result()->verdict().kind, Verdict::BurdenImbalance);
}

RANKSCOPE_TEST_CLASS(TestComparison)
#include "tst_comparison.moc"
