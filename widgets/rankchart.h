// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QCustomPlot;
class QCPBars;
class QAbstractItemModel;

namespace RankScope {

/// Bars of each rank's peak and of what it held at the snapshot, on one scale, so a rank that holds more stands out
/// at a glance; a rank whose peak alone is highest is outlined in the warning colour. Reads a RankListModel.
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

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();

    QAbstractItemModel* m_model = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPBars* m_peak = nullptr;
    QCPBars* m_allocated = nullptr;
    QCPBars* m_outlier = nullptr;
};

} // namespace RankScope
