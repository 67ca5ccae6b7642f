// SPDX-License-Identifier: MIT
#include "rankfiles.h"

#include "rankname.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <map>

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
    return scan(filesOrFolders).files;
}

QStringList RankFiles::expandLogs(const QStringList& filesOrFolders)
{
    return scan(filesOrFolders, true).files;
}

RankFiles::Scan RankFiles::scan(const QStringList& filesOrFolders, bool logs, int maxFiles)
{
    Scan scan;
    scan.limit = maxFiles;
    for (const QString& path : filesOrFolders) {
        if (QFileInfo(path).isDir())
            searchFolder(path, logs, maxFiles, scan);
        else
            scan.files.append(path); // named explicitly: loaded whatever its name, and errors are reported for it
    }
    return scan;
}

namespace {

// Why a folder under the one given is not searched: trees of other programs' files, where snapshot-like names
// (package.json, a test suite's fixtures) are never the job's, and walking them costs seconds.
std::optional<RankFiles::Scan::Skipped::Reason> notSearched(const QFileInfo& dir)
{
    using Skipped = RankFiles::Scan::Skipped;
    const QString name = dir.fileName();
    if (name.startsWith(QLatin1Char('.')))
        return Skipped::Hidden;
    static const QStringList packages { QStringLiteral("node_modules"), QStringLiteral("site-packages"),
        QStringLiteral("dist-packages"), QStringLiteral("bower_components"), QStringLiteral("__pycache__") };
    if (packages.contains(name))
        return Skipped::Packages;
    const QDir folder(dir.absoluteFilePath());
    if (folder.exists(QStringLiteral("pyvenv.cfg")))
        return Skipped::VirtualEnv;
    if (folder.exists(QStringLiteral("CMakeCache.txt")))
        return Skipped::BuildFolder;
    return std::nullopt;
}

// The subfolders of `root` that hold different jobs, when two of them hold the same rank at the same step; rank and
// step folders (rank3/, iteration_10/) belong to the job around them.
std::vector<RankFiles::Scan::FoundJob> jobsIn(const QString& root, const QStringList& found)
{
    const QDir base(root);
    std::map<QString, int> filesOf;
    std::map<std::pair<int, int64_t>, QString> owner;
    bool several = false;
    for (const QString& file : found) {
        QStringList parts = base.relativeFilePath(QFileInfo(file).path()).split(QLatin1Char('/'), Qt::SkipEmptyParts);
        parts.removeIf(
            [](const QString& part) { return part == QLatin1String(".") || RankName::isRankOrStepFolder(part); });
        const QString job = parts.isEmpty() ? QStringLiteral(".") : parts.join(QLatin1Char('/'));
        ++filesOf[job];
        if (const std::optional<int> rank = RankName::fromPath(file)) {
            const auto [it, inserted] =
                owner.emplace(std::make_pair(*rank, RankName::stepFromPath(file).value_or(-1)), job);
            several = several || (!inserted && it->second != job);
        }
    }
    std::vector<RankFiles::Scan::FoundJob> jobs;
    if (several) {
        for (const auto& [folder, files] : filesOf)
            jobs.push_back({ folder, files });
    }
    return jobs;
}

} // namespace

void RankFiles::searchFolder(const QString& root, bool logs, int maxFiles, Scan& scan)
{
    bool (*matches)(const QString&) = logs ? looksLikeLog : looksLikeSnapshot;
    QStringList found;
    int seen = 0;
    QStringList folders { root };
    while (!folders.isEmpty() && scan.stoppedIn.isEmpty()) {
        const QString folder = folders.takeLast();
        QDirIterator it(folder, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::Readable);
        while (it.hasNext()) {
            const QString path = it.next();
            const QFileInfo info = it.fileInfo();
            if (info.isDir()) {
                if (info.isSymLink())
                    continue; // as before: links to folders are not followed, so no loop
                if (const auto reason = notSearched(info))
                    scan.skipped.push_back({ path, *reason });
                else
                    folders.append(path);
                continue;
            }
            if (++seen > maxFiles) {
                scan.stoppedIn = root;
                break;
            }
            if (!info.isHidden() && matches(path))
                found.append(path);
        }
    }
    // Rank order reads naturally (rank2 before rank10); files without a rank keep path order after them.
    std::sort(found.begin(), found.end(), [](const QString& a, const QString& b) {
        const auto ra = RankName::fromPath(a);
        const auto rb = RankName::fromPath(b);
        if (ra.has_value() != rb.has_value())
            return ra.has_value();
        if (ra && *ra != *rb)
            return *ra < *rb;
        return a < b;
    });
    if (!logs && scan.jobs.empty()) {
        scan.jobs = jobsIn(root, found);
        if (!scan.jobs.empty())
            scan.folderOfJobs = root;
    }
    scan.files.append(found);
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
