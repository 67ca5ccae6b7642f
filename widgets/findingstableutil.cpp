// SPDX-License-Identifier: MIT
#include "findingstableutil.h"

#include "findingsmodel.h"

#include <QEvent>
#include <QHeaderView>
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

} // namespace

void setUp(QTreeView* view)
{
    view->setRootIsDecorated(false);
    view->setAlternatingRowColors(true);
    view->setTextElideMode(Qt::ElideMiddle);
    view->header()->setStretchLastSection(true);
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
