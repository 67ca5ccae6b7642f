// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace RankScope {

/// Turns what the user named (files and folders) into the list of files to load. Folders are searched recursively
/// for snapshot-like files (.pickle, .pkl, .json, optionally .gz) or, for step reports, logs (.log, .txt, .out,
/// .err), sorted by rank then path. Files named explicitly are taken whatever their name.
class RankFiles
{
public:
    static QStringList expand(const QStringList& filesOrFolders);
    static QStringList expandLogs(const QStringList& filesOrFolders);
    static bool looksLikeSnapshot(const QString& fileName);
    static bool looksLikeLog(const QString& fileName);

private:
    static QStringList expandMatching(const QStringList& filesOrFolders, bool (*matches)(const QString&));
};

} // namespace RankScope
