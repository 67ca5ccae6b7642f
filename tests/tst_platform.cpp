// SPDX-License-Identifier: MIT
// The platform layer (models/platform) as the core uses it: big blocks whose pages are faulted in ahead and given
// back where the platform can (Linux) and left alone where it cannot (the portable fallback), never a byte changed
// either way; file sizes in 64 bits; and the cores the process may use. Run with the Linux file in the ci preset and
// with the fallback in the portable preset.
#include "bigallocator.h"
#include "inputstream.h"
#include "pageahead.h"
#include "platform.h"
#include "readerror.h"
#include "testprogram.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <vector>

#ifdef RANKSCOPE_PLATFORM_LINUX
#include <cerrno>

#include <sched.h> // the affinity the cores' count follows
#include <sys/mman.h> // mincore: which pages are resident
#endif

#include <thread>

using namespace RankScope;

class TestPlatform : public QObject
{
    Q_OBJECT
private slots:
    void pagesFaultedAhead();
    void noByteChanges();
    void zeroedBlocks();
    void hugePagesWhereAsked();
    void fileSizesIn64Bits();
    void mappedFileCutShort();
    void usableCores();
};

// The reading thread faults in the pages a parse is about to fill; it must touch nothing else, and no byte.
void TestPlatform::pagesFaultedAhead()
{
#ifndef RANKSCOPE_PLATFORM_LINUX
    QSKIP("only the Linux platform file faults pages in ahead");
#else
    const size_t mb = size_t(1) << 20;
    auto resident = [](const uint8_t* p, size_t bytes) {
        std::vector<unsigned char> pages((bytes + 4095) / 4096);
        if (mincore(const_cast<uint8_t*>(p), bytes, pages.data()) != 0)
            return size_t(0);
        return size_t(std::count_if(pages.begin(), pages.end(), [](unsigned char c) { return c & 1; })) * 4096;
    };
    auto* block = static_cast<uint8_t*>(BigBlocks::allocate(64 * mb));
    block[0] = 7;
    QVERIFY(resident(block + 32 * mb, 32 * mb) == 0);
    PageAhead pages;
    // An array that holds a byte gets a little ahead, not the whole distance: most stay small. The block's first
    // 2 MB are never a huge page, so nothing rounds that up.
    pages.publish(PageAhead::Memo, block, 1, 64 * mb);
    pages.run(16 * mb);
    QVERIFY(resident(block, 256 * 1024) == 256 * 1024);
    QCOMPARE(resident(block + mb, 63 * mb), size_t(0));
    // Once it holds more, as far ahead as it reaches, up to the distance.
    pages.publish(PageAhead::Memo, block, 8 * mb, 64 * mb);
    pages.run(16 * mb);
    QVERIFY(resident(block + 8 * mb, 8 * mb) == 8 * mb);
    QVERIFY(resident(block + 20 * mb, 44 * mb) < 4 * mb); // a huge page may round up; nothing far past
    QCOMPARE(block[0], uint8_t(7));
    QVERIFY(std::all_of(block + 1, block + 16 * mb, [](uint8_t b) { return b == 0; }));
    // Near the input's end, no further than the array's share of what remains: 24 MB for 24 MB read, 3 MB left.
    pages.input(24 * mb, 3 * mb);
    pages.publish(PageAhead::Memo, block, 24 * mb, 64 * mb);
    pages.run(16 * mb);
    QVERIFY(resident(block + 24 * mb, 3 * mb) == 3 * mb);
    QCOMPARE(resident(block + 30 * mb, 26 * mb), size_t(0));
    pages.input(0, 0);
    // Filled further: the next stretch, and never past the capacity.
    pages.publish(PageAhead::Memo, block, 56 * mb, 64 * mb);
    pages.run(16 * mb);
    QVERIFY(resident(block + 56 * mb, 8 * mb) == 8 * mb);
    // What was faulted in past an array's end is given back when the parse is done with it.
    BigBlocks::trim(block + 20 * mb + 1, block + 64 * mb);
    QVERIFY(resident(block + 20 * mb + 4096, 44 * mb - 4096) == 0);
    QVERIFY(resident(block + 8 * mb, 8 * mb) == 8 * mb);
    QCOMPARE(block[0], uint8_t(7));
    // Freed: a stale view of the array touches nothing (the range is not mapped again).
    BigBlocks::deallocate(block, 64 * mb);
    pages.publish(PageAhead::Trace, block, 0, 64 * mb);
    pages.run(16 * mb);
    std::vector<unsigned char> probe(1);
    QVERIFY(mincore(block, 4096, probe.data()) != 0 && errno == ENOMEM);
#endif
}

