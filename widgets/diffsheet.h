// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"
#include "excesstree.h"

#include <QWidget>

class QAbstractItemModel;
class QLabel;
class QTreeView;

namespace RankScope {

class BlockMapView;
class FlameGraph;
class FindingsModel;
class RankChart;
class RankPair;
class StackPane;
class TimelineView;
class VerdictBanner;
class WhatIfView;

/// One comparison laid out as a page that stands on its own, for exports: a header naming the files, ranks and
/// point, the verdict, then (by view) the two ranks' timelines, their block maps with the selected finding outlined,
/// the findings with the selected one's stack, or every rank's overview; a legend says how to read it. Built from
/// the same widgets as the main window, so exports look like the app, with or without a display.
class DiffSheet : public QWidget
{
    Q_OBJECT
public:
    enum View
    {
        Diff,
        Timelines,
        BlockMaps,
        Overview,
        /// Rank A by frame as a flame graph (its excess, or everything at the point).
        Flame,
    };
    /// "diff", "timelines", "blockmaps", "overview", "flame"; nullopt for anything else.
    static std::optional<View> parseView(const QString& name);

    explicit DiffSheet(View view, QWidget* parent = nullptr);
    /// What the flame graph shows of rank A; unset (the default): its excess where it has any, else everything.
    void setScope(std::optional<ExcessTree::Scope> scope)
    {
        m_scope = scope;
    }

    /// Shows ranks A and B of `comparison` (B may be -1), finding `finding` selected (-1: none). `ranks` is the rank
    /// table for the overview (a RankListModel), or nullptr.
    void setComparison(const ComparisonPtr& comparison, int rankA, int rankB, int finding, QAbstractItemModel* ranks);
    /// Lays the sheet out at `size` without showing it on screen and waits until every view has drawn its data.
    /// Returns false when that takes longer than `timeoutMs`.
    bool prepare(const QSize& size, int timeoutMs = 60000);
    bool isBusy() const;

    /// Where a report at `path` puts its picture: next to a Markdown report, named after it; empty for HTML, which
    /// embeds it. Empty as well for a name that is neither .html, .htm nor .md.
    static QString reportImagePath(const QString& path);
    static bool isReportPath(const QString& path);
    /// Writes a report of `comparison` with this sheet as its picture (see DiffReport::html and markdown), atomically.
    /// Returns an empty string on success, otherwise a message naming the file and the problem.
    QString writeReport(const Comparison& comparison, const QString& path, double scale = 2.0);

    TimelineView* timelines() const;
    BlockMapView* blockMap(int side) const;

private:
    View m_view;
    QLabel* m_header = nullptr;
    VerdictBanner* m_banner = nullptr;
    RankPair* m_pair = nullptr;
    FindingsModel* m_findings = nullptr;
    QTreeView* m_findingsView = nullptr;
    StackPane* m_stack = nullptr;
    RankChart* m_chart = nullptr;
    QTreeView* m_rankTable = nullptr;
    FlameGraph* m_flame = nullptr;
    /// In place of the findings where ranks ran out of memory alike (no finding): what fills rank A's GPU.
    WhatIfView* m_whatIf = nullptr;
    std::optional<ExcessTree::Scope> m_scope;
    QLabel* m_legend = nullptr;
};

} // namespace RankScope
