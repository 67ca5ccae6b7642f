// SPDX-License-Identifier: MIT
#include "flamegraph.h"

#include "excesstreemodel.h"
#include "formatting.h"
#include "imageexport.h"
#include "retranslator.h"
#include "tooltiputil.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace RankScope {

namespace {

// Warm colours as flame graphs use them, steady per frame: the same code gets the same colour every time.
QColor frameColor(const ExcessNode& node)
{
    if (node.native || node.noStack)
        return QColor(205, 205, 205); // not anyone's code to fix: no warm colour
    uint32_t h = 2166136261u;
    for (char c : node.file + node.name)
        h = (h ^ uint8_t(c)) * 16777619u;
    // Others' frames pale around the user's, as the trees dim them: the eye lands on the user's code.
    const int saturation = StackOrder::isOthers(node.kind) ? 35 + int((h >> 8) % 30) : 120 + int((h >> 8) % 80);
    return QColor::fromHsv(int(h % 50), saturation, 225 + int((h >> 16) % 30));
}

QString frameText(const ExcessNode& node)
{
    if (node.native)
        return ExcessTreeModel::nativeText();
    if (node.noStack)
        return ExcessTreeModel::noStackText();
    return QStringLiteral("%1 (%2:%3)")
        .arg(QString::fromStdString(node.name), Formatting::fileName(node.file))
        .arg(node.line);
}

} // namespace

FlameGraph::FlameGraph(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    ImageExport::addImageMenu(this, this);
    (new Retranslator(this))->add([this] {
        setAccessibleName(tr("Flame graph of the memory held by frame"));
        update();
    });
}

namespace {

int depthOf(const ExcessNode& node)
{
    if (node.native)
        return 1;
    int deepest = 0;
    for (const ExcessNode& child : node.children)
        deepest = std::max(deepest, depthOf(child));
    return deepest + 1;
}

} // namespace

QString FlameGraph::title(int rank, ExcessTree::Scope scope, int64_t bytes)
{
    return scope == ExcessTree::Excess ? tr("Rank %1: %2 beyond its baseline").arg(rank).arg(Formatting::bytes(bytes))
                                       : tr("Rank %1: %2 held at the point").arg(rank).arg(Formatting::bytes(bytes));
}

void FlameGraph::setTree(std::shared_ptr<const ExcessNode> root, const QString& title, ExcessTree::Scope scope)
{
    m_root = std::move(root);
    m_title = title;
    m_scope = scope;
    // Tall enough for every frame; a scroll area around it shows deep stacks.
    setMinimumHeight((m_root ? depthOf(*m_root) : 1) * rowHeight());
    layoutBoxes();
    updateGeometry();
    update();
}

int FlameGraph::rowHeight() const
{
    return fontMetrics().height() + 4;
}

QSize FlameGraph::sizeHint() const
{
    return { 600, std::max(4, m_depth + 2) * rowHeight() };
}

void FlameGraph::place(const ExcessNode& node, double x, double width, int depth)
{
    if (width < 1.0)
        return; // narrower than a pixel: part of its caller's box
    const int row = rowHeight();
    m_boxes.push_back({ QRectF(x, double(depth * row), width, row - 1), &node, depth });
    m_depth = std::max(m_depth, depth + 1);
    if (node.native)
        return; // the native run stays one box, as in the stack pane; the trees unfold it
    double childX = x;
    for (const ExcessNode& child : node.children) {
        const double childWidth =
            width * double(child.inclusiveBytes) / double(std::max<int64_t>(node.inclusiveBytes, 1));
        place(child, childX, childWidth, depth + 1);
        childX += childWidth;
    }
}

void FlameGraph::layoutBoxes()
{
    m_boxes.clear();
    m_depth = 0;
    if (m_root && m_root->inclusiveBytes > 0)
        place(*m_root, 0, width(), 0);
}

void FlameGraph::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    layoutBoxes();
}

const ExcessNode* FlameGraph::nodeAt(const QPointF& pos) const
{
    for (const Box& box : m_boxes) {
        if (box.rect.contains(pos))
            return box.node;
    }
    return nullptr;
}

int FlameGraph::drawnFrames() const
{
    return int(m_boxes.size());
}

QString FlameGraph::describeAt(const QPointF& pos) const
{
    const ExcessNode* node = m_root ? nodeAt(pos) : nullptr;
    if (!node)
        return {};
    const double share = 100.0 * double(node->inclusiveBytes) / double(std::max<int64_t>(m_root->inclusiveBytes, 1));
    const QString what = node == m_root.get() ? m_title : frameText(*node);
    const QString text = m_scope == ExcessTree::Excess
        ? tr("%1\n%2 beyond the baseline through this frame (%3% of the excess), %4 allocated in it")
        : tr("%1\n%2 held at the point through this frame (%3% of what the rank holds), %4 allocated in it");
    return text.arg(what, Formatting::bytes(node->inclusiveBytes))
        .arg(share, 0, 'f', 1)
        .arg(Formatting::bytes(node->selfBytes));
}

bool FlameGraph::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_root) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const QString text = describeAt(help->pos()); !text.isEmpty())
            ToolTipUtil::show(help->globalPos(), text, this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void FlameGraph::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (m_boxes.empty()) {
        // Still say whose tree it is and how much: "Rank 0: 0 B beyond its baseline".
        p.setPen(palette().color(QPalette::Text));
        p.drawText(rect().adjusted(3, 0, -3, 0), Qt::AlignTop | Qt::AlignLeft, m_title);
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No excess to show: this rank holds nothing beyond its baseline"));
        return;
    }
    const QFontMetrics metrics = fontMetrics();
    for (const Box& box : m_boxes) {
        const bool root = box.node == m_root.get();
        p.fillRect(box.rect, root ? palette().color(QPalette::AlternateBase) : frameColor(*box.node));
        if (box.rect.width() < 24)
            continue;
        const QString text = root ? m_title : frameText(*box.node);
        p.setPen(root ? palette().color(QPalette::Text) : QColor(Qt::black)); // warm fills are light in either theme
        p.drawText(box.rect.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
            metrics.elidedText(text, Qt::ElideRight, int(box.rect.width()) - 6));
    }
}

} // namespace RankScope
