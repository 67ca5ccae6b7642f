// SPDX-License-Identifier: MIT
// Linux: big blocks mapped on their own, on huge pages where asked for and the kernel allows, so that their pages can
// be faulted in ahead (MADV_POPULATE_WRITE) and given back (MADV_DONTNEED); file sizes from the open descriptor; the
// cores from the process's affinity.
#include "platform.h"

#include <algorithm>
#include <cerrno>
#include <thread>

#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14; older kernels answer EINVAL
#endif

namespace RankScope::Platform {

std::size_t pageBytes()
{
    static const std::size_t bytes = [] {
        const long page = sysconf(_SC_PAGESIZE);
        return page > 0 ? std::size_t(page) : std::size_t(4096);
    }();
    return bytes;
}

void* allocatePages(std::size_t bytes, bool hugePages) noexcept
{
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return nullptr;
    // Debian's default gives huge pages only where asked for (madvise). Not the first 2 MB: a block is reserved for as
    // many items as its input could hold, and most stay small, where one huge page would hold 2 MB for a few bytes.
    constexpr std::size_t small = std::size_t(2) << 20;
    if (hugePages && bytes > small)
        madvise(static_cast<char*>(p) + small, bytes - small, MADV_HUGEPAGE);
    return p;
}

void freePages(void* p, std::size_t bytes) noexcept
{
    munmap(p, bytes);
}

bool populatePages(void* p, std::size_t bytes) noexcept
{
    // Any other failure (no memory for this stretch now) leaves the pages to be faulted in by the writer.
    return madvise(p, bytes, MADV_POPULATE_WRITE) == 0 || errno != EINVAL;
}

void discardPages(void* p, std::size_t bytes) noexcept
{
    madvise(p, bytes, MADV_DONTNEED);
}

std::optional<std::uint64_t> fileSize(int handle, const QString& /*path*/)
{
    // The descriptor, not the path: a file replaced under its name must still read as the one opened.
    struct stat st = {};
    static_assert(sizeof(st.st_size) >= 8, "file sizes need 64 bits (build with _FILE_OFFSET_BITS=64)");
    if (handle < 0 || ::fstat(handle, &st) != 0)
        return std::nullopt;
    return std::uint64_t(st.st_size);
}

unsigned usableCores()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return unsigned(CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace RankScope::Platform
