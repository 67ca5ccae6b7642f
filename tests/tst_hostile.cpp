// SPDX-License-Identifier: MIT
// Hostile and broken input: every case must end in a clear ReadError — no crash, hang, unbounded allocation, and
// never anything executed.
#include "testprogram.h"
#include "testutils.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <fstream>

using namespace RankScope;
using namespace TestUtils;

namespace {

// Peak resident memory of this process so far, from /proc (kB).
long peakRssKb()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stol(line.substr(6));
    }
    return 0;
}

} // namespace

class TestHostile : public QObject
{
    Q_OBJECT
private slots:
    void codeExecutionIsRefused_data();
    void codeExecutionIsRefused();
    void refusedOpcodesAreNamed_data();
    void refusedOpcodesAreNamed();
    void everyTruncation_data();
    void everyTruncation();
    void memoIndexOutOfRange();
    void deepNesting();
    void hugeLengthFields_data();
    void hugeLengthFields();
    void notSnapshots_data();
    void notSnapshots();
    void brokenGzipAndJson();
    void userFileIsNotModified();

private:
    QTemporaryDir m_dir;
};

void TestHostile::codeExecutionIsRefused_data()
{
    QTest::addColumn<QByteArray>("pickle");
    QTest::addColumn<QString>("opcode");
    QTest::addColumn<QString>("marker");
    // What `pickle.dumps(Evil())` gives for a class whose __reduce__ returns (os.system, ("touch MARKER",)).
    const QString marker = m_dir.filePath(QStringLiteral("executed"));
    const QByteArray command = "touch " + marker.toUtf8();
    PickleWriter global;
    global.proto(2).op('c').raw("os\nsystem\n").str(command.constData()).op(0x85).op('R').stop();
    QTest::newRow("GLOBAL+REDUCE") << global.bytes() << QStringLiteral("GLOBAL") << marker;
    PickleWriter stackGlobal;
    stackGlobal.proto(4).str("os").str("system").op(0x93).str(command.constData()).op(0x85).op('R').stop();
    QTest::newRow("STACK_GLOBAL+REDUCE") << stackGlobal.bytes() << QStringLiteral("STACK_GLOBAL") << marker;
    PickleWriter inst;
    inst.proto(2).mark().str(command.constData()).op('i').raw("os\nsystem\n").stop();
    QTest::newRow("INST") << inst.bytes() << QStringLiteral("INST") << marker;
}

void TestHostile::codeExecutionIsRefused()
{
    QFETCH(QByteArray, pickle);
    QFETCH(QString, opcode);
    QFETCH(QString, marker);
    const QString error = readError(writeFile(m_dir, QStringLiteral("evil.pickle"), pickle));
    QVERIFY2(error.contains(QLatin1String("refused pickle opcode ") + opcode), qPrintable(error));
    QVERIFY2(error.contains(QLatin1String(" at byte ")), qPrintable(error));
    QVERIFY2(!QFile::exists(marker), "the command in the pickle ran");
}

void TestHostile::refusedOpcodesAreNamed_data()
{
    QTest::addColumn<int>("opcode");
    QTest::addColumn<QString>("name");
    const std::pair<int, const char*> ops[] = { { 'c', "GLOBAL" }, { 0x93, "STACK_GLOBAL" }, { 'R', "REDUCE" },
        { 'b', "BUILD" }, { 'i', "INST" }, { 'o', "OBJ" }, { 0x81, "NEWOBJ" }, { 0x92, "NEWOBJ_EX" }, { 'P', "PERSID" },
        { 'Q', "BINPERSID" }, { 0x82, "EXT1" }, { 0x83, "EXT2" }, { 0x84, "EXT4" } };
    for (auto [op, name] : ops)
        QTest::newRow(name) << op << QString::fromLatin1(name);
    QTest::newRow("unknown 0xff") << 0xff << QStringLiteral("unknown pickle opcode 0xff");
}

void TestHostile::refusedOpcodesAreNamed()
{
    QFETCH(int, opcode);
    QFETCH(QString, name);
    PickleWriter w;
    w.proto(4).emptyDict().op(uint8_t(opcode)).raw(QByteArray(16, '\0')).stop();
    const QString error = readError(writeFile(m_dir, QStringLiteral("op.pickle"), w.bytes()));
    QVERIFY2(error.contains(name), qPrintable(error));
    QVERIFY2(error.endsWith(QLatin1String("at byte 3")), qPrintable(error));
}

void TestHostile::everyTruncation_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("jog") << QStringLiteral("jog_my_snapshot.pickle");
    QTest::newRow("magma27") << QStringLiteral("magma27_memory_snapshot.pickle");
}

