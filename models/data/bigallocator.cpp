// SPDX-License-Identifier: MIT
#include "bigallocator.h"

#include "platform.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace RankScope::BigBlocks {

namespace {
constexpr std::size_t threshold = std::size_t(4) << 20;
constexpr std::size_t granule = std::size_t(2) << 20;

std::size_t rounded(std::size_t bytes)
{
    return (bytes + granule - 1) & ~(granule - 1);
}

// The mapped blocks alive now: populate() touches nothing else, and a block is unmapped only while no populate()
// is inside it.
struct Registry
{
    std::mutex mutex;
    std::vector<std::pair<char*, std::size_t>> blocks;
    bool populateWorks = true;

    // The block holding `address`, or nullptr.
    const std::pair<char*, std::size_t>* blockOf(std::uintptr_t address) const
    {
        for (const auto& block : blocks) {
            if (address >= std::uintptr_t(block.first) && address - std::uintptr_t(block.first) < block.second)
                return &block;
        }
        return nullptr;
    }
};

Registry& registry()
{
    static Registry r;
    return r;
}
} // namespace

void* allocate(std::size_t bytes)
{
    if (bytes < threshold) {
        if (void* p = std::malloc(bytes ? bytes : 1))
            return p;
        throw std::bad_alloc();
    }
    void* p = Platform::allocatePages(rounded(bytes));
    if (!p)
        throw std::bad_alloc();
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.blocks.emplace_back(static_cast<char*>(p), rounded(bytes));
    return p;
}

void deallocate(void* p, std::size_t bytes) noexcept
{
    if (!p)
        return;
    if (bytes < threshold) {
        std::free(p);
        return;
    }
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    std::erase(r.blocks, std::pair(static_cast<char*>(p), rounded(bytes)));
    Platform::freePages(p, rounded(bytes));
}

bool populate(const void* from, const void* to)
{
    // In slices, taking the lock for each: a block being freed or allocated elsewhere waits for one slice at most.
    constexpr std::size_t slice = std::size_t(8) << 20;
    const std::uintptr_t page = Platform::pageBytes();
    Registry& r = registry();
    for (std::uintptr_t a = std::uintptr_t(from) & ~(page - 1); a < std::uintptr_t(to);) {
        std::lock_guard lock(r.mutex);
        if (!r.populateWorks)
            return false;
        const auto* block = r.blockOf(a);
        if (!block)
            return true;
        const std::size_t offset = a - std::uintptr_t(block->first);
        const std::size_t length = std::min({ std::uintptr_t(to) - a, block->second - offset, slice });
        if (!Platform::populatePages(block->first + offset, length))
            r.populateWorks = false;
        a += length;
    }
    return r.populateWorks;
}

void trim(const void* from, const void* to)
{
    const std::uintptr_t page = Platform::pageBytes();
    const std::uintptr_t first = (std::uintptr_t(from) + page - 1) & ~(page - 1);
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    if (const auto* block = r.blockOf(first)) {
        const std::size_t offset = first - std::uintptr_t(block->first);
        const std::uintptr_t last = std::min(std::uintptr_t(to), std::uintptr_t(block->first) + block->second);
        const std::size_t length = last > first ? (last - first) & ~(page - 1) : 0;
        if (length > 0)
            Platform::discardPages(block->first + offset, length);
    }
}

} // namespace RankScope::BigBlocks
