// SPDX-License-Identifier: MIT
#include "inputstream.h"

#include "platform.h"

#include <QBuffer>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include <isa-l/igzip_lib.h>

namespace RankScope {

namespace {
// Chunks and the distance below are what the parse holds beyond its data: 4 MiB chunks and 8 MiB ahead held 21 MiB
// more at the peak of a 176 MB file than these (2.3 M entries, 154 against 133 MiB), and loaded no faster.
constexpr size_t chunk = size_t(1) << 20;
// Chunks in flight when reading ahead: the one the parser reads, one waiting, one being filled.
constexpr size_t readAheadChunks = 3;
// A thread costs more than it saves on a file of a few megabytes (and opening a thousand digests stays cheap).
constexpr uint64_t readAheadFrom = uint64_t(8) << 20;
// How far past their filled ends the parse's arrays are faulted in: a few chunks' worth of entries.
constexpr size_t pagesAhead = size_t(2) << 20;
// How far ahead of the parse a mapped file's pages are mapped in, and how many behind it are given back at once: each
// of the pages counts in the process's memory as the chunks do.
constexpr uint64_t mapAheadBytes = uint64_t(2) << 20;
constexpr size_t releaseStep = size_t(2) << 20;

bool gzipMagic(const uint8_t* p, size_t n)
{
    return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

// ISA-L's error codes in the words zlib gave them.
const char* inflateError(int code)
{
    switch (code) {
    case ISAL_INVALID_BLOCK:
        return "invalid block type or lengths";
    case ISAL_INVALID_SYMBOL:
        return "invalid code";
    case ISAL_INVALID_LOOKBACK:
        return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER:
        return "invalid gzip header";
    case ISAL_UNSUPPORTED_METHOD:
        return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM:
        return "incorrect data check";
    case ISAL_NEED_DICT:
        return "a preset dictionary is needed";
    default:
        return "inflate failed";
    }
}
} // namespace

InputStream::InputStream(const QString& path, ProgressCallback progress, bool readAhead)
    : m_file(path)
    , m_device(&m_file)
    , m_path(path)
    , m_progress(std::move(progress))
{
    if (!m_file.open(QIODevice::ReadOnly))
        throw ReadError("cannot open the file: " + m_file.errorString().toStdString());
    m_handle = m_file.handle();
    uint8_t magic[2] = {};
    const qint64 size = m_file.size();
    if (size > 0 && uint64_t(size) <= SIZE_MAX
        && !(m_file.peek(reinterpret_cast<char*>(magic), 2) == 2 && gzipMagic(magic, 2))) {
        const size_t bytes = size_t(size);
        if (const void* map = Platform::mapFile(m_handle, bytes)) {
            startWindow({ std::shared_ptr<const void>(map, [bytes](const void* p) { Platform::unmapFile(p, bytes); }),
                static_cast<const uint8_t*>(map), uint64_t(bytes), true });
            if (readAhead && m_fileSize > readAheadFrom)
                m_reader = std::thread([this] { this->mapAhead(); });
            return;
        }
    }
    start(readAhead);
}

InputStream::InputStream(std::unique_ptr<QIODevice> device, ProgressCallback progress)
    : InputStream(device.get(), std::move(progress))
{
    m_ownDevice = std::move(device);
}

InputStream::InputStream(HeldBytes bytes, ProgressCallback progress)
    : m_progress(std::move(progress))
{
    if (!gzipMagic(bytes.data, size_t(std::min<uint64_t>(bytes.size, 2)))) {
        startWindow(std::move(bytes));
        return;
    }
    auto buffer = std::make_unique<QBuffer>();
    buffer->setData(QByteArray::fromRawData(reinterpret_cast<const char*>(bytes.data), qsizetype(bytes.size)));
    buffer->open(QIODevice::ReadOnly);
    m_held = std::move(bytes); // what the buffer reads, not copied
    m_ownDevice = std::move(buffer);
    m_device = m_ownDevice.get();
    start(false);
}

void InputStream::startWindow(HeldBytes bytes)
{
    m_held = std::move(bytes);
    m_window = true;
    m_fileSize = m_held.size;
    cur = m_base = m_released = m_held.data;
    end = m_held.data + m_held.size;
    m_releaseAt = m_released + releaseStep;
    m_baseOffset = 0;
    m_eof = m_sourceDone = true;
    m_fileConsumed = m_fileRead = m_fileSize;
}

void InputStream::release(const uint8_t* p)
{
    const uint8_t* to = p - (reinterpret_cast<uintptr_t>(p) & (Platform::pageBytes() - 1));
    if (to > m_released) {
        Platform::discardPages(const_cast<uint8_t*>(m_released), size_t(to - m_released));
        m_released = to;
    }
    m_releaseAt = p + releaseStep;
}

InputStream::InputStream(QIODevice* device, ProgressCallback progress)
    : m_device(device)
    , m_progress(std::move(progress))
{
    if (!m_device->isOpen() || !m_device->isReadable())
        throw ReadError("cannot read the data: the device is not open for reading");
    start(false);
}

void InputStream::start(bool mayReadAhead)
{
    m_fileSize = uint64_t(std::max<qint64>(m_device->size(), 0));
    // A small input gets small chunks: what it holds fits, and opening many small files (or fuzzing) stays cheap.
    m_chunkBytes = size_t(std::clamp<uint64_t>(m_fileSize * 4, 4096, chunk));
    m_room = m_chunkBytes / 4;
    uint8_t magic[2] = {};
    if (m_device->peek(reinterpret_cast<char*>(magic), 2) == 2 && gzipMagic(magic, 2)) {
        m_gzip = true;
        m_inflate = std::make_unique<inflate_state>();
        isal_inflate_init(m_inflate.get());
        m_inflate->crc_flag = ISAL_GZIP; // the gzip header read, the CRC and size checked at the member's end
        m_inSize = size_t(std::clamp<uint64_t>(m_fileSize, 4096, chunk));
        m_in = std::make_unique_for_overwrite<uint8_t[]>(m_inSize);
    }
    // gzip inflates snapshots about tenfold.
    const bool readAhead = mayReadAhead && (m_gzip ? m_fileSize * 8 : m_fileSize) > readAheadFrom;
    m_chunks.resize(readAhead ? readAheadChunks : 2);
    for (size_t i = 0; i < m_chunks.size(); ++i) {
        m_chunks[i].data = std::make_unique_for_overwrite<uint8_t[]>(m_room + m_chunkBytes);
        m_free.push_back(i);
    }
    if (readAhead)
        m_reader = std::thread([this] { this->readAhead(); });
}

InputStream::~InputStream()
{
    stopReadingAhead();
}

void InputStream::stopReadingAhead()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    if (m_reader.joinable())
        m_reader.join();
}

size_t InputStream::readFile(uint8_t* into, size_t max)
{
    const qint64 n = m_device->read(reinterpret_cast<char*>(into), qint64(max));
    if (n < 0)
        throw ReadError("cannot read the file: " + m_device->errorString().toStdString());
    m_fileRead += uint64_t(n);
    if (n == 0)
        checkUnchanged(m_fileRead, true);
    return size_t(n);
}

size_t InputStream::produce(uint8_t* into, size_t max)
{
    if (!m_gzip) {
        const size_t n = readFile(into, max);
        m_sourceDone = n == 0;
        return n;
    }
    inflate_state& z = *m_inflate;
    z.next_out = into;
    z.avail_out = uint32_t(std::min<size_t>(max, UINT32_MAX));
    while (z.avail_out > 0 && !m_sourceDone) {
        if (z.avail_in == 0) {
            z.next_in = m_in.get();
            z.avail_in = uint32_t(readFile(m_in.get(), m_inSize));
        }
        const uint32_t inBefore = z.avail_in;
        const uint32_t outBefore = z.avail_out;
        if (const int ret = isal_inflate(&z); ret != ISAL_DECOMP_OK)
            throw ReadError(std::string("the gzip data is corrupt: ") + inflateError(ret));
        if (z.block_state == ISAL_BLOCK_FINISH) {
            // Concatenated gzip members form one stream, as `gzip -d` treats them; anything else after a member is
            // not read, as `gzip -d` ignores trailing garbage.
            if (z.avail_in < 2) {
                // The next member's magic may lie across two reads.
                const size_t kept = z.avail_in;
                std::memmove(m_in.get(), z.next_in, kept);
                z.next_in = m_in.get();
                z.avail_in = uint32_t(kept + readFile(m_in.get() + kept, m_inSize - kept));
            }
            if (gzipMagic(z.next_in, z.avail_in)) {
                uint8_t* const in = z.next_in;
                const uint32_t available = z.avail_in;
                isal_inflate_reset(&z);
                z.next_in = in;
                z.avail_in = available;
                z.crc_flag = ISAL_GZIP;
            } else {
                m_sourceDone = true;
            }
        } else if (z.avail_in == inBefore && z.avail_out == outBefore) {
            // Nothing read and nothing written short of the member's end: the file ended inside it.
            if (inBefore == 0)
                throw ReadError("the gzip data is truncated");
            throw ReadError("the gzip data is corrupt: the inflate stopped inside it");
        }
    }
    return size_t(z.next_out - into);
}

void InputStream::fill(Chunk& c)
{
    try {
        c.size = produce(c.data.get() + m_room, m_chunkBytes);
        c.last = m_sourceDone;
    } catch (...) {
        // Handed to the parser with the chunk, so it reads everything before the error first, as without a thread.
        c.error = std::current_exception();
        c.size = 0;
        c.last = true;
    }
    c.fileRead = m_fileRead;
}

void InputStream::readAhead()
{
    for (bool last = false; !last;) {
        size_t index;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [this] { return m_stop || !m_free.empty(); });
            if (m_stop)
                return;
            index = m_free.front();
            m_free.pop_front();
        }
        fill(m_chunks[index]);
        last = m_chunks[index].last;
        {
            std::lock_guard lock(m_mutex);
            m_filled.push_back(index);
        }
        m_changed.notify_all();
        m_pageAhead.run(pagesAhead);
    }
}

