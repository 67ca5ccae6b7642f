// SPDX-License-Identifier: MIT
// The memory gate: every gate scenario (tests/tools/make_gate_scenarios.py) against its baseline as snapshots and
// as digests, with the same answer; the profile a digest keeps; JUnit XML read back by Qt's XML reader; the command's
// exit statuses.
#include "command.h"
#include "gate.h"
#include "gatereport.h"
#include "job.h"
#include "mcpserver.h"
#include "testprogram.h"
#include "testutils.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <set>

using namespace RankScope;
using Json = nlohmann::json;

namespace {

QString scenariosDir()
{
    return QStringLiteral(RANKSCOPE_GATE_SCENARIOS_DIR);
}

QString scenario(const QString& name, const char* side)
{
    return QDir(scenariosDir()).filePath(name + QLatin1Char('/') + QLatin1String(side));
}

Gate::Side load(const QStringList& paths)
{
    Job job(paths);
    job.load();
    return Gate::sideOf(job);
}

GateResult gate(const QString& name, const QString& baseline)
{
    return Gate::run(load({ baseline }).inputs, load({ scenario(name, "new") }).inputs, GateOptions {});
}

struct Ran
{
    int code = 0;
    std::string out;
    std::string err;
};

Ran command(const QStringList& args)
{
    const Cli::Commands commands(Cli::coreCommands(), "rankscope-cli", false);
    Cli::StringConsole console;
    Ran ran;
    ran.code = commands.run(QStringList { QStringLiteral("rankscope-cli"), QStringLiteral("gate") } + args, console);
    ran.out = console.output;
    ran.err = console.errors;
    return ran;
}

} // namespace

class TestGate : public QObject
{
    Q_OBJECT

private slots:
    void scenarios_data();
    void scenarios();
    void profileKeptByDigest();
    void junitParses();
    void markdownNamesFailures();
    void exitStatuses();
    void unreadableRanksAreNotGated();
    void gpusPairedByPlaceAreSaid();
    void presentOn_data();
    void presentOn();
    void mcpTools();
};

void TestGate::scenarios_data()
{
    RANKSCOPE_REQUIRE_FIXTURE(scenariosDir());
    QTest::addColumn<QString>("name");
    const QStringList names = QDir(scenariosDir()).entryList({ QStringLiteral("gate_*") }, QDir::Dirs, QDir::Name);
    QVERIFY(names.size() >= 12);
    for (const QString& name : names)
        QTest::newRow(qPrintable(name)) << name;
}

