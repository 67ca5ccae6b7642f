// SPDX-License-Identifier: MIT
#include "startpage.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace RankScope {

StartPage::StartPage(QWidget* parent)
    : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    outer->addStretch(1);
    auto* column = new QVBoxLayout;
    column->setSpacing(12);

    auto* title = new QLabel(tr("RankScope"), this);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 2.2);
    titleFont.setBold(true);
    title->setFont(titleFont);
    column->addWidget(title);

    auto* tagline = new QLabel(tr("Open the memory snapshots of every rank of a PyTorch job together and see which "
                                  "rank holds more GPU memory than the others, and why."),
        this);
    tagline->setWordWrap(true);
    column->addWidget(tagline);

    auto* buttons = new QHBoxLayout;
    auto addButton = [&](const QString& text, const QString& tip, void (StartPage::*signal)()) {
        auto* button = new QPushButton(text, this);
        button->setToolTip(tip);
        button->setMinimumHeight(36);
        connect(button, &QPushButton::clicked, this, signal);
        buttons->addWidget(button);
    };
    addButton(tr("Open snapshots…"), tr("Choose one snapshot file per rank (.pickle, .json, optionally .gz)"),
        &StartPage::openFilesRequested);
    addButton(tr("Open folder…"), tr("Open every snapshot file in a folder and its subfolders"),
        &StartPage::openFolderRequested);
    addButton(tr("Open example"), tr("Four ranks derived from a real snapshot, where rank 0 does extra work"),
        &StartPage::openExampleRequested);
    column->addLayout(buttons);

    auto* howto = new QLabel(tr("Dump one snapshot per rank in your training script:"), this);
    column->addWidget(howto);
    auto* snippet = new QPlainTextEdit(this);
    snippet->setReadOnly(true);
    snippet->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    snippet->setPlainText(QStringLiteral("torch.cuda.memory._record_memory_history(max_entries=100000)\n"
                                         "...  # train a few steps\n"
                                         "rank = torch.distributed.get_rank()\n"
                                         "torch.cuda.memory._dump_snapshot(f\"rank{rank}_memory_snapshot.pickle\")"));
    snippet->setMaximumHeight(snippet->fontMetrics().lineSpacing() * 6);
    snippet->setAccessibleName(tr("Example code"));
    column->addWidget(snippet);

    auto* drop = new QLabel(tr("You can also drop files or folders anywhere on this window."), this);
    drop->setEnabled(false);
    column->addWidget(drop);

    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addLayout(column, 3);
    row->addStretch(1);
    outer->addLayout(row);
    outer->addStretch(2);
}

} // namespace RankScope
