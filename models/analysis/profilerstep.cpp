// SPDX-License-Identifier: MIT
#include "profilerstep.h"

#include <charconv>

namespace RankScope::ProfilerStep {

namespace {
constexpr std::string_view prefix = "ProfilerStep#";
}

std::optional<int64_t> number(std::string_view name)
{
    if (!name.starts_with(prefix))
        return std::nullopt;
    name.remove_prefix(prefix.size());
    int64_t n = 0;
    const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), n);
    if (error != std::errc() || end != name.data() + name.size())
        return std::nullopt;
    return n;
}

std::vector<Step> steps(const DeviceHistory& history)
{
    std::vector<Step> out;
    for (const AnnotationSpan& span : history.annotations()) {
        if (const auto n = number(history.snapshot().strings.view(span.name)))
            out.push_back({ *n, &span });
    }
    return out;
}

} // namespace RankScope::ProfilerStep
