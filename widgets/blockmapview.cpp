// SPDX-License-Identifier: MIT
#include "blockmapview.h"

#include "chartstyle.h"
#include "formatting.h"
#include "imageexport.h"
#include "legend.h"
#include "rectlayer.h"
#include "retranslator.h"
#include "stackpane.h"
#include "stacktext.h"
#include "tooltiputil.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace RankScope {

/// The replayed state and where each segment goes: computed off the GUI thread, immutable once shown.
struct BlockMapView::Layout
{
    DeviceHistoryPtr history;
    std::shared_ptr<const AllocatorState> state;
    DeviceStats stats;
    FreeSpace free; ///< the gaps between live blocks, for marking those too small for a failed request
    std::vector<uint64_t> fingerprints; // per block
    std::vector<StackId> stacks; // per block: where it was allocated
    std::vector<uint32_t> allocations; // per block: the allocation live there (index into the history), or NoAllocation
    std::vector<uint32_t> blockSegment; // per block: index into state.segments
    /// Segments by size, then address: the viewer's packing order.
    std::vector<uint32_t> order;
    double maxSize = 1;
    double totalSize = 0;
};

namespace {

constexpr double HeaderHeight = 20;
constexpr double MaxRowHeight = 36;
constexpr double MinRowHeight = 12;
constexpr uint32_t NoAllocation = 0xffffffffu;

// The viewer's packing: segments in order, left to right, a new row whenever the next would pass the row width.
BlockMapView::Packing pack(const BlockMapView::Layout& layout, double rowWidth)
{
    BlockMapView::Packing p;
    p.rowWidth = rowWidth;
    const std::vector<StateSegment>& segments = layout.state->segments;
    const double padding = layout.maxSize / 200;
    p.segmentRow.assign(segments.size(), 0);
    p.segmentOffset.assign(segments.size(), 0);
    double offset = 0;
    for (uint32_t i : layout.order) {
        const double size = double(segments[i].size);
        if (p.rows.empty() || (offset + size > rowWidth && offset > 0)) {
            p.rows.emplace_back();
            offset = 0;
        }
        p.segmentRow[i] = int(p.rows.size()) - 1;
        p.segmentOffset[i] = offset;
        p.rows.back().push_back(i);
        offset += size + padding;
    }
    return p;
}

std::shared_ptr<const BlockMapView::Layout> computeLayout(const DeviceHistoryPtr& history, EventIndex event,
    std::shared_ptr<const AllocatorState> state, const SiteOptions& siteOptions)
{
    auto layout = std::make_shared<BlockMapView::Layout>();
    layout->history = history;
    layout->state = state ? std::move(state) : std::make_shared<const AllocatorState>(history->stateAt(event));
    layout->stats = layout->state->stats();
    layout->free = layout->state->freeInUsedSegments();
    const std::vector<StateSegment>& segments = layout->state->segments;
    // A block recreated by undoing a free carries the free's stack, often none; the allocation live at that address
    // carries where it was allocated, which is what sites are made of.
    std::unordered_map<uint64_t, uint32_t> allocatedAt;
    for (uint32_t i : history->liveSet(event))
        allocatedAt.emplace(history->allocations()[i].addr, i);
    for (const StateBlock& b : layout->state->blocks) {
        const auto found = allocatedAt.find(b.addr);
        const bool known = found != allocatedAt.end();
        layout->stacks.push_back(known ? history->allocations()[found->second].stack : b.stack);
        layout->allocations.push_back(known ? found->second : NoAllocation);
    }
    for (const SiteTable::StackSite& site : SiteTable::sitesOf(history->snapshot(), layout->stacks, siteOptions, false))
        layout->fingerprints.push_back(site.fingerprint);
    for (const StateBlock& b : layout->state->blocks) {
        auto seg = std::upper_bound(segments.begin(), segments.end(), b.addr,
            [](uint64_t addr, const StateSegment& s) { return addr < s.addr; });
        layout->blockSegment.push_back(seg == segments.begin() ? 0 : uint32_t(seg - segments.begin() - 1));
    }
    layout->order.resize(segments.size());
    for (uint32_t i = 0; i < layout->order.size(); ++i)
        layout->order[i] = i;
    std::sort(layout->order.begin(), layout->order.end(), [&](uint32_t a, uint32_t b) {
        return segments[a].size != segments[b].size ? segments[a].size < segments[b].size
                                                    : segments[a].addr < segments[b].addr;
    });
    for (const StateSegment& s : segments) {
        layout->maxSize = std::max(layout->maxSize, double(s.size));
        layout->totalSize += double(s.size);
    }
    return layout;
}

QBrush tooSmallBrush(const BlockMapView::StateColors& colors)
{
    return QBrush(colors.pendingFree, Qt::BDiagPattern);
}

// The map's text, its header and legend: a little smaller than the widget's.
QFont smallFont(const QFont& font)
{
    QFont small = font;
    small.setPointSizeF(small.pointSizeF() * 0.9);
    return small;
}

} // namespace

