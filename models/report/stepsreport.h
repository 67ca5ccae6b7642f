// SPDX-License-Identifier: MIT
#pragma once

#include "steplog.h"

#include <string>

namespace RankScope {

/// `rankscope steps` output of a step analysis: English, the same on every machine.
namespace StepsReport {
/// {"ranks":[{"rank","reports","max_peak_bytes","max_tokens"}],"tags":[…],"spread_bytes","spread_percent",
/// "divergence":{"rank","step","tag","suspect",…}|null}
std::string json(const StepAnalysis& analysis);
/// A few lines for a terminal.
std::string text(const StepAnalysis& analysis);
} // namespace StepsReport

} // namespace RankScope
