// SPDX-License-Identifier: MIT
#include "stackpane.h"

#include "retranslator.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace RankScope {

StackPane::StackPane(QWidget* parent)
    : QWidget(parent)
    , m_text(new QPlainTextEdit(this))
    , m_full(new QToolButton(this))
    , m_copy(new QToolButton(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* bar = new QHBoxLayout;
    auto* title = new QLabel(this);
    bar->addWidget(title);
    bar->addStretch(1);
    m_full->setCheckable(true);
    connect(m_full, &QToolButton::toggled, this, &StackPane::refresh);
    bar->addWidget(m_full);
    connect(m_copy, &QToolButton::clicked, this, [this] { QApplication::clipboard()->setText(text()); });
    bar->addWidget(m_copy);
    layout->addLayout(bar);

    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_text, 1);
    (new Retranslator(this))->add([this, title] {
        title->setText(tr("Allocation stack"));
        m_full->setText(tr("All frames"));
        m_full->setToolTip(
            tr("Show every frame, including the interpreter and dispatcher frames the comparison hides"));
        m_full->setAccessibleName(tr("Show all frames"));
        m_copy->setText(tr("Copy"));
        m_copy->setToolTip(tr("Copy the stack to the clipboard"));
        m_copy->setAccessibleName(tr("Copy stack"));
        m_text->setPlaceholderText(
            tr("Select a finding, a band of the timeline or a block to see where it was allocated"));
        m_text->setAccessibleName(tr("Stack of the selection"));
    });
    refresh();
}

void StackPane::setContent(
    const QString& header, const QStringList& frames, const QStringList& allFrames, const QString& footer)
{
    m_header = header;
    m_frames = frames;
    m_allFrames = allFrames;
    m_footer = footer;
    refresh();
}

void StackPane::clear()
{
    setContent({}, {}, {});
}

bool StackPane::showsAllFrames() const
{
    return m_full->isChecked();
}

void StackPane::setShowAllFrames(bool all)
{
    m_full->setChecked(all);
}

void StackPane::setForPicture()
{
    m_full->setVisible(false);
    m_copy->setVisible(false);
    m_text->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_text->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
}

void StackPane::fitWholeLines()
{
    const int line = m_text->fontMetrics().lineSpacing();
    // The frame, and the document's margin above the first line (the last line needs none below it).
    const int chrome = m_text->height() - m_text->viewport()->height() + int(m_text->document()->documentMargin());
    const int lines = std::max(1, (m_text->height() - chrome) / line);
    m_text->setFixedHeight(chrome + lines * line);
}

QString StackPane::text() const
{
    return m_text->toPlainText();
}

void StackPane::refresh()
{
    m_copy->setEnabled(!m_header.isEmpty());
    m_full->setEnabled(!m_allFrames.isEmpty() && m_allFrames != m_frames);
    if (m_header.isEmpty()) {
        m_text->clear();
        return;
    }
    const QStringList& frames = m_full->isChecked() && !m_allFrames.isEmpty() ? m_allFrames : m_frames;
    QString text = m_header + QLatin1Char('\n');
    text += frames.isEmpty() ? tr("(no stack was recorded for this allocation)") : frames.join(QLatin1Char('\n'));
    if (!m_footer.isEmpty())
        text += QLatin1String("\n\n") + m_footer;
    m_text->setPlainText(text);
}

} // namespace RankScope