BlockMapView::BlockMapView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    (new Retranslator(this))->add([this] {
        setAccessibleDescription(tr("The allocator's segments and blocks of one rank at the comparison point"));
    });
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

BlockMapView::~BlockMapView() = default;

QSize BlockMapView::sizeHint() const
{
    return { 480, 220 };
}

QSize BlockMapView::minimumSizeHint() const
{
    return { 160, 90 };
}

void BlockMapView::setState(int rank, const QString& role, DeviceHistoryPtr history, EventIndex event,
    const SiteOptions& site, std::shared_ptr<const AllocatorState> state)
{
    m_rank = rank;
    m_role = role;
    m_event = event;
    update();
    m_jobs.start([history = std::move(history), event, state = std::move(state),
                     site] { return computeLayout(history, event, state, site); },
        [this](std::shared_ptr<const Layout> layout) {
            const bool sameSegments = m_layout && m_layout->state->segments == layout->state->segments;
            m_layout = std::move(layout);
            if (!sameSegments && !(m_linked && m_partner)) {
                m_zoom = 1;
                m_pan = {};
            }
            repack();
            emit stateReady();
        });
}

void BlockMapView::clear()
{
    m_jobs.cancel();
    m_layout.reset();
    m_runs.clear();
    m_tooSmallFor = 0;
    m_rank = -1;
    update();
}

void BlockMapView::setTooSmallFor(int64_t request)
{
    m_tooSmallFor = request;
    update();
}

int BlockMapView::tooSmallGapCount() const
{
    if (!m_layout || m_tooSmallFor <= 0)
        return 0;
    return int(std::count_if(m_layout->free.gaps.begin(), m_layout->free.gaps.end(),
        [this](const FreeSpace::Gap& g) { return g.size < m_tooSmallFor; }));
}

void BlockMapView::setOutlinedRuns(std::vector<FindingRun> runs)
{
    m_runs = std::move(runs);
    update();
}

void BlockMapView::setHighlightedSite(std::optional<uint64_t> fingerprint)
{
    m_highlight = fingerprint;
    update();
}

void BlockMapView::setColoring(Coloring coloring)
{
    m_coloring = coloring;
    update();
}

double BlockMapView::ownRowWidth() const
{
    if (!m_layout)
        return 0;
    // As wide as the largest segment, as in the viewer, unless that makes rows too thin to see: then wider, until
    // the rows fit the height.
    const QRectF area = mapArea();
    const double fitting = std::max(1.0, std::floor(area.height() / MinRowHeight));
    double width = std::max(m_layout->maxSize, m_layout->totalSize / fitting);
    for (int i = 0; i < 40 && double(pack(*m_layout, width).rows.size()) > fitting; ++i)
        width *= 1.15;
    return width;
}

