// SPDX-License-Identifier: MIT
#include "stacktext.h"

#include "formatting.h"
#include "verdicttext.h"

#include <QCoreApplication>

#include <algorithm>
#include <span>

namespace RankScope::StackText {

namespace {

// Frames as views show them: in the order called, each folded run moved behind the shown frames (so that a report
// that prints the shown frames reads them in order), its place kept in `folds`.
Frames inCallOrder(const std::vector<Frame>& recorded, std::span<const FrameKind> kinds)
{
    std::vector<bool> unsymbolised;
    unsymbolised.reserve(recorded.size());
    for (const Frame& f : recorded)
        unsymbolised.push_back(StackOrder::isUnsymbolised(f.file, f.line));
    const std::vector<StackOrder::Run> runs = StackOrder::foldedRuns(kinds, unsymbolised);
    const size_t start = StackOrder::readingStart(kinds);
    // Dimming every frame of a stack with none of the user's would tell nothing.
    const bool own = std::any_of(kinds.begin(), kinds.end(), [](FrameKind k) { return !StackOrder::isOthers(k); });
    Frames out;
    std::vector<Frame> folded;
    std::vector<bool> foldedOwn;
    size_t run = 0;
    for (size_t i = 0; i < recorded.size(); ++i) {
        if (run < runs.size() && i >= runs[run].first && i < size_t(runs[run].first) + runs[run].count) {
            if (i == runs[run].first)
                out.folds.push_back({ out.frames.size(), runs[run].count });
            folded.push_back(recorded[i]);
            foldedOwn.push_back(kinds[i] == FrameKind::Yours);
            if (i + 1 == size_t(runs[run].first) + runs[run].count)
                ++run;
            continue;
        }
        // Where reading starts is never folded away: a stack of native frames alone starts at its first symbolised
        // frame then.
        if (i <= start || out.frames.empty())
            out.start = out.frames.size();
        out.others.push_back(own && StackOrder::isOthers(kinds[i]));
        out.own.push_back(kinds[i] == FrameKind::Yours);
        out.frames.push_back(recorded[i]);
    }
    out.folded = folded.size();
    out.frames.insert(out.frames.end(), folded.begin(), folded.end());
    out.own.insert(out.own.end(), foldedOwn.begin(), foldedOwn.end());
    return out;
}

QString frameLine(const Frame& f)
{
    const QString path = Formatting::text(f.file);
    const qsizetype slash = std::max(path.lastIndexOf(QLatin1Char('/')), path.lastIndexOf(QLatin1Char('\\')));
    QString text = QStringLiteral("%1  %2:%3").arg(Formatting::text(f.name), path.mid(slash + 1)).arg(f.line);
    if (slash > 0)
        text += QStringLiteral("  (%1)").arg(path.left(slash));
    return text;
}

// One line per frame, repeats folded.
QStringList frameLines(std::span<const Frame> frames)
{
    QStringList out;
    size_t i = 0;
    while (i < frames.size()) {
        size_t repeat = 1;
        while (i + repeat < frames.size() && frames[i + repeat] == frames[i])
            ++repeat;
        QString text = frameLine(frames[i]);
        if (repeat > 1)
            text += QCoreApplication::translate("StackText", "  ×%1 (repeated)").arg(repeat);
        out.append(text);
        i += repeat;
    }
    return out;
}

// A line of the shown stack before any is cut: a frame (repeats folded) or a folded run.
struct Entry
{
    QString text;
    size_t frames = 1;
    int fold = -1; ///< the run it folds, by index into Frames::folds
    bool start = false;
    bool other = false;
};

std::vector<Entry> entriesOf(const Frames& f)
{
    const size_t shown = f.frames.size() - f.folded;
    std::vector<Entry> entries;
    size_t fold = 0;
    const auto foldsAt = [&](size_t at) {
        for (; fold < f.folds.size() && f.folds[fold].at == at; ++fold) {
            const size_t n = f.folds[fold].count;
            entries.push_back({ n == 1 ? QCoreApplication::translate("StackText", "+1 native frame")
                                       : QCoreApplication::translate("StackText", "+%1 native frames").arg(n),
                n, int(fold), false, true });
        }
    };
    size_t i = 0;
    while (i < shown) {
        foldsAt(i);
        size_t repeat = 1;
        // Repeats meet only with no fold between them.
        while (i + repeat < shown && f.frames[i + repeat] == f.frames[i]
            && (fold >= f.folds.size() || f.folds[fold].at > i + repeat))
            ++repeat;
        QString text = frameLine(f.frames[i]);
        if (repeat > 1)
            text += QCoreApplication::translate("StackText", "  ×%1 (repeated)").arg(repeat);
        const bool start = !f.others.empty() && f.start >= i && f.start < i + repeat;
        entries.push_back({ text, repeat, -1, start, i < f.others.size() && f.others[i] });
        i += repeat;
    }
    foldsAt(shown);
    return entries;
}

} // namespace

Frames siteFrames(const SiteTable& sites, SiteId site)
{
    std::vector<Frame> recorded;
    std::vector<FrameKind> kinds;
    for (const SiteTable::SiteFrame& f : sites.frames(site)) {
        recorded.push_back({ *f.filename, *f.name, f.line });
        kinds.push_back(f.kind);
    }
    return inCallOrder(recorded, kinds);
}

Frames stackFrames(const Snapshot& snapshot, StackId stack, bool shown, std::span<const std::string> ownPackages)
{
    std::vector<Frame> frames;
    std::vector<FrameKind> kinds;
    std::vector<std::string_view> files;
    std::vector<std::string_view> names;
    for (FrameId id : snapshot.stacks.frames(stack)) {
        const RankScope::Frame& f = snapshot.frames.frame(id);
        const std::string_view name = snapshot.strings.view(f.name);
        const std::string_view file = snapshot.strings.view(f.filename);
        if (shown && SiteTable::isViewerNoise(name, file))
            continue;
        frames.push_back({ file, name, f.line });
        kinds.push_back(StackOrder::kindOf(file, f.line));
        files.push_back(file);
        names.push_back(name);
    }
    if (!shown)
        return { std::move(frames), 0, {}, 0, {} };
    StackOrder::markEntry(kinds, files, names);
    StackOrder::markOwn(kinds, files, ownPackages);
    return inCallOrder(frames, kinds);
}

QStringList Lines::unfolded() const
{
    if (folded.isEmpty())
        return lines;
    QStringList out;
    qsizetype next = 0;
    for (int i = 0; i < lines.size(); ++i) {
        const qsizetype fold = foldLines.indexOf(i);
        if (fold < 0) {
            out.append(lines[i]);
            continue;
        }
        out += folded.mid(next, foldSizes[fold]);
        next += foldSizes[fold];
    }
    return out;
}

Lines lines(const Frames& frames, int maxLines)
{
    const std::vector<Entry> entries = entriesOf(frames);
    size_t begin = 0;
    size_t end = entries.size();
    const bool cut = maxLines >= 0 && entries.size() > size_t(maxLines);
    Lines out;
    if (cut) {
        // The window around where reading starts, with the line it called above it.
        const auto start = std::find_if(entries.begin(), entries.end(), [](const Entry& e) { return e.start; });
        const size_t at = start == entries.end() ? 0 : size_t(start - entries.begin());
        if (maxLines >= 3 && at + 1 >= size_t(maxLines)) {
            begin = at - 1;
            size_t inner = 0;
            for (size_t i = 0; i < begin; ++i)
                inner += entries[i].frames;
            out.lines.append(inner == 1 ? QCoreApplication::translate("StackText", "… 1 inner frame")
                                        : QCoreApplication::translate("StackText", "… %1 inner frames").arg(inner));
        }
        end = std::min(entries.size(), begin + size_t(maxLines) - size_t(out.lines.size()));
    }
    for (size_t i = begin; i < end; ++i) {
        const Entry& e = entries[i];
        if (e.start)
            out.start = int(out.lines.size());
        if (e.other)
            out.dimmed.append(int(out.lines.size()));
        if (e.fold >= 0 && !cut) {
            const Frames::Fold& fold = frames.folds[size_t(e.fold)];
            size_t first = frames.frames.size() - frames.folded;
            for (int k = 0; k < e.fold; ++k)
                first += frames.folds[size_t(k)].count;
            const QStringList run = frameLines(std::span<const Frame>(frames.frames).subspan(first, fold.count));
            out.foldLines.append(int(out.lines.size()));
            out.foldSizes.append(int(run.size()));
            out.folded += run;
        }
        out.lines.append(e.text);
    }
    if (end < entries.size()) {
        size_t rest = 0;
        for (size_t i = end; i < entries.size(); ++i)
            rest += entries[i].frames;
        out.lines.append(rest == 1 ? QCoreApplication::translate("StackText", "… 1 more frame")
                                   : QCoreApplication::translate("StackText", "… %1 more frames").arg(rest));
    }
    return out;
}

Description describeFinding(const Comparison& c, size_t finding, int otherRank)
{
    const Finding& f = c.findings()[finding];
    Description d;
    d.header = QCoreApplication::translate("StackText",
        "Rank %1 · %2 · +%3 over the baseline\n%4 in %n allocation(s) here, against %5", nullptr, int(f.rankCount))
                   .arg(f.rank)
                   .arg(VerdictText::findingKind(f.kind, VerdictText::Translated), Formatting::bytes(f.excessBytes),
                       Formatting::bytes(f.rankBytes), Formatting::bytes(f.baselineBytes));
    if (f.kind != Finding::OnlyOnRank && f.baselineCount == 0) {
        const int others = f.ranksWithSite - 1;
        d.header += QCoreApplication::translate("StackText", " (%n other rank(s) allocate here too)", nullptr, others);
    }
    d.frames = lines(siteFrames(c.sites(), f.site));
    if (const int index = c.rankIndex(f.rank); index >= 0)
        d.allFrames = lines(stackFrames(c.history(size_t(index)).snapshot(), f.stack, false));
    if (const int other = c.rankIndex(otherRank); other >= 0 && otherRank != f.rank) {
        const auto [bytes, count] = c.siteTotal(f.site, size_t(other));
        d.footer = count == 0
            ? QCoreApplication::translate("StackText", "Rank %1 has no allocation at this site.").arg(otherRank)
            : QCoreApplication::translate(
                "StackText", "Rank %1 holds %2 in %n allocation(s) at this site.", nullptr, int(count))
                  .arg(otherRank)
                  .arg(Formatting::bytes(bytes));
    }
    return d;
}

Description describeOom(const DeviceHistory& h, int rank, const OomMarker& oom)
{
    Description d;
    d.header = QCoreApplication::translate(
        "StackText", "Rank %1 ran out of memory at event %2\nasking for %3, with %4 free on the device")
                   .arg(rank)
                   .arg(oom.event)
                   .arg(Formatting::bytes(oom.requestedBytes), Formatting::bytes(oom.deviceFreeBytes));
    d.frames = lines(stackFrames(h.snapshot(), oom.stack, true));
    d.allFrames = lines(stackFrames(h.snapshot(), oom.stack, false));
    return d;
}

} // namespace RankScope::StackText
