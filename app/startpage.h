// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QListWidget;
class QLabel;

namespace RankScope {

/// What the window shows before any snapshot is open: what the app does, the three ways in, recent files and
/// folders, and how to dump one snapshot per rank.
class StartPage : public QWidget
{
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);
    /// Recently opened files and folders, newest first.
    void setRecent(const QStringList& paths);

signals:
    void openFilesRequested();
    void openFolderRequested();
    void openExampleRequested();
    void openRecentRequested(const QString& path);
    void openLogsRequested();
    void captureHelperRequested();

private:
    QLabel* m_recentLabel = nullptr;
    QListWidget* m_recent = nullptr;
    QStringList m_paths;
};

} // namespace RankScope
