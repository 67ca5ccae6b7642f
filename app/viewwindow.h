// SPDX-License-Identifier: MIT
#pragma once

#include "jobtracker.h"

#include <QMainWindow>

#include <functional>

class QMenu;

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
        return m_jobs.isBusy();
    }

signals:
    /// A job's result is on screen.
    void shown();

protected:
    /// Runs `job` in the background and hands its result to `apply` on the GUI thread, unless a newer job started
    /// meanwhile.
    template <typename Job, typename Apply> void run(const QString& message, Job job, Apply apply)
    {
        showStatus(message);
        using Result = std::invoke_result_t<Job>;
        m_jobs.start(std::move(job), [this, apply = std::move(apply)](Result result) {
            apply(std::move(result));
            emit shown();
        });
    }
    void showStatus(const QString& message);
    /// The view's own actions, which `add` puts in File after the picture's: made again in a new language and on
    /// refreshFileActions (when what they can do changed).
    void setFileActions(std::function<void(QMenu*)> add);
    void refreshFileActions();

private:
    QWidget* m_view;
    QMenu* m_file = nullptr;
    std::function<void(QMenu*)> m_fileActions;
    JobTracker m_jobs { this };
};

} // namespace RankScope
