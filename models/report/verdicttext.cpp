// SPDX-License-Identifier: MIT
#include "verdicttext.h"

#include "formatting.h"
#include "phrase.h"

#include <QStringList>

#include <algorithm>
#include <optional>
#include <string>

namespace RankScope {

namespace {

QString say(const char* source, VerdictText::Language language)
{
    return language == VerdictText::Translated ? VerdictText::tr(source) : QString::fromUtf8(source);
}

QString percent(int64_t part, int64_t whole)
{
    if (whole <= 0)
        return QStringLiteral("100%");
    const double p = 100.0 * double(part) / double(whole);
    return QString::number(p, 'f', p < 10 ? 1 : 0) + QLatin1Char('%');
}

// The verdict's threshold as the user gave it: "2%", "0.5%".
QString thresholdText(const Verdict& v)
{
    return QString::number(v.thresholdPercent, 'g', 6) + QLatin1Char('%');
}

// How close ranks are, as a bound: "0.1%" where they differ by less (never "within 0.0%").
QString within(int64_t part, int64_t whole)
{
    if (whole > 0 && 1000.0 * double(part) < double(whole))
        return QStringLiteral("0.1%");
    return percent(part, whole);
}

// A comparison point in the user's language: the command line's names ("event:5588", "step:3:end") are the English
// source texts, so the CLI, its JSON, reports and pictures read as before, and a translation says it in words.
QString pointWords(const std::string& point, VerdictText::Language language)
{
    return language == VerdictText::Translated ? Phrase::pointWords(point) : QString::fromStdString(point);
}

// "at its peak" or "at step:3", and "the median of the other ranks" or "rank 2".
QString at(const Verdict& v, VerdictText::Language language)
{
    const Moment& m = v.moment;
    if (m.rank >= 0 && m.reason == Moment::MidStep)
        return say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                       "mid-step, where a rank holds the most beyond its baseline (every rank at the same moment as "
                       "rank %1's event %2)"),
            language)
            .arg(m.rank)
            .arg(m.event);
    if (m.rank >= 0 && m.reason == Moment::OutOfMemory)
        return say(QT_TRANSLATE_NOOP(
                       "RankScope::VerdictText", "at rank %1's OOM (every rank at the same moment of its trace)"),
            language)
            .arg(m.rank);
    if (m.rank >= 0 && m.reason == Moment::Picked)
        return say(QT_TRANSLATE_NOOP(
                       "RankScope::VerdictText", "at rank %1's event %2 (every rank at the same moment of its trace)"),
            language)
            .arg(m.rank)
            .arg(m.event);
    if (v.point == "aligned" && !v.layout.empty())
        return say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                       "at the highest peak of its replica group (every replica at the same moment of its trace)"),
            language);
    if (v.point == "aligned")
        return say(QT_TRANSLATE_NOOP(
                       "RankScope::VerdictText", "at the highest peak (every rank at the same moment of its trace)"),
            language);
    return v.point == "peak"
        ? say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "at its peak"), language)
        : say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "at %1"), language).arg(pointWords(v.point, language));
}

QString against(const Verdict& v, VerdictText::Language language)
{
    if (v.baselineRank >= 0)
        return say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "rank %1"), language).arg(v.baselineRank);
    return v.layout.empty()
        ? say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "the median of the other ranks"), language)
        : say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "the median of its replicas"), language);
}

QString ranks(const std::vector<int>& list)
{
    QStringList parts;
    for (int r : list)
        parts << QString::number(r);
    return parts.join(QLatin1String(", "));
}

// The bytes of each category held, in the categories' order: "activations 11.1 GiB (85%), parameters 1 GiB (8%)".
QString categoryList(const CategoryBytes& bytes, int64_t whole, VerdictText::Language language)
{
    QStringList parts;
    for (int c = 0; c < CategoryCount; ++c) {
        if (bytes[size_t(c)] > 0)
            parts << VerdictText::category(Category(c), language) + QLatin1Char(' ')
                    + Formatting::bytes(bytes[size_t(c)]) + QLatin1String(" (") + percent(bytes[size_t(c)], whole)
                    + QLatin1Char(')');
    }
    return parts.join(QLatin1String(", "));
}

} // namespace

QString VerdictText::siteLabel(std::string_view label, Language language)
{
    return label == SiteTable::NoStackLabel
        ? say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "<no stack recorded>"), language)
        : QString::fromUtf8(label.data(), qsizetype(label.size()));
}

namespace {

// Where a failed request was asked for, when its stack was recorded.
QString requestSite(const Verdict& v, VerdictText::Language language)
{
    return v.oomSite.empty()
        ? say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "(no stack recorded)"), language)
        : say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "at %1"), language).arg(QString::fromStdString(v.oomSite));
}

// Ranks out of memory whose failed requests differ: each group once with its request, the one that stands out first.
QString oomGroups(const Verdict& v, VerdictText::Language language)
{
    QStringList groups;
    for (const Verdict::OomGroup& g : v.oomGroups) {
        groups << (g.ranks.size() > 1
                ? say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "ranks %1 alike asked for %2"), language)
                      .arg(Formatting::ranks(g.ranks), Formatting::bytes(g.requestedBytes))
                : say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "rank %1 asked for %2"), language)
                      .arg(QString::number(g.figuresRank), Formatting::bytes(g.requestedBytes)));
    }
    return groups.join(QLatin1String("; "));
}

// What the snapshot cannot tell about the device's memory, and what the total given shows.
QString deviceTotal(const Verdict& v, VerdictText::Language language)
{
    using Formatting::bytes;
    if (v.deviceMemoryBytes > 0 && v.deviceMemoryBytes < v.deviceSeenBytes) {
        return say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                       "The device memory given (%1) is less than the %2 the files show in use or free (PyTorch's "
                       "reserve and the free memory at the OOM, or the most PyTorch reserved at once): check it."),
            language)
            .arg(bytes(v.deviceMemoryBytes), bytes(v.deviceSeenBytes));
    }
    if (v.deviceMemoryBytes > 0 && v.kind == Verdict::OverCapacity) {
        return say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                       "Of the device's %1, %2 is neither PyTorch's reserve nor free: no more than the %3 a CUDA "
                       "context and NCCL usually take."),
            language)
            .arg(bytes(v.deviceMemoryBytes), bytes(v.outsideBytes), bytes(Verdict::contextAllowanceBytes));
    }
    if (v.deviceMemoryBytes > 0)
        return say(
            QT_TRANSLATE_NOOP("RankScope::VerdictText", "Of the device's %1, that is %2 outside PyTorch."), language)
            .arg(bytes(v.deviceMemoryBytes), bytes(v.outsideBytes));
    if (v.kind == Verdict::OutsideAllocator) // its evidence is the replicas: the total would only count it
        return say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                       "The snapshot does not record the device's total memory: give it (--device-memory SIZE, or "
                       "Compare → GPU Memory…) to count what is held outside."),
            language);
    return say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                   "The snapshot does not record the device's total memory: the files show at least %1 of it in "
                   "PyTorch's reserve or free, and a CUDA context and NCCL usually take up to %2 more; if the GPU has "
                   "more than that, something outside PyTorch holds the rest (give --device-memory SIZE, or Compare "
                   "→ GPU Memory…, to count it)."),
        language)
        .arg(bytes(v.deviceSeenBytes), bytes(Verdict::contextAllowanceBytes));
}

