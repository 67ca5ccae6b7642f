// SPDX-License-Identifier: MIT
// The command line as a library, run in this process: the table every --help and the usage come from, the core
// Job every front end builds its jobs with (the same words for the same mistake in each), and the MCP server's
// protocol (the official SDK's client drives it in tests/mcp).
#include "command.h"
#include "commands.h"
#include "diffreport.h"
#include "job.h"
#include "joboptions.h"
#include "mcpserver.h"
#include "testutils.h"
#ifdef RANKSCOPE_DRAWING
#include "writing.h"

#include <QImage>
#endif
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace RankScope;
using namespace RankScope::Cli;
using Json = nlohmann::ordered_json;

namespace {

const QString examples = QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/examples");

// The desktop build's commands; built without the GUI (CI's sanitizer stage), the same tests run rankscope-cli's.
#ifdef RANKSCOPE_DRAWING
const std::vector<const Command*>& testedCommands()
{
    return allCommands();
}
const std::string program = "rankscope";
#else
const std::vector<const Command*>& testedCommands()
{
    return coreCommands();
}
const std::string program = "rankscope-cli";
#endif

struct Ran
{
    int code = 0;
    std::string out;
    std::string err;
};

Ran runCommand(const QStringList& args, const std::string& input = {}, bool core = false)
{
    core = core || program == "rankscope-cli";
    const Commands commands(core ? coreCommands() : testedCommands(), core ? "rankscope-cli" : "rankscope", !core);
    StringConsole console(input);
    Ran ran;
    ran.code = commands.run(QStringList { QStringLiteral("rankscope") } + args, console);
    ran.out = console.output;
    ran.err = console.errors;
    return ran;
}

// The server's answers to `requests`, one JSON message a line, keyed by id.
std::map<std::string, Json> serve(const std::vector<Json>& requests, bool core = false, std::string* raw = nullptr)
{
    std::string input;
    for (const Json& r : requests)
        input += (r.is_string() ? r.get<std::string>() : r.dump()) + "\n";
    const Ran ran = runCommand({ QStringLiteral("mcp") }, input, core);
    std::map<std::string, Json> byId;
    std::istringstream lines(ran.out);
    for (std::string line; std::getline(lines, line);)
        byId[Json::parse(line).value("id", Json()).dump()] = Json::parse(line);
    if (raw)
        *raw = ran.out;
    return byId;
}

Json request(int id, const std::string& method, Json params = Json::object())
{
    return { { "jsonrpc", "2.0" }, { "id", id }, { "method", method }, { "params", std::move(params) } };
}

Json call(int id, const std::string& tool, Json arguments)
{
    return request(id, "tools/call", { { "name", tool }, { "arguments", std::move(arguments) } });
}

Json openExamples(int id)
{
    return call(id, "open_job", { { "paths", { examples.toStdString() } } });
}

} // namespace

class TestCommands : public QObject
{
    Q_OBJECT
private slots:
    void tableGivesEveryHelp();
    void coreCommandsAreTheCoresOnly();
    void diffInProcess();
    void layoutMismatchInTheJobsWords();
    void jobKeepsWhatItLoaded();
    void jobLoadCancels();
    void jobAtAnotherStep();
    void jobRefusesWhatNoFileHolds();
    void notSnapshotsGetNoVerdict();
    void foldersAreSearchedWithCare();
    void pointsRanksLack();
    void myCodeOfAnInstalledFramework();
    void mcpStepAndOom();
    void mcpProtocol();
    void mcpToolsAnswer();
    void mcpErrorsAreToolResults();
    void mcpCancelledRequestGetsNoAnswer();
    void mcpPicture();
    void mcpAnswersFitManyRanks();
    void mcpRefusesWhatItDoesNotTake();
    void mcpRefusesWhatIsNotOneJob();
    void mcpNotesPointsAndMyCode();
    void pictureOutlinesAFindingItShows();
};

// Usage, --help and dispatch read one table: every command's help comes from it, and the usage lists every command.
void TestCommands::tableGivesEveryHelp()
{
    const Ran usage = runCommand({ QStringLiteral("--help") });
    QCOMPARE(usage.code, 0);
    for (const Command* c : testedCommands()) {
        const Ran help = runCommand({ QString::fromLatin1(c->name), QStringLiteral("--help") });
        QCOMPARE(help.code, 0);
        QVERIFY2(help.out.rfind("Usage: " + program + " " + c->name, 0) == 0, help.out.c_str());
        QVERIFY(help.out.find(c->about) != std::string::npos);
        QVERIFY(help.out.find("Options:") != std::string::npos);
        QVERIFY2(usage.out.find(program + " " + c->name + " ") != std::string::npos
                || usage.out.find(program + " " + c->name + "\n") != std::string::npos,
            c->name);
        QVERIFY(usage.out.find(c->summary) != std::string::npos);
        // A usage error names the command and gives its help.
        const Ran wrong = runCommand({ QString::fromLatin1(c->name), QStringLiteral("--no-such-option") });
        QCOMPARE(wrong.code, 2);
        QVERIFY(wrong.err.rfind(program + " " + c->name + ": Unknown option", 0) == 0);
    }
    const Ran unknown = runCommand({ QStringLiteral("nosuch") }, {}, true);
    QCOMPARE(unknown.code, 2);
    QVERIFY(unknown.err.find("nosuch is not a command") != std::string::npos);
    // "help diff" is "diff --help"; the core-only build says where the drawing commands are; no command is an error.
    QCOMPARE(runCommand({ QStringLiteral("help"), QStringLiteral("diff") }).out,
        runCommand({ QStringLiteral("diff"), QStringLiteral("--help") }).out);
    const Ran drawing = runCommand({ QStringLiteral("export"), QStringLiteral("--help") }, {}, true);
    QCOMPARE(drawing.code, 2);
    QVERIFY(drawing.err.find("it is a command of rankscope, the desktop build") != std::string::npos);
    const Ran none = runCommand({}, {}, true);
    QCOMPARE(none.code, 2);
    QVERIFY(none.err.rfind("Usage:", 0) == 0);
    // The usage fits 80 columns.
    std::istringstream lines(usage.out);
    for (std::string line; std::getline(lines, line);)
        QVERIFY2(QString::fromStdString(line).size() <= 80, line.c_str());
}

void TestCommands::coreCommandsAreTheCoresOnly()
{
    std::vector<std::string> core, all;
    for (const Command* c : coreCommands()) {
        core.push_back(c->name);
        QVERIFY(!c->draws);
    }
    QCOMPARE(core, (std::vector<std::string> { "info", "diff", "top", "steps", "digest", "gate", "mcp" }));
#ifndef RANKSCOPE_DRAWING
    QSKIP("built without the GUI: the drawing commands are not here");
#else
    for (const Command* c : allCommands())
        all.push_back(c->name);
    QCOMPARE(all,
        (std::vector<std::string> { "info", "diff", "top", "steps", "digest", "gate", "mcp", "export", "report" }));
    // The drawing build's mcp draws (export_picture): it runs under a QApplication.
    const Commands commands(allCommands(), "rankscope", true);
    QVERIFY(commands.draws({ QStringLiteral("rankscope"), QStringLiteral("mcp") }));
    QVERIFY(!Commands(coreCommands(), "rankscope-cli", false)
                 .draws({ QStringLiteral("rankscope-cli"), QStringLiteral("mcp") }));
#endif
}

