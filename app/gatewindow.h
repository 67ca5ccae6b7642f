// SPDX-License-Identifier: MIT
#pragma once

#include "viewwindow.h"

#include <functional>
#include <memory>
#include <optional>

class QMenu;

namespace RankScope {

class GateView;
struct GateResult;

/// The open job gated against a baseline in a window of its own (File → Compare With Baseline…): the same gate as
/// `rankscope gate` (snapshots or digests as the baseline), shown in the before/after view's terms (GateView): pass
/// or fail, each rank's memory in both runs, what grew where with its stack. File exports the gate's Markdown
/// summary and JUnit XML, as the command writes them.
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
    GateView* view() const
    {
        return m_view;
    }
    /// Adds File → Compare With Baseline… to `menu`: it asks for the baseline's folder and gates the job `paths`
    /// gives (the open one's), or says that none is open.
    static void addMenuAction(QMenu* menu, QWidget* parent, std::function<QStringList()> paths);

private:
    void exportReport(bool junit);

    GateView* m_view;
    std::optional<bool> m_passed;
};

} // namespace RankScope
