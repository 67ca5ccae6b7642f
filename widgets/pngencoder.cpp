// SPDX-License-Identifier: MIT
#include "pngencoder.h"

#include "parallel.h"

#include <QImage>

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace RankScope::PngEncoder {

namespace {

// ISA-L's deflate at its level 2 rather than zlib's: the 1 GB benchmark rank's exported timelines (3200 x 2000)
// took 17-19 ms to encode, against 113-131 ms with zlib at level 4 (what libpng takes at Qt's quality 50), for
// 1,039 KB against 886 KB. Level 1 made 1,051 KB in the same time; level 3, 1,012 KB in three times the instructions.
constexpr uint32_t level = 2;
constexpr uint32_t levelBufferBytes = ISAL_DEF_LVL2_DEFAULT;
// Filtered bytes per strip: enough strips for every core, few enough that the rows each strip filters again for
// its dictionary (32 KiB, 4 rows of a 3200-pixel sheet) stay a small share.
constexpr size_t stripBytes = size_t(512) << 10;
constexpr size_t dictionaryBytes = size_t(32) << 10;

enum Filter : uint8_t
{
    None = 0,
    Sub = 1,
    Up = 2,
};

constexpr size_t bytesPerPixel = 3;

// Row y's pixels as RGB bytes.
void rgbRow(const QImage& image, int y, uint8_t* out)
{
    const auto* in = reinterpret_cast<const QRgb*>(image.constScanLine(y));
    const int width = image.width(); // a call into Qt per pixel otherwise
    for (int x = 0; x < width; ++x) {
        out[0] = uint8_t(qRed(in[x]));
        out[1] = uint8_t(qGreen(in[x]));
        out[2] = uint8_t(qBlue(in[x]));
        out += bytesPerPixel;
    }
}

// A filtered byte's distance from zero, as a signed byte.
unsigned magnitude(uint8_t v)
{
    return std::min(v, uint8_t(0u - v));
}

// One row filtered (its filter byte first) by the filter whose bytes have the least sum of magnitudes, libpng's
// heuristic, among None, Sub and Up. Average and Paeth are left out: on a timeline picture Paeth won rows the
// heuristic chose it for and compressed them worse (379 KB with it, 344 KB without, libpng 386 KB), and cost a
// third of the encoding's time. `prev` is the row above, zeros for the first.
void filterRow(const uint8_t* row, const uint8_t* prev, size_t n, uint8_t* out)
{
    const size_t lead = std::min(n, bytesPerPixel); // Sub's first pixel has no left neighbour: as None
    unsigned none = 0;
    unsigned sub = 0;
    unsigned up = 0;
    for (size_t i = 0; i < lead; ++i) {
        none += magnitude(row[i]);
        sub += magnitude(row[i]);
        up += magnitude(uint8_t(row[i] - prev[i]));
    }
    for (size_t i = lead; i < n; ++i) {
        none += magnitude(row[i]);
        sub += magnitude(uint8_t(row[i] - row[i - bytesPerPixel]));
        up += magnitude(uint8_t(row[i] - prev[i]));
    }
    const Filter f = none <= sub && none <= up ? None : sub <= up ? Sub : Up;
    *out++ = f;
    switch (f) {
    case None:
        std::memcpy(out, row, n);
        break;
    case Sub:
        std::memcpy(out, row, lead);
        for (size_t i = lead; i < n; ++i)
            out[i] = uint8_t(row[i] - row[i - bytesPerPixel]);
        break;
    case Up:
        for (size_t i = 0; i < n; ++i)
            out[i] = uint8_t(row[i] - prev[i]);
        break;
    }
}

struct Strip
{
    QByteArray deflated; ///< raw deflate, ending on a byte (a sync flush) or, for the last strip, the final block
    uint32_t adler = 0;
    size_t length = 0; ///< filtered bytes
};

// Rows [first, last) filtered and compressed, with the filtered rows before them as the dictionary, so the strips
// joined are one stream that finds its matches across their seams.
Strip compressStrip(const QImage& image, int first, int last, int dictionaryRows, bool isLast)
{
    const size_t n = size_t(image.width()) * bytesPerPixel;
    const int from = std::max(0, first - dictionaryRows);
    std::vector<uint8_t> filtered((size_t(last - from)) * (n + 1));
    std::vector<uint8_t> prev(n, 0);
    std::vector<uint8_t> row(n);
    if (from > 0)
        rgbRow(image, from - 1, prev.data());
    for (int y = from; y < last; ++y) {
        rgbRow(image, y, row.data());
        filterRow(row.data(), prev.data(), n, filtered.data() + size_t(y - from) * (n + 1));
        std::swap(row, prev);
    }
    const size_t own = size_t(first - from) * (n + 1);
    Strip strip;
    strip.length = filtered.size() - own;
    strip.adler = isal_adler32(1, filtered.data() + own, strip.length);

    isal_zstream z;
    isal_deflate_init(&z);
    std::vector<uint8_t> levelBuffer(levelBufferBytes);
    z.level = level;
    z.level_buf = levelBuffer.data();
    z.level_buf_size = uint32_t(levelBuffer.size());
    const size_t dictionary = std::min(own, dictionaryBytes);
    if (dictionary > 0
        && isal_deflate_set_dict(&z, filtered.data() + own - dictionary, uint32_t(dictionary)) != COMP_OK)
        throw std::runtime_error("ISA-L did not take a PNG strip's dictionary");
    z.next_in = filtered.data() + own;
    z.avail_in = uint32_t(strip.length);
    z.end_of_stream = isLast;
    z.flush = isLast ? NO_FLUSH : SYNC_FLUSH;
    // Room for a quarter of the bytes (a sheet takes a twentieth), twice as much each time that is short: noise, at
    // the tests' pictures, is stored as it is.
    strip.deflated.resize(qsizetype(strip.length / 4) + 1024);
    for (;;) {
        z.next_out = reinterpret_cast<uint8_t*>(strip.deflated.data()) + z.total_out;
        z.avail_out = uint32_t(size_t(strip.deflated.size()) - z.total_out);
        if (isal_deflate(&z) != COMP_OK)
            throw std::runtime_error("ISA-L did not compress a PNG strip");
        // Output left over: all of the strip's blocks (its flush, or the last one) are written.
        if (z.avail_out > 0 && z.avail_in == 0 && (!isLast || z.internal_state.state == ZSTATE_END))
            break;
        strip.deflated.resize(strip.deflated.size() * 2);
    }
    strip.deflated.resize(qsizetype(z.total_out));
    return strip;
}

void put32(QByteArray& out, uint32_t v)
{
    const char bytes[4] = { char(v >> 24), char(v >> 16), char(v >> 8), char(v) };
    out.append(bytes, 4);
}

void chunk(QByteArray& out, const char* type, const QByteArray& data)
{
    put32(out, uint32_t(data.size()));
    const qsizetype start = out.size();
    out.append(type, 4);
    out.append(data);
    put32(
        out, uint32_t(crc32_z(0, reinterpret_cast<const Bytef*>(out.constData() + start), size_t(out.size() - start))));
}

} // namespace

QByteArray encode(const QImage& picture)
{
    const QImage image = picture.convertToFormat(QImage::Format_RGB32); // shared, not copied, when it is one
    if (image.isNull())
        return {};
    const size_t rowBytes = size_t(image.width()) * bytesPerPixel + 1;
    const int stripRows = int(std::clamp<size_t>(stripBytes / rowBytes, 1, size_t(image.height())));
    const int dictionaryRows = int((dictionaryBytes + rowBytes - 1) / rowBytes);
    const qsizetype strips = (image.height() + stripRows - 1) / stripRows;
    const QList<Strip> compressed = Parallel::mapIndices(strips, [&](qsizetype i) {
        const int first = int(i) * stripRows;
        return compressStrip(
            image, first, std::min(image.height(), first + stripRows), dictionaryRows, i == strips - 1);
    });

    QByteArray out("\x89PNG\r\n\x1a\n", 8);
    QByteArray header;
    put32(header, uint32_t(image.width()));
    put32(header, uint32_t(image.height()));
    header.append("\x08\x02\x00\x00\x00", 5); // 8 bits, RGB, deflate, adaptive filters, not interlaced
    chunk(out, "IHDR", header);
    if (image.dotsPerMeterX() > 0 && image.dotsPerMeterY() > 0) {
        QByteArray physical;
        put32(physical, uint32_t(image.dotsPerMeterX()));
        put32(physical, uint32_t(image.dotsPerMeterY()));
        physical.append('\x01'); // per metre
        chunk(out, "pHYs", physical);
    }
    // The zlib header as zlib writes it for a fast level (FLEVEL 1, as ISA-L's are), then the strips, then the
    // Adler-32 of all filtered bytes.
    constexpr unsigned zlibHeader = 0x78u << 8 | 1u << 6;
    QByteArray stream;
    stream.append(char(zlibHeader >> 8));
    stream.append(char((zlibHeader + 31 - zlibHeader % 31) & 0xff));
    uLong adler = adler32_z(0, nullptr, 0);
    for (const Strip& s : compressed) {
        stream.append(s.deflated);
        adler = adler32_combine(adler, uLong(s.adler), z_off_t(s.length));
    }
    put32(stream, uint32_t(adler));
    constexpr qsizetype idatBytes = qsizetype(1) << 20;
    for (qsizetype at = 0; at < stream.size(); at += idatBytes)
        chunk(out, "IDAT", stream.mid(at, idatBytes));
    chunk(out, "IEND", {});
    return out;
}

} // namespace RankScope::PngEncoder
