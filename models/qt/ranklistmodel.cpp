// SPDX-License-Identifier: MIT
#include "ranklistmodel.h"

#include "alikeranks.h"
#include "formatting.h"

#include <QColor>
#include <QFileInfo>
#include <QFont>

#include <algorithm>
#include <limits>

namespace RankScope {

RankListModel::RankListModel(QObject* parent)
    : TranslatedTableModel(parent)
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
        case SegmentsColumn:
            return tr("Segments");
        case TraceEntriesColumn:
            return tr("Trace events");
        case HostColumn:
            return tr("Pinned host");
        case PeakColumn:
            return tr("Peak");
        case ReservedColumn:
            return tr("Reserved");
        case AllocatedColumn:
            return tr("Allocated");
        case AtPointColumn:
            return tr("At point");
        case ExcessColumn:
            return tr("Excess");
        case ParameterColumn:
            return tr("Parameters");
        case GradientColumn:
            return tr("Gradients");
        case OptimizerStateColumn:
            return tr("Optimizer");
        case ActivationColumn:
            return tr("Activations");
        case TemporaryColumn:
            return tr("Temporaries");
        case OtherColumn:
            return tr("Other");
        case CoordinatesColumn:
            return tr("Layout");
        case UnallocatedColumn:
            return tr("Unallocated");
        case TraceColumn:
            return tr("Trace");
        case OomColumn:
            return tr("OOMs");
        }
    } else if (role == Qt::ToolTipRole) {
        if (isCategory(section))
            return tr("Live allocations at the comparison point in this category, judged from each allocation's stack "
                      "and lifetime (see the README's Categories): parameters, gradients and optimizer state are "
                      "the model's state; activations are kept for the backward pass; temporaries die within their "
                      "phase; other is everything outside the training step");
        switch (section) {
        case RankColumn:
            return tr("The rank, from the file or folder name (rank3_…, memory_trace_3, …) or else the order the "
                      "files were opened in");
        case TraceEntriesColumn:
            return tr("Entries in the allocator's trace ring buffer (alloc, free, segment and OOM events)");
        case HostColumn:
            return tr("Pinned host memory allocated by the rank's process when the snapshot was taken "
                      "(record_host=True): host memory, shown beside the GPU and never compared with it");
        case PeakColumn:
            return tr("The highest total of live allocations over the trace (requested bytes), as the maximum of "
                      "PyTorch's Active Memory Timeline; ⚠ marks a trace that misses allocations made before it "
                      "began");
        case ReservedColumn:
            return tr("Memory reserved from CUDA at the comparison point, the figure the CLI and the block maps give: "
                      "the sum of segment sizes (when the snapshot was taken until the ranks are compared)");
        case AllocatedColumn:
            return tr("Memory in blocks handed to tensors when the snapshot was taken (state active_allocated)");
        case AtPointColumn:
            return tr("Live allocations (requested bytes) at the comparison point: each rank's peak unless another "
                      "point was chosen");
        case ExcessColumn:
            return tr("Bytes at the point minus the baseline: the median of the other ranks, or the chosen "
                      "baseline rank");
        case CoordinatesColumn:
            return tr("The rank's coordinates in the parallel layout (Compare → Parallel Layout…): ranks are compared "
                      "with their replicas, which differ only in dp");
        case UnallocatedColumn:
            return tr("At the comparison point, as PyTorch's out-of-memory message says it: memory reserved by PyTorch "
                      "but not allocated to tensors (its share of the reserve, and the largest free block, in the "
                      "cell's tooltip)");
        case TraceColumn:
            return tr("Incomplete when the trace frees blocks it never allocated: recording started late or the "
                      "ring buffer wrapped, so the start of the timeline misses memory");
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
    case FileColumn: {
        // What went wrong, or what to know, right under the name: never off screen in a far column.
        const QString name = QFileInfo(f.path).fileName();
        if (!row.loading && !f.ok() && !f.cancelled)
            return QString(name + QLatin1Char('\n') + tr("Could not be read: %1").arg(f.error));
        if (!row.loading && !f.notes().isEmpty())
            return QString(name + QLatin1Char('\n') + QStringLiteral("⚠ ") + f.notes());
        return name;
    }
    case StatusColumn:
        if (row.loading)
            return tr("Loading… %1%").arg(row.progress / 10);
        if (!f.ok())
            return f.cancelled ? tr("Cancelled") : tr("Failed");
        {
            const QString format = f.format == SnapshotReader::Format::Json
                ? (f.gzip ? tr("JSON, gzip") : tr("JSON"))
                : (f.gzip ? tr("pickle, gzip") : tr("pickle"));
            return f.notes().isEmpty() ? format : QString(format + QStringLiteral(" ⚠"));
        }
    default:
        break;
    }
    if (!f.ok())
        return {};
    const DeviceInfo& t = row.total;
    const std::optional<RankSummary>& sum = row.summary;
    if (isCategory(column))
        return sum ? QVariant(Formatting::bytes(sum->categoryBytes[size_t(column - ParameterColumn)])) : QVariant();
    switch (column) {
    case SegmentsColumn:
        return QString::number(t.segments);
    case TraceEntriesColumn:
        return QString::number(t.traceEntries);
    case PeakColumn:
        return QString(
            (t.traceIncomplete ? QStringLiteral("⚠ ") : QString()) + Formatting::bytes(t.peakAllocatedBytes));
    case ReservedColumn:
        return Formatting::bytes(sum ? sum->reservedAtPoint : t.reservedBytes);
    case AllocatedColumn:
        return Formatting::bytes(t.allocatedBytes);
    case AtPointColumn:
        return sum ? QVariant(Formatting::bytes(sum->bytesAtPoint)) : QVariant();
    case ExcessColumn:
        if (!sum)
            return {};
        return QString((sum->excessBytes > 0 ? QStringLiteral("+") : QString()) + Formatting::bytes(sum->excessBytes));
    case CoordinatesColumn:
        return row.coordinates;
    case UnallocatedColumn:
        return sum ? QVariant(Formatting::bytes(sum->unallocatedBytes)) : QVariant();
    case TraceColumn:
        return t.traceIncomplete ? tr("⚠ incomplete") : tr("complete");
    case OomColumn:
        return QString::number(t.oomEvents);
    case HostColumn:
        return sum && sum->host.recorded ? QVariant(Formatting::bytes(sum->host.allocatedBytes)) : QVariant();
    }
    return {};
}

