// SPDX-License-Identifier: MIT
#pragma once

#include "bigallocator.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace RankScope {

/// A hash map from addresses to small values for the walks over a trace (live allocations by address): open
/// addressing with linear probing and backward-shift deletion, so millions of inserts and removals allocate nothing
/// per entry and leave no tombstones. An empty slot holds the address 2^64 - 1 (no flag beside each entry: a table
/// of a hundred thousand live blocks is a quarter smaller); that one address, which only a hand-made file holds, is
/// kept beside the table.
template <typename Value> class AddressMap
{
public:
    bool contains(uint64_t address) const
    {
        return address == empty ? m_hasEmpty : indexOf(address) != npos;
    }
    /// The value at `address` to change in place, or nullptr; valid until the next set() or take().
    Value* find(uint64_t address)
    {
        if (address == empty) [[unlikely]]
            return m_hasEmpty ? &m_emptyValue : nullptr;
        const size_t i = indexOf(address);
        return i == npos ? nullptr : &m_slots[i].value;
    }
    /// Sets the value at `address`, adding it if it is not there.
    void set(uint64_t address, const Value& value)
    {
        if (address == empty) [[unlikely]] {
            m_hasEmpty = true;
            m_emptyValue = value;
            return;
        }
        if (2 * (m_count + 1) > m_slots.size())
            grow();
        size_t i = slotOf(address);
        for (; m_slots[i].address != empty; i = (i + 1) & m_mask) {
            if (m_slots[i].address == address) {
                m_slots[i].value = value;
                return;
            }
        }
        m_slots[i] = { address, value };
        ++m_count;
    }
    /// Removes the entry at `address` and returns its value, if there is one.
    std::optional<Value> take(uint64_t address)
    {
        if (address == empty) [[unlikely]] {
            if (!m_hasEmpty)
                return std::nullopt;
            m_hasEmpty = false;
            return m_emptyValue;
        }
        size_t hole = indexOf(address);
        if (hole == npos)
            return std::nullopt;
        const Value value = m_slots[hole].value;
        // Entries after the hole that could no longer be found move back into it.
        for (size_t j = (hole + 1) & m_mask; m_slots[j].address != empty; j = (j + 1) & m_mask) {
            const size_t home = slotOf(m_slots[j].address);
            if (hole <= j ? (home <= hole || home > j) : (home <= hole && home > j)) {
                m_slots[hole] = m_slots[j];
                hole = j;
            }
        }
        m_slots[hole].address = empty;
        --m_count;
        return value;
    }
    size_t size() const
    {
        return m_count + (m_hasEmpty ? 1 : 0);
    }
    /// f(address, value) for every entry, in no particular order.
    template <typename F> void forEach(F f) const
    {
        for (const Slot& s : m_slots) {
            if (s.address != empty)
                f(s.address, s.value);
        }
        if (m_hasEmpty)
            f(empty, m_emptyValue);
    }

private:
    static constexpr size_t npos = ~size_t(0);
    static constexpr uint64_t empty = ~uint64_t(0);

    size_t indexOf(uint64_t address) const
    {
        if (m_count == 0)
            return npos;
        for (size_t i = slotOf(address);; i = (i + 1) & m_mask) {
            if (m_slots[i].address == empty)
                return npos;
            if (m_slots[i].address == address)
                return i;
        }
    }

    struct Slot
    {
        uint64_t address = empty;
        Value value {};
    };

    size_t slotOf(uint64_t address) const
    {
        // Allocations are aligned: mix the bits so neighbouring blocks spread over the table.
        address ^= address >> 33;
        address *= 0xff51afd7ed558ccdull;
        address ^= address >> 33;
        return size_t(address) & m_mask;
    }
    void grow()
    {
        HugePageVector<Slot> old(m_slots.empty() ? 64 : m_slots.size() * 2);
        old.swap(m_slots);
        m_mask = m_slots.size() - 1;
        m_count = 0;
        for (const Slot& s : old) {
            if (s.address != empty)
                set(s.address, s.value);
        }
    }

    // Large tables in pages of their own, huge where the kernel offers them: a million live blocks take thousands of
    // 4 KiB page faults otherwise, each dearer than the walk's work on a page in a virtual machine, and a lookup lands
    // anywhere in the table.
    HugePageVector<Slot> m_slots;
    size_t m_mask = 0;
    size_t m_count = 0; ///< in the table
    bool m_hasEmpty = false;
    Value m_emptyValue {};
};

} // namespace RankScope
