// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <string>
#include <string_view>
#include <vector>

#include <cstdint>

namespace RankScope {

/// The one size formatter used by every view, the CLI and exports, so the same number reads the same everywhere.
namespace Formatting {
/// Binary units as PyTorch's viewer writes them: "1.5 GiB", "512 B".
QString bytes(int64_t bytes);
/// With the exact count, for tooltips: "1.5 GiB (1610612736 bytes)".
QString bytesExact(int64_t bytes);
/// Free memory in PyTorch's reserve as its OOM message words it: "1.2 GiB reserved but unallocated (9%), largest free
/// block 300 MiB" (in the user's language where a translator is installed).
QString unallocated(int64_t unallocated, int64_t reserved, int64_t largestFree);
/// Ranks with runs of three or more as ranges: "0–3, 6".
QString ranks(std::vector<int> list);
/// The last component of a path written on any system ("D:\\proj\\model.py" and "/proj/model.py" give "model.py").
QString fileName(const std::string& path);
/// Snapshot text (UTF-8 bytes as the file holds them) as a QString.
QString text(std::string_view utf8);
} // namespace Formatting

} // namespace RankScope