QVariant RankListModel::sortData(const Row& row, int column) const
{
    const DeviceInfo& t = row.total;
    if (isCategory(column))
        return row.summary ? qint64(row.summary->categoryBytes[size_t(column - ParameterColumn)]) : qint64(-1);
    switch (column) {
    case RankColumn:
        return row.file.rank;
    case FileColumn:
        return row.file.path;
    case StatusColumn:
        return row.loading ? 0 : (row.file.ok() ? 2 : 1);
    case SegmentsColumn:
        return qint64(t.segments);
    case TraceEntriesColumn:
        return qint64(t.traceEntries);
    case PeakColumn:
        return qint64(t.peakAllocatedBytes);
    case ReservedColumn:
        return qint64(row.summary ? row.summary->reservedAtPoint : t.reservedBytes);
    case AllocatedColumn:
        return qint64(t.allocatedBytes);
    case AtPointColumn:
        return row.summary ? qint64(row.summary->bytesAtPoint) : qint64(-1);
    case ExcessColumn:
        return row.summary ? qint64(row.summary->excessBytes) : std::numeric_limits<qint64>::min();
    case CoordinatesColumn:
        return row.coordinates;
    case UnallocatedColumn:
        return row.summary ? qint64(row.summary->unallocatedBytes) : qint64(-1);
    case TraceColumn:
        return t.traceIncomplete;
    case OomColumn:
        return qint64(t.oomEvents);
    case HostColumn:
        return row.summary && row.summary->host.recorded ? qint64(row.summary->host.allocatedBytes) : qint64(-1);
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
    case OutlierRole:
        return row.outlier;
    case Qt::FontRole:
        if (row.outlier) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case AlikeRanksRole:
        return row.alike.empty() ? QString() : Formatting::ranks(row.alike);
    case Qt::BackgroundRole:
        // The verdict's rank stands out in a warm tint that reads on light and dark palettes alike.
        return row.outlier ? QVariant(QColor(225, 87, 89, 60)) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == FileColumn && !row.loading && (!row.file.ok() || !row.file.notes().isEmpty()))
            return row.file.ok() ? tr("%1: %2").arg(row.file.path, row.file.notes())
                                 : tr("%1 could not be read: %2").arg(row.file.path, row.file.error);
        if (index.column() == FileColumn)
            return row.file.path;
        if ((index.column() == PeakColumn || index.column() == TraceColumn) && row.file.ok()
            && row.total.traceIncomplete)
            return tr("⚠ The trace frees memory it never saw allocated: recording started late or its ring buffer "
                      "wrapped, so allocations from before it are missing and the peak can be higher (%1)")
                .arg(Formatting::bytesExact(row.total.peakAllocatedBytes));
        if (index.column() == StatusColumn && !row.loading && !row.file.ok())
            return tr("%1 could not be read: %2").arg(row.file.path, row.file.error);
        if (index.column() == StatusColumn && !row.loading && !row.file.notes().isEmpty())
            return tr("%1: %2").arg(row.file.path, row.file.notes());
        if (row.summary && index.column() == AtPointColumn && !row.summary->note.empty())
            return row.summary->note.translated();
        if (row.summary && index.column() == OomColumn && row.summary->oomEvents > 0)
            return oomNote(row);
        if (row.summary && index.column() == HostColumn && row.summary->host.recorded)
            return tr("Pinned host memory of rank %1's process, never compared with the GPUs: %2 allocated at the "
                      "snapshot, %3 at most over its host trace, %4 reserved")
                .arg(QString::number(row.summary->rank), Formatting::bytesExact(row.summary->host.allocatedBytes),
                    Formatting::bytes(row.summary->host.peakAllocatedBytes),
                    Formatting::bytes(row.summary->host.reservedBytes));
        if (row.summary && index.column() == UnallocatedColumn)
            return Formatting::unallocated(
                row.summary->unallocatedBytes, row.summary->reservedAtPoint, row.summary->largestFreeBytes);
        if (isBytes(index.column()) && row.file.ok() && (row.summary || index.column() != ExcessColumn))
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

QString RankListModel::oomNote(const Row& row)
{
    // Said for the ranks alike, with the group's figures (its first rank's), as every other answer says it.
    const RankSummary& r = *row.summary;
    const RankSummary& shared = row.alikeFigures ? *row.alikeFigures : r;
    const QString site = row.oomSite.isEmpty() ? tr("<no stack recorded>") : row.oomSite;
    if (row.alike.size() > 1)
        return tr("Ranks %1 ran out of memory alike: asked for %2 with %3 free on the device, at %4 (rank %5's "
                  "figures; this rank asked for %6)")
            .arg(Formatting::ranks(row.alike), Formatting::bytes(shared.oomRequestedBytes),
                Formatting::bytes(shared.oomDeviceFreeBytes), site, QString::number(shared.rank),
                Formatting::bytes(r.oomRequestedBytes));
    return tr("Rank %1 ran out of memory asking for %2 with %3 free on the device, at %4")
        .arg(QString::number(r.rank), Formatting::bytes(r.oomRequestedBytes), Formatting::bytes(r.oomDeviceFreeBytes),
            site);
}

bool RankListModel::isBytes(int column)
{
    return column == PeakColumn || column == AtPointColumn || column == ExcessColumn || column == ReservedColumn
        || column == AllocatedColumn || column == UnallocatedColumn || isCategory(column);
}

void RankListModel::setComparison(const ComparisonPtr& comparison)
{
    const int outlierRank =
        comparison && comparison->verdict().kind != Verdict::Balanced ? comparison->verdict().rank : -1;
    // A verdict about a group (a stage, ranks alike that stand out together, ranks that ran out of memory alike):
    // every rank of it stands out.
    std::vector<int> group;
    if (comparison && comparison->verdict().kind != Verdict::Balanced) {
        group = comparison->verdict().groupRanks;
        group.insert(group.end(), comparison->verdict().oomRanks.begin(), comparison->verdict().oomRanks.end());
    }
    for (Row& row : m_rows) {
        row.summary.reset();
        row.coordinates.clear();
        row.outlier = false;
        row.alike.clear();
        row.alikeFigures.reset();
        row.oomSite.clear();
        if (!comparison || !row.file.ok())
            continue;
        for (const RankSummary& s : comparison->ranks()) {
            if (s.path != row.file.path)
                continue;
            row.summary = s;
            row.outlier = s.rank == outlierRank || std::find(group.begin(), group.end(), s.rank) != group.end();
            if (const std::optional<ParallelLayout>& layout = comparison->layout())
                row.coordinates = QString::fromStdString(layout->coordinatesText(s.rank));
            const AlikeRanks& alike = comparison->alike();
            const AlikeRanks::Group& g = alike.groups[alike.groupOf[size_t(comparison->rankIndex(s.rank))]];
            for (size_t i : g.members)
                row.alike.push_back(comparison->ranks()[i].rank);
            row.alikeFigures = comparison->ranks()[g.first()];
            if (s.oomEvents > 0 && s.oomSite != NoSite && !comparison->sites().frames(s.oomSite).empty())
                row.oomSite = QString::fromStdString(comparison->sites().label(s.oomSite));
        }
    }
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, NUM_COLUMNS - 1));
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
    row.summary.reset();
    row.outlier = false;
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

int RankListModel::unreadableCount() const
{
    int n = 0;
    for (const Row& row : m_rows)
        n += !row.loading && !row.file.ok() && !row.file.cancelled;
    return n;
}

} // namespace RankScope
