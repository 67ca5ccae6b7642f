// SPDX-License-Identifier: MIT
#include "jobsettingdialog.h"

#include "bytesize.h"

#include <QMessageBox>

namespace RankScope {

JobSettingDialog::JobSettingDialog(QWidget* parent, const QString& title, const QString& prompt, const QString& current,
    std::function<QString(const QString&)> whatIsWrong)
    : QInputDialog(parent)
    , m_whatIsWrong(std::move(whatIsWrong))
{
    setWindowTitle(title);
    setLabelText(prompt);
    setTextValue(current);
}

std::optional<QString> JobSettingDialog::ask()
{
    for (;;) {
        if (exec() != QDialog::Accepted)
            return std::nullopt;
        const QString text = textValue().trimmed();
        const QString wrong = text.isEmpty() ? QString() : m_whatIsWrong(text);
        if (wrong.isEmpty())
            return text;
        QMessageBox::warning(parentWidget(), windowTitle(), wrong);
        setTextValue(text);
    }
}

std::optional<QString> JobSettingDialog::askLayout(
    QWidget* parent, const std::optional<Job>& job, int files, const QString& current)
{
    return JobSettingDialog(parent, tr("Parallel Layout"),
        tr("Sizes of the job's parallel dimensions, slowest first, as a device mesh is written (pp, dp, tp, cp, ep), "
           "e.g. pp=2,dp=4 for Megatron or torchtitan with two pipeline stages of four data-parallel ranks.\n"
           "Ranks are compared with their replicas (the ranks that differ only in dp). Leave empty to let RankScope "
           "guess where the files show groups of ranks running different parts of the model.\n"
           "This job has %n snapshot file(s).",
            nullptr, files),
        current,
        [&job](const QString& t) {
            std::string why;
            ComparisonOptions options;
            options.layout = ParallelLayout::parse(t.toStdString(), &why);
            if (!options.layout)
                return tr("%1 is not a layout: %2").arg(t, QString::fromStdString(why));
            // The job's own check, in the words the command line and the MCP server use.
            return job ? QString::fromStdString(job->check(options).text()) : QString();
        })
        .ask();
}

std::optional<QString> JobSettingDialog::askDeviceMemory(QWidget* parent, const QString& current)
{
    return JobSettingDialog(parent, tr("GPU Memory"),
        tr("The total memory of each GPU of the job, as nvidia-smi or the OOM message gives it (80GiB, 79.3GiB …). A "
           "snapshot does not record it; with it, an OOM outside PyTorch's allocator says how much is held outside. "
           "Leave empty when unknown."),
        current,
        [](const QString& t) {
            return parseByteSizeWithUnit(t) ? QString() : tr("%1 is not a size with its unit, such as 80GiB.").arg(t);
        })
        .ask();
}

} // namespace RankScope
