// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"
#include "jobtracker.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTreeView;

namespace RankScope {

class WhatIfModel;

/// A rank's peak had each of its largest sites, or each category, not been allocated (WhatIf), with a line that says
/// which rank, which moment its sites are the largest at and its peak with everything. The rank the verdict is about
/// shows the verdict's own figures; any other rank is computed on a JobTracker, the latest request winning. The
/// figures are computed once the view is shown: a replay per site, which on a hidden tab took the cores from the views
/// the user is looking at.
class WhatIfView : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfView(QWidget* parent = nullptr);

    /// Shows `rank` of `comparison` (nullptr or -1: nothing).
    void showRank(ComparisonPtr comparison, int rank);
    WhatIfModel* model() const
    {
        return m_model;
    }
    QTreeView* view() const
    {
        return m_view;
    }
    /// True while the figures asked for last are being computed.
    bool isBusy() const
    {
        return m_jobs.isBusy();
    }

signals:
    /// The figures asked for last are shown.
    void ready();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void showHeader();
    void computeShown();

    QLabel* m_header;
    QTreeView* m_view;
    WhatIfModel* m_model;
    QSortFilterProxyModel* m_sorted;
    JobTracker m_jobs;
    ComparisonPtr m_comparison;
    int m_rank = -1;
    bool m_pending = false; ///< the figures of m_rank are still to be computed
};

} // namespace RankScope
