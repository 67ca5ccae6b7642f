// SPDX-License-Identifier: MIT
#include "hugepageallocator.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14; older kernels answer EINVAL
#endif

namespace RankScope::HugePages {

namespace {
constexpr std::size_t threshold = std::size_t(4) << 20;
constexpr std::size_t hugePage = std::size_t(2) << 20;
constexpr std::uintptr_t smallPage = 4096;

std::size_t rounded(std::size_t bytes)
{
    return (bytes + hugePage - 1) & ~(hugePage - 1);
}

// The mapped blocks alive now: populate() touches nothing else, and a block is unmapped only while no populate()
// is inside it.
struct Registry
{
    std::mutex mutex;
    std::vector<std::pair<std::uintptr_t, std::size_t>> blocks;
    bool populateWorks = true;
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
    void* p = mmap(nullptr, rounded(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(p, rounded(bytes), MADV_HUGEPAGE);
#endif
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.blocks.emplace_back(std::uintptr_t(p), rounded(bytes));
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
    std::erase(r.blocks, std::pair(std::uintptr_t(p), rounded(bytes)));
    munmap(p, rounded(bytes));
}

bool populate(const void* from, const void* to)
{
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    const auto a = std::uintptr_t(from);
    for (const auto& [start, size] : r.blocks) {
        if (a < start || a >= start + size)
            continue;
        const std::uintptr_t first = a & ~(smallPage - 1);
        const std::uintptr_t last = std::min(std::uintptr_t(to), start + size);
        if (r.populateWorks && last > first
            && madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
            r.populateWorks = false;
        return r.populateWorks;
    }
    return r.populateWorks;
}

} // namespace RankScope::HugePages
