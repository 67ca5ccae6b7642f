// SPDX-License-Identifier: MIT
#pragma once

#include "excesstree.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace RankScope {

/// A rank's excess as a flame graph, drawn top-down (an icicle): the whole excess at the top, each frame under the
/// frame that called it, as wide as what the rank holds beyond its baseline through it. Hover tells frame, bytes and
/// share; the context menu copies or exports it (SVG and PDF as vectors).
class FlameGraph : public QWidget
{
    Q_OBJECT
public:
    explicit FlameGraph(QWidget* parent = nullptr);
    /// A top-down tree (ExcessTree::TopDown); nullptr: nothing to draw.
    void setTree(std::shared_ptr<const ExcessNode> root, const QString& title);
    QSize sizeHint() const override;
    /// The frame drawn at a point of the widget, or null.
    const ExcessNode* nodeAt(const QPointF& pos) const;
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
    std::vector<Box> m_boxes;
    int m_depth = 0;
};

} // namespace RankScope