void TestGate::scenarios()
{
    QFETCH(QString, name);
    QFile file(QDir(scenariosDir()).filePath(name + QStringLiteral("/gate.expect")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const Json expect = Json::parse(file.readAll().toStdString());

    const GateResult full = gate(name, scenario(name, "base"));
    QTemporaryDir digests;
    TestUtils::writeDigests(scenario(name, "base"), digests.path());
    const GateResult small = gate(name, digests.path());
    // The baseline's digests give the answer its snapshots give, every figure and site of it.
    QCOMPARE(GateReport::json(small), GateReport::json(full));
    QCOMPARE(GateReport::text(small), GateReport::text(full));

    QCOMPARE(full.passed(), expect["passed"].get<bool>());
    std::set<std::pair<int, int>> regressed;
    for (const GateResult::Rank& r : full.ranks) {
        if (r.regressed())
            regressed.emplace(r.rank, r.device);
    }
    std::set<std::pair<int, int>> expected;
    for (const Json& pair : expect["regressed"])
        expected.emplace(pair[0].get<int>(), pair[1].get<int>());
    QCOMPARE(regressed, expected);
    QCOMPARE(full.pairedModulo, expect.value("paired_modulo", false));
    if (full.pairedModulo)
        QVERIFY(GateReport::text(full).find("modulo") != std::string::npos);

    const std::string text = GateReport::text(full);
    QVERIFY2(text.find(full.passed() ? "PASS" : "FAIL") != std::string::npos, text.c_str());
    if (expect.contains("kind")) {
        // The site that grew most across the failing ranks is the one the scenario changed, with its figures.
        QVERIFY(!full.jobSites.empty());
        const GateResult::SiteChange& top = full.jobSites.front();
        QCOMPARE(std::string(GateResult::SiteChange::kindName(top.kind)), expect["kind"].get<std::string>());
        const std::string label = full.sites->label(top.site);
        if (expect.contains("site"))
            QVERIFY2(label.find(expect["site"].get<std::string>()) != std::string::npos, label.c_str());
        if (expect.contains("in"))
            QVERIFY2(label.find(expect["in"].get<std::string>()) != std::string::npos, label.c_str());
        if (expect.contains("category"))
            QCOMPARE(std::string(categoryName(top.category)), expect["category"].get<std::string>());
        QCOMPARE(top.ranks, int(expected.size()));
        QVERIFY2(text.find(label) != std::string::npos, text.c_str());
    }
    for (const GateResult::Rank& r : full.ranks) {
        if (!r.regressed()) {
            QVERIFY2(r.largestBytes <= r.allowedBytes, qPrintable(QString::number(r.largestBytes)));
            continue;
        }
        if (expect.contains("peak_regressed"))
            QCOMPARE(r.peakRegressed, expect["peak_regressed"].get<bool>());
        if (expect.value("mid_step", false)) {
            // Where the forward pass holds more, well before the optimizer step's peak at the end of the trace.
            QVERIFY2(r.stepFraction < 0.9, qPrintable(QString::number(r.stepFraction)));
            QVERIFY(r.eventAfter != r.eventBefore || r.largestBytes > r.peakAfter - r.peakBefore);
            QVERIFY(r.largestBytes > 4 * std::abs(r.peakAfter - r.peakBefore));
        }
    }
    if (expect.contains("growth_bytes")) {
        // Seen, and tolerated: the gate measured the growth the scenario made.
        const auto growth = expect["growth_bytes"].get<int64_t>();
        for (const GateResult::Rank& r : full.ranks)
            QVERIFY2(r.largestBytes >= growth * 9 / 10 && r.largestBytes <= growth * 11 / 10,
                qPrintable(QString::number(r.largestBytes)));
    }
    // Every stretch of the baseline is found in another run of the same code.
    for (const GateResult::Rank& r : full.ranks)
        QVERIFY2(r.placedStretches * 10 >= r.stretches * 9,
            qPrintable(QStringLiteral("%1 of %2").arg(r.placedStretches).arg(r.stretches)));
}

void TestGate::profileKeptByDigest()
{
    RANKSCOPE_REQUIRE_FIXTURE(scenariosDir());
    const QString base = scenario(QStringLiteral("gate_multi_gpu_grow_4"), "base");
    QTemporaryDir digests;
    TestUtils::writeDigests(base, digests.path());
    const Gate::Side full = load({ base });
    const Gate::Side small = load({ digests.path() });
    QVERIFY(small.errors.empty());
    QCOMPARE(small.digests.size(), size_t(4));
    QCOMPARE(full.inputs.size(), size_t(12)); // three GPUs per rank
    QCOMPARE(small.inputs.size(), full.inputs.size());
    for (const GateInput& in : full.inputs) {
        const GateProfile made = GateProfile::of(in.history);
        QVERIFY(GateProfile::fromJson(GateProfile::toJson({ made })).front() == made);
        const auto kept = std::find_if(small.inputs.begin(), small.inputs.end(),
            [&](const GateInput& s) { return s.rank == in.rank && s.profile->device == made.device; });
        QVERIFY(kept != small.inputs.end());
        QVERIFY(*kept->profile == made);
        // 512 stretches but where allocations are too sparse to start one at each.
        QVERIFY(made.stretches.size() > GateProfile::stretchCount * 9 / 10);
        QVERIFY(made.stretches.size() <= GateProfile::stretchCount);
        QCOMPARE(made.samples.size(),
            (made.stretches.size() + GateProfile::stretchesPerSample - 1) / GateProfile::stretchesPerSample);
    }
    // A profile that is not one is refused with a reason, never taken for an empty one.
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, GateProfile::fromJson("{\"version\": 99, \"profiles\": []}"));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, GateProfile::fromJson("[1, 2"));
}

