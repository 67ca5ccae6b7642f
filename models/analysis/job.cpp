// SPDX-License-Identifier: MIT
#include "job.h"

#include "parallel.h"
#include "rankfiles.h"
#include "rankname.h"

#include <QCoreApplication>

#include <algorithm>
#include <atomic>
#include <set>

namespace RankScope {

namespace {

// What a job cannot do, in English and marked for translation.
Phrase jobWords(const char* source, std::vector<Phrase::Arg> args = {})
{
    return Phrase("RankScope::Job", source, std::move(args));
}

} // namespace

QString JobError::translated() const
{
    // The options a job's errors name, as the window says them.
    static const struct
    {
        const char* source;
        const char* comment;
    } options[] = {
        QT_TRANSLATE_NOOP3("RankScope::Job", "layout", "an option"),
        QT_TRANSLATE_NOOP3("RankScope::Job", "baseline", "an option"),
        QT_TRANSLATE_NOOP3("RankScope::Job", "at", "an option"),
        QT_TRANSLATE_NOOP3("RankScope::Job", "step", "an option"),
        QT_TRANSLATE_NOOP3("RankScope::Job", "steps", "an option"),
        QT_TRANSLATE_NOOP3("RankScope::Job", "device", "an option"),
        QT_TRANSLATE_NOOP3("RankScope::Job", "my-code", "an option"),
    };
    QString words = phrase.empty() ? QString::fromStdString(what) : phrase.translated();
    if (option.empty())
        return words;
    QString name = QString::fromStdString(option);
    for (const auto& known : options) {
        if (option == known.source)
            name = QCoreApplication::translate("RankScope::Job", known.source, known.comment);
    }
    return name + QLatin1Char(' ') + words;
}

Job::Job(const QStringList& paths, const JobFiles& files)
    : m_given(paths)
    , m_stepsOfOneRank(files.stepsOfOneRank)
{
    const RankFiles::Scan scan = RankFiles::scan(paths);
    m_scanNotes = scanNotes(scan);
    if (m_error = scanError(scan); !m_error.empty())
        return;
    m_allFiles = scan.files;
    if (m_stepsOfOneRank) {
        if (m_allFiles.size() < 2) {
            m_error = { "steps",
                jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "needs the snapshots of two or more steps of one rank")) };
            return;
        }
        // Numbered steps go in the order of their numbers; otherwise the files are in the order given.
        std::vector<std::pair<int64_t, QString>> steps;
        for (const QString& path : m_allFiles)
            steps.push_back({ RankName::stepFromPath(path).value_or(-1), path });
        const bool numbered = std::all_of(steps.begin(), steps.end(), [](const auto& s) { return s.first >= 0; });
        if (numbered)
            std::stable_sort(
                steps.begin(), steps.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (size_t i = 0; i < steps.size(); ++i) {
            m_files.append(steps[i].second);
            m_stepOfFile.push_back(numbered ? steps[i].first : int64_t(i) + 1);
        }
        return;
    }
    if (m_allFiles.isEmpty()) {
        m_error = { "", jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "no snapshot files given")) };
        return;
    }
    const RankFiles::Step chosen = RankFiles::chooseStep(m_allFiles, files.step);
    m_steps = chosen.steps;
    m_step = chosen.chosen;
    std::string list;
    for (int64_t s : chosen.steps)
        list += (list.empty() ? "" : ", ") + std::to_string(s);
    if (chosen.steps.empty()) {
        m_files = m_allFiles;
        if (files.step)
            m_error = { "step",
                jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: the files are not of several training steps"),
                    { *files.step }) };
    } else if (chosen.files.isEmpty()) {
        m_error = { "step",
            jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: the files hold steps %2"), { *files.step, list }) };
    } else {
        m_files = chosen.files;
        m_stepChosenByUser = files.step.has_value();
    }
}

namespace {

// "a, b, c and 4 more": a list that stays one line however many folders a search found.
Phrase::Arg shortList(const std::vector<std::string>& items, size_t shown)
{
    std::vector<Phrase> plain;
    plain.reserve(items.size());
    for (const std::string& item : items)
        plain.push_back(Phrase::plain(item));
    return Phrase::Arg::list(std::move(plain), shown);
}

} // namespace