// Where ranks use several devices, which one the verdict is about.
QString onDevice(const Verdict& v, VerdictText::Language language)
{
    return v.device < 0 ? QString()
                        : say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "On cuda:%1: "), language).arg(v.device);
}

// The verdict's top sites: "label (+bytes, kind)" for an excess, "label (bytes)" for what one rank holds alone.
QString siteList(const Verdict& v, VerdictText::Language language, bool excess)
{
    QStringList sites;
    for (const Verdict::TopSite& site : v.topSites) {
        const QString label = VerdictText::siteLabel(site.label, language);
        if (excess) {
            sites << label + QLatin1String(" (+") + Formatting::bytes(site.excessBytes) + QLatin1String(", ")
                    + VerdictText::findingKind(Finding::Kind(site.kind), language) + QLatin1Char(')');
        } else {
            sites << label + QLatin1String(" (") + Formatting::bytes(site.excessBytes) + QLatin1Char(')');
        }
    }
    return sites.join(QLatin1String("; "));
}

} // namespace

QString VerdictText::title(const Verdict& v, Language language)
{
    if (v.rankCount < 2 && v.kind != Verdict::Growth && v.oomRanks.empty())
        return say(QT_TR_NOOP("One rank: nothing to compare it with"), language);
    switch (v.kind) {
    case Verdict::Balanced:
        return say(QT_TR_NOOP("Balanced: no rank holds notably more than the others"), language);
    case Verdict::BurdenImbalance:
        if (v.rank < 0 && !v.groupRanks.empty())
            return say(QT_TR_NOOP("Burden imbalance on ranks %1: they do work the others do not"), language)
                .arg(Formatting::ranks(v.groupRanks));
        return say(QT_TR_NOOP("Burden imbalance on rank %1: it does work the others do not"), language).arg(v.rank);
    case Verdict::InputImbalance:
        if (v.rank < 0 && !v.groupRanks.empty())
            return say(QT_TR_NOOP("Input imbalance on ranks %1: their tensors are larger or more numerous"), language)
                .arg(Formatting::ranks(v.groupRanks));
        return say(QT_TR_NOOP("Input imbalance on rank %1: its tensors are larger or more numerous"), language)
            .arg(v.rank);
    case Verdict::OutsideAllocator:
        if (v.oomRanks.size() > 1)
            return say(QT_TR_NOOP("Ranks %1 run out of memory held outside PyTorch's allocator"), language)
                .arg(Formatting::ranks(v.oomRanks));
        return say(QT_TR_NOOP("Rank %1 runs out of memory held outside PyTorch's allocator"), language).arg(v.rank);
    case Verdict::OverCapacity:
        if (!v.oomGroups.empty())
            return say(QT_TR_NOOP("Over capacity: ranks %1 ran out of memory, not alike: %2"), language)
                .arg(Formatting::ranks(v.oomRanks), oomGroups(v, language));
        if (v.oomRanks.size() > 1)
            return say(QT_TR_NOOP("Over capacity: ranks %1 ran out of memory alike, no rank stands out"), language)
                .arg(Formatting::ranks(v.oomRanks));
        return say(QT_TR_NOOP("Over capacity: rank %1 needs more memory than its GPU offers"), language)
            .arg(v.figuresRank);
    case Verdict::StrayDevice:
        return say(QT_TR_NOOP("Other ranks' memory on the GPU of rank %1 (cuda:%2)"), language)
            .arg(v.rank)
            .arg(v.device);
    case Verdict::Fragmentation:
        if (v.oomRanks.size() > 1)
            return say(QT_TR_NOOP("Ranks %1 ran out of memory in fragmented reserves"), language)
                .arg(Formatting::ranks(v.oomRanks));
        return say(QT_TR_NOOP("Rank %1 ran out of memory in a fragmented reserve"), language).arg(v.rank);
    case Verdict::Growth:
        return say(QT_TR_NOOP("Growth on rank %1: it holds more at every step"), language).arg(v.rank);
    case Verdict::ModelParallelImbalance:
        return v.group.empty()
            ? say(QT_TR_NOOP("Model-parallel imbalance on rank %1: it holds more parameters, gradients or optimizer "
                             "state"),
                language)
                  .arg(v.rank)
            : say(QT_TR_NOOP("Model-parallel imbalance: group %1 (ranks %2) holds more model state"), language)
                  .arg(QString::fromStdString(v.group), ranks(v.groupRanks));
    }
    return {};
}

QString VerdictText::category(Category category, Language language)
{
    if (language == English)
        return QString::fromLatin1(categoryName(category));
    switch (category) {
    case Category::Parameter:
        return say(QT_TR_NOOP("parameters"), language);
    case Category::Gradient:
        return say(QT_TR_NOOP("gradients"), language);
    case Category::OptimizerState:
        return say(QT_TR_NOOP("optimizer state"), language);
    case Category::Activation:
        return say(QT_TR_NOOP("activations"), language);
    case Category::Temporary:
        return say(QT_TR_NOOP("temporaries"), language);
    case Category::Other:
        break;
    }
    return say(QT_TR_NOOP("other"), language);
}

