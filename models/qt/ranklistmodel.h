// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"
#include "snapshotinfo.h"
#include "snapshotloader.h"

#include "translatedtablemodel.h"

#include <vector>

namespace RankScope {

/// The loaded rank files as a table: one row per file, in the order they were opened, with load progress while a
/// file loads and its error if it failed, and each rank's figures at the comparison point once compared. Figures at the
/// snapshot are summed over the file's devices; the peak is that of the device with the highest one (a rank drives one
/// GPU; other visible devices stay empty).
class RankListModel : public TranslatedTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        RankColumn,
        /// The file's name, with a failed file's reason or a note as a second line.
        FileColumn,
        /// Progress and cancel while loading, then the format, "Failed" or "Cancelled": where the eye is.
        StatusColumn,
        /// The rank's coordinates in the layout ("pp=0 dp=1"), empty without one.
        CoordinatesColumn,
        PeakColumn,
        /// Bytes at the comparison point, from the latest comparison.
        AtPointColumn,
        /// Bytes at the point beyond the baseline, from the latest comparison.
        ExcessColumn,
        /// Pinned host memory of the rank's process (`record_host=True`), from the latest comparison: never a GPU's.
        /// Beside the rank's own figures, where it is seen; hidden for jobs without it.
        HostColumn,
        /// Bytes at the point by category (Category order), from the latest comparison.
        ParameterColumn,
        GradientColumn,
        OptimizerStateColumn,
        ActivationColumn,
        TemporaryColumn,
        OtherColumn,
        ReservedColumn,
        AllocatedColumn,
        UnallocatedColumn,
        OomColumn,
        TraceColumn,
        SegmentsColumn,
        TraceEntriesColumn,
        NUM_COLUMNS
    };
    enum Roles
    {
        SortRole = Qt::UserRole,
        /// Load progress 0…1000 while loading, -1 otherwise.
        ProgressRole,
        /// The error message of a failed file, empty otherwise.
        ErrorRole,
        PathRole,
        /// True for the rank the verdict names.
        OutlierRole,
        /// The ranks alike with the row's ("0–63", itself included), empty before a comparison.
        AlikeRanksRole,
    };

    explicit RankListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void clear();
    /// Row `index` starts loading (indices come from SnapshotLoader and grow by one per file).
    void addLoading(int index, const QString& path, int rank);
    void setProgress(int index, qint64 done, qint64 total);
    void setLoaded(int index, const LoadedFile& file);
    /// Fills the comparison columns and marks the verdict's rank (nullptr clears them).
    void setComparison(const ComparisonPtr& comparison);

    const LoadedFile* file(int row) const;
    int loadedCount() const;
    /// Files that did not load, cancelled ones included.
    int failedCount() const;
    /// Files that could not be read (failed, not cancelled).
    int unreadableCount() const;

    static bool isNumeric(int column)
    {
        return column != RankColumn && column != FileColumn && column != StatusColumn && column != TraceColumn
            && column != CoordinatesColumn;
    }
    static bool isCategory(int column)
    {
        return column >= ParameterColumn && column <= OtherColumn;
    }
    static bool isBytes(int column);

private:
    struct Row
    {
        LoadedFile file;
        DeviceInfo total; // summed over devices
        int devices = 0;
        /// From the latest comparison, when it included this row.
        std::optional<RankSummary> summary;
        QString coordinates;
        bool outlier = false;
        /// The ranks alike with this one (AlikeRanks, itself included) and the figures their group gives: its
        /// out-of-memory note is said for the group.
        std::vector<int> alike;
        std::optional<RankSummary> alikeFigures;
        QString oomSite;
        int progress = 0;
        bool loading = true;
    };
    QVariant displayData(const Row& row, int column) const;
    /// The OOMs column's tooltip: the rank's failed request, said for the ranks alike with it.
    static QString oomNote(const Row& row);
    QVariant sortData(const Row& row, int column) const;

    std::vector<Row> m_rows;
};

} // namespace RankScope
