// SPDX-License-Identifier: MIT
#include "snapshotreader.h"

#include "inputstream.h"
#include "jsonreader.h"
#include "picklereader.h"
#include "picklesplit.h"
#include "platform.h"
#include "snapshotbuilder.h"

#include <QBuffer>
#include <QFile>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace RankScope {

namespace {

std::string describeUnknown(const uint8_t* p, size_t n)
{
    auto starts = [&](const char* magic) {
        const size_t len = std::strlen(magic);
        return n >= len && std::memcmp(p, magic, len) == 0;
    };
    if (starts("\x89PNG"))
        return "this is a PNG image, not a memory snapshot";
    if (starts("PK\x03\x04"))
        return "this is a zip archive (as torch.save writes), not a memory snapshot from "
               "torch.cuda.memory._dump_snapshot()";
    if (starts("<"))
        return "this looks like HTML or XML, not a memory snapshot (an HTML page from _memory_viz embeds its "
               "snapshot; use the pickle instead)";
    std::string hex;
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < std::min<size_t>(n, 8); ++i) {
        hex += digits[p[i] >> 4];
        hex += digits[p[i] & 15];
        hex += ' ';
    }
    hex.pop_back();
    return "not a memory snapshot: the file starts with bytes " + hex
        + ", which is neither a pickle (protocol 2 to 5), JSON nor gzip";
}

std::atomic<int> readsNow { 0 };

// When other files are being read at the same time (a job's ranks), their own threads already keep the cores busy,
// and a second thread for part of one file would only take time from them. With one core, any read keeps it busy.
bool coresBusy(unsigned cores)
{
    return unsigned(readsNow.load(std::memory_order_relaxed)) * 2 > cores;
}

// Where a second thread takes over part of a pickle, as a fraction of its size; 0 for no split. A file smaller than
// a few chunks gains less than the thread and the walk cost.
struct SplitPlan
{
    double at = 0; ///< 0: no split
    bool balance = true; ///< at the first point past `at` where the reader is as far from it as it is from the end
    unsigned cores = 1; ///< the process's
    bool trace = false; ///< each step on stderr
};

SplitPlan splitPlan(uint64_t size)
{
    SplitPlan plan { 0.5, true, 1 };
    uint64_t minBytes = uint64_t(64) << 20;
    bool forced = false;
    if (const char* env = std::getenv("RANKSCOPE_SPLIT")) {
        const std::string_view text(env);
        if (text == "off")
            return {};
        if (const size_t i = text.find("at="); i != std::string_view::npos) {
            plan.at = std::atof(env + i + 3);
            plan.balance = false;
        }
        if (const size_t i = text.find("min="); i != std::string_view::npos)
            minBytes = uint64_t(std::atoll(env + i + 4));
        // "trace" alone keeps the split as it would be.
        forced = !plan.balance || text.find("min=") != std::string_view::npos;
        plan.trace = text.find("trace") != std::string_view::npos;
    }
    if (size < minBytes || plan.at <= 0 || plan.at >= 1)
        return {};
    plan.cores = Platform::usableCores();
    if (!forced && coresBusy(plan.cores))
        return {};
    return plan;
}

struct ReadCount
{
    ReadCount()
    {
        ++readsNow;
    }
    ~ReadCount()
    {
        --readsNow;
    }
    ReadCount(const ReadCount&) = delete;
    ReadCount& operator=(const ReadCount&) = delete;
};

} // namespace

SnapshotReader::Result SnapshotReader::read(const QString& path, const ProgressCallback& progress)
{
    InputStream in(path, progress);
    if (const HeldBytes held = in.held(); held.owner)
        return read(in, [held] { return std::make_unique<InputStream>(held); });
    return read(in, [path] { return std::make_unique<InputStream>(path, ProgressCallback {}, false); });
}

SnapshotReader::Result SnapshotReader::read(QIODevice* device, const ProgressCallback& progress)
{
    InputStream in(device, progress);
    // A buffer read from its start can be read again by the split's thread (the fuzzers and tests feed them).
    const auto* buffer = qobject_cast<const QBuffer*>(device);
    if (!buffer || buffer->pos() != 0)
        return read(in, {});
    const QByteArray data = buffer->data();
    return read(in, [data] {
        auto copy = std::make_unique<QBuffer>();
        copy->setData(data);
        copy->open(QIODevice::ReadOnly);
        return std::make_unique<InputStream>(std::move(copy));
    });
}

SnapshotReader::Result SnapshotReader::readBytes(const QByteArray& bytes, const ProgressCallback& progress)
{
    const auto data = std::make_shared<const QByteArray>(bytes);
    const HeldBytes held { data, reinterpret_cast<const uint8_t*>(data->constData()), uint64_t(data->size()) };
    InputStream in(held, progress);
    return read(in, [held] { return std::make_unique<InputStream>(held); });
}

SnapshotReader::Result SnapshotReader::read(
    InputStream& in, const std::function<std::unique_ptr<InputStream>()>& reopen)
{
    const ReadCount counted;
    Result result;
    result.gzip = in.isGzip();
    if (!in.refill(1))
        throw ReadError(result.gzip ? "the gzip file holds no data" : "the file is empty");
    in.refill(16); // enough to recognise the format, if the file has that much
    const uint8_t* p = in.cur;
    const size_t n = size_t(in.end - in.cur);
    size_t firstText = 0;
    if (n >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        firstText = 3; // UTF-8 byte order mark before JSON
    while (firstText < n && std::strchr(" \t\r\n", p[firstText]) && p[firstText])
        ++firstText;

    // A file cut short under its mapping reads as zeros past its new end, which no format goes on with: what the
    // parse then finds wrong is the change, as when a file read in chunks ends early.
    const auto parse = [&in](auto&& run) {
        try {
            run();
        } catch (const ReadError&) {
            in.checkUnchanged();
            throw;
        }
    };
    SnapshotBuilder builder;
    // A pickled trace entry takes at least ~20 bytes (a dict with action, addr, size and stream); gzip shrinks
    // snapshots about tenfold. JSON entries are larger still, so the same bound holds.
    builder.setEntryCapacityHint((in.isGzip() ? in.fileSize() * 12 : in.fileSize()) / 16);
    // Pickles start with PROTO; protocol 2+ files without it start with a container opcode.
    if (p[0] == 0x80 || p[0] == '}' || p[0] == ']' || p[0] == '(') {
        result.format = Format::Pickle;
        PickleReader reader(in, builder);
        std::unique_ptr<PickleSplit> split;
        if (const SplitPlan plan = reopen && !in.isGzip() ? splitPlan(in.fileSize()) : SplitPlan {}; plan.at > 0) {
            split = std::make_unique<PickleSplit>(
                reopen, in.fileSize(), uint64_t(double(in.fileSize()) * plan.at), plan.balance,
                [cores = plan.cores] { return coresBusy(cores); }, plan.trace);
            reader.setSplit(split.get());
        }
        parse([&reader] { reader.run(); });
        split.reset();
        std::tie(result.partStart, result.partEnd) = reader.partTaken();
    } else if (firstText < n && (p[firstText] == '{' || p[firstText] == '[')) {
        result.format = Format::Json;
        parse([&in, &builder] { JsonReader(in, builder).run(); });
    } else {
        throw ReadError(describeUnknown(p, n));
    }
    in.checkUnchanged();
    in.stopReadingAhead(); // before the builder gives back the pages faulted in past its arrays' ends
    try {
        result.snapshot = builder.finish();
    } catch (const SchemaError& e) {
        throw ReadError(e.what());
    }
    return result;
}

} // namespace RankScope