QString VerdictText::explanation(const Verdict& v, Language language, bool withMargin)
{
    QString text = v.kind == Verdict::StrayDevice || v.rankCount < 2 ? explain(v, language)
                                                                     : onDevice(v, language) + explain(v, language);
    // Why this moment and not the highest peak.
    if (v.moment.rank >= 0 && v.moment.reason == Moment::MidStep) {
        text += QLatin1Char(' ')
            + say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                      "At the highest peak the ranks are alike (the most above its baseline is rank %1, %2 more, "
                      "under the %3 threshold; the peak is mostly %4), so they were compared where one holds the most "
                      "beyond its baseline."),
                language)
                  .arg(QString::number(v.peakOutlierRank), Formatting::bytes(v.peakOutlierExcessBytes),
                      thresholdText(v), category(v.peakCategory, language));
        if (v.peakCategory == Category::OptimizerState)
            text += QLatin1Char(' ')
                + say(
                    QT_TRANSLATE_NOOP("RankScope::VerdictText",
                        "Later steps keep the optimizer state that this step creates at its peak, and then peak where "
                        "the ranks differ."),
                    language);
    }
    if (v.kind == Verdict::Growth && v.growthUnderThreshold)
        text += QLatin1Char(' ')
            + say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                      "Its growth over the steps is under the %1 threshold, but it is what sets rank %2 apart from "
                      "the others (%3 more than %4)."),
                language)
                  .arg(thresholdText(v), QString::number(v.rank), Formatting::bytes(v.outlierExcessBytes),
                      against(v, language));
    // What the files show holding that GPU's memory besides the rank's own allocations.
    QStringList found;
    for (const Verdict::Suspect& s : v.suspects) {
        found << (s.kind == Verdict::Suspect::ForeignDevice
                ? (s.ranks.size() == 1
                        ? say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "rank %1 holds %2 there"), language)
                        : say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "ranks %1 hold %2 there"), language))
                      .arg(ranks(s.ranks), Formatting::bytes(s.bytes))
                : say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "%1 is in private pools (CUDA graphs, MemPool)"),
                    language)
                      .arg(Formatting::bytes(s.bytes)));
    }
    if (!found.isEmpty())
        text += QLatin1Char(' ')
            + say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "Suspects the files show: %1."), language)
                  .arg(found.join(QLatin1String("; ")));
    // A rank an imbalance or a growth names ran out of memory: the allocation that failed.
    if (v.oomRequestedBytes > 0 && v.oomRanks.empty())
        text += QLatin1Char(' ')
            + say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "Rank %1 ran out of memory asking for %2 %3."), language)
                  .arg(QString::number(v.rank), Formatting::bytes(v.oomRequestedBytes), requestSite(v, language));
    // How close that out-of-memory came, from the same figures the JSON's margin gives.
    if (const QString close = withMargin ? margin(v.margin, language) : QString(); !close.isEmpty())
        text += QLatin1Char(' ') + close;
    if (!v.heavierGroup.empty()) {
        text += QLatin1Char(' ')
            + say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                      "Groups differ by design: %1 holds %2 more than the median of the other groups, mostly %3."),
                language)
                  .arg(QString::fromStdString(v.heavierGroup), Formatting::bytes(v.groupExcessBytes),
                      category(v.groupExcessCategory, language));
    }
    if (!v.settingDifferences.empty()) {
        QStringList differences;
        for (const Verdict::SettingDifference& d : v.settingDifferences)
            differences << say(
                QT_TRANSLATE_NOOP("RankScope::VerdictText", "rank %1 ran with %2 %3 (most: %4)"), language)
                               .arg(QString::number(d.rank), QString::fromStdString(d.setting),
                                   QString::fromStdString(d.value), QString::fromStdString(d.usual));
        text += QLatin1Char(' ')
            + say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                      "Allocator settings differ between ranks: %1; a node started without the job's "
                      "PYTORCH_CUDA_ALLOC_CONF (or PYTORCH_ALLOC_CONF) allocates differently."),
                language)
                  .arg(differences.join(QLatin1String("; ")));
    }
    if (!v.layout.empty()) {
        text += QLatin1Char(' ')
            + (v.layoutSuggested
                    ? say(QT_TRANSLATE_NOOP("RankScope::VerdictText",
                              "Ranks were compared with their replicas in the layout %1, guessed from the files "
                              "(groups of ranks run different parts of the model); give the layout to confirm or "
                              "correct it."),
                        language)
                    : say(QT_TRANSLATE_NOOP(
                              "RankScope::VerdictText", "Ranks were compared with their replicas in the layout %1."),
                        language))
                  .arg(QString::fromStdString(v.layout));
    }
    return text;
}

