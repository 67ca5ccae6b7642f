// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>

/// Every call the core makes into the operating system, and nothing else: one source file per platform implements
/// it (linux.cpp), and portable.cpp implements it with standard C++ and Qt alone, for any other system and for any
/// build configured with RANKSCOPE_PORTABLE. No other source includes an operating system's header; what a platform
/// cannot do (fault pages in ahead, give pages back) the fallback skips, which costs time, never a result.
namespace RankScope::Platform {

/// The size of a memory page, the unit of allocatePages(), populatePages() and discardPages().
std::size_t pageBytes();

/// `bytes` (a multiple of pageBytes()) of fresh memory for one large array, page-aligned, every byte 0 (without
/// writing it where the system gives zeroed pages); nullptr when there is none. With `hugePages`, on huge pages where
/// the system offers them (the platform decides how much of the block).
void* allocatePages(std::size_t bytes, bool hugePages) noexcept;
/// Frees what allocatePages() returned, with the same `bytes`.
void freePages(void* p, std::size_t bytes) noexcept;

/// Faults in the pages of [p, p + bytes) (p on a page boundary, inside one block of allocatePages()) as if written,
/// without changing a byte, so that another thread pays the system's zeroing of fresh pages. False when the platform
/// cannot do it at all (callers then stop asking); true otherwise, also when one call did not succeed.
bool populatePages(void* p, std::size_t bytes) noexcept;

/// Gives the memory of the whole pages of [p, p + bytes), inside one block of allocatePages(), back to the system,
/// while the block stays allocated; their bytes are unspecified afterwards (zero on Linux, unchanged where the
/// platform cannot give pages back). Inside a mapFile() mapping, the pages are only unmapped from the process: the
/// file's bytes read again are mapped in again.
void discardPages(void* p, std::size_t bytes) noexcept;

/// The size now of the file at `path`, open for reading as `handle` (QFile::handle(), -1 when it has none): asked of
/// the open file where the platform can (a file replaced under the same name then still reads as the one opened),
/// else of the path. In 64 bits everywhere; nullopt when the system does not answer.
std::optional<std::uint64_t> fileSize(int handle, const QString& path);

/// The first `bytes` (more than 0) of the file open as `handle`, mapped read-only, so that a parse reads them where
/// the system keeps them, without a copy; nullptr where the platform cannot map it. A file cut short while it is
/// mapped does not stop the process: its lost pages read as zeros from then on, and mappingCut() says so.
const void* mapFile(int handle, std::size_t bytes) noexcept;
/// Unmaps what mapFile() returned, with the same `bytes`.
void unmapFile(const void* p, std::size_t bytes) noexcept;
/// Whether the file mapped at `p` (what mapFile() returned) was cut short under its mapping.
bool mappingCut(const void* p) noexcept;
/// Maps in the pages of [p, p + bytes), inside one mapFile() mapping, ahead of a thread that reads them.
void populateMapped(const void* p, std::size_t bytes) noexcept;

/// The cores this process may run on: its CPU affinity where the platform has one (`taskset -c 0` gives 1), else
/// the machine's; at least 1.
unsigned usableCores();

} // namespace RankScope::Platform