void BlockMapView::repack()
{
    if (!m_layout)
        return;
    // Linked maps take the wider of their two rows, so that both draw a byte the same width.
    const bool shared = m_linked && m_partner && m_partner->m_layout;
    const double width = std::max(ownRowWidth(), shared ? m_partner->ownRowWidth() : 0.0);
    m_packing = pack(*m_layout, width);
    update();
    if (shared && m_partner->m_packing.rowWidth != width) {
        m_partner->m_packing = pack(*m_partner->m_layout, width);
        m_partner->update();
    }
}

void BlockMapView::setPartner(BlockMapView* partner)
{
    m_partner = partner;
    repack();
}

void BlockMapView::setLinked(bool linked)
{
    if (linked == m_linked)
        return;
    m_linked = linked;
    if (m_partner && m_partner->m_linked != linked)
        m_partner->setLinked(linked);
    repack();
    if (linked)
        setView(m_zoom, m_pan);
}

void BlockMapView::setView(double zoom, QPointF pan)
{
    m_zoom = zoom;
    m_pan = pan;
    update();
    if (m_linked && m_partner && (m_partner->m_zoom != zoom || m_partner->m_pan != pan)) {
        m_partner->m_zoom = zoom;
        m_partner->m_pan = pan;
        m_partner->update();
    }
}

void BlockMapView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange) {
        m_legendCache = {};
        repack();
    }
}

void BlockMapView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    repack();
}

std::optional<DeviceStats> BlockMapView::stats() const
{
    return m_layout ? std::optional<DeviceStats>(m_layout->stats) : std::nullopt;
}

int BlockMapView::blockCount() const
{
    return m_layout ? int(m_layout->state->blocks.size()) : 0;
}

int BlockMapView::segmentCount() const
{
    return m_layout ? int(m_layout->state->segments.size()) : 0;
}

int BlockMapView::highlightedBlockCount() const
{
    if (!m_layout || !m_highlight)
        return 0;
    return int(std::count(m_layout->fingerprints.begin(), m_layout->fingerprints.end(), *m_highlight));
}

namespace {

// The segment holding `address`, as an index into `segments` (sorted by address).
std::optional<size_t> segmentOf(const std::vector<StateSegment>& segments, uint64_t address)
{
    auto it = std::upper_bound(
        segments.begin(), segments.end(), address, [](uint64_t addr, const StateSegment& s) { return addr < s.addr; });
    if (it == segments.begin())
        return std::nullopt;
    --it;
    if (address >= it->addr + uint64_t(it->size))
        return std::nullopt;
    return size_t(it - segments.begin());
}

// Where `address` falls across a segment drawn as `rect`.
double xIn(const QRectF& rect, const StateSegment& segment, uint64_t address)
{
    return rect.left() + rect.width() * double(address - segment.addr) / double(segment.size);
}

// Rectangles of one colour (with an outline colour, or 0 for none), drawn in the order of the layers.
} // namespace

int BlockMapView::visibleOutlinedRuns() const
{
    if (!m_layout)
        return 0;
    return int(std::count_if(m_runs.begin(), m_runs.end(),
        [this](const FindingRun& r) { return segmentOf(m_layout->state->segments, r.address).has_value(); }));
}

QRectF BlockMapView::mapArea() const
{
    return QRectF(6, HeaderHeight + 4, width() - 12, height() - HeaderHeight - legendHeight() - 8);
}

// Unzoomed map: x in pixels across the area's width for maxSize bytes, rows of rowHeight pixels.
QRectF BlockMapView::segmentRect(size_t segment) const
{
    return segmentRect(segment, mapArea());
}

QRectF BlockMapView::segmentRect(size_t segment, const QRectF& area) const
{
    const double scale = area.width() / m_packing.rowWidth;
    const double rowHeight = std::min(MaxRowHeight, area.height() / double(std::max<size_t>(m_packing.rows.size(), 1)));
    const QRectF unzoomed(m_packing.segmentOffset[segment] * scale, m_packing.segmentRow[segment] * rowHeight,
        double(m_layout->state->segments[segment].size) * scale, rowHeight * 0.8);
    return QRectF(area.left() + (unzoomed.left() - m_pan.x()) * m_zoom,
        area.top() + (unzoomed.top() - m_pan.y()) * m_zoom, unzoomed.width() * m_zoom, unzoomed.height() * m_zoom);
}

