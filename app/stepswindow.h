// SPDX-License-Identifier: MIT
#pragma once

#include "viewwindow.h"

namespace RankScope {

class StepsView;

/// The step reports of a job's training logs, in a window of their own (File → Open Step Logs…, or logs dropped
/// on the main window).
class StepsWindow : public ViewWindow
{
    Q_OBJECT
public:
    explicit StepsWindow(QWidget* parent = nullptr);
    /// Reads the logs (files, or folders of .log/.txt/.out files) in the background.
    void openLogs(const QStringList& paths);
    StepsView* view() const
    {
        return m_view;
    }

private:
    StepsView* m_view;
};

} // namespace RankScope
