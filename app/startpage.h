// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

namespace RankScope {

/// What the window shows before any snapshot is open: what the app does, the three ways in, and how to dump one
/// snapshot per rank.
class StartPage : public QWidget
{
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);

signals:
    void openFilesRequested();
    void openFolderRequested();
    void openExampleRequested();
};

} // namespace RankScope
