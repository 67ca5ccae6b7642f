// SPDX-License-Identifier: MIT
#pragma once

#include "readerror.h"
#include "snapshot.h"

#include <QByteArray>
#include <QString>

#include <functional>
#include <memory>

class QIODevice;

namespace RankScope {

class InputStream;

/// Reads one snapshot file of any supported form: pickle (protocols 2–5) or JSON, either of them plain or
/// gzip-compressed, recognised by content rather than by extension. Runs on the calling thread, with a second one
/// parsing part of a large plain pickle where a core is free (PickleSplit; `RANKSCOPE_SPLIT=off` turns that off,
/// `RANKSCOPE_SPLIT=at=0.5,min=0` forces it at half of any file); never modifies the file and never executes
/// anything in it.
class SnapshotReader
{
public:
    enum class Format
    {
        Pickle,
        Json,
    };
    struct Result
    {
        SnapshotPtr snapshot;
        Format format = Format::Pickle;
        bool gzip = false;
        /// The bytes of a trace list a second thread parsed (PickleSplit); equal when none did.
        uint64_t partStart = 0;
        uint64_t partEnd = 0;
    };

    /// Throws ReadError with a message that says what is wrong (without the path; callers add it) or
    /// ReadCancelled when `progress` returned false.
    static Result read(const QString& path, const ProgressCallback& progress = {});
    /// The same from an open device (the fuzzers feed a QBuffer), read in chunks as a file that cannot be mapped.
    static Result read(QIODevice* device, const ProgressCallback& progress = {});
    /// The same from bytes in memory, read as a mapped file is.
    static Result readBytes(const QByteArray& bytes, const ProgressCallback& progress = {});

private:
    static Result read(InputStream& in, const std::function<std::unique_ptr<InputStream>()>& reopen);
};

} // namespace RankScope
