// SPDX-License-Identifier: MIT
#include "formatting.h"

#include <QCoreApplication>

#include <QStringList>

#include <algorithm>
#include <cstdlib>

namespace RankScope::Formatting {

QString bytes(int64_t value)
{
    static const char* const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    const uint64_t magnitude = value < 0 ? uint64_t(0) - uint64_t(value) : uint64_t(value);
    int unit = 0;
    double scaled = double(magnitude);
    while (scaled >= 1024.0 && unit < 6) {
        scaled /= 1024.0;
        ++unit;
    }
    // Three significant digits, without trailing zeros: "128 MiB", "13.2 GiB", "1.28 GiB".
    QString number = QString::number(magnitude);
    if (unit > 0) {
        number = QString::number(scaled, 'f', scaled >= 100 ? 0 : (scaled >= 10 ? 1 : 2));
        if (number.contains(QLatin1Char('.'))) {
            while (number.endsWith(QLatin1Char('0')))
                number.chop(1);
            if (number.endsWith(QLatin1Char('.')))
                number.chop(1);
        }
    }
    return (value < 0 ? QStringLiteral("-") : QString()) + number + QLatin1Char(' ') + QLatin1String(units[unit]);
}

QString bytesExact(int64_t value)
{
    return QCoreApplication::translate("Formatting", "%1 (%2 bytes)").arg(bytes(value)).arg(value);
}

QString unallocated(int64_t unallocated, int64_t reserved, int64_t largestFree)
{
    const double share = reserved > 0 ? 100.0 * double(unallocated) / double(reserved) : 0.0;
    return QCoreApplication::translate("Formatting", "%1 reserved but unallocated (%2%), largest free block %3")
        .arg(bytes(unallocated))
        .arg(share, 0, 'f', share < 10 ? 1 : 0)
        .arg(bytes(largestFree));
}

QString ranks(std::vector<int> list)
{
    std::sort(list.begin(), list.end());
    QStringList parts;
    for (size_t i = 0; i < list.size();) {
        size_t j = i;
        while (j + 1 < list.size() && list[j + 1] == list[j] + 1)
            ++j;
        if (j >= i + 2) {
            parts << QString::number(list[i]) + QStringLiteral("\u2013") + QString::number(list[j]);
        } else {
            for (size_t k = i; k <= j; ++k)
                parts << QString::number(list[k]);
        }
        i = j + 1;
    }
    return parts.join(QLatin1String(", "));
}

QString fileName(const std::string& path)
{
    const size_t slash = path.find_last_of("/\\");
    return QString::fromStdString(slash == std::string::npos ? path : path.substr(slash + 1));
}

QString text(std::string_view utf8)
{
    return QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
}

} // namespace RankScope::Formatting
