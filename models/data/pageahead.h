// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

namespace RankScope {

/// Growing arrays (a parse's trace entries and memo) whose fresh pages another thread faults in ahead of the
/// thread that fills them, so the kernel's zeroing costs the other core. The filling thread publishes how far each
/// array is filled; the helper calls run(). Only BigBlocks::populate() touches the memory, which changes no byte
/// and only ever touches blocks still allocated, so a stale or torn view of an array costs time, never data.
class PageAhead
{
public:
    /// The arrays a parse fills.
    enum Array : size_t
    {
        Memo,
        Trace,
        Times,
        FrameLists,
        Frames,
        Arrays,
    };

    /// The filling thread: `array` spans [data, data + capacity) and holds `used` bytes; at most `most` bytes past
    /// its end are faulted in (an array that grows slowly would otherwise hold pages it never fills).
    void publish(Array array, const void* data, size_t used, size_t capacity, size_t most = SIZE_MAX)
    {
        Published& a = m_arrays[array];
        a.data.store(static_cast<const char*>(data), std::memory_order_relaxed);
        a.used.store(used, std::memory_order_relaxed);
        a.capacity.store(capacity, std::memory_order_relaxed);
        a.most.store(most, std::memory_order_relaxed);
    }
    /// The filling thread: it has read `done` bytes of its input and `left` remain. The arrays grow with the input,
    /// so none is faulted in further ahead than its share of what remains: at the end of a parse, the pages past each
    /// array's end would be on top of everything it holds.
    void input(uint64_t done, uint64_t left)
    {
        m_done.store(done, std::memory_order_relaxed);
        m_left.store(left, std::memory_order_relaxed);
    }
    /// The helper thread: faults in up to `ahead` bytes past each array's filled end.
    void run(size_t ahead);

private:
    struct Published
    {
        std::atomic<const char*> data { nullptr };
        std::atomic<size_t> used { 0 };
        std::atomic<size_t> capacity { 0 };
        std::atomic<size_t> most { SIZE_MAX };
        // The helper's own: how far it has faulted in, and in which block.
        const char* doneData = nullptr;
        size_t done = 0;
    };
    std::array<Published, Arrays> m_arrays;
    std::atomic<uint64_t> m_done { 0 }; ///< 0: the input's size is not known
    std::atomic<uint64_t> m_left { 0 };
    bool m_works = true;
};

/// Whole arrays, just reserved, faulted in on a thread of its own while the caller fills them from the start (the
/// thread keeps ahead: faulting in is faster than filling). Joined when destroyed.
class PagesInBackground
{
public:
    explicit PagesInBackground(std::vector<std::pair<const void*, size_t>> arrays);
    ~PagesInBackground();
    PagesInBackground(const PagesInBackground&) = delete;
    PagesInBackground& operator=(const PagesInBackground&) = delete;

private:
    std::thread m_thread;
};

/// Arrays filled front to back, each by the same count of elements, for which too much is reserved to fault it all
/// in (a decimation's runs: room for a run per column each band spans, more than it writes). A thread of its
/// own faults in each array's pages up to `ahead` bytes past the count the filler last published, so the kernel's
/// zeroing costs the other core; it stops and is joined when this is destroyed. Nothing is started for arrays below
/// a block of BigBlocks' own or on one usable core.
class PagesAheadOfFill
{
public:
    /// An array: its start, the bytes of an element, and its room in elements.
    struct Array
    {
        const void* data;
        size_t elementBytes;
        size_t capacity;
    };
    PagesAheadOfFill(std::vector<Array> arrays, size_t ahead);
    ~PagesAheadOfFill();
    PagesAheadOfFill(const PagesAheadOfFill&) = delete;
    PagesAheadOfFill& operator=(const PagesAheadOfFill&) = delete;

    /// The filler: every array holds `elements` now.
    void filled(size_t elements)
    {
        m_filled.store(elements, std::memory_order_relaxed);
    }

private:
    std::atomic<size_t> m_filled { 0 };
    std::atomic<bool> m_done { false };
    std::thread m_thread;
};

} // namespace RankScope