void TestGate::junitParses()
{
    RANKSCOPE_REQUIRE_FIXTURE(scenariosDir());
    for (const char* name : { "gate_one_rank_4", "gate_same_4" }) {
        const GateResult result = gate(QLatin1String(name), scenario(QLatin1String(name), "base"));
        QXmlStreamReader xml(GateReport::junit(result));
        int suites = 0;
        QStringList cases;
        QStringList failed;
        QStringList messages;
        QString current;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (xml.name() == QLatin1String("testsuite")) {
                ++suites;
                QCOMPARE(xml.attributes().value(QStringLiteral("tests")).toInt(), int(result.ranks.size()) + 1);
            } else if (xml.name() == QLatin1String("testcase")) {
                current = xml.attributes().value(QStringLiteral("name")).toString();
                cases << current;
            } else if (xml.name() == QLatin1String("failure")) {
                failed << current;
                messages << xml.attributes().value(QStringLiteral("message")).toString();
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(suites, 1);
        QCOMPARE(cases,
            (QStringList { QStringLiteral("job"), QStringLiteral("rank 0"), QStringLiteral("rank 1"),
                QStringLiteral("rank 2"), QStringLiteral("rank 3") }));
        if (result.passed()) {
            QVERIFY(failed.isEmpty());
            continue;
        }
        QCOMPARE(failed, (QStringList { QStringLiteral("job"), QStringLiteral("rank 2") }));
        // A failure names what grew, where, with the figures the text gives.
        const std::string label = result.sites->label(result.jobSites.front().site);
        const std::string text = GateReport::text(result);
        for (const QString& m : messages) {
            QVERIFY2(m.contains(QString::fromStdString(label)), qPrintable(m));
            QVERIFY2(m.contains(QStringLiteral("rank 2")) || m.startsWith(QStringLiteral("FAIL")), qPrintable(m));
        }
        QVERIFY(messages[1].contains(QStringLiteral("allowed")));
    }
}

void TestGate::markdownNamesFailures()
{
    RANKSCOPE_REQUIRE_FIXTURE(scenariosDir());
    const QString name = QStringLiteral("gate_midstep_all_4");
    const GateResult result = gate(name, scenario(name, "base"));
    const std::string md = GateReport::markdown(result);
    QVERIFY2(md.find("**FAIL**") != std::string::npos, md.c_str());
    // Alike ranks are said once.
    QVERIFY2(md.find("| 0–3 |") != std::string::npos, md.c_str());
    QVERIFY(md.find(result.sites->label(result.jobSites.front().site)) != std::string::npos);
    const Json json = Json::parse(GateReport::json(result));
    QCOMPARE(json["passed"].get<bool>(), false);
    QCOMPARE(json["regressed_ranks"].size(), size_t(4));
    QVERIFY(json["sites"][0]["growth_bytes"].get<int64_t>() > 0);
    QCOMPARE(json["sites"][0]["ranks"].size(), size_t(4));
}

void TestGate::exitStatuses()
{
    RANKSCOPE_REQUIRE_FIXTURE(scenariosDir());
    const auto base = [](const char* name) { return scenario(QLatin1String(name), "base"); };
    const auto now = [](const char* name) { return scenario(QLatin1String(name), "new"); };
    QTemporaryDir out;
    const QString junit = QDir(out.path()).filePath(QStringLiteral("gate.xml"));
    const QString md = QDir(out.path()).filePath(QStringLiteral("gate.md"));
    Ran ran = command({ QStringLiteral("--baseline"), base("gate_same_4"), now("gate_same_4") });
    QCOMPARE(ran.code, 0);
    QVERIFY(ran.out.find("PASS") != std::string::npos);
    ran = command({ QStringLiteral("--baseline"), base("gate_one_rank_4"), QStringLiteral("--junit"), junit,
        QStringLiteral("--markdown"), md, now("gate_one_rank_4") });
    QCOMPARE(ran.code, 4);
    QVERIFY(QFileInfo(junit).size() > 0 && QFileInfo(md).size() > 0);
    ran = command(
        { QStringLiteral("--baseline"), base("gate_one_rank_4"), QStringLiteral("--json"), now("gate_one_rank_4") });
    QCOMPARE(ran.code, 4);
    QVERIFY(Json::parse(ran.out)["regressed_ranks"] == Json::array({ 2 }));
    // A larger tolerance lets the same growth pass.
    ran = command({ QStringLiteral("--baseline"), base("gate_one_rank_4"), QStringLiteral("--tolerance"),
        QStringLiteral("90"), now("gate_one_rank_4") });
    QCOMPARE(ran.code, 0);
    // Usage: no baseline, a bad tolerance, digests as the new job.
    QCOMPARE(command({ now("gate_same_4") }).code, 2);
    QCOMPARE(command({ QStringLiteral("--baseline"), base("gate_same_4"), QStringLiteral("--tolerance"),
                         QStringLiteral("lots"), now("gate_same_4") })
                 .code,
        2);
    QTemporaryDir digests;
    TestUtils::writeDigests(base("gate_same_4"), digests.path());
    ran = command({ QStringLiteral("--baseline"), base("gate_same_4"), digests.path() });
    QCOMPARE(ran.code, 2);
    QVERIFY(ran.err.find("digest") != std::string::npos);
    // A baseline of digests passes as its snapshots do.
    QCOMPARE(command({ QStringLiteral("--baseline"), digests.path(), now("gate_same_4") }).code, 0);
    // A file that cannot be read: 1, the others still gated.
    QTemporaryDir broken;
    for (int r = 0; r < 4; ++r)
        QVERIFY(QFile::copy(QDir(now("gate_same_4")).filePath(QStringLiteral("rank%1_memory_snapshot.pickle").arg(r)),
            QDir(broken.path()).filePath(QStringLiteral("rank%1_memory_snapshot.pickle").arg(r))));
    QFile bad(QDir(broken.path()).filePath(QStringLiteral("rank3_memory_snapshot.pickle")));
    QVERIFY(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
    bad.write("not a pickle");
    bad.close();
    ran = command({ QStringLiteral("--baseline"), base("gate_same_4"), broken.path() });
    QCOMPARE(ran.code, 1);
    QVERIFY(ran.err.find("rank3_memory_snapshot.pickle") != std::string::npos);
    // Not a pass: the rank that could not be read is named, with its file.
    QVERIFY2(
        ran.out.find("INCOMPLETE") != std::string::npos && ran.out.find("PASS") == std::string::npos, ran.out.c_str());
    QVERIFY2(ran.out.find("rank 3 not gated: could not be read (") != std::string::npos
            && ran.out.find("rank3_memory_snapshot.pickle") != std::string::npos,
        ran.out.c_str());
    // An empty baseline folder is named as the baseline.
    QTemporaryDir empty;
    ran = command({ QStringLiteral("--baseline"), empty.path(), now("gate_same_4") });
    QCOMPARE(ran.code, 2);
    QVERIFY2(ran.err.find("--baseline " + empty.path().toStdString()) != std::string::npos, ran.err.c_str());
}

// A rank whose file, or whose baseline rank's file, cannot be read is not gated, never weighed against another
// rank's baseline in its place, and no answer calls the gate a pass: the text, the Markdown, the JUnit (an error
// case) and the JSON.
void TestGate::unreadableRanksAreNotGated()
{
    RANKSCOPE_REQUIRE_FIXTURE(scenariosDir());
    const auto copyTruncated = [](const QString& from, const QString& to, int rank) {
        QDir().mkpath(to);
        for (const QFileInfo& f : QDir(from).entryInfoList({ QStringLiteral("*.pickle") }, QDir::Files)) {
            const QString target = QDir(to).filePath(f.fileName());
            QVERIFY(QFile::copy(f.filePath(), target));
            if (f.fileName().startsWith(QStringLiteral("rank%1_").arg(rank)))
                QVERIFY(QFile::resize(target, 100000));
        }
    };
    QTemporaryDir dir;
    const QString name = QStringLiteral("gate_one_rank_4"); // rank 2 grows
    // The new job's rank 2 cannot be read: the others pass, the gate is incomplete.
    const QString broken = QDir(dir.path()).filePath(QStringLiteral("new"));
    copyTruncated(scenario(name, "new"), broken, 2);
    GateResult g = Gate::run(load({ scenario(name, "base") }), load({ broken }), GateOptions {});
    QVERIFY(g.passed());
    QVERIFY(!g.complete());
    QCOMPARE(g.ungated.size(), size_t(1));
    QCOMPARE(g.ungated[0].rank, 2);
    QCOMPARE(g.ungated[0].baselineRank, -1);
    QVERIFY(QString::fromStdString(g.ungated[0].reason).contains(QStringLiteral("rank2_memory_snapshot.pickle")));
    QCOMPARE(GateReport::rankCount(g), size_t(4));
    const std::string text = GateReport::text(g);
    QVERIFY2(text.find("INCOMPLETE") != std::string::npos && text.find("PASS") == std::string::npos, text.c_str());
    const std::string md = GateReport::markdown(g);
    QVERIFY2(md.find("## RankScope memory gate: **INCOMPLETE**") != std::string::npos, md.c_str());
    const Json json = Json::parse(GateReport::json(g));
    QCOMPARE(json["complete"].get<bool>(), false);
    QCOMPARE(json["ungated"][0]["rank"].get<int>(), 2);
    QXmlStreamReader xml(GateReport::junit(g));
    QString current;
    QStringList errors;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("testsuite"))
            QCOMPARE(xml.attributes().value(QStringLiteral("errors")).toInt(), 1);
        else if (xml.name() == QLatin1String("testcase"))
            current = xml.attributes().value(QStringLiteral("name")).toString();
        else if (xml.name() == QLatin1String("error"))
            errors << current + QLatin1String(": ") + xml.attributes().value(QStringLiteral("message")).toString();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors[0].startsWith(QStringLiteral("rank 2: rank 2 not gated")), qPrintable(errors[0]));

    // The baseline's rank 2 cannot be read: rank 2 is not weighed against another baseline rank (before, it was paired
    // with rank 3 and the pairing said "modulo 3"); the baseline still has 4 ranks.
    const QString brokenBase = QDir(dir.path()).filePath(QStringLiteral("base"));
    copyTruncated(scenario(name, "base"), brokenBase, 2);
    g = Gate::run(load({ brokenBase }), load({ scenario(name, "new") }), GateOptions {});
    QCOMPARE(g.baselineRanks, 4);
    QVERIFY(!g.pairedModulo);
    QCOMPARE(g.ungated.size(), size_t(1));
    QCOMPARE(g.ungated[0].rank, 2);
    QCOMPARE(g.ungated[0].baselineRank, 2);
    for (const GateResult::Rank& r : g.ranks) {
        QVERIFY(r.rank != 2);
        QCOMPARE(r.baselineRank, r.rank);
    }
    QVERIFY(GateReport::text(g).find("rank 2 not gated: its baseline, rank 2, could not be read") != std::string::npos);

    // A smaller baseline whose rank 1 cannot be read: ranks 1 and 3 (3 modulo 2) are not gated.
    const QString fewer = QStringLiteral("gate_fewer_base_2_4");
    const QString brokenFewer = QDir(dir.path()).filePath(QStringLiteral("fewer"));
    copyTruncated(scenario(fewer, "base"), brokenFewer, 1);
    g = Gate::run(load({ brokenFewer }), load({ scenario(fewer, "new") }), GateOptions {});
    QCOMPARE(g.baselineRanks, 2);
    std::vector<int> ungated;
    for (const GateResult::Ungated& u : g.ungated) {
        ungated.push_back(u.rank);
        QCOMPARE(u.baselineRank, 1);
    }
    QCOMPARE(ungated, (std::vector<int> { 1, 3 }));
    QVERIFY2(GateReport::text(g).find("rank 2 has no rank of its own there") != std::string::npos,
        GateReport::text(g).c_str());
}

