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

RankFiles::Step RankFiles::chooseStep(const QStringList& files, std::optional<int64_t> step)
{
    Step result;
    std::vector<std::optional<int64_t>> steps;
    for (const QString& file : files)
        steps.push_back(RankName::stepFromPath(file));
    for (const auto& s : steps) {
        if (!s) { // a file of no step: the files are not a series of steps
            result.files = files;
            return result;
        }
        result.steps.push_back(*s);
    }
    std::sort(result.steps.begin(), result.steps.end());
    result.steps.erase(std::unique(result.steps.begin(), result.steps.end()), result.steps.end());
    if (result.steps.size() < 2) {
        result.steps.clear();
        result.files = files;
        return result;
    }
    result.chosen = step.value_or(result.steps.back());
    for (qsizetype i = 0; i < files.size(); ++i) {
        if (*steps[size_t(i)] == result.chosen)
            result.files.append(files[i]);
    }
    return result;
}

} // namespace RankScope
