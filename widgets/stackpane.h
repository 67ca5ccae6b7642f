// SPDX-License-Identifier: MIT
#pragma once

#include "stacktext.h"

#include <QWidget>

#include <cstdint>
#include <optional>

class QPlainTextEdit;
class QToolButton;

namespace RankScope {

class Comparison;
class DeviceHistory;
struct Allocation;

/// Shows where the selected thing was allocated: a header, the stack as the comparison sees it (the viewer's frame
/// filter, "my code" when chosen; in the order called, innermost first, the user's frame where reading starts marked
/// and scrolled to, others' frames dimmed, each native run folded into one line, which a click or the Native frames
/// button unfolds) or, on toggle, every frame as recorded, and a footer (the same site on the other rank). For an
/// allocation, what the trace says of it besides its stack comes between the header and the frames (contextLines).
/// Repeated frames come folded; the whole text can be copied.
class StackPane : public QWidget
{
    Q_OBJECT
public:
    explicit StackPane(QWidget* parent = nullptr);

    void setContent(const QString& header, const StackText::Lines& frames, const StackText::Lines& allFrames,
        const QString& footer = {});
    void clear();
    /// A finding as describeFinding words it (its footer: what `otherRank` holds at its site), with its context.
    void showFinding(const Comparison& comparison, size_t finding, int otherRank);
    /// An OOM of `rank` as describeOom words it.
    void showOom(const DeviceHistory& history, int rank, const OomMarker& oom);
    /// A stack of `snapshot` under `header`: the frames views show, and every frame as recorded on toggle.
    void showStack(const QString& header, const Snapshot& snapshot, StackId stack);
    /// Shows contextLines of `allocation` above the frames, until the next setContent.
    void showContextOf(const DeviceHistory& history, const Allocation& allocation);
    /// The same for the allocation a finding stands for (representativeAllocation), when its history has one.
    void showContextOf(const Comparison& comparison, size_t finding);
    /// What the trace says of an allocation besides its stack, a line each where it applies: the torch.compile region
    /// it was made in (`compile_context`), the user's `user_metadata`, and its private pool (a CUDA graph's or a
    /// torch.cuda.MemPool's). Empty for an allocation of the default pool without either.
    static QStringList contextLines(const DeviceHistory& history, const Allocation& allocation);
    /// The allocation of its rank's history a finding stands for: one of its extra blocks live at the rank's
    /// comparison point, else one made at its stack live there; nullopt when there is none (a finding on another
    /// rank's GPU).
    static std::optional<uint32_t> representativeAllocation(const Comparison& comparison, size_t finding);
    /// What is shown now, as copied to the clipboard.
    QString text() const;
    bool showsAllFrames() const;
    void setShowAllFrames(bool all);
    /// Whether the native runs folded into one line each are shown unfolded.
    bool showsNativeFrames() const;
    void setShowNativeFrames(bool native);
    /// The text's line where reading starts (the user's frame, marked and scrolled to), or -1.
    int readingStartLine() const;
    /// For exported pictures: no buttons, no scroll bars, long lines wrapped.
    void setForPicture();
    /// Shrinks the text to the whole lines that fit its height, so a picture never shows half a line.
    void fitWholeLines();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void refresh();

    QPlainTextEdit* m_text;
    QToolButton* m_native;
    QToolButton* m_full;
    QToolButton* m_copy;
    QString m_header;
    StackText::Lines m_frames;
    StackText::Lines m_allFrames;
    QString m_footer;
    QStringList m_context;
    QList<int> m_foldedLines; ///< the text's lines that fold native runs, while they are folded
    int m_startLine = -1;
    /// Drawn for an exported picture (setForPicture).
    bool m_forPicture = false;
};

} // namespace RankScope
