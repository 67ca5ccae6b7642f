// SPDX-License-Identifier: MIT
#pragma once

#include "readerror.h"

#include <QFile>

#include <vector>

#include <zlib.h>

namespace RankScope {

/// The bytes of a snapshot file, plain or gzip-compressed (recognised by its magic bytes, whatever the file is
/// called), read through a sliding window [cur, end) that readers advance themselves. The file is read in chunks
/// and inflated as it goes, so memory stays at a few megabytes whatever the file's size, and the file is opened
/// read-only.
class InputStream
{
public:
    explicit InputStream(const QString& path, ProgressCallback progress = {});
    /// Reads from an open device (a QBuffer in the fuzzers and tests); the device must outlive the stream.
    explicit InputStream(QIODevice* device, ProgressCallback progress = {});
    ~InputStream();
    InputStream(const InputStream&) = delete;
    InputStream& operator=(const InputStream&) = delete;

    /// Makes at least `need` bytes available at cur; false at the end of the data. Moves the window, so pointers
    /// into it must be re-read from cur afterwards.
    bool refill(size_t need);
    /// Offset in the (decompressed) data of a pointer into the window; used in error messages.
    uint64_t offsetOf(const uint8_t* p) const
    {
        return m_windowOffset + uint64_t(p - m_out.data());
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

    const uint8_t* cur = nullptr;
    const uint8_t* end = nullptr;

private:
    size_t readFile(uint8_t* into, size_t max);
    size_t produce(uint8_t* into, size_t max);
    void start();

    QFile m_file;
    QIODevice* m_device = nullptr;
    ProgressCallback m_progress;
    uint64_t m_fileSize = 0;
    uint64_t m_fileRead = 0;
    uint64_t m_windowOffset = 0;
    std::vector<uint8_t> m_out;
    bool m_eof = false;
    bool m_gzip = false;
    // gzip only
    z_stream m_zs {};
    bool m_zsInit = false;
    std::vector<uint8_t> m_in;
};

} // namespace RankScope
