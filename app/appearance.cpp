// SPDX-License-Identifier: MIT
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

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2d, 0x2d, 0x30), base(0x1e, 0x1e, 0x20), text(0xe8, 0xe8, 0xe8), button(0x3a, 0x3a, 0x3d);
    const QColor disabledText(0x80, 0x80, 0x80), highlight(0x3d, 0x7f, 0xc4);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x28, 0x28, 0x2b));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, button.lighter(150));
    p.setColor(QPalette::Midlight, button.lighter(125));
    p.setColor(QPalette::Mid, button.darker(130));
    p.setColor(QPalette::Dark, button.darker(180));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6a, 0xa9, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xf0));
    for (QPalette::ColorRole role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, button);
    return p;
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
        QApplication::setPalette(darkPalette());
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
