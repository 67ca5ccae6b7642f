// SPDX-License-Identifier: MIT
// The `rankscope info` command as a user runs it: a separate process, no display, every real test file; its JSON
// must equal the figures CPython's pickle module gives (expected_info.json).
#include "diffreport.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace TestUtils;

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
    }
    void infoJsonMatchesCPython();
    void infoText();
    void badFileKeepsOthers();
    void usage();
    void diff();
    void layoutAndCategories();
    void stepsOfOneRank();
    void deviceMemory();
    void outOfMemory();
    void top();
    void beforeAndAfter();
    void steps();
    void exportWithoutDisplay();
    void reportWithoutDisplay();
    void digests();
    void splitTrace();

private:
    QProcess* run(const QStringList& args, const QStringList& environment = {});
    QProcess m_process;
};

QProcess* TestCli::run(const QStringList& args, const QStringList& environment)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& setting : environment)
        env.insert(setting.section(QLatin1Char('='), 0, 0), setting.section(QLatin1Char('='), 1));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM")); // the CLI must need no display at all
    m_process.setProcessEnvironment(env);
    m_process.start(QStringLiteral(RANKSCOPE_BINARY), args);
    m_process.waitForFinished(60000);
    return &m_process;
}

void TestCli::infoJsonMatchesCPython()
{
    QStringList args = { QStringLiteral("info"), QStringLiteral("--json") };
    const QStringList files = realFileNames();
    for (const QString& f : files)
        args.append(dataDir() + QLatin1Char('/') + f);
    QProcess* p = run(args);
    QCOMPARE(p->exitCode(), 0);
    const nlohmann::json out = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    const nlohmann::json expected = expectedFigures();
    QCOMPARE(out["files"].size(), size_t(10));
    for (const auto& file : out["files"]) {
        const std::string name = QFileInfo(QString::fromStdString(file["path"])).fileName().toStdString();
        QVERIFY(file.contains("rank"));
        QCOMPARE(QString::fromStdString(file["devices"].dump()), QString::fromStdString(expected[name].dump()));
    }
}

void TestCli::infoText()
{
    QProcess* p = run({ QStringLiteral("info"), dataDir() + QStringLiteral("/jasper_snapshot.pickle") });
    QCOMPARE(p->exitCode(), 0);
    const QString out = QString::fromUtf8(p->readAllStandardOutput());
    QVERIFY2(out.contains(QLatin1String("device 0: segments 10, blocks 54, trace_entries 5803, reserved_bytes "
                                        "134217728, allocated_bytes 48760832, active_bytes 48760832, requested_bytes "
                                        "48748928, oom_events 0")),
        qPrintable(out));
}

void TestCli::badFileKeepsOthers()
{
    QTemporaryDir dir;
    const QString bad = writeFile(dir, QStringLiteral("rank1.pickle"), QByteArray("\x89PNG\r\n\x1a\n", 8));
    QProcess* p = run({ QStringLiteral("info"), QStringLiteral("--json"),
        dataDir() + QStringLiteral("/jog_my_snapshot.pickle"), bad });
    QCOMPARE(p->exitCode(), 1);
    QVERIFY(QString::fromUtf8(p->readAllStandardError()).contains(bad + QLatin1String(": this is a PNG image")));
    const nlohmann::json out = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    QCOMPARE(out["files"][0]["devices"][0]["segments"].get<int>(), 7);
    QVERIFY(out["files"][1]["error"].get<std::string>().find("PNG") != std::string::npos);
    QCOMPARE(out["files"][1]["rank"].get<int>(), 1);
}

void TestCli::usage()
{
    QProcess* p = run({ QStringLiteral("info") });
    QCOMPARE(p->exitCode(), 2);
    QVERIFY(QString::fromUtf8(p->readAllStandardError()).contains(QLatin1String("rankscope info --help")));
    p = run({ QStringLiteral("--version") });
    QCOMPARE(p->exitCode(), 0);
    QVERIFY(p->readAllStandardOutput().startsWith("rankscope "));
    // Every command has its own help, and every usage error says where it is, in one line.
    for (const char* command : { "info", "diff", "top", "steps", "export", "report", "digest" }) {
        p = run({ QLatin1String(command), QStringLiteral("--help") });
        QCOMPARE(p->exitCode(), 0);
        const QByteArray help = p->readAllStandardOutput();
        QVERIFY2(help.startsWith(QByteArray(QByteArray("Usage: rankscope ") + command)), help.constData());
        QVERIFY(help.contains("Options:"));
        p = run({ QLatin1String(command), QStringLiteral("--no-such-option"), QStringLiteral("x") });
        QCOMPARE(p->exitCode(), 2);
        const QByteArray error = p->readAllStandardError();
        QVERIFY2(error.startsWith(QByteArray(QByteArray("rankscope ") + command + ": ")), error.constData());
        QVERIFY(error.endsWith(QByteArray(QByteArray("\n(rankscope ") + command + " --help: its options)\n")));
        QCOMPARE(error.count('\n'), 2);
    }
}

