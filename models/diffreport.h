// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <string>

namespace RankScope {

/// The `rankscope diff` outputs of a comparison: readable text, the JSON schema
/// (`{"at", "ranks":[…], "findings":[…], "verdict":{…}}`, findings largest first, frames innermost first) and CSV.
namespace DiffReport {
std::string text(const Comparison& comparison, int maxFindings = 10);
std::string json(const Comparison& comparison);
std::string csv(const Comparison& comparison);
} // namespace DiffReport

} // namespace RankScope