QString VerdictText::explain(const Verdict& v, Language language)
{
    using Formatting::bytes;
    if (v.kind == Verdict::Growth) {
        QStringList steps;
        for (int64_t step : v.steps)
            steps << QString::number(step);
        // Whether the others grow too, where there are others.
        const QString who = v.growthRanks.size() == 1 && v.rankCount > 1
            ? say(QT_TR_NOOP("Only rank %1 grows."), language).arg(v.rank) + QLatin1Char(' ')
            : v.rankCount > 1 ? say(QT_TR_NOOP("Ranks %1 grow."), language).arg(ranks(v.growthRanks)) + QLatin1Char(' ')
                              : QString();
        return say(QT_TR_NOOP("Rank %1 holds %2 (%3) more %4 than at the same moment of the step before, and more at "
                              "every step (steps %5: %6 in all), at sites that grow at every step: tensors kept from "
                              "one step to the next. %7Top sites: %8."),
            language)
            .arg(QString::number(v.rank), bytes(v.excessBytes), percent(v.excessBytes, v.baselineBytes),
                at(v, language), steps.join(QLatin1String(", ")), bytes(v.totalGrowthBytes), who,
                siteList(v, language, true));
    }
    if (v.rankCount < 2 && v.oomRanks.empty() && v.topSites.empty())
        return say(QT_TR_NOOP("Only one rank: nothing to compare it with."), language);
    if (v.rankCount < 2 && v.oomRanks.empty()) {
        return say(QT_TR_NOOP("Only one rank: rank %1 holds %2 %3, the most at %4. Open the other ranks' snapshots "
                              "with it to compare them."),
            language)
            .arg(QString::number(v.rank), bytes(v.heldBytes), at(v, language), siteList(v, language, false));
    }
    switch (v.kind) {
    case Verdict::OutsideAllocator: {
        const QString who = v.oomRanks.size() > 1
            ? say(QT_TR_NOOP("ranks %1"), language).arg(Formatting::ranks(v.oomRanks))
            : say(QT_TR_NOOP("rank %1"), language).arg(v.figuresRank);
        const QString failed = say(QT_TR_NOOP("%1 ran out of memory asking for %2 %3 with %4 reserved by PyTorch and "
                                              "only %5 free on the device"),
            language)
                                   .arg(who, bytes(v.oomRequestedBytes), requestSite(v, language),
                                       bytes(v.oomReservedBytes), bytes(v.oomDeviceFreeBytes));
        if (v.evidence == Verdict::DeviceTotal) {
            return say(QT_TR_NOOP("Of the device's %1, %2 is neither PyTorch's reserve nor free: more than the %3 a "
                                  "CUDA context and NCCL usually take, so something outside PyTorch's caching "
                                  "allocator holds it. %4."),
                language)
                .arg(bytes(v.deviceMemoryBytes), bytes(v.outsideBytes), bytes(Verdict::contextAllowanceBytes),
                    failed.at(0).toUpper() + failed.mid(1));
        }
        return say(QT_TR_NOOP("Allocations agree across ranks within %1 and %2 did the same without running out of "
                              "memory, yet %3: the rest of that GPU is held outside PyTorch's caching allocator."),
                   language)
                   .arg(within(std::abs(v.outlierExcessBytes), v.baselineBytes),
                       (v.fittingRanks.size() > 1 ? say(QT_TR_NOOP("ranks %1"), language)
                                                  : say(QT_TR_NOOP("rank %1"), language))
                           .arg(Formatting::ranks(v.fittingRanks)),
                       failed)
            + QLatin1Char(' ') + deviceTotal(v, language);
    }
    case Verdict::OverCapacity: {
        QString alike = v.oomRanks.size() > 1
            ? say(QT_TR_NOOP("Ranks %1 ran out of memory holding about the same (within %2 of each other)"), language)
                  .arg(Formatting::ranks(v.oomRanks), within(std::abs(v.outlierExcessBytes), v.baselineBytes))
            : say(QT_TR_NOOP("Rank %1 ran out of memory"), language).arg(v.figuresRank);
        // Replicas that hold the same but never got as far: they neither show that it fits nor that it does not.
        if (!v.unreachedRanks.empty())
            alike += say(QT_TR_NOOP("; ranks %1 hold about the same but never reached the allocation that failed "
                                    "(their traces end before it, or a digest cannot show it), so whether it fits "
                                    "there the files cannot tell;"),
                language)
                         .arg(Formatting::ranks(v.unreachedRanks));
        else if (v.rankCount > 1)
            alike += say(QT_TR_NOOP(", and every rank doing the same work ran out of memory:"), language);
        else
            alike += QLatin1Char(':');
        const QString figures = !v.oomGroups.empty()
            ? say(QT_TR_NOOP("Their failed requests differ (%1). At its OOM rank %2 holds %3"), language)
                  .arg(oomGroups(v, language), QString::number(v.figuresRank), bytes(v.heldBytes))
            : v.oomRanks.size() > 1 ? say(QT_TR_NOOP("At its OOM rank %1 (the others alike) holds %2"), language)
                                          .arg(QString::number(v.figuresRank), bytes(v.heldBytes))
                                    : say(QT_TR_NOOP("At its OOM it holds %1"), language).arg(bytes(v.heldBytes));
        // As the margin tells it: not at all, not as the allocator laid it out, or not within the process's limit.
        const char* fit = v.margin.outcome == Verdict::Margin::NotInOnePiece
            ? QT_TR_NOOP("%1 nothing in the files shows memory held elsewhere, so the job does not fit as the "
                         "allocator laid it out. %2: %3. It asked for %4 more %5. Top sites: %6.")
            : v.margin.outcome == Verdict::Margin::NotReached
            ? QT_TR_NOOP("%1 nothing in the files shows memory held elsewhere, so the job does not fit in what the "
                         "process was allowed. %2: %3. It asked for %4 more %5. Top sites: %6.")
            : QT_TR_NOOP("%1 nothing in the files shows memory held elsewhere, so the job does not fit. %2: %3. "
                         "It asked for %4 more %5. Top sites: %6.");
        return say(fit, language)
                   .arg(alike, figures, categoryList(v.heldByCategory, v.heldBytes, language),
                       bytes(v.oomRequestedBytes), requestSite(v, language), siteList(v, language, false))
            + QLatin1Char(' ') + deviceTotal(v, language);
    }
    case Verdict::Fragmentation:
        return say(QT_TR_NOOP("Rank %1 ran out of memory asking for %2 while %3 of PyTorch's reserve was still free, "
                              "but the largest free block was %4: the free space lies between live tensors in %5 "
                              "segment(s). Allocations agree across ranks within %6."),
                   language)
                   .arg(QString::number(v.figuresRank), bytes(v.oomRequestedBytes), bytes(v.freeInReserveBytes),
                       bytes(v.largestFreeBytes), QString::number(v.fragmentedSegments),
                       within(std::abs(v.outlierExcessBytes), v.baselineBytes))
            + QLatin1Char(' ')
            + (v.oomRanks.size() > 1
                    ? say(QT_TR_NOOP("Ranks %1 all ran out of memory."), language).arg(Formatting::ranks(v.oomRanks))
                        + QLatin1Char(' ')
                    : QString())
            + (v.oomSite.empty()
                    ? say(QT_TR_NOOP("The failed request's stack was not recorded."), language)
                    : say(QT_TR_NOOP("The request was at %1."), language).arg(QString::fromStdString(v.oomSite)));
    case Verdict::Balanced: {
        const QString threshold = thresholdText(v);
        if (v.outlierExcessBytes <= 0)
            return say(
                QT_TR_NOOP("Balanced: no rank holds more than %1 above %2 %3; every rank holds the same."), language)
                .arg(threshold, against(v, language), at(v, language));
        return say(
            QT_TR_NOOP("Balanced: no rank holds more than %1 above %2 %3; the most is rank %4 with %5 more."), language)
            .arg(threshold, against(v, language), at(v, language), QString::number(v.outlierRank),
                bytes(v.outlierExcessBytes));
    }
    case Verdict::ModelParallelImbalance:
        if (!v.group.empty()) {
            return say(QT_TR_NOOP("Group %1 of the layout (ranks %2) holds %3 more parameters, gradients and optimizer "
                                  "state than the median of the other groups %4 (%5 of what they hold in all): the "
                                  "model is split unevenly between them. Top sites: %6."),
                language)
                .arg(QString::fromStdString(v.group), ranks(v.groupRanks), bytes(v.excessBytes), at(v, language),
                    percent(v.excessBytes, v.baselineBytes), siteList(v, language, false));
        }
        return say(QT_TR_NOOP("Rank %1 holds %2 (%3) more than %4 %5, and most of it is parameters, gradients or "
                              "optimizer state at sites the others share: ranks that should hold the same model hold "
                              "different amounts of it, as the shards of an uneven split do. Top sites: %6."),
            language)
            .arg(QString::number(v.rank), bytes(v.excessBytes), percent(v.excessBytes, v.baselineBytes),
                against(v, language), at(v, language), siteList(v, language, true));
    case Verdict::BurdenImbalance:
    case Verdict::InputImbalance:
    case Verdict::StrayDevice:
    case Verdict::Growth:
        break;
    }
    const QString sites = siteList(v, language, true);
    if (v.kind == Verdict::StrayDevice) {
        return say(QT_TR_NOOP("Ranks %1 hold %2 on cuda:%3, the GPU rank %4 trains on (%5 of what rank %4 holds there "
                              "itself): memory that rank %4's own file cannot show. Top sites: %6."),
            language)
            .arg(ranks(v.culpritRanks), bytes(v.excessBytes), QString::number(v.device), QString::number(v.rank),
                percent(v.excessBytes, v.baselineBytes), sites);
    }
    const int64_t total = v.onlyBytes + v.absentBytes + v.sharedBytes;
    const QString head = QString::number(v.rank);
    const QString excess = bytes(v.excessBytes);
    const QString relative = percent(v.excessBytes, v.baselineBytes);
    // Who a shared site is shared with: the baseline rank, or (the median having allocations there) most others.
    const QString sharers = v.baselineRank >= 0
        ? say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "rank %1"), language).arg(v.baselineRank)
        : say(QT_TRANSLATE_NOOP("RankScope::VerdictText", "most of the other ranks"), language);
    if (v.rank < 0 && !v.groupRanks.empty())
        return explainGroup(v, language);
    if (v.kind == Verdict::InputImbalance) {
        return say(QT_TR_NOOP("Input imbalance on rank %1: it holds %2 (%3) more than %4 %5; %6 is at sites shared "
                              "with %7, with larger or more tensors there. Top sites: %8."),
            language)
            .arg(head, excess, relative, against(v, language), at(v, language), percent(v.sharedBytes, total), sharers,
                sites);
    }
    if (v.absentBytes == 0) {
        return say(QT_TR_NOOP("Burden imbalance on rank %1: it holds %2 (%3) more than %4 %5; %6 of its extra memory "
                              "is at sites no other rank reaches. Top sites: %7."),
            language)
            .arg(head, excess, relative, against(v, language), at(v, language), percent(v.onlyBytes, total), sites);
    }
    return say(QT_TR_NOOP("Burden imbalance on rank %1: it holds %2 (%3) more than %4 %5; %6 of its extra memory is "
                          "at sites not shared with %7 (%8 at sites no other rank reaches). Top sites: %9."),
        language)
        .arg(head, excess, relative, against(v, language), at(v, language), percent(v.onlyBytes + v.absentBytes, total),
            sharers, percent(v.onlyBytes, total), sites);
}

