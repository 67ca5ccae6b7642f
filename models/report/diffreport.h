// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include "stacktext.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace RankScope {

/// The outputs of a comparison: readable text, the JSON schema (`{"at", "ranks":[…], "groups":[…], "findings":[…],
/// "finding_groups":[…], "stacks":[…], "verdict":{…}}`, findings largest first) and CSV of `rankscope diff`, and the
/// reports for bug trackers. Ranks and findings alike (AlikeRanks) are said once, with their exceptions; a stack is
/// written once in `stacks` and named by its index.
namespace DiffReport {
/// At most `maxFindings` groups of findings alike and `maxRankRows` rows of ranks alike (all when negative).
std::string text(const Comparison& comparison, int maxFindings = 10, int maxRankRows = -1);
/// Where the ranks were compared, in words: "aligned moments (rank 3's peak)", else the point's name ("peak").
std::string pointWords(const Comparison& comparison);
/// How many frames a stack written as data gives (JSON, CSV, MCP): `Yours` from where reading starts (the user's
/// innermost frame) outward in call order, each marked `own_code`, the frames inside it and each run of C++ and
/// interpreter frames folded into a count in its place (`{"inner_frames":N}`, `{"native_frames":N}`); `All` every
/// frame as recorded, innermost first.
enum class FrameDetail
{
    Yours,
    All,
};
/// A stack as data, in the order FrameDetail says; `shown` as StackText gives it (siteFrames, stackFrames(…, true)),
/// `recorded` the frames as recorded (for All).
nlohmann::ordered_json stackJson(
    const StackText::Frames& shown, const std::vector<StackText::Frame>& recorded, FrameDetail detail);
/// The same as one line: "f  file.py:21 < g  train.py:88 < [+3 native frames]", reading order.
std::string stackLine(
    const StackText::Frames& shown, const std::vector<StackText::Frame>& recorded, FrameDetail detail);
std::string json(const Comparison& comparison, FrameDetail frames = FrameDetail::Yours);
std::string csv(const Comparison& comparison, FrameDetail frames = FrameDetail::Yours);
/// The whole record of `ranks[index]` of json()'s answer: a rank alike with an earlier one (`alike_with`, the rank at
/// `alike_index`) holds only what differs from that one's record, as a JSON merge patch (RFC 7396) of it.
nlohmann::ordered_json rankRecord(const nlohmann::ordered_json& diff, size_t index);
/// A finding's runs as JSON: each `{"address","size","segment"}`; more than `maxRuns` as one range per segment instead,
/// from its lowest run to the end of its highest, with the runs' `count` and `bytes`.
nlohmann::ordered_json runsJson(const std::vector<FindingRun>& runs, size_t maxRuns = 64);
/// The members of an alike group as rank numbers.
std::vector<int> groupRanks(const Comparison& comparison, const std::vector<size_t>& members);
/// The findings of an alike group as rank numbers.
std::vector<int> findingRanks(const Comparison& comparison, const std::vector<size_t>& members);
/// What fills one rank's GPU (`rankscope top`), by site or by category, and the peak without each of them:
/// `{"rank","device","at","event","bytes","peak_bytes","categories":{…},"sites"|"by_category":[…],"what_if":[…]}`.
enum class By
{
    Site,
    Category,
};
std::string topText(const Comparison& comparison, const RankHoldings& holdings, By by, size_t maxRows = 20);
std::string topJson(const Comparison& comparison, const RankHoldings& holdings, By by);
/// A self-contained HTML page: verdict, explanation and remedy, the ranks' figures, the top findings with their
/// stacks, and `png` (the diff picture) embedded as a data URI when not empty.
std::string html(const Comparison& comparison, const QByteArray& png, int maxFindings = 10);
/// The same as Markdown; `image` is the picture's file name relative to the report, or empty for none.
std::string markdown(const Comparison& comparison, const QString& image, int maxFindings = 10);
} // namespace DiffReport

} // namespace RankScope
