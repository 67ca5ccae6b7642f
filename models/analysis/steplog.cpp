// SPDX-License-Identifier: MIT
#include "steplog.h"

#include "bytesize.h"
#include "rankname.h"
#include "spread.h"

#include <QFile>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace RankScope {

namespace {

// Launchers prefix each line with the rank that printed it: torchrun's --tee / log redirects ("[rank3]:",
// "[default3]:"), srun --label ("3: "), mpirun --tag-output ("[1,3]<stdout>:").
const QRegularExpression& launcherPrefix()
{
    static const QRegularExpression re(
        QStringLiteral(R"(^\s*(?:\[(?:rank|default)?(\d+)\]:|\[\d+,(\d+)\]<std(?:out|err)>:|(\d+):(?=\s)))"));
    return re;
}

// key=value or key: value; values may be a tuple, a list or torch.Size([...]), or a number with a unit after a space.
// "INFO: step=5" is not INFO with the value "step": a colon only counts when no "=" follows in the next word.
const QRegularExpression& keyValue()
{
    static const QRegularExpression re(
        QStringLiteral(
            R"(([A-Za-z_][A-Za-z0-9_]*)\s*(?:=|:(?!\s*\S*=))\s*(torch\.Size\(\[[^\]]*\]\)|\([^)]*\)|\[[^\]]*\]|[-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?\s*(?:[KMGT]i?B|B)\b|[^\s,;|]+))"),
        QRegularExpression::CaseInsensitiveOption);
    return re;
}

// A bracketed word such as [train] or [eval]: the phase.
const QRegularExpression& bracketTag()
{
    static const QRegularExpression re(QStringLiteral(R"(\[([A-Za-z][A-Za-z_-]*)\])"));
    return re;
}

std::vector<int64_t> parseShape(QString value)
{
    value.remove(QStringLiteral("torch.Size"));
    std::vector<int64_t> dims;
    static const QRegularExpression number(QStringLiteral(R"(\d+)"));
    for (auto it = number.globalMatch(value); it.hasNext();)
        dims.push_back(it.next().captured(0).toLongLong());
    return dims;
}

enum class Field
{
    None,
    Rank,
    Step,
    Tag,
    Shape,
    Tokens,
    Current,
    Peak,
};

Field fieldOf(const QString& key)
{
    static const std::map<QString, Field> fields = {
        { QStringLiteral("rank"), Field::Rank },
        { QStringLiteral("global_rank"), Field::Rank },
        { QStringLiteral("step"), Field::Step },
        { QStringLiteral("global_step"), Field::Step },
        { QStringLiteral("iter"), Field::Step },
        { QStringLiteral("iteration"), Field::Step },
        { QStringLiteral("it"), Field::Step },
        { QStringLiteral("batch_idx"), Field::Step },
        { QStringLiteral("tag"), Field::Tag },
        { QStringLiteral("phase"), Field::Tag },
        { QStringLiteral("mode"), Field::Tag },
        { QStringLiteral("split"), Field::Tag },
        { QStringLiteral("stage"), Field::Tag },
        { QStringLiteral("shape"), Field::Shape },
        { QStringLiteral("input_shape"), Field::Shape },
        { QStringLiteral("batch_shape"), Field::Shape },
        { QStringLiteral("tokens"), Field::Tokens },
        { QStringLiteral("num_tokens"), Field::Tokens },
        { QStringLiteral("ntokens"), Field::Tokens },
        { QStringLiteral("token_count"), Field::Tokens },
        { QStringLiteral("cur"), Field::Current },
        { QStringLiteral("current"), Field::Current },
        { QStringLiteral("allocated"), Field::Current },
        { QStringLiteral("alloc"), Field::Current },
        { QStringLiteral("mem"), Field::Current },
        { QStringLiteral("memory"), Field::Current },
        { QStringLiteral("memory_allocated"), Field::Current },
        { QStringLiteral("cur_mem"), Field::Current },
        { QStringLiteral("peak"), Field::Peak },
        { QStringLiteral("max"), Field::Peak },
        { QStringLiteral("max_allocated"), Field::Peak },
        { QStringLiteral("max_memory_allocated"), Field::Peak },
        { QStringLiteral("peak_mem"), Field::Peak },
        { QStringLiteral("max_mem"), Field::Peak },
    };
    const auto it = fields.find(key);
    return it == fields.end() ? Field::None : it->second;
}

} // namespace

