// SPDX-License-Identifier: MIT
#include "jobsettingdialog.h"

#include "bytesize.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace RankScope {

JobSettingDialog::JobSettingDialog(QWidget* parent, const QString& title, const QString& prompt, const QString& current,
    std::function<QString(const QString&)> whatIsWrong)
    : QDialog(parent)
    , m_whatIsWrong(std::move(whatIsWrong))
    , m_field(new QLineEdit(current, this))
    , m_why(new QLabel(this))
{
    setWindowTitle(title);
    auto* layout = new QVBoxLayout(this);
    auto* label = new QLabel(prompt, this);
    label->setWordWrap(true);
    label->setBuddy(m_field);
    // Wide enough for the prompt to read as a paragraph, not a column of words, and as tall as it wraps there: a
    // wrapped label's own minimum is one line, and the dialog would cut the rest.
    const int width = label->fontMetrics().averageCharWidth() * 70;
    label->setMinimumSize(width, label->heightForWidth(width));
    layout->addWidget(label);
    m_field->setAccessibleName(title);
    layout->addWidget(m_field);
    m_why->setWordWrap(true);
    m_why->setMinimumWidth(width);
    m_why->setAccessibleName(tr("Why not"));
    m_why->setTextFormat(Qt::PlainText);
    layout->addWidget(m_why);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_field, &QLineEdit::textChanged, this, &JobSettingDialog::check);
    // A remembered answer may no longer fit the job (its files changed): said at once.
    check();
}

void JobSettingDialog::check()
{
    const QString text = m_field->text().trimmed();
    const QString wrong = text.isEmpty() ? QString() : m_whatIsWrong(text);
    m_why->setText(wrong);
    m_why->setVisible(!wrong.isEmpty());
    m_ok->setEnabled(wrong.isEmpty());
}

std::optional<QString> JobSettingDialog::ask()
{
    if (exec() != QDialog::Accepted)
        return std::nullopt;
    return m_field->text().trimmed();
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
