// SPDX-License-Identifier: MIT
#include "stacktext.h"

#include "formatting.h"
#include "verdicttext.h"

#include <QCoreApplication>

#include <span>

namespace RankScope::StackText {

namespace {

// Frames in the order views show them, from their kinds (StackOrder), the native run last.
Frames inShownOrder(const std::vector<Frame>& recorded, std::span<const FrameKind> kinds)
{
    Frames shown;
    for (uint32_t i : StackOrder::shown(kinds))
        shown.frames.push_back(recorded[i]);
    // Native frames are folded only below Python frames: a stack of native frames alone is shown as it is.
    const size_t python = StackOrder::pythonCount(kinds);
    shown.folded = python > 0 ? shown.frames.size() - python : 0;
    return shown;
}

// One line per frame, repeats folded, up to `maxLines` (none when negative); how many frames it took.
size_t appendLines(QStringList& out, std::span<const Frame> frames, int maxLines)
{
    size_t i = 0;
    while (i < frames.size() && (maxLines < 0 || out.size() < maxLines)) {
        size_t repeat = 1;
        while (i + repeat < frames.size() && frames[i + repeat] == frames[i])
            ++repeat;
        const Frame& f = frames[i];
        const QString path = Formatting::text(f.file);
        const qsizetype slash = std::max(path.lastIndexOf(QLatin1Char('/')), path.lastIndexOf(QLatin1Char('\\')));
        QString text = QStringLiteral("%1  %2:%3").arg(Formatting::text(f.name), path.mid(slash + 1)).arg(f.line);
        if (slash > 0)
            text += QStringLiteral("  (%1)").arg(path.left(slash));
        if (repeat > 1)
            text += QCoreApplication::translate("StackText", "  ×%1 (repeated)").arg(repeat);
        out.append(text);
        i += repeat;
    }
    return i;
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
    return inShownOrder(recorded, kinds);
}

Frames stackFrames(const Snapshot& snapshot, StackId stack, bool shown)
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
        return { std::move(frames), 0 };
    StackOrder::markEntry(kinds, files, names);
    return inShownOrder(frames, kinds);
}

QStringList Lines::unfolded() const
{
    if (folded.isEmpty())
        return lines;
    return lines.mid(0, lines.size() - 1) + folded;
}

Lines lines(const Frames& frames, int maxLines)
{
    const std::span<const Frame> all(frames.frames);
    const std::span<const Frame> python = all.first(all.size() - frames.folded);
    Lines out;
    const size_t taken = appendLines(out.lines, python, maxLines);
    if (taken < python.size()) {
        const int rest = int(all.size() - taken);
        out.lines.append(rest == 1 ? QCoreApplication::translate("StackText", "… 1 more frame")
                                   : QCoreApplication::translate("StackText", "… %1 more frames").arg(rest));
    } else if (frames.folded > 0) {
        out.lines.append(frames.folded == 1
                ? QCoreApplication::translate("StackText", "+1 native frame")
                : QCoreApplication::translate("StackText", "+%1 native frames").arg(frames.folded));
    }
    if (frames.folded > 0 && taken == python.size())
        appendLines(out.folded, all.last(frames.folded), -1);
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