void TestCommands::diffInProcess()
{
    const Ran ran = runCommand({ QStringLiteral("diff"), QStringLiteral("--json"), examples });
    QCOMPARE(ran.code, 0);
    const Json out = Json::parse(ran.out);
    QCOMPARE(out["verdict"]["kind"].get<std::string>(), std::string("burden_imbalance"));
    QCOMPARE(out["verdict"]["rank"].get<int>(), 0);
    QCOMPARE(out["ranks"].size(), size_t(4));
}

// One check, one wording: the command line, the MCP server and (tst_mainwindow) the window say what Job::check says.
void TestCommands::layoutMismatchInTheJobsWords()
{
    Job job({ examples });
    ComparisonOptions options;
    options.layout = ParallelLayout::parse("pp=2,dp=4", nullptr);
    const std::string words = job.check(options).text();
    QCOMPARE(words, std::string("layout pp=2,dp=4: 8 ranks, but 4 snapshot files are given"));
    const Ran cli =
        runCommand({ QStringLiteral("diff"), QStringLiteral("--layout"), QStringLiteral("pp=2,dp=4"), examples });
    QCOMPARE(cli.code, 2);
    QVERIFY2(cli.err.rfind(program + " diff: --" + words + "\n", 0) == 0, cli.err.c_str());
    auto answers = serve({ openExamples(1), call(2, "diff", { { "job", "job1" }, { "layout", "pp=2,dp=4" } }) });
    QCOMPARE(answers["2"]["result"]["isError"].get<bool>(), true);
    QCOMPARE(answers["2"]["result"]["content"][0]["text"].get<std::string>(), words);
}

