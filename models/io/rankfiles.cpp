// SPDX-License-Identifier: MIT
#include "rankfiles.h"

#include "rankname.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace RankScope {

bool RankFiles::looksLikeSnapshot(const QString& fileName)
{
    static const QRegularExpression pattern(
        QStringLiteral("\\.(pickle|pkl|json)(\\.gz)?$|\\.gz$"), QRegularExpression::CaseInsensitiveOption);
    return pattern.match(fileName).hasMatch();
}

bool RankFiles::looksLikeLog(const QString& fileName)
{
    static const QRegularExpression pattern(
        QStringLiteral("\\.(log|txt|out|err)$"), QRegularExpression::CaseInsensitiveOption);
    return pattern.match(fileName).hasMatch();
}

QStringList RankFiles::expand(const QStringList& filesOrFolders)
{
    return expandMatching(filesOrFolders, looksLikeSnapshot);
}

QStringList RankFiles::expandLogs(const QStringList& filesOrFolders)
{
    return expandMatching(filesOrFolders, looksLikeLog);
}

QStringList RankFiles::expandMatching(const QStringList& filesOrFolders, bool (*matches)(const QString&))
{
    QStringList files;
    for (const QString& path : filesOrFolders) {
        const QFileInfo info(path);
        if (!info.isDir()) {
            files.append(path); // named explicitly: loaded whatever its name, and errors are reported for it
            continue;
        }
        QStringList found;
        QDirIterator it(path, QDir::Files | QDir::Readable, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            if (matches(file))
                found.append(file);
        }
        // Rank order reads naturally (rank2 before rank10); files without a rank keep path order after them.
        std::stable_sort(found.begin(), found.end(), [](const QString& a, const QString& b) {
            const auto ra = RankName::fromPath(a);
            const auto rb = RankName::fromPath(b);
            if (ra.has_value() != rb.has_value())
                return ra.has_value();
            if (ra && *ra != *rb)
                return *ra < *rb;
            return a < b;
        });
        files.append(found);
    }
    return files;
}

} // namespace RankScope
