// SPDX-License-Identifier: MIT
#include "stacktext.h"

#include "formatting.h"
#include "verdicttext.h"

#include <QCoreApplication>

namespace RankScope::StackText {

std::vector<Frame> siteFrames(const SiteTable& sites, SiteId site)
{
    std::vector<Frame> frames;
    for (const SiteTable::SiteFrame& f : sites.frames(site))
        frames.push_back({ *f.filename, *f.name, f.line });
    return frames;
}

std::vector<Frame> stackFrames(const Snapshot& snapshot, StackId stack, bool dropViewerNoise)
{
    std::vector<Frame> frames;
    for (FrameId id : snapshot.stacks.frames(stack)) {
        const RankScope::Frame& f = snapshot.frames.frame(id);
        const std::string_view name = snapshot.strings.view(f.name);
        const std::string_view file = snapshot.strings.view(f.filename);
        if (dropViewerNoise && SiteTable::isViewerNoise(name, file))
            continue;
        frames.push_back({ file, name, f.line });
    }
    return frames;
}

QStringList lines(const std::vector<Frame>& frames, int maxLines)
{
    QStringList out;
    size_t i = 0;
    while (i < frames.size()) {
        size_t repeat = 1;
        while (i + repeat < frames.size() && frames[i + repeat] == frames[i])
            ++repeat;
        if (maxLines >= 0 && out.size() >= maxLines) {
            const int rest = int(frames.size() - i);
            out.append(rest == 1 ? QCoreApplication::translate("StackText", "… 1 more frame")
                                 : QCoreApplication::translate("StackText", "… %1 more frames").arg(rest));
            break;
        }
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
