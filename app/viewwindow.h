// SPDX-License-Identifier: MIT
#pragma once

#include "backgroundpool.h"

#include <QMainWindow>
#include <QtConcurrent>

namespace RankScope {

/// A window around one view whose data is read off the GUI thread: the newest job wins, the status bar says what
/// is going on, and File offers the view's picture and Close. The step reports and before/after windows are these.
class ViewWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit ViewWindow(QWidget* view, QWidget* parent = nullptr);

    bool isBusy() const
    {
        return m_running > 0;
    }

signals:
    /// A job's result is on screen.
    void shown();

protected:
    /// Runs `job` on the background pool and hands its result to `apply` on the GUI thread, unless a newer job
    /// started meanwhile.
    template <typename Job, typename Apply> void run(const QString& message, Job job, Apply apply)
    {
        const int generation = ++m_generation;
        ++m_running;
        showStatus(message);
        using Result = std::invoke_result_t<Job>;
        whenReady(this, QtConcurrent::run(backgroundPool(), std::move(job)), [this, generation, apply](Result result) {
            --m_running;
            if (generation != m_generation)
                return;
            apply(std::move(result));
            emit shown();
        });
    }
    void showStatus(const QString& message);

private:
    QWidget* m_view;
    int m_generation = 0;
    int m_running = 0;
};

} // namespace RankScope
