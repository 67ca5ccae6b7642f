// SPDX-License-Identifier: MIT
// Standard C++ and Qt alone: big blocks from operator new; pages are neither faulted in ahead nor given back early
// (the thread that fills an array pays for its fresh pages, and memory is returned when the array is freed); file
// sizes from the path.
#include "platform.h"

#include <QFileInfo>

#include <algorithm>
#include <new>
#include <thread>

namespace RankScope::Platform {

namespace {
// Nothing here works page by page; blocks are aligned as mapped pages would be all the same, so BigBlocks' rounding
// to pages means what it means elsewhere.
constexpr std::size_t alignment = 4096;
} // namespace

std::size_t pageBytes()
{
    return alignment;
}

void* allocatePages(std::size_t bytes) noexcept
{
    return ::operator new(bytes, std::align_val_t(alignment), std::nothrow);
}

void freePages(void* p, std::size_t) noexcept
{
    // Unsized: clang before 19 declares the sized form only with -fsized-deallocation.
    ::operator delete(p, std::align_val_t(alignment));
}

bool populatePages(void*, std::size_t) noexcept
{
    return false;
}

void discardPages(void*, std::size_t) noexcept { }

std::optional<std::uint64_t> fileSize(int, const QString& path)
{
    const QFileInfo info(path);
    if (path.isEmpty() || !info.exists())
        return std::nullopt;
    return std::uint64_t(info.size());
}

unsigned usableCores()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace RankScope::Platform
