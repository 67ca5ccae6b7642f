// SPDX-License-Identifier: MIT
#pragma once

#include "picklereader.h"
#include "snapshotbuilder.h"

#include <QIODevice>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace RankScope {

class InputStream;

/// The second core's share of one large pickle's parse. A thread of its own reads the file again from the start
/// and walks its opcodes without building anything, following the memo (protocol 4 numbers its entries only by
/// counting; older ones may store over an index) and keeping what each entry is, to a point inside a trace list,
/// between two batches of entries, past `target`. From there it parses the rest of that list with a SnapshotBuilder of
/// its own, objects from before that point standing in as placeholders. The reader on the calling thread parses up to
/// the same point, takes the part's entries (SnapshotBuilder::absorb) and carries on after them; when the part cannot
/// be taken as it is, the reader parses it itself, so the result is always that of one parse.
class PickleSplit
{
public:
    using OpenSource = std::function<std::unique_ptr<InputStream>()>;
    /// What the part's thread made, read by the reader only after wait() returned it.
    struct Part
    {
        std::unique_ptr<SnapshotBuilder> builder;
        PickleReader::PartMemo memo; ///< the memo entries it stored
        uint64_t start = 0;
        uint64_t end = 0;
        uint64_t memoBefore = 0;
        size_t depth = 0; ///< the pickle stack's size at `start`, the trace list on top
        size_t marks = 0;
    };

    /// Starts the thread. `open` gives a fresh stream over the same bytes, read from its start, without a thread. The
    /// point is the first past `target`, or with `balance` the first past it where the reader is a quarter further from
    /// it than it is from the end; the walk stops as soon as `coresBusy` says the other cores have work of their own
    /// (other files being read), where a part would only take time from them.
    /// With `trace`, each step is told on stderr with the seconds since the split began (RANKSCOPE_SPLIT=trace): where
    /// the walk found its point and where the reader was then, when the part and the reader got there, what taking it
    /// in cost.
    PickleSplit(OpenSource open, uint64_t size, uint64_t target, bool balance, std::function<bool()> coresBusy = {},
        bool trace = false);
    /// Abandons the part, if still running, and waits for the thread (within a megabyte of its work).
    ~PickleSplit();
    PickleSplit(const PickleSplit&) = delete;
    PickleSplit& operator=(const PickleSplit&) = delete;

    /// The reader made a trace list at `offset` (its opcode), which sits at `depth` on a stack with `marks` marks.
    /// Without `balance`, waits for the walk to find its point (or give up), so the reader never passes it: a split
    /// at a given place, as the tests and fuzzers ask for, always happens where it can.
    void announceTraceList(uint64_t offset, size_t depth, size_t marks, const std::function<void()>& poll);
    /// Where the reader is: the walk gives up points it would reach too late.
    void readerAt(uint64_t offset)
    {
        m_readerAt.store(offset, std::memory_order_relaxed);
    }
    /// The offset of the point, once the walk found it; UINT64_MAX before, and when it found none.
    uint64_t splitOffset() const
    {
        return m_splitOffset.load(std::memory_order_acquire);
    }
    void abandon();
    /// A line on stderr when tracing (see the constructor); `at`, where given, is said as a share of the file.
    void trace(std::string_view what, uint64_t at = UINT64_MAX) const;
    /// Waits for the part (calling `poll`, which may throw to cancel, every few milliseconds); nullptr when there
    /// is none to take.
    const Part* wait(const std::function<void()>& poll);

private:
    struct Walk;
    void run();
    bool walk(InputStream& in, Walk& w);
    void walked();
    void waitFor(
        std::unique_lock<std::mutex>& lock, const std::function<bool()>& done, const std::function<void()>& poll);

    OpenSource m_open;
    uint64_t m_size = 0;
    uint64_t m_target = 0;
    bool m_balance = false;
    std::function<bool()> m_coresBusy;
    bool m_trace = false;
    std::chrono::steady_clock::time_point m_begun;
    std::atomic<bool> m_abandoned { false };
    std::atomic<uint64_t> m_splitOffset { UINT64_MAX };
    std::atomic<uint64_t> m_readerAt { 0 };
    struct List
    {
        uint64_t offset;
        size_t depth;
        size_t marks;
    };
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<List> m_lists;
    bool m_walked = false;
    bool m_done = false;
    bool m_ok = false;
    Part m_part;
    std::thread m_thread;
};

} // namespace RankScope
