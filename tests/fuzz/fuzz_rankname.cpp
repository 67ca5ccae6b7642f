// SPDX-License-Identifier: MIT
// libFuzzer target: the rank-name parser, on file names and lists of them (any bytes, read as UTF-8).
#include "rankname.h"

#include <QStringList>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    (void)RankScope::RankName::fromPath(text);
    const QStringList paths = text.split(QLatin1Char('\n'));
    const QList<RankScope::RankName::Assigned> ranks = RankScope::RankName::assign(paths);
    if (ranks.size() != paths.size())
        __builtin_trap(); // every path gets a rank
    return 0;
}
