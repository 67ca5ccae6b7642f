// SPDX-License-Identifier: MIT
#pragma once

#include <exception>
#include <thread>

namespace RankScope {

/// Runs `side` on a thread of its own while `here` runs on the calling thread, and returns once both have ended. An
/// exception from either is thrown here after both have ended (the side's, when both threw): a load's two halves of
/// one step, where a pool's thread could be waiting on this very thread.
template <typename Side, typename Here> void sideBySide(Side side, Here here)
{
    std::exception_ptr sideFailed;
    std::thread thread([&] {
        try {
            side();
        } catch (...) {
            sideFailed = std::current_exception();
        }
    });
    try {
        here();
    } catch (...) {
        thread.join();
        if (sideFailed)
            std::rethrow_exception(sideFailed);
        throw;
    }
    thread.join();
    if (sideFailed)
        std::rethrow_exception(sideFailed);
}

} // namespace RankScope
