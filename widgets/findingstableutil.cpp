// SPDX-License-Identifier: MIT
#include "findingstableutil.h"

#include "findingsmodel.h"

#include <QAbstractProxyModel>
#include <QApplication>
#include <QEvent>
#include <QHeaderView>
#include <QStyledItemDelegate>
#include <QTreeView>

#include <algorithm>

namespace RankScope::FindingsTableUtil {

namespace {

// The site takes what the figures leave, and never less than this share of the view: on a narrow view the figures
// scroll, the line of code does not disappear.
constexpr double minimumSiteShare = 0.45;

// The text column takes what the figures leave, never less than minimumSiteShare of the view, and no more than its
// longest text: on a wide screen (4K) the figures stay beside the words they measure and the row's end is left blank,
// rather than a site stretched over two thousand pixels with its figures at the far edge.
void fitText(QTreeView* view, int textColumn)
{
    const QAbstractItemModel* model = view->model();
    if (!model)
        return;
    QHeaderView* header = view->header();
    int figures = 0;
    for (int column = 0; column < model->columnCount(); ++column) {
        if (column != textColumn && !view->isColumnHidden(column))
            figures += header->sectionSize(column);
    }
    const int width = view->viewport()->width();
    // QTreeView's override (indentation included) is protected; QAbstractItemView's is public.
    const int text = std::max(static_cast<const QAbstractItemView*>(view)->sizeHintForColumn(textColumn),
        header->sectionSizeHint(textColumn));
    header->resizeSection(textColumn, std::min(text, std::max(width - figures, int(width * minimumSiteShare))));
}

void fitSite(QTreeView* view)
{
    fitText(view, FindingsModel::SiteColumn);
}

// Refits the text column whenever the view changes width, and whenever its rows change (a tree's branch opened).
class TextFitter : public QObject
{
public:
    TextFitter(QTreeView* view, int column)
        : QObject(view)
        , m_view(view)
        , m_column(column)
    {
        view->viewport()->installEventFilter(this);
        const auto refit = [this] { fitText(m_view, m_column); };
        connect(view, &QTreeView::expanded, this, refit);
        connect(view, &QTreeView::collapsed, this, refit);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize && watched == m_view->viewport())
            fitText(m_view, m_column);
        return false;
    }

private:
    QTreeView* m_view;
    int m_column;
};

// A site the filter found by a frame of its stack ends with that frame's name: elided, the site gives way and the
// frame stays whole, since it is why the row is there (elided in the middle, the frame lost its beginning).
class SiteDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const QString found = foundIn(index);
        if (found.isEmpty())
            return;
        const QStyle* style = option->widget ? option->widget->style() : QApplication::style();
        const int margins = 2 * (style->pixelMetric(QStyle::PM_FocusFrameHMargin, option, option->widget) + 1);
        option->text = elidedSite(option->text, found, option->fontMetrics, option->rect.width() - margins);
    }
};

} // namespace

void fitWidth(QTreeView* view)
{
    using M = FindingsModel;
    const auto figures = [view] {
        int total = 0;
        for (int column = 0; column < M::NUM_COLUMNS; ++column) {
            if (column != M::SiteColumn && !view->isColumnHidden(column))
                total += view->header()->sectionSize(column);
        }
        return total;
    };
    for (int column : { M::RunsColumn, M::BaselineCountColumn, M::CountColumn, M::BaselineBytesColumn }) {
        if (figures() <= view->viewport()->width() * (1 - minimumSiteShare))
            break;
        view->setColumnHidden(column, true);
    }
    fitSite(view);
}

QString foundIn(const QModelIndex& index)
{
    // A filter's proxy (FindingsFilterModel) adds the frame it found to the site its source names.
    const auto* proxy = qobject_cast<const QAbstractProxyModel*>(index.model());
    if (!proxy)
        return {};
    const QString site = proxy->mapToSource(index).data().toString();
    const QString text = index.data().toString();
    return text.startsWith(site) ? text.mid(site.size()) : QString();
}

QString elidedSite(const QString& text, const QString& found, const QFontMetrics& metrics, int width)
{
    if (found.isEmpty() || !text.endsWith(found) || metrics.horizontalAdvance(text) <= width)
        return text;
    const int room = std::max(width - metrics.horizontalAdvance(found), 0);
    return metrics.elidedText(text.chopped(found.size()), Qt::ElideMiddle, room) + found;
}

void setUp(QTreeView* view)
{
    view->setRootIsDecorated(false);
    view->setAlternatingRowColors(true);
    view->setTextElideMode(Qt::ElideMiddle);
    // The site sets the table's width (fitText): a last column stretched over the rest would carry its figure to
    // the far edge of a wide screen.
    view->header()->setStretchLastSection(false);
    view->setItemDelegateForColumn(FindingsModel::SiteColumn, new SiteDelegate(view));
    new TextFitter(view, FindingsModel::SiteColumn);
}

void fitTextColumn(QTreeView* view, int column)
{
    view->header()->setStretchLastSection(false);
    new TextFitter(view, column);
    fitText(view, column);
}

void refitTextColumn(QTreeView* view, int column)
{
    fitText(view, column);
}

void fitColumns(QTreeView* view)
{
    for (int column = 0; column < FindingsModel::NUM_COLUMNS; ++column) {
        if (column != FindingsModel::SiteColumn)
            view->resizeColumnToContents(column);
    }
    fitSite(view);
}

} // namespace RankScope::FindingsTableUtil
