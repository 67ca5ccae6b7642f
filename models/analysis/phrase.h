// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <concepts>
#include <memory>
#include <string>
#include <vector>

namespace RankScope {

/// A sentence the core says to the user (what a job cannot do with an option, why a rank is not at the point asked
/// for), kept as its English source text, marked for translation where it is written (QT_TRANSLATE_NOOP with its
/// context), and its arguments. The command line, JSON and reports print `english()`; the window shows
/// `translated()`, through the translators the application installed. The command line installs none, so its words
/// never depend on the user's locale.
class Phrase
{
public:
    /// An argument: text as it is, or a comparison point as --at names it ("event:5588"), said in words in a
    /// translation.
    struct Arg
    {
        Arg(std::string text)
            : text(std::move(text))
        { }
        Arg(const char* text)
            : text(text)
        { }
        template <std::integral N>
        Arg(N number)
            : text(std::to_string(number))
        { }
        static Arg point(std::string name);
        /// Items said as one list, the first `shown` of them and how many more ("a, b and 3 more"), each item and
        /// the list's words in the reader's language.
        static Arg list(std::vector<Phrase> items, size_t shown);

        std::string text;
        bool isPoint = false;
        std::shared_ptr<const std::vector<Phrase>> items;
        size_t shown = 0;
    };

    Phrase() = default;
    /// `source` with %1, %2 … standing for `args`; `context` and `source` as QT_TRANSLATE_NOOP marked them.
    Phrase(const char* context, const char* source, std::vector<Arg> args = {});

    bool empty() const
    {
        return !m_source;
    }
    std::string english() const;
    QString translated() const;

    /// Text said as it is, in every language (a file's name as an item of a list).
    static Phrase plain(std::string text);

    /// A comparison point as --at names it, in the user's language ("event:5588" in words); as it is without a
    /// translation.
    static QString pointWords(const std::string& point);

private:
    const char* m_context = nullptr;
    const char* m_source = nullptr;
    std::vector<Arg> m_args;
};

} // namespace RankScope
