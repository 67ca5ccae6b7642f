// SPDX-License-Identifier: MIT
#include "inputstream.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

namespace RankScope {

namespace {
constexpr size_t chunk = size_t(4) << 20;
}

InputStream::InputStream(const QString& path, ProgressCallback progress)
    : m_file(path)
    , m_device(&m_file)
    , m_progress(std::move(progress))
{
    if (!m_file.open(QIODevice::ReadOnly))
        throw ReadError("cannot open the file: " + m_file.errorString().toStdString());
    start();
}

InputStream::InputStream(QIODevice* device, ProgressCallback progress)
    : m_device(device)
    , m_progress(std::move(progress))
{
    if (!m_device->isOpen() || !m_device->isReadable())
        throw ReadError("cannot read the data: the device is not open for reading");
    start();
}

void InputStream::start()
{
    m_fileSize = uint64_t(std::max<qint64>(m_device->size(), 0));
    // A small input gets a small window: what it holds fits, and opening many small files (or fuzzing) stays cheap.
    m_out.resize(size_t(std::clamp<uint64_t>(m_fileSize * 4, 4096, chunk)));
    cur = end = m_out.data();
    uint8_t magic[2] = {};
    if (m_device->peek(reinterpret_cast<char*>(magic), 2) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        m_gzip = true;
        if (inflateInit2(&m_zs, 15 + 32) != Z_OK)
            throw ReadError("cannot initialise zlib");
        m_zsInit = true;
        m_in.resize(size_t(std::clamp<uint64_t>(m_fileSize, 4096, chunk)));
    }
}

InputStream::~InputStream()
{
    if (m_zsInit)
        inflateEnd(&m_zs);
}

size_t InputStream::readFile(uint8_t* into, size_t max)
{
    const qint64 n = m_device->read(reinterpret_cast<char*>(into), qint64(max));
    if (n < 0)
        throw ReadError("cannot read the file: " + m_device->errorString().toStdString());
    m_fileRead += uint64_t(n);
    if (n == 0)
        checkUnchanged();
    return size_t(n);
}

size_t InputStream::produce(uint8_t* into, size_t max)
{
    if (!m_gzip) {
        const size_t n = readFile(into, max);
        m_eof = n == 0;
        return n;
    }
    m_zs.next_out = into;
    m_zs.avail_out = uInt(std::min<size_t>(max, UINT_MAX));
    while (m_zs.avail_out > 0 && !m_eof) {
        if (m_zs.avail_in == 0) {
            m_zs.next_in = m_in.data();
            m_zs.avail_in = uInt(readFile(m_in.data(), m_in.size()));
        }
        const bool noInput = m_zs.avail_in == 0;
        const int ret = inflate(&m_zs, Z_NO_FLUSH);
        if (ret == Z_STREAM_END) {
            // Concatenated gzip members form one stream, as `gzip -d` treats them.
            if (m_zs.avail_in == 0) {
                m_zs.next_in = m_in.data();
                m_zs.avail_in = uInt(readFile(m_in.data(), m_in.size()));
            }
            if (m_zs.avail_in >= 2 && m_zs.next_in[0] == 0x1f && m_zs.next_in[1] == 0x8b)
                inflateReset(&m_zs);
            else
                m_eof = true;
        } else if (ret == Z_BUF_ERROR && noInput) {
            throw ReadError("the gzip data is truncated");
        } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
            throw ReadError(std::string("the gzip data is corrupt: ") + (m_zs.msg ? m_zs.msg : "inflate failed"));
        }
    }
    return size_t(m_zs.next_out - into);
}

bool InputStream::refill(size_t need)
{
    size_t have = size_t(end - cur);
    if (have >= need)
        return true;
    if (m_eof)
        return false;
    // Slide the unread bytes to the front, then fill behind them.
    m_windowOffset += uint64_t(cur - m_out.data());
    std::memmove(m_out.data(), cur, have);
    while (have < need && !m_eof) {
        if (m_out.size() - have < std::min(need - have, chunk / 4)) {
            // Grow only as data actually arrives, so a huge length field cannot make us allocate in advance.
            m_out.resize(std::max(m_out.size() * 2, have + std::min(need - have, chunk)));
        }
        have += produce(m_out.data() + have, m_out.size() - have);
    }
    cur = m_out.data();
    end = cur + have;
    return have >= need;
}

void InputStream::checkUnchanged() const
{
    // A rank still writing its snapshot, or a copy still in progress, gives a file that grows or shrinks under us.
    if (m_device != &m_file)
        return;
    const uint64_t now = uint64_t(std::max<qint64>(m_file.size(), 0));
    if (now != m_fileSize || (m_eof && m_fileRead != m_fileSize))
        throw ReadError("the file changed while it was read (" + std::to_string(m_fileSize) + " bytes when opened, "
            + std::to_string(now) + " now); load it again once whatever writes it has finished");
}

void InputStream::reportProgress()
{
    if (m_progress && !m_progress(m_fileRead, m_fileSize))
        throw ReadCancelled();
}

} // namespace RankScope
