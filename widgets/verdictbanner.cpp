// SPDX-License-Identifier: MIT
#include "verdictbanner.h"

#include "chartstyle.h"
#include "retranslator.h"
#include "verdicttext.h"

#include <QApplication>
#include <QEvent>

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace RankScope {

VerdictBanner::VerdictBanner(QWidget* parent)
    : QFrame(parent)
    , m_strip(new QWidget(this))
    , m_title(new QLabel(this))
    , m_body(new QLabel(this))
    , m_more(new QToolButton(this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    (new Retranslator(this))->add([this] {
        setAccessibleName(tr("Verdict"));
        m_more->setText(m_more->isChecked() ? tr("Less") : tr("Details"));
        m_more->setToolTip(tr("Show or hide the evidence and what to change"));
    });
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_strip->setFixedWidth(6);
    m_strip->setAutoFillBackground(true);
    row->addWidget(m_strip);
    auto* layout = new QVBoxLayout;
    layout->setContentsMargins(8, 6, 10, 6);
    row->addLayout(layout, 1);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    m_title->setFont(bold);
    m_body->setWordWrap(true);
    m_body->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Compact on a small screen: the title (kind and rank) alone, the rest one click away.
    auto* head = new QHBoxLayout;
    head->addWidget(m_title, 1);
    m_more->setCheckable(true);
    m_more->setAutoRaise(true);
    m_more->hide();
    connect(m_more, &QToolButton::toggled, this, [this](bool open) {
        m_more->setText(open ? tr("Less") : tr("Details"));
        showBody();
    });
    head->addWidget(m_more);
    layout->addLayout(head);
    layout->addWidget(m_body);
    hide();
}

void VerdictBanner::setPending(const QString& message)
{
    m_verdict.reset();
    m_colour = QColor();
    applyColours();
    m_title->setText(message);
    m_body->clear();
    showBody();
    show();
}

void VerdictBanner::setVerdict(const Verdict& v, const Caveats& caveats)
{
    m_verdict = v;
    m_caveats = caveats;
    showVerdict();
}

void VerdictBanner::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange && m_verdict)
        showVerdict();
    // A theme chosen while the banner shows: its tint and text follow the new palette.
    if ((event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        && !m_applyingColours)
        applyColours();
}

void VerdictBanner::applyColours()
{
    m_applyingColours = true;
    const QPalette window = parentWidget() ? parentWidget()->palette() : QApplication::palette();
    QPalette p = window;
    p.setColor(QPalette::Window,
        m_colour.isValid() ? ChartStyle::bannerColor(m_colour, window) : window.color(QPalette::AlternateBase));
    setPalette(p);
    QPalette strip = p;
    if (m_colour.isValid())
        strip.setColor(QPalette::Window, m_colour);
    m_strip->setPalette(strip);
    if (m_details) {
        // The banner's tint and text, so the details read as its continuation.
        m_details->setPalette(p);
        m_details->viewport()->setPalette(p);
        m_detailsText->setPalette(p);
    }
    m_applyingColours = false;
}

void VerdictBanner::showVerdict()
{
    const Verdict& v = *m_verdict;
    QColor colour;
    switch (v.kind) {
    case Verdict::Balanced:
        colour = QColor(0x59, 0xa1, 0x4f);
        break;
    case Verdict::BurdenImbalance:
        colour = QColor(0xe1, 0x57, 0x59);
        break;
    case Verdict::InputImbalance:
        colour = QColor(0xf2, 0x8e, 0x2c);
        break;
    case Verdict::OutsideAllocator:
        colour = QColor(0xaf, 0x7a, 0xa1);
        break;
    case Verdict::OverCapacity:
        colour = QColor(0xc0, 0x39, 0x2b); // every rank alike out of memory: the job does not fit
        break;
    case Verdict::StrayDevice:
        colour = QColor(0x4e, 0x79, 0xa7);
        break;
    case Verdict::Fragmentation:
        colour = QColor(0x9c, 0x75, 0x5f);
        break;
    case Verdict::ModelParallelImbalance:
        colour = QColor(0x76, 0xb7, 0xb2);
        break;
    case Verdict::Growth:
        colour = QColor(0xb0, 0x7a, 0xa1).darker(110);
        break;
    }
    if (v.rankCount < 2 && v.kind != Verdict::Growth && v.oomRanks.empty())
        colour = QColor(0x9d, 0xa3, 0xab); // no comparison, so neither good nor bad news
    // A tint of it behind the palette's own text (ChartStyle::bannerColor); the strip carries the full colour.
    m_colour = colour;
    applyColours();
    const QString sure = VerdictText::confidence(v, VerdictText::Translated);
    m_title->setText(tr("%1 (confidence: %2)")
                         .arg(VerdictText::title(v, VerdictText::Translated),
                             VerdictText::confidenceLevel(v, VerdictText::Translated)));
    // How close an out-of-memory came on a line of its own: the figure a reader looks for first.
    QString body = VerdictText::explanation(v, VerdictText::Translated, false);
    if (const QString margin = VerdictText::margin(v.margin, VerdictText::Translated); !margin.isEmpty())
        body += QLatin1Char('\n') + margin;
    const QString remedy = VerdictText::remedy(v, VerdictText::Translated);
    if (!remedy.isEmpty())
        body += QLatin1Char('\n') + tr("What to change: %1").arg(remedy);
    // Why not another cause, and how sure: the same words `rankscope diff` prints.
    if (const QString considered = VerdictText::considered(v, VerdictText::Translated); !considered.isEmpty())
        body += QLatin1Char('\n') + considered;
    body += QLatin1Char('\n') + tr("Confidence: %1").arg(sure);
    // Caveats that change how far the answer goes, where the answer is read.
    QStringList notes;
    const Caveats& c = m_caveats;
    if (c.ranks > 1 && c.incompleteTraces == c.ranks)
        notes << tr("Every rank's trace is incomplete (recording started late or its ring buffer wrapped): "
                    "allocations from before the traces are not seen.");
    if (c.offPoint > 0)
        notes << tr("%n rank(s) could not be compared at the point asked for; their rows say where they were.", nullptr,
            c.offPoint);
    if (c.failedFiles > 0)
        notes << tr("%n file(s) could not be read and are not compared.", nullptr, c.failedFiles);
    if (!c.unusedOption.isEmpty())
        notes << tr("The job cannot use the %1; the ranks were compared without it.").arg(c.unusedOption);
    if (!c.jobVerdict.isEmpty())
        notes << tr("This is the answer at the point chosen; at the job's own moment (Point: %1) the verdict is: %2.")
                     .arg(c.jobPoint, c.jobVerdict);
    if (!notes.isEmpty())
        body += QLatin1Char('\n') + tr("Note: %1").arg(notes.join(QLatin1Char(' ')));
    m_body->setText(body);
    m_title->setToolTip(m_compact ? body : QString());
    show();
    showBody();
}

void VerdictBanner::showBody()
{
    // A compact banner's body goes over the page rather than into the banner: in the banner it made the window's
    // minimum taller than a 720-pixel screen, the window grew past it and stayed that tall after Less.
    QWidget* page = parentWidget();
    const bool inBanner = m_verdict && !m_compact;
    const bool over = m_verdict && m_compact && m_more->isChecked() && page && isVisible();
    m_body->setVisible(inBanner || (m_verdict && m_compact && m_more->isChecked() && !page));
    if (!over) {
        if (m_details)
            m_details->hide();
        return;
    }
    if (!m_details) {
        m_details = new QScrollArea(page);
        m_details->setWidgetResizable(true);
        m_details->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_details->setFrameShape(QFrame::StyledPanel);
        m_detailsText = new QLabel;
        m_detailsText->setWordWrap(true);
        m_detailsText->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_detailsText->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_detailsText->setContentsMargins(14, 6, 10, 8);
        m_details->setWidget(m_detailsText);
        page->installEventFilter(this);
    }
    m_details->setAccessibleName(tr("Verdict details"));
    // The banner's tint and text, so the details read as its continuation.
    m_details->setPalette(palette());
    m_details->viewport()->setPalette(palette());
    m_details->viewport()->setBackgroundRole(QPalette::Window);
    m_detailsText->setPalette(palette());
    m_detailsText->setText(m_body->text());
    placeDetails();
    m_details->show();
    m_details->raise();
}

void VerdictBanner::placeDetails()
{
    if (!m_details || !m_details->parentWidget())
        return;
    const QWidget* page = m_details->parentWidget();
    const QRect banner = geometry();
    const int top = banner.bottom() + 1;
    const int frame = 2 * m_details->frameWidth();
    const int text = m_detailsText->heightForWidth(banner.width() - frame);
    const int most = std::max(3 * fontMetrics().lineSpacing(), (page->height() - top) / 2);
    m_details->setGeometry(banner.left(), top, banner.width(), std::min(text + frame, most));
}

QWidget* VerdictBanner::details() const
{
    return m_details;
}

bool VerdictBanner::eventFilter(QObject* watched, QEvent* event)
{
    if (m_details && watched == m_details->parentWidget() && event->type() == QEvent::Resize)
        placeDetails();
    return QFrame::eventFilter(watched, event);
}

void VerdictBanner::resizeEvent(QResizeEvent* event)
{
    QFrame::resizeEvent(event);
    placeDetails();
}

void VerdictBanner::moveEvent(QMoveEvent* event)
{
    QFrame::moveEvent(event);
    placeDetails();
}

void VerdictBanner::showEvent(QShowEvent* event)
{
    QFrame::showEvent(event);
    showBody();
}

void VerdictBanner::hideEvent(QHideEvent* event)
{
    QFrame::hideEvent(event);
    if (m_details)
        m_details->hide();
}

void VerdictBanner::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    m_more->setVisible(compact);
    if (m_verdict)
        showVerdict();
    else
        showBody();
}

QString VerdictBanner::text() const
{
    return m_title->text() + QLatin1Char('\n') + m_body->text();
}

} // namespace RankScope