QString VerdictText::explainGroup(const Verdict& v, Language language)
{
    using Formatting::bytes;
    const int64_t total = v.onlyBytes + v.absentBytes + v.sharedBytes;
    const QString group = Formatting::ranks(v.groupRanks);
    const QString others = Formatting::ranks(v.otherRanks);
    const QString sites = siteList(v, language, true);
    QString text = v.kind == Verdict::InputImbalance
        ? say(QT_TR_NOOP("Input imbalance on ranks %1, which hold about the same: each holds %2 (%3) more than %4 %5; "
                         "%6 is at sites shared with ranks %7, with larger or more tensors there. Top sites: %8."),
            language)
              .arg(group, bytes(v.excessBytes), percent(v.excessBytes, v.baselineBytes), against(v, language),
                  at(v, language), percent(v.sharedBytes, total), others, sites)
        : say(QT_TR_NOOP("Burden imbalance on ranks %1, which hold about the same: each holds %2 (%3) more than %4 %5; "
                         "%6 of the extra memory is at sites ranks %7 do not reach. Top sites: %8."),
            language)
              .arg(group, bytes(v.excessBytes), percent(v.excessBytes, v.baselineBytes), against(v, language),
                  at(v, language), percent(v.onlyBytes + v.absentBytes, total), others, sites);
    // Ranks alike in groups are what a parallel layout looks like as much as an imbalance: say both.
    text += QLatin1Char(' ');
    if (!v.fittingLayout.empty()) {
        const QString layout = QString::fromStdString(v.fittingLayout);
        text += v.kind == Verdict::InputImbalance
            ? say(
                QT_TR_NOOP("Two groups of ranks alike: if they are pipeline stages or tensor-parallel shards, give "
                           "the layout %1 (--layout, or Compare → Parallel Layout…) so each rank is compared with its "
                           "replicas; if not, the two groups get two kinds of batch."),
                language)
                  .arg(layout)
            : say(
                QT_TR_NOOP("Two groups of ranks alike: if they are pipeline stages or tensor-parallel shards, give "
                           "the layout %1 (--layout, or Compare → Parallel Layout…) so each rank is compared with its "
                           "replicas; if not, ranks %2 do work the others do not."),
                language)
                  .arg(layout, group);
    } else {
        text += say(QT_TR_NOOP("Ranks %1 stand out together from ranks %2: if they differ by design (a stage or shard "
                               "of a parallel layout), give the layout; if not, they get other batches or do other "
                               "work."),
            language)
                    .arg(group, others);
    }
    return text;
}

QString VerdictText::moment(const Verdict& v, bool replicaGroups, Language language)
{
    const Moment& m = v.moment;
    if (m.rank < 0)
        return pointWords(v.point, language);
    switch (m.reason) {
    case Moment::MidStep:
        return say(QT_TR_NOOP("aligned moments (rank %1's event %2, mid-step: where a rank holds the most beyond its "
                              "baseline)"),
            language)
            .arg(m.rank)
            .arg(m.event);
    case Moment::OutOfMemory:
        return say(QT_TR_NOOP("aligned moments (rank %1's OOM)"), language).arg(m.rank);
    case Moment::Picked:
        return say(QT_TR_NOOP("aligned moments (rank %1's event %2, picked)"), language).arg(m.rank).arg(m.event);
    case Moment::HighestPeak:
        break;
    }
    return replicaGroups ? say(QT_TR_NOOP("aligned moments (each replica group at its highest rank's peak)"), language)
                         : say(QT_TR_NOOP("aligned moments (rank %1's peak)"), language).arg(m.rank);
}

QString VerdictText::findingKind(Finding::Kind kind, Language language)
{
    if (language == English)
        return QString::fromLatin1(Finding::kindName(kind));
    switch (kind) {
    case Finding::OnlyOnRank:
        return say(QT_TR_NOOP("only on this rank"), language);
    case Finding::MoreOnRank:
        return say(QT_TR_NOOP("more allocations"), language);
    case Finding::LargerOnRank:
        return say(QT_TR_NOOP("larger allocations"), language);
    case Finding::ForeignDevice:
        return say(QT_TR_NOOP("on another rank's GPU"), language);
    case Finding::Growth:
        return say(QT_TR_NOOP("grows every step"), language);
    }
    return {};
}

QString VerdictText::remedyStep(const Verdict& v, const Verdict::Remedy& r, Language language)
{
    QString step = remedyWords(v, r, language);
    if (r.closesGap < 0)
        return step;
    // Against the margin: whether this alone would have let the failed request succeed.
    if (step.endsWith(QLatin1Char('.')))
        step.chop(1);
    // What it brings is an upper bound (every allocation it addresses gone, the stranded bytes all usable): "up to".
    const QString gap = Formatting::bytes(v.margin.shortBytes);
    const QString brings = Formatting::bytes(v.margin.shortBytes + r.spareBytes);
    return step
        + (r.closesGap > 0 ? say(QT_TR_NOOP(" — it frees up to %2, more than the %1 gap."), language).arg(gap, brings)
                           : say(QT_TR_NOOP(" — it frees up to %2, less than the %1 gap: not enough alone."), language)
                                 .arg(gap, brings));
}

QString VerdictText::remedyWords(const Verdict& v, const Verdict::Remedy& r, Language language)
{
    using Formatting::bytes;
    const int64_t held = v.heldBytes;
    switch (r.kind) {
    case Verdict::Remedy::RaiseLimit:
        return say(QT_TR_NOOP("The device still had %1 free when the request for %2 failed: raise the memory limit the "
                              "process was given (torch.cuda.set_per_process_memory_fraction, or a framework's own "
                              "cap), or bring the peak below it."),
            language)
            .arg(bytes(v.margin.deviceFreeBytes), bytes(v.margin.requestedBytes));
    case Verdict::Remedy::ExpandableSegments:
        return say(QT_TR_NOOP("Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: the request lacked %1 while %2 "
                              "lay unused in PyTorch's reserve, in gaps of at most %3; expandable segments map what a "
                              "request lacks next to what the reserve holds instead of leaving it stranded."),
            language)
            .arg(bytes(v.margin.shortBytes), bytes(r.bytes), bytes(v.margin.largestGapBytes));
    case Verdict::Remedy::ChunkedLoss: {
        const QString step = say(QT_TR_NOOP("The failed request computes the loss: compute the cross-entropy in chunks "
                                            "or with a fused kernel, and never upcast the full logits to float32"),
            language);
        if (r.peakWithoutBytes <= 0)
            return step + QLatin1Char('.');
        return step
            + say(QT_TR_NOOP(" (without %1 the peak would be %2, -%3)."), language)
                  .arg(QString::fromStdString(r.label), bytes(r.peakWithoutBytes), bytes(r.savedBytes));
    }
    case Verdict::Remedy::ActivationCheckpointing:
        return say(QT_TR_NOOP("Activations hold %1 (%2): checkpoint them (torch.utils.checkpoint, activation "
                              "checkpointing in FSDP, torchtitan or Megatron), or use a smaller micro-batch or "
                              "sequence length."),
            language)
            .arg(bytes(r.bytes), percent(r.bytes, held));
    case Verdict::Remedy::ShardModelState:
        return say(QT_TR_NOOP("Parameters, gradients and optimizer state hold %1 (%2): shard them further (FSDP full "
                              "sharding, ZeRO stage 3), offload optimizer state to the CPU, or keep it in lower "
                              "precision (8-bit Adam)."),
            language)
            .arg(bytes(r.bytes), percent(r.bytes, held));
    case Verdict::Remedy::RebalanceStages:
        return say(QT_TR_NOOP("Group %1 holds %2 more than the median of the other groups (mostly %3): move layers to "
                              "the other stages, or keep fewer micro-batches in flight on it."),
            language)
            .arg(QString::fromStdString(r.label), bytes(r.bytes), category(v.groupExcessCategory, language));
    case Verdict::Remedy::Defragment:
        if (v.margin.expandableSegments)
            return say(QT_TR_NOOP("%1 is free in PyTorch's reserve, split between live blocks though expandable "
                                  "segments are on: allocate long-lived tensors before the training loop, and keep no "
                                  "tensors from one step to the next."),
                language)
                .arg(bytes(r.bytes));
        return say(QT_TR_NOOP("%1 is free in PyTorch's reserve, split between live blocks: set "
                              "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True and allocate long-lived tensors before "
                              "the training loop."),
            language)
            .arg(bytes(r.bytes));
    }
    return {};
}