void InputStream::mapAhead()
{
    // Follows the parse's reports (a megabyte apart), a step at a time, as the reading thread follows the chunks.
    uint64_t mapped = 0;
    uint64_t seen = UINT64_MAX;
    for (;;) {
        uint64_t at;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [&] { return m_stop || m_parsedTo.load(std::memory_order_relaxed) != seen; });
            if (m_stop)
                return;
            at = seen = m_parsedTo.load(std::memory_order_relaxed);
        }
        for (const uint64_t to = std::min(m_fileSize, at + mapAheadBytes); mapped < to;) {
            const uint64_t from = std::max(mapped, at);
            const uint64_t step = std::min<uint64_t>(chunk, to - from);
            Platform::populateMapped(m_held.data + from, size_t(step));
            mapped = from + step;
            if (m_parsedTo.load(std::memory_order_relaxed) != at)
                break; // the parse moved on: it is where to map from
        }
        m_pageAhead.run(pagesAhead);
    }
}

size_t InputStream::takeChunk()
{
    if (!m_reader.joinable()) {
        const size_t index = m_free.front();
        m_free.pop_front();
        fill(m_chunks[index]);
        return index;
    }
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return !m_filled.empty(); });
    const size_t index = m_filled.front();
    m_filled.pop_front();
    return index;
}

