// SPDX-License-Identifier: MIT
#include "phrase.h"

#include "devicehistory.h"

#include <QCoreApplication>

#include <optional>

namespace RankScope {

namespace {

// `text` with each %1 … %9 replaced by its argument; an argument may stand in several places, in any order.
QString fill(const QString& text, const std::vector<QString>& args)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const int n = i + 1 < text.size() && text[i] == QLatin1Char('%') ? text[i + 1].digitValue() : -1;
        if (n >= 1 && size_t(n) <= args.size()) {
            out += args[size_t(n) - 1];
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

// A list's items joined, the first `shown` of them and how many more: in English for english(), else in the reader's
// language.
QString listWords(const Phrase::Arg& arg, bool english)
{
    const auto say = [english](const char* source) {
        return english ? QString::fromUtf8(source) : QCoreApplication::translate("RankScope::Phrase", source);
    };
    QString list;
    const std::vector<Phrase>& items = *arg.items;
    for (size_t i = 0; i < items.size() && i < arg.shown; ++i) {
        if (i > 0)
            list += say(QT_TRANSLATE_NOOP("RankScope::Phrase", ", "));
        list += english ? QString::fromStdString(items[i].english()) : items[i].translated();
    }
    if (items.size() > arg.shown)
        list = say(QT_TRANSLATE_NOOP("RankScope::Phrase", "%1 and %2 more"))
                   .arg(list)
                   .arg(qulonglong(items.size() - arg.shown));
    return list;
}

} // namespace

Phrase::Arg Phrase::Arg::list(std::vector<Phrase> items, size_t shown)
{
    Arg arg(std::string {});
    arg.items = std::make_shared<const std::vector<Phrase>>(std::move(items));
    arg.shown = shown;
    arg.text = listWords(arg, true).toStdString();
    return arg;
}

Phrase Phrase::plain(std::string text)
{
    return Phrase(nullptr, "%1", { std::move(text) });
}

Phrase::Arg Phrase::Arg::point(std::string name)
{
    Arg arg(std::move(name));
    arg.isPoint = true;
    return arg;
}

Phrase::Phrase(const char* context, const char* source, std::vector<Arg> args)
    : m_context(context)
    , m_source(source)
    , m_args(std::move(args))
{ }

std::string Phrase::english() const
{
    if (!m_source)
        return {};
    std::vector<QString> args;
    for (const Arg& arg : m_args)
        args.push_back(QString::fromStdString(arg.text));
    return fill(QString::fromUtf8(m_source), args).toStdString();
}

QString Phrase::translated() const
{
    if (!m_source)
        return {};
    std::vector<QString> args;
    for (const Arg& arg : m_args)
        args.push_back(arg.items ? listWords(arg, false)
                : arg.isPoint    ? pointWords(arg.text)
                                 : QString::fromStdString(arg.text));
    return fill(m_context ? QCoreApplication::translate(m_context, m_source) : QString::fromUtf8(m_source), args);
}

QString Phrase::pointWords(const std::string& point)
{
    const auto say = [](const char* source) { return QCoreApplication::translate("RankScope::TimelinePoint", source); };
    const std::optional<TimelinePoint::Spec> spec = TimelinePoint::parse(point);
    if (!spec)
        return point == "aligned" ? say(QT_TRANSLATE_NOOP("RankScope::TimelinePoint", "aligned"))
                                  : QString::fromStdString(point);
    switch (spec->kind) {
    case TimelinePoint::Peak:
        return say(QT_TRANSLATE_NOOP("RankScope::TimelinePoint", "peak"));
    case TimelinePoint::Snapshot:
        return say(QT_TRANSLATE_NOOP("RankScope::TimelinePoint", "snapshot"));
    case TimelinePoint::Oom:
        return say(QT_TRANSLATE_NOOP("RankScope::TimelinePoint", "oom"));
    case TimelinePoint::Event:
        return spec->rank >= 0
            ? say(QT_TRANSLATE_NOOP("RankScope::TimelinePoint", "event:%1@%2")).arg(spec->number).arg(spec->rank)
            : say(QT_TRANSLATE_NOOP("RankScope::TimelinePoint", "event:%1")).arg(spec->number);
    case TimelinePoint::StepStart:
        return say(QT_TRANSLATE_NOOP("RankScope::TimelinePoint", "step:%1")).arg(spec->number);
    case TimelinePoint::StepEnd:
        return say(QT_TRANSLATE_NOOP("RankScope::TimelinePoint", "step:%1:end")).arg(spec->number);
    }
    return QString::fromStdString(point);
}

} // namespace RankScope
