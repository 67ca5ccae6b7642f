// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"
#include "job.h"
#include "jobtracker.h"
#include "loadedfile.h"
#include "verdictbanner.h"

#include <QMainWindow>

#include <functional>
#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QTabWidget;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QSpinBox;
class QStackedWidget;
class QTimer;
class QTreeView;

namespace RankScope {

class BeforeAfterWindow;
class BlockMapView;
class StepsWindow;
class Retranslator;
class SettingsDialog;
class FindingsModel;
class FindingsPanel;
class ComparePanel;
class RanksPanel;
class RankListModel;
class SnapshotLoader;
class StackPane;
class StartPage;
class TimelineView;
class VerdictBanner;
struct LoadedFile;

/// The main window: the start page until files are opened, then the rank overview on the left and, on the right,
/// ranks A and B side by side (timelines, block maps) above the findings and the stack of the selection.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens files and folders (folders are searched for snapshot files) as a new job, replacing the open one;
    /// loading runs in the background.
    /// Opens files and folders as a new job; of a folder of several training steps, `step` (default: the latest).
    void openPaths(const QStringList& paths, std::optional<int64_t> step = std::nullopt);
    /// Adds files and folders to the open job; a rank another file of the job has goes to a free rank, with a note.
    void addPaths(const QStringList& paths);

    /// True while the start page is shown (no files open).
    bool showsStartPage() const;
    RankListModel* rankModel() const
    {
        return m_model;
    }
    SnapshotLoader* loader() const
    {
        return m_loader;
    }
    const ComparisonPtr& comparison() const
    {
        return m_comparison;
    }
    TimelineView* timelines() const;
    BlockMapView* blockMap(int side) const;
    FindingsModel* findingsModel() const;
    QTreeView* rankTable() const;
    QTreeView* findingsView() const;
    StackPane* stackPane() const;
    QLineEdit* findingsFilter() const;
    /// What the findings table says when the filter leaves nothing; empty while it shows findings.
    QString noMatchText() const;
    VerdictBanner* banner() const
    {
        return m_banner;
    }
    /// The Settings dialog, made on first use and kept.
    SettingsDialog* settingsDialog();
    /// The permanent status bar text: ranks, loaded, failed, findings.
    QString statusText() const;
    /// Ranks shown as A and B (-1: none).
    int rankA() const;
    int rankB() const;
    void setRanks(int a, int b);
    /// The finding selected in the findings table (index into the comparison's findings), or -1.
    int selectedFinding() const;
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
    void swapRanks();
    /// Asks for the job's parallel layout (pp=2,dp=4 …; empty: guessed from the files), remembered per job.
    void chooseLayout();
    /// The layout to compare in ("" to guess one), remembered for the files or folders of the open job.
    void setLayout(const QString& layout);
    QString layoutText() const
    {
        return m_layoutText;
    }
    /// Asks for each GPU's total memory (80GiB …; empty: unknown), remembered per job.
    void chooseDeviceMemory();
    void setDeviceMemory(const QString& size);
    /// Export the comparison as a picture (asks where and how), the findings as CSV or JSON, or a report.
    void exportPicture();
    void exportFindings(bool json);
    void exportReport();
    /// Language, theme and timeline detail; they apply while the dialog is open.
    void openSettings();
    void nextFinding();
    void previousFinding();

signals:
    /// A comparison's results are on screen.
    void comparisonShown();

protected:
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

public:
    /// Window heights below this show the verdict banner compact (title and a Details button).
    static constexpr int CompactBannerHeight = 900;

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    /// Asks for a setting of the open job; nullopt when cancelled or when `whatIsWrong` (called for a non-empty
    /// answer) says what is wrong, which is shown.
    std::optional<QString> askJobSetting(const QString& title, const QString& prompt, const QString& current,
        const std::function<QString(const QString&)>& whatIsWrong);
    /// Sets `member` and remembers it for the open job under `group`, then compares again.
    void setJobSetting(QString& member, const char* group, const QString& value);
    /// What the shown verdict rests on, for the banner.
    VerdictBanner::Caveats caveats() const;
    /// Window geometry, splitters, the last comparison options and the timeline axis, in QSettings.
    void saveSettings() const;
    void restoreSettings();
    void createActions();
    /// Unloads the job: files, comparison, and a comparison point that only made sense for it.
    void clearJob();
    /// The snapshot files among `paths` (folders searched); logs go to the step reports, nothing found is said.
    QStringList snapshotFiles(const QStringList& paths);
    /// True when one of `logs` has a step report line near its start.
    static bool holdsStepReports(const QStringList& logs);
    void connectLoader();
    void onFinished(int index, const LoadedFile& file);
    void updateStatus();
    void scheduleComparison();
    void compareRanks();
    void applyComparison(ComparisonPtr comparison);
    /// Ranks A and B as the compare panel now has them, in the other panels.
    void onRanksChanged();
    void showRanks();
    void showFinding();
    void readOptions();
    void addRecent(const QStringList& paths);
    void updateRecent();
    QStringList recentPaths() const;

    SnapshotLoader* m_loader = nullptr;
    RankListModel* m_model = nullptr;
    FindingsPanel* m_findings = nullptr;
    QStackedWidget* m_stack = nullptr;
    StartPage* m_start = nullptr;
    QWidget* m_mainPage = nullptr;
    VerdictBanner* m_banner = nullptr;
    RanksPanel* m_ranks = nullptr;
    ComparePanel* m_compare = nullptr;
    /// What the user opened, to open another of its steps.
    QStringList m_jobPaths;
    QString m_layoutText;
    QString m_deviceMemoryText;
    /// The verdict at the job's own moment (its latest comparison at no named point), for the banner at any other.
    std::optional<Verdict> m_jobVerdict;
    QTimer* m_compareTimer = nullptr;
    Retranslator* m_texts = nullptr;
    SettingsDialog* m_settings = nullptr;
    QLabel* m_statusLabel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_closeAction = nullptr;
    QAction* m_addAction = nullptr;
    QMenu* m_exportMenu = nullptr;

    ComparisonOptions m_options;
    ComparisonPtr m_comparison;
    // Comparisons run off the GUI thread; only the latest one's result is shown.
    JobTracker m_comparisons { this };
    /// The snapshots of the steps before the one shown, read in the background once per job and step.
    JobTracker m_earlierLoads { this };
    std::shared_ptr<const EarlierSteps> m_earlierSteps;
    /// The job shown: its files, step and the checks of its options (the comparison runs on a copy).
    std::optional<Job> m_job;
    /// What the job could not use of the options (Job::check), said in the banner.
    QString m_unusedOption;
};

} // namespace RankScope
