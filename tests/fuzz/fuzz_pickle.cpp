// SPDX-License-Identifier: MIT
// libFuzzer target: the pickle reader, fed raw bytes (seeded with the real snapshots of tests/data).
#include "fuzzsnapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    RankScope::Fuzz::readSnapshot(RankScope::Fuzz::bytesOf(data, size));
    return 0;
}
