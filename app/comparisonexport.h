// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QCoreApplication>

class QAbstractItemModel;
class QWidget;

namespace RankScope {

class TimelineView;

/// File → Export: the comparison as the window shows it (ranks A and B, the timelines' colouring and axes) as a
/// picture, its findings as CSV or JSON, or a report. A picture outlines the finding `rankscope export` would
/// (Comparison::findingToShow: the user's where it is A's or B's, else A's largest, else B's), whatever order the
/// window's table lists them in. Each asks where, starting in the folder of the last export (else the job's folder;
/// the file dialogs ask before replacing a file), says in a dialog what went wrong and returns the path written, empty
/// when cancelled or failed.
class ComparisonExport
{
    Q_DECLARE_TR_FUNCTIONS(RankScope::ComparisonExport)
public:
    /// What the window shows; `finding` is the one selected (-1: none), `ranks` its rank table, `timelines` its
    /// timelines, `folder` where the job's files are (empty: the home folder).
    struct Shown
    {
        ComparisonPtr comparison;
        int rankA = -1;
        int rankB = -1;
        int finding = -1;
        QAbstractItemModel* ranks = nullptr;
        const TimelineView* timelines = nullptr;
        QString folder;
    };
    /// Dialogs open over `parent`.
    ComparisonExport(QWidget* parent, Shown shown);

    /// PNG, SVG or PDF of a diff sheet, at the size and scale the export dialog asks for.
    QString picture();
    /// Every finding, as `rankscope diff --json` or `--csv` writes them.
    QString findings(bool json);
    /// An HTML or Markdown report with the diff sheet as its picture.
    QString report();

private:
    /// `name` in the folder the dialogs start in.
    QString startPath(const QString& name) const;
    /// Remembers the folder of a file written (none when `path` is empty) for the next export; returns `path`.
    static QString written(const QString& path);
    /// The finding the picture outlines.
    int finding() const;

    QWidget* m_parent;
    Shown m_shown;
};

} // namespace RankScope
