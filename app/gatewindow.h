// SPDX-License-Identifier: MIT
#pragma once

#include "viewwindow.h"

#include <functional>
#include <optional>

class QMenu;
class QTextBrowser;

namespace RankScope {

/// The open job gated against a baseline in a window of its own (File → Compare With Baseline…): the same gate as
/// `rankscope gate` (snapshots or digests as the baseline), shown as the summary CI shows (pass or fail, each rank's
/// peak and largest growth across the step and when, what grew where with its stack).
class GateWindow : public ViewWindow
{
    Q_OBJECT
public:
    explicit GateWindow(QWidget* parent = nullptr);
    /// Gates the job of `paths` against `baseline` in the background.
    void gate(const QStringList& baseline, const QStringList& paths);
    /// Whether the gate passed, once it is shown.
    std::optional<bool> passed() const
    {
        return m_passed;
    }
    QTextBrowser* view() const
    {
        return m_view;
    }
    /// Adds File → Compare With Baseline… to `menu`: it asks for the baseline's folder and gates the job `paths`
    /// gives (the open one's), or says that none is open.
    static void addMenuAction(QMenu* menu, QWidget* parent, std::function<QStringList()> paths);

private:
    QTextBrowser* m_view;
    std::optional<bool> m_passed;
};

} // namespace RankScope
