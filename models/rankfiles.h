// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace RankScope {

/// Turns what the user named (files and folders) into the list of snapshot files to load. Folders are searched
/// recursively for snapshot-like files (.pickle, .pkl, .json, optionally .gz), sorted by rank then path.
class RankFiles
{
public:
    static QStringList expand(const QStringList& filesOrFolders);
    static bool looksLikeSnapshot(const QString& fileName);
};

} // namespace RankScope
