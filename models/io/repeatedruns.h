// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace RankScope {

/// Runs of opcodes a parse stepped over one at a time before (a frame list's memo references), with what they gave.
/// A job's stacks repeat, and mostly in the order they came in the step before, so a run is looked for first as the
/// one that followed the two runs before it last time, or the one before it (predict(), before it is stepped over),
/// then by all of its bytes (find(), after). Either way its bytes are compared, so a hit gives what stepping over the
/// same bytes gave.
class RepeatedRuns
{
public:
    struct Run
    {
        uint32_t length = 0; ///< bytes
        uint32_t value = 0; ///< the caller's
    };

    /// The run that followed the last two runs found or remembered when they came before, or failing that the one that
    /// followed the last, if `p` starts with its bytes and `terminator` follows them. A run that is only the head of
    /// the one at `p` is no answer: taken as one, the rest would be stepped over every time, and never remembered.
    const Run* predict(const uint8_t* p, const uint8_t* end, uint8_t terminator)
    {
        m_nextKey = 0;
        m_afterTwoKey = 0;
        if (end - p < 8)
            return nullptr;
        uint64_t first;
        std::memcpy(&first, p, 8);
        m_nextKey = ((m_last * odd) ^ first) * odd | 1;
        m_afterTwoKey = ((m_last * odd ^ m_before) * odd ^ first) * odd | 1;
        if (m_next.empty())
            return nullptr;
        const auto matches = [&](const Slot& s, uint64_t key) {
            return s.key == key && s.generation == m_generation && size_t(end - p) > s.run.length
                && p[s.run.length] == terminator && std::memcmp(m_bytes.data() + s.offset, p, s.run.length) == 0;
        };
        for (const auto& [table, key] :
            { std::pair { &m_afterTwo, m_afterTwoKey }, std::pair { &m_next, m_nextKey } }) {
            if (const Slot& s = (*table)[key >> (64 - bucketBits)]; matches(s, key)) {
                follow(s);
                return &s.run;
            }
        }
        return nullptr;
    }
    /// After predict() gave nothing for the same `p`: the run of exactly these bytes, if one was remembered.
    const Run* find(const uint8_t* p, size_t length)
    {
        m_hash = hashOf(p, length);
        if (m_byBytes.empty()) {
            m_byBytes.resize(buckets);
            m_next.resize(buckets);
            m_afterTwo.resize(buckets);
        }
        const Slot& s = m_byBytes[m_hash >> (64 - bucketBits)];
        if (s.key != m_hash || s.generation != m_generation || s.run.length != length
            || std::memcmp(m_bytes.data() + s.offset, p, length) != 0)
            return nullptr;
        follow(s);
        return &s.run;
    }
    /// After find() gave nothing for the same bytes: remembers them as a run, the one after the last.
    void remember(const uint8_t* p, size_t length, uint32_t value)
    {
        if (length > maxBytes)
            return; // a run that long is not a job's frame list, and its length would not fit a Run
        if (m_bytes.size() + length > maxBytes) {
            m_bytes.clear();
            ++m_generation;
        }
        Slot& s = m_byBytes[m_hash >> (64 - bucketBits)];
        s = { m_hash, uint32_t(m_bytes.size()), m_generation, { uint32_t(length), value } };
        m_bytes.insert(m_bytes.end(), p, p + length);
        follow(s);
    }
    /// Forgets every run: what their bytes give has changed.
    void forget()
    {
        ++m_generation;
    }

private:
    struct Slot
    {
        uint64_t key = 0;
        uint32_t offset = 0;
        uint32_t generation = 0; ///< valid while it is m_generation
        Run run;
    };
    static constexpr uint64_t odd = 0x9e3779b97f4a7c15ull;
    static constexpr int bucketBits = 13;
    static constexpr size_t buckets = size_t(1) << bucketBits;
    static constexpr size_t maxBytes = size_t(16) << 20;

    // Two lanes of eight bytes per step: the chain of multiplies is the cost, and a frame list is about a hundred
    // bytes.
    static uint64_t hashOf(const uint8_t* p, size_t n)
    {
        uint64_t a = n * odd;
        uint64_t b = ~n;
        size_t i = 0;
        for (; i + 16 <= n; i += 16) {
            uint64_t x;
            uint64_t y;
            std::memcpy(&x, p + i, 8);
            std::memcpy(&y, p + i + 8, 8);
            a = (a ^ x) * odd;
            b = (b ^ y) * odd;
        }
        uint8_t tail[16] = {};
        std::memcpy(tail, p + i, n - i);
        uint64_t x;
        uint64_t y;
        std::memcpy(&x, tail, 8);
        std::memcpy(&y, tail + 8, 8);
        a = (a ^ x) * odd;
        b = (b ^ y) * odd;
        const uint64_t h = (a ^ (b >> 29) ^ (b << 35)) * odd;
        return h ^ (h >> 32);
    }
    // `s` came after the last run (and the one before it): predict() finds it there next time.
    void follow(const Slot& s)
    {
        for (const auto& [table, key] :
            { std::pair { &m_next, m_nextKey }, std::pair { &m_afterTwo, m_afterTwoKey } }) {
            if (key != 0) {
                Slot& next = (*table)[key >> (64 - bucketBits)];
                next = s;
                next.key = key;
            }
        }
        m_before = m_last;
        m_last = s.offset + 1;
    }

    std::vector<Slot> m_next; // by the run before and the first 8 bytes
    std::vector<Slot> m_afterTwo; // by the two runs before and the first 8 bytes
    std::vector<Slot> m_byBytes; // by all the bytes
    std::vector<uint8_t> m_bytes;
    uint64_t m_last = 0; // the last run found or remembered: its offset + 1
    uint64_t m_before = 0; // the one before it
    uint64_t m_nextKey = 0; // predict()'s keys for the run at hand; 0 for none
    uint64_t m_afterTwoKey = 0;
    uint64_t m_hash = 0; // find()'s
    uint32_t m_generation = 1;
};

} // namespace RankScope
