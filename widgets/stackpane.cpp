// SPDX-License-Identifier: MIT
#include "stackpane.h"

#include "comparison.h"
#include "devicehistory.h"
#include "formatting.h"
#include "retranslator.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <unordered_set>

namespace RankScope {

StackPane::StackPane(QWidget* parent)
    : QWidget(parent)
    , m_text(new QPlainTextEdit(this))
    , m_native(new QToolButton(this))
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
    m_native->setCheckable(true);
    connect(m_native, &QToolButton::toggled, this, &StackPane::refresh);
    bar->addWidget(m_native);
    m_full->setCheckable(true);
    connect(m_full, &QToolButton::toggled, this, &StackPane::refresh);
    bar->addWidget(m_full);
    connect(m_copy, &QToolButton::clicked, this, [this] { QApplication::clipboard()->setText(text()); });
    bar->addWidget(m_copy);
    layout->addLayout(bar);

    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->viewport()->installEventFilter(this);
    m_text->viewport()->setMouseTracking(true);
    layout->addWidget(m_text, 1);
    (new Retranslator(this))->add([this, title] {
        title->setText(tr("Allocation stack"));
        m_native->setText(tr("Native frames"));
        m_native->setToolTip(tr("Unfold the C++, CPython and allocator frames, each run folded into one line"));
        m_native->setAccessibleName(tr("Show native frames"));
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
    const QString& header, const StackText::Lines& frames, const StackText::Lines& allFrames, const QString& footer)
{
    m_header = header;
    m_frames = frames;
    m_allFrames = allFrames;
    m_footer = footer;
    m_context.clear();
    refresh();
}

void StackPane::showFinding(const Comparison& comparison, size_t finding, int otherRank)
{
    const StackText::Description d = StackText::describeFinding(comparison, finding, otherRank);
    setContent(d.header, d.frames, d.allFrames, d.footer);
    showContextOf(comparison, finding);
}

void StackPane::showOom(const DeviceHistory& history, int rank, const OomMarker& oom)
{
    const StackText::Description d = StackText::describeOom(history, rank, oom);
    setContent(d.header, d.frames, d.allFrames);
}

void StackPane::showStack(const QString& header, const Snapshot& snapshot, StackId stack)
{
    setContent(header, StackText::lines(StackText::stackFrames(snapshot, stack, true)),
        StackText::lines(StackText::stackFrames(snapshot, stack, false)));
}

void StackPane::showContextOf(const DeviceHistory& history, const Allocation& allocation)
{
    m_context = contextLines(history, allocation);
    refresh();
}

void StackPane::showContextOf(const Comparison& comparison, size_t finding)
{
    const std::optional<uint32_t> allocation = representativeAllocation(comparison, finding);
    if (!allocation)
        return;
    const DeviceHistory& h = comparison.history(size_t(comparison.rankIndex(comparison.findings()[finding].rank)));
    showContextOf(h, h.allocations()[*allocation]);
}

QStringList StackPane::contextLines(const DeviceHistory& history, const Allocation& allocation)
{
    const auto text = [&history](
                          StringId id) { return Formatting::text(history.snapshot().strings.view(id)).trimmed(); };
    QStringList lines;
    const EntryContext& context = history.contextOf(allocation);
    // PyTorch writes 'N/A' outside a compiled region.
    const QString region = text(context.compileContext);
    if (!region.isEmpty() && region != QLatin1String("N/A"))
        lines << tr("Compiled region: %1").arg(region);
    if (const QString metadata = text(context.userMetadata); !metadata.isEmpty())
        lines << tr("Metadata: %1").arg(metadata);
    if (allocation.poolIndex < history.pools().size()) {
        const auto [first, second] = history.pools()[allocation.poolIndex];
        if (first != 0 || second != 0)
            lines << tr("Private pool (%1, %2): CUDA graph or MemPool").arg(first).arg(second);
    }
    return lines;
}

std::optional<uint32_t> StackPane::representativeAllocation(const Comparison& comparison, size_t finding)
{
    if (finding >= comparison.findings().size())
        return std::nullopt;
    const Finding& f = comparison.findings()[finding];
    const int index = comparison.rankIndex(f.rank);
    if (index < 0 || comparison.history(size_t(index)).device() != f.device)
        return std::nullopt;
    const DeviceHistory& h = comparison.history(size_t(index));
    std::unordered_set<uint64_t> blocks;
    for (const FindingRun& block : f.blocks)
        blocks.insert(block.address);
    std::optional<uint32_t> atStack;
    for (uint32_t i : h.liveSet(comparison.ranks()[size_t(index)].point.event)) {
        const Allocation& a = h.allocations()[i];
        if (blocks.count(a.addr))
            return i;
        if (!atStack && a.stack == f.stack)
            atStack = i;
    }
    return atStack;
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

bool StackPane::showsNativeFrames() const
{
    return m_native->isChecked();
}

void StackPane::setShowNativeFrames(bool native)
{
    m_native->setChecked(native);
}

bool StackPane::eventFilter(QObject* watched, QEvent* event)
{
    // A folded line ("+38 native frames") unfolds on a click, as a tree's branch would.
    const bool move = event->type() == QEvent::MouseMove;
    const bool release = event->type() == QEvent::MouseButtonRelease;
    if (watched != m_text->viewport() || (!move && !release))
        return QWidget::eventFilter(watched, event);
    const auto* mouse = static_cast<const QMouseEvent*>(event);
    const QTextBlock block = m_text->cursorForPosition(mouse->position().toPoint()).block();
    const bool onFoldedLine = block.isValid() && m_foldedLines.contains(block.blockNumber());
    if (move)
        m_text->viewport()->setCursor(onFoldedLine ? Qt::PointingHandCursor : Qt::IBeamCursor);
    else if (onFoldedLine && mouse->button() == Qt::LeftButton && !m_text->textCursor().hasSelection())
        m_native->setChecked(true);
    return QWidget::eventFilter(watched, event);
}

void StackPane::setForPicture()
{
    m_forPicture = true;
    m_native->setVisible(false);
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
    // A picture cannot scroll: the user's frame opens the pane, wherever the text was scrolled at another height.
    if (m_startLine >= 0) {
        m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
        m_text->setTextCursor(QTextCursor(m_text->document()->findBlockByNumber(m_startLine)));
        m_text->ensureCursorVisible();
    }
}

QString StackPane::text() const
{
    return m_text->toPlainText();
}

void StackPane::refresh()
{
    m_copy->setEnabled(!m_header.isEmpty());
    m_full->setEnabled(!m_allFrames.lines.isEmpty() && m_allFrames.lines != m_frames.lines);
    const bool all = m_full->isChecked() && !m_allFrames.lines.isEmpty();
    m_native->setEnabled(!m_frames.folded.isEmpty() && !all);
    m_foldedLines.clear();
    m_startLine = -1;
    m_text->setExtraSelections({});
    if (m_header.isEmpty()) {
        m_text->clear();
        return;
    }
    const StackText::Lines& shown = all ? m_allFrames : m_frames;
    QStringList frames = shown.lines;
    QList<int> dimmed = shown.dimmed;
    int start = shown.start;
    if (!all && !m_frames.folded.isEmpty() && m_native->isChecked()) {
        // Unfolded: each folded line becomes its frames, and the lines after it move down.
        frames = m_frames.unfolded();
        const auto moved = [this](int line) {
            int shift = 0;
            for (qsizetype i = 0; i < m_frames.foldLines.size(); ++i) {
                if (m_frames.foldLines[i] < line)
                    shift += m_frames.foldSizes[i] - 1;
            }
            return line + shift;
        };
        QList<int> unfoldedDim;
        for (int line : dimmed) {
            const qsizetype fold = m_frames.foldLines.indexOf(line);
            for (int k = 0; k < (fold < 0 ? 1 : m_frames.foldSizes[fold]); ++k)
                unfoldedDim.append(moved(line) + k);
        }
        dimmed = unfoldedDim;
        start = start >= 0 ? moved(start) : -1;
    }
    QString text = m_header + QLatin1Char('\n');
    for (const QString& line : m_context)
        text += line + QLatin1Char('\n');
    const int first = int(text.count(QLatin1Char('\n')));
    if (!all && !m_native->isChecked()) {
        for (int line : m_frames.foldLines)
            m_foldedLines.append(first + line);
    }
    text += frames.isEmpty() ? tr("(no stack was recorded for this allocation)") : frames.join(QLatin1Char('\n'));
    if (!m_footer.isEmpty())
        text += QLatin1String("\n\n") + m_footer;
    // The text as given: a picture's marks are formats in the text (below), which the cursor would carry into it.
    m_text->setCurrentCharFormat(QTextCharFormat());
    m_text->setPlainText(text);

    // Reading starts at the user's frame: marked and scrolled to; others' frames dimmed around it, never moved.
    QList<QTextEdit::ExtraSelection> marks;
    const QTextDocument* document = m_text->document();
    for (int line : dimmed) {
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(document->findBlockByNumber(first + line));
        mark.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        mark.format.setForeground(palette().color(QPalette::PlaceholderText));
        marks.append(mark);
    }
    if (start >= 0 && !frames.isEmpty()) {
        m_startLine = first + start;
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(document->findBlockByNumber(m_startLine));
        QColor background = palette().color(QPalette::Highlight);
        background.setAlpha(48);
        mark.format.setBackground(background);
        mark.format.setFontWeight(QFont::Bold);
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        marks.append(mark);
        m_text->setTextCursor(mark.cursor);
        m_text->ensureCursorVisible();
    }
    if (!m_forPicture) {
        m_text->setExtraSelections(marks);
        return;
    }
    // A picture carries the marks in its text: drawn through selections, they made Qt's PDF writer draw none of the
    // text from the first mark on (an exported PDF lost the stack under its first lines).
    for (const QTextEdit::ExtraSelection& mark : std::as_const(marks)) {
        QTextCursor line = mark.cursor;
        line.movePosition(QTextCursor::StartOfBlock);
        line.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat text = mark.format;
        text.clearBackground();
        text.clearProperty(QTextFormat::FullWidthSelection);
        line.mergeCharFormat(text);
        if (mark.format.hasProperty(QTextFormat::FullWidthSelection)) {
            QTextBlockFormat block;
            block.setBackground(mark.format.background());
            line.mergeBlockFormat(block);
        }
    }
}

void StackPane::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // The marks' colours are the palette's at the time they were made: a theme switched while the app runs would
    // leave the dimmed lines in the old theme's colour (near-black on a dark background).
    if (event->type() == QEvent::PaletteChange)
        refresh();
}

int StackPane::readingStartLine() const
{
    return m_startLine;
}

} // namespace RankScope
