// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

#include <functional>
#include <vector>

class QWidget;

namespace RankScope {

/// Keeps a widget's texts in the current language without a restart: each setter runs once when added and again
/// whenever the owner receives QEvent::LanguageChange (sent to every widget when a translator is installed or
/// removed). Setters sit next to the code that creates the widgets they word.
class Retranslator : public QObject
{
public:
    explicit Retranslator(QWidget* owner);

    void add(std::function<void()> setter);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::vector<std::function<void()>> m_setters;
};

} // namespace RankScope
