// SPDX-License-Identifier: MIT
#include "bigallocator.h"

#include "platform.h"

#include <algorithm>
#include <condition_variable>
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
// is inside it. The lock is not held while pages are faulted in: a slice takes milliseconds, and a thread that
// allocates (the split's walk, starting) waited behind one slice after another for 40 to 70 ms.
struct Registry
{
    struct Block
    {
        char* base = nullptr;
        std::size_t size = 0;
        int populating = 0; ///< populate() calls inside it now
    };
    std::mutex mutex;
    std::condition_variable idle;
    std::vector<Block> blocks;
    bool populateWorks = true;

    // The block holding `address`, or nullptr.
    Block* blockOf(std::uintptr_t address)
    {
        for (Block& block : blocks) {
            if (address >= std::uintptr_t(block.base) && address - std::uintptr_t(block.base) < block.size)
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

void* allocate(std::size_t bytes, Pages pages)
{
    if (bytes < threshold) {
        if (void* p = std::malloc(bytes ? bytes : 1))
            return p;
        throw std::bad_alloc();
    }
    void* p = Platform::allocatePages(rounded(bytes), pages == Pages::Huge);
    if (!p)
        throw std::bad_alloc();
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.blocks.push_back({ static_cast<char*>(p), rounded(bytes), 0 });
    return p;
}

bool ownPages(std::size_t bytes)
{
    return bytes >= threshold;
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
    {
        std::unique_lock lock(r.mutex);
        r.idle.wait(lock, [&] {
            const Registry::Block* block = r.blockOf(std::uintptr_t(p));
            return !block || block->populating == 0;
        });
        std::erase_if(r.blocks, [p](const Registry::Block& block) { return block.base == p; });
    }
    Platform::freePages(p, rounded(bytes));
}

bool populate(const void* from, const void* to)
{
    // In slices: a block being freed waits for the slice inside it at most.
    constexpr std::size_t slice = std::size_t(8) << 20;
    const std::uintptr_t page = Platform::pageBytes();
    Registry& r = registry();
    for (std::uintptr_t a = std::uintptr_t(from) & ~(page - 1); a < std::uintptr_t(to);) {
        char* base = nullptr;
        std::size_t offset = 0;
        std::size_t length = 0;
        {
            std::lock_guard lock(r.mutex);
            if (!r.populateWorks)
                return false;
            Registry::Block* block = r.blockOf(a);
            if (!block)
                return true;
            base = block->base;
            offset = a - std::uintptr_t(base);
            length = std::min({ std::uintptr_t(to) - a, block->size - offset, slice });
            ++block->populating;
        }
        const bool ok = Platform::populatePages(base + offset, length);
        {
            std::lock_guard lock(r.mutex);
            if (Registry::Block* block = r.blockOf(std::uintptr_t(base)); block && --block->populating == 0)
                r.idle.notify_all();
            r.populateWorks = r.populateWorks && ok;
        }
        a += length;
    }
    std::lock_guard lock(r.mutex);
    return r.populateWorks;
}

void trim(const void* from, const void* to)
{
    const std::uintptr_t page = Platform::pageBytes();
    const std::uintptr_t first = (std::uintptr_t(from) + page - 1) & ~(page - 1);
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    if (const auto* block = r.blockOf(first)) {
        const std::size_t offset = first - std::uintptr_t(block->base);
        const std::uintptr_t last = std::min(std::uintptr_t(to), std::uintptr_t(block->base) + block->size);
        const std::size_t length = last > first ? (last - first) & ~(page - 1) : 0;
        if (length > 0)
            Platform::discardPages(block->base + offset, length);
    }
}

} // namespace RankScope::BigBlocks
