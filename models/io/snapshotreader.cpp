// SPDX-License-Identifier: MIT
#include "snapshotreader.h"

#include "inputstream.h"
#include "jsonreader.h"
#include "picklereader.h"
#include "snapshotbuilder.h"

#include <cstring>

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

} // namespace

SnapshotReader::Result SnapshotReader::read(const QString& path, const ProgressCallback& progress)
{
    InputStream in(path, progress);
    return read(in);
}

SnapshotReader::Result SnapshotReader::read(QIODevice* device, const ProgressCallback& progress)
{
    InputStream in(device, progress);
    return read(in);
}

SnapshotReader::Result SnapshotReader::read(InputStream& in)
{
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

    SnapshotBuilder builder;
    // A pickled trace entry takes at least ~20 bytes (a dict with action, addr, size and stream); gzip shrinks
    // snapshots about tenfold. JSON entries are larger still, so the same bound holds.
    builder.setEntryCapacityHint((in.isGzip() ? in.fileSize() * 12 : in.fileSize()) / 16);
    // Pickles start with PROTO; protocol 2+ files without it start with a container opcode.
    if (p[0] == 0x80 || p[0] == '}' || p[0] == ']' || p[0] == '(') {
        result.format = Format::Pickle;
        PickleReader(in, builder).run();
    } else if (firstText < n && (p[firstText] == '{' || p[firstText] == '[')) {
        result.format = Format::Json;
        JsonReader(in, builder).run();
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
