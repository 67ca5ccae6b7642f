// SPDX-License-Identifier: MIT
// Linux: big blocks mapped on their own, on huge pages where asked for and the kernel allows, so that their pages can
// be faulted in ahead (MADV_POPULATE_WRITE) and given back (MADV_DONTNEED); files mapped, a SIGBUS from one cut short
// under its mapping answered with zero pages; file sizes from the open descriptor; the cores from the process's
// affinity.
#include "platform.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>
#include <thread>

#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 // Linux 5.14, as below
#endif
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

namespace {

// The files mapped now, for the SIGBUS handler: a file cut short under its mapping (a rank's snapshot still being
// written, a copy still in progress) makes every read of a page past its new end raise SIGBUS, which would end the
// process. The handler reads only these atomics; slots are taken and given back under the mutex.
struct MappedFile
{
    std::atomic<std::uintptr_t> start { 0 }; ///< 0: a free slot
    std::atomic<std::uintptr_t> end { 0 };
    std::atomic<bool> cut { false };
};
std::array<MappedFile, 64> mappedFiles;
std::mutex mappedFilesMutex;
struct sigaction previousSigbus = {};
std::uintptr_t pageMask = 0;

void onSigbus(int signal, siginfo_t* info, void* context)
{
    const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
    if (info->si_code > 0) { // raised by a fault, not sent
        for (MappedFile& m : mappedFiles) {
            const std::uintptr_t start = m.start.load(std::memory_order_acquire);
            const std::uintptr_t end = m.end.load(std::memory_order_acquire);
            if (start == 0 || at < start || at >= end)
                continue;
            // Zero pages in place of the lost ones, to the mapping's end: the read that faulted is made again and
            // reads zeros, where no pickle or JSON goes on, and the stream's check of the file reports the change.
            // mmap is a plain system call, safe in a handler in practice though POSIX does not list it. Should it
            // fail, the fault is left to end the process, as below.
            char* page = static_cast<char*>(info->si_addr) - (at & ~pageMask);
            if (mmap(page, end - (at & pageMask), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
                != MAP_FAILED) {
                m.cut.store(true, std::memory_order_release);
                return;
            }
            break;
        }
    }
    // Not one of ours (or no zero pages to be had): as if this handler were not there.
    if ((previousSigbus.sa_flags & SA_SIGINFO) != 0 && previousSigbus.sa_sigaction) {
        previousSigbus.sa_sigaction(signal, info, context);
    } else if (previousSigbus.sa_handler != SIG_DFL && previousSigbus.sa_handler != SIG_IGN) {
        previousSigbus.sa_handler(signal);
    } else {
        // The fault happens again on return and the default action ends the process (a fault cannot be ignored).
        struct sigaction fallback = {};
        fallback.sa_handler = SIG_DFL;
        sigaction(SIGBUS, &fallback, nullptr);
        if (info->si_code <= 0)
            raise(SIGBUS);
    }
}

bool sigbusHandled()
{
    static const bool installed = [] {
        pageMask = ~(std::uintptr_t(pageBytes()) - 1);
        struct sigaction action = {};
        action.sa_sigaction = onSigbus;
        action.sa_flags = SA_SIGINFO;
        sigemptyset(&action.sa_mask);
        return sigaction(SIGBUS, &action, &previousSigbus) == 0;
    }();
    return installed;
}

} // namespace

const void* mapFile(int handle, std::size_t bytes) noexcept
{
    if (handle < 0 || bytes == 0 || !sigbusHandled())
        return nullptr;
    const std::lock_guard lock(mappedFilesMutex);
    const auto slot = std::find_if(mappedFiles.begin(), mappedFiles.end(),
        [](const MappedFile& m) { return m.start.load(std::memory_order_relaxed) == 0; });
    if (slot == mappedFiles.end())
        return nullptr; // read instead
    void* p = mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, handle, 0);
    if (p == MAP_FAILED)
        return nullptr;
    const auto start = reinterpret_cast<std::uintptr_t>(p);
    slot->cut.store(false, std::memory_order_relaxed);
    slot->end.store((start + bytes + ~pageMask) & pageMask, std::memory_order_release);
    slot->start.store(start, std::memory_order_release);
    return p;
}

void unmapFile(const void* p, std::size_t bytes) noexcept
{
    {
        const std::lock_guard lock(mappedFilesMutex);
        for (MappedFile& m : mappedFiles) {
            if (m.start.load(std::memory_order_relaxed) == reinterpret_cast<std::uintptr_t>(p)) {
                m.start.store(0, std::memory_order_release);
                m.end.store(0, std::memory_order_release);
            }
        }
    }
    munmap(const_cast<void*>(p), bytes);
}

bool mappingCut(const void* p) noexcept
{
    const std::lock_guard lock(mappedFilesMutex);
    for (const MappedFile& m : mappedFiles) {
        if (m.start.load(std::memory_order_relaxed) == reinterpret_cast<std::uintptr_t>(p))
            return m.cut.load(std::memory_order_acquire);
    }
    return false;
}

void populateMapped(const void* p, std::size_t bytes) noexcept
{
    // Pages past a cut file's end are not mapped in; their reader's fault is answered as above.
    const std::size_t before = reinterpret_cast<std::uintptr_t>(p) & ~pageMask;
    madvise(const_cast<char*>(static_cast<const char*>(p)) - before, bytes + before, MADV_POPULATE_READ);
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
