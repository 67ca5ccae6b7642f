// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace RankScope {

/// The value of a run of hexadecimal digits (escapes in pickle text opcodes and JSON strings); nullopt when any
/// character is not one. At most 8 digits fit.
inline std::optional<uint32_t> hexDigits(std::string_view digits)
{
    uint32_t v = 0;
    for (char ch : digits) {
        const int d = ch >= '0' && ch <= '9' ? ch - '0'
            : ch >= 'a' && ch <= 'f'         ? ch - 'a' + 10
            : ch >= 'A' && ch <= 'F'         ? ch - 'A' + 10
                                             : -1;
        if (d < 0)
            return std::nullopt;
        v = v * 16 + uint32_t(d);
    }
    return v;
}

} // namespace RankScope
