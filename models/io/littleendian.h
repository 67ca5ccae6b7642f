// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstring>

namespace RankScope {

/// A little-endian field of a pickle. Snapshots are read on little-endian hosts only (x86-64, aarch64).
template <typename T> T readLE(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

} // namespace RankScope
