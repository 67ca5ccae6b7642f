// SPDX-License-Identifier: MIT
#pragma once

#include "beforeafter.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QTreeWidget;

namespace RankScope {

/// A run before a fix against the run after it: "fixed" or "not fixed" on top, each rank's memory before and after
/// as paired bars with the spread (max − median) of each run, and what stood out before (sites, or the diverging
/// rank of step logs) with what is left of it after.
class BeforeAfterView : public QWidget
{
    Q_OBJECT
public:
    explicit BeforeAfterView(QWidget* parent = nullptr);

    void setSummary(BeforeAfterSummary summary);
    const BeforeAfterSummary& summary() const
    {
        return m_summary;
    }
    /// The headline, for tests and the status line.
    QString headline() const;
    QCustomPlot* plot() const
    {
        return m_plot;
    }
    QTreeWidget* items() const
    {
        return m_items;
    }

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();

    BeforeAfterSummary m_summary;
    bool m_hasSummary = false;
    QLabel* m_headline = nullptr;
    QLabel* m_details = nullptr;
    QCustomPlot* m_plot = nullptr;
    QTreeWidget* m_items = nullptr;
};

} // namespace RankScope
