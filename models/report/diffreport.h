// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QByteArray>
#include <QString>

#include <string>

namespace RankScope {

/// The outputs of a comparison: readable text, the JSON schema (`{"at", "ranks":[…], "findings":[…], "verdict":{…}}`,
/// findings largest first, frames innermost first) and CSV of `rankscope diff`, and the reports for bug trackers.
namespace DiffReport {
std::string text(const Comparison& comparison, int maxFindings = 10);
/// Where the ranks were compared, in words: "aligned moments (rank 3's peak)", else the point's name ("peak").
std::string pointWords(const Comparison& comparison);
std::string json(const Comparison& comparison);
std::string csv(const Comparison& comparison);
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
