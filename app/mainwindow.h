// SPDX-License-Identifier: MIT
#pragma once

#include "comparepanel.h"
#include "findingspanel.h"
#include "jobsession.h"
#include "rankspanel.h"

#include <QMainWindow>

#include <optional>

class QAction;
class QLabel;
class QLineEdit;
class QMenu;
class QSplitter;
class QStackedWidget;
class QTreeView;

namespace RankScope {

class BeforeAfterWindow;
class BlockMapView;
class FindingsModel;
class RankListModel;
class RecentFiles;
class Retranslator;
class SettingsDialog;
class SnapshotLoader;
class StackPane;
class StartPage;
class StepsWindow;
class TimelineView;
class VerdictBanner;
struct LoadedFile;

/// The main window: the start page until files are opened, then the verdict over three panels, the ranks on the left
/// (RanksPanel) and, on the right, ranks A and B side by side (ComparePanel) above the findings (FindingsPanel). The
/// window owns the menus and wires the job (JobSession) to the panels and the panels to each other.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens files and folders (folders are searched for snapshot files) as a new job, replacing the open one;
    /// loading runs in the background. Of a folder of several training steps, `step` (default: the latest).
    void openPaths(const QStringList& paths, std::optional<int64_t> step = std::nullopt);
    /// Adds files and folders to the open job; a rank another file of the job has goes to a free rank, with a note.
    void addPaths(const QStringList& paths);

    /// True while the start page is shown (no files open).
    bool showsStartPage() const;
    RankListModel* rankModel() const
    {
        return m_session->model();
    }
    SnapshotLoader* loader() const
    {
        return m_session->loader();
    }
    const ComparisonPtr& comparison() const
    {
        return m_session->comparison();
    }
    TimelineView* timelines() const
    {
        return m_compare->timelines();
    }
    BlockMapView* blockMap(int side) const
    {
        return m_compare->blockMap(side);
    }
    FindingsModel* findingsModel() const
    {
        return m_findings->model();
    }
    QTreeView* rankTable() const
    {
        return m_ranks->table();
    }
    QTreeView* findingsView() const
    {
        return m_findings->view();
    }
    StackPane* stackPane() const
    {
        return m_ranks->stackPane();
    }
    QLineEdit* findingsFilter() const
    {
        return m_findings->filter();
    }
    /// What the findings table says when the filter leaves nothing; empty while it shows findings.
    QString noMatchText() const
    {
        return m_findings->noMatchText();
    }
    VerdictBanner* banner() const
    {
        return m_banner;
    }
    /// The Settings dialog, made on first use and kept.
    SettingsDialog* settingsDialog();
    /// The permanent status bar text: ranks, loaded, failed, findings.
    QString statusText() const;
    /// Ranks shown as A and B (-1: none).
    int rankA() const
    {
        return m_compare->rankA();
    }
    int rankB() const
    {
        return m_compare->rankB();
    }
    void setRanks(int a, int b)
    {
        m_compare->setRanks(a, b);
    }
    /// The finding selected in the findings table (index into the comparison's findings), or -1.
    int selectedFinding() const
    {
        return m_findings->selectedFinding();
    }
    /// True while loading, comparing or drawing is still going on.
    bool isBusy() const;

public slots:
    void openFilesDialog();
    void addFilesDialog();
    void openFolderDialog();
    void openExample();
    /// Training logs with step reports, in a window of their own.
    StepsWindow* openStepLogs(const QStringList& paths);
    void openStepLogsDialog();
    /// Two runs, before and after a change (folders of snapshots or logs), in a window of their own.
    BeforeAfterWindow* compareBeforeAfter(const QStringList& before, const QStringList& after);
    void compareBeforeAfterDialog();
    /// How to use rankscope_capture.py, and a button that saves it.
    void showCaptureHelper();
    void closeAll();
    void swapRanks()
    {
        m_compare->swapRanks();
    }
    /// Asks for the job's parallel layout (pp=2,dp=4 …; empty: guessed from the files), remembered per job.
    void chooseLayout();
    /// The layout to compare in ("" to guess one), remembered for the files or folders of the open job.
    void setLayout(const QString& layout)
    {
        m_session->setLayout(layout);
    }
    QString layoutText() const
    {
        return m_session->layoutText();
    }
    /// Asks for each GPU's total memory (80GiB …; empty: unknown), remembered per job.
    void chooseDeviceMemory();
    void setDeviceMemory(const QString& size)
    {
        m_session->setDeviceMemory(size);
    }
    QString deviceMemoryText() const
    {
        return m_session->deviceMemoryText();
    }
    /// Language, theme and timeline detail; they apply while the dialog is open.
    void openSettings();

signals:
    /// A comparison's results are on screen.
    void comparisonShown();

public:
    /// Window heights below this show the verdict banner compact (title and a Details button).
    static constexpr int CompactBannerHeight = 900;

protected:
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void createActions();
    void updateRecent();
    /// Window geometry and splitters, and the panels' own settings, in QSettings.
    void saveSettings() const;
    void restoreSettings();
    /// Keeps the window on its screen: a remembered geometry larger than the screen, or off it, is brought inside.
    void fitToScreen();
    /// Unloads the job: files, comparison, and a comparison point that only made sense for it.
    void clearJob();
    /// The snapshot files among `paths` (folders searched); logs go to the step reports, nothing found is said.
    QStringList snapshotFiles(const QStringList& paths);
    void onFileFinished(const LoadedFile& file);
    void updateStatus();
    void showComparison(const ComparisonPtr& comparison);
    /// On a wide window, the ranks' column as wide as its table needs (once per job).
    void fitRanksColumn();
    /// Ranks A and B as the compare panel now has them, in the other panels.
    void onRanksChanged();
    /// With no finding selected, what the stack pane shows of its own accord: rank A's out-of-memory where the
    /// verdict is about one, else nothing; `keep` leaves a rank's allocation or block the user clicked if that rank is
    /// still A or B.
    void showStackOfRanks(bool keep);
    void showRanks();
    void showFinding();
    /// The status line says `path` was written (when it is not empty).
    void exported(const QString& path);

    JobSession* m_session = nullptr;
    RecentFiles* m_recent = nullptr;
    Retranslator* m_texts = nullptr;
    QStackedWidget* m_stack = nullptr;
    StartPage* m_start = nullptr;
    QWidget* m_mainPage = nullptr;
    VerdictBanner* m_banner = nullptr;
    RanksPanel* m_ranks = nullptr;
    /// The ranks on the left, the comparison on the right.
    QSplitter* m_body = nullptr;
    /// The ranks' column was fitted to this job's table.
    bool m_ranksFitted = false;
    /// The comparison shown answers an out-of-memory with no finding: rank A's failed request is the stack to show.
    bool m_aboutOom = false;
    ComparePanel* m_compare = nullptr;
    FindingsPanel* m_findings = nullptr;
    SettingsDialog* m_settings = nullptr;
    QLabel* m_statusLabel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_closeAction = nullptr;
    QAction* m_addAction = nullptr;
    QMenu* m_exportMenu = nullptr;
};

} // namespace RankScope
