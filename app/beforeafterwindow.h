// SPDX-License-Identifier: MIT
#pragma once

#include "viewwindow.h"

namespace RankScope {

class BeforeAfterView;

/// Two runs of one job, before and after a change, in a window of their own (File → Compare Before and After…):
/// folders of snapshots, compared as the main window compares ranks, or training logs, compared by their step
/// reports.
class BeforeAfterWindow : public ViewWindow
{
    Q_OBJECT
public:
    explicit BeforeAfterWindow(QWidget* parent = nullptr);
    /// Snapshots when `before` holds any, else step logs; read and compared in the background.
    void compare(const QStringList& before, const QStringList& after);
    BeforeAfterView* view() const
    {
        return m_view;
    }

private:
    BeforeAfterView* m_view;
};

} // namespace RankScope
