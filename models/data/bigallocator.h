// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace RankScope {

namespace BigBlocks {
/// Allocates `bytes`; blocks of several megabytes are pages of their own (Platform::allocatePages), so their pages
/// can be faulted in ahead (populate()) on another core: the kernel's zeroing of fresh pages costs as much as filling
/// the multi-gigabyte arrays of a big snapshot. They ask for transparent huge pages: with the pages faulted in ahead,
/// a compaction on the fault (Debian's default for such blocks) falls on that thread, not on the parse, and the
/// parse no longer misses the TLB at every 4 KiB (1 GB rank: 1.6 to 1.3 s of the parse thread's CPU).
void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;
/// Whether allocate(bytes) gives pages of their own, which are 0 as they come (Platform::allocatePages) and are
/// faulted in only where they are written; a smaller block comes from the C library, its bytes unspecified.
bool ownPages(std::size_t bytes);
/// Faults in the pages of [from, to) that lie in one block allocated here and still alive, without changing a byte
/// (Platform::populatePages), so another thread pays the kernel's zeroing before the owner writes there. Anything
/// else is left alone. False once the platform turns out not to support it (always in the portable fallback).
bool populate(const void* from, const void* to);
/// Gives back to the kernel the whole pages of [from, to) in a block allocated here (the unused capacity of an
/// array whose pages were faulted in ahead), so they no longer count as memory in use. Their bytes are unspecified
/// afterwards (zero on Linux; the portable fallback keeps the pages).
void trim(const void* from, const void* to);
} // namespace BigBlocks

/// std::allocator replacement for the large per-event arrays (trace entries, the pickle memo).
template <typename T> struct BigAllocator
{
    using value_type = T;
    BigAllocator() = default;
    template <typename U> BigAllocator(const BigAllocator<U>&) noexcept { }
    T* allocate(std::size_t n)
    {
        if (n > std::size_t(-1) / sizeof(T))
            throw std::bad_array_new_length();
        return static_cast<T*>(BigBlocks::allocate(n * sizeof(T)));
    }
    void deallocate(T* p, std::size_t n) noexcept
    {
        BigBlocks::deallocate(p, n * sizeof(T));
    }
    template <typename U> bool operator==(const BigAllocator<U>&) const noexcept
    {
        return true;
    }
};

/// A vector for per-event arrays.
template <typename T> using BigVector = std::vector<T, BigAllocator<T>>;

} // namespace RankScope
