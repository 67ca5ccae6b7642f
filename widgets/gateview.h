// SPDX-License-Identifier: MIT
#pragma once

#include "gate.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QCPGraph;
class QCustomPlot;
class QLabel;
class QTreeWidget;

namespace RankScope {

/// A job gated against its baseline (`rankscope gate`, File → Compare With Baseline…) in the before/after view's
/// terms: pass or fail on top as the gate decides it, with the tolerance and how ranks were paired; each rank's
/// memory in the baseline and in the job at the moment of its largest aligned growth as paired bars, its peaks as
/// outlines, the ranks beyond the tolerance marked; and a tree of rank groups (alike ranks said once, as the gate's
/// text says them, failing ones first and open) with what grew, appeared, shrank or disappeared where, each site's
/// stack below it in call order, the user's own frame marked and native runs folded around it.
class GateView : public QWidget
{
    Q_OBJECT
public:
    /// The tree's rows: a group of alike ranks, a site that changed on them, a line of its stack.
    enum ItemType
    {
        RanksItem = 1001,
        SiteItem,
        FrameItem,
    };
    /// On a FrameItem: true where reading starts (the user's own innermost frame).
    static constexpr int OwnFrameRole = Qt::UserRole;

    explicit GateView(QWidget* parent = nullptr);

    /// While the gate runs: `message` on top, nothing else (a result shown before is gone).
    void setPending(const QString& message);
    /// The gate's result and what could not be gated (files, as "file: what is wrong"); no result: the gate could
    /// not run, and `problems` say why.
    void setResult(std::shared_ptr<const GateResult> result, QStringList problems = {});
    const GateResult* result() const
    {
        return m_result.get();
    }
    /// The headline and the lines under it, for tests and the status line.
    QString headline() const;
    QString details() const;
    QCustomPlot* plot() const
    {
        return m_plot;
    }
    QTreeWidget* items() const
    {
        return m_items;
    }
    /// The rank-GPUs (rank, device) the plot marks as beyond the tolerance, read back from what it draws.
    std::vector<std::pair<int, int>> markedRanks() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void rebuildPlot();
    void rebuildTree();

    std::shared_ptr<const GateResult> m_result;
    QStringList m_problems;
    QString m_pending;
    bool m_hasResult = false;
    QLabel* m_headline = nullptr;
    QLabel* m_details = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPGraph* m_marks = nullptr;
    /// Each pair of bars' rank and GPU, in the plot's order (-1 for a rank the gate could not weigh).
    std::vector<std::pair<int, int>> m_columns;
    QTreeWidget* m_items = nullptr;
};

} // namespace RankScope