void TestCli::diff()
{
    const QString examples = QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples");
    QProcess* p = run({ QStringLiteral("diff"), QStringLiteral("--fail-on-imbalance"), examples });
    QCOMPARE(p->exitCode(), 3);
    const QString text = QString::fromUtf8(p->readAllStandardOutput());
    QVERIFY2(text.startsWith(QLatin1String("Verdict: burden_imbalance (rank 0, +1 GiB)")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("What to change:")));

    p = run({ QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--at"), QStringLiteral("snapshot"),
        examples });
    QCOMPARE(p->exitCode(), 0);
    const nlohmann::json j = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    QCOMPARE(QString::fromStdString(j["at"]), QStringLiteral("snapshot"));
    QCOMPARE(QString::fromStdString(j["verdict"]["kind"]), QStringLiteral("balanced")); // rank 0 freed it again
    QCOMPARE(j["ranks"].size(), size_t(4));

    p = run({ QStringLiteral("diff"), QStringLiteral("--fail-on-imbalance"), QStringLiteral("--csv"),
        QStringLiteral(RANKSCOPE_SCENARIOS_DIR) + QStringLiteral("/balanced_8") });
    QCOMPARE(p->exitCode(), 0);
    QCOMPARE(p->readAllStandardOutput(),
        QByteArray("rank,kind,excess_bytes,rank_bytes,baseline_bytes,rank_count,baseline_count,runs,category,site,"
                   "ranks,stack\n"));

    QCOMPARE(run({ QStringLiteral("diff"), QStringLiteral("--at"), QStringLiteral("later"), examples })->exitCode(), 2);
    // A moment a rank's trace does not have is refused, naming the rank and what its trace holds, never compared
    // somewhere else in silence.
    p = run({ QStringLiteral("diff"), QStringLiteral("--at"), QStringLiteral("event:99999"), examples });
    QCOMPARE(p->exitCode(), 2);
    QVERIFY(p->readAllStandardError().contains("--at event:99999: rank 0's trace has events 0 to 5176"));
    p = run({ QStringLiteral("diff"), QStringLiteral("--at"), QStringLiteral("step:3"), examples });
    QCOMPARE(p->exitCode(), 2);
    QVERIFY(p->readAllStandardError().contains("has no ProfilerStep#3"));
    QCOMPARE(
        run({ QStringLiteral("diff"), QStringLiteral("--at"), QStringLiteral("event:5000"), examples })->exitCode(), 0);
    QCOMPARE(
        run({ QStringLiteral("diff"), QStringLiteral("--baseline"), QStringLiteral("9"), examples })->exitCode(), 2);
    QCOMPARE(run({ QStringLiteral("diff"), QStringLiteral("--depth"), QStringLiteral("0"), examples })->exitCode(), 2);
}