double BlockMapView::xOf(size_t segment, uint64_t address) const
{
    return xIn(segmentRect(segment), m_layout->state->segments[segment], address);
}

std::optional<size_t> BlockMapView::segmentAt(const QPointF& pos) const
{
    if (!m_layout)
        return std::nullopt;
    for (size_t row = 0; row < m_packing.rows.size(); ++row) {
        const std::vector<uint32_t>& segs = m_packing.rows[row];
        if (segs.empty())
            continue;
        const QRectF first = segmentRect(segs.front());
        if (pos.y() < first.top() || pos.y() > first.bottom())
            continue;
        for (uint32_t s : segs) {
            if (segmentRect(s).contains(pos))
                return s;
        }
    }
    return std::nullopt;
}

void BlockMapView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    p.setFont(smallFont(font()));
    const QString who = m_rank < 0 ? QString()
        : m_role.isEmpty()         ? tr("Rank %1").arg(m_rank)
                                   : tr("Rank %1 (%2)").arg(m_rank).arg(m_role);
    QString header;
    if (!m_layout) {
        header = m_rank < 0 ? tr("No rank selected") : tr("%1: replaying the allocator…").arg(who);
    } else {
        const DeviceStats& s = m_layout->stats;
        header = tr("%1 after event %2: %3 reserved in %4 segment(s), %5 allocated in %6 block(s); %7")
                     .arg(who)
                     .arg(m_event)
                     .arg(Formatting::bytes(s.reserved))
                     .arg(s.segments)
                     .arg(Formatting::bytes(s.allocated))
                     .arg(s.blocks)
                     .arg(Formatting::unallocated(s.inactive, s.reserved, s.largestFree));
    }
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRectF(6, 2, width() - 12, HeaderHeight), Qt::AlignVCenter | Qt::AlignLeft,
        p.fontMetrics().elidedText(header, Qt::ElideRight, width() - 12));
    if (!m_layout)
        return;

    const QRectF area = mapArea();
    p.save();
    p.setClipRect(area);
    const std::vector<StateSegment>& segments = m_layout->state->segments;
    // Tens of thousands of rectangles: each segment's rectangle is computed once, rectangles are gathered by colour,
    // and on screen they are filled straight into an image, which keeps a full repaint within a frame.
    std::vector<QRectF> segmentRects(segments.size());
    std::vector<char> shown(segments.size());
    std::vector<RectLayer> layers(1);
    const StateColors colors = stateColors(pal);
    layers[0].color = colors.free.rgba();
    layers[0].outline = colors.segmentOutline.rgba();
    for (size_t i = 0; i < segments.size(); ++i) {
        segmentRects[i] = segmentRect(i, area);
        shown[i] = segmentRects[i].intersects(area);
        if (shown[i])
            layers[0].rects.push_back(segmentRects[i]);
    }
    const auto add = [&layers](QRgb color, const QRectF& r) {
        auto it =
            std::find_if(layers.begin() + 1, layers.end(), [color](const RectLayer& l) { return l.color == color; });
        if (it == layers.end())
            it = layers.insert(layers.end(), RectLayer { color, 0, {} });
        it->rects.push_back(r);
    };
    const QRgb alert = colors.pendingFree.rgba();
    const QRgb rounding = colors.rounding.rgba();
    const QRgb neutral = colors.otherSites.rgba();
    const QRgb active = colors.allocated.rgba();
    const std::vector<StateBlock>& blocks = m_layout->state->blocks;
    for (size_t i = 0; i < blocks.size(); ++i) {
        const StateBlock& b = blocks[i];
        const size_t seg = m_layout->blockSegment[i];
        if (seg >= segments.size())
            continue;
        if (!shown[seg])
            continue;
        const QRectF& s = segmentRects[seg];
        const double left = xIn(s, segments[seg], b.addr);
        const double used = std::max(1.0, xIn(s, segments[seg], b.addr + uint64_t(b.requested)) - left);
        QRgb color = b.pendingFree ? alert
            : m_coloring == BySite ? ChartStyle::siteRgb(m_layout->fingerprints[i])
                                   : active;
        // With a site selected, the rest turns neutral so the site's blocks stand out.
        if (m_highlight && m_layout->fingerprints[i] != *m_highlight && !b.pendingFree)
            color = neutral;
        add(color, QRectF(left, s.top() + 1, used, s.height() - 2));
        if (b.size > b.requested) {
            const double waste = xIn(s, segments[seg], b.addr + uint64_t(b.size)) - left - used;
            if (waste > 0.3)
                add(rounding, QRectF(left + used, s.top() + 1, waste, s.height() - 2));
        }
    }
    drawRectLayers(p, area, layers);
    // A fragmentation verdict's rank: free spans between live blocks too small for the failed request, hatched.
    if (m_tooSmallFor > 0) {
        p.setPen(Qt::NoPen);
        p.setBrush(tooSmallBrush(colors));
        for (const FreeSpace::Gap& g : m_layout->free.gaps) {
            const std::optional<size_t> seg = segmentOf(segments, g.addr);
            if (g.size >= m_tooSmallFor || !seg || !shown[*seg])
                continue;
            const QRectF& s = segmentRects[*seg];
            const double left = xIn(s, segments[*seg], g.addr);
            const double right = xIn(s, segments[*seg], g.addr + uint64_t(g.size));
            p.drawRect(QRectF(left, s.top() + 1, std::max(1.0, right - left), s.height() - 2));
        }
        p.setBrush(Qt::NoBrush);
    }
    // The selected finding: outlined, and flagged above so that a run too thin to see still shows.
    p.setBrush(Qt::NoBrush);
    for (const FindingRun& run : m_runs) {
        const std::optional<size_t> seg = segmentOf(segments, run.address);
        if (!seg)
            continue;
        const QRectF s = segmentRect(*seg);
        const double left = xOf(*seg, run.address);
        const double right = std::max(left + 3, xOf(*seg, run.address + uint64_t(run.size)));
        // On a casing of the free space's colour: the outline then stands out on blocks of any colour, a site's
        // as light as itself included.
        const QRectF outline(left, s.top(), right - left, s.height());
        p.setPen(QPen(colors.free, 4));
        p.drawRect(outline);
        p.setPen(QPen(colors.finding, 2));
        p.drawRect(outline);
        QPolygonF flag;
        const double mid = (left + right) / 2;
        flag << QPointF(mid - 5, s.top() - 7) << QPointF(mid + 5, s.top() - 7) << QPointF(mid, s.top() - 1);
        p.setBrush(colors.finding);
        p.drawPolygon(flag);
        p.setBrush(Qt::NoBrush);
    }
    p.restore();

    Legend::paint(p, QRectF(6, height() - legendHeight() - 2, width() - 12, legendHeight()), legendEntries(),
        pal.color(QPalette::Text));
}

