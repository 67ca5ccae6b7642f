// SPDX-License-Identifier: MIT
#pragma once

#include <QSplitter>

namespace RankScope {

/// The main window's right column: ranks A and B over time (the compare panel), their block maps and the findings,
/// which the user sizes against each other. Where the column is tall enough for the three one above the other, so they
/// are; on a shorter one (a 1280×720 screen) the block maps go beside the timelines, A's over B's, and the findings
/// keep the height that their rows need (FindingsPanel::minimumSizeHint) without taking it from the timelines.
class CompareColumn : public QSplitter
{
    Q_OBJECT
public:
    /// `maps` is the splitter of the two block maps, side by side under the timelines or one over the other beside
    /// them.
    CompareColumn(QWidget* timelines, QSplitter* maps, QWidget* findings, QWidget* parent = nullptr);

    /// True while the block maps are beside the timelines.
    bool mapsBeside() const
    {
        return m_beside;
    }
    /// As short as the column is with the maps beside the timelines: the window may be made that short, and the maps
    /// then move.
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The height the timelines, the maps and the findings need one above the other.
    int stackedHeight() const;
    void fit();
    void placeMaps(bool beside);

    QWidget* m_timelines;
    QSplitter* m_maps;
    QWidget* m_findings;
    /// The timelines, and the maps beside them on a short column.
    QSplitter* m_top;
    /// The maps' place under the timelines (hidden while they are beside them).
    QWidget* m_mapsSlot;
    bool m_beside = false;
    bool m_placed = false;
};

} // namespace RankScope
