// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace RankScope {

/// The views the user has zoomed to, for Zoom Back and Zoom Forward as a browser goes back and forward: each settled
/// view is recorded once; going back and then zooming elsewhere drops the views ahead, as a new page does.
class ZoomHistory
{
public:
    struct Range
    {
        double lower = 0;
        double upper = 0;
        bool operator==(const Range&) const = default;
    };
    /// Every track's time and memory ranges: the tracks may be zoomed apart while zoom is unlinked.
    struct View
    {
        std::vector<Range> keys;
        std::vector<Range> values;
        bool operator==(const View&) const = default;
    };
    /// The most views kept; the oldest go first.
    static constexpr size_t MaxViews = 50;

    /// Forgets every view; `start` is the one to come back to.
    void reset(View start);
    /// The view the user settled on; nothing when it is the current one.
    void record(View view);
    /// The view before the current one, which becomes current; nothing at the first.
    std::optional<View> back();
    /// The view after the current one, after going back; nothing at the last.
    std::optional<View> forward();
    bool canGoBack() const
    {
        return m_current > 0;
    }
    bool canGoForward() const
    {
        return m_current + 1 < m_views.size();
    }
    size_t size() const
    {
        return m_views.size();
    }

private:
    std::vector<View> m_views;
    size_t m_current = 0;
};

} // namespace RankScope