BlockMapView::StateColors BlockMapView::stateColors(const QPalette& palette)
{
    const QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    StateColors c;
    c.free = base.lighter(102);
    // Outlines halfway between text and base: over 3:1 against the free space and the window on either theme.
    c.segmentOutline = ChartStyle::mixed(text, base, 0.5);
    // The fills keep to a middle lightness, where each stands 3:1 or more off the free space and off the finding's
    // outline on a white and a near-black base alike; they differ from each other in hue.
    c.allocated = QColor(0x4e, 0x79, 0xa7);
    c.otherSites = ChartStyle::mixed(text, base, 0.45);
    c.pendingFree = ChartStyle::alertColor();
    c.rounding = QColor(0xc0, 0x70, 0x20);
    // White rather than the dark theme's light grey text: the alert red stays 3:1 off it.
    c.finding = base.lightness() < 128 ? QColor(Qt::white) : text;
    return c;
}

std::vector<LegendEntry> BlockMapView::legendEntries() const
{
    const QPalette& pal = palette();
    std::vector<LegendEntry> entries;
    const auto swatch = [&](const QBrush& brush, const QPen& pen, const QString& text) {
        entries.push_back({ LegendEntry::Swatch, brush, pen, text, {} });
    };
    const StateColors colors = stateColors(pal);
    const QPen segment(colors.segmentOutline, 0);
    if (m_coloring == BySite)
        entries.push_back(Legend::spectrum(tr("allocated (colour: site)"), ChartStyle::siteColor));
    else
        swatch(colors.allocated, Qt::NoPen, tr("allocated"));
    if (m_highlight)
        swatch(colors.otherSites, Qt::NoPen, tr("allocated, other sites"));
    swatch(colors.pendingFree, Qt::NoPen, tr("pending free"));
    swatch(colors.free, segment, tr("free"));
    swatch(colors.rounding, Qt::NoPen, tr("rounding"));
    swatch(Qt::NoBrush, QPen(colors.finding, 2), tr("finding"));
    if (m_tooSmallFor > 0)
        swatch(tooSmallBrush(colors), segment,
            tr("free, smaller than the failed %1").arg(Formatting::bytes(m_tooSmallFor)));
    return entries;
}

