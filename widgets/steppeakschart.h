// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QWidget>

class QCustomPlot;

namespace RankScope {

/// Each rank's peak at every training step of a folder of several (iteration_<N>/ …), one line per rank: a rank that
/// keeps tensors from one step to the next climbs while the others stay level. Ranks A and B are drawn bold, the rank
/// of a growth verdict in the warning colour, the others thin and grey; a legend beside the plot names them. Step
/// labels thin out to fit the width. Hidden when the comparison has no earlier steps.
class StepPeaksChart : public QWidget
{
    Q_OBJECT
public:
    explicit StepPeaksChart(QWidget* parent = nullptr);
    void setComparison(const ComparisonPtr& comparison, int rankA, int rankB);
    QCustomPlot* plot() const
    {
        return m_plot;
    }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    /// Labels as many steps as fit side by side, evenly spaced.
    void labelSteps();

    QCustomPlot* m_plot = nullptr;
    ComparisonPtr m_comparison;
    int m_rankA = -1;
    int m_rankB = -1;
    std::vector<int64_t> m_steps;
};

} // namespace RankScope