// A job whose ranks drive more GPUs than the baseline's: each GPU is weighed against the baseline rank's GPU at its
// place, else the last, and the answer says which (a new user's walk found it silent).
void TestGate::gpusPairedByPlaceAreSaid()
{
    RANKSCOPE_REQUIRE_FIXTURE(scenariosDir());
    const GateResult g = Gate::run(load({ scenario(QStringLiteral("gate_one_rank_4"), "base") }),
        load({ scenario(QStringLiteral("gate_multi_gpu_grow_4"), "new") }), GateOptions {});
    bool other = false;
    for (const GateResult::Rank& r : g.ranks) {
        QCOMPARE(r.baselineDevice, 0);
        other = other || r.device != 0;
    }
    QVERIFY(other);
    const std::string text = GateReport::text(g);
    QVERIFY2(text.find("at the same place among its GPUs, or its last (cuda:1 against cuda:0") != std::string::npos,
        text.c_str());
    // Ranks and GPUs numbered alike say nothing of it.
    const GateResult same = Gate::run(load({ scenario(QStringLiteral("gate_multi_gpu_grow_4"), "base") }),
        load({ scenario(QStringLiteral("gate_multi_gpu_grow_4"), "new") }), GateOptions {});
    QVERIFY(GateReport::text(same).find("same place among its GPUs") == std::string::npos);
}

