// SPDX-License-Identifier: MIT
#include "jobsession.h"

#include "bytesize.h"
#include "ranklistmodel.h"
#include "snapshotloader.h"
#include "verdicttext.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>
#include <QTimer>

#include <map>

namespace RankScope {

namespace {

// What belongs to a job (its layout, its GPUs' memory) is remembered per job: a settings key made of `group` and the
// files or folders the job was opened from.
QString jobKey(const char* group, const QStringList& paths)
{
    QStringList sorted;
    for (const QString& path : paths)
        sorted << QFileInfo(path).absoluteFilePath();
    sorted.sort();
    return QLatin1String(group) + QLatin1Char('/')
        + QString::fromLatin1(
            QCryptographicHash::hash(sorted.join(QLatin1Char('\n')).toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace

JobSession::JobSession(std::function<void(ComparisonOptions&)> readOptions, QObject* parent)
    : QObject(parent)
    , m_readOptions(std::move(readOptions))
    , m_loader(new SnapshotLoader(this))
    , m_model(new RankListModel(this))
    , m_compareTimer(new QTimer(this))
{
    m_compareTimer->setSingleShot(true);
    m_compareTimer->setInterval(150);
    connect(m_compareTimer, &QTimer::timeout, this, &JobSession::compare);
    connectLoader();
}

void JobSession::connectLoader()
{
    connect(m_loader, &SnapshotLoader::started, m_model, &RankListModel::addLoading);
    connect(m_loader, &SnapshotLoader::progress, m_model, &RankListModel::setProgress);
    connect(m_loader, &SnapshotLoader::finished, this, &JobSession::onFinished);
    connect(m_loader, &SnapshotLoader::allFinished, this, &JobSession::compare);
}

void JobSession::onFinished(int index, const LoadedFile& file)
{
    m_model->setLoaded(index, file);
    emit fileFinished(file);
}

void JobSession::open(Job job, const QStringList& paths)
{
    m_paths = paths;
    m_layoutText = QSettings().value(jobKey("layouts", paths)).toString();
    m_deviceMemoryText = QSettings().value(jobKey("devicememory", paths)).toString();
    // The files load one job each (progress and cancel per file, in the rank table); the job gets them as they are
    // compared.
    m_loader->load(job.files());
    m_job = std::move(job);
    // The steps before this one, for growth across steps: read next to the ranks, compared again once they are in.
    m_earlierSteps.reset();
    if (!m_job->steps().empty() && m_job->steps().front() < m_job->step()) {
        m_earlierLoads.start([job = *m_job] { return job.loadEarlierSteps(); },
            [this](std::shared_ptr<const EarlierSteps> earlier) {
                for (const LoadedFile& file : earlier->failed)
                    emit earlierStepFailed(file);
                m_earlierSteps = std::move(earlier);
                if (m_comparison || m_comparisons.isBusy())
                    compare();
            });
    }
}

QString JobSession::folder() const
{
    if (m_paths.isEmpty() || m_paths.front().startsWith(u':'))
        return {};
    const QFileInfo first(m_paths.front());
    const QFileInfo folder(first.isDir() ? first.absoluteFilePath() : first.absolutePath());
    return folder.isWritable() ? folder.absoluteFilePath() : QString();
}

void JobSession::add(const QStringList& files, const QStringList& given)
{
    std::map<int, QString> taken;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (const LoadedFile* file = m_model->file(row))
            taken.emplace(file->rank, file->path);
    }
    m_loader->load(files, taken);
    QStringList paths = m_paths;
    for (const QString& path : given) {
        if (!paths.contains(path))
            paths << path;
    }
    // The job's settings are kept under the key of its paths: they move to its new key with it.
    QSettings settings;
    for (const char* group : { "layouts", "devicememory" }) {
        const QVariant value = settings.value(jobKey(group, m_paths));
        if (value.isValid() && paths != m_paths)
            settings.setValue(jobKey(group, paths), value);
    }
    m_paths = paths;
}

void JobSession::close()
{
    // A fresh loader drops the old jobs (waiting for them to stop), so late results cannot reach the new model.
    delete m_loader;
    m_loader = new SnapshotLoader(this);
    connectLoader();
    m_comparisons.cancel();
    m_earlierLoads.cancel();
    m_earlierSteps.reset();
    m_job.reset();
    m_unusedOption.clear();
    m_compareTimer->stop();
    m_model->clear();
    m_jobVerdict.reset();
    setComparison(nullptr);
}

void JobSession::scheduleComparison()
{
    if (m_comparison)
        m_compareTimer->start();
}

void JobSession::compare()
{
    m_compareTimer->stop();
    QList<LoadedFile> files;
    QStringList paths;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (const LoadedFile* file = m_model->file(row)) {
            files.append(*file);
            paths.append(file->path);
        }
    }
    const int ranks = int(std::count_if(files.begin(), files.end(), [](const LoadedFile& f) { return f.ok(); }));
    if (ranks == 0) {
        m_comparisons.cancel();
        setComparison(nullptr);
        return;
    }
    m_readOptions(m_options);
    m_options.layout =
        m_layoutText.isEmpty() ? std::nullopt : ParallelLayout::parse(m_layoutText.toStdString(), nullptr);
    m_options.deviceMemoryBytes = parseByteSizeWithUnit(m_deviceMemoryText).value_or(0);
    if (!m_job)
        m_job.emplace(paths);
    m_job->setLoaded(std::move(files), m_earlierSteps);
    if (m_job->holdsNothing()) {
        m_comparisons.cancel();
        setComparison(nullptr);
        return;
    }
    // What the job cannot use of the options is said in the banner, and the ranks compared without it, rather than
    // nothing shown: the user is looking at the job and can fix the option from there.
    ComparisonOptions options = m_options;
    const JobError unusable = m_job->check(options);
    m_unusedOption = unusable.translated();
    if (unusable.option == "layout")
        options.layout.reset();
    else if (unusable.option == "baseline")
        options.baselineRank = -1;
    emit comparing(ranks);
    m_comparisons.start([job = *m_job, options] { return job.compare(options, Job::Points::MayMiss).comparison; },
        [this](ComparisonPtr comparison) { setComparison(std::move(comparison)); });
}

void JobSession::setComparison(ComparisonPtr comparison)
{
    m_comparison = std::move(comparison);
    if (m_comparison && !m_comparison->options().point)
        m_jobVerdict = m_comparison->verdict();
    m_model->setComparison(m_comparison);
    emit comparisonReady(m_comparison);
}

QString JobSession::nothingToCompare() const
{
    if (!m_job || !m_job->isLoaded() || !m_job->holdsNothing())
        return {};
    return Job::nothingToCompare(int(m_job->inputs().size())).translated();
}

bool JobSession::isBusy() const
{
    return m_loader->isRunning() || m_comparisons.isBusy() || m_earlierLoads.isBusy() || m_compareTimer->isActive();
}

void JobSession::setJobSetting(QString& member, const char* group, const QString& value)
{
    member = value;
    if (!m_paths.isEmpty()) {
        QSettings settings;
        if (value.isEmpty())
            settings.remove(jobKey(group, m_paths));
        else
            settings.setValue(jobKey(group, m_paths), value);
    }
    if (m_comparison)
        compare();
}

void JobSession::setLayout(const QString& layout)
{
    setJobSetting(m_layoutText, "layouts", layout);
}

void JobSession::setDeviceMemory(const QString& size)
{
    setJobSetting(m_deviceMemoryText, "devicememory", size);
}

VerdictBanner::Caveats JobSession::caveats(const QString& jobPoint) const
{
    VerdictBanner::Caveats c;
    if (m_comparison) {
        c.ranks = int(m_comparison->ranks().size());
        for (const RankSummary& r : m_comparison->ranks()) {
            c.incompleteTraces += r.traceIncomplete ? 1 : 0;
            c.offPoint += r.note.empty() ? 0 : 1;
        }
    }
    c.failedFiles = m_model->unreadableCount();
    if (m_comparison && m_comparison->options().point && m_jobVerdict) {
        const Verdict& here = m_comparison->verdict();
        if (here.kind != m_jobVerdict->kind || here.rank != m_jobVerdict->rank
            || here.groupRanks != m_jobVerdict->groupRanks) {
            c.jobVerdict = VerdictText::title(*m_jobVerdict, VerdictText::Translated);
            c.jobPoint = jobPoint;
        }
    }
    if (m_comparison)
        c.unusedOption = m_unusedOption;
    // A layout that fits the files but not the ranks that could be read.
    if (m_comparison && c.unusedOption.isEmpty() && m_options.layout && !m_comparison->layout())
        c.unusedOption = tr("layout %1: %2 ranks, but %3 are compared")
                             .arg(QString::fromStdString(m_options.layout->text()))
                             .arg(m_options.layout->rankCount())
                             .arg(c.ranks);
    return c;
}

} // namespace RankScope
