// SPDX-License-Identifier: MIT
#include "pageahead.h"

#include "hugepageallocator.h"

#include <algorithm>

namespace RankScope {

void PageAhead::run(size_t ahead)
{
    for (Array& a : m_arrays) {
        if (!m_works)
            return;
        const uintptr_t data = a.data.load(std::memory_order_relaxed);
        const size_t used = a.used.load(std::memory_order_relaxed);
        const size_t capacity = a.capacity.load(std::memory_order_relaxed);
        if (data != a.doneData) {
            a.doneData = data;
            a.done = 0;
        }
        const size_t from = std::max(a.done, used);
        const size_t to = std::min(capacity, used + ahead);
        // Once a quarter of the distance is due: fewer, larger calls.
        if (data == 0 || to <= from + ahead / 4)
            continue;
        m_works =
            HugePages::populate(reinterpret_cast<const void*>(data + from), reinterpret_cast<const void*>(data + to));
        a.done = to;
    }
}

} // namespace RankScope
