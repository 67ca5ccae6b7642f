// SPDX-License-Identifier: MIT
#include "shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHash>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScreen>
#include <QSet>
#include <QShortcut>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace RankScope {

namespace {

// A menu's or action's text as read, without its accelerator: "&Open…" and "打开(&O)…" lose the "&" and "(&O)".
QString plain(QString text)
{
    static const QRegularExpression accelerator(QStringLiteral("\\(&[^&]\\)|&(?!&)"));
    return text.remove(accelerator).replace(QLatin1String("&&"), QLatin1String("&"));
}

void addMenuEntries(
    const QMenu* menu, const QString& group, QList<ShortcutsDialog::Entry>& entries, QSet<QAction*>& seen)
{
    for (QAction* action : menu->actions()) {
        seen.insert(action);
        if (const QMenu* sub = action->menu())
            addMenuEntries(sub, group + QStringLiteral(" → ") + plain(sub->title()), entries, seen);
        else if (!action->isSeparator() && !action->shortcuts().isEmpty())
            entries.append({ group, plain(action->text()), action->shortcuts() });
    }
}

// The part of the window keys work in, by the name it has for assistive technology.
QString partName(const QWidget* part, Qt::ShortcutContext context)
{
    QString name = part->accessibleName();
    if (name.isEmpty())
        name = part->window()->windowTitle();
    if (context == Qt::WidgetShortcut || context == Qt::WidgetWithChildrenShortcut)
        return ShortcutsDialog::tr("%1 (when it has the focus)").arg(name);
    return name;
}

} // namespace

QList<ShortcutsDialog::Entry> ShortcutsDialog::entries(QWidget* window)
{
    QList<Entry> entries;
    QSet<QAction*> seen;
    if (const auto* main = qobject_cast<QMainWindow*>(window)) {
        if (const auto* bar = qobject_cast<QMenuBar*>(main->menuWidget())) {
            for (const QAction* top : bar->actions()) {
                if (const QMenu* menu = top->menu())
                    addMenuEntries(menu, plain(menu->title()), entries, seen);
            }
        }
    }
    for (QAction* action : window->findChildren<QAction*>()) {
        if (seen.contains(action) || action->shortcuts().isEmpty() || action->text().isEmpty())
            continue;
        // An action in no menu works where a widget carries it; menus taken off the menu bar are on their way out.
        const QList<QObject*> carriers = action->associatedObjects();
        const auto carrier = std::find_if(carriers.begin(), carriers.end(), [](const QObject* object) {
            return object->isWidgetType() && !qobject_cast<const QMenu*>(object)
                && !qobject_cast<const QMenuBar*>(object);
        });
        if (carrier != carriers.end())
            entries.append({ partName(static_cast<QWidget*>(*carrier), action->shortcutContext()),
                plain(action->text()), action->shortcuts() });
    }
    for (const QShortcut* shortcut : window->findChildren<QShortcut*>()) {
        const auto* part = qobject_cast<const QWidget*>(shortcut->parent());
        if (part && shortcut->isEnabled() && !shortcut->keys().isEmpty())
            entries.append({ partName(part, shortcut->context()), shortcut->whatsThis(), shortcut->keys() });
    }
    return entries;
}

ShortcutsDialog::ShortcutsDialog(QWidget* window)
    : QDialog(window)
    , m_window(window)
    , m_tree(new QTreeWidget(this))
{
    m_tree->setColumnCount(2);
    m_tree->setRootIsDecorated(false);
    m_tree->setSelectionMode(QAbstractItemView::NoSelection);
    m_tree->setAlternatingRowColors(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_tree);
    layout->addWidget(buttons);
    fill();
    const QSize room = screen()->availableGeometry().size() * 0.8;
    resize(QSize(m_tree->header()->length() + 60, 640).boundedTo(room));
}

ShortcutsDialog* ShortcutsDialog::open(QWidget* window)
{
    auto* dialog = new ShortcutsDialog(window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

QList<std::pair<QString, QString>> ShortcutsDialog::mouseGestures()
{
    return {
        { tr("Wheel"), tr("Zoom in or out in time") },
        { tr("Drag"), tr("Zoom into the box drawn") },
        { tr("Shift+drag"), tr("Pan") },
        { tr("Click"), tr("Show an allocation's stack, or an OOM's failed request") },
        { tr("Double-click"), tr("Compare every rank at that moment") },
        { tr("Right-click"), tr("The timeline's menu: zoom, axes, colours, compare here") },
        { tr("Drag in the overview"), tr("Show that stretch of the trace") },
    };
}

void ShortcutsDialog::fill()
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_tree->setAccessibleName(tr("Keyboard shortcuts"));
    m_tree->setHeaderLabels({ tr("Action"), tr("Keys") });
    m_tree->clear();
    // A menu's actions after its submenu's stay under the menu's name.
    QHash<QString, QTreeWidgetItem*> groups;
    for (const Entry& entry : entries(m_window)) {
        QTreeWidgetItem*& group = groups[entry.group];
        if (!group) {
            group = new QTreeWidgetItem(m_tree, { entry.group });
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFirstColumnSpanned(true);
        }
        QStringList keys;
        for (const QKeySequence& key : entry.keys)
            keys << key.toString(QKeySequence::NativeText);
        new QTreeWidgetItem(group, { entry.text, keys.join(QLatin1String(", ")) });
    }
    // The mouse does as much on the timelines as the keys: it is listed too, or a user would never find the box zoom.
    auto* mouse = new QTreeWidgetItem(m_tree, { tr("Mouse on the timelines") });
    QFont bold = mouse->font(0);
    bold.setBold(true);
    mouse->setFont(0, bold);
    mouse->setFirstColumnSpanned(true);
    for (const auto& [gesture, what] : mouseGestures())
        new QTreeWidgetItem(mouse, { what, gesture });
    m_tree->expandAll();
    m_tree->resizeColumnToContents(0);
    m_tree->resizeColumnToContents(1);
}

void ShortcutsDialog::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    // After the window has made its menus in the new language, which it may do after this dialog hears of it.
    if (event->type() == QEvent::LanguageChange)
        QMetaObject::invokeMethod(this, &ShortcutsDialog::fill, Qt::QueuedConnection);
}

} // namespace RankScope