QString VerdictText::margin(const Verdict::Margin& m, Language language)
{
    using Formatting::bytes;
    switch (m.outcome) {
    case Verdict::Margin::None:
        return {};
    case Verdict::Margin::NotReached:
        return say(QT_TR_NOOP("The device still had %1 free, more than the %2 asked for: a limit other than the "
                              "GPU's memory refused the request (torch.cuda.set_per_process_memory_fraction, or "
                              "memory taken by another process meanwhile)."),
            language)
            .arg(bytes(m.deviceFreeBytes), bytes(m.requestedBytes));
    case Verdict::Margin::NotInOnePiece: {
        QString text = say(QT_TR_NOOP("It was %1 from fitting: it needed %2 (%3 held and the request); the GPU "
                                      "offered %4 (%5 reserved by PyTorch and %6 free on the device), of which %7 "
                                      "could hold it, since %8 of the reserve lay unused in %9 segment(s): the request "
                                      "was %1 more than the device had free, less than what lay unused."),
            language)
                           .arg(bytes(m.shortBytes), bytes(m.neededBytes), bytes(m.heldBytes), bytes(m.offeredBytes),
                               bytes(m.reservedBytes), bytes(m.deviceFreeBytes), bytes(m.fitBytes()),
                               bytes(m.strandedBytes), QString::number(m.strandedSegments));
        text += QLatin1Char(' ')
            + (m.largestGapBytes < m.requestedBytes
                    ? say(QT_TR_NOOP("Its largest gap was %1: enough bytes, not in one piece."), language)
                          .arg(bytes(m.largestGapBytes))
                    : say(QT_TR_NOOP("A gap of %1 was as large as the request, yet the allocator did not use it "
                                     "(another stream's or pool's, or a size it keeps for smaller requests)."),
                        language)
                          .arg(bytes(m.largestGapBytes)));
        if (m.expandableSegments)
            text += QLatin1Char(' ') + say(QT_TR_NOOP("Expandable segments were already on."), language);
        return text;
    }
    case Verdict::Margin::ShortOfBytes:
        return say(QT_TR_NOOP("It was %1 from fitting: it needed %2 (%3 held and the request); the GPU offered %4 "
                              "(%5 reserved by PyTorch and %6 free on the device), of which %7 could hold it: the "
                              "request was %1 more than the device had free, and the %8 unused in the reserve would "
                              "not have covered it (short by %9 even with every gap used)."),
            language)
            .arg(bytes(m.shortBytes), bytes(m.neededBytes), bytes(m.heldBytes), bytes(m.offeredBytes),
                bytes(m.reservedBytes), bytes(m.deviceFreeBytes), bytes(m.fitBytes()), bytes(m.strandedBytes),
                bytes(m.shortBytes - m.strandedBytes));
    }
    return {};
}

QString VerdictText::kind(Verdict::Kind kind, Language language)
{
    if (language == English)
        return QString::fromLatin1(Verdict::kindName(kind));
    switch (kind) {
    case Verdict::Balanced:
        return say(QT_TR_NOOP("balanced"), language);
    case Verdict::BurdenImbalance:
        return say(QT_TR_NOOP("burden imbalance"), language);
    case Verdict::InputImbalance:
        return say(QT_TR_NOOP("input imbalance"), language);
    case Verdict::OutsideAllocator:
        return say(QT_TR_NOOP("memory outside the allocator"), language);
    case Verdict::OverCapacity:
        return say(QT_TR_NOOP("over capacity"), language);
    case Verdict::StrayDevice:
        return say(QT_TR_NOOP("stray device"), language);
    case Verdict::Fragmentation:
        return say(QT_TR_NOOP("fragmentation"), language);
    case Verdict::ModelParallelImbalance:
        return say(QT_TR_NOOP("model-parallel imbalance"), language);
    case Verdict::Growth:
        return say(QT_TR_NOOP("growth"), language);
    }
    return {};
}

QString VerdictText::consideration(const Verdict::Consideration& c, Language language)
{
    return kind(c.kind, language) + QLatin1String(": ") + whyNot(c, language);
}

