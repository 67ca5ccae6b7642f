// SPDX-License-Identifier: MIT
#pragma once

#include "steplog.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QTreeWidget;

namespace RankScope {

/// Step reports of every rank, the first step of the investigation: peak (solid) and current (thin) memory per step,
/// one line per rank and phase on shared axes, the diverging rank in the alert colour with its step marked; the
/// ranks' input size (tokens) per report as a heat map; a sentence that says which rank departs where, and whether
/// its input was larger (input imbalance) or not (burden imbalance).
class StepsView : public QWidget
{
    Q_OBJECT
public:
    explicit StepsView(QWidget* parent = nullptr);

    void setLog(StepLog log, StepAnalysis analysis);
    const StepAnalysis& analysis() const
    {
        return m_analysis;
    }
    QCustomPlot* memoryPlot() const
    {
        return m_memory;
    }
    QCustomPlot* inputPlot() const
    {
        return m_input;
    }
    QTreeWidget* rankTable() const
    {
        return m_table;
    }
    /// The sentence on top, for tests and the status line.
    QString summary() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    /// The answer in a sentence: which rank departs first, where, and the suspected cause.
    void showSummary();
    /// Memory per step, one line per rank and phase.
    void drawMemory();
    /// Tokens per batch as a heat map, ranks down and steps across.
    void drawInput();
    /// Every rank's reports, highest peak and largest input.
    void fillTable();

    StepLog m_log;
    StepAnalysis m_analysis;
    QLabel* m_summary = nullptr;
    QCustomPlot* m_memory = nullptr;
    QCustomPlot* m_input = nullptr;
    QTreeWidget* m_table = nullptr;
};

} // namespace RankScope
