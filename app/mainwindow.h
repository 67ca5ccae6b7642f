// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

class QStackedWidget;
class QTreeView;
class QSortFilterProxyModel;
class QAction;
class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace RankScope {

class FindingsModel;
class RankChart;
class VerdictBanner;
class RankListModel;
class SnapshotLoader;
class StartPage;
struct LoadedFile;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens files and folders (folders are searched for snapshot files); loading runs in the background.
    void openPaths(const QStringList& paths);
    RankListModel* rankModel() const
    {
        return m_model;
    }
    SnapshotLoader* loader() const
    {
        return m_loader;
    }

public slots:
    void openFilesDialog();
    void openFolderDialog();
    void openExample();
    void closeAll();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void onFinished(int index, const LoadedFile& file);
    void updateStatus();
    void showContextMenu(const QPoint& pos);
    void compareRanks();
    void showFindingStack();
    void connectLoader();

    SnapshotLoader* m_loader = nullptr;
    RankListModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QStackedWidget* m_stack = nullptr;
    StartPage* m_start = nullptr;
    QWidget* m_ranksPage = nullptr;
    QTreeView* m_table = nullptr;
    RankChart* m_chart = nullptr;
    VerdictBanner* m_banner = nullptr;
    FindingsModel* m_findings = nullptr;
    QSortFilterProxyModel* m_findingsProxy = nullptr;
    QTreeView* m_findingsView = nullptr;
    QPlainTextEdit* m_stackView = nullptr;
    QTabWidget* m_tabs = nullptr;
    // Comparisons run off the GUI thread; only the latest one's result is shown.
    int m_comparisonJob = 0;
    QAction* m_cancelAction = nullptr;
    QAction* m_closeAction = nullptr;
    QLabel* m_statusLabel = nullptr;
};

} // namespace RankScope
