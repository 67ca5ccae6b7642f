// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFrame;
class QLabel;
class QLineEdit;
class QSettings;
class QSpinBox;
class QTabWidget;
class QTimer;
class QToolButton;
class QTreeView;

namespace RankScope {

class FindingsFilterModel;
class FindingsModel;
class FlameGraph;
class WhatIfView;

/// What the comparison found, under the ranks' views: the findings table with its filter, rank A's memory by frame
/// (Top down, Bottom up, Flame: its excess or everything it holds) and What if; beside the tabs the options that
/// decide the findings (baseline, threshold, my code, stack depth), remembered in QSettings.
class FindingsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit FindingsPanel(QWidget* parent = nullptr);

    /// Findings rows the table keeps in sight however short the window (minimumSizeHint).
    static constexpr int MinimumRows = 6;
    QSize minimumSizeHint() const override;

    FindingsModel* model() const
    {
        return m_findings;
    }
    QTreeView* view() const
    {
        return m_view;
    }
    QLineEdit* filter() const
    {
        return m_filter;
    }
    /// What the table says when the filter leaves nothing; empty while it shows findings.
    QString noMatchText() const;
    /// The findings the filter leaves in the table, a group's ranks each counted (all of them without a filter).
    int shownFindings() const;
    bool isFiltered() const;

    /// The findings of `comparison` (nullptr: none), the filter kept.
    void showComparison(const ComparisonPtr& comparison);
    /// Rank A, whose memory the trees, the flame graph and What if show.
    void setRankA(int rank);
    /// Selects the finding a view of ranks A and B shows (Comparison::findingToShow) among those the filter leaves,
    /// whatever the table's order; false when there is none.
    bool selectDefaultFinding(int rankA, int rankB);
    /// Forgets what belonged to the closed job: its filter and the trees' scope chosen for it.
    void closeJob();
    /// A verdict about ranks that ran out of memory with no finding to show: What if comes forward, and goes back to
    /// the findings for a comparison that has some.
    void setAboutOom(bool aboutOom);
    /// The finding selected in the table (index into the comparison's findings), or -1.
    int selectedFinding() const;
    void nextFinding();
    void previousFinding();
    /// The findings table in front and its filter focused, its text selected.
    void focusFilter();

    /// The options the panel sets; baseline rank B means `rankB`.
    void readOptions(ComparisonOptions& options, int rankB) const;
    /// True while the baseline is rank B, so that another rank B compares anew.
    bool baselineIsRankB() const;
    void saveSettings(QSettings& settings) const;
    /// The last options, so a user who always compares "my code" against rank B keeps doing so.
    void restoreSettings(const QSettings& settings);

signals:
    /// Another finding became the current one (index into the comparison's findings, -1: none).
    void currentFindingChanged(int finding);
    /// The selection was cleared, or the selected finding clicked again after something else took the stack pane.
    void findingReselected();
    /// The user changed an option.
    void optionsChanged();
    /// The filter changed which findings the table shows.
    void filterApplied();

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The options beside the tabs where the row holds them and every tab's label whole, else behind their button.
    void fitOptions();
    void showFoldedOptions();
    /// Rank A's excess (or everything it holds) by frame in the Top Down, Bottom Up and Flame Graph tabs, and What if.
    void showExcess();
    /// The filter's text applied to the table; the finding the user chose selected again where it shows.
    void applyFilter();
    /// Says so when the filter leaves no finding of a comparison that has some.
    void updateNoMatch();
    /// The note of an empty table over its top, as wide as the table.
    void placeNoMatch();

    ComparisonPtr m_comparison;
    int m_rankA = -1;
    FindingsModel* m_findings;
    FindingsFilterModel* m_proxy;
    QTabWidget* m_tabs = nullptr;
    QTreeView* m_view = nullptr;
    QLineEdit* m_filter = nullptr;
    QTimer* m_filterTimer = nullptr;
    QLabel* m_noMatch = nullptr;
    /// The finding the user selected last (index into the comparison's findings), -1: none; kept while the filter
    /// hides it.
    int m_chosenFinding = -1;
    /// True while the filter changes the table's rows: a selection lost then is not the user's.
    bool m_filtering = false;
    QTreeView* m_excessViews[2] = {};
    FlameGraph* m_flameGraph = nullptr;
    WhatIfView* m_whatIf = nullptr;
    /// What the trees and the flame graph show: rank A's excess, or everything it holds at the point. Until the user
    /// chooses, the excess where A has any, else everything.
    QComboBox* m_scopeCombo = nullptr;
    bool m_scopeChosen = false;
    /// The What-if tab was brought forward for a job that ran out of memory with no finding (and goes back to the
    /// findings for a job that has some).
    bool m_whatIfShownForOom = false;
    QWidget* m_options = nullptr;
    QToolButton* m_optionsButton = nullptr;
    QFrame* m_optionsPopup = nullptr;
    bool m_optionsFolded = false;
    QComboBox* m_baselineCombo = nullptr;
    QDoubleSpinBox* m_threshold = nullptr;
    QCheckBox* m_myCode = nullptr;
    QSpinBox* m_depth = nullptr;
};

} // namespace RankScope
