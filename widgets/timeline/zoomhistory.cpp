// SPDX-License-Identifier: MIT
#include "zoomhistory.h"

namespace RankScope {

void ZoomHistory::reset(View start)
{
    m_views.clear();
    m_views.push_back(std::move(start));
    m_current = 0;
}

void ZoomHistory::record(View view)
{
    if (!m_views.empty() && m_views[m_current] == view)
        return;
    if (!m_views.empty())
        m_views.erase(m_views.begin() + std::ptrdiff_t(m_current) + 1, m_views.end());
    m_views.push_back(std::move(view));
    if (m_views.size() > MaxViews)
        m_views.erase(m_views.begin());
    m_current = m_views.size() - 1;
}

std::optional<ZoomHistory::View> ZoomHistory::back()
{
    if (!canGoBack())
        return std::nullopt;
    return m_views[--m_current];
}

std::optional<ZoomHistory::View> ZoomHistory::forward()
{
    if (!canGoForward())
        return std::nullopt;
    return m_views[++m_current];
}

} // namespace RankScope