// Whatever the platform does ahead of the writer, the arrays hold what the writer wrote: pages faulted in, given
// back past an array's end, or (the fallback) neither.
void TestPlatform::noByteChanges()
{
    const size_t mb = size_t(1) << 20;
    auto* block = static_cast<uint8_t*>(BigBlocks::allocate(64 * mb));
    const size_t page = Platform::pageBytes();
    QVERIFY(page >= 4096 && (page & (page - 1)) == 0);
    QCOMPARE(uintptr_t(block) % page, uintptr_t(0));
    auto expected = [](size_t i) { return uint8_t(i / 4096 * 7 + 1); };
    for (size_t i = 0; i < 24 * mb; i += 4096)
        block[i] = expected(i);
    auto intact = [&] {
        for (size_t i = 0; i < 24 * mb; i += 4096) {
            if (block[i] != expected(i))
                return false;
        }
        return true;
    };

    PageAhead pages;
    pages.publish(PageAhead::Memo, block, 20 * mb, 64 * mb);
    pages.run(16 * mb);
    {
        const PagesInBackground background({ { block, 64 * mb } });
    }
    QVERIFY(intact());
#ifdef RANKSCOPE_PLATFORM_LINUX
    QVERIFY(BigBlocks::populate(block, block + mb));
#else
    QVERIFY(!BigBlocks::populate(block, block + mb));
#endif
    // Given back: only past the array's end; what it holds stays.
    BigBlocks::trim(block + 24 * mb, block + 64 * mb);
    QVERIFY(intact());
    block[63 * mb] = 5;
    QCOMPARE(block[63 * mb], uint8_t(5));
    BigBlocks::deallocate(block, 64 * mb);

    // Below the size of a block of its own: ordinary heap memory, which nothing faults in or gives back.
    auto* small = static_cast<uint8_t*>(BigBlocks::allocate(4096));
    std::fill(small, small + 4096, uint8_t(9));
    BigBlocks::trim(small, small + 4096);
    QVERIFY(std::all_of(small, small + 4096, [](uint8_t b) { return b == 9; }));
    BigBlocks::deallocate(small, 4096);
}

// The memo skips writing zeros to a block of pages of its own (PickleReader::MemoSlots): it must read 0 on every
// platform, the portable fallback and the sanitizers' too, and no smaller block may claim to be one.
void TestPlatform::zeroedBlocks()
{
    const size_t mb = size_t(1) << 20;
    QVERIFY(!BigBlocks::ownPages(100));
    QVERIFY(!BigBlocks::ownPages(3 * mb));
    for (const size_t bytes : { size_t(4) * mb, size_t(64) * mb + 4096 }) {
        QVERIFY(BigBlocks::ownPages(bytes));
        for (int round = 0; round < 2; ++round) {
            auto* block = static_cast<uint8_t*>(BigBlocks::allocate(bytes));
            // A byte a page: touching each would cost the block's memory.
            for (size_t i = 0; i < bytes; i += 4096)
                QCOMPARE(block[i], uint8_t(0));
            QCOMPARE(block[bytes - 1], uint8_t(0));
            // Dirtied and freed: the next round must not see it again.
            std::fill(block, block + 8 * mb / 2, uint8_t(0xa5));
            BigBlocks::deallocate(block, bytes);
        }
    }
}

