// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QWidget;

namespace RankScope {

/// Keeps a window's shortcuts working while a text field has focus. Text fields and spin boxes claim some of them for
/// themselves (on X11 a line edit takes Ctrl+E for "end of line"), so Export and friends would do nothing while the
/// field has focus; on a field this filter lets the window's own shortcuts win, except the editing keys every field
/// needs.
class FieldShortcuts : public QObject
{
public:
    /// Installs the filter on `field`, or on the line edit inside it (a spin box's keys go there).
    static void install(QWidget* field);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

} // namespace RankScope