QStringList BlockMapView::legendTexts() const
{
    return Legend::texts(legendEntries());
}

double BlockMapView::legendHeight() const
{
    // Asked for every segment's rectangle: measured once per width and set of entries.
    const LegendCache key { width(), m_highlight.has_value(), m_coloring, m_tooSmallFor, 0 };
    if (!m_legendCache.sameEntries(key)) {
        m_legendCache = key;
        m_legendCache.height = Legend::height(legendEntries(), width() - 12, smallFont(font()));
    }
    return m_legendCache.height;
}

QString BlockMapView::describeAt(const QPointF& pos) const
{
    const std::optional<size_t> seg = segmentAt(pos);
    if (!seg)
        return {};
    const StateSegment& s = m_layout->state->segments[*seg];
    const QRectF r = segmentRect(*seg);
    const uint64_t address = s.addr + uint64_t(double(s.size) * std::clamp((pos.x() - r.left()) / r.width(), 0.0, 1.0));
    const std::vector<StateBlock>& blocks = m_layout->state->blocks;
    auto it = std::upper_bound(
        blocks.begin(), blocks.end(), address, [](uint64_t a, const StateBlock& b) { return a < b.addr; });
    const Snapshot& snapshot = m_layout->history->snapshot();
    QString text;
    StackId stack = s.stack;
    if (it != blocks.begin() && address < std::prev(it)->addr + uint64_t(std::max(std::prev(it)->size, int64_t(1)))) {
        const StateBlock& b = *std::prev(it);
        text = tr("<b>Block 0x%1</b>: %2 requested").arg(b.addr, 0, 16).arg(Formatting::bytesExact(b.requested));
        if (b.size > b.requested)
            text += tr(", %1 after rounding").arg(Formatting::bytes(b.size));
        text +=
            b.pendingFree ? tr("<br>Freed, but still in use by another stream (pending free)") : tr("<br>Allocated");
        const size_t block = size_t(std::prev(it) - blocks.begin());
        stack = m_layout->stacks[block];
        if (const uint32_t a = m_layout->allocations[block]; a != NoAllocation) {
            for (const QString& line : StackPane::contextLines(*m_layout->history, m_layout->history->allocations()[a]))
                text += QStringLiteral("<br>") + line.toHtmlEscaped();
        }
    } else {
        int64_t used = 0;
        for (auto b = std::lower_bound(
                 blocks.begin(), blocks.end(), s.addr, [](const StateBlock&x, uint64_t a) { return x.addr < a; });
             b != blocks.end() && b->addr < s.addr + uint64_t(s.size); ++b)
            used += b->requested;
        text = tr("<b>Segment 0x%1</b>: %2, %3 free inside")
                   .arg(s.addr, 0, 16)
                   .arg(Formatting::bytes(s.size), Formatting::bytes(s.size - used));
    }
    text += tr(" (stream %1)").arg(s.stream);
    const QStringList lines = StackText::lines(StackText::stackFrames(snapshot, stack, true), 10);
    if (!lines.isEmpty())
        text += QStringLiteral("<pre>%1</pre>").arg(lines.join(QLatin1Char('\n')).toHtmlEscaped());
    return text;
}

