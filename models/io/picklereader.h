// SPDX-License-Identifier: MIT
#pragma once

#include "inputstream.h"
#include "snapshotbuilder.h"

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
    void runOpcodes();
    BuilderValue createContainer(bool isDict);
    void memoPut(uint64_t index);
    const BuilderValue& memoGet(uint64_t index) const;
    size_t popMark();
    BuilderValue decodeLong(const uint8_t* p, uint64_t n) const;
    [[noreturn]] void fail(const std::string& what) const;

    InputStream& m_in;
    SnapshotBuilder& m_builder;
    std::vector<BuilderValue> m_stack;
    std::vector<size_t> m_marks;
    // The memo maps an index to a slot of m_memoValues. Trace entry dicts, the bulk of every file, are memoized by
    // CPython but never referenced again, so they take 4 bytes here and no value slot.
    std::vector<uint32_t, HugePageAllocator<uint32_t>> m_memo;
    std::vector<BuilderValue> m_memoValues;
    std::unordered_map<uint64_t, BuilderValue> m_sparseMemo;
    std::vector<BuilderValue> m_items;
    uint64_t m_opOffset = 0;
    bool m_rootCreated = false;
};

} // namespace RankScope
