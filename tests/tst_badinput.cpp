// SPDX-License-Identifier: MIT
// The bad-input table: each row is a file (or files) a user might open next to a good rank, the message they see,
// and proof that everything else keeps working: the good rank loads and is compared, in the loader and in the
// window, and no file of theirs is changed.
#include "appearance.h"
#include "blockmapview.h"
#include "gziputil.h"
#include "mainwindow.h"
#include "ranklistmodel.h"
#include "snapshotloader.h"
#include "testprogram.h"
#include "testutils.h"
#include "timelineview.h"
#include "verdictbanner.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

using namespace RankScope;
using namespace TestUtils;

class TestBadInput : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void table_data();
    void table();
    void folders();
    void fileChangesWhileLoading();
    void fileCutWhileLoading();

private:
    QTemporaryDir m_dir;
};

namespace {

QString source(const char* name)
{
    return QStringLiteral(RANKSCOPE_SOURCE_DIR) + QLatin1Char('/') + QLatin1String(name);
}

QByteArray digest(const QStringList& paths)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString& path : paths)
        hash.addData(fileContents(path));
    return hash.result();
}

} // namespace

void TestBadInput::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestBadInput::table_data()
{
    // Each row: its own folder with a good rank 0 and the bad input(s); the message the bad one gets (a regular
    // expression), or for files that load, the note they get; and whether the bad files load after all.
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("loaded");
    QTest::addColumn<QString>("marker");
    QTest::addColumn<QString>("folder"); // holds the good rank0.pickle

    const QByteArray good = fileContents(source("resources/examples/rank1_memory_snapshot.pickle"));
    int row = 0;
    auto folder = [&]() {
        const QString dir = m_dir.filePath(QString::number(row++));
        QDir().mkpath(dir);
        QFile f(dir + QStringLiteral("/rank0.pickle"));
        f.open(QIODevice::WriteOnly);
        f.write(good);
        return dir;
    };
    auto file = [](const QString& dir, const QString& name, const QByteArray& bytes) {
        QFile f(dir + QLatin1Char('/') + name);
        f.open(QIODevice::WriteOnly);
        f.write(bytes);
        return f.fileName();
    };

    QString dir = folder();
    QTest::newRow("zero-byte file") << QStringList { file(dir, QStringLiteral("rank1.pickle"), {}) }
                                    << QStringLiteral("the file is empty") << 1 << QString() << dir;

    dir = folder();
    QDir().mkpath(dir + QStringLiteral("/rank1.pickle"));
    QTest::newRow("directory") << QStringList { dir + QStringLiteral("/rank1.pickle") }
                               << QStringLiteral("(?i)directory") << 1 << QString() << dir;

    dir = folder();
    QString unreadable = file(dir, QStringLiteral("rank1.pickle"), good);
    QFile::setPermissions(unreadable, {});
    if (QFile probe(unreadable); probe.open(QIODevice::ReadOnly))
        unreadable = QStringLiteral("/proc/self/mem"); // root reads anything; this file fails to read for anyone
    QTest::newRow("unreadable file") << QStringList { unreadable } << QStringLiteral("cannot (open|read) the file") << 1
                                     << QString() << dir;

    dir = folder();
    QTest::newRow("truncated pickle") << QStringList { file(
        dir, QStringLiteral("rank1.pickle"), good.left(good.size() / 2)) }
                                      << QStringLiteral("truncated|ends") << 1 << QString() << dir;

    dir = folder();
    const QByteArray packed = gzip(good);
    QTest::newRow("truncated gzip") << QStringList { file(
        dir, QStringLiteral("rank1.pickle.gz"), packed.left(packed.size() / 2)) }
                                    << QStringLiteral("gzip data is truncated") << 1 << QString() << dir;

    dir = folder();
    PickleWriter ints;
    ints.proto(4).emptyList().mark().integer(1).integer(2).appends().stop();
    QTest::newRow("non-snapshot pickle") << QStringList { file(dir, QStringLiteral("rank1.pickle"), ints.bytes()) }
                                         << QStringLiteral("segment") << 1 << QString() << dir;

    dir = folder();
    QTest::newRow("JSON of another shape")
        << QStringList { file(dir, QStringLiteral("rank1.json"), "{\"hello\": [1, 2, 3], \"world\": {}}") }
        << QStringLiteral("segments") << 1 << QString() << dir;

    // Files of other programs with a snapshot's outer shape: lists of records, a dict of another kind, a log.
    dir = folder();
    QTest::newRow("JSON array of other records")
        << QStringList { file(dir, QStringLiteral("rank1.json"),
               R"([{"tool": "diff", "args": {"paths": ["a"]}}, {"tool": "info", "args": {}}])") }
        << QStringLiteral("not a PyTorch memory snapshot: item 1 of the top-level list is not a segment record \\(its "
                          "keys are 'tool', 'args'")
        << 1 << QString() << dir;

    dir = folder();
    QTest::newRow("JSON object without segments")
        << QStringList { file(dir, QStringLiteral("rank1.json"), R"({"tool": "diff", "args": {}})") }
        << QStringLiteral("no 'segments' key") << 1 << QString() << dir;

    dir = folder();
    QTest::newRow("segments of other records")
        << QStringList { file(dir, QStringLiteral("rank1.json"), R"({"segments": [{"name": "a"}, {}]})") }
        << QStringLiteral("item 1 of 'segments' is not a segment record") << 1 << QString() << dir;

    dir = folder();
    PickleWriter records;
    records.proto(4).emptyList().mark().emptyDict().mark().str("tool").str("diff").setitems().appends().stop();
    QTest::newRow("pickle list of other records")
        << QStringList { file(dir, QStringLiteral("rank1.pickle"), records.bytes()) }
        << QStringLiteral("item 1 of the top-level list is not a segment record") << 1 << QString() << dir;

    dir = folder();
    QTest::newRow("a log file") << QStringList { file(
        dir, QStringLiteral("rank1.log"), "2026-01-05 10:00:01 INFO step 10 loss 2.31 memory 41.2 GiB\n") }
                                << QStringLiteral("not a memory snapshot: the file starts with bytes") << 1 << QString()
                                << dir;

    // An empty snapshot loads, is said to be empty, and is compared with the rank that holds something.
    dir = folder();
    QTest::newRow("empty snapshot") << QStringList { file(
        dir, QStringLiteral("rank1.json"), R"({"segments": [], "device_traces": [[]]})") }
                                    << QStringLiteral("the snapshot is empty") << 2 << QString() << dir;

    dir = folder();
    const QString marker = dir + QStringLiteral("/executed");
    PickleWriter evil;
    evil.proto(2)
        .op('c')
        .raw("os\nsystem\n")
        .str(QByteArray("touch " + marker.toUtf8()).constData())
        .op(0x85)
        .op('R')
        .stop();
    QTest::newRow("pickle with GLOBAL/REDUCE")
        << QStringList { file(dir, QStringLiteral("rank1.pickle"), evil.bytes()) }
        << QStringLiteral("refused pickle opcode GLOBAL.*at byte") << 1 << marker << dir;

    dir = folder();
    PickleWriter huge;
    huge.proto(4).emptyDict().op(0x8d).le<uint64_t>(uint64_t(1) << 62).raw("abc");
    QTest::newRow("huge length field") << QStringList { file(dir, QStringLiteral("rank1.pickle"), huge.bytes()) }
                                       << QStringLiteral(".+") << 1 << QString() << dir;

    dir = folder();
    QByteArray deep("\x80\x04", 2);
    for (int i = 0; i < 200000; ++i)
        deep.append("](", 2);
    deep.append('.');
    QTest::newRow("deeply nested containers") << QStringList { file(dir, QStringLiteral("rank1.pickle"), deep) }
                                              << QStringLiteral(".+") << 1 << QString() << dir;

    dir = folder();
    QDir().mkpath(dir + QStringLiteral("/again"));
    QTest::newRow("two files claim the same rank")
        << QStringList { file(dir + QStringLiteral("/again"), QStringLiteral("rank0.pickle"), good) }
        << QStringLiteral("its name says rank 0, like rank0.pickle; compared as rank 1") << 2 << QString() << dir;

    // Real files from PyTorch 2.1 (no timestamps) and 2.2 next to a current one: they load and compare.
    dir = folder();
    QTest::newRow("ranks from different PyTorch versions") << QStringList {
        file(dir, QStringLiteral("rank1.pickle"), fileContents(source("tests/data/cranberrii_memory_snapshot.pickle"))),
        file(dir, QStringLiteral("rank2.pickle"), fileContents(source("tests/data/jasper_snapshot.pickle")))
    } << QString() << 3 << QString() << dir;

    // A rank whose memory sits on devices 0 to 3 of its node, next to one on device 0.
    dir = folder();
    QTest::newRow("files from different devices") << QStringList {
        file(dir, QStringLiteral("rank1.pickle"), fileContents(source("tests/data/sunny_dump_snapshot.pickle")))
    } << QString() << 2 << QString() << dir;
}

