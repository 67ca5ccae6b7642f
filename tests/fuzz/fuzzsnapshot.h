// SPDX-License-Identifier: MIT
#pragma once

#include "readerror.h"
#include "snapshotreader.h"

#include <QBuffer>
#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace RankScope::Fuzz {

/// Reads bytes as a snapshot file, in chunks (as a file that cannot be mapped) and as one window (as a mapped file).
/// Rejecting them with ReadError is the expected outcome for most inputs; anything else (a crash, a sanitizer report,
/// a leak, another exception, the two reads disagreeing on the error) is a bug.
inline void readSnapshot(const QByteArray& bytes)
{
    const auto error = [](auto&& read) -> std::string {
        try {
            read();
            return {};
        } catch (const ReadError& e) {
            return e.what();
        }
    };
    QByteArray copy = bytes;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    if (error([&buffer] { SnapshotReader::read(&buffer); }) != error([&bytes] { SnapshotReader::readBytes(bytes); }))
        std::abort();
}

inline QByteArray bytesOf(const uint8_t* data, size_t size)
{
    return QByteArray(reinterpret_cast<const char*>(data), qsizetype(size));
}

} // namespace RankScope::Fuzz