void TestHostile::everyTruncation()
{
    QFETCH(QString, name);
    QFile f(dataDir() + QLatin1Char('/') + name);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray whole = f.readAll();
    // Every prefix is the pickle fuzzer's work (tests/fuzz); here about 400 cuts spread over the file, from memory,
    // plus the first and last bytes where the header and STOP are, each read as a file would be. Under
    // AddressSanitizer half as many: each cut is read twice (readError), and 400 took 16 s of that stage.
    const qsizetype cutsSpread = TestUtils::sanitized ? 200 : 400;
    const qsizetype step = std::max<qsizetype>(97, whole.size() / cutsSpread) | 1;
    QList<qsizetype> cuts;
    for (qsizetype size = 0; size < whole.size(); size += step)
        cuts.append(size);
    for (qsizetype size = 1; size < 16 && size < whole.size(); ++size)
        cuts.append(size);
    for (qsizetype size = std::max<qsizetype>(1, whole.size() - 16); size < whole.size(); ++size)
        cuts.append(size);
    for (qsizetype size : cuts) {
        const QString error = readError(whole.left(size));
        QVERIFY2(!error.isEmpty(), qPrintable(QStringLiteral("truncated at %1 loaded").arg(size)));
        if (size > 0)
            QVERIFY2(
                error.contains(QLatin1String("truncated")) || error.contains(QLatin1String("ends")), qPrintable(error));
    }
    QVERIFY(cuts.size() > 100);
}

void TestHostile::memoIndexOutOfRange()
{
    PickleWriter get;
    get.proto(4).emptyDict().op('h').op(5).stop();
    QVERIFY(readError(writeFile(m_dir, QStringLiteral("m1.pickle"), get.bytes()))
                .contains(QLatin1String("memo index 5 was never stored")));
    PickleWriter longGet;
    longGet.proto(4).emptyDict().op('j').le<uint32_t>(0xfffffff0u).stop();
    QVERIFY(readError(writeFile(m_dir, QStringLiteral("m2.pickle"), longGet.bytes()))
                .contains(QLatin1String("was never stored")));
    // A far-off LONG_BINPUT must not allocate a memo of that size.
    const long before = peakRssKb();
    PickleWriter put;
    put.proto(4).emptyDict().op('r').le<uint32_t>(0xfffffff0u).op('h').op(1).stop();
    QVERIFY(!readError(writeFile(m_dir, QStringLiteral("m3.pickle"), put.bytes())).isEmpty());
    QVERIFY(peakRssKb() - before < 64 * 1024);
}

void TestHostile::deepNesting()
{
    QByteArray bytes("\x80\x04", 2);
    for (int i = 0; i < 1000000; ++i)
        bytes.append("](", 2); // EMPTY_LIST, MARK
    bytes.append('.');
    QElapsedTimer timer;
    timer.start();
    const QString error = readError(writeFile(m_dir, QStringLiteral("deep.pickle"), bytes));
    QVERIFY2(!error.isEmpty(), "a million nested lists loaded as a snapshot");
    QVERIFY2(timer.elapsed() < 20000, "nesting took too long");

    // The same depth through the DICT/LIST opcodes, whose children are typed only when placed.
    QByteArray generic("\x80\x02", 2);
    for (int i = 0; i < 100000; ++i)
        generic.append('(');
    for (int i = 0; i < 100000; ++i)
        generic.append('l');
    generic.append('.');
    QVERIFY(!readError(writeFile(m_dir, QStringLiteral("deep2.pickle"), generic)).isEmpty());
}

void TestHostile::hugeLengthFields_data()
{
    QTest::addColumn<QByteArray>("pickle");
    auto make = [](uint8_t op, int width, uint64_t length) {
        PickleWriter w;
        w.proto(4).emptyDict().op(op);
        if (width == 4)
            w.le<uint32_t>(uint32_t(length));
        else
            w.le<uint64_t>(length);
        return w.raw("abc").bytes();
    };
    QTest::newRow("BINUNICODE 4 GiB") << make('X', 4, 0xffffffffu);
    QTest::newRow("BINUNICODE8 4 GiB") << make(0x8d, 8, uint64_t(1) << 32);
    QTest::newRow("BINUNICODE8 2^63") << make(0x8d, 8, uint64_t(1) << 63);
    QTest::newRow("BINBYTES 4 GiB") << make('B', 4, 0xffffffffu);
    QTest::newRow("BYTEARRAY8 4 GiB") << make(0x96, 8, uint64_t(1) << 32);
    QTest::newRow("BINBYTES8 16 EiB") << make(0x8e, 8, ~uint64_t(0));
    QTest::newRow("LONG4 2 GiB") << make(0x8b, 4, 0x7fffffffu);
    QTest::newRow("FRAME 4 GiB") << make(0x95, 8, uint64_t(1) << 32); // framing is ignored; then truncated
}

