// SPDX-License-Identifier: MIT
#pragma once

#include "pageahead.h"
#include "readerror.h"

#include <QFile>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

struct inflate_state;

namespace RankScope {

/// Bytes that stay where they are for as long as anyone holds `owner`: a file mapped whole, or a QByteArray's.
struct HeldBytes
{
    std::shared_ptr<const void> owner;
    const uint8_t* data = nullptr;
    uint64_t size = 0;
    bool mapped = false; ///< a file's mapping (Platform::mapFile)
};

/// The bytes of a snapshot file, plain or gzip-compressed (recognised by its magic bytes, whatever the file is
/// called), read through a sliding window [cur, end) that readers advance themselves. The file is read in chunks
/// and inflated as it goes, so memory stays at a few megabytes whatever the file's size, and the file is opened
/// read-only. A file of several chunks is read (and inflated) ahead on a thread of its own, so the parser on the
/// calling thread never waits on the kernel or on the inflate while the other core is free; between chunks, that thread
/// also faults in the pages the parse is about to fill (pageAhead()).
///
/// A plain file is mapped instead where the platform can: the window is then the whole file from the start, read
/// where the system caches it (a copy into chunks cost a third of a 1 GB load's CPU on this project's machines), and
/// the thread maps its pages in ahead of the parse; the pages behind are given back as the parse moves on (doneWith()),
/// so the file never counts whole in the process's memory.
class InputStream
{
public:
    /// Without `readAhead`, no thread (a second reader of a file some other stream reads ahead).
    explicit InputStream(const QString& path, ProgressCallback progress = {}, bool readAhead = true);
    /// Reads from an open device (a QBuffer in the fuzzers and tests) on the calling thread; the device must
    /// outlive the stream.
    explicit InputStream(QIODevice* device, ProgressCallback progress = {});
    /// The same, owning the device.
    explicit InputStream(std::unique_ptr<QIODevice> device, ProgressCallback progress = {});
    /// Reads bytes held in memory (another stream's held(), the fuzzers' input) as one window, as a mapped file is
    /// read; gzip-compressed ones are inflated in chunks.
    explicit InputStream(HeldBytes bytes, ProgressCallback progress = {});
    ~InputStream();
    InputStream(const InputStream&) = delete;
    InputStream& operator=(const InputStream&) = delete;

    /// Makes at least `need` bytes available at cur; false at the end of the data. Moves the window, so pointers
    /// into it must be re-read from cur afterwards.
    bool refill(size_t need);
    /// Moves the window's start to `offset` (at or after cur) without handing the bytes between to anyone; false
    /// when the data ends before it.
    bool skipTo(uint64_t offset);
    /// Offset in the (decompressed) data of a pointer into the window; used in error messages.
    uint64_t offsetOf(const uint8_t* p) const
    {
        return m_baseOffset + uint64_t(p - m_base);
    }
    /// Stops reading ahead (and faulting pages in ahead) once the reader is done with the data.
    void stopReadingAhead();
    /// The whole data as one window, when the stream is one (a mapped file, bytes held in memory), for another
    /// stream over the same bytes; no owner otherwise.
    HeldBytes held() const
    {
        return m_window ? m_held : HeldBytes {};
    }
    /// The bytes before `p` in the window will not be read again, unless the reader goes back for them: a mapped
    /// file's pages there are given back every few megabytes (what is read again is mapped in again, unchanged).
    void doneWith(const uint8_t* p)
    {
        if (m_held.mapped && p >= m_releaseAt)
            release(p);
    }
    /// Throws ReadError when the file's size is no longer what it was when opened.
    void checkUnchanged() const;
    /// Reports progress and throws ReadCancelled when the callback says stop. Cheap enough to call every megabyte.
    void reportProgress();
    bool isGzip() const
    {
        return m_gzip;
    }
    uint64_t fileSize() const
    {
        return m_fileSize;
    }
    /// Arrays the parse fills, whose pages the reading thread faults in ahead between chunks (when there is one).
    PageAhead& pageAhead()
    {
        return m_pageAhead;
    }

    const uint8_t* cur = nullptr;
    const uint8_t* end = nullptr;

private:
    /// Bytes as they come from the file or the inflate, after room for the unread end of the window before them.
    struct Chunk
    {
        /// Kept for the whole read and reused chunk after chunk: fresh pages cost a page fault each in this project's
        /// virtual machines (three 5 MB buffers took 44 ms to set up before the first byte was parsed). Not zeroed
        /// first: a job of a thousand small files set 1.5 MB of zeros for each before writing over them.
        std::unique_ptr<uint8_t[]> data;
        size_t size = 0;
        uint64_t fileRead = 0; ///< file bytes read when this chunk was complete
        bool last = false;
        std::exception_ptr error;
    };

    void start(bool mayReadAhead);
    void startWindow(HeldBytes bytes);
    void release(const uint8_t* p);
    void checkUnchanged(uint64_t read, bool atEnd) const;
    void fill(Chunk& chunk);
    size_t readFile(uint8_t* into, size_t max);
    size_t produce(uint8_t* into, size_t max);
    void readAhead();
    void mapAhead();
    size_t takeChunk();
    void releaseChunk(size_t index);

    QFile m_file;
    std::unique_ptr<QIODevice> m_ownDevice;
    QIODevice* m_device = nullptr;
    QString m_path; ///< the file read, when reading a file by path
    int m_handle = -1; ///< its QFile::handle()
    ProgressCallback m_progress;
    uint64_t m_fileSize = 0;
    bool m_gzip = false;

    // The consumer's side (the calling thread).
    const uint8_t* m_base = nullptr;
    uint64_t m_baseOffset = 0;
    size_t m_current = SIZE_MAX; ///< the chunk the window lies in; SIZE_MAX while it lies in m_joined
    std::vector<uint8_t> m_joined; ///< a window longer than a chunk's spare room (a long string) is joined here
    uint64_t m_fileConsumed = 0;
    bool m_eof = false;

    // The producer's side: the reading thread, or the calling thread when there is none.
    size_t m_room = 0; ///< bytes kept free before each chunk's data for the unread end of the previous window
    size_t m_chunkBytes = 0;
    uint64_t m_fileRead = 0;
    bool m_sourceDone = false;
    /// ISA-L's inflate, not zlib's: it inflates the 1 GB benchmark rank's stream in a third of zlib's time, which
    /// leaves the parse, not the inflate, the limit of a compressed file's load.
    std::unique_ptr<inflate_state> m_inflate;
    std::unique_ptr<uint8_t[]> m_in; ///< compressed bytes read, not zeroed first either
    size_t m_inSize = 0;

    // Handing chunks over.
    std::vector<Chunk> m_chunks;
    std::deque<size_t> m_free;
    std::deque<size_t> m_filled;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_stop = false;
    PageAhead m_pageAhead;

    // The whole data as one window.
    HeldBytes m_held;
    bool m_window = false;
    const uint8_t* m_released = nullptr; ///< pages before it were given back
    const uint8_t* m_releaseAt = nullptr;
    std::atomic<uint64_t> m_parsedTo { 0 }; ///< for the thread mapping pages in ahead

    std::thread m_reader;
};

} // namespace RankScope