void TestBadInput::table()
{
    QFETCH(QStringList, files);
    QFETCH(QString, message);
    QFETCH(int, loaded);
    QFETCH(QString, marker);
    QFETCH(QString, folder);
    QStringList paths { folder + QStringLiteral("/rank0.pickle") };
    paths += files;
    const QByteArray before = digest(paths);

    // The loader: the bad file gets its message, the others load.
    const QList<LoadedFile> results = LoadedFile::loadAll(paths);
    QCOMPARE(results.size(), paths.size());
    QVERIFY(results[0].ok());
    int ok = 0;
    for (const LoadedFile& r : results)
        ok += r.ok();
    QCOMPARE(ok, loaded);
    if (!message.isEmpty()) {
        const QRegularExpression expected(message);
        bool seen = false;
        for (const LoadedFile& r : results.mid(1))
            seen = seen || expected.match(r.ok() ? r.notes() : r.error).hasMatch();
        QVERIFY2(seen, qPrintable(results.last().error + results.last().notes()));
    }
    std::vector<int> ranks;
    for (const LoadedFile& r : results)
        ranks.push_back(r.rank);
    std::sort(ranks.begin(), ranks.end());
    QVERIFY2(std::adjacent_find(ranks.begin(), ranks.end()) == ranks.end(), "every file has a rank of its own");

    // The window: it survives, shows the message in the bad row, and compares what loaded.
    MainWindow w;
    w.show();
    w.openPaths(paths);
    QTRY_VERIFY_WITH_TIMEOUT(w.comparison() && !w.isBusy(), 60000);
    QCOMPARE(w.rankModel()->loadedCount(), loaded);
    QCOMPARE(int(w.comparison()->ranks().size()), loaded);
    QVERIFY(w.timelines()->tracks().size() >= 1);
    // A directory is opened as a folder of snapshots (this one holds none), so only files have a row to show.
    if (!message.isEmpty() && loaded < paths.size() && !QFileInfo(files.front()).isDir()) {
        bool shown = false;
        for (int row = 0; row < w.rankModel()->rowCount(); ++row)
            shown = shown
                || QRegularExpression(message)
                       .match(w.rankModel()->index(row, RankListModel::FileColumn).data().toString())
                       .hasMatch();
        QVERIFY(shown);
    }

    // Nothing ran, nothing changed.
    if (!marker.isEmpty())
        QVERIFY(!QFile::exists(marker));
    QCOMPARE(digest(paths), before);
}

