// SPDX-License-Identifier: MIT
// The `rankscope info` command as a user runs it: a separate process, no display, every real test file; its JSON
// must equal the figures CPython's pickle module gives (expected_info.json).
#include "testutils.h"

#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

using namespace TestUtils;

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void infoJsonMatchesCPython();
    void infoText();
    void badFileKeepsOthers();
    void usage();
    void diff();

private:
    QProcess* run(const QStringList& args);
    QProcess m_process;
};

QProcess* TestCli::run(const QStringList& args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
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
    const QStringList files = QDir(dataDir()).entryList({ QStringLiteral("*.pickle") }, QDir::Files, QDir::Name);
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
    QVERIFY(QString::fromUtf8(p->readAllStandardError()).contains(QLatin1String("Usage:")));
    p = run({ QStringLiteral("--version") });
    QCOMPARE(p->exitCode(), 0);
    QVERIFY(p->readAllStandardOutput().startsWith("rankscope "));
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
        QByteArray("rank,kind,excess_bytes,rank_bytes,baseline_bytes,rank_count,baseline_count,runs,site\n"));

    QCOMPARE(run({ QStringLiteral("diff"), QStringLiteral("--at"), QStringLiteral("later"), examples })->exitCode(), 2);
    QCOMPARE(
        run({ QStringLiteral("diff"), QStringLiteral("--baseline"), QStringLiteral("9"), examples })->exitCode(), 2);
    QCOMPARE(run({ QStringLiteral("diff"), QStringLiteral("--depth"), QStringLiteral("0"), examples })->exitCode(), 2);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
