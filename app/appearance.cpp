// SPDX-License-Identifier: MIT
#include "chartstyle.h"

#include "appearance.h"

#include "timelineview.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QTranslator>

#include <memory>

namespace RankScope::Appearance {

namespace {

const QString LanguageKey = QStringLiteral("appearance/language");
const QString ThemeKey = QStringLiteral("appearance/theme");
// Was "timeline/bands" when the setting counted the largest allocations (16 to 128): a new key, so an old choice is
// not read as a cap.
const QString BandsKey = QStringLiteral("timeline/maxBands");
const QString TranslationDir = QStringLiteral(":/i18n");

std::unique_ptr<QTranslator> s_own;
std::unique_ptr<QTranslator> s_qt;
QString s_effective = QStringLiteral("en");

void installLanguage(const QString& language)
{
    for (auto* translator : { &s_own, &s_qt }) {
        if (*translator)
            QCoreApplication::removeTranslator(translator->get());
        translator->reset();
    }
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    auto own = std::make_unique<QTranslator>();
    s_effective = QStringLiteral("en");
    if (own->load(locale, QStringLiteral("rankscope"), QStringLiteral("_"), TranslationDir)) {
        s_effective = QFileInfo(own->filePath()).completeBaseName().mid(10); // after "rankscope_"
    } else if (!own->load(QStringLiteral("rankscope_en"), TranslationDir)) {
        own.reset();
    }
    if (own)
        QCoreApplication::installTranslator((s_own = std::move(own)).get());
    // Qt's own strings (file dialogs, message box buttons), where the system has them installed.
    if (s_effective != QLatin1String("en")) {
        auto qt = std::make_unique<QTranslator>();
        if (qt->load(QLocale(s_effective), QStringLiteral("qtbase"), QStringLiteral("_"),
                QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator((s_qt = std::move(qt)).get());
    }
}

void applyTheme(Theme theme)
{
    switch (theme) {
    case SystemTheme:
        // A palette with no roles set gives the platform's back, and keeps following it.
        QApplication::setPalette(QPalette());
        break;
    case LightTheme:
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case DarkTheme:
        QApplication::setPalette(ChartStyle::darkPalette());
        break;
    }
}

} // namespace

QStringList languages()
{
    QStringList list;
    for (const QString& file : QDir(TranslationDir).entryList({ QStringLiteral("rankscope_*.qm") }, QDir::Files))
        list.append(QFileInfo(file).completeBaseName().mid(10));
    list.removeAll(QStringLiteral("en"));
    list.sort();
    list.prepend(QStringLiteral("en"));
    return list;
}

QString nativeName(const QString& language)
{
    if (language == QLatin1String("en"))
        return QStringLiteral("English");
    const QLocale locale(language);
    QString name = locale.nativeLanguageName();
    if (locale.script() == QLocale::SimplifiedHanScript || language == QLatin1String("zh_CN"))
        name = QStringLiteral("简体中文");
    return name;
}

QString language()
{
    return QSettings().value(LanguageKey).toString();
}

void setLanguage(const QString& language)
{
    QSettings().setValue(LanguageKey, language);
    installLanguage(language);
}

QString effectiveLanguage()
{
    return s_effective;
}

Theme theme()
{
    return Theme(std::clamp(QSettings().value(ThemeKey, int(SystemTheme)).toInt(), 0, int(DarkTheme)));
}

void setTheme(Theme theme)
{
    QSettings().setValue(ThemeKey, int(theme));
    applyTheme(theme);
}

int timelineBands()
{
    return std::clamp(QSettings().value(BandsKey, TimelineView::DefaultBands).toInt(), 1, 1000000);
}

void setTimelineBands(int bands)
{
    QSettings().setValue(BandsKey, bands);
}

void restore()
{
    installLanguage(language());
    if (theme() != SystemTheme)
        applyTheme(theme());
}

} // namespace RankScope::Appearance