// Folders as a user opens them in the window: a project folder (its packages, virtual environment, build and hidden
// folders not searched, and said so), a folder of several jobs (refused with the jobs, nothing opened), a job whose
// every file is an empty snapshot (no verdict: nothing to compare). Nothing of theirs is changed.
void TestBadInput::folders()
{
    const QByteArray good = fileContents(source("resources/examples/rank1_memory_snapshot.pickle"));
    auto file = [&](const QString& path, const QByteArray& bytes) {
        QDir().mkpath(QFileInfo(path).path());
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(bytes);
        return path;
    };
    const QString project = m_dir.filePath(QStringLiteral("project"));
    QStringList written { file(project + QStringLiteral("/rank0.pickle"), good),
        file(project + QStringLiteral("/rank1.pickle"), good),
        file(project + QStringLiteral("/node_modules/pkg/package.json"), R"({"name": "pkg"})"),
        file(project + QStringLiteral("/.venv/pyvenv.cfg"), "home = /usr/bin\n"),
        file(project + QStringLiteral("/.venv/lib/fixture.pickle"), good),
        file(project + QStringLiteral("/venv/pyvenv.cfg"), "home = /usr/bin\n"),
        file(project + QStringLiteral("/venv/lib/python3.11/site-packages/x/data.json"), "[]"),
        file(project + QStringLiteral("/build/CMakeCache.txt"), ""),
        file(project + QStringLiteral("/build/tests/rank2.pickle"), good) };
    const QString jobs = m_dir.filePath(QStringLiteral("jobs"));
    for (const char* job : { "first", "second" }) {
        for (const char* rank : { "rank0", "rank1" })
            written << file(jobs + QStringLiteral("/%1/%2.pickle").arg(QLatin1String(job), QLatin1String(rank)), good);
    }
    const QString empty = m_dir.filePath(QStringLiteral("empty"));
    written << file(empty + QStringLiteral("/rank0.json"), "[]")
            << file(empty + QStringLiteral("/rank1.json"), R"({"segments": [], "device_traces": [[]]})");
    const QByteArray before = digest(written);

    MainWindow w;
    w.show();
    w.openPaths({ project });
    QTRY_VERIFY_WITH_TIMEOUT(w.comparison() && !w.isBusy(), 60000);
    QCOMPARE(w.rankModel()->rowCount(), 2);
    const QString said = w.statusBar()->currentMessage();
    for (const char* what : { "node_modules: not searched (installed packages", ".venv: not searched (hidden",
             "venv: not searched (Python virtual environments)", "build: not searched (build folders)" })
        QVERIFY2(said.contains(QLatin1String(what)), qPrintable(said));

    w.openPaths({ jobs });
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = w.findChild<QMessageBox*>()) != nullptr && box->isVisible());
    QVERIFY2(box->text().contains(QLatin1String("holds the snapshots of 2 jobs"))
            && box->text().contains(QLatin1String("first (2 files), second (2 files)")),
        qPrintable(box->text()));
    QCOMPARE(w.rankModel()->rowCount(), 2); // the job open before stays
    box->close();
    {
        // In Chinese the list's words too: each job's count of files, the separator, none of it left in English.
        const auto english = qScopeGuard([] { Appearance::setLanguage(QString()); });
        Appearance::setLanguage(QStringLiteral("zh_CN"));
        w.openPaths({ jobs });
        QTRY_VERIFY((box = w.findChild<QMessageBox*>()) != nullptr && box->isVisible());
        QVERIFY2(box->text().contains(QStringLiteral("first（2 个文件）、second（2 个文件）"))
                && !box->text().contains(QLatin1String("files")),
            qPrintable(box->text()));
        box->close();
    }

    w.openPaths({ empty });
    QTRY_VERIFY_WITH_TIMEOUT(w.rankModel()->loadedCount() == 2 && !w.isBusy(), 60000);
    QVERIFY(!w.comparison());
    QVERIFY(w.banner()->isVisible());
    QVERIFY2(w.banner()->text().contains(QLatin1String("nothing to compare: each of the 2 files is an empty snapshot")),
        qPrintable(w.banner()->text()));
    QCOMPARE(digest(written), before);
}