void InputStream::releaseChunk(size_t index)
{
    if (!m_reader.joinable()) {
        m_free.push_back(index);
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_free.push_back(index);
    }
    m_changed.notify_all();
}

bool InputStream::refill(size_t need)
{
    size_t have = size_t(end - cur);
    while (have < need && !m_eof) {
        const size_t next = takeChunk();
        const Chunk& c = m_chunks[next];
        if (c.error)
            std::rethrow_exception(c.error);
        m_fileConsumed = c.fileRead;
        m_eof = c.last;
        const uint64_t offset = offsetOf(cur);
        const uint8_t* data = c.data.get() + m_room;
        if (have <= m_room) {
            // The unread end of the window goes just before the new bytes, so the window stays one range.
            uint8_t* start = m_chunks[next].data.get() + m_room - have;
            if (have > 0)
                std::memcpy(start, cur, have);
            if (m_current != SIZE_MAX)
                releaseChunk(m_current);
            m_current = next;
            cur = start;
            end = data + c.size;
        } else {
            // Grown only as data actually arrives, so a huge length field cannot make us allocate in advance.
            if (m_current != SIZE_MAX) {
                m_joined.assign(cur, end);
                releaseChunk(m_current);
                m_current = SIZE_MAX;
            } else {
                m_joined.erase(m_joined.begin(), m_joined.begin() + (cur - m_joined.data()));
            }
            m_joined.insert(m_joined.end(), data, data + c.size);
            releaseChunk(next);
            cur = m_joined.data();
            end = cur + m_joined.size();
        }
        m_base = cur;
        m_baseOffset = offset;
        have = size_t(end - cur);
    }
    return have >= need;
}

