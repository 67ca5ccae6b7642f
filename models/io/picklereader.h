// SPDX-License-Identifier: MIT
#pragma once

#include "inputstream.h"
#include "snapshotbuilder.h"

#include <algorithm>
#include <unordered_map>

namespace RankScope {

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

    void runOpcodes();
    BuilderValue createContainer(bool isDict);
    void memoPut(uint64_t index);
    void memoPut(uint64_t index, const BuilderValue& value);
    BuilderValue memoGet(uint64_t index) const;
    bool readWholeFrameList(const uint8_t*& p, const uint8_t* end, const BuilderValue& list);
    bool readTraceEntry(const uint8_t*& p, const uint8_t* end);
    size_t popMark();
    BuilderValue decodeLong(const uint8_t* p, uint64_t n) const;
    [[noreturn]] void fail(const std::string& what) const;

    InputStream& m_in;
    SnapshotBuilder& m_builder;
    ValueStack m_stack;
    std::vector<size_t> m_marks;
    // The memo maps an index to a slot of m_memoValues, or holds the value itself: CPython memoizes every trace
    // entry dict, frame list and string of a file, the bulk of it, and most are never referenced again, so those
    // take 4 bytes here and no value slot.
    std::vector<uint32_t, BigAllocator<uint32_t>> m_memo;
    std::vector<BuilderValue> m_memoValues;
    std::unordered_map<uint64_t, BuilderValue> m_sparseMemo;
    std::vector<BuilderValue> m_items;
    std::vector<FrameId> m_frameIds; // a frame list's ids: a buffer whose size is its capacity
    std::vector<uint32_t> m_frameOfSlot; // per m_memoValues slot: its frame dict's FrameId + 1, 0 until known
    std::vector<BuilderValue> m_entryItems;
    uint64_t m_opOffset = 0;
    bool m_rootCreated = false;
};

} // namespace RankScope