// `--present-on K[-M]` on scenarios whose finding's site is on 1, N-1 and N ranks: kept where K..M covers its count,
// dropped elsewhere, the verdict the same.
void TestGate::presentOn_data()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
    RANKSCOPE_REQUIRE_FIXTURE(scenariosDir());
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("baseline");
    QTest::addColumn<int>("ranks");
    const QString scenarios = QStringLiteral(RANKSCOPE_SCENARIOS_DIR) + QLatin1Char('/');
    QTest::newRow("one of 8") << scenarios + QStringLiteral("burden_8") << -1 << 1;
    QTest::newRow("three of 4") << QDir(scenariosDir()).filePath(QStringLiteral("present_three_of_4")) << 3 << 3;
    QTest::newRow("eight of 8") << scenarios + QStringLiteral("input_8") << -1 << 8;
}

void TestGate::presentOn()
{
    QFETCH(QString, path);
    QFETCH(int, baseline);
    QFETCH(int, ranks);
    Job job({ path });
    job.load();
    ComparisonOptions plain;
    plain.baselineRank = baseline;
    const ComparisonPtr all = job.compare(plain).comparison;
    QVERIFY(all);
    const auto count = [&](const Comparison& c) {
        return std::count_if(
            c.findings().begin(), c.findings().end(), [&](const Finding& f) { return f.ranksWithSite == ranks; });
    };
    QVERIFY(count(*all) > 0);
    for (const std::string& range :
        { std::to_string(ranks), "1-" + std::to_string(ranks), std::to_string(ranks) + "-64",
            std::to_string(ranks + 1) + "-64", ranks > 1 ? "1-" + std::to_string(ranks - 1) : std::string("2") }) {
        ComparisonOptions options = plain;
        options.presentOn = ComparisonOptions::parsePresentOn(range);
        QVERIFY(options.presentOn);
        const ComparisonPtr kept = job.compare(options).comparison;
        QVERIFY(kept);
        const bool covers = options.presentOn->first <= ranks && ranks <= options.presentOn->second;
        QCOMPARE(count(*kept), covers ? count(*all) : 0);
        for (const Finding& f : kept->findings())
            QVERIFY(f.ranksWithSite >= options.presentOn->first && f.ranksWithSite <= options.presentOn->second);
        QCOMPARE(kept->verdict().kind, all->verdict().kind);
        QCOMPARE(kept->verdict().rank, all->verdict().rank);
    }
    for (const char* wrong : { "0", "3-2", "a", "1-", "-2", "" })
        QVERIFY2(!ComparisonOptions::parsePresentOn(wrong), wrong);
    // The command line's option, and the MCP tools' argument through the same reader.
    const Cli::Commands commands(Cli::coreCommands(), "rankscope-cli", false);
    Cli::StringConsole console;
    QCOMPARE(commands.run(
                 { QStringLiteral("rankscope-cli"), QStringLiteral("diff"), QStringLiteral("--json"),
                     QStringLiteral("--baseline"), baseline < 0 ? QStringLiteral("median") : QString::number(baseline),
                     QStringLiteral("--present-on"), QString::number(ranks), path },
                 console),
        0);
    const Json json = Json::parse(console.output);
    QCOMPARE(json["findings"].size(), size_t(count(*all)));
    Cli::StringConsole wrong;
    QCOMPARE(commands.run({ QStringLiteral("rankscope-cli"), QStringLiteral("diff"), QStringLiteral("--present-on"),
                              QStringLiteral("none"), path },
                 wrong),
        2);
}