bool BlockMapView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        ToolTipUtil::show(help->globalPos(), describeAt(help->pos()), this);
        return true;
    }
    return QWidget::event(event);
}

void BlockMapView::zoomAt(const QPointF& position, double factor)
{
    const QPointF at = position - mapArea().topLeft();
    const QPointF mapPoint = at / m_zoom + m_pan;
    const double zoom = std::clamp(m_zoom * factor, 1.0, 4096.0);
    setView(zoom, zoom == 1.0 ? QPointF() : mapPoint - at / zoom);
}

void BlockMapView::wheelEvent(QWheelEvent* event)
{
    if (!m_layout)
        return;
    zoomAt(event->position(), std::pow(ChartStyle::WheelZoomStep, event->angleDelta().y() / 120.0));
    event->accept();
}

void BlockMapView::mousePressEvent(QMouseEvent* event)
{
    m_dragFrom = event->position();
    m_pressPos = event->position();
}

void BlockMapView::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton && m_zoom > 1) {
        const QPointF pan = m_pan - (event->position() - m_dragFrom) / m_zoom;
        m_dragFrom = event->position();
        setView(m_zoom, pan);
    }
}

void BlockMapView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || (event->position() - m_pressPos).manhattanLength() > 3 || !m_layout)
        return;
    const std::optional<size_t> seg = segmentAt(event->position());
    if (!seg)
        return;
    const StateSegment& s = m_layout->state->segments[*seg];
    const QRectF r = segmentRect(*seg);
    const uint64_t address = s.addr + uint64_t(double(s.size) * (event->position().x() - r.left()) / r.width());
    const std::vector<StateBlock>& blocks = m_layout->state->blocks;
    auto it = std::upper_bound(
        blocks.begin(), blocks.end(), address, [](uint64_t a, const StateBlock& b) { return a < b.addr; });
    if (it != blocks.begin() && address < std::prev(it)->addr + uint64_t(std::prev(it)->size))
        emit blockClicked(std::prev(it)->addr, m_layout->stacks[size_t(std::prev(it) - blocks.begin())]);
}

void BlockMapView::mouseDoubleClickEvent(QMouseEvent*)
{
    setView(1, {});
}

void BlockMapView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    QAction* site = menu.addAction(tr("Colour by Site"), this, [this] { setColoring(BySite); });
    site->setCheckable(true);
    site->setChecked(m_coloring == BySite);
    QAction* state = menu.addAction(tr("Colour by State"), this, [this] { setColoring(ByState); });
    state->setCheckable(true);
    state->setChecked(m_coloring == ByState);
    menu.addSeparator();
    menu.addAction(tr("Reset Zoom"), this, [this] { setView(1, {}); });
    if (m_partner) {
        QAction* link = menu.addAction(tr("Link Scale and Zoom with the Other Map"), this, &BlockMapView::setLinked);
        link->setCheckable(true);
        link->setChecked(m_linked);
    }
    menu.addSeparator();
    ImageExport::addImageActions(&menu, this);
    menu.exec(event->globalPos());
}

} // namespace RankScope