std::vector<Phrase> Job::scanNotes(const RankFiles::Scan& scan)
{
    using Skipped = RankFiles::Scan::Skipped;
    static const char* const why[] = {
        QT_TRANSLATE_NOOP("RankScope::Job", "%1: not searched (hidden folders)"),
        QT_TRANSLATE_NOOP("RankScope::Job", "%1: not searched (installed packages and caches)"),
        QT_TRANSLATE_NOOP("RankScope::Job", "%1: not searched (Python virtual environments)"),
        QT_TRANSLATE_NOOP("RankScope::Job", "%1: not searched (build folders)"),
    };
    std::vector<Phrase> notes;
    for (Skipped::Reason reason : { Skipped::Hidden, Skipped::Packages, Skipped::VirtualEnv, Skipped::BuildFolder }) {
        std::vector<std::string> folders;
        for (const Skipped& s : scan.skipped) {
            if (s.reason == reason)
                folders.push_back(s.folder.toStdString());
        }
        if (!folders.empty())
            notes.push_back(jobWords(why[reason], { shortList(folders, 3) }));
    }
    return notes;
}

JobError Job::scanError(const RankFiles::Scan& scan)
{
    if (!scan.stoppedIn.isEmpty())
        return { "",
            jobWords(QT_TRANSLATE_NOOP("RankScope::Job",
                         "%1: more than %2 files, where a search stops; this is not the folder of one job's snapshots "
                         "(open that folder, or name the files)"),
                { scan.stoppedIn.toStdString(), scan.limit }) };
    if (scan.jobs.empty())
        return {};
    std::vector<Phrase> jobs;
    for (const RankFiles::Scan::FoundJob& job : scan.jobs)
        jobs.push_back(job.files == 1
                ? jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1 (1 file)"), { job.folder.toStdString() })
                : jobWords(
                    QT_TRANSLATE_NOOP("RankScope::Job", "%1 (%2 files)"), { job.folder.toStdString(), job.files }));
    return { "",
        jobWords(QT_TRANSLATE_NOOP("RankScope::Job",
                     "%1 holds the snapshots of %2 jobs (the same rank in more than one folder): %3; open one of them"),
            { scan.folderOfJobs.toStdString(), int(scan.jobs.size()), Phrase::Arg::list(std::move(jobs), 8) }) };
}

std::string Job::stepNote() const
{
    if (m_steps.empty() || m_files.isEmpty())
        return {};
    std::string list;
    for (int64_t s : m_steps)
        list += (list.empty() ? "" : ", ") + std::to_string(s);
    return "the files hold snapshots of steps " + list + "; comparing step " + std::to_string(m_step)
        + (m_stepChosenByUser ? "" : " (the latest; --step N for another)");
}

void Job::load(const Progress& progress)
{
    if (!m_error.empty())
        return;
    if (m_loadedFiles.size() != m_files.size())
        m_loadedFiles = QList<LoadedFile>(m_files.size());
    const QList<RankName::Assigned> ranks = RankName::assign(m_files);
    std::atomic<bool> cancel = false;
    // Workers index through const lists: QList's non-const operator[] detaches a shared list, which would free the
    // strings another worker is reading.
    const QStringList& paths = m_files;
    const QList<LoadedFile>& loaded = m_loadedFiles;
    const QList<LoadedFile> files = Parallel::mapIndices(paths.size(), [&](qsizetype i) {
        const LoadedFile& had = loaded[i];
        if (had.ok() || (!had.path.isEmpty() && !had.cancelled))
            return had; // loaded, or failed for a reason loading again would not change
        if (cancel)
            return LoadedFile::cancelledBeforeStart(paths[i], ranks[i].rank, ranks[i].fromName);
        ProgressCallback report;
        if (progress) {
            report = [&, i](uint64_t done, uint64_t total) {
                if (cancel || !progress(int(i), done, total))
                    cancel = true;
                return !cancel;
            };
        }
        LoadedFile file = LoadedFile::load(paths[i], ranks[i].rank, ranks[i].fromName, report);
        // The same rank in every file is what --steps means, not a clash of names.
        if (!m_stepsOfOneRank)
            file.note = ranks[i].note();
        return file;
    });
    m_loadedFiles = files;
    m_cancelled = cancel;
    if (!m_cancelled && !m_earlier)
        m_earlier = loadEarlierSteps();
    m_loaded = !m_cancelled;
    m_last.reset();
}