bool InputStream::skipTo(uint64_t offset)
{
    if (offset <= offsetOf(end)) {
        cur += offset - offsetOf(cur);
        return true;
    }
    if (m_window)
        return false;
    if (m_gzip) {
        // Inflated data has no offsets to seek to: read through it.
        while (offsetOf(end) < offset) {
            cur = end;
            if (!refill(1))
                return false;
        }
        cur += offset - offsetOf(cur);
        return true;
    }
    // A plain file: the reading thread stops, and everything it read past `offset`'s window is given back; the
    // file is read on from there.
    const bool readingAhead = m_reader.joinable();
    stopReadingAhead();
    if (offset > m_fileSize || !m_device->seek(qint64(offset)))
        return false;
    m_filled.clear();
    m_free.clear();
    for (size_t i = 0; i < m_chunks.size(); ++i)
        m_free.push_back(i);
    m_current = SIZE_MAX;
    m_joined.clear();
    m_fileRead = offset;
    m_fileConsumed = offset;
    m_sourceDone = false;
    m_eof = false;
    cur = end = m_base = nullptr;
    m_baseOffset = offset;
    m_stop = false;
    if (readingAhead)
        m_reader = std::thread([this] { this->readAhead(); });
    return true;
}

void InputStream::checkUnchanged() const
{
    checkUnchanged(m_fileConsumed, m_eof);
}

void InputStream::checkUnchanged(uint64_t read, bool atEnd) const
{
    // A rank still writing its snapshot, or a copy still in progress, gives a file that grows or shrinks under us.
    // Asked of the system, not of QFile::size(): the reading thread may be inside the QFile meanwhile.
    if (m_path.isEmpty())
        return;
    const uint64_t now = Platform::fileSize(m_handle, m_path).value_or(m_fileSize);
    if (now != m_fileSize || (atEnd && read != m_fileSize) || (m_held.mapped && Platform::mappingCut(m_held.data)))
        throw ReadError("the file changed while it was read (" + std::to_string(m_fileSize) + " bytes when opened, "
            + std::to_string(now) + " now); load it again once whatever writes it has finished");
}

void InputStream::reportProgress()
{
    if (m_window) {
        doneWith(cur);
        if (m_reader.joinable()) {
            {
                std::lock_guard lock(m_mutex);
                m_parsedTo.store(offsetOf(cur), std::memory_order_relaxed);
            }
            m_changed.notify_all();
        }
    }
    if (m_progress && !m_progress(m_window ? offsetOf(cur) : m_fileConsumed, m_fileSize))
        throw ReadCancelled();
}

} // namespace RankScope
