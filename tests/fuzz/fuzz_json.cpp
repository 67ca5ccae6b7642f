// SPDX-License-Identifier: MIT
// libFuzzer target: the JSON reader. Inputs are made to start with '{' so that every one reaches the JSON parser
// (seeded with the real snapshots re-written as JSON).
#include "fuzzsnapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    QByteArray bytes = RankScope::Fuzz::bytesOf(data, size);
    if (!bytes.startsWith('{') && !bytes.startsWith('['))
        bytes.prepend('{');
    RankScope::Fuzz::readSnapshot(bytes);
    return 0;
}