void Job::setLoaded(QList<LoadedFile> files, std::shared_ptr<const EarlierSteps> earlier)
{
    m_loadedFiles = std::move(files);
    m_earlier = std::move(earlier);
    m_loaded = true;
    m_cancelled = false;
    m_last.reset();
}

std::shared_ptr<const EarlierSteps> Job::loadEarlierSteps() const
{
    if (m_step < 0 || m_steps.empty() || m_steps.front() >= m_step)
        return nullptr;
    return std::make_shared<const EarlierSteps>(EarlierSteps::load(m_allFiles, m_step));
}

int Job::failures() const
{
    const int failed = int(std::count_if(
        m_loadedFiles.begin(), m_loadedFiles.end(), [](const LoadedFile& f) { return !f.ok() && !f.path.isEmpty(); }));
    return failed + (m_earlier ? int(m_earlier->failed.size()) : 0);
}

std::vector<std::string> Job::messages() const
{
    std::vector<std::string> lines;
    for (const LoadedFile& file : m_loadedFiles) {
        if (!file.note.isEmpty())
            lines.push_back("warning: " + file.path.toStdString() + ": " + file.note.toStdString());
        if (file.isEmpty())
            lines.push_back("note: " + file.path.toStdString() + ": " + LoadedFile::emptyNote().toStdString());
        if (!file.ok() && !file.path.isEmpty())
            lines.push_back(file.path.toStdString() + ": " + file.error.toStdString());
    }
    if (m_earlier) {
        for (const LoadedFile& file : m_earlier->failed)
            lines.push_back(file.path.toStdString() + ": " + file.error.toStdString() + " (an earlier step)");
    }
    return lines;
}

namespace {
// A loaded file as a comparison takes it, with the peaks its load found (so they are not walked for again).
RankInput inputOf(int rank, const LoadedFile& file)
{
    RankInput in(rank, file.path, file.snapshot);
    for (const DeviceInfo& device : file.devices)
        in.peakEvents.push_back(device.peakEventIndex);
    return in;
}
} // namespace

std::vector<RankInput> Job::inputs() const
{
    std::vector<RankInput> ranks;
    if (m_stepsOfOneRank) {
        // One rank: the number the first file gives (the others would be renumbered as if they were other ranks);
        // the last file that loaded is compared, the ones before it are its earlier steps.
        RankInput rank;
        std::vector<RankInput::EarlierStep> earlier;
        for (qsizetype i = 0; i < m_loadedFiles.size(); ++i) {
            const LoadedFile& file = m_loadedFiles[i];
            if (!file.ok())
                continue;
            if (rank.snapshot)
                earlier.push_back({ rank.step, rank.snapshot });
            rank = inputOf(m_loadedFiles.front().rank, file);
            rank.step = m_stepOfFile[size_t(i)];
        }
        if (rank.snapshot) {
            rank.earlier = std::move(earlier);
            ranks.push_back(std::move(rank));
        }
        return ranks;
    }
    for (const LoadedFile& file : m_loadedFiles) {
        if (file.ok())
            ranks.push_back(inputOf(file.rank, file));
    }
    if (m_step >= 0 && m_earlier)
        m_earlier->attach(ranks, m_step);
    else if (m_step >= 0)
        EarlierSteps().attach(ranks, m_step);
    return ranks;
}

