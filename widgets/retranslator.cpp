// SPDX-License-Identifier: MIT
#include "retranslator.h"

#include <QEvent>
#include <QWidget>

namespace RankScope {

Retranslator::Retranslator(QWidget* owner)
    : QObject(owner)
{
    owner->installEventFilter(this);
}

void Retranslator::add(std::function<void()> setter)
{
    setter();
    m_setters.push_back(std::move(setter));
}

bool Retranslator::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && watched == parent()) {
        for (const auto& setter : m_setters)
            setter();
    }
    return false;
}

} // namespace RankScope
