// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace RankScope {

/// Parses a size as people write one: "80GiB", "79.3 GB", "10240.0MB", "512 KiB", a bare number of bytes (or of
/// `defaultUnit` when given: "MB" for a key such as peak_mb). B/KB/MB/GB/TB are powers of 1000, KiB/MiB/GiB/TiB of
/// 1024, in any case. nullopt for anything else, negative sizes or sizes beyond 8 EiB.
std::optional<int64_t> parseByteSize(const QString& text, QStringView defaultUnit = {});
/// The same, for a size a user types where a bare number is more likely gigabytes meant than bytes: the unit is
/// required, and the size is more than zero.
std::optional<int64_t> parseByteSizeWithUnit(const QString& text);

} // namespace RankScope