void TestHostile::hugeLengthFields()
{
    QFETCH(QByteArray, pickle);
    const long before = peakRssKb();
    const QString error = readError(writeFile(m_dir, QStringLiteral("huge.pickle"), pickle));
    QVERIFY2(!error.isEmpty(), "loaded");
    QVERIFY2(peakRssKb() - before < 64 * 1024, "allocated for a length field");
}

void TestHostile::notSnapshots_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero bytes") << QByteArray() << QStringLiteral("the file is empty");
    QTest::newRow("PNG renamed .pickle") << QByteArray::fromHex("89504e470d0a1a0a0000000d49484452")
                                         << QStringLiteral("PNG image");
    QTest::newRow("torch.save zip") << QByteArray("PK\x03\x04rest", 8) << QStringLiteral("zip archive");
    PickleWriter ints;
    ints.proto(4).emptyList().mark().integer(1).integer(2).integer(3).appends().stop();
    QTest::newRow("list of ints") << ints.bytes() << QStringLiteral("expected a segment dict");
    PickleWriter noSegments;
    noSegments.proto(4).emptyDict().keyStr("a", "b").op('s').stop();
    QTest::newRow("dict without segments") << noSegments.bytes() << QStringLiteral("no 'segments' key");
    PickleWriter scalar;
    scalar.proto(4).integer(42).stop();
    QTest::newRow("an int") << scalar.bytes() << QStringLiteral("top-level object is an int");
    PickleWriter protocol6;
    protocol6.proto(6).emptyDict().stop();
    QTest::newRow("protocol 6") << protocol6.bytes() << QStringLiteral("protocol 6 is not supported");
    QTest::newRow("text") << QByteArray("hello world") << QStringLiteral("starts with bytes 68 65 6c");
    PickleWriter wrongType;
    wrongType.proto(4).emptyDict().str("segments").emptyList().emptyDict().str("total_size").str("big");
    wrongType.op('s').op('a').op('s').stop();
    QTest::newRow("string size") << wrongType.bytes() << QStringLiteral("'total_size' should be an int");
}

void TestHostile::notSnapshots()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const QString error = readError(writeFile(m_dir, QStringLiteral("x.pickle"), bytes));
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestHostile::brokenGzipAndJson()
{
    QFile f(dataDir() + QStringLiteral("/jog_my_snapshot.pickle"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray pickle = f.readAll();
    // A gzip member built from zlib's raw deflate output: header, data, CRC and size trailer.
    QByteArray zlib = qCompress(pickle, 9).mid(4); // strip Qt's 4-byte length: a zlib stream remains
    QByteArray deflate = zlib.mid(2, zlib.size() - 6);
    QByteArray gz = QByteArray::fromHex("1f8b0800000000000003") + deflate;
    const QString truncated = readError(writeFile(m_dir, QStringLiteral("t.pickle.gz"), gz.left(gz.size() / 2)));
    QVERIFY2(truncated.contains(QLatin1String("gzip data is truncated")) || truncated.contains(QLatin1String("ends")),
        qPrintable(truncated));
    QByteArray corrupt = QByteArray::fromHex("1f8b0800000000000003") + QByteArray(64, '\xff');
    QVERIFY(readError(writeFile(m_dir, QStringLiteral("c.gz"), corrupt)).contains(QLatin1String("gzip")));

    QVERIFY(readError(writeFile(m_dir, QStringLiteral("a.json"), "{\"segments\": [")).contains(QLatin1String("JSON")));
    QVERIFY(readError(writeFile(m_dir, QStringLiteral("b.json"), "[1, 2, 3]")).contains(QLatin1String("segment")));
    QVERIFY(readError(writeFile(m_dir, QStringLiteral("c.json"), "{\"segments\": 5}")).contains(QLatin1String("list")));
    QString deep(100000, QLatin1Char('['));
    QVERIFY(readError(writeFile(m_dir, QStringLiteral("d.json"), deep.toUtf8())).contains(QLatin1String("deeply")));
}

void TestHostile::userFileIsNotModified()
{
    const QString source = dataDir() + QStringLiteral("/jasper_snapshot.pickle");
    QFile f(source);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray before = f.readAll();
    const QDateTime modified = QFileInfo(source).lastModified();
    f.close();
    QVERIFY(readError(source).isEmpty());
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
    QCOMPARE(QFileInfo(source).lastModified(), modified);
}

RANKSCOPE_TEST_CLASS(TestHostile)
#include "tst_hostile.moc"
