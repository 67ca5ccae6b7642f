// SPDX-License-Identifier: MIT
#include "ranklistmodel.h"

#include "formatting.h"

#include <QFileInfo>

namespace RankScope {

RankListModel::RankListModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

int RankListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RankListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant RankListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case RankColumn:
            return tr("Rank");
        case FileColumn:
            return tr("File");
        case StatusColumn:
            return tr("Status");
        case DevicesColumn:
            return tr("Devices");
        case SegmentsColumn:
            return tr("Segments");
        case TraceEntriesColumn:
            return tr("Trace events");
        case PeakColumn:
            return tr("Peak");
        case ReservedColumn:
            return tr("Reserved");
        case AllocatedColumn:
            return tr("Allocated");
        case ActiveColumn:
            return tr("Active");
        case RequestedColumn:
            return tr("Requested");
        case OomColumn:
            return tr("OOMs");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case RankColumn:
            return tr("The rank, from the file or folder name (rank3_…, memory_trace_3, …) or else the order the "
                      "files were opened in");
        case DevicesColumn:
            return tr("CUDA devices in the snapshot; figures are summed over them");
        case TraceEntriesColumn:
            return tr("Entries in the allocator's trace ring buffer (alloc, free, segment and OOM events)");
        case PeakColumn:
            return tr("The highest total of live allocations over the trace (requested bytes), as the maximum of "
                      "PyTorch's Active Memory Timeline; ⚠ marks a trace that misses allocations made before it "
                      "began");
        case ReservedColumn:
            return tr("Memory reserved from CUDA when the snapshot was taken: the sum of segment sizes");
        case AllocatedColumn:
            return tr("Memory in blocks handed to tensors when the snapshot was taken (state active_allocated)");
        case ActiveColumn:
            return tr("Allocated memory plus blocks freed by the program but still in use by a stream "
                      "(active_pending_free)");
        case RequestedColumn:
            return tr("Bytes the program asked for in allocated blocks, before the allocator's rounding");
        case OomColumn:
            return tr("Out-of-memory events recorded in the trace");
        default:
            break;
        }
    } else if (role == Qt::TextAlignmentRole && isNumeric(section)) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant RankListModel::displayData(const Row& row, int column) const
{
    const LoadedFile& f = row.file;
    switch (column) {
    case RankColumn:
        return f.rank;
    case FileColumn:
        return QFileInfo(f.path).fileName();
    case StatusColumn:
        if (row.loading)
            return tr("Loading… %1%").arg(row.progress / 10);
        if (!f.ok())
            return f.cancelled ? tr("Cancelled") : tr("Failed: %1").arg(f.error);
        return f.format == SnapshotReader::Format::Json ? (f.gzip ? tr("JSON, gzip") : tr("JSON"))
                                                        : (f.gzip ? tr("pickle, gzip") : tr("pickle"));
    default:
        break;
    }
    if (!f.ok())
        return {};
    const DeviceInfo& t = row.total;
    switch (column) {
    case DevicesColumn:
        return row.devices;
    case SegmentsColumn:
        return QString::number(t.segments);
    case TraceEntriesColumn:
        return QString::number(t.traceEntries);
    case PeakColumn:
        return QString(
            (t.traceIncomplete ? QStringLiteral("⚠ ") : QString()) + Formatting::bytes(t.peakAllocatedBytes));
    case ReservedColumn:
        return Formatting::bytes(t.reservedBytes);
    case AllocatedColumn:
        return Formatting::bytes(t.allocatedBytes);
    case ActiveColumn:
        return Formatting::bytes(t.activeBytes);
    case RequestedColumn:
        return Formatting::bytes(t.requestedBytes);
    case OomColumn:
        return QString::number(t.oomEvents);
    }
    return {};
}

