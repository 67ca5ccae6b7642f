// SPDX-License-Identifier: MIT
#pragma once

#include "excesstree.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace RankScope {

/// What a rank holds by frame as a flame graph, drawn top-down (an icicle): the whole at the top, each frame under the
/// frame that called it, as wide as what the rank holds through it (beyond its baseline, or everything at the point).
/// Hover tells frame, bytes and share; the context menu copies or exports it (SVG and PDF as vectors).
class FlameGraph : public QWidget
{
    Q_OBJECT
public:
    explicit FlameGraph(QWidget* parent = nullptr);
    /// A top-down tree (ExcessTree::TopDown) of `scope`, which words the tooltips; nullptr: nothing to draw.
    void setTree(
        std::shared_ptr<const ExcessNode> root, const QString& title, ExcessTree::Scope scope = ExcessTree::Excess);
    /// The title of rank `rank`'s tree of `scope` holding `bytes` in all, in the window and in exports alike.
    static QString title(int rank, ExcessTree::Scope scope, int64_t bytes);
    QSize sizeHint() const override;
    /// The frame drawn at a point of the widget, or null.
    const ExcessNode* nodeAt(const QPointF& pos) const;
    /// The tooltip at a point of the widget: the frame, what the rank holds through it (beyond its baseline, or at
    /// the point, as the tree's scope says) and its share; empty off the frames.
    QString describeAt(const QPointF& pos) const;
    /// Frames drawn wide enough to see (for tests).
    int drawnFrames() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Box
    {
        QRectF rect;
        const ExcessNode* node;
        int depth;
    };
    void layoutBoxes();
    void place(const ExcessNode& node, double x, double width, int depth);
    int rowHeight() const;

    std::shared_ptr<const ExcessNode> m_root;
    QString m_title;
    ExcessTree::Scope m_scope = ExcessTree::Excess;
    std::vector<Box> m_boxes;
    int m_depth = 0;
};

} // namespace RankScope
