// SPDX-License-Identifier: MIT
#include "hugepageallocator.h"

#include <cstdlib>

#include <sys/mman.h>

namespace RankScope::HugePages {

namespace {
constexpr std::size_t threshold = std::size_t(4) << 20;
constexpr std::size_t hugePage = std::size_t(2) << 20;

std::size_t rounded(std::size_t bytes)
{
    return (bytes + hugePage - 1) & ~(hugePage - 1);
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
    return p;
}

void deallocate(void* p, std::size_t bytes) noexcept
{
    if (!p)
        return;
    if (bytes < threshold)
        std::free(p);
    else
        munmap(p, rounded(bytes));
}

} // namespace RankScope::HugePages
