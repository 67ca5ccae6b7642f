// SPDX-License-Identifier: MIT
#include "translatedtablemodel.h"

#include <QCoreApplication>
#include <QEvent>

namespace RankScope {

TranslatedTableModel::TranslatedTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
    if (QCoreApplication::instance())
        QCoreApplication::instance()->installEventFilter(this);
}

bool TranslatedTableModel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && watched == QCoreApplication::instance()) {
        const int columns = columnCount();
        if (columns > 0) {
            emit headerDataChanged(Qt::Horizontal, 0, columns - 1);
            if (rowCount() > 0)
                emit dataChanged(index(0, 0), index(rowCount() - 1, columns - 1));
        }
    }
    return false;
}

} // namespace RankScope