QString VerdictText::whyNot(const Verdict::Consideration& c, Language language)
{
    using Formatting::bytes;
    using C = Verdict::Consideration;
    const auto b = [&c](const char* key) { return bytes(c.figure(key)); };
    const auto n = [&c](const char* key) { return QString::number(c.figure(key)); };
    const auto pct = [&c](const char* key) -> QString {
        for (const Verdict::Figure& f : c.evidence) {
            if (f.key == key) // "2%", "0.5%", "12%": as the threshold is written
                return QString::number(f.percent, 'g', f.percent < 10 ? 2 : 3) + QLatin1Char('%');
        }
        return QString();
    };
    QString why;
    switch (c.whyNot) {
    case C::Applies:
        if (c.kind == Verdict::OverCapacity)
            why = say(QT_TR_NOOP("applies too (needed %1, offered %2)"), language)
                      .arg(b("needed_bytes"), b("offered_bytes"));
        else if (c.kind == Verdict::Fragmentation)
            why =
                say(QT_TR_NOOP("applies too (%1 free between live blocks, the largest %2, for a %3 request)"), language)
                    .arg(b("free_in_reserve_bytes"), b("largest_free_bytes"), b("requested_bytes"));
        else if (c.kind == Verdict::OutsideAllocator)
            why = say(QT_TR_NOOP("applies too (%1 replica(s) went past the same request)"), language)
                      .arg(n("fitting_ranks"));
        else
            why = say(QT_TR_NOOP("applies too, but comes later in the order of decision"), language);
        break;
    case C::OneRank:
        why = say(QT_TR_NOOP("one rank, nothing to compare it with"), language);
        break;
    case C::BelowThreshold:
        if (c.kind == Verdict::StrayDevice)
            why = say(QT_TR_NOOP("other ranks hold %1 on rank %2's GPU (%3 of what it holds), under the %4 "
                                 "threshold"),
                language)
                      .arg(b("stray_bytes"), n("victim_rank"), pct("stray_percent"), pct("threshold_percent"));
        else
            why = say(
                QT_TR_NOOP("the most beyond its baseline is rank %1 with %2 (%3), under the %4 threshold"), language)
                      .arg(n("outlier_rank"), b("excess_bytes"), pct("excess_percent"), pct("threshold_percent"));
        break;
    case C::SharedSitesMost:
        why = say(QT_TR_NOOP("%1 of rank %2's excess is at sites its baseline reaches too, more than the %3 at sites "
                             "it does not"),
            language)
                  .arg(b("shared_bytes"), n("outlier_rank"), bytes(c.figure("only_bytes") + c.figure("absent_bytes")));
        break;
    case C::OwnSitesMost:
        why = say(QT_TR_NOOP("%1 of rank %2's excess is at sites its baseline does not reach, more than the %3 at "
                             "shared sites"),
            language)
                  .arg(bytes(c.figure("only_bytes") + c.figure("absent_bytes")), n("outlier_rank"), b("shared_bytes"));
        break;
    case C::ModelStateShared:
        why = say(QT_TR_NOOP("%1 of the %2 at shared sites is parameters, gradients or optimizer state: shards, not "
                             "input"),
            language)
                  .arg(b("shared_model_state_bytes"), b("shared_bytes"));
        break;
    case C::NoGroups:
        why = say(QT_TR_NOOP("no layout splits the ranks into groups, and model state is %1 of the %2 at shared "
                             "sites"),
            language)
                  .arg(b("shared_model_state_bytes"), b("shared_bytes"));
        break;
    case C::GroupsAlike:
        why = say(QT_TR_NOOP("the groups' model state differs by %1 (%2), under the %3 threshold"), language)
                  .arg(b("group_model_state_excess_bytes"), pct("group_excess_percent"), pct("threshold_percent"));
        break;
    case C::NoOom:
        why = say(QT_TR_NOOP("no rank ran out of memory"), language);
        break;
    case C::FreeBelowRequest:
        why = say(QT_TR_NOOP("%1 free between live blocks, less than the %2 request"), language)
                  .arg(b("free_in_reserve_bytes"), b("requested_bytes"));
        break;
    case C::BlockLargeEnough:
        why = say(QT_TR_NOOP("a free block of %1 between live blocks was as large as the %2 request"), language)
                  .arg(b("largest_free_bytes"), b("requested_bytes"));
        break;
    case C::NoOutsideEvidence:
        why = c.figure("unreached_ranks") > 0
            ? say(QT_TR_NOOP("no replica went past the failed request (%1 never reached it), and the GPU's total "
                             "was not given"),
                language)
                  .arg(n("unreached_ranks"))
            : say(QT_TR_NOOP("no replica went past the failed request, and the GPU's total was not given"), language);
        break;
    case C::OutsideWithinAllowance:
        why = say(QT_TR_NOOP("%1 of the GPU's %2 is neither reserved nor free, within the %3 a CUDA context and NCCL "
                             "take"),
            language)
                  .arg(b("outside_bytes"), b("device_memory_bytes"), b("context_allowance_bytes"));
        break;
    case C::ExplainedOtherwise:
        why = say(QT_TR_NOOP("fragmentation or memory outside the allocator explains the out-of-memory"), language);
        break;
    case C::NoSteps:
        why = say(QT_TR_NOOP("one training step: growth needs two or more"), language);
        break;
    case C::NothingGrows:
        why = say(QT_TR_NOOP("no rank holds more at every step at sites that grow"), language);
        break;
    case C::ExcessNotGrowing:
        why = say(QT_TR_NOOP("%1 of the %2 excess is at sites that grow, under half"), language)
                  .arg(b("at_growing_sites_bytes"), b("excess_bytes"));
        break;
    case C::OutranksGrowth:
        why = say(QT_TR_NOOP("the answer below it is one growth does not override"), language);
        break;
    case C::NoForeign:
        why = say(QT_TR_NOOP("no rank allocates on another rank's GPU"), language);
        break;
    case C::StrayWouldNotFit:
        why = say(QT_TR_NOOP("without the %1 other ranks hold on rank %2's GPU the %3 request still would not have "
                             "fit (%4 free)"),
            language)
                  .arg(b("stray_bytes"), n("victim_rank"), b("victim_request_bytes"), b("victim_device_free_bytes"));
        break;
    case C::StraySmaller:
        why = say(
            QT_TR_NOOP("other ranks hold %1 on rank %2's GPU, less than the %3 imbalance on the ranks' own"), language)
                  .arg(b("stray_bytes"), n("victim_rank"), b("imbalance_excess_bytes"));
        break;
    case C::RankStandsOut:
        why = say(QT_TR_NOOP("rank %1 holds %2 (%3) beyond its baseline, over the %4 threshold"), language)
                  .arg(n("outlier_rank"), b("excess_bytes"), pct("excess_percent"), pct("threshold_percent"));
        break;
    case C::RanksRanOut:
        why = say(QT_TR_NOOP("%1 rank(s) ran out of memory"), language).arg(n("oom_ranks"));
        break;
    case C::GroupsDiffer:
        why = say(QT_TR_NOOP("a group of the layout holds more model state than the others"), language);
        break;
    }
    return why;
}

namespace {

// Reasons that only say a rule does not concern the job (nothing to compare, no OOM, no steps …), or restate the
// verdict from the other side: no runner-up.
bool concernsJob(const Verdict& v, const Verdict::Consideration& c)
{
    using C = Verdict::Consideration;
    switch (c.whyNot) {
    case C::OneRank:
    case C::NoOom:
    case C::NoSteps:
    case C::NoForeign:
    case C::OutranksGrowth:
    case C::ExplainedOtherwise:
        return false;
    case C::RankStandsOut:
    case C::GroupsDiffer:
    case C::RanksRanOut:
        return v.kind == Verdict::Balanced;
    case C::NothingGrows:
        return false;
    case C::BelowThreshold:
        return c.kind != v.kind && (c.kind == Verdict::StrayDevice || c.figure("excess_bytes") > 0);
    case C::NoGroups:
        return c.kind != v.kind && c.figure("shared_bytes") > 0;
    default:
        return c.kind != v.kind;
    }
}

} // namespace

QString VerdictText::considered(const Verdict& v, Language language, int count)
{
    // The nearest runners-up: rules that applied but came later, then the rules of the verdict's own family (the
    // other causes of an out-of-memory, the other imbalances), then the rest, each in the order of decision. Rules
    // that say the same of the job are said once, their kinds together.
    const auto family = [](Verdict::Kind k) {
        switch (k) {
        case Verdict::Fragmentation:
        case Verdict::OutsideAllocator:
        case Verdict::OverCapacity:
            return 0;
        case Verdict::BurdenImbalance:
        case Verdict::InputImbalance:
        case Verdict::ModelParallelImbalance:
        case Verdict::Balanced:
            return 1;
        default:
            return 2;
        }
    };
    std::vector<const Verdict::Consideration*> order;
    for (int pass = 0; pass < 3; ++pass) {
        for (const Verdict::Consideration& c : v.considered) {
            const bool take = pass == 0 ? c.applies
                : pass == 1             ? !c.applies && family(c.kind) == family(v.kind)
                                        : !c.applies && family(c.kind) != family(v.kind);
            if (take && c.kind != v.kind && concernsJob(v, c))
                order.push_back(&c);
        }
    }
    QStringList kinds, reasons;
    for (const Verdict::Consideration* c : order) {
        const QString reason = whyNot(*c, language);
        if (const qsizetype same = reasons.indexOf(reason); same >= 0) {
            kinds[same] += QLatin1String(", ") + kind(c->kind, language);
        } else if (reasons.size() < count) {
            kinds << kind(c->kind, language);
            reasons << reason;
        }
    }
    if (reasons.isEmpty())
        return {};
    QStringList lines;
    for (qsizetype i = 0; i < reasons.size(); ++i)
        lines << kinds[i] + QLatin1String(": ") + reasons[i];
    return say(QT_TR_NOOP("Considered: %1."), language).arg(lines.join(QLatin1String("; ")));
}

QString VerdictText::confidenceLevel(const Verdict& v, Language language)
{
    return v.confidence == Verdict::High  ? say(QT_TR_NOOP("high"), language)
        : v.confidence == Verdict::Medium ? say(QT_TR_NOOP("medium"), language)
                                          : say(QT_TR_NOOP("low"), language);
}