// A rank still writing its snapshot (or a copy still in progress): the file changes under the reader.
void TestBadInput::fileChangesWhileLoading()
{
    const QString path = m_dir.filePath(QStringLiteral("growing.pickle"));
    QVERIFY(QFile::copy(source("tests/data/cranberrii_memory_snapshot.pickle"), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    bool changed = false;
    const LoadedFile file = LoadedFile::load(path, 0, false, [&](uint64_t, uint64_t) {
        if (!changed) {
            QFile f(path);
            f.open(QIODevice::Append);
            f.write(QByteArray(1000, 'x'));
            changed = true;
        }
        return true;
    });
    QVERIFY(changed);
    QVERIFY(!file.ok());
    QVERIFY2(file.error.contains(QLatin1String("the file changed while it was read")), qPrintable(file.error));
}

// Cut short behind the parse (mapped, where the platform maps files, its pages past the new end read as zeros): the
// change is what is reported, and the process goes on.
void TestBadInput::fileCutWhileLoading()
{
    const QString path = m_dir.filePath(QStringLiteral("cut.pickle"));
    QVERIFY(QFile::copy(source("tests/data/cranberrii_memory_snapshot.pickle"), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    const qint64 size = QFileInfo(path).size();
    QVERIFY(size > 2 << 20); // the first report comes a megabyte in
    bool cut = false;
    const LoadedFile file = LoadedFile::load(path, 0, false, [&](uint64_t, uint64_t) {
        if (!cut) {
            QFile f(path);
            cut = f.open(QIODevice::ReadWrite) && f.resize(size / 3);
        }
        return true;
    });
    QVERIFY(cut);
    QVERIFY(!file.ok());
    QVERIFY2(file.error.contains(QLatin1String("the file changed while it was read")), qPrintable(file.error));
    QVERIFY2(file.error.contains(QString::number(size / 3)), qPrintable(file.error));
}

RANKSCOPE_TEST_CLASS(TestBadInput)
#include "tst_badinput.moc"