JobError Job::check(const ComparisonOptions& options) const
{
    const std::vector<RankInput> ranks = inputs();
    // A layout of another size would compare ranks with the wrong replicas.
    if (const std::optional<ParallelLayout>& layout = options.layout; layout && !m_stepsOfOneRank) {
        const int files = int(m_loadedFiles.isEmpty() ? m_files.size() : m_loadedFiles.size());
        if (layout->rankCount() != files)
            return { "layout",
                jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: %2 ranks, but %3 snapshot files are given"),
                    { layout->text(), layout->rankCount(), files }) };
        for (const RankInput& r : ranks) {
            if (r.rank >= layout->rankCount())
                return { "layout",
                    jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: rank %2 (%3) is not among ranks 0 to %4"),
                        { layout->text(), r.rank, r.path.toStdString(), layout->rankCount() - 1 }) };
        }
    }
    // A device or a rank that no file holds would compare nothing, and call that balanced.
    if (options.device && !ranks.empty()) {
        std::set<int> devices;
        for (const LoadedFile& file : m_loadedFiles) {
            for (const DeviceInfo& d : file.devices)
                devices.insert(d.device);
        }
        if (!devices.count(*options.device)) {
            std::string list;
            for (int d : devices)
                list += (list.empty() ? "" : ", ") + std::to_string(d);
            return { "device",
                devices.size() == 1 ? jobWords(
                    QT_TRANSLATE_NOOP("RankScope::Job", "%1: the files hold device %2"), { *options.device, list })
                                    : jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: the files hold devices %2"),
                                        { *options.device, list }) };
        }
    }
    if (const std::optional<TimelinePoint::Spec>& p = options.point; p && p->rank >= 0
        && std::none_of(ranks.begin(), ranks.end(), [&](const RankInput& r) { return r.rank == p->rank; }))
        return {
            "at",
            jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: no rank %2 among the files"),
                { Phrase::Arg::point("event:" + std::to_string(p->number) + "@" + std::to_string(p->rank)), p->rank })
        };
    if (options.baselineRank >= 0
        && std::none_of(ranks.begin(), ranks.end(), [&](const RankInput& r) { return r.rank == options.baselineRank; }))
        return { "baseline",
            jobWords(
                QT_TRANSLATE_NOOP("RankScope::Job", "%1: no such rank among the files"), { options.baselineRank }) };
    return {};
}

namespace {

// Every option that changes the comparison, written out: two equal keys compare alike.
std::string keyOf(const ComparisonOptions& o)
{
    std::string key;
    if (o.point)
        key += "p" + std::to_string(int(o.point->kind)) + ":" + std::to_string(o.point->number) + "@"
            + std::to_string(o.point->rank);
    key += "|b" + std::to_string(o.baselineRank) + "|t" + std::to_string(o.thresholdPercent) + "|m"
        + std::to_string(o.site.myCodeOnly) + "|d" + std::to_string(o.site.depth) + "|g"
        + (o.device ? std::to_string(*o.device) : "*") + "|l" + (o.layout ? o.layout->text() : "") + "|M"
        + std::to_string(o.deviceMemoryBytes);
    if (o.presentOn)
        key += "|o" + std::to_string(o.presentOn->first) + "-" + std::to_string(o.presentOn->second);
    for (const CategoryRules::Rule& rule : o.categories.rules)
        key += "|c" + std::to_string(int(rule.category)) + ":" + rule.pattern;
    for (const std::string& package : o.site.myCodePackages)
        key += "|o" + package;
    return key;
}

} // namespace

bool Job::holdsNothing() const
{
    const auto ok = [](const LoadedFile& f) { return f.ok(); };
    return std::any_of(m_loadedFiles.begin(), m_loadedFiles.end(), ok)
        && std::all_of(
            m_loadedFiles.begin(), m_loadedFiles.end(), [](const LoadedFile& f) { return !f.ok() || f.isEmpty(); });
}

Phrase Job::nothingToCompare(int files)
{
    return files == 1 ? jobWords(QT_TRANSLATE_NOOP(
               "RankScope::Job", "nothing to compare: the file is an empty snapshot (no segments, no trace events)"))
                      : jobWords(QT_TRANSLATE_NOOP("RankScope::Job",
                                     "nothing to compare: each of the %1 files is an empty snapshot (no segments, no "
                                     "trace events)"),
                          { files });
}

Job::Result Job::compare(const ComparisonOptions& options, Points points) const
{
    Result refused;
    refused.error = m_error;
    refused.holdsNothing = m_error.empty() && holdsNothing();
    if (!m_error.empty() || refused.holdsNothing)
        return refused;
    const std::string key = keyOf(options) + (points == Points::MustFit ? "" : "|lenient");
    if (m_last && m_last->key == key)
        return m_last->result;
    Result result;
    const std::vector<RankInput> ranks = inputs();
    if (!ranks.empty())
        result.error = check(options);
    if (result.error.empty() && !ranks.empty()) {
        result.comparison = Comparison::compute(ranks, options);
        if (points == Points::MustFit)
            result.error = pointOutsideTrace(*result.comparison);
        if (!result.error.empty())
            result.comparison.reset();
        else
            result.notes = answerNotes(*result.comparison);
    }
    m_last = Cache { key, result };
    return result;
}

