// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QCoreApplication>

class QAbstractItemModel;
class QWidget;

namespace RankScope {

class TimelineView;

/// File → Export: the comparison as the window shows it (ranks A and B, the selected finding, the timelines'
/// colouring and axes) as a picture, its findings as CSV or JSON, or a report. Each asks where (the file dialogs ask
/// before replacing a file), says in a dialog what went wrong and returns the path written, empty when cancelled or
/// failed.
class ComparisonExport
{
    Q_DECLARE_TR_FUNCTIONS(RankScope::ComparisonExport)
public:
    /// What the window shows; `ranks` is its rank table, `timelines` its timelines.
    struct Shown
    {
        ComparisonPtr comparison;
        int rankA = -1;
        int rankB = -1;
        int finding = -1;
        QAbstractItemModel* ranks = nullptr;
        const TimelineView* timelines = nullptr;
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
    QWidget* m_parent;
    Shown m_shown;
};

} // namespace RankScope