std::string StepLog::canonicalTag(QStringView tag)
{
    const QString t = tag.toString().toLower();
    if (t == QLatin1String("training"))
        return "train";
    if (t == QLatin1String("evaluation") || t == QLatin1String("evaluate"))
        return "eval";
    if (t == QLatin1String("validation") || t == QLatin1String("valid"))
        return "val";
    return t.toStdString();
}

bool StepLog::parseLine(QStringView view, int fallbackRank, StepReport& out)
{
    QString line = view.toString();
    out = StepReport {};
    out.rank = fallbackRank;
    if (const QRegularExpressionMatch m = launcherPrefix().match(line); m.hasMatch()) {
        for (int group = 1; group <= 3; ++group) {
            if (!m.captured(group).isEmpty())
                out.rank = m.captured(group).toInt();
        }
        line = line.mid(m.capturedEnd(0));
    }
    bool hasStep = false;
    for (auto it = keyValue().globalMatch(line); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QString key = m.captured(1).toLower();
        const QString value = m.captured(2);
        // A unit in the key (peak_mb, cur_gib) applies to a bare number.
        QString keyUnit;
        static const QRegularExpression unitSuffix(QStringLiteral("_([kmgt]i?b)$"));
        if (const QRegularExpressionMatch u = unitSuffix.match(key); u.hasMatch()) {
            keyUnit = u.captured(1);
            key.chop(u.capturedLength(0));
        }
        bool ok = false;
        switch (fieldOf(key)) {
        case Field::Rank:
            if (const int rank = value.toInt(&ok); ok && rank >= 0)
                out.rank = rank;
            break;
        case Field::Step:
            if (const qlonglong step = value.toLongLong(&ok); ok) {
                out.step = step;
                hasStep = true;
            }
            break;
        case Field::Tag:
            out.tag = canonicalTag(value);
            break;
        case Field::Shape:
            out.shape = parseShape(value);
            break;
        case Field::Tokens:
            if (const qlonglong tokens = value.toLongLong(&ok); ok && tokens >= 0)
                out.tokens = tokens;
            break;
        case Field::Current:
            if (const auto bytes = parseByteSize(value, keyUnit))
                out.currentBytes = *bytes;
            break;
        case Field::Peak:
            if (const auto bytes = parseByteSize(value, keyUnit))
                out.peakBytes = *bytes;
            break;
        case Field::None:
            break;
        }
    }
    if (!hasStep || out.memoryBytes() < 0)
        return false;
    if (out.tag.empty()) {
        for (auto it = bracketTag().globalMatch(line); it.hasNext();) {
            const QString word = it.next().captured(1);
            if (!word.startsWith(QLatin1String("rank"), Qt::CaseInsensitive)) {
                out.tag = canonicalTag(word);
                break;
            }
        }
    }
    // Loggers that write the phase as a plain word: "INFO train | step: 5 | ...".
    static const QRegularExpression phaseWord(
        QStringLiteral(R"((?<![\w./=-])(train|training|eval|evaluation|val|valid|validation|test)(?![\w./=-]))"),
        QRegularExpression::CaseInsensitiveOption);
    if (out.tag.empty()) {
        if (const QRegularExpressionMatch m = phaseWord.match(line); m.hasMatch())
            out.tag = canonicalTag(m.captured(1));
    }
    // Batch × sequence: the tokens of a (batch, sequence, ...) input.
    if (out.tokens < 0 && out.shape.size() >= 2)
        out.tokens = out.shape[0] * out.shape[1];
    else if (out.tokens < 0 && out.shape.size() == 1)
        out.tokens = out.shape[0];
    return true;
}

bool StepLog::holdsReports(const QStringList& paths)
{
    // A look at the start of each file is enough to tell a training log from a readme; read() reads them whole.
    for (const QString& path : paths) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString head = QString::fromUtf8(file.read(1 << 20));
        StepReport report;
        for (QStringView line : QStringView(head).split(QLatin1Char('\n'))) {
            if (parseLine(line, 0, report))
                return true;
        }
    }
    return false;
}

