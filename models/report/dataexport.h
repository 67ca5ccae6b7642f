// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

namespace RankScope {

/// Writes what RankScope exports (findings as CSV or JSON, reports, the bytes of pictures, the capture helper) to
/// files atomically with QSaveFile, so a failed export never leaves half a file or destroys the one that was there.
namespace DataExport {
/// Writes `bytes` to `path`. Returns an empty string on success, otherwise a message naming the file and what went
/// wrong.
QString write(const QString& path, const QByteArray& bytes);
} // namespace DataExport

} // namespace RankScope
