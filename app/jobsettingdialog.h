// SPDX-License-Identifier: MIT
#pragma once

#include "job.h"

#include <QInputDialog>

#include <functional>
#include <optional>

namespace RankScope {

/// Asks for a setting of the open job (Compare → Parallel Layout…, GPU Memory…), remembered per job by JobSession. A
/// wrong answer is said in a message and asked for again with what was typed: a mistake must not cost the typing.
class JobSettingDialog : public QInputDialog
{
    Q_OBJECT
public:
    /// The job's parallel layout (pp=2,dp=4 …; empty: guessed from the files), checked as the job checks it for the
    /// command line and the MCP server; `files` is how many snapshot files the job has. nullopt when cancelled.
    static std::optional<QString> askLayout(
        QWidget* parent, const std::optional<Job>& job, int files, const QString& current);
    /// Each GPU's total memory (80GiB …; empty: unknown); nullopt when cancelled.
    static std::optional<QString> askDeviceMemory(QWidget* parent, const QString& current);

private:
    /// `whatIsWrong` says what is wrong with a non-empty answer, or nothing.
    JobSettingDialog(QWidget* parent, const QString& title, const QString& prompt, const QString& current,
        std::function<QString(const QString&)> whatIsWrong);
    /// The answer, trimmed, once it is right; nullopt when cancelled.
    std::optional<QString> ask();

    std::function<QString(const QString&)> m_whatIsWrong;
};

} // namespace RankScope
