// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace RankScope {

namespace BigBlocks {
/// The pages a block of its own asks for.
enum class Pages
{
    /// The system's own (4 KiB): for arrays written front to back and read in order or in stretches, as a parse, a
    /// history's replay and a decimation fill them. A huge page costs more to fault in, in this project's virtual
    /// machines a fresh 2 MB from the hypervisor: with the parse's arrays on huge pages, zeroing them took 30 % of the
    /// 1 GB rank's load (1 % on 4 KiB pages); with the history's, its replay waited 0.4 s for them.
    Small,
    /// Transparent huge pages where the system offers them: for a table read at scattered places (AddressMap), where
    /// a TLB miss every 4 KiB costs more than the fault (the block map at the 1 GB rank's peak: 74-78 ms, 97-99 ms on
    /// 4 KiB pages).
    Huge,
};
/// Allocates `bytes`; blocks of several megabytes are pages of their own (Platform::allocatePages), so their pages
/// can be faulted in ahead (populate()) on another core: the kernel's zeroing of fresh pages costs as much as filling
/// the multi-gigabyte arrays of a big snapshot.
void* allocate(std::size_t bytes, Pages pages = Pages::Small);
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

/// std::allocator replacement for the large per-event arrays (trace entries, the pickle memo, a history's totals).
template <typename T, BigBlocks::Pages P = BigBlocks::Pages::Small> struct BigAllocator
{
    using value_type = T;
    template <typename U> struct rebind
    {
        using other = BigAllocator<U, P>;
    };
    BigAllocator() = default;
    template <typename U> BigAllocator(const BigAllocator<U, P>&) noexcept { }
    T* allocate(std::size_t n)
    {
        if (n > std::size_t(-1) / sizeof(T))
            throw std::bad_array_new_length();
        return static_cast<T*>(BigBlocks::allocate(n * sizeof(T), P));
    }
    void deallocate(T* p, std::size_t n) noexcept
    {
        BigBlocks::deallocate(p, n * sizeof(T));
    }
    template <typename U> bool operator==(const BigAllocator<U, P>&) const noexcept
    {
        return true;
    }
};

/// A vector for per-event arrays that are filled and read in order.
template <typename T> using BigVector = std::vector<T, BigAllocator<T>>;
/// A vector for a table read at scattered places (BigBlocks::Pages::Huge).
template <typename T> using HugePageVector = std::vector<T, BigAllocator<T, BigBlocks::Pages::Huge>>;

} // namespace RankScope