QVariant RankListModel::sortData(const Row& row, int column) const
{
    const DeviceInfo& t = row.total;
    switch (column) {
    case RankColumn:
        return row.file.rank;
    case FileColumn:
        return row.file.path;
    case StatusColumn:
        return row.loading ? 0 : (row.file.ok() ? 2 : 1);
    case DevicesColumn:
        return row.devices;
    case SegmentsColumn:
        return qint64(t.segments);
    case TraceEntriesColumn:
        return qint64(t.traceEntries);
    case PeakColumn:
        return qint64(t.peakAllocatedBytes);
    case ReservedColumn:
        return qint64(t.reservedBytes);
    case AllocatedColumn:
        return qint64(t.allocatedBytes);
    case ActiveColumn:
        return qint64(t.activeBytes);
    case RequestedColumn:
        return qint64(t.requestedBytes);
    case OomColumn:
        return qint64(t.oomEvents);
    }
    return {};
}

QVariant RankListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return displayData(row, index.column());
    case SortRole:
        return sortData(row, index.column());
    case ProgressRole:
        return row.loading ? row.progress : -1;
    case ErrorRole:
        return row.loading ? QString() : row.file.error;
    case PathRole:
        return row.file.path;
    case Qt::ToolTipRole:
        if (index.column() == FileColumn)
            return row.file.path;
        if (index.column() == StatusColumn && !row.loading && !row.file.ok())
            return tr("%1: %2").arg(row.file.path, row.file.error);
        if (index.column() >= PeakColumn && index.column() <= RequestedColumn && row.file.ok())
            return Formatting::bytesExact(sortData(row, index.column()).toLongLong());
        return {};
    case Qt::TextAlignmentRole:
        if (isNumeric(index.column()))
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

void RankListModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void RankListModel::addLoading(int index, const QString& path, int rank)
{
    if (index != int(m_rows.size()))
        return; // indices are handed out in order; anything else is a stale loader
    beginInsertRows({}, index, index);
    Row row;
    row.file.path = path;
    row.file.rank = rank;
    m_rows.push_back(std::move(row));
    endInsertRows();
}

void RankListModel::setProgress(int index, qint64 done, qint64 total)
{
    if (index < 0 || size_t(index) >= m_rows.size() || total <= 0)
        return;
    Row& row = m_rows[size_t(index)];
    const int progress = int(done * 1000 / total);
    if (!row.loading || progress == row.progress)
        return;
    row.progress = progress;
    emit dataChanged(this->index(index, StatusColumn), this->index(index, StatusColumn));
}

void RankListModel::setLoaded(int index, const LoadedFile& file)
{
    if (index < 0 || size_t(index) >= m_rows.size())
        return;
    Row& row = m_rows[size_t(index)];
    row.file = file;
    row.loading = false;
    row.total = {};
    row.devices = 0;
    if (file.ok()) {
        row.devices = int(file.devices.size());
        for (const DeviceInfo& d : file.devices) {
            row.total.segments += d.segments;
            row.total.blocks += d.blocks;
            row.total.traceEntries += d.traceEntries;
            row.total.reservedBytes += d.reservedBytes;
            row.total.allocatedBytes += d.allocatedBytes;
            row.total.activeBytes += d.activeBytes;
            row.total.requestedBytes += d.requestedBytes;
            row.total.oomEvents += d.oomEvents;
            if (d.peakAllocatedBytes >= row.total.peakAllocatedBytes) {
                row.total.peakAllocatedBytes = d.peakAllocatedBytes;
                row.total.traceIncomplete = d.traceIncomplete;
            }
        }
    }
    emit dataChanged(this->index(index, 0), this->index(index, NUM_COLUMNS - 1));
}

const LoadedFile* RankListModel::file(int row) const
{
    return row >= 0 && size_t(row) < m_rows.size() ? &m_rows[size_t(row)].file : nullptr;
}

int RankListModel::loadedCount() const
{
    int n = 0;
    for (const Row& row : m_rows)
        n += !row.loading && row.file.ok();
    return n;
}

int RankListModel::failedCount() const
{
    int n = 0;
    for (const Row& row : m_rows)
        n += !row.loading && !row.file.ok();
    return n;
}

} // namespace RankScope
