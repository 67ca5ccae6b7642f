// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>

namespace RankScope {

/// A table model whose headers and cells are worded by tr() when asked: when the application's language changes it
/// tells its views to ask again, so open tables switch language with the rest of the window.
class TranslatedTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit TranslatedTableModel(QObject* parent = nullptr);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace RankScope
