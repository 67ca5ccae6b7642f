// SPDX-License-Identifier: MIT
#include "pageahead.h"

#include "bigallocator.h"
#include "platform.h"

#include <algorithm>
#include <chrono>

namespace RankScope {

namespace {

enum class Ahead
{
    NotDue,
    Faulted,
    Unsupported, ///< BigBlocks::populate() is not supported here
};

// Faults in the pages of the array at `data` from its filled end (or from `done`, as far as they are in already) to
// `distance` bytes past that end, within its `capacity`, once a quarter of the distance is due: fewer, larger calls.
Ahead faultAhead(const char* data, size_t used, size_t capacity, size_t distance, size_t& done)
{
    const size_t from = std::max(done, used);
    const size_t to = std::min(capacity, used + distance);
    if (!data || to <= from + distance / 4)
        return Ahead::NotDue;
    if (!BigBlocks::populate(data + from, data + to))
        return Ahead::Unsupported;
    done = to;
    return Ahead::Faulted;
}

} // namespace

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
        m_works = faultAhead(data, used, capacity, distance, a.done) != Ahead::Unsupported;
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
                const Ahead step = faultAhead(static_cast<const char*>(a.data), filled * a.elementBytes,
                    a.capacity * a.elementBytes, ahead, done[i]);
                if (step == Ahead::Unsupported)
                    return;
                faulted = faulted || step == Ahead::Faulted;
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
