// SPDX-License-Identifier: MIT
#include "settingsdialog.h"

#include "appearance.h"
#include "retranslator.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace RankScope {

namespace {

constexpr int DetailBands[] = { 2000, 15000, 60000 };

} // namespace

SettingsDialog::SettingsDialog(QWidget* parent)
    : QDialog(parent)
    , m_language(new QComboBox(this))
    , m_theme(new QComboBox(this))
    , m_detail(new QComboBox(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    layout->addLayout(form);
    auto* languageLabel = new QLabel(this);
    auto* themeLabel = new QLabel(this);
    auto* detailLabel = new QLabel(this);
    languageLabel->setBuddy(m_language);
    themeLabel->setBuddy(m_theme);
    detailLabel->setBuddy(m_detail);
    form->addRow(languageLabel, m_language);
    form->addRow(themeLabel, m_theme);
    form->addRow(detailLabel, m_detail);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    // Language names stay in their own language; only "system" is worded in the current one.
    m_language->addItem(QString(), QString());
    for (const QString& language : Appearance::languages())
        m_language->addItem(Appearance::nativeName(language), language);
    m_language->setCurrentIndex(std::max(0, m_language->findData(Appearance::language())));
    for (int i = 0; i < 3; ++i)
        m_theme->addItem(QString(), i);
    m_theme->setCurrentIndex(int(Appearance::theme()));
    for (int bands : DetailBands)
        m_detail->addItem(QString(), bands);
    m_detail->setCurrentIndex(std::max(0, m_detail->findData(Appearance::timelineBands())));

    (new Retranslator(this))->add([=, this] {
        setWindowTitle(tr("Settings"));
        languageLabel->setText(tr("&Language:"));
        themeLabel->setText(tr("&Theme:"));
        detailLabel->setText(tr("Timeline &detail:"));
        m_language->setItemText(0,
            tr("System default (%1)")
                .arg(Appearance::nativeName(
                    QLocale::system().name() == QLatin1String("C") ? QStringLiteral("en") : QLocale::system().name())));
        m_language->setToolTip(tr("The language of menus, views and messages; the command line stays in English"));
        m_theme->setItemText(0, tr("Follow the system"));
        m_theme->setItemText(1, tr("Light"));
        m_theme->setItemText(2, tr("Dark"));
        m_theme->setToolTip(tr("Colours of the window and the charts"));
        m_detail->setItemText(0, tr("Coarse: at most 2,000 bands"));
        m_detail->setItemText(1, tr("Normal: at most 15,000 bands"));
        m_detail->setItemText(2, tr("Fine: at most 60,000 bands"));
        m_detail->setToolTip(tr("Every allocation at least a pixel tall gets a band of its own on the timelines, up to "
                                "this many; past it the smallest join the grey remainder. More take longer to draw."));
    });

    // Each choice applies at once: the user sees the window change behind the dialog.
    connect(m_language, &QComboBox::currentIndexChanged, this,
        [this] { Appearance::setLanguage(m_language->currentData().toString()); });
    connect(m_theme, &QComboBox::currentIndexChanged, this,
        [](int index) { Appearance::setTheme(Appearance::Theme(index)); });
    connect(m_detail, &QComboBox::currentIndexChanged, this, [this] {
        const int bands = m_detail->currentData().toInt();
        Appearance::setTimelineBands(bands);
        emit timelineBandsChanged(bands);
    });
}

} // namespace RankScope