// --layout and --categories: coordinates and groups in JSON, a layout that does not fit the files or a rules file that
// cannot be read are usage errors naming what is wrong, and a user's rule decides a finding's category.
void TestCli::layoutAndCategories()
{
    const QString stages = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/pp2_uneven_stages_8");
    QProcess* p = run({ QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--layout"),
        QStringLiteral("pp=2,dp=4"), QStringLiteral("--fail-on-imbalance"), stages });
    QCOMPARE(p->exitCode(), 3);
    nlohmann::json j = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    QCOMPARE(j["verdict"]["kind"].get<std::string>(), std::string("model_parallel_imbalance"));
    QCOMPARE(j["verdict"]["group"].get<std::string>(), std::string("pp=0"));
    QCOMPARE(j["verdict"]["group_ranks"].get<std::vector<int>>(), std::vector<int>({ 0, 1, 2, 3 }));
    QCOMPARE(j["layout"]["text"].get<std::string>(), std::string("pp=2,dp=4"));
    QCOMPARE(j["layout"]["suggested"].get<bool>(), false);
    QCOMPARE(j["layout"]["groups"].size(), size_t(2));
    const nlohmann::ordered_json stagesJson = nlohmann::ordered_json::parse(j.dump());
    for (size_t i = 0; i < j["ranks"].size(); ++i) {
        const nlohmann::ordered_json rank = RankScope::DiffReport::rankRecord(stagesJson, i);
        const int r = rank["rank"];
        QCOMPARE(rank["coords"]["pp"].get<int>(), r / 4);
        QCOMPARE(rank["coords"]["dp"].get<int>(), r % 4);
        int64_t sum = 0;
        for (const auto& [name, bytes] : rank["categories"].items())
            sum += bytes.get<int64_t>();
        QCOMPARE(sum, rank["bytes_at_point"].get<int64_t>()); // every byte at the point has one category
    }
    // The text has the groups.
    p = run({ QStringLiteral("diff"), QStringLiteral("--layout"), QStringLiteral("pp=2,dp=4"), stages });
    QVERIFY(p->readAllStandardOutput().contains("Groups of the layout pp=2,dp=4"));

    p = run({ QStringLiteral("diff"), QStringLiteral("--layout"), QStringLiteral("pp=3,dp=4"), stages });
    QCOMPARE(p->exitCode(), 2);
    QVERIFY(p->readAllStandardError().contains("--layout pp=3,dp=4: 12 ranks, but 8 snapshot files are given"));
    p = run({ QStringLiteral("diff"), QStringLiteral("--layout"), QStringLiteral("pp=2,xx=4"), stages });
    QCOMPARE(p->exitCode(), 2);
    QVERIFY(p->readAllStandardError().contains("'xx' is not a dimension"));

    QTemporaryDir dir;
    const QString rules = dir.filePath(QStringLiteral("rules.txt"));
    QFile f(rules);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# the gathered outputs are kept across steps here\noptimizer_state  :gather_predictions\n");
    f.close();
    const QString burden = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2");
    p = run({ QStringLiteral("diff"), QStringLiteral("--json"), burden });
    j = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    QCOMPARE(j["findings"][0]["category"].get<std::string>(), std::string("other"));
    p = run({ QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--categories"), rules, burden });
    QCOMPARE(p->exitCode(), 0);
    j = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    QCOMPARE(j["findings"][0]["category"].get<std::string>(), std::string("optimizer_state"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("\nweights  model.py\n");
    f.close();
    p = run({ QStringLiteral("diff"), QStringLiteral("--categories"), rules, burden });
    QCOMPARE(p->exitCode(), 2);
    QVERIFY(p->readAllStandardError().contains(":2: 'weights' is not a category"));
    p = run(
        { QStringLiteral("diff"), QStringLiteral("--categories"), dir.filePath(QStringLiteral("none.txt")), burden });
    QCOMPARE(p->exitCode(), 2);
    QVERIFY(p->readAllStandardError().contains("none.txt: cannot be read"));
}

// --steps: one rank's snapshots at successive steps, in any order when their names number the steps: growth on that
// rank, the last step compared; one file alone is a usage error.
void TestCli::stepsOfOneRank()
{
    const QString folder = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/growth_steps_4/memory_snapshot/");
    QProcess* p = run({ QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--steps"),
        folder + QStringLiteral("iteration_30/rank1_memory_snapshot.pickle"),
        folder + QStringLiteral("iteration_10/rank1_memory_snapshot.pickle"),
        folder + QStringLiteral("iteration_20/rank1_memory_snapshot.pickle") });
    QCOMPARE(p->exitCode(), 0);
    const nlohmann::json j = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    QCOMPARE(j["verdict"]["kind"].get<std::string>(), std::string("growth"));
    QCOMPARE(j["verdict"]["rank"].get<int>(), 1);
    QCOMPARE(j["verdict"]["steps"].get<std::vector<int64_t>>(), std::vector<int64_t>({ 10, 20, 30 }));
    QCOMPARE(j["ranks"].size(), size_t(1));
    QVERIFY(j["ranks"][0]["path"].get<std::string>().find("iteration_30") != std::string::npos);
    QCOMPARE(j["ranks"][0]["peak_per_step"].size(), size_t(3));
    // A rank that keeps nothing: no growth.
    p = run({ QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--steps"),
        folder + QStringLiteral("iteration_10/rank0_memory_snapshot.pickle"),
        folder + QStringLiteral("iteration_30/rank0_memory_snapshot.pickle") });
    QCOMPARE(nlohmann::json::parse(p->readAllStandardOutput().toStdString())["verdict"]["kind"].get<std::string>(),
        std::string("balanced"));
    p = run({ QStringLiteral("diff"), QStringLiteral("--steps"),
        folder + QStringLiteral("iteration_10/rank0_memory_snapshot.pickle") });
    QCOMPARE(p->exitCode(), 2);
    QVERIFY(p->readAllStandardError().contains("--steps needs the snapshots of two or more steps"));
}

// Every rank out of memory alike: over_capacity, a CI status of its own, and each rank's failed request in JSON.
void TestCli::outOfMemory()
{
    const QString capacity = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/capacity_loss_4");
    QProcess* p =
        run({ QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--fail-on-imbalance"), capacity });
    QCOMPARE(p->exitCode(), 5);
    const nlohmann::json j = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    const nlohmann::json& v = j["verdict"];
    QCOMPARE(v["kind"].get<std::string>(), std::string("over_capacity"));
    QCOMPARE(v["rank"].get<int>(), -1);
    QCOMPARE(v["ranks"].get<std::vector<int>>(), std::vector<int>({ 0, 1, 2, 3 }));
    QCOMPARE(v["remedies"][1]["kind"].get<std::string>(), std::string("chunked_loss"));
    QCOMPARE(v["composition"]["at"].get<std::string>(), std::string("oom"));
    QCOMPARE(v["composition"]["bytes"].get<int64_t>(), v["held_bytes"].get<int64_t>());
    QVERIFY(!v["what_if"].empty());
    // Ranks alike, said once: one group, one stack for its failed request.
    QCOMPARE(j["groups"].size(), size_t(1));
    QCOMPARE(j["groups"][0]["ranks"].get<std::vector<int>>(), std::vector<int>({ 0, 1, 2, 3 }));
    // One stack per checkout: ranks 2-3 ran from a container, and their failed request names their own files.
    QCOMPARE(j["stacks"].size(), size_t(2));
    // Ranks 1-3 say only what differs from rank 0 (their files and, from the container, their stack); made whole,
    // each has its failed request.
    const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(j.dump());
    for (size_t i = 1; i < j["ranks"].size(); ++i) {
        QCOMPARE(j["ranks"][i]["alike_with"].get<int>(), 0);
        QVERIFY(!j["ranks"][i].contains("categories"));
        QCOMPARE(j["ranks"][i].contains("oom"), i >= 2);
    }
    for (size_t i = 0; i < j["ranks"].size(); ++i) {
        const nlohmann::ordered_json rank = RankScope::DiffReport::rankRecord(ordered, i);
        QVERIFY(!rank.contains("alike_with"));
        const nlohmann::ordered_json& oom = rank["oom"];
        QCOMPARE(oom["requested_bytes"].get<int64_t>(), int64_t(4) * 327680000);
        QVERIFY(oom["device_free_bytes"].get<int64_t>() > int64_t(20) << 20); // what the allocator had released too
        QVERIFY(oom["site"].get<std::string>().find("log_softmax") != std::string::npos);
        // From the user's frame outward: the C++ frames and torch's inside it counted.
        const nlohmann::json& frames = j["stacks"][oom["stack"].get<size_t>()]["frames"];
        QVERIFY(frames[0]["inner_frames"].get<int>() > 0);
        QCOMPARE(frames[1]["own_code"].get<bool>(), true);
        QCOMPARE(frames[1]["filename"].get<std::string>().starts_with("/workspace/"), i >= 2);
    }
    p = run({ QStringLiteral("diff"), capacity });
    const QString text = QString::fromUtf8(p->readAllStandardOutput());
    QVERIFY2(text.startsWith(QStringLiteral("Verdict: over_capacity (ranks 0\u20133, needed ")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("Out of memory (each rank's last failed request")));
    // Said once for the four ranks alike.
    QCOMPARE(text.count(QLatin1String("  asked for ")), 1);
    QVERIFY(text.contains(QStringLiteral("ranks 0\u20133, alike:  asked for ")));
    QVERIFY(text.contains(QLatin1String("What fills rank 0's GPU at its OOM")));
    // Ranks that fit with the same work: memory outside the allocator, also an out-of-memory without an outlier.
    p = run({ QStringLiteral("diff"), QStringLiteral("--fail-on-imbalance"),
        QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/outside_one_of_4") });
    QCOMPARE(p->exitCode(), 5);
    p = run({ QStringLiteral("diff"), QStringLiteral("--fail-on-imbalance"),
        QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/capacity_loss_balanced_4") });
    QCOMPARE(p->exitCode(), 0);
}

// `top`: what fills the verdict's rank (at its OOM for an over-capacity job) or a chosen rank, by site or category,
// with the peak without each.
void TestCli::top()
{
    const QString capacity = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/capacity_loss_4");
    QProcess* p = run({ QStringLiteral("top"), QStringLiteral("--json"), capacity });
    QCOMPARE(p->exitCode(), 0);
    nlohmann::json j = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    QCOMPARE(j["rank"].get<int>(), 0);
    QCOMPARE(j["at"].get<std::string>(), std::string("oom"));
    int64_t sum = 0;
    for (const auto& site : j["top_sites"]) {
        sum += site["bytes"].get<int64_t>();
        QVERIFY(site["count"].get<int64_t>() > 0);
    }
    QCOMPARE(sum, j["bytes"].get<int64_t>()); // every site listed: every byte at the point
    // The same figures as the verdict's, from one computation.
    p = run({ QStringLiteral("diff"), QStringLiteral("--json"), capacity });
    const nlohmann::json verdict = nlohmann::json::parse(p->readAllStandardOutput().toStdString())["verdict"];
    QCOMPARE(j["bytes"].get<int64_t>(), verdict["held_bytes"].get<int64_t>());
    QCOMPARE(j["what_if"][0].dump(), verdict["what_if"][0].dump());

    p = run({ QStringLiteral("top"), QStringLiteral("--by"), QStringLiteral("category"), QStringLiteral("--rank"),
        QStringLiteral("2"), QStringLiteral("--at"), QStringLiteral("peak"),
        QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_8") });
    QCOMPARE(p->exitCode(), 0);
    const QString text = QString::fromUtf8(p->readAllStandardOutput());
    QVERIFY2(text.startsWith(QLatin1String("What fills rank 2's GPU at its peak")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("activation")));
    // One file alone.
    p = run({ QStringLiteral("top"), dataDir() + QStringLiteral("/magma27_memory_snapshot.pickle") });
    QCOMPARE(p->exitCode(), 0);
    QVERIFY(p->readAllStandardOutput().contains("model.py:532 silu"));

    p = run({ QStringLiteral("top"), QStringLiteral("--by"), QStringLiteral("file"), capacity });
    QCOMPARE(p->exitCode(), 2);
    QVERIFY(p->readAllStandardError().contains("--by needs site or category"));
    p = run({ QStringLiteral("top"), QStringLiteral("--rank"), QStringLiteral("9"), capacity });
    QCOMPARE(p->exitCode(), 2);
    QVERIFY(p->readAllStandardError().contains("--rank 9: no such rank"));
}

// --device-memory: with the GPU's total, an OOM outside the allocator says how much is outside (total - reserve -
// free); without a unit, or with nothing to parse, it is a usage error.
void TestCli::deviceMemory()
{
    const QString oom = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/oom_outside_4");
    QProcess* p = run({ QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--device-memory"),
        QStringLiteral("16GiB"), oom });
    QCOMPARE(p->exitCode(), 0);
    const nlohmann::json v = nlohmann::json::parse(p->readAllStandardOutput().toStdString())["verdict"];
    QCOMPARE(v["kind"].get<std::string>(), std::string("outside_allocator"));
    QCOMPARE(v["device_memory_bytes"].get<int64_t>(), int64_t(16) << 30);
    p = run({ QStringLiteral("diff"), QStringLiteral("--json"), oom });
    const nlohmann::json without = nlohmann::json::parse(p->readAllStandardOutput().toStdString())["verdict"];
    QVERIFY(!without.contains("outside_bytes"));
    QVERIFY(without["explanation"].get<std::string>().find("does not record the device's total") != std::string::npos);
    // What the OOM saw: the reserve and the free memory (20 MiB, as the scenario records it); the rest is outside.
    QCOMPARE(v["device_free_bytes"].get<int64_t>(), int64_t(20) << 20);
    QCOMPARE(v["outside_bytes"].get<int64_t>(),
        (int64_t(16) << 30) - v["reserved_bytes"].get<int64_t>() - v["device_free_bytes"].get<int64_t>());
    QVERIFY(v["outside_bytes"].get<int64_t>() > 0);
    for (const char* bad : { "80", "lots", "-1GiB" }) {
        p = run({ QStringLiteral("diff"), QStringLiteral("--device-memory"), QLatin1String(bad), oom });
        QCOMPARE(p->exitCode(), 2);
        QVERIFY(p->readAllStandardError().contains("--device-memory needs a size with its unit"));
    }
}

// A run before a fix against the run after it: fixed when the outlier and its sites are gone.
void TestCli::beforeAndAfter()
{
    const auto scenario = [](const char* name) -> QString {
        return QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/") + QLatin1String(name);
    };
    const auto compare = [&](const char* before, const char* after) {
        QProcess* p = run({ QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--before"),
            scenario(before), QStringLiteral("--after"), scenario(after) });
        if (p->exitCode() != 0)
            qWarning("%s", p->readAllStandardError().constData());
        return nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    };
    const nlohmann::json fixed = compare("burden_8", "balanced_8");
    QCOMPARE(fixed["fixed"].get<bool>(), true);
    QCOMPARE(QString::fromStdString(fixed["before"]["verdict"]["kind"]), QStringLiteral("burden_imbalance"));
    QCOMPARE(QString::fromStdString(fixed["after"]["verdict"]["kind"]), QStringLiteral("balanced"));
    QVERIFY(fixed["spread_before_bytes"].get<int64_t>() >= int64_t(1) << 30);
    QCOMPARE(fixed["spread_after_bytes"].get<int64_t>(), int64_t(0));
    QCOMPARE(fixed["top_sites_before"].size(), size_t(1));
    QVERIFY(fixed["top_sites_before"][0]["site"].get<std::string>().find("gather_predictions") != std::string::npos);
    QCOMPARE(fixed["top_sites_before"][0]["gone"].get<bool>(), true);

    // Two imbalanced runs: not fixed, whichever way round.
    const nlohmann::json stillBurden = compare("burden_8", "burden_8");
    QCOMPARE(stillBurden["fixed"].get<bool>(), false);
    QCOMPARE(stillBurden["top_sites_before"][0]["gone"].get<bool>(), false);
    QCOMPARE(compare("burden_8", "input_8")["fixed"].get<bool>(), false);
    QCOMPARE(compare("input_8", "burden_8")["fixed"].get<bool>(), false);

    QProcess* p = run({ QStringLiteral("diff"), QStringLiteral("--fail-on-imbalance"), QStringLiteral("--before"),
        scenario("burden_8"), QStringLiteral("--after"), scenario("input_8") });
    QCOMPARE(p->exitCode(), 3);
    QVERIFY(p->readAllStandardOutput().contains("Not fixed"));
    QCOMPARE(run({ QStringLiteral("diff"), QStringLiteral("--before"), scenario("burden_8") })->exitCode(), 2);
}

void TestCli::steps()
{
    const QString log = QStringLiteral(RANKSCOPE_TEST_DATA_DIR "/logs/torchrun_interleaved.log");
    QProcess* p = run({ QStringLiteral("steps"), QStringLiteral("--json"), log });
    QCOMPARE(p->exitCode(), 0);
    const nlohmann::json j = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
    QCOMPARE(j["divergence"]["rank"].get<int>(), 3);
    QCOMPARE(QString::fromStdString(j["divergence"]["suspect"]), QStringLiteral("input_imbalance"));
    p = run({ QStringLiteral("steps"), log });
    const QString text = QString::fromUtf8(p->readAllStandardOutput());
    QVERIFY2(text.contains(QLatin1String("Rank 3 departs first at step 40 (train)")), qPrintable(text));
    QCOMPARE(run({ QStringLiteral("steps") })->exitCode(), 2);
    QCOMPARE(run({ QStringLiteral("steps"), QStringLiteral(RANKSCOPE_SOURCE_DIR "/CMakeLists.txt") })->exitCode(), 1);
}

// `export` draws with the widgets on no display at all, refuses to replace a file without --force, and reports an
// unwritable place.
void TestCli::exportWithoutDisplay()
{
    const QString examples = QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples");
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("diff.png"));
    QProcess* p = run({ QStringLiteral("export"), QStringLiteral("--out"), png, QStringLiteral("--size"),
        QStringLiteral("1200x800"), QStringLiteral("--scale"), QStringLiteral("1"), examples });
    QCOMPARE(p->exitCode(), 0);
    QCOMPARE(p->readAllStandardError(), QByteArray()); // no platform chatter on the terminal
    // As wide as asked; taller where the views need more than 800 pixels (the example's verdict wraps at 1200).
    QCOMPARE(QImage(png).width(), 1200);
    QVERIFY(QImage(png).height() >= 800 && QImage(png).height() < 900);

    // An existing file stays as it is without --force.
    const auto contents = [](const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QByteArray before = contents(png);
    p = run({ QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("timelines"), QStringLiteral("--out"),
        png, examples });
    QCOMPARE(p->exitCode(), 4);
    QVERIFY(QString::fromUtf8(p->readAllStandardError()).contains(QLatin1String("--force")));
    QCOMPARE(contents(png), before);
    p = run({ QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("timelines"), QStringLiteral("--out"),
        png, QStringLiteral("--force"), examples });
    QCOMPARE(p->exitCode(), 0);
    QCOMPARE(QImage(png).size(), QSize(3200, 2000)); // default 1600x1000 at 2x

    // Nowhere to write: a clear message naming the file, exit 4.
    const QString nowhere = dir.filePath(QStringLiteral("no/such/folder/diff.pdf"));
    p = run({ QStringLiteral("export"), QStringLiteral("--out"), nowhere, examples });
    QCOMPARE(p->exitCode(), 4);
    QVERIFY(QString::fromUtf8(p->readAllStandardError()).contains(nowhere));

    // Usage errors write nothing.
    const QString x = dir.filePath(QStringLiteral("x.png"));
    QCOMPARE(run({ QStringLiteral("export"), examples })->exitCode(), 2); // no --out
    QCOMPARE(run({ QStringLiteral("export"), QStringLiteral("--out"), dir.filePath(QStringLiteral("x.gif")), examples })
                 ->exitCode(),
        2);
    QCOMPARE(run({ QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("all"), QStringLiteral("--out"),
                     x, examples })
                 ->exitCode(),
        2);
    QCOMPARE(run({ QStringLiteral("export"), QStringLiteral("--ranks"), QStringLiteral("0,9"), QStringLiteral("--out"),
                     x, examples })
                 ->exitCode(),
        2);
    QCOMPARE(run({ QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("flame"),
                     QStringLiteral("--scope"), QStringLiteral("all"), QStringLiteral("--out"), x, examples })
                 ->exitCode(),
        2);
    QVERIFY(!QFile::exists(x));

    // Rank A by frame: everything it holds where ranks are alike (its excess is nothing), as SVG text.
    const QString svg = dir.filePath(QStringLiteral("flame.svg"));
    p = run({ QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("flame"), QStringLiteral("--out"), svg,
        QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/capacity_loss_4") });
    QCOMPARE(p->exitCode(), 0);
    QVERIFY(contents(svg).contains("held at the point"));
    QVERIFY(contents(svg).contains("log_softmax"));
    p = run({ QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("flame"), QStringLiteral("--scope"),
        QStringLiteral("excess"), QStringLiteral("--force"), QStringLiteral("--out"), svg,
        QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/capacity_loss_4") });
    QCOMPARE(p->exitCode(), 0);
    QVERIFY(contents(svg).contains("0 B beyond its baseline"));
}

void TestCli::reportWithoutDisplay()
{
    const QString examples = QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples");
    QTemporaryDir dir;
    const auto contents = [](const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    };
    const QString html = dir.filePath(QStringLiteral("report.html"));
    QCOMPARE(run({ QStringLiteral("report"), QStringLiteral("--out"), html, examples })->exitCode(), 0);
    const QString page = contents(html);
    QVERIFY(page.contains(QLatin1String("Burden imbalance on rank 0")));
    QVERIFY(page.contains(QLatin1String("gather_predictions")));
    QVERIFY(page.contains(QLatin1String("data:image/png;base64,")));

    const QString md = dir.filePath(QStringLiteral("report.md"));
    QCOMPARE(run({ QStringLiteral("report"), QStringLiteral("--out"), md, examples })->exitCode(), 0);
    QVERIFY(!QImage(dir.filePath(QStringLiteral("report.png"))).isNull());
    const QString markdown = contents(md);
    QVERIFY(markdown.contains(QLatin1String("![The diff of the two ranks](report.png)")));
    QVERIFY(markdown.contains(QLatin1String("gather_predictions")));
}

// `digest` writes one file per rank; diff, report and export take the folder of digests and say what they say on
// the snapshots (the text differs only in file names).
void TestCli::digests()
{
    const QString examples = QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/examples");
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("digests"));
    QProcess* p = run({ QStringLiteral("digest"), examples, QStringLiteral("-o"), out });
    QCOMPARE(p->exitCode(), 0);
    const QStringList written = QDir(out).entryList(QDir::Files, QDir::Name);
    QCOMPARE(written,
        QStringList({ QStringLiteral("rank0.digest.pickle.gz"), QStringLiteral("rank1.digest.pickle.gz"),
            QStringLiteral("rank2.digest.pickle.gz"), QStringLiteral("rank3.digest.pickle.gz") }));
    QVERIFY(QString::fromUtf8(p->readAllStandardOutput()).contains(QLatin1String(" -> ")));
    // Never replaces a file unless told to.
    QCOMPARE(run({ QStringLiteral("digest"), examples, QStringLiteral("-o"), out })->exitCode(), 4);
    QCOMPARE(
        run({ QStringLiteral("digest"), QStringLiteral("--force"), examples, QStringLiteral("-o"), out })->exitCode(),
        0);
    // --rank is for one file; no output folder is a usage error.
    QCOMPARE(run({ QStringLiteral("digest"), QStringLiteral("--rank"), QStringLiteral("3"), examples,
                     QStringLiteral("-o"), out })
                 ->exitCode(),
        2);
    QCOMPARE(run({ QStringLiteral("digest"), examples })->exitCode(), 2);

    const auto withoutPaths = [](QString text, const QString& folder) {
        static const QRegularExpression name(QStringLiteral("[^\\s]*rank\\d[^\\s]*"));
        return text.remove(folder).replace(name, QStringLiteral("FILE"));
    };
    // The same findings and verdict; the peak without a site needs the whole trace, so digests give no what-if
    // figures and those are left out of the comparison.
    const auto withoutWhatIf = [](const QString& text) {
        if (text.startsWith(QLatin1Char('{'))) {
            nlohmann::ordered_json j = nlohmann::ordered_json::parse(text.toStdString());
            j["verdict"].erase("what_if");
            for (auto& rank : j["ranks"]) { // a digest cannot be aligned with others
                rank.erase("aligned_excess_bytes");
                rank.erase("aligned_excess_event");
            }
            return QString::fromStdString(j.dump(2));
        }
        static const QRegularExpression block(
            QStringLiteral("^Peak [^\n]*\n(  [^\n]*\n)*"), QRegularExpression::MultilineOption);
        return QString(text).remove(block);
    };
    // A digest keeps no aligned moments: digests are compared each at its own peak, as the files are with --at peak.
    for (const QString& format : { QStringLiteral("--json"), QStringLiteral("--csv"), QStringLiteral("--my-code") }) {
        const QString full = withoutPaths(
            withoutWhatIf(QString::fromUtf8(
                run({ QStringLiteral("diff"), QStringLiteral("--at"), QStringLiteral("peak"), format, examples })
                    ->readAllStandardOutput())),
            examples);
        const QString digest = withoutPaths(
            withoutWhatIf(QString::fromUtf8(run({ QStringLiteral("diff"), format, out })->readAllStandardOutput())),
            out);
        QVERIFY(full.contains(QLatin1String("gather_predictions")));
        QCOMPARE(digest, full);
    }
    const QString html = dir.filePath(QStringLiteral("report.html"));
    QCOMPARE(run({ QStringLiteral("report"), QStringLiteral("--out"), html, out })->exitCode(), 0);
    QFile page(html);
    QVERIFY(page.open(QIODevice::ReadOnly));
    QVERIFY(page.readAll().contains("Burden imbalance on rank 0"));
    const QString png = dir.filePath(QStringLiteral("diff.png"));
    QCOMPARE(run({ QStringLiteral("export"), QStringLiteral("--out"), png, out })->exitCode(), 0);
    QVERIFY(!QImage(png).isNull());
}

// RANKSCOPE_SPLIT=trace tells each step of one file's split on stderr, and changes nothing else: not the answer, and
// not whether a file is split (a file this small is not, unless the split is forced).
void TestCli::splitTrace()
{
    const QStringList args = { QStringLiteral("info"), QStringLiteral("--json"),
        dataDir() + QStringLiteral("/cranberrii_memory_snapshot.pickle") };
    QProcess* p = run(args, { QStringLiteral("RANKSCOPE_SPLIT=off") });
    QCOMPARE(p->exitCode(), 0);
    const QByteArray whole = p->readAllStandardOutput();
    QVERIFY(p->readAllStandardError().isEmpty());

    p = run(args, { QStringLiteral("RANKSCOPE_SPLIT=at=0.5,min=0,trace") });
    QCOMPARE(p->exitCode(), 0);
    QCOMPARE(p->readAllStandardOutput(), whole);
    const QString told = QString::fromUtf8(p->readAllStandardError());
    qsizetype at = -1;
    for (const char* step : { "the walk found its point, 5", "the reader reached the point", "the part is handed over",
             "its memo is taken in", "its entries are taken in" }) {
        const qsizetype next = told.indexOf(QLatin1String(step));
        QVERIFY2(next > at, qPrintable(told));
        at = next;
    }
    for (const QString& line : told.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        QVERIFY2(line.startsWith(QLatin1String("rankscope split: ")), qPrintable(line));

    p = run(args, { QStringLiteral("RANKSCOPE_SPLIT=trace") });
    QCOMPARE(p->exitCode(), 0);
    QCOMPARE(p->readAllStandardOutput(), whole);
    QVERIFY(p->readAllStandardError().isEmpty());
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
