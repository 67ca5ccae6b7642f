// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace RankScope {

/// The median of some figures (integer midpoint for an even count; 0 for none).
inline int64_t medianOf(std::vector<int64_t> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : values[n / 2 - 1] + (values[n / 2] - values[n / 2 - 1]) / 2;
}

/// How far the largest of the ranks' figures stands above their median: the one measure of imbalance that step
/// reports and before/after comparisons share.
struct Spread
{
    int64_t median = 0;
    int64_t bytes = 0; ///< max − median
    double percent = 0; ///< of the median

    static Spread of(const std::vector<int64_t>& values)
    {
        Spread s;
        if (values.empty())
            return s;
        s.median = medianOf(values);
        s.bytes = *std::max_element(values.begin(), values.end()) - s.median;
        s.percent = s.median > 0 ? 100.0 * double(s.bytes) / double(s.median) : 0;
        return s;
    }
};

} // namespace RankScope
