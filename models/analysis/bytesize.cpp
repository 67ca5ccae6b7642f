// SPDX-License-Identifier: MIT
#include "bytesize.h"

#include <QRegularExpression>

#include <cmath>

namespace RankScope {

namespace {

double unitBytes(QStringView unit)
{
    const QString u = unit.toString().toLower();
    if (u.isEmpty() || u == QLatin1String("b"))
        return 1;
    const bool binary = u.size() == 3; // kib, mib, ...
    const double base = binary ? 1024.0 : 1000.0;
    const int power = QStringLiteral("kmgt").indexOf(u[0]) + 1;
    return std::pow(base, power);
}

} // namespace

std::optional<int64_t> parseByteSize(const QString& text, QStringView defaultUnit)
{
    static const QRegularExpression size(
        QStringLiteral(R"(^([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([KMGT]i?B|B)?$)"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = size.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double number = m.captured(1).toDouble(&ok);
    if (!ok || number < 0)
        return std::nullopt;
    const QString unit = m.captured(2);
    const double bytes = number * unitBytes(unit.isEmpty() ? defaultUnit : QStringView(unit));
    if (!(bytes < 9.0e18))
        return std::nullopt;
    return int64_t(std::llround(bytes));
}

std::optional<int64_t> parseByteSizeWithUnit(const QString& text)
{
    const std::optional<int64_t> bytes = parseByteSize(text);
    if (!bytes || *bytes <= 0 || !text.trimmed().endsWith(QLatin1Char('B'), Qt::CaseInsensitive))
        return std::nullopt;
    return bytes;
}

} // namespace RankScope
