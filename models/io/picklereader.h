// SPDX-License-Identifier: MIT
#pragma once

#include "inputstream.h"
#include "repeatedruns.h"
#include "snapshotbuilder.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <unordered_map>

namespace RankScope {

class PickleSplit;

/// A safe pickle virtual machine for protocols 0 to 5. It understands only the data opcodes that snapshot writers
/// use (dicts, lists, tuples, strings, numbers, memo; as text lines in protocols 0 and 1) and refuses every opcode that
/// would import, construct or run anything, naming it and its byte offset. Decoded values go straight into a
/// SnapshotBuilder.
class PickleReader
{
public:
    PickleReader(InputStream& in, SnapshotBuilder& builder);
    /// Runs to the STOP opcode; throws ReadError (with the byte offset) or ReadCancelled.
    void run();
    /// A memo index this far or further past the memo's end is kept aside rather than allocated up to.
    static constexpr uint64_t farMemoIndex = 4096;
    /// Past the memo references (BINGET, LONG_BINGET) from p on, as many as [p, end) holds whole: the runs most of a
    /// large file is (a frame list's frames). `count`, where given, gets how many.
    static const uint8_t* pastReferences(const uint8_t* p, const uint8_t* end, size_t* count = nullptr)
    {
        size_t n = 0;
        for (; end - p >= 2 && (*p == 'h' || (*p == 'j' && end - p >= 5)); ++n)
            p += *p == 'h' ? 2 : 5;
        if (count)
            *count = n;
        return p;
    }
    /// Lets `split`'s thread parse a later part of a trace list; this reader takes that part when it gets there.
    void setSplit(PickleSplit* split)
    {
        m_split = split;
    }
    /// The part's reader (PickleSplit): from the stream's position, between two batches of `list`'s entries with
    /// `memoBefore` objects memoized before, parses batches to the list's end and returns the offset there.
    /// `foreign` gives a placeholder for an object memoized before; throws SplitRefused, ReadError or SchemaError.
    uint64_t runPart(const BuilderValue& list, uint64_t memoBefore, std::function<BuilderValue(uint64_t)> foreign,
        const std::atomic<bool>* abandoned);
    /// A trace entry dict's memo word.
    static constexpr uint32_t traceEntryWord = 0;
    /// The memo entries a part stored (not those it was given from before), as its reader holds them: four bytes an
    /// entry. A part of a million trace entries stores millions (each dict, its frame list, a string of its own),
    /// which as values to hand over took the reader longer than parsing them, and twice the memory of the load.
    struct PartMemo
    {
        std::vector<std::pair<uint64_t, uint64_t>> runs; ///< the indices stored, (first, count), in order
        BigVector<uint32_t> words; ///< each one's memo word, run after run
        BigVector<BuilderValue> values; ///< what the words' slots hold
        /// Whether every value can be absorbed (SnapshotBuilder::takesPartMemo()): checked on the part's thread.
        bool absorbable = false;
    };
    /// Moves out what the part stored (runPart() first).
    PartMemo takePartMemo();
    /// Where the part this reader took starts and ends; {0, 0} when it took none.
    std::pair<uint64_t, uint64_t> partTaken() const
    {
        return m_partTaken;
    }

private:
    /// The pickle stack. Its push stays inline in the opcode loop, where std::vector's is not inlined (a call per
    /// key and value of every trace entry); it only shrinks by resize().
    class ValueStack
    {
    public:
        void push_back(const BuilderValue& v)
        {
            if (m_size == m_values.size()) [[unlikely]]
                m_values.resize(m_values.size() * 2 + 64);
            m_values[m_size++] = v;
        }
        void pop_back()
        {
            --m_size;
        }
        BuilderValue& back()
        {
            return m_values[m_size - 1];
        }
        BuilderValue& operator[](size_t i)
        {
            return m_values[i];
        }
        size_t size() const
        {
            return m_size;
        }
        bool empty() const
        {
            return m_size == 0;
        }
        void resize(size_t n)
        {
            m_size = std::min(n, m_size);
        }
        const BuilderValue* begin() const
        {
            return m_values.data();
        }
        const BuilderValue* end() const
        {
            return m_values.data() + m_size;
        }

    private:
        std::vector<BuilderValue> m_values = std::vector<BuilderValue>(1024);
        size_t m_size = 0;
    };

    /// The memo: a slot per memo index. Slot 0, a trace entry dict, is never written to a big file's memo, whose
    /// pages are zero from the start (BigBlocks::ownPages), so where nearly every memoized object is an entry dict (a
    /// file whose entries share their frame lists) they are never faulted in at all.
    class MemoSlots
    {
    public:
        MemoSlots() = default;
        ~MemoSlots();
        MemoSlots(const MemoSlots&) = delete;
        MemoSlots& operator=(const MemoSlots&) = delete;
        size_t size() const
        {
            return m_size;
        }
        size_t capacity() const
        {
            return m_capacity;
        }
        const uint32_t* data() const
        {
            return m_slots;
        }
        /// The bytes from the start to the last slot written: what PageAhead sees as filled.
        size_t writtenBytes() const
        {
            return m_written * sizeof(uint32_t);
        }
        uint32_t operator[](size_t i) const
        {
            return m_slots[i];
        }
        void set(size_t i, uint32_t slot)
        {
            if (slot != 0 || i < m_written || !m_zeroed) {
                m_slots[i] = slot;
                m_written = std::max(m_written, i + 1);
            }
        }
        void push_back(uint32_t slot)
        {
            if (m_size == m_capacity) [[unlikely]]
                reserve(m_capacity * 2 + 1024);
            set(m_size++, slot);
        }
        /// Adds slots holding `slot` up to `count`.
        void grow(size_t count, uint32_t slot);
        void reserve(size_t count);

