// SPDX-License-Identifier: MIT
#pragma once

#include "readerror.h"
#include "snapshotreader.h"

#include <QBuffer>
#include <QByteArray>

#include <cstddef>
#include <cstdint>

namespace RankScope::Fuzz {

/// Reads bytes as a snapshot file. Rejecting them with ReadError is the expected outcome for most inputs; anything
/// else (a crash, a sanitizer report, a leak, another exception) is a bug.
inline void readSnapshot(const QByteArray& bytes)
{
    QByteArray copy = bytes;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    try {
        SnapshotReader::read(&buffer);
    } catch (const ReadError&) { }
}

inline QByteArray bytesOf(const uint8_t* data, size_t size)
{
    return QByteArray(reinterpret_cast<const char*>(data), qsizetype(size));
}

} // namespace RankScope::Fuzz
