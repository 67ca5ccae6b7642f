// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QFrame>

#include <optional>

class QLabel;
class QScrollArea;
class QToolButton;

namespace RankScope {

/// The answer on first paint: the verdict's kind and rank in bold on a coloured bar, then its explanation and the
/// usual remedy, in the current language (re-worded when it changes). Hidden until a comparison exists.
class VerdictBanner : public QFrame
{
    Q_OBJECT
public:
    explicit VerdictBanner(QWidget* parent = nullptr);
    /// What the verdict rests on, said under it when it changes how far the answer goes.
    struct Caveats
    {
        int ranks = 0; ///< compared
        int incompleteTraces = 0; ///< of those, traces that miss allocations from before them
        int offPoint = 0; ///< of those, ranks not at the point asked for (compared at their snapshot or own peak)
        int failedFiles = 0; ///< files that could not be read, so are not compared
        /// A parallel layout that was given but does not fit the ranks compared (so was not used), and its size.
        /// What the job could not use of the options (Job::check: a layout of another size), in its own words;
        /// the ranks were compared without it.
        QString unusedOption;
        /// At a point the user chose: the job's own verdict (at the moment it chose) where it says something else, so
        /// a balanced answer at one instant does not hide an imbalance elsewhere in the step.
        QString jobVerdict;
        QString jobPoint;
    };
    void setVerdict(const Verdict& verdict, const Caveats& caveats);
    void setVerdict(const Verdict& verdict)
    {
        setVerdict(verdict, Caveats());
    }
    /// Shown while the comparison runs, so a stale verdict never stays up.
    void setPending(const QString& message);
    /// The full text (title, evidence, remedy, notes), whether or not all of it is shown.
    QString text() const;
    /// Compact: only the title, with a Details button for the rest (for small screens).
    void setCompact(bool compact);
    bool isCompact() const
    {
        return m_compact;
    }
    /// Where Details shows the rest of a compact banner: over the top of what is under the banner, at most half of
    /// it high and scrolling beyond, so that opening it never makes the window taller (past a 720-pixel screen) and
    /// closing it moves nothing. nullptr until first opened.
    QWidget* details() const;

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void moveEvent(QMoveEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void showVerdict();
    /// The verdict's colour (none while pending) over the palette of the window, again when that palette changes.
    void applyColours();
    /// The body in the banner, or in the details over the page when compact and open.
    void showBody();
    void placeDetails();

    std::optional<Verdict> m_verdict;
    Caveats m_caveats;
    QWidget* m_strip = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_body = nullptr;
    QToolButton* m_more = nullptr;
    QScrollArea* m_details = nullptr;
    QLabel* m_detailsText = nullptr;
    bool m_compact = false;
    QColor m_colour; ///< the verdict kind's; invalid while pending
    bool m_applyingColours = false;
};

} // namespace RankScope
