// SPDX-License-Identifier: MIT
#include "parallellayout.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace RankScope {

namespace {

constexpr std::array<std::string_view, 5> knownDimensions = { "pp", "dp", "tp", "cp", "ep" };

} // namespace

std::optional<ParallelLayout> ParallelLayout::parse(std::string_view text, std::string* error)
{
    auto fail = [&](std::string why) -> std::optional<ParallelLayout> {
        if (error)
            *error = std::move(why);
        return std::nullopt;
    };
    ParallelLayout out;
    while (!text.empty()) {
        const size_t comma = text.find(',');
        const std::string_view part = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        const size_t eq = part.find('=');
        if (eq == std::string_view::npos)
            return fail("'" + std::string(part) + "' is not name=size (as in pp=2,dp=4)");
        const std::string_view name = part.substr(0, eq);
        const std::string_view number = part.substr(eq + 1);
        if (std::find(knownDimensions.begin(), knownDimensions.end(), name) == knownDimensions.end())
            return fail("'" + std::string(name) + "' is not a dimension (pp, dp, tp, cp, ep)");
        if (std::any_of(
                out.dimensions.begin(), out.dimensions.end(), [&](const Dimension& d) { return d.name == name; }))
            return fail("'" + std::string(name) + "' is given twice");
        int size = 0;
        const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), size);
        if (ec != std::errc() || end != number.data() + number.size() || size < 1 || size > (1 << 20))
            return fail("'" + std::string(number) + "' is not a size for " + std::string(name));
        out.dimensions.push_back({ std::string(name), size });
    }
    if (out.dimensions.empty())
        return fail("the layout is empty (as in pp=2,dp=4)");
    int64_t product = 1;
    for (const Dimension& d : out.dimensions) {
        product *= d.size;
        if (product > (1 << 20))
            return fail("more than 1,048,576 ranks");
    }
    return out;
}

std::string ParallelLayout::text() const
{
    std::string out;
    for (const Dimension& d : dimensions)
        out += (out.empty() ? "" : ",") + d.name + "=" + std::to_string(d.size);
    return out;
}

int ParallelLayout::rankCount() const
{
    int n = 1;
    for (const Dimension& d : dimensions)
        n *= d.size;
    return n;
}

std::vector<int> ParallelLayout::coordinates(int rank) const
{
    std::vector<int> out(dimensions.size(), 0);
    for (size_t i = dimensions.size(); i-- > 0;) {
        out[i] = rank % dimensions[i].size;
        rank /= dimensions[i].size;
    }
    return out;
}

std::string ParallelLayout::coordinatesText(int rank) const
{
    const std::vector<int> c = coordinates(rank);
    std::string out;
    for (size_t i = 0; i < dimensions.size(); ++i)
        out += (out.empty() ? "" : " ") + dimensions[i].name + "=" + std::to_string(c[i]);
    return out;
}

int ParallelLayout::group(int rank) const
{
    const std::vector<int> c = coordinates(rank);
    int g = 0;
    for (size_t i = 0; i < dimensions.size(); ++i) {
        if (dimensions[i].name != "dp")
            g = g * dimensions[i].size + c[i];
    }
    return g;
}

int ParallelLayout::groupCount() const
{
    int n = 1;
    for (const Dimension& d : dimensions) {
        if (d.name != "dp")
            n *= d.size;
    }
    return n;
}

std::string ParallelLayout::groupName(int group) const
{
    std::vector<int> c(dimensions.size(), 0);
    for (size_t i = dimensions.size(); i-- > 0;) {
        if (dimensions[i].name == "dp")
            continue;
        c[i] = group % dimensions[i].size;
        group /= dimensions[i].size;
    }
    std::string out;
    for (size_t i = 0; i < dimensions.size(); ++i) {
        if (dimensions[i].name != "dp")
            out += (out.empty() ? "" : ",") + dimensions[i].name + "=" + std::to_string(c[i]);
    }
    return out.empty() ? "all" : out;
}

} // namespace RankScope
