// SPDX-License-Identifier: MIT
// Standard C++ and Qt alone: big blocks from calloc; pages are neither faulted in ahead nor given back early
// (the thread that fills an array pays for its fresh pages, and memory is returned when the array is freed); file
// sizes from the path.
#include "platform.h"

#include <QFileInfo>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
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

void* allocatePages(std::size_t bytes, bool) noexcept
{
    // calloc: zero, as the contract says, and for blocks this large the common C libraries map fresh memory, which is
    // zero already, rather than clear it. The room of one alignment before the block holds calloc's own pointer.
    if (bytes > SIZE_MAX - alignment)
        return nullptr;
    void* raw = std::calloc(bytes + alignment, 1);
    if (!raw)
        return nullptr;
    char* p = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(raw) + alignment) & ~(alignment - 1));
    std::memcpy(p - sizeof(void*), &raw, sizeof(void*)); // malloc's alignment leaves at least that much room
    return p;
}

void freePages(void* p, std::size_t) noexcept
{
    if (!p)
        return;
    void* raw = nullptr;
    std::memcpy(&raw, static_cast<char*>(p) - sizeof(void*), sizeof(void*));
    std::free(raw);
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

const void* mapFile(int /*handle*/, std::size_t /*bytes*/) noexcept
{
    return nullptr; // files are read into chunks
}

void unmapFile(const void* /*p*/, std::size_t /*bytes*/) noexcept { }

bool mappingCut(const void* /*p*/) noexcept
{
    return false;
}

void populateMapped(const void* /*p*/, std::size_t /*bytes*/) noexcept { }

unsigned usableCores()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace RankScope::Platform