void TestCommands::jobKeepsWhatItLoaded()
{
    Job job({ examples });
    QCOMPARE(job.files().size(), 4);
    QVERIFY(job.error().empty());
    job.load();
    QVERIFY(job.isLoaded());
    QCOMPARE(job.failures(), 0);
    const SnapshotPtr first = job.loaded()[0].snapshot;
    // The comparison takes each device's peak from the load's own figures: one walk, one answer, and the same
    // comparison as when it walks the traces for them itself (one rank, so that its state at the peak is replayed
    // beside its history, where the peak is used).
    for (const RankInput& in : job.inputs()) {
        QCOMPARE(in.peakEvents.size(), size_t(in.snapshot->deviceCount()));
        for (int d = 0; d < in.snapshot->deviceCount(); ++d)
            QCOMPARE(in.peakEvents[size_t(d)], DeviceHistory::summarize(*in.snapshot, d).peakEvent);
    }
    std::vector<RankInput> one = { job.inputs().front() };
    QVERIFY(!one.front().peakEvents.empty());
    const ComparisonPtr given = Comparison::compute(one, {});
    one.front().peakEvents.clear();
    const ComparisonPtr walked = Comparison::compute(one, {});
    QCOMPARE(QString::fromStdString(DiffReport::json(*given)), QString::fromStdString(DiffReport::json(*walked)));
    job.load(); // nothing is read again
    QCOMPARE(job.loaded()[0].snapshot, first);
    const Job::Result a = job.compare({});
    const Job::Result b = job.compare({});
    QVERIFY(a.comparison);
    QCOMPARE(a.comparison, b.comparison); // the same question is not computed twice
    ComparisonOptions other;
    other.thresholdPercent = 5;
    QVERIFY(job.compare(other).comparison != a.comparison);

    // A file that cannot be read is said, and the others are compared.
    QTemporaryDir dir;
    for (int r = 0; r < 2; ++r)
        QVERIFY(QFile::copy(examples + QStringLiteral("/rank%1_memory_snapshot.pickle").arg(r),
            dir.filePath(QStringLiteral("rank%1.pickle").arg(r))));
    QFile bad(dir.filePath(QStringLiteral("rank2.pickle")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("not a pickle");
    bad.close();
    Job partly({ dir.path() });
    partly.load();
    QCOMPARE(partly.failures(), 1);
    const std::vector<std::string> messages = partly.messages();
    QCOMPARE(messages.size(), size_t(1));
    QVERIFY(messages[0].rfind(dir.filePath(QStringLiteral("rank2.pickle")).toStdString() + ": ", 0) == 0);
    QCOMPARE(partly.compare({}).comparison->ranks().size(), size_t(2));
    // diff's answers carry it too, not only stderr: the JSON's `failed`, a line above the text.
    const Ran json = runCommand({ QStringLiteral("diff"), QStringLiteral("--json"), dir.path() });
    QCOMPARE(json.code, 1);
    const nlohmann::json answer = nlohmann::json::parse(json.out);
    QCOMPARE(answer["failed"].size(), size_t(1));
    QCOMPARE(
        answer["failed"][0]["path"].get<std::string>(), dir.filePath(QStringLiteral("rank2.pickle")).toStdString());
    QVERIFY(!answer["failed"][0]["error"].get<std::string>().empty());
    const Ran text = runCommand({ QStringLiteral("diff"), dir.path() });
    QVERIFY(QString::fromStdString(text.out).startsWith(
        QStringLiteral("Not read: ") + dir.filePath(QStringLiteral("rank2.pickle"))));
    // The paths' own mistakes, in words.
    QTemporaryDir empty;
    QCOMPARE(Job({ empty.path() }).error().text(), std::string("no snapshot files given"));
    QCOMPARE(Job({ examples }, { 7, false }).error().text(),
        std::string("step 7: the files are not of several training steps"));
}

void TestCommands::jobLoadCancels()
{
    // Progress is reported a megabyte at a time: a file of several.
    Job job({ QStringLiteral(RANKSCOPE_TEST_DATA_DIR "/cranberrii_memory_snapshot.pickle") });
    std::atomic<int> calls = 0;
    job.load([&](int index, uint64_t, uint64_t) {
        ++calls;
        return index != 0;
    });
    QVERIFY(calls > 0);
    QVERIFY(job.wasCancelled());
    QVERIFY(job.loaded()[0].cancelled);
    QVERIFY(!job.isLoaded());
    // Loading again goes on: the cancelled files are read now.
    job.load();
    QVERIFY(job.isLoaded());
    QCOMPARE(job.failures(), 0);
}

void TestCommands::jobAtAnotherStep()
{
    const QString folder = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/growth_steps_4");
    Job latest({ folder });
    QCOMPARE(latest.steps(), (std::vector<int64_t> { 10, 20, 30 }));
    QCOMPARE(latest.step(), int64_t(30));
    QVERIFY(latest.stepNote().find("comparing step 30 (the latest") != std::string::npos);
    latest.load();
    const Job::Result result = latest.compare({});
    QCOMPARE(result.comparison->verdict().kind, Verdict::Growth);
    // One rank's steps (`--steps`): its latest file is compared with the peaks its load found, as a job of ranks is.
    JobFiles steps;
    steps.stepsOfOneRank = true;
    Job oneRank({ folder + QStringLiteral("/memory_snapshot/iteration_10/rank1_memory_snapshot.pickle"),
                    folder + QStringLiteral("/memory_snapshot/iteration_30/rank1_memory_snapshot.pickle") },
        steps);
    oneRank.load();
    QCOMPARE(oneRank.inputs().size(), size_t(1));
    QCOMPARE(oneRank.inputs().front().peakEvents.size(), size_t(oneRank.inputs().front().snapshot->deviceCount()));
    const Job earlier = latest.forStep(10);
    QCOMPARE(earlier.step(), int64_t(10));
    QVERIFY(earlier.files() != latest.files());
    QCOMPARE(latest.forStep(30).loaded()[0].snapshot, latest.loaded()[0].snapshot);
    QCOMPARE(Job({ folder }, { 15, false }).error().text(), std::string("step 15: the files hold steps 10, 20, 30"));
}

// A device or a point's rank that no file holds would compare nothing and call it balanced: refused, with what is
// there.
void TestCommands::jobRefusesWhatNoFileHolds()
{
    Job job({ examples });
    job.load();
    ComparisonOptions device;
    device.device = 3;
    QCOMPARE(job.check(device).text(), std::string("device 3: the files hold device 0"));
    ComparisonOptions point;
    point.point = TimelinePoint::parse("event:100@7");
    QCOMPARE(job.check(point).text(), std::string("at event:100@7: no rank 7 among the files"));
    const Ran cli = runCommand({ QStringLiteral("diff"), QStringLiteral("--device"), QStringLiteral("3"), examples });
    QCOMPARE(cli.code, 2);
    QVERIFY(cli.err.rfind(program + " diff: --device 3: the files hold device 0\n", 0) == 0);
}

namespace {

QString writeFile(const QString& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir + QLatin1Char('/') + name;
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return path;
}

} // namespace

// Files that are not snapshots are refused with the reason, naming the file, and never make a verdict, not even with
// --fail-on-imbalance; files that are empty snapshots say so, and a job of them has nothing to compare (status 6).
void TestCommands::notSnapshotsGetNoVerdict()
{
    QTemporaryDir dir;
    const QString records = dir.filePath(QStringLiteral("records"));
    writeFile(records, QStringLiteral("calls1.json"), R"([{"tool": "diff", "args": {"paths": ["a"]}}])");
    writeFile(records, QStringLiteral("calls2.json"), R"({"segments": [{"tool": "info", "args": {}}]})");
    const Ran refused = runCommand({ QStringLiteral("diff"), QStringLiteral("--fail-on-imbalance"), records });
    QCOMPARE(refused.code, 1);
    QVERIFY2(refused.out.empty(), refused.out.c_str());
    QVERIFY2(refused.err.find("calls1.json: not a PyTorch memory snapshot: item 1 of the top-level list is not a "
                              "segment record (its keys are 'tool', 'args'")
            != std::string::npos,
        refused.err.c_str());
    QVERIFY(refused.err.find("calls2.json: not a PyTorch memory snapshot: item 1 of 'segments' is not a segment "
                             "record")
        != std::string::npos);

    const QString empty = dir.filePath(QStringLiteral("empty"));
    writeFile(empty, QStringLiteral("rank0.json"), R"({"segments": [], "device_traces": [[]]})");
    writeFile(empty, QStringLiteral("rank1.json"), "[]");
    const Ran nothing = runCommand({ QStringLiteral("diff"), QStringLiteral("--fail-on-imbalance"), empty });
    QCOMPARE(nothing.code, NothingToCompare);
    QVERIFY2(nothing.out.empty(), nothing.out.c_str());
    QVERIFY2(
        nothing.err.find("rank0.json: the snapshot is empty: no segments and no trace events") != std::string::npos,
        nothing.err.c_str());
    QVERIFY(
        nothing.err.find(" diff: nothing to compare: each of the 2 files is an empty snapshot") != std::string::npos);
    QCOMPARE(runCommand({ QStringLiteral("top"), empty }).code, NothingToCompare);
    // One empty rank among others is compared, and said to be empty.
    const QString mixed = dir.filePath(QStringLiteral("mixed"));
    QDir().mkpath(mixed);
    QFile::copy(examples + QStringLiteral("/rank0_memory_snapshot.pickle"), mixed + QStringLiteral("/rank0.pickle"));
    writeFile(mixed, QStringLiteral("rank1.json"), "[]");
    const Ran one = runCommand({ QStringLiteral("diff"), mixed });
    QCOMPARE(one.code, 0);
    QVERIFY(one.err.find("note: " + mixed.toStdString() + "/rank1.json: the snapshot is empty") != std::string::npos);
    QVERIFY(one.out.rfind("Verdict: ", 0) == 0);
}

// Folder searches leave out other programs' trees and say so; a folder of several jobs, or of too many files, is
// refused with what it holds (diff and digest alike), never merged.
void TestCommands::foldersAreSearchedWithCare()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("project"));
    QDir().mkpath(project);
    for (const char* rank : { "rank0", "rank1" })
        QFile::copy(examples + QStringLiteral("/%1_memory_snapshot.pickle").arg(QLatin1String(rank)),
            project + QLatin1Char('/') + QLatin1String(rank) + QStringLiteral(".pickle"));
    writeFile(project, QStringLiteral("node_modules/pkg/package.json"), R"({"name": "pkg"})");
    writeFile(project, QStringLiteral(".git/info.json"), "{}");
    writeFile(project, QStringLiteral("env/pyvenv.cfg"), "home = /usr/bin\n");
    writeFile(project, QStringLiteral("env/lib/fixture.json"), "[]");
    writeFile(project, QStringLiteral("out/CMakeCache.txt"), "");
    writeFile(project, QStringLiteral("out/tests/rank7.pickle"), "");
    writeFile(project, QStringLiteral("notes.txt"), "not a snapshot");
    const Ran ran = runCommand({ QStringLiteral("diff"), project });
    QCOMPARE(ran.code, 0);
    for (const char* note :
        { "/node_modules: not searched (installed packages and caches)", "/.git: not searched (hidden folders)",
            "/env: not searched (Python virtual environments)", "/out: not searched (build folders)" })
        QVERIFY2(ran.err.find(note) != std::string::npos, ran.err.c_str());
    QCOMPARE(Job({ project }).files().size(), 2);

    const QString jobs = dir.filePath(QStringLiteral("jobs"));
    for (const char* job : { "a", "b" }) {
        QDir().mkpath(jobs + QLatin1Char('/') + QLatin1String(job));
        for (const char* rank : { "rank0", "rank1" })
            QFile::copy(examples + QStringLiteral("/%1_memory_snapshot.pickle").arg(QLatin1String(rank)),
                jobs + QLatin1Char('/') + QLatin1String(job) + QLatin1Char('/') + QLatin1String(rank)
                    + QStringLiteral(".pickle"));
    }
    const std::string several = jobs.toStdString()
        + " holds the snapshots of 2 jobs (the same rank in more than one folder): a (2 files), b (2 files); open one "
          "of "
          "them";
    QCOMPARE(Job({ jobs }).error().text(), several);
    for (const QStringList& args :
        { QStringList { QStringLiteral("diff"), jobs },
            QStringList { QStringLiteral("digest"), QStringLiteral("-o"), dir.filePath(QStringLiteral("d")), jobs } }) {
        const Ran refused = runCommand(args);
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.find(several) != std::string::npos, refused.err.c_str());
        QVERIFY(refused.out.empty());
    }
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("d"))));
    // One job's step folders and rank folders are that job's.
    QVERIFY(Job({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/growth_steps_4") }).error().empty());

    // The search stops at its limit: what it found is not the whole of anything.
    const RankFiles::Scan scan = RankFiles::scan({ project }, false, 2);
    QCOMPARE(scan.stoppedIn, project);
    QCOMPARE(Job::scanError(scan).text(),
        project.toStdString()
            + ": more than 2 files, where a search stops; this is not the folder of one job's snapshots (open that "
              "folder, or name the files)");
    QVERIFY(Job::scanError(RankFiles::scan({ project }, false, 3)).empty());
}

// A point a rank does not have is never answered under its name: an OOM no rank has is an error; ranks without the
// OOM others have are compared at their snapshot, named, and labelled so.
void TestCommands::pointsRanksLack()
{
    const Ran none = runCommand({ QStringLiteral("diff"), QStringLiteral("--at"), QStringLiteral("oom"), examples });
    QCOMPARE(none.code, 2);
    QVERIFY2(
        none.err.rfind(program + " diff: --at oom: no rank ran out of memory (no file has an OOM event)\n", 0) == 0,
        none.err.c_str());

    const QString some = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/outside_one_of_4");
    const Ran ran = runCommand(
        { QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--at"), QStringLiteral("oom"), some });
    QCOMPARE(ran.code, 0);
    QVERIFY2(ran.err.find("note: --at oom: ranks 0, 1, 3 do not have it; compared at their snapshots\n")
            != std::string::npos,
        ran.err.c_str());
    const Json out = Json::parse(ran.out);
    for (size_t i = 0; i < out["ranks"].size(); ++i) {
        const Json rank = DiffReport::rankRecord(out, i);
        if (rank["oom_events"].get<int>() == 0)
            QCOMPARE(rank["at"].get<std::string>(), std::string("snapshot"));
        else
            QVERIFY(!rank.contains("at"));
    }
}

// --my-code where the job's code is an installed framework: its frames are the user's, said in a note; named
// packages take the place of the guess; a name that is not a package's is a usage error.
void TestCommands::myCodeOfAnInstalledFramework()
{
    const QString framework = QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/framework_burden_4");
    const Ran guessed = runCommand({ QStringLiteral("diff"), QStringLiteral("--my-code"), framework });
    QCOMPARE(guessed.code, 0);
    QVERIFY2(guessed.err.find("note: --my-code counts the frames of torchtitan as your code, since no frame of the "
                              "files is in your own folders")
            != std::string::npos,
        guessed.err.c_str());
    QVERIFY(guessed.out.find("gather_predictions") != std::string::npos);
    QVERIFY(guessed.out.find("Verdict: burden_imbalance (rank 2") != std::string::npos);
    // The frames it counts are the user's in the data too: marked own_code, where reading starts.
    const Ran json =
        runCommand({ QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--my-code"), framework });
    const Json stacks = Json::parse(json.out)["stacks"];
    QVERIFY(!stacks.empty());
    for (const Json& stack : stacks) {
        const Json& frames = stack["frames"];
        const Json& first = frames[0].contains("inner_frames") ? frames[1] : frames[0];
        QVERIFY2(first.value("own_code", false)
                && first["filename"].get<std::string>().find("torchtitan") != std::string::npos,
            stack.dump().c_str());
    }
    const Ran named = runCommand({ QStringLiteral("diff"), QStringLiteral("--my-code=torchtitan,einops"), framework });
    QCOMPARE(named.code, 0);
    QVERIFY(named.err.find("--my-code counts") == std::string::npos);
    QVERIFY(named.out.find("gather_predictions") != std::string::npos);
    const Ran wrong = runCommand({ QStringLiteral("diff"), QStringLiteral("--my-code=torch titan"), framework });
    QCOMPARE(wrong.code, 2);
    QVERIFY2(wrong.err.find("--my-code needs the top-level names of installed packages") != std::string::npos,
        wrong.err.c_str());
    // The user's own code, where there is some, is theirs alone: no framework is counted.
    const Ran own = runCommand({ QStringLiteral("diff"), QStringLiteral("--my-code"), examples });
    QCOMPARE(own.code, 0);
    QVERIFY(own.err.find("--my-code") == std::string::npos);
}

// Every diff option is the call's own, the step too (the job's own step without one), and the answer says the step;
// an over-capacity job's code is in its failed request, which stack gives.
void TestCommands::mcpStepAndOom()
{
    const std::string steps = RANKSCOPE_SCENARIOS_DIR "/growth_steps_4";
    const std::string capacity = RANKSCOPE_SCENARIOS_DIR "/capacity_loss_4";
    auto answers = serve({ call(1, "open_job", { { "paths", { steps } } }),
        call(2, "diff", { { "job", "job1" }, { "step", 10 } }), call(3, "diff", { { "job", "job1" } }),
        call(4, "open_job", { { "paths", { capacity } } }), call(5, "stack", { { "job", "job2" }, { "oom", true } }),
        call(6, "stack", { { "job", "job1" }, { "oom", true } }), request(7, "tools/list") });
    QCOMPARE(answers["2"]["result"]["structuredContent"]["step"].get<int>(), 10);
    QCOMPARE(answers["3"]["result"]["structuredContent"]["step"].get<int>(), 30);
    QCOMPARE(answers["3"]["result"]["structuredContent"]["verdict"]["kind"].get<std::string>(), std::string("growth"));
    QVERIFY(answers["3"]["result"]["content"][0]["text"].get<std::string>().rfind("Step 30 (", 0) == 0);
    const Json& oom = answers["5"]["result"]["structuredContent"];
    QVERIFY(oom["requested_bytes"].get<int64_t>() > 0);
    QVERIFY(std::any_of(
        oom["frames"].begin(), oom["frames"].end(), [](const Json& f) { return f.value("own_code", false); }));
    // From the user's frame outward, what is inside it counted; the comparison it belongs to named.
    QVERIFY(oom["frames"][0].contains("inner_frames"));
    QVERIFY(oom["frames"][1]["own_code"].get<bool>());
    QCOMPARE(oom["comparison"]["job"].get<std::string>(), std::string("job2"));
    QVERIFY(answers["6"]["result"]["isError"].get<bool>());
    // The one tool that may write says so.
    for (const Json& tool : answers["7"]["result"]["tools"])
        QCOMPARE(tool["annotations"]["readOnlyHint"].get<bool>(), tool["name"] != "export_picture");
}

void TestCommands::mcpProtocol()
{
    std::string raw;
    auto answers = serve(
        {
            request(1, "initialize", { { "protocolVersion", "2025-06-18" }, { "capabilities", Json::object() } }),
            Json { { "jsonrpc", "2.0" }, { "method", "notifications/initialized" } },
            request(2, "tools/list"),
            request(3, "ping"),
            request(4, "no/such/method"),
            call(5, "no_such_tool", Json::object()),
            Json("{not json"),
            request(6, "initialize", { { "protocolVersion", "1999-01-01" } }),
        },
        true, &raw);
    // Nothing but protocol on the output: one JSON message a line, one per request, none for the notification.
    QCOMPARE(std::count(raw.begin(), raw.end(), '\n'), 7);
    QCOMPARE(answers["1"]["result"]["protocolVersion"].get<std::string>(), std::string("2025-06-18"));
    QCOMPARE(answers["1"]["result"]["serverInfo"]["name"].get<std::string>(), std::string("rankscope"));
    QVERIFY(answers["1"]["result"]["capabilities"].contains("tools"));
    QCOMPARE(answers["6"]["result"]["protocolVersion"].get<std::string>(), std::string("2025-11-25"));
    std::vector<std::string> names;
    for (const Json& tool : answers["2"]["result"]["tools"]) {
        names.push_back(tool["name"]);
        QVERIFY(!tool["description"].get<std::string>().empty());
        QCOMPARE(tool["inputSchema"]["type"].get<std::string>(), std::string("object"));
    }
    // The core-only server offers every tool but the one that draws.
    QCOMPARE(names,
        (std::vector<std::string> {
            "open_job", "diff", "findings", "ranks", "stack", "top", "what_if", "info", "steps", "gate" }));
    // Schemas a client can check: enums, defaults, bounds.
    for (const Json& tool : answers["2"]["result"]["tools"]) {
        if (tool["name"] == "diff")
            QVERIFY(tool["inputSchema"]["properties"]["detail"]["enum"] == Json({ "summary", "full" }));
        if (tool["name"] == "findings")
            QCOMPARE(tool["inputSchema"]["properties"]["limit"]["maximum"].get<int>(), 100);
    }
    QVERIFY(answers["3"]["result"].is_object());
    QCOMPARE(answers["4"]["error"]["code"].get<int>(), -32601);
    QCOMPARE(answers["5"]["error"]["code"].get<int>(), -32602);
    QCOMPARE(answers["null"]["error"]["code"].get<int>(), -32700);
}

void TestCommands::mcpToolsAnswer()
{
    auto answers = serve({ openExamples(1), call(2, "diff", { { "job", "job1" }, { "detail", "full" } }),
        call(3, "findings", { { "job", "job1" }, { "filter", "GATHER_predictions" } }),
        call(4, "stack", { { "job", "job1" }, { "finding", 1 } }), call(5, "what_if", { { "job", "job1" } }),
        call(6, "top", { { "job", "job1" }, { "by", "category" } }),
        call(7, "info", { { "paths", { examples.toStdString() } } }) });
    const Json& opened = answers["1"]["result"]["structuredContent"];
    QCOMPARE(opened["job"].get<std::string>(), std::string("job1"));
    QCOMPARE(opened["files"].size(), size_t(4));
    QVERIFY(opened["failed"].empty());
    // The verdict is the command line's, from the same computation.
    const Json cli = Json::parse(runCommand({ QStringLiteral("diff"), QStringLiteral("--json"), examples }).out);
    const Json& diff = answers["2"]["result"]["structuredContent"];
    QCOMPARE(diff["verdict"].dump(), cli["verdict"].dump());
    QCOMPARE(diff["ranks"].dump(), cli["ranks"].dump());
    QCOMPARE(diff["finding_count"].get<size_t>(), cli["findings"].size());
    QVERIFY(answers["2"]["result"]["content"][0]["text"].get<std::string>().rfind("Verdict: burden_imbalance", 0) == 0);
    QCOMPARE(answers["3"]["result"]["structuredContent"]["matched"].get<int>(), 1);
    const Json& frames = answers["4"]["result"]["structuredContent"]["frames"];
    QVERIFY(!frames.empty());
    QCOMPARE(frames[0]["name"].get<std::string>(), std::string("gather_predictions"));
    QVERIFY(frames[0]["own_code"].get<bool>());
    QVERIFY(answers["5"]["result"]["structuredContent"]["what_if"].is_array());
    QVERIFY(answers["6"]["result"]["structuredContent"].contains("by_category"));
    QCOMPARE(answers["7"]["result"]["structuredContent"]["files"].size(), size_t(4));
}

void TestCommands::mcpErrorsAreToolResults()
{
    auto answers = serve(
        { call(1, "diff", { { "job", "job9" } }), call(2, "open_job", { { "paths", { "/no/such/rank0.pickle" } } }),
            openExamples(3), call(4, "diff", { { "job", "job1" }, { "point", "event:999999" } }),
            call(5, "stack", { { "job", "job1" }, { "finding", 99 } }),
            call(6, "diff", { { "job", "job1" }, { "depth", 0 } }), call(7, "open_job", { { "paths", "not a list" } }),
            call(8, "findings", { { "job", "job1" } }) });
    auto text = [&](const char* id) { return answers[id]["result"]["content"][0]["text"].get<std::string>(); };
    for (const char* id : { "1", "2", "4", "5", "6", "7" })
        QVERIFY2(answers[id]["result"]["isError"].get<bool>(), id);
    QVERIFY(text("1").find("job job9: no such job") == 0);
    QVERIFY(text("2").find("/no/such/rank0.pickle") != std::string::npos);
    // The command line's words, the argument named as the tool names it.
    QVERIFY2(text("4").rfind("point event:999999: rank 0's trace has events 0 to ", 0) == 0, text("4").c_str());
    QCOMPARE(text("5"), std::string("finding 99: there are only 1 findings"));
    QCOMPARE(text("6"), std::string("depth needs a number of frames, 1 or more"));
    QCOMPARE(text("7"), std::string("paths needs a list of snapshot files or folders"));
    // The server is still there.
    QCOMPARE(answers["8"]["result"]["isError"].get<bool>(), false);
}

// Every tool's default answer on 64 ranks alike stays within the budget, the group said once; the outlier among 63
// alike is named; the verdict, the failed request's own frames and the what-if in three calls after open_job.
void TestCommands::mcpAnswersFitManyRanks()
{
    if (!TestUtils::runsScenario(QStringLiteral("capacity_loss_64")))
        QSKIP("64 ranks: left to the unsanitized build");
    const std::string alike = RANKSCOPE_SCENARIOS_DIR "/capacity_loss_64";
    const std::string outlier = RANKSCOPE_SCENARIOS_DIR "/capacity_loss_outlier_64";
    auto answers = serve({ call(1, "open_job", { { "paths", { alike } } }), call(2, "diff", { { "job", "job1" } }),
        call(3, "stack", { { "job", "job1" }, { "oom", true } }), call(4, "what_if", { { "job", "job1" } }),
        call(5, "findings", { { "job", "job1" } }), call(6, "ranks", { { "job", "job1" } }),
        call(7, "top", { { "job", "job1" } }), call(8, "info", { { "paths", { alike } } }),
        call(9, "open_job", { { "paths", { outlier } } }), call(10, "diff", { { "job", "job2" } }),
        call(11, "ranks", { { "job", "job2" } }) });
    for (const auto& [id, answer] : answers) {
        const Json& result = answer["result"];
        QVERIFY2(!result["isError"].get<bool>(), id.c_str());
        const size_t text = result["content"][0]["text"].get<std::string>().size();
        const size_t structured = result["structuredContent"].dump().size();
        QVERIFY2(text <= McpServer::TextBudget, (id + ": " + std::to_string(text)).c_str());
        QVERIFY2(structured <= 16000, (id + ": " + std::to_string(structured)).c_str());
    }
    auto text = [&](const char* id) { return answers[id]["result"]["content"][0]["text"].get<std::string>(); };
    const Json& diff = answers["2"]["result"]["structuredContent"];
    QCOMPARE(diff["verdict"]["kind"].get<std::string>(), std::string("over_capacity"));
    QCOMPARE(diff["groups"].size(), size_t(1));
    QCOMPARE(diff["groups"][0]["rank_count"].get<int>(), 64);
    QVERIFY2(text("2").find("ranks 0\u201363, alike:  asked for ") != std::string::npos, text("2").c_str());
    QCOMPARE(diff["verdict"]["oom"]["frames"][1]["own_code"].get<bool>(), true);
    QVERIFY(text("3").find("* ") != std::string::npos);
    QVERIFY(!answers["4"]["result"]["structuredContent"]["what_if"].empty());
    QCOMPARE(answers["6"]["result"]["structuredContent"]["entries"].size(), size_t(1));
    // The group of 63 and its exception, by number: the verdict gives the outlier's figures, the group's once.
    QVERIFY2(text("10").find("rank 41  asked for ") != std::string::npos, text("10").c_str());
    const Json& outlierVerdict = answers["10"]["result"]["structuredContent"]["verdict"];
    QCOMPARE(outlierVerdict["figures_rank"].get<int>(), 41);
    QCOMPARE(outlierVerdict["oom"]["rank"].get<int>(), 41);
    QVERIFY(outlierVerdict["oom_groups"][0]["ranks"] == Json({ 41 }));
    QCOMPARE(outlierVerdict["oom_groups"][1]["ranks"].size(), size_t(63));
    // Rank 41 ran from a container: its failed request's frames are its own files, not those of rank 0's checkout,
    // though both failed at the same site.
    int ownFiles = 0;
    for (const Json& frame : outlierVerdict["oom"]["frames"]) {
        const std::string file = frame.value("filename", "");
        QVERIFY2(file.find("D:\\Dev") == std::string::npos, file.c_str());
        ownFiles += file.starts_with("/workspace/proj/") ? 1 : 0;
    }
    QVERIFY(ownFiles >= 3);
    QVERIFY2(text("10").find("rank 41 asked for 2.44 GiB; ranks 0\u201340, 42\u201363 alike asked for 1.22 GiB")
            != std::string::npos,
        text("10").c_str());
    QCOMPARE(answers["11"]["result"]["structuredContent"]["entries"].size(), size_t(2));
    QVERIFY(answers["11"]["result"]["structuredContent"]["entries"][1]["ranks"] == Json({ 41 }));
}

// An argument a tool does not take, an offset past the end, a missing file: each an error the agent reads.
void TestCommands::mcpRefusesWhatItDoesNotTake()
{
    auto answers = serve({ openExamples(1), call(2, "what_if", { { "job", "job1" }, { "point", "peak" } }),
        call(3, "stack", { { "job", "job1" }, { "finding", 1 }, { "rank", 3 } }),
        call(4, "findings", { { "job", "job1" }, { "offset", 5 } }),
        call(5, "info", { { "paths", { "no-such-folder/rank0.pickle" } } }),
        call(6, "diff", { { "job", "job1" }, { "detail", "everything" } }),
        call(7, "stack", { { "job", "job1" }, { "finding", 1 }, { "frames", "all" } }),
        call(8, "findings", { { "job", "job1" }, { "limit", 1 } }),
        call(9, "steps", { { "paths", { RANKSCOPE_TEST_DATA_DIR "/logs/torchrun_interleaved.log" } }, { "limit", 1 } }),
        call(10, "steps",
            { { "paths", { RANKSCOPE_TEST_DATA_DIR "/logs/torchrun_interleaved.log" } }, { "offset", 99 } }) });
    auto text = [&](const char* id) { return answers[id]["result"]["content"][0]["text"].get<std::string>(); };
    for (const char* id : { "2", "3", "4", "5", "6" })
        QVERIFY2(answers[id]["result"]["isError"].get<bool>(), id);
    QVERIFY2(text("2").rfind("unknown argument point: what_if takes job, rank", 0) == 0, text("2").c_str());
    QCOMPARE(text("3"), std::string("rank goes with oom: true (a finding's rank is its own)"));
    QCOMPARE(text("4"), std::string("offset 5: there are only 1 entries"));
    // A relative path is resolved against the folder the server started in, and named so.
    QCOMPARE(text("5"),
        QDir::current().absoluteFilePath(QStringLiteral("no-such-folder/rank0.pickle")).toStdString()
            + ": no such file or folder");
    QCOMPARE(text("6"), std::string("detail needs one of summary, full, not 'everything'"));
    const Json& all = answers["7"]["result"]["structuredContent"];
    QCOMPARE(all["frames_shown"].get<std::string>(), std::string("all"));
    QVERIFY(!all["frames"][0].contains("inner_frames"));
    QVERIFY(answers["8"]["result"]["structuredContent"]["next"].is_null());
    // steps pages its ranks' rows as the other tools page theirs.
    const Json& steps = answers["9"]["result"]["structuredContent"];
    QCOMPARE(steps["ranks"].size(), size_t(1));
    QVERIFY(steps["rank_count"].get<size_t>() > 1);
    QVERIFY(steps["next"] == Json({ { "offset", 1 }, { "limit", 1 } }));
    QVERIFY2(text("9").find("Next page: offset 1.") != std::string::npos, text("9").c_str());
    QVERIFY2(text("10").rfind("offset 99: there are only ", 0) == 0, text("10").c_str());
}

// What is not one job's snapshots is refused with the reason, never compared: other records, a log, a folder of
// several jobs, a job whose files are all empty, an OOM no rank has; the folders a search left out are noted.
void TestCommands::mcpRefusesWhatIsNotOneJob()
{
    QTemporaryDir dir;
    const QString records = dir.filePath(QStringLiteral("records"));
    writeFile(records, QStringLiteral("calls1.json"), R"([{"tool": "diff", "args": {}}])");
    writeFile(records, QStringLiteral("calls2.json"), R"({"tool": "info", "args": {}})");
    const QString log = writeFile(dir.path(), QStringLiteral("train.log"), "rank=0 step=1 cur=10MB peak=12MB\n");
    const QString project = dir.filePath(QStringLiteral("project"));
    const QString jobs = dir.filePath(QStringLiteral("jobs"));
    for (const QString& folder : QStringList { project, jobs + QStringLiteral("/a"), jobs + QStringLiteral("/b") }) {
        QDir().mkpath(folder);
        for (const char* rank : { "rank0", "rank1" })
            QFile::copy(examples + QStringLiteral("/%1_memory_snapshot.pickle").arg(QLatin1String(rank)),
                folder + QLatin1Char('/') + QLatin1String(rank) + QStringLiteral(".pickle"));
    }
    QFile::copy(examples + QStringLiteral("/rank2_memory_snapshot.pickle"),
        project + QStringLiteral("/node_modules/pkg/rank2.pickle"));
    writeFile(project, QStringLiteral("node_modules/pkg/package.json"), R"({"name": "pkg"})");
    const QString empty = dir.filePath(QStringLiteral("empty"));
    writeFile(empty, QStringLiteral("rank0.json"), R"({"segments": [], "device_traces": [[]]})");
    writeFile(empty, QStringLiteral("rank1.json"), "[]");
    const auto path = [](const QString& p) { return Json::array({ p.toStdString() }); };
    auto answers =
        serve({ call(1, "open_job", { { "paths", path(records) } }), call(2, "open_job", { { "paths", path(log) } }),
            call(3, "info", { { "paths", path(log) } }), call(4, "open_job", { { "paths", path(project) } }),
            call(5, "info", { { "paths", path(project) } }), call(6, "open_job", { { "paths", path(jobs) } }),
            call(7, "info", { { "paths", path(jobs) } }), call(8, "open_job", { { "paths", path(empty) } }),
            call(9, "diff", { { "job", "job2" } }), call(10, "top", { { "job", "job2" } }),
            call(11, "findings", { { "job", "job2" } }), call(12, "info", { { "paths", path(empty) } }),
            openExamples(13), call(14, "diff", { { "job", "job3" }, { "point", "oom" } }),
            call(15, "top", { { "job", "job3" }, { "point", "oom" } }) });
    auto text = [&](int id) { return answers[std::to_string(id)]["result"]["content"][0]["text"].get<std::string>(); };
    auto refused = [&](int id) { return answers[std::to_string(id)]["result"]["isError"].get<bool>(); };
    auto structured = [&](int id) -> const Json& { return answers[std::to_string(id)]["result"]["structuredContent"]; };
    for (int id : { 1, 2, 3, 6, 7, 9, 10, 11, 14, 15 })
        QVERIFY2(refused(id), std::to_string(id).c_str());
    QVERIFY2(text(1).find("calls1.json: not a PyTorch memory snapshot: item 1 of the top-level list is not a segment "
                          "record (its keys are 'tool', 'args'")
            != std::string::npos,
        text(1).c_str());
    QVERIFY2(text(1).find("calls2.json: not a PyTorch memory snapshot") != std::string::npos, text(1).c_str());
    for (int id : { 2, 3 })
        QVERIFY2(text(id).find("train.log: not a memory snapshot: the file starts with bytes") != std::string::npos,
            text(id).c_str());
    // node_modules is left out, and said so.
    const std::string packages = "/node_modules: not searched (installed packages and caches)";
    for (int id : { 4, 5 }) {
        QVERIFY2(!refused(id), text(id).c_str());
        QVERIFY2(text(id).find("note: " + project.toStdString() + packages) != std::string::npos, text(id).c_str());
        QVERIFY(structured(id)["notes"] == Json::array({ project.toStdString() + packages }));
        QCOMPARE(structured(id)["file_count"].get<int>(), 2);
    }
    // Several jobs: the jobs named, nothing opened.
    for (int id : { 6, 7 })
        QVERIFY2(text(id).rfind(jobs.toStdString()
                         + " holds the snapshots of 2 jobs (the same rank in more than one folder): a (2 files), b "
                           "(2 files); open one of them",
                     0)
                == 0,
            text(id).c_str());
    // The command line refuses it the same way in info as in diff, nothing read.
    const Ran infoJobs = runCommand({ QStringLiteral("info"), jobs });
    const Ran diffJobs = runCommand({ QStringLiteral("diff"), jobs });
    QCOMPARE(infoJobs.code, diffJobs.code);
    QVERIFY(infoJobs.out.empty());
    QVERIFY2(infoJobs.err.find(text(7)) != std::string::npos, infoJobs.err.c_str());
    QCOMPARE(QString::fromStdString(infoJobs.err).replace(QStringLiteral(" info"), QStringLiteral(" diff")),
        QString::fromStdString(diffJobs.err));
    // Empty snapshots: each said empty, the job opened, every comparing tool refuses with nothing to compare.
    const std::string nothing =
        "nothing to compare: each of the 2 files is an empty snapshot (no segments, no trace events)";
    QCOMPARE(structured(8)["nothing_to_compare"].get<std::string>(), nothing);
    QCOMPARE(structured(8)["file_notes"][0]["file_count"].get<int>(), 2);
    QVERIFY(text(8).find("note: 2 files (") != std::string::npos);
    QVERIFY(text(8).find("Next: diff") == std::string::npos);
    for (int id : { 9, 10, 11 })
        QCOMPARE(text(id), nothing);
    QVERIFY2(!refused(12), text(12).c_str());
    QVERIFY(structured(12)["files"][1]["notes"].get<std::string>().rfind("the snapshot is empty: no segments", 0) == 0);
    // An OOM no rank has is no point to compare at.
    for (int id : { 14, 15 })
        QCOMPARE(text(id), std::string("point oom: no rank ran out of memory (no file has an OOM event)"));
}

// The notes a comparison carries come with every answer about it, in the tools' words: ranks without the point asked
// for (and a per-rank answer about one says where it is instead), the framework my_code counts as the user's code;
// my_code takes packages as a string or a list.
void TestCommands::mcpNotesPointsAndMyCode()
{
    const std::string outside = RANKSCOPE_SCENARIOS_DIR "/outside_one_of_4";
    const std::string framework = RANKSCOPE_SCENARIOS_DIR "/framework_burden_4";
    auto answers = serve(
        { call(1, "open_job", { { "paths", { outside } } }), call(2, "diff", { { "job", "job1" }, { "point", "oom" } }),
            call(3, "top", { { "job", "job1" }, { "rank", 0 } }), call(4, "findings", { { "job", "job1" } }),
            call(5, "open_job", { { "paths", { framework } } }),
            call(6, "diff", { { "job", "job2" }, { "my_code", true } }),
            call(7, "diff", { { "job", "job2" }, { "my_code", "torchtitan,einops" } }),
            call(8, "diff", { { "job", "job2" }, { "my_code", { "torchtitan", "einops" } } }),
            call(9, "diff", { { "job", "job2" }, { "my_code", "torch titan" } }),
            call(10, "diff", { { "job", "job2" }, { "my_code", { 1, 2 } } }) });
    auto result = [&](int id) -> const Json& { return answers[std::to_string(id)]["result"]; };
    auto text = [&](int id) { return result(id)["content"][0]["text"].get<std::string>(); };
    const std::string lacking = "point oom: ranks 0, 1, 3 do not have it; compared at their snapshots";
    for (int id : { 2, 3, 4 }) {
        QVERIFY2(!result(id)["isError"].get<bool>(), text(id).c_str());
        QVERIFY(result(id)["structuredContent"]["comparison"]["notes"] == Json::array({ lacking }));
        QVERIFY2(text(id).find("note: " + lacking + "\n") != std::string::npos, text(id).c_str());
    }
    QVERIFY(text(2).rfind("note: " + lacking, 0) == 0);
    // Rank 0 has no OOM: its figures are its snapshot's, and the answer says so.
    QCOMPARE(result(3)["structuredContent"]["comparison"]["rank_point"].get<std::string>(), std::string("snapshot"));
    QVERIFY2(text(3).find("Rank 0 lacks point oom: it is at its snapshot.") != std::string::npos, text(3).c_str());
    QVERIFY(!result(4)["structuredContent"]["comparison"].contains("rank_point"));
    const Json& guessed = result(6)["structuredContent"]["comparison"];
    QCOMPARE(guessed["notes"].size(), size_t(1));
    QVERIFY2(
        guessed["notes"][0].get<std::string>().rfind("my_code counts the frames of torchtitan as your code", 0) == 0,
        guessed.dump().c_str());
    QCOMPARE(result(6)["structuredContent"]["verdict"]["kind"].get<std::string>(), std::string("burden_imbalance"));
    for (int id : { 7, 8 }) {
        const Json& named = result(id)["structuredContent"]["comparison"];
        QVERIFY2(!result(id)["isError"].get<bool>(), text(id).c_str());
        QVERIFY(!named.contains("notes"));
        QVERIFY(named["my_code_packages"] == Json::array({ "torchtitan", "einops" }));
        QVERIFY(text(id).find("gather_predictions") != std::string::npos);
    }
    for (int id : { 9, 10 }) {
        QVERIFY(result(id)["isError"].get<bool>());
        QVERIFY2(text(id).rfind("my_code needs the top-level names of installed packages", 0) == 0, text(id).c_str());
    }
}

// A cancelled request stops its load and gets no answer; the next request is answered.
void TestCommands::mcpCancelledRequestGetsNoAnswer()
{
    auto answers = serve({ openExamples(1),
        Json { { "jsonrpc", "2.0" }, { "method", "notifications/cancelled" }, { "params", { { "requestId", 1 } } } },
        request(2, "ping") });
    QVERIFY(!answers.count("1"));
    QVERIFY(answers.count("2"));
}

void TestCommands::mcpPicture()
{
#ifndef RANKSCOPE_DRAWING
    QSKIP("built without the GUI: no export_picture");
#else
    QTemporaryDir dir;
    const std::string out = dir.filePath(QStringLiteral("diff.png")).toStdString();
    auto answers =
        serve({ openExamples(1), call(2, "export_picture", { { "job", "job1" }, { "width", 800 }, { "height", 500 } }),
            call(3, "export_picture", { { "job", "job1" }, { "view", "flame" }, { "out", out } }),
            call(4, "export_picture", { { "job", "job1" }, { "out", out } }),
            call(5, "export_picture", { { "job", "job1" }, { "ranks", { 0, 9 } } }) });
    const Json& content = answers["2"]["result"]["content"];
    QCOMPARE(content[1]["type"].get<std::string>(), std::string("image"));
    QCOMPARE(content[1]["mimeType"].get<std::string>(), std::string("image/png"));
    const QImage image = QImage::fromData(
        QByteArray::fromBase64(QByteArray::fromStdString(content[1]["data"].get<std::string>())), "PNG");
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), answers["2"]["result"]["structuredContent"]["width"].get<int>());
    QCOMPARE(image.width(), 800);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // only where an output was given
    QVERIFY(!QImage(QString::fromStdString(out)).isNull());
    // The export's rules: no overwrite without force.
    QVERIFY(answers["4"]["result"]["isError"].get<bool>());
    QVERIFY(answers["4"]["result"]["content"][0]["text"].get<std::string>().find("exists; give force")
        != std::string::npos);
    QCOMPARE(answers["5"]["result"]["content"][0]["text"].get<std::string>(),
        std::string("ranks 9: no such rank among the files"));
#endif
}

// A picture never outlines a finding of a rank it does not show, whatever order the findings come in: by default the
// largest of rank A (else of B), a finding asked for brings its rank in as A, and with ranks given too it must be one
// of theirs.
void TestCommands::pictureOutlinesAFindingItShows()
{
#ifndef RANKSCOPE_DRAWING
    QSKIP("built without the GUI: no pictures");
#else
    // Jobs whose largest finding is not the verdict's rank's: other ranks' tensors on rank 0's GPU; two ranks that
    // hold more, the verdict naming neither.
    for (const char* scenario : { "gpu0_load_4", "two_trees_4" }) {
        Job job({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/") + QString::fromLatin1(scenario) });
        job.load();
        const ComparisonPtr c = job.compare({}).comparison;
        QVERIFY(c);
        const auto [a, b] = c->defaultPair();
        QVERIFY2(c->findings().front().rank != a, scenario); // what made the old default wrong
        std::string error;
        const std::optional<PictureChoice> chosen = choosePicture(*c, Picture {}, error);
        QVERIFY2(chosen, error.c_str());
        QCOMPARE(chosen->rankA, a);
        QCOMPARE(chosen->rankB, b);
        if (chosen->finding >= 0) {
            const int rank = c->findings()[size_t(chosen->finding)].rank;
            QVERIFY(rank == a || rank == b);
        }
        QCOMPARE(chosen->finding, c->defaultFinding());

        Picture first;
        first.finding = 0;
        const std::optional<PictureChoice> asked = choosePicture(*c, first, error);
        QVERIFY(asked);
        QCOMPARE(asked->rankA, c->findings().front().rank);
        QCOMPARE(asked->finding, 0);
        QVERIFY(asked->rankB >= 0 && asked->rankB != asked->rankA);

        // Ranks that leave the finding out: refused, in the command line's words.
        Picture without = first;
        for (const RankSummary& r : c->ranks()) {
            if (r.rank != c->findings().front().rank && (without.rankA < 0 || without.rankB < 0))
                (without.rankA < 0 ? without.rankA : without.rankB) = r.rank;
        }
        error.clear();
        QVERIFY(!choosePicture(*c, without, error));
        QCOMPARE(error,
            "--finding 1: it is rank " + std::to_string(c->findings().front().rank) + "'s, and the picture shows ranks "
                + std::to_string(without.rankA) + " and " + std::to_string(without.rankB));
        const Ran cli = runCommand({ QStringLiteral("export"), QStringLiteral("--finding"), QStringLiteral("1"),
            QStringLiteral("--ranks"), QStringLiteral("%1,%2").arg(without.rankA).arg(without.rankB),
            QStringLiteral("-o"), QStringLiteral("never.png"),
            QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/") + QString::fromLatin1(scenario) });
        QCOMPARE(cli.code, 2);
        QVERIFY2(cli.err.find(error) != std::string::npos, cli.err.c_str());
        QVERIFY(!QFile::exists(QStringLiteral("never.png")));
    }
#endif
}

QTEST_MAIN(TestCommands)
#include "tst_commands.moc"
