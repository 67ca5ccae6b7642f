// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QComboBox;

namespace RankScope {

/// Preferences that take effect as they are chosen, with no restart: language, colour theme and the timelines'
/// level of detail. Kept by Appearance.
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(QWidget* parent = nullptr);

    QComboBox* languageBox() const
    {
        return m_language;
    }
    QComboBox* themeBox() const
    {
        return m_theme;
    }
    QComboBox* detailBox() const
    {
        return m_detail;
    }

signals:
    void timelineBandsChanged(int bands);

private:
    QComboBox* m_language = nullptr;
    QComboBox* m_theme = nullptr;
    QComboBox* m_detail = nullptr;
};

} // namespace RankScope
