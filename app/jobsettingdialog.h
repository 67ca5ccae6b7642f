// SPDX-License-Identifier: MIT
#pragma once

#include "job.h"

#include <QDialog>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;

namespace RankScope {

/// Asks for a setting of the open job (Compare → Parallel Layout…, GPU Memory…), remembered per job by JobSession. The
/// answer is checked while it is typed: what is wrong with it is said under the field, and OK waits until it can be
/// used, so a mistake costs neither the typing nor a message box.
class JobSettingDialog : public QDialog
{
    Q_OBJECT
public:
    /// The job's parallel layout (pp=2,dp=4 …; empty: guessed from the files), checked as the job checks it for the
    /// command line and the MCP server (Job::check); `files` is how many snapshot files the job has. nullopt when
    /// cancelled.
    static std::optional<QString> askLayout(
        QWidget* parent, const std::optional<Job>& job, int files, const QString& current);
    /// Each GPU's total memory (80GiB …; empty: unknown); nullopt when cancelled.
    static std::optional<QString> askDeviceMemory(QWidget* parent, const QString& current);

private:
    /// `whatIsWrong` says what is wrong with a non-empty answer, or nothing.
    JobSettingDialog(QWidget* parent, const QString& title, const QString& prompt, const QString& current,
        std::function<QString(const QString&)> whatIsWrong);
    /// The answer, trimmed; nullopt when cancelled.
    std::optional<QString> ask();
    /// Says what is wrong with the answer as it stands, and lets OK accept it only when nothing is.
    void check();

    std::function<QString(const QString&)> m_whatIsWrong;
    QLineEdit* m_field;
    QLabel* m_why;
    QPushButton* m_ok = nullptr;
};

} // namespace RankScope
