// SPDX-License-Identifier: MIT
#include "fieldshortcuts.h"

#include <QAction>
#include <QKeyEvent>
#include <QLineEdit>
#include <QWidget>

namespace RankScope {

void FieldShortcuts::install(QWidget* field)
{
    QWidget* target = qobject_cast<QLineEdit*>(field) ? field : field->findChild<QLineEdit*>();
    if (!target)
        target = field;
    target->installEventFilter(new FieldShortcuts(target));
}

bool FieldShortcuts::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ShortcutOverride)
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    if (!(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier)))
        return false;
    for (QKeySequence::StandardKey editing : { QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste,
             QKeySequence::Undo, QKeySequence::Redo, QKeySequence::SelectAll, QKeySequence::MoveToNextWord,
             QKeySequence::MoveToPreviousWord, QKeySequence::SelectNextWord, QKeySequence::SelectPreviousWord,
             QKeySequence::DeleteStartOfWord, QKeySequence::DeleteEndOfWord }) {
        if (key->matches(editing))
            return false;
    }
    const QKeySequence pressed(key->keyCombination());
    for (const QAction* action : static_cast<QWidget*>(watched)->window()->findChildren<QAction*>()) {
        if (action->isEnabled() && action->shortcuts().contains(pressed)) {
            event->ignore(); // not taken by the field: the shortcut map gets it
            return true;
        }
    }
    return false;
}

} // namespace RankScope
