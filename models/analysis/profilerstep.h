// SPDX-License-Identifier: MIT
#pragma once

#include "devicehistory.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace RankScope {

/// The profiler's step annotations: `record_function("ProfilerStep#N")` scopes, as torch.profiler writes them
/// around each step. The one place that knows their name.
namespace ProfilerStep {

/// N for a scope named "ProfilerStep#N"; nullopt for any other name.
std::optional<int64_t> number(std::string_view scopeName);

struct Step
{
    int64_t number = 0;
    const AnnotationSpan* span = nullptr;
};
/// The step scopes of `history` in the order they were recorded.
std::vector<Step> steps(const DeviceHistory& history);

} // namespace ProfilerStep
} // namespace RankScope