// An event or step that a rank's trace does not have would compare that rank at another moment, silently: an error
// that names the rank and what its trace holds. Digests keep only the peak, the snapshot and OOMs; they are compared
// at their snapshot with a note, as documented.
JobError Job::pointOutsideTrace(const Comparison& c)
{
    const std::optional<TimelinePoint::Spec>& spec = c.options().point;
    // An OOM that no rank has: every rank would be compared at its snapshot under the name "oom".
    if (spec && spec->kind == TimelinePoint::Oom
        && std::all_of(c.ranks().begin(), c.ranks().end(), [](const RankSummary& r) { return r.oomEvents == 0; }))
        return { "at",
            jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: no rank ran out of memory (no file has an OOM event)"),
                { Phrase::Arg::point(c.pointName()) }) };
    if (!spec || !TimelinePoint::insideTrace(spec->kind))
        return {};
    for (size_t i = 0; i < c.ranks().size(); ++i) {
        const DeviceHistory& h = c.history(i);
        if (c.ranks()[i].note.empty() || h.snapshot().digest)
            continue;
        const Phrase::Arg point = Phrase::Arg::point(c.pointName());
        const int rank = c.ranks()[i].rank;
        if (spec->kind == TimelinePoint::Event)
            return { "at",
                jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: rank %2's trace has events 0 to %3"),
                    { point, rank, int64_t(h.eventCount()) - 1 }) };
        return { "at",
            spec->kind == TimelinePoint::StepEnd
                ? jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: rank %2's trace has no end of ProfilerStep#%3"),
                    { point, rank, spec->number })
                : jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: rank %2's trace has no ProfilerStep#%3"),
                    { point, rank, spec->number }) };
    }
    return {};
}

std::vector<JobError> Job::answerNotes(const Comparison& c)
{
    std::vector<JobError> notes;
    std::vector<std::string> missing;
    for (size_t i = 0; i < c.ranks().size(); ++i) {
        if (c.missesPoint(i))
            missing.push_back(std::to_string(c.ranks()[i].rank));
    }
    const Phrase::Arg point = Phrase::Arg::point(c.pointName());
    if (missing.size() == 1)
        notes.push_back({ "at",
            jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: rank %2 does not have it; compared at its snapshot"),
                { point, missing.front() }) });
    else if (!missing.empty())
        notes.push_back({ "at",
            jobWords(QT_TRANSLATE_NOOP("RankScope::Job", "%1: ranks %2 do not have it; compared at their snapshots"),
                { point, shortList(missing, 16) }) });
    if (const std::vector<std::string>& counted = c.sites().frameworksCounted(); !counted.empty())
        notes.push_back({ "my-code",
            jobWords(QT_TRANSLATE_NOOP("RankScope::Job",
                         "counts the frames of %1 as your code, since no frame of the files is in your own folders "
                         "(name the packages to count others instead)"),
                { shortList(counted, 8) }) });
    return notes;
}

Job Job::forStep(std::optional<int64_t> step) const
{
    Job job(m_given, { step, m_stepsOfOneRank });
    if (!job.m_error.empty() || m_loadedFiles.isEmpty())
        return job;
    // The files both steps hold, already read; the rest is read by the next load.
    job.m_loadedFiles = QList<LoadedFile>(job.m_files.size());
    const QList<RankName::Assigned> ranks = RankName::assign(job.m_files);
    for (qsizetype i = 0; i < job.m_files.size(); ++i) {
        for (const LoadedFile& had : m_loadedFiles) {
            if (had.path == job.m_files[i] && had.rank == ranks[i].rank && had.ok())
                job.m_loadedFiles[i] = had;
        }
    }
    if (job.m_step == m_step)
        job.m_earlier = m_earlier;
    return job;
}

} // namespace RankScope
