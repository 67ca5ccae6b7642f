// SPDX-License-Identifier: MIT
// libFuzzer target: one pickle parsed on two threads (PickleSplit) against the same bytes parsed on one, each read in
// chunks and as one window (as a mapped file). The split is asked for at a place the input's last byte picks; all
// must fail with the same message or give the same snapshot, table by table and entry by entry (seeded with
// snapshots of a few thousand entries, in batches).
#include "fuzzsnapshot.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

namespace {

struct Outcome
{
    std::string error;
    RankScope::SnapshotPtr snapshot;
};

// In chunks (a buffer), or with `window` as one window (as a mapped file).
Outcome read(const QByteArray& bytes, const char* split, bool window)
{
    setenv("RANKSCOPE_SPLIT", split, 1);
    QByteArray copy = bytes;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    try {
        return { {},
            (window ? RankScope::SnapshotReader::readBytes(copy) : RankScope::SnapshotReader::read(&buffer)).snapshot };
    } catch (const RankScope::ReadError& e) {
        return { e.what(), nullptr };
    }
}

bool same(const RankScope::Snapshot& a, const RankScope::Snapshot& b)
{
    using namespace RankScope;
    if (a.strings.size() != b.strings.size() || a.frames.size() != b.frames.size() || a.stacks.size() != b.stacks.size()
        || a.deviceTraces.size() != b.deviceTraces.size() || a.streams != b.streams || a.entryKinds != b.entryKinds
        || a.entryContexts.size() != b.entryContexts.size() || a.hostTrace.size() != b.hostTrace.size()
        || a.deviceTimes != b.deviceTimes || !(a.hostTimes == b.hostTimes))
        return false;
    for (size_t i = 0; i < a.strings.size(); ++i) {
        if (a.strings.view(StringId(i)) != b.strings.view(StringId(i)))
            return false;
    }
    for (size_t i = 0; i < a.frames.size(); ++i) {
        if (!(a.frames.frame(FrameId(i)) == b.frames.frame(FrameId(i))))
            return false;
    }
    for (size_t i = 0; i < a.stacks.size(); ++i) {
        if (!std::ranges::equal(a.stacks.frames(StackId(i)), b.stacks.frames(StackId(i))))
            return false;
    }
    for (size_t d = 0; d < a.deviceTraces.size(); ++d) {
        if (!std::ranges::equal(a.deviceTraces[d], b.deviceTraces[d]))
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    const QByteArray bytes = RankScope::Fuzz::bytesOf(data, size);
    const std::string at = "at=0." + std::to_string(1 + data[size - 1] % 9) + ",min=0";
    const Outcome whole = read(bytes, "off", false);
    for (const bool window : { false, true }) {
        for (const char* split : { "off", at.c_str() }) {
            const Outcome other = read(bytes, split, window);
            if (whole.error != other.error || bool(whole.snapshot) != bool(other.snapshot)
                || (whole.snapshot && !same(*whole.snapshot, *other.snapshot)))
                std::abort();
        }
    }
    return 0;
}
