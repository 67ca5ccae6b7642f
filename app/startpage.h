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
    /// The jobs opened recently (each the files and folders opened together), newest first.
    void setRecent(const QList<QStringList>& jobs);

signals:
    void openFilesRequested();
    void openFolderRequested();
    void openExampleRequested();
    void openRecentRequested(const QStringList& paths);
    void openLogsRequested();
    void captureHelperRequested();

private:
    QLabel* m_recentLabel = nullptr;
    QListWidget* m_recent = nullptr;
    QList<QStringList> m_jobs;
};

} // namespace RankScope