// The MCP server's gate tool answers as the command does, and its findings tool takes present_on.
void TestGate::mcpTools()
{
    RANKSCOPE_REQUIRE_FIXTURE(scenariosDir());
    Cli::StringConsole console;
    Cli::McpServer server(console, "test");
    server.addCoreTools();
    Cli::addGateTool(server);
    using McpJson = Cli::McpServer::Json;
    const auto call = [&](int id, const std::string& tool, McpJson args) {
        const std::optional<McpJson> answer = server.handle({ { "jsonrpc", "2.0" }, { "id", id },
            { "method", "tools/call" }, { "params", { { "name", tool }, { "arguments", std::move(args) } } } });
        return answer ? (*answer)["result"] : McpJson();
    };
    const QString name = QStringLiteral("gate_one_rank_4");
    const McpJson opened = call(1, "open_job", { { "paths", { scenario(name, "new").toStdString() } } });
    const std::string job = opened["structuredContent"]["job"];
    const McpJson gated = call(2, "gate", { { "job", job }, { "baseline", { scenario(name, "base").toStdString() } } });
    QVERIFY2(!gated.value("isError", false), gated.dump().c_str());
    QCOMPARE(gated["structuredContent"]["passed"].get<bool>(), false);
    QVERIFY(gated["structuredContent"]["regressed_ranks"] == McpJson::array({ 2 }));
    const McpJson fromCommand = McpJson::parse(GateReport::json(gate(name, scenario(name, "base"))));
    QVERIFY(gated["structuredContent"] == fromCommand);
    QVERIFY(call(3, "gate", { { "job", job }, { "baseline", "not a list" } }).value("isError", false));

    const McpJson burden = call(4, "open_job",
        { { "paths",
            { QString(QStringLiteral(RANKSCOPE_SCENARIOS_DIR) + QStringLiteral("/burden_8")).toStdString() } } });
    const std::string burdenJob = burden["structuredContent"]["job"];
    call(5, "diff", { { "job", burdenJob } });
    const McpJson one = call(6, "findings", { { "job", burdenJob }, { "present_on", "1" } });
    const McpJson many = call(7, "findings", { { "job", burdenJob }, { "present_on", "2-8" } });
    QVERIFY(one["structuredContent"]["matched"].get<int>() > 0);
    QCOMPARE(one["structuredContent"]["matched"].get<int>() + many["structuredContent"]["matched"].get<int>(),
        one["structuredContent"]["total"].get<int>());
    QVERIFY(call(8, "findings", { { "job", burdenJob }, { "present_on", "0" } }).value("isError", false));
}

RANKSCOPE_TEST_CLASS(TestGate)
#include "tst_gate.moc"
