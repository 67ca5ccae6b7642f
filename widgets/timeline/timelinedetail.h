// SPDX-License-Identifier: MIT
#pragma once

#include "bigallocator.h"
#include "categories.h"
#include "devicehistory.h"
#include "sitetable.h"

#include <QColor>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace RankScope {

class TimelineAxis;

/// One track's level of detail for a zoom, a size and a memory scale, computed off the GUI thread (compute()) for
/// what the view asks (Request): the decimated curve and the bands (TimelineLod), each band's site, colour and label,
/// the x key of each column boundary, and the pixel rows of the bands' edges for drawing.
struct TimelineDetail
{
    struct Band
    {
        uint32_t allocation = 0;
        int64_t size = 0;
        uint64_t fingerprint = 0;
        QColor siteColor;
        Category category = Category::Other;
        QString label;
    };

    /// What a detail job needs besides the axis: the events in view, the plot's columns and memory rows.
    struct Request
    {
        EventIndex first = 0;
        EventIndex last = 0;
        int columns = 1;
        int64_t minBandBytes = 1;
        size_t maxBands = 0;
        double valueLower = 0;
        double valuePerPixel = 1;
        SiteOptions site;
        CategoriesPtr categories;
        std::optional<uint64_t> lit;

        bool operator==(const Request&) const = default;
    };

    static TimelineDetail compute(const TimelineAxis& axis, const Request& request);
    /// The same, its run arrays written into `recycled`'s (a detail no longer drawn, whose pages are faulted in
    /// already) where they are large enough.
    static TimelineDetail compute(const TimelineAxis& axis, const Request& request, TimelineDetail recycled);
    /// The band under a point (key, value): (band, column); band -1 over the remainder, column -1 outside the data.
    std::pair<int, int> hitTest(double key, double value) const;

    TimelineLod lod;
    std::vector<Band> bands;
    std::vector<double> keys; // columns + 1
    /// The pixel rows of the memory axis the request was made for: row r is the value valueLower + r·valuePerPixel.
    double valueLower = 0;
    double valuePerPixel = 1;
    /// Per band, the columns where its edges move to other pixel rows, and its bottom and top rows from there: runs
    /// [runStart[k], runStart[k + 1]) of runColumn, runBottom and runTop. Drawing walks these, not every column of
    /// every band. Rounding each edge, not each height, keeps the stack exact: a sliver of a pixel gets the row it
    /// covers most of, or none.
    std::vector<size_t> runStart;
    // On 4 KiB pages, as the decimation's runs (TimelineLod), and recycled from one zoom to the next as those are.
    BigVector<int> runColumn;
    BigVector<int> runBottom;
    BigVector<int> runTop;
    /// With a site highlighted: per column, the bytes of its allocations too small for a band (else empty).
    std::vector<int64_t> litBelow;
    std::optional<uint64_t> lit;
};

} // namespace RankScope
