// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>

namespace RankScope {

/// A file that cannot be read as a snapshot; the message names what is wrong and, where it applies, the byte offset.
class ReadError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// Thrown when the progress callback asked to stop.
class ReadCancelled : public std::runtime_error
{
public:
    ReadCancelled()
        : std::runtime_error("loading was cancelled")
    { }
};

/// Progress in bytes of the file consumed (compressed bytes for gzip files). Return false to cancel.
using ProgressCallback = std::function<bool(uint64_t done, uint64_t total)>;

} // namespace RankScope