    private:
        uint32_t* m_slots = nullptr;
        size_t m_size = 0;
        size_t m_capacity = 0;
        size_t m_written = 0; ///< every slot from here on was never written
        bool m_zeroed = false; ///< and is 0: the slots are pages of their own
    };

    void runOpcodes();
    BuilderValue createContainer(bool isDict);
    void memoPut(uint64_t index);
    void memoPut(uint64_t index, const BuilderValue& value);
    /// memoPut() at the next index (MEMOIZE).
    void memoAppend(const BuilderValue& value);
    /// A part's note that it stored `index` itself (see runPart()).
    void partStores(uint64_t index);
    BuilderValue memoGet(uint64_t index);
    BuilderValue memoValue(uint32_t slot) const;
    /// A memo word's value: a slot of `values`, or the value held in the word.
    static BuilderValue memoValueOf(uint32_t word, const BigVector<BuilderValue>& values);
    /// At the split's point: takes the part, or leaves everything as it was. Moves p and end past the part.
    void takePart(const uint8_t*& p, const uint8_t*& end);
    /// Stores what the part `builder` absorbed stored in its memo, in order.
    void absorbPartMemo(const PartMemo& memo, const SnapshotBuilder& part);
    bool readWholeFrameList(const uint8_t*& p, const uint8_t* end, const BuilderValue& list);
    /// Reads the trace entry whose dict is on top of the stack, from past its MARK, and the entries that follow it
    /// in the same batch up to `stop`.
    bool readTraceEntry(const uint8_t*& p, const uint8_t* end, const uint8_t* stop);
    /// Makes the dict of the entry at q, when the batch goes on with one (EMPTY_DICT MEMOIZE MARK), and moves q past
    /// its MARK; false, with nothing done, otherwise.
    bool nextTraceEntry(const uint8_t*& q, const uint8_t* end, uint64_t base);
    /// The pairs of a trace entry's items readTraceEntry() begins with, into m_pairItems: how many items were read
    /// (q past them), or SIZE_MAX when that was the whole entry and it is set (q past its SETITEMS).
    size_t readEntryPairs(const uint8_t*& q, const uint8_t* end, const BuilderValue& dict, uint64_t base);
    const uint8_t* memoizeItem(const uint8_t* at, const uint8_t* end, uint64_t base, const BuilderValue& value);
    const uint8_t* memoizedItem(const uint8_t* at, const uint8_t* end, BuilderValue& item) const;
    const uint8_t* scalarItem(const uint8_t* at, const uint8_t* end, BuilderValue& item) const;
    size_t popMark();
    BuilderValue decodeLong(const uint8_t* p, uint64_t n) const;
    [[noreturn]] void fail(const std::string& what) const;

    InputStream& m_in;
    SnapshotBuilder& m_builder;
    ValueStack m_stack;
    std::vector<size_t> m_marks;
    // The memo maps an index to a slot of m_memoValues, or holds the value itself: CPython memoizes every trace
    // entry dict, frame list and string of a file, the bulk of it, and most are never referenced again, so those
    // take 4 bytes here (an entry dict's, slot 0, not even written) and no value slot of their own.
    MemoSlots m_memo;
    // A slot per memoized frame dict, half a million in the benchmark's 1 GB rank: big pages, as the memo, where its
    // growth onto fresh 4 KiB pages was most of what faults were left in the parse.
    BigVector<BuilderValue> m_memoValues;
    std::unordered_map<uint64_t, BuilderValue> m_sparseMemo;
    std::vector<BuilderValue> m_items;
    std::vector<FrameId> m_frameIds; // a frame list's ids: a buffer whose size is its capacity
    BigVector<uint32_t> m_frameOfSlot; // per m_memoValues slot: its frame dict's FrameId + 1, 0 until known
    std::vector<BuilderValue> m_entryItems;
    std::array<BuilderValue, 32> m_pairItems; // more than any trace entry has
    // Frame lists read lately, with their stacks: a job's stacks repeat.
    RepeatedRuns m_frameLists;
    uint64_t m_opOffset = 0;
    bool m_rootCreated = false;
    PickleSplit* m_split = nullptr;
    bool m_announced = false;
    std::pair<uint64_t, uint64_t> m_partTaken { 0, 0 };
    // The part's reader
    bool m_isPart = false;
    BuilderValue m_partList;
    uint64_t m_memoBefore = 0;
    BigVector<uint8_t> m_partStored; // per memo index: stored by the part itself
    std::function<BuilderValue(uint64_t)> m_foreign;
    const std::atomic<bool>* m_abandoned = nullptr;
};

} // namespace RankScope
