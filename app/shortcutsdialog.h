// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QKeySequence>
#include <QList>

#include <utility>

class QTreeWidget;

namespace RankScope {

/// Help → Keyboard Shortcuts: every shortcut of a window, read from its actions and shortcuts whenever it is shown, so
/// the list cannot drift from the keys that work: the menus' actions under their menu's name, then the keys a part of
/// the window takes while it has focus (the timelines') and any QShortcut, under that part's name.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    struct Entry
    {
        /// The menu ("View", "File → Export") or the part of the window the keys work in.
        QString group;
        /// What the keys do: the action's text without its accelerator.
        QString text;
        QList<QKeySequence> keys;
    };
    /// The shortcuts of `window` as they are now, menus first, in their order.
    static QList<Entry> entries(QWidget* window);
    /// What the mouse does on the timelines, listed after the keys: (gesture, what it does).
    static QList<std::pair<QString, QString>> mouseGestures();

    /// Lists the shortcuts of `window`, the dialog's parent.
    explicit ShortcutsDialog(QWidget* window);
    /// Opens one for `window` that deletes itself when closed.
    static ShortcutsDialog* open(QWidget* window);
    QTreeWidget* tree() const
    {
        return m_tree;
    }

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();

    QWidget* m_window;
    QTreeWidget* m_tree;
};

} // namespace RankScope
