// SPDX-License-Identifier: MIT
#include "rankname.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <map>

namespace RankScope {

namespace {

// "local_rank_2", "localrank2", "local-rank.2": the rank inside one node, which says nothing about the global rank.
const QRegularExpression& localRankPattern()
{
    static const QRegularExpression re(QStringLiteral("(?:^|[^a-z0-9])local[-_.]?rank[-_.]?(\\d+)(?:$|[^0-9])"),
        QRegularExpression::CaseInsensitiveOption);
    return re;
}

std::optional<int> fromComponent(QString name)
{
    // Strip every extension (.pickle.gz, .json, .pkl …) but keep dotted stems like "rank.3" intact enough.
    static const QRegularExpression extensions(
        QStringLiteral("(\\.(pickle|pkl|pck|json|gz|gzip|pt|bin))+$"), QRegularExpression::CaseInsensitiveOption);
    name.remove(extensions);
    if (localRankPattern().match(name).hasMatch())
        return std::nullopt;
    static const QRegularExpression patterns[] = {
        QRegularExpression(
            QStringLiteral("(?:^|[^a-z0-9])rank[-_.]?(\\d+)(?:$|[^0-9])"), QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("^rank(\\d+)"), QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("^memory_trace_(\\d+)$"), QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("^snapshot_\\d+_(\\d+)$"), QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("^snapshot_(\\d+)$"), QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("^(\\d+)$")),
    };
    for (const QRegularExpression& re : patterns) {
        const QRegularExpressionMatch match = re.match(name);
        if (match.hasMatch()) {
            bool ok = false;
            const int rank = match.captured(1).toInt(&ok);
            if (ok && rank >= 0 && rank < 1000000)
                return rank;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<int> RankName::fromPath(const QString& path)
{
    const QFileInfo info(path);
    if (auto rank = fromComponent(info.fileName()))
        return rank;
    // torchtitan puts the step in the folder (iteration_12/) and the rank in the file; other layouts put the
    // rank in the folder (rank3/snapshot.pickle). The step folder never matches the patterns above.
    QDir dir = info.dir();
    for (int level = 0; level < 2; ++level) {
        if (auto rank = fromComponent(dir.dirName()))
            return rank;
        if (!dir.cdUp())
            break;
    }
    return std::nullopt;
}

std::optional<int> RankName::localRankFromPath(const QString& path)
{
    const QRegularExpressionMatch match = localRankPattern().match(QFileInfo(path).fileName());
    return match.hasMatch() ? std::optional<int>(match.captured(1).toInt()) : std::nullopt;
}

namespace {
const QRegularExpression& stepFolderPattern()
{
    static const QRegularExpression folder(QStringLiteral("^(?:iteration|iter|step|global_step)[-_]?(\\d+)(?:_exit)?$"),
        QRegularExpression::CaseInsensitiveOption);
    return folder;
}
} // namespace

bool RankName::isRankOrStepFolder(const QString& name)
{
    return fromComponent(name).has_value() || stepFolderPattern().match(name).hasMatch();
}

std::optional<int64_t> RankName::stepFromPath(const QString& path)
{
    const QFileInfo info(path);
    static const QRegularExpression file(
        QStringLiteral("^snapshot_(\\d+)_\\d+(\\.[a-z]+)*$"), QRegularExpression::CaseInsensitiveOption);
    const QRegularExpression& folder = stepFolderPattern();
    QRegularExpressionMatch match = file.match(info.fileName());
    QDir dir = info.dir();
    for (int level = 0; level < 2 && !match.hasMatch(); ++level) {
        match = folder.match(dir.dirName());
        if (!dir.cdUp())
            break;
    }
    bool ok = false;
    const int64_t step = match.hasMatch() ? match.captured(1).toLongLong(&ok) : 0;
    return ok ? std::optional<int64_t>(step) : std::nullopt;
}

QList<RankName::Assigned> RankName::assign(const QStringList& paths, const std::map<int, QString>& taken)
{
    QList<Assigned> ranks(paths.size());
    std::map<int, QString> owner = taken; // rank → the file that has it
    // Names first: a rank in a name is stronger than a position in the list.
    for (qsizetype i = 0; i < paths.size(); ++i) {
        if (auto rank = fromPath(paths[i])) {
            auto [it, inserted] = owner.emplace(*rank, paths[i]);
            if (inserted) {
                ranks[i] = { *rank, true, -1, {} };
                continue;
            }
            ranks[i].clash = *rank;
            ranks[i].clashWith = it->second;
        }
        ranks[i].rank = -1;
    }
    int next = 0;
    for (qsizetype i = 0; i < paths.size(); ++i) {
        if (ranks[i].rank >= 0)
            continue;
        int rank = ranks[i].clash < 0 && !owner.count(int(i)) ? int(i) : -1;
        if (rank < 0) {
            while (owner.count(next))
                ++next;
            rank = next;
        }
        owner.emplace(rank, paths[i]);
        ranks[i].rank = rank;
        if (const auto local = localRankFromPath(paths[i]))
            ranks[i].localRank = *local;
    }
    return ranks;
}

QString RankName::Assigned::note() const
{
    if (localRank >= 0)
        return QCoreApplication::translate("RankName",
            "its name gives local rank %1, which is not a global rank without the node; compared as rank %2, its place "
            "among the files")
            .arg(localRank)
            .arg(rank);
    if (clash < 0)
        return {};
    return QCoreApplication::translate("RankName", "its name says rank %1, like %2; compared as rank %3")
        .arg(clash)
        .arg(QFileInfo(clashWith).fileName())
        .arg(rank);
}

} // namespace RankScope
