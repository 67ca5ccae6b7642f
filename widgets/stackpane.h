// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QPlainTextEdit;
class QToolButton;

namespace RankScope {

/// Shows where the selected thing was allocated: a header, the stack as the comparison sees it (the viewer's frame
/// filter, "my code" when chosen) or, on toggle, every frame, and a footer (the same site on the other rank).
/// Repeated frames come folded; the whole text can be copied.
class StackPane : public QWidget
{
    Q_OBJECT
public:
    explicit StackPane(QWidget* parent = nullptr);

    void setContent(
        const QString& header, const QStringList& frames, const QStringList& allFrames, const QString& footer = {});
    void clear();
    /// What is shown now, as copied to the clipboard.
    QString text() const;
    bool showsAllFrames() const;
    void setShowAllFrames(bool all);
    /// For exported pictures: no buttons, no scroll bars, long lines wrapped.
    void setForPicture();
    /// Shrinks the text to the whole lines that fit its height, so a picture never shows half a line.
    void fitWholeLines();

private:
    void refresh();

    QPlainTextEdit* m_text;
    QToolButton* m_full;
    QToolButton* m_copy;
    QString m_header;
    QStringList m_frames;
    QStringList m_allFrames;
    QString m_footer;
};

} // namespace RankScope
