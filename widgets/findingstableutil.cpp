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

void fitSite(QTreeView* view)
{
    int figures = 0;
    for (int column = 0; column < FindingsModel::NUM_COLUMNS; ++column) {
        if (column != FindingsModel::SiteColumn && !view->isColumnHidden(column))
            figures += view->header()->sectionSize(column);
    }
    const int width = view->viewport()->width();
    view->header()->resizeSection(FindingsModel::SiteColumn, std::max(width - figures, int(width * minimumSiteShare)));
}

// Refits the site whenever the view changes width.
class SiteFitter : public QObject
{
public:
    explicit SiteFitter(QTreeView* view)
        : QObject(view)
        , m_view(view)
    {
        view->viewport()->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize && watched == m_view->viewport())
            fitSite(m_view);
        return false;
    }

private:
    QTreeView* m_view;
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
    view->header()->setStretchLastSection(true);
    view->setItemDelegateForColumn(FindingsModel::SiteColumn, new SiteDelegate(view));
    new SiteFitter(view);
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
