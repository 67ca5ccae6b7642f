// SPDX-License-Identifier: MIT
#pragma once

#include "beforeafter.h"

#include <string>

namespace RankScope {

/// `rankscope diff --before --after` output: English, the same on every machine.
namespace BeforeAfterReport {
/// {"before": diff JSON, "after": diff JSON, "spread_before_bytes", …, "top_sites_before": [...], "fixed"}
std::string json(const BeforeAfter& result);
std::string text(const BeforeAfter& result);
} // namespace BeforeAfterReport

} // namespace RankScope
