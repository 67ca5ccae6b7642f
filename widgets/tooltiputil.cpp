// SPDX-License-Identifier: MIT
#include "tooltiputil.h"

#include <QApplication>
#include <QLabel>
#include <QRect>
#include <QToolTip>

#include <algorithm>

namespace RankScope::ToolTipUtil {

QPoint place(const QSize& size, const QPoint& cursor, const QRect& bounds)
{
    // Qt's own offsets from the pointer: a little right, and below a cursor of 16 pixels.
    int x = cursor.x() + 2;
    int y = cursor.y() + 16;
    if (x + size.width() > bounds.x() + bounds.width())
        x = cursor.x() - 4 - size.width();
    if (y + size.height() > bounds.y() + bounds.height())
        y = cursor.y() - 4 - size.height();
    x = std::max(bounds.x(), std::min(x, bounds.x() + bounds.width() - size.width()));
    y = std::max(bounds.y(), std::min(y, bounds.y() + bounds.height() - size.height()));
    return { x, y };
}

QString wrapping(const QString& text)
{
    QString wrapped = text;
    return wrapped.replace(QLatin1String("<pre>"), QLatin1String("<pre style=\"white-space: pre-wrap\">"));
}

void show(const QPoint& globalPos, const QString& text, QWidget* widget)
{
    if (text.isEmpty()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(globalPos, wrapping(text), widget);
    // Qt's tooltip is a label of its own, the one top-level widget of this name.
    const QWidgetList windows = QApplication::topLevelWidgets();
    const auto tip = std::find_if(windows.begin(), windows.end(),
        [](const QWidget* w) { return w->objectName() == QLatin1String("qtooltip_label"); });
    auto* label = tip == windows.end() ? nullptr : qobject_cast<QLabel*>(*tip);
    if (!label)
        return;
    const QWidget* window = widget->window();
    const QRect bounds(window->mapToGlobal(QPoint(0, 0)), window->size());
    if (label->width() > bounds.width() && label->wordWrap())
        label->resize(bounds.width(), label->heightForWidth(bounds.width()));
    label->move(place(label->size(), globalPos, bounds));
}

} // namespace RankScope::ToolTipUtil
