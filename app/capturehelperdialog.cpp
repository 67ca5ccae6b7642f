// SPDX-License-Identifier: MIT
#include "capturehelperdialog.h"

#include "dataexport.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace RankScope {

CaptureHelperDialog::CaptureHelperDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Capture Helper"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("<p><b>rankscope_capture.py</b> is one Python file (standard library and torch) to put "
                                "next to your training script. It prints a step report on every rank, dumps a "
                                "snapshot per rank, and writes one on the rank that runs out of memory before the "
                                "error propagates.</p><p>Collect the output of all ranks in one log (or one per rank) "
                                "and open it with File → Open Step Logs…: RankScope names the rank and the step where "
                                "memory departs. Then dump snapshots just before that step and open them.</p>"),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* code = new QPlainTextEdit(this);
    code->setReadOnly(true);
    code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    code->setPlainText(QStringLiteral("import rankscope_capture as rc\n\n"
                                      "rc.enable()                                   # every rank, before training\n"
                                      "for step, batch in enumerate(loader):\n"
                                      "    ...\n"
                                      "    if step % 10 == 0:\n"
                                      "        rc.step_report(step, batch, \"train\")  # [train] rank=3 step=120 ...\n"
                                      "rc.dump(\"train\")                              # rank{r}_train.pickle\n"));
    code->setMinimumSize(560, code->fontMetrics().lineSpacing() * 9);
    layout->addWidget(code);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* save = buttons->addButton(tr("Save rankscope_capture.py…"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(save, &QPushButton::clicked, this, &CaptureHelperDialog::save);
    layout->addWidget(buttons);
}

void CaptureHelperDialog::save()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Capture Helper"),
        QDir::home().filePath(QStringLiteral("rankscope_capture.py")), tr("Python (*.py)"));
    if (path.isEmpty())
        return;
    QFile helper(QStringLiteral(":/python/rankscope_capture.py"));
    const QString error =
        helper.open(QIODevice::ReadOnly) ? DataExport::write(path, helper.readAll()) : helper.errorString();
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Save Capture Helper"), error);
    else
        emit saved(path);
}

} // namespace RankScope
