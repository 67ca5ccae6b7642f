// SPDX-License-Identifier: MIT
#include "startpage.h"

#include "retranslator.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QListWidget>
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

    auto* texts = new Retranslator(this);
    auto* title = new QLabel(this);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 2.2);
    titleFont.setBold(true);
    title->setFont(titleFont);
    column->addWidget(title);

    auto* tagline = new QLabel(this);
    tagline->setWordWrap(true);
    column->addWidget(tagline);

    auto* buttons = new QHBoxLayout;
    const auto addButton = [&](void (StartPage::*signal)()) {
        auto* button = new QPushButton(this);
        button->setMinimumHeight(36);
        connect(button, &QPushButton::clicked, this, signal);
        buttons->addWidget(button);
        return button;
    };
    QPushButton* files = addButton(&StartPage::openFilesRequested);
    QPushButton* folder = addButton(&StartPage::openFolderRequested);
    QPushButton* example = addButton(&StartPage::openExampleRequested);
    column->addLayout(buttons);

    m_recentLabel = new QLabel(this);
    column->addWidget(m_recentLabel);
    m_recent = new QListWidget(this);
    m_recent->setMaximumHeight(m_recent->fontMetrics().lineSpacing() * 7);
    connect(m_recent, &QListWidget::itemActivated, this,
        [this](QListWidgetItem* item) { emit openRecentRequested(item->data(Qt::UserRole).toStringList()); });
    column->addWidget(m_recent);

    auto* howto = new QLabel(this);
    column->addWidget(howto);
    auto* snippet = new QPlainTextEdit(this);
    snippet->setReadOnly(true);
    snippet->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    snippet->setPlainText(QStringLiteral("torch.cuda.memory._record_memory_history(max_entries=100000)\n"
                                         "...  # train a few steps\n"
                                         "rank = torch.distributed.get_rank()\n"
                                         "torch.cuda.memory._dump_snapshot(f\"rank{rank}_memory_snapshot.pickle\")"));
    snippet->setMaximumHeight(snippet->fontMetrics().lineSpacing() * 6);
    column->addWidget(snippet);

    // The step before snapshots: which rank, which step.
    auto* logsIntro = new QLabel(this);
    logsIntro->setWordWrap(true);
    column->addWidget(logsIntro);
    auto* logButtons = new QHBoxLayout;
    auto* logs = new QPushButton(this);
    auto* helper = new QPushButton(this);
    connect(logs, &QPushButton::clicked, this, &StartPage::openLogsRequested);
    connect(helper, &QPushButton::clicked, this, &StartPage::captureHelperRequested);
    logButtons->addWidget(logs);
    logButtons->addWidget(helper);
    logButtons->addStretch(1);
    column->addLayout(logButtons);

    auto* drop = new QLabel(this);
    drop->setEnabled(false);
    column->addWidget(drop);

    texts->add([=, this] {
        title->setText(tr("RankScope"));
        tagline->setText(tr("Open the memory snapshots of every rank of a PyTorch job together and see which rank "
                            "holds more GPU memory than the others, and why."));
        files->setText(tr("Open snapshots…"));
        files->setToolTip(tr("Choose one snapshot file per rank (.pickle, .json, optionally .gz)"));
        folder->setText(tr("Open folder…"));
        folder->setToolTip(tr("Open every snapshot file in a folder and its subfolders"));
        example->setText(tr("Open example"));
        example->setToolTip(tr("Four ranks derived from a real snapshot, where rank 0 does extra work"));
        m_recentLabel->setText(tr("Recent:"));
        m_recent->setAccessibleName(tr("Recent files and folders"));
        m_recent->setToolTip(tr("Double-click or press Enter to open again"));
        howto->setText(tr("Dump one snapshot per rank in your training script:"));
        snippet->setAccessibleName(tr("Example code"));
        logsIntro->setText(tr("No snapshot yet? Print a step report on every rank first (rankscope_capture.py does it) "
                              "to learn which rank departs, and at which step:"));
        logs->setText(tr("Open step logs…"));
        logs->setToolTip(tr("Training logs with lines such as [train] rank=3 step=120 shape=(8, 2048) "
                            "cur=10240.0MB peak=70144.5MB"));
        helper->setText(tr("Capture helper…"));
        helper->setToolTip(tr("How to use rankscope_capture.py in your training script, and a copy of it"));
        drop->setText(tr("You can also drop files or folders anywhere on this window."));
        setRecent(m_jobs);
    });

    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addLayout(column, 3);
    row->addStretch(1);
    outer->addLayout(row);
    outer->addStretch(2);
}

void StartPage::setRecent(const QList<QStringList>& jobs)
{
    m_jobs = jobs;
    m_recent->clear();
    for (const QStringList& job : jobs) {
        const QFileInfo info(job.value(0));
        QString text = info.isDir() ? tr("%1  (folder: %2)").arg(info.fileName(), info.absolutePath())
                                    : tr("%1  (%2)").arg(info.fileName(), info.absolutePath());
        if (job.size() > 1)
            text = tr("%1 and %n more", nullptr, int(job.size() - 1)).arg(text);
        auto* item = new QListWidgetItem(text, m_recent);
        item->setData(Qt::UserRole, job);
        item->setToolTip(job.join(QLatin1Char('\n')));
    }
    m_recentLabel->setVisible(!jobs.isEmpty());
    m_recent->setVisible(!jobs.isEmpty());
}

} // namespace RankScope
