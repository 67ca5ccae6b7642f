// SPDX-License-Identifier: MIT
#include "pageahead.h"

#include "bigallocator.h"
#include "platform.h"

#include <algorithm>
#include <chrono>

namespace RankScope {

void PageAhead::run(size_t ahead)
{
    const uint64_t done = m_done.load(std::memory_order_relaxed);
    const uint64_t left = m_left.load(std::memory_order_relaxed);
    for (Published& a : m_arrays) {
        if (!m_works)
            return;
        const char* data = a.data.load(std::memory_order_relaxed);
        const size_t used = a.used.load(std::memory_order_relaxed);
        const size_t capacity = a.capacity.load(std::memory_order_relaxed);
        // No further ahead than the array already reaches: one that stays small would hold pages it never fills.
        constexpr size_t least = size_t(256) << 10;
        size_t distance = std::min({ ahead, a.most.load(std::memory_order_relaxed), std::max(least, used) });
        if (done > 0)
            distance = std::min<uint64_t>(distance, uint64_t(double(used) * double(left) / double(done)) + least);
        if (data != a.doneData) {
            a.doneData = data;
            a.done = 0;
        }
        const size_t from = std::max(a.done, used);
        const size_t to = std::min(capacity, used + distance);
        // Once a quarter of the distance is due: fewer, larger calls.
        if (!data || to <= from + distance / 4)
            continue;
        m_works = BigBlocks::populate(data + from, data + to);
        a.done = to;
    }
}

PagesInBackground::PagesInBackground(std::vector<std::pair<const void*, size_t>> arrays)
{
    // Below a block of BigBlocks' own (a few megabytes) there is nothing to gain from a thread.
    size_t total = 0;
    for (const auto& [data, bytes] : arrays)
        total += bytes;
    if (total < (size_t(16) << 20))
        return;
    m_thread = std::thread([arrays = std::move(arrays)] {
        for (const auto& [data, bytes] : arrays) {
            if (!BigBlocks::populate(data, static_cast<const char*>(data) + bytes))
                return;
        }
    });
}

PagesInBackground::~PagesInBackground()
{
    if (m_thread.joinable())
        m_thread.join();
}

PagesAheadOfFill::PagesAheadOfFill(std::vector<Array> arrays, size_t ahead)
{
    size_t total = 0;
    for (const Array& a : arrays)
        total += a.elementBytes * a.capacity;
    if (total < (size_t(16) << 20) || Platform::usableCores() < 2)
        return;
    m_thread = std::thread([this, arrays = std::move(arrays), ahead] {
        std::vector<size_t> done(arrays.size(), 0);
        while (!m_done.load(std::memory_order_relaxed)) {
            const size_t filled = m_filled.load(std::memory_order_relaxed);
            bool faulted = false;
            for (size_t i = 0; i < arrays.size(); ++i) {
                const Array& a = arrays[i];
                const size_t to = std::min(a.capacity * a.elementBytes, filled * a.elementBytes + ahead);
                // Once a quarter of the distance is due: fewer, larger calls.
                if (to <= done[i] + ahead / 4)
                    continue;
                const auto* data = static_cast<const char*>(a.data);
                if (!BigBlocks::populate(data + std::max(done[i], filled * a.elementBytes), data + to))
                    return;
                done[i] = to;
                faulted = true;
            }
            // Caught up: the filler writes a megabyte in about a millisecond.
            if (!faulted)
                std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    });
}

PagesAheadOfFill::~PagesAheadOfFill()
{
    m_done.store(true, std::memory_order_relaxed);
    if (m_thread.joinable())
        m_thread.join();
}

} // namespace RankScope
