// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPBars;
class QCPItemText;
class QAbstractItemModel;

namespace RankScope {

/// Bars of each rank's peak and of what it holds at the comparison point (stacked by category), on one scale, so a
/// rank that holds more stands out at a glance and what kind of memory it is shows in its colours; a rank whose peak
/// alone is highest is outlined in the warning colour. Reads a RankListModel. A bar's tooltip gives that rank's
/// figures; a click picks the rank.
class RankChart : public QWidget
{
    Q_OBJECT
public:
    explicit RankChart(QWidget* parent = nullptr);
    void setModel(QAbstractItemModel* model);
    QCustomPlot* plot() const
    {
        return m_plot;
    }
    /// The rank whose bar is at `pos` (plot coordinates), or -1.
    int rankAt(const QPoint& pos) const;
    /// Where the bar of `rank` is, in plot coordinates (for tests and tooltips); a null point when it has none.
    QPoint barCenter(int rank) const;
    /// What a bar's tooltip says; for a rank whose file failed, why.
    QString barText(int key) const;
    /// The failed ranks' marks drawn (one per rank whose file did not load), for tests.
    int failedMarks() const
    {
        return int(m_failedMarks.size());
    }

signals:
    /// A bar was clicked: the rank, and the keyboard modifiers (Shift picks rank B in the window).
    void rankClicked(int rank, Qt::KeyboardModifiers modifiers);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();

    QAbstractItemModel* m_model = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPBars* m_peak = nullptr;
    /// What each rank holds at the point, one stacked bar per category (Category order, bottom to top).
    std::vector<QCPBars*> m_categories;
    QCPBars* m_outlier = nullptr;
    std::vector<int> m_ranks; ///< the rank of each bar, by key
    /// Why the file of each key's rank did not load; empty for a rank with figures. A failed rank keeps its place
    /// among the bars, marked, so a gap in the ranks is never silent.
    std::vector<QString> m_errors;
    std::vector<QCPItemText*> m_failedMarks;
    QString m_overview; ///< the tooltip away from the bars
};

} // namespace RankScope