QString VerdictText::confidence(const Verdict& v, Language language)
{
    using F = Verdict::ConfidenceFactor;
    QStringList why;
    for (const F& f : v.confidenceFactors) {
        switch (f.kind) {
        case F::PastThreshold:
            why << say(QT_TR_NOOP("the deciding figure is %1 times its threshold"), language)
                       .arg(QString::number(double(f.value) / 10.0, 'f', 1));
            break;
        case F::NearThreshold:
            why << say(QT_TR_NOOP("the deciding figure is only %1 times its threshold"), language)
                       .arg(QString::number(double(f.value) / 10.0, 'f', 1));
            break;
        case F::TracesIncomplete:
            why << say(QT_TR_NOOP("%1 rank(s) have incomplete traces where the others do not"), language).arg(f.value);
            break;
        case F::PointAsked:
            why << say(QT_TR_NOOP("the point was chosen by hand, not where the ranks differ most"), language);
            break;
        case F::AlikeAgree:
            why << say(QT_TR_NOOP("%1 ranks ran out of memory alike"), language).arg(f.value);
            break;
        case F::Unreached:
            why << say(QT_TR_NOOP("%1 replica(s) never reached the failed request, so whether it fits there the "
                                  "files cannot tell"),
                language)
                       .arg(f.value);
            break;
        case F::OneRankOnly:
            why << say(QT_TR_NOOP("one rank, nothing to compare it with"), language);
            break;
        case F::MixedExcess:
            why << say(QT_TR_NOOP("the excess is split between sites only this rank reaches and shared ones (%1% "
                                  "the larger part)"),
                language)
                       .arg(f.value);
            break;

        case F::GrowthUnderThreshold:
            why << say(QT_TR_NOOP("its growth over the steps is under the threshold"), language);
            break;
        case F::FewSteps:
            why << say(QT_TR_NOOP("only %1 steps"), language).arg(f.value);
            break;
        case F::ExplainedByFigures:
            why << say(QT_TR_NOOP("the failed request's own figures decide it (free space, replicas or the device's "
                                  "total)"),
                language);
            break;
        case F::WellWithin:
            why << say(QT_TR_NOOP("the largest excess over a baseline is %1% of the threshold"), language).arg(f.value);
            break;
        case F::DeviceTotalUnknown:
            why << say(QT_TR_NOOP("one rank ran out of memory and the GPU's total was not given, so memory held "
                                  "outside PyTorch cannot be ruled out"),
                language);
            break;
        case F::DeviceNotFull:
            why << say(QT_TR_NOOP("the device still had the request free, so what did not fit is a limit, not the "
                                  "GPU"),
                language);
            break;
        }
    }
    const QString level = confidenceLevel(v, language);
    return why.isEmpty() ? level : level + QStringLiteral(" \u2014 ") + why.join(QLatin1String("; "));
}

QString VerdictText::remedy(const Verdict& v, Language language)
{
    switch (v.kind) {
    case Verdict::Balanced:
        return {};
    case Verdict::OverCapacity: {
        QStringList steps;
        int n = 0;
        for (const Verdict::Remedy& r : v.remedies)
            steps << QString::number(++n) + QLatin1String(". ") + remedyStep(v, r, language);
        if (!v.remedies.empty() && v.remedies.front().kind == Verdict::Remedy::ExpandableSegments)
            return say(QT_TR_NOOP("The allocator's setting first, then bring the peak down, in the order of the "
                                  "memory each step addresses: %1"),
                language)
                .arg(steps.join(QLatin1Char(' ')));
        return say(QT_TR_NOOP("Bring the peak down, in the order of the memory each step addresses: %1"), language)
            .arg(steps.join(QLatin1Char(' ')));
    }
    case Verdict::OutsideAllocator:
        return say(QT_TR_NOOP("Look for memory PyTorch does not manage: other processes on the same GPU (nvidia-smi), "
                              "a second CUDA context from a rank touching another rank's device (call "
                              "torch.cuda.set_device(local_rank) before any CUDA work), and NCCL buffers "
                              "(NCCL_BUFFSIZE)."),
            language);
    case Verdict::BurdenImbalance:
        if (v.rank < 0 && !v.groupRanks.empty())
            return say(QT_TR_NOOP("Ranks %1 do work the others do not (evaluation, gathering metrics, checkpointing): "
                                  "spread that work over all ranks or move it off the training peak, and call "
                                  ".detach().cpu() on tensors before gathering, logging or saving them."),
                language)
                .arg(Formatting::ranks(v.groupRanks));
        return say(QT_TR_NOOP("Rank %1 does work the others do not (evaluation, gathering metrics, checkpointing): "
                              "spread that work over all ranks or move it off the training peak, and call "
                              ".detach().cpu() on tensors before gathering, logging or saving them."),
            language)
            .arg(v.rank);
    case Verdict::InputImbalance:
        if (v.rank < 0 && !v.groupRanks.empty())
            return say(QT_TR_NOOP("Ranks %1 get more or longer samples than the others: use "
                                  "DistributedSampler(drop_last=True) and call sampler.set_epoch(epoch), or build "
                                  "batches by token count and deal them round-robin so every rank gets the same "
                                  "amount of padding."),
                language)
                .arg(Formatting::ranks(v.groupRanks));
        return say(QT_TR_NOOP("Rank %1 gets more or longer samples than the others: use "
                              "DistributedSampler(drop_last=True) and call sampler.set_epoch(epoch), or build batches "
                              "by token count and deal them round-robin so every rank gets the same amount of "
                              "padding."),
            language)
            .arg(v.rank);
    case Verdict::Fragmentation:
        return v.expandableSegments
            ? say(QT_TR_NOOP("Expandable segments are already on, so the free space is pinned between long-lived "
                             "tensors: allocate long-lived ones (parameters, optimizer state, caches) before the "
                             "training loop, keep no tensors from one step to the next, and set "
                             "max_split_size_mb in PYTORCH_CUDA_ALLOC_CONF so large blocks are not split for small "
                             "requests."),
                language)
            : say(QT_TR_NOOP("Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, so segments grow in place "
                             "instead of leaving free space split between blocks; also allocate long-lived tensors "
                             "before the training loop."),
                language);
    case Verdict::Growth:
        return say(QT_TR_NOOP("Find what keeps tensors from one step to the next: lists of losses or outputs appended "
                              "without .item() or .detach(), caches and memoized results that grow, hooks or closures "
                              "that hold tensors, and metrics accumulated on the GPU; keep Python numbers or CPU "
                              "copies instead."),
            language);
    case Verdict::ModelParallelImbalance:
        return say(QT_TR_NOOP("Rebalance the split: give every pipeline stage layers of equal memory, counting the "
                              "embedding and output layers (Megatron: --decoder-first-pipeline-num-layers and "
                              "--decoder-last-pipeline-num-layers; torchtitan: the pipeline split points), and pick "
                              "tensor-parallel sizes that divide the hidden, head and vocabulary sizes evenly."),
            language);
    case Verdict::StrayDevice:
        return say(QT_TR_NOOP("Ranks %1 allocate on another rank's GPU: call torch.cuda.set_device(local_rank) before "
                              "any CUDA work, pass map_location= to torch.load (the rank's own device, or \"cpu\"), "
                              "and give device= when creating tensors."),
            language)
            .arg(ranks(v.culpritRanks));
    }
    return {};
}

} // namespace RankScope
