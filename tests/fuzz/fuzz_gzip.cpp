// SPDX-License-Identifier: MIT
// libFuzzer target: the gzip path. Inputs are made to start with the gzip magic so that every one goes through
// zlib and the sliding window (seeded with gzip-compressed real snapshots).
#include "fuzzsnapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    QByteArray bytes = RankScope::Fuzz::bytesOf(data, size);
    if (!bytes.startsWith("\x1f\x8b"))
        bytes.prepend("\x1f\x8b", 2);
    RankScope::Fuzz::readSnapshot(bytes);
    return 0;
}
