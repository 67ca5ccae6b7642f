// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace RankScope {

/// The user's language, colour theme and timeline detail: applied to the running application (every open window
/// follows at once, no restart) and kept in QSettings.
namespace Appearance {

enum Theme
{
    SystemTheme, ///< the platform's palette, light or dark, and its changes while the app runs
    LightTheme,
    DarkTheme,
};

/// Languages RankScope has a translation for, as locale names: "en", "zh_CN".
QStringList languages();
/// A language's name in that language ("English", "简体中文"), so a user can find their own in any UI language.
QString nativeName(const QString& language);
/// The saved choice; empty follows the system locale.
QString language();
/// Saves the choice and installs its translators (RankScope's and Qt's own for standard dialogs), which sends
/// QEvent::LanguageChange to every widget.
void setLanguage(const QString& language);
/// The language in use after applying `language()`: the system's when it has a translation, else English.
QString effectiveLanguage();

Theme theme();
void setTheme(Theme theme);

/// Timeline level of detail: the most bands a timeline draws (TimelineView::setMaxBands).
int timelineBands();
void setTimelineBands(int bands);

/// Applies the saved language and theme; called once at start-up, before the first window.
void restore();

} // namespace Appearance

} // namespace RankScope
