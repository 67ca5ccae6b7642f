// SPDX-License-Identifier: MIT
#pragma once

#include "findingsmodel.h"

#include <QSortFilterProxyModel>

#include <optional>
#include <utility>

namespace RankScope {

/// The findings as the window's table lists them: sorted by FindingsModel::SortRole and filtered by a text that may
/// be in any of a row's cells or in any frame of its finding's stack, C++ and library frames included. Where only a
/// frame holds the text, the site cell names that frame after the site ("… — found in evaluate (train.py:301)") and
/// its tooltip says where in the stack it is, so a row that seems not to match says why it is there. A word "on:K" or
/// "on:K-M" of the text keeps the findings whose site K (to M) ranks hold, as `--present-on` does. A group's row
/// stays where one of its members matches.
class FindingsFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    enum Roles
    {
        /// The frame the filter found, as the stack pane shows it; empty where a cell matched, or no filter is set.
        MatchedFrameRole = FindingsModel::FindingIndexRole + 1,
    };

    explicit FindingsFilterModel(QObject* parent = nullptr);

    /// The source must be a FindingsModel.
    void setSourceModel(QAbstractItemModel* source) override;
    /// Filters by `text` as written (case-insensitive, no wildcards), less its "on:K[-M]" word, and updates the site
    /// cells that name a frame.
    void setFilterText(const QString& text);
    /// Whether the text or an "on:" word hides findings.
    bool isFiltering() const;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

protected:
    /// A group's ranks stay in their order under it, whichever column the table is sorted by.
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    /// The frame that put a source row in the table, where no cell of it holds the filter's text.
    FindingsModel::FrameMatch frameMatch(int sourceRow, const QModelIndex& sourceParent) const;

    const FindingsModel* m_findings = nullptr;
    std::optional<std::pair<int, int>> m_presentOn;
};

} // namespace RankScope
