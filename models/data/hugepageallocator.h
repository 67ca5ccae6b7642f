// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace RankScope {

namespace HugePages {
/// Allocates `bytes`; blocks of several megabytes come from mmap with transparent huge pages requested, since page
/// faults, not parsing, dominate the cost of filling the multi-gigabyte arrays of a big snapshot.
void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;
/// Faults in the pages of [from, to) that lie in one block allocated here and still alive, without changing a byte
/// (MADV_POPULATE_WRITE), so another thread pays the kernel's zeroing before the owner writes there. Anything else
/// is left alone. False once the kernel turns out not to support it.
bool populate(const void* from, const void* to);
} // namespace HugePages

/// std::allocator replacement for the large per-event arrays (trace entries, the pickle memo).
template <typename T> struct HugePageAllocator
{
    using value_type = T;
    HugePageAllocator() = default;
    template <typename U> HugePageAllocator(const HugePageAllocator<U>&) noexcept { }
    T* allocate(std::size_t n)
    {
        if (n > std::size_t(-1) / sizeof(T))
            throw std::bad_array_new_length();
        return static_cast<T*>(HugePages::allocate(n * sizeof(T)));
    }
    void deallocate(T* p, std::size_t n) noexcept
    {
        HugePages::deallocate(p, n * sizeof(T));
    }
    template <typename U> bool operator==(const HugePageAllocator<U>&) const noexcept
    {
        return true;
    }
};

/// A vector for per-event arrays.
template <typename T> using BigVector = std::vector<T, HugePageAllocator<T>>;

} // namespace RankScope