StepLog StepLog::read(const QStringList& paths)
{
    StepLog log;
    log.files = paths;
    for (int f = 0; f < paths.size(); ++f) {
        QFile file(paths[f]);
        if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
            log.errors.emplace_back(paths[f], file.errorString());
            continue;
        }
        // One log per rank: its lines may name no rank, its file name does.
        const int fallback = paths.size() > 1 ? RankName::fromPath(paths[f]).value_or(-1) : -1;
        int lineNumber = 0;
        while (!file.atEnd()) {
            const QString line = QString::fromUtf8(file.readLine());
            ++lineNumber;
            StepReport report;
            if (!parseLine(line, fallback, report) || report.rank < 0) {
                ++log.skippedLines;
                continue;
            }
            report.file = f;
            report.line = lineNumber;
            log.reports.push_back(std::move(report));
        }
    }
    return log;
}

const char* StepDivergence::suspectName(Suspect suspect)
{
    switch (suspect) {
    case InputImbalance:
        return "input_imbalance";
    case BurdenImbalance:
        return "burden_imbalance";
    case Unknown:
        break;
    }
    return "";
}

StepAnalysis StepAnalysis::analyse(const StepLog& log, double thresholdPercent, int64_t minimumBytes)
{
    StepAnalysis a;
    std::map<int, Rank> ranks;
    // (tag, step) groups in order of first appearance: interleaved logs are in time order, and one log per rank
    // keeps its own order.
    std::vector<std::pair<std::string, int64_t>> order;
    std::map<std::pair<std::string, int64_t>, std::map<int, const StepReport*>> groups;
    for (const StepReport& r : log.reports) {
        Rank& rank = ranks[r.rank];
        rank.rank = r.rank;
        ++rank.reports;
        rank.maxPeakBytes = std::max(rank.maxPeakBytes, r.memoryBytes());
        rank.maxTokens = std::max(rank.maxTokens, r.tokens);
        if (std::find(a.tags.begin(), a.tags.end(), r.tag) == a.tags.end())
            a.tags.push_back(r.tag);
        const auto key = std::make_pair(r.tag, r.step);
        auto [it, inserted] = groups.try_emplace(key);
        if (inserted)
            order.push_back(key);
        it->second[r.rank] = &r; // the last report of a rank at a step counts
    }
    for (const auto& [number, rank] : ranks)
        a.ranks.push_back(rank);

    std::vector<int64_t> peaks;
    for (const Rank& r : a.ranks)
        peaks.push_back(r.maxPeakBytes);
    const Spread spread = Spread::of(peaks);
    a.spreadBytes = spread.bytes;
    a.spreadPercent = spread.percent;

    for (const auto& key : order) {
        const std::map<int, const StepReport*>& group = groups[key];
        if (group.size() < 2)
            continue;
        std::optional<StepDivergence> worst;
        for (const auto& [rank, report] : group) {
            std::vector<int64_t> others, otherTokens;
            for (const auto& [otherRank, other] : group) {
                if (otherRank == rank)
                    continue;
                others.push_back(other->memoryBytes());
                if (other->tokens >= 0)
                    otherTokens.push_back(other->tokens);
            }
            const int64_t base = medianOf(others);
            const int64_t excess = report->memoryBytes() - base;
            if (excess < minimumBytes
                || double(excess) * 100.0 <= thresholdPercent * double(std::max<int64_t>(base, 1)))
                continue;
            if (worst && excess <= worst->peakBytes - worst->othersMedianBytes)
                continue;
            StepDivergence d;
            d.rank = rank;
            d.step = key.second;
            d.tag = key.first;
            d.peakBytes = report->memoryBytes();
            d.othersMedianBytes = base;
            d.tokens = report->tokens;
            d.othersMedianTokens = otherTokens.empty() ? -1 : medianOf(otherTokens);
            // More input than the others (beyond rounding) means input imbalance; the same or less, extra work.
            if (d.tokens >= 0 && d.othersMedianTokens >= 0)
                d.suspect = double(d.tokens) > double(d.othersMedianTokens) * 1.01 ? StepDivergence::InputImbalance
                                                                                   : StepDivergence::BurdenImbalance;
            worst = d;
        }
        if (worst) {
            a.divergence = worst;
            break;
        }
    }
    return a;
}

} // namespace RankScope