// Huge pages cost more to fault in than they save where an array is filled and read in order (the parse's), and save
// more where it is read at scattered places (a hash table): each asks for its own (BigBlocks::Pages).
void TestPlatform::hugePagesWhereAsked()
{
#ifndef RANKSCOPE_PLATFORM_LINUX
    QSKIP("only the Linux platform file asks for huge pages");
#else
    if (!QFile::exists(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled")))
        QSKIP("this kernel has no transparent huge pages");
    // The kernel's flags of the mapping that holds p: "hg" where huge pages were asked for (MADV_HUGEPAGE).
    auto flagsAt = [](const void* p) {
        QFile smaps(QStringLiteral("/proc/self/smaps"));
        if (!smaps.open(QIODevice::ReadOnly))
            return QString();
        const auto at = reinterpret_cast<uintptr_t>(p);
        bool inside = false;
        for (const QByteArray& line : smaps.readAll().split('\n')) {
            // A mapping's first line starts with its range, "from-to"; its fields follow, one "Name: value" a line.
            const QByteArray range = line.left(line.indexOf(' '));
            const int dash = range.indexOf('-');
            bool isFrom = false;
            bool isTo = false;
            const uintptr_t from = range.left(dash).toULongLong(&isFrom, 16);
            const uintptr_t to = range.mid(dash + 1).toULongLong(&isTo, 16);
            if (dash > 0 && isFrom && isTo) {
                inside = at >= from && at < to;
            } else if (inside && line.startsWith("VmFlags:")) {
                return QString::fromLatin1(line.mid(8)).simplified();
            }
        }
        return QString();
    };
    const size_t mb = size_t(1) << 20;
    // Reserved, not filled: the flags are the mapping's, whether or not a page was touched.
    const size_t count = 64 * mb / sizeof(uint64_t);
    BigVector<uint64_t> inOrder;
    inOrder.reserve(count);
    HugePageVector<uint64_t> scattered;
    scattered.reserve(count);
    const QStringList inOrderFlags = flagsAt(inOrder.data() + count / 2).split(QLatin1Char(' '));
    const QStringList scatteredFlags = flagsAt(scattered.data() + count / 2).split(QLatin1Char(' '));
    QVERIFY2(inOrderFlags.contains(QLatin1String("rd")), qPrintable(inOrderFlags.join(QLatin1Char(' '))));
    QVERIFY2(!inOrderFlags.contains(QLatin1String("hg")), qPrintable(inOrderFlags.join(QLatin1Char(' '))));
    QVERIFY2(scatteredFlags.contains(QLatin1String("hg")), qPrintable(scatteredFlags.join(QLatin1Char(' '))));
    // Not the first 2 MB of a block: most blocks stay small.
    QVERIFY(!flagsAt(scattered.data()).split(QLatin1Char(' ')).contains(QLatin1String("hg")));
#endif
}

void TestPlatform::fileSizesIn64Bits()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.pickle"));
    const uint64_t size = (uint64_t(5) << 30) + 123;
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY2(f.resize(qint64(size)), qPrintable(f.errorString()));
    }
    InputStream in(path);
    QCOMPARE(in.fileSize(), size);
    in.checkUnchanged();
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(Platform::fileSize(f.handle(), path), std::optional(size));
    }
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        QCOMPARE(f.write("x", 1), qint64(1));
    }
    try {
        in.checkUnchanged();
        QFAIL("a file that grew while it was read went unnoticed");
    } catch (const ReadError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("changed while it was read")), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).contains(QString::number(size + 1)), e.what());
    }
}

// A snapshot still being written, or a copy still in progress, may be cut short while it is mapped: reading past its
// new end must give zeros and say so, where it would otherwise stop the process with SIGBUS.
void TestPlatform::mappedFileCutShort()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cut.pickle"));
    const size_t page = Platform::pageBytes();
    const size_t bytes = 4 * page;
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(QByteArray(qsizetype(bytes), 'x')), qint64(bytes));
    }
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
#ifdef RANKSCOPE_PLATFORM_LINUX
    const auto* whole = static_cast<const volatile char*>(Platform::mapFile(f.handle(), bytes));
    const auto* cut = static_cast<const volatile char*>(Platform::mapFile(f.handle(), bytes));
    QVERIFY(whole && cut);
    QCOMPARE(cut[3 * page], 'x');
    QVERIFY(f.resize(qint64(page + 10)));
    QCOMPARE(cut[page + 9], 'x');
    QCOMPARE(cut[page + 10], '\0'); // the rest of the file's last page, as the system gives it
    QVERIFY(!Platform::mappingCut(const_cast<const char*>(cut)));
    QCOMPARE(cut[2 * page + 1], '\0'); // past it: SIGBUS, answered with zeros
    QCOMPARE(cut[3 * page], '\0');
    QVERIFY(Platform::mappingCut(const_cast<const char*>(cut)));
    QVERIFY(!Platform::mappingCut(const_cast<const char*>(whole))); // nothing read past the end there
    Platform::unmapFile(const_cast<const char*>(cut), bytes);
    Platform::unmapFile(const_cast<const char*>(whole), bytes);
#else
    QVERIFY(!Platform::mapFile(f.handle(), bytes)); // read into chunks instead
#endif
}

// A process kept to one core (`taskset -c 0`, a batch system's allotment) must not count the machine's: a second
// thread parsing part of a file would then only take turns with the first.
void TestPlatform::usableCores()
{
    const unsigned cores = Platform::usableCores();
    QVERIFY(cores >= 1);
    QVERIFY(cores <= std::max(1u, std::thread::hardware_concurrency()));
#ifdef RANKSCOPE_PLATFORM_LINUX
    cpu_set_t all;
    QCOMPARE(sched_getaffinity(0, sizeof all, &all), 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &all)) {
            CPU_SET(cpu, &one);
            break;
        }
    }
    QCOMPARE(sched_setaffinity(0, sizeof one, &one), 0);
    const unsigned pinned = Platform::usableCores();
    QCOMPARE(sched_setaffinity(0, sizeof all, &all), 0);
    QCOMPARE(pinned, 1u);
    QCOMPARE(Platform::usableCores(), cores);
#endif
}

RANKSCOPE_TEST_CLASS(TestPlatform)
#include "tst_platform.moc"
