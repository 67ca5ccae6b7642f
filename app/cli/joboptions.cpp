// SPDX-License-Identifier: MIT
#include "joboptions.h"

#include "bytesize.h"

#include <QRegularExpression>

namespace RankScope::Cli {

void addComparisonOptions(CommandLine& cl)
{
    cl.add(names("at"),
        "Where each rank is compared: aligned (default: the rank with the highest peak there, every other rank at the "
        "same moment of its own trace), peak (each rank at its own peak), snapshot, oom, event:<i> (of every rank), "
        "event:<i>@<rank> (of that rank, the others at the same moment), step:<N> or step:<N>:end.",
        "POINT");
    cl.add(names("baseline"), "Compare each rank with the median of the others (default) or with one rank.",
        "median|RANK");
    cl.add(names("threshold"), "How far above its baseline a rank must be to count, in percent (default 2).", "PCT");
    cl.addWithOptionalValue(names("my-code"),
        "Keep only your own frames in the site key (--my-code=PKG,PKG: count these installed packages as yours too). "
        "Where no frame is in your own folders, the frames of the framework the job runs (the entry script's "
        "package under site-packages, such as torchtitan; else every installed package but torch and its kin) "
        "count as yours; a stack with none keeps all its frames.");
    cl.add(names("depth"), "Keep the first N frames in the site key.", "N");
    cl.add(
        names("device"), "Compare cuda:N of every rank (default: every device, the one that matters most first).", "N");
    cl.add(names("step"),
        "In a folder of several training steps (iteration_<N>/ …), compare the snapshots of step N (default: the "
        "latest).",
        "N");
    cl.add(names("steps"),
        "The files are one rank's snapshots at successive training steps (oldest first, or in the order of the step "
        "numbers in their names): the last is compared, with growth across all of them.");
    cl.add(names("layout"),
        "The job's parallel layout, slowest dimension first, as a device mesh is written: pp=2,dp=4 (also tp, cp, "
        "ep; the sizes multiply to the number of ranks). Ranks are compared with their replicas (same coordinates but "
        "dp); stages and shards may differ by design. Default: guessed where the files show groups that run "
        "different parts of the model.",
        "LAYOUT");
    cl.add(names("device-memory"),
        "Each GPU's total memory (80GiB, 79.3GB …), which a snapshot does not record: with it, an OOM outside the "
        "allocator says how much is held outside PyTorch.",
        "SIZE");
    cl.add(names("present-on"),
        "Keep only the findings whose site K ranks hold (K-M: from K to M ranks): 1 for what one rank alone holds.",
        "K[-M]");
    cl.add(names("categories"),
        "A rules file that adds category patterns: one '<category> <pattern>' a line, matched against each frame's "
        "filename:function.",
        "FILE");
}

std::string readJobOptions(const OptionSource& source, JobRequest& request)
{
    ComparisonOptions& options = request.options;
    auto given = [&](const char* name) { return source.value(name).has_value(); };
    auto value = [&](const char* name) { return source.value(name).value_or(QString()); };
    auto needs = [&](const char* name, const char* what) { return source.spelled(name) + " needs " + what; };
    request.files.stepsOfOneRank = value("steps") == QLatin1String("true");
    if (const QString mine = value("my-code"); given("my-code") && mine != QLatin1String("false")) {
        options.site.myCodeOnly = true;
        if (mine != QLatin1String("true")) {
            for (const QString& package : mine.split(QLatin1Char(','), Qt::SkipEmptyParts))
                options.site.myCodePackages.push_back(package.trimmed().toStdString());
            static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
            for (const std::string& package : options.site.myCodePackages) {
                if (!name.match(QString::fromStdString(package)).hasMatch())
                    return needs("my-code", "the top-level names of installed packages, such as torchtitan,megatron");
            }
        }
    }
    bool ok = false;
    if (given("at") && value("at") != QLatin1String("aligned")) {
        options.point = TimelinePoint::parse(value("at").toStdString());
        if (!options.point)
            return needs("at", "aligned, peak, snapshot, oom, event:<i>, event:<i>@<rank>, step:<N> or step:<N>:end");
    }
    if (given("baseline") && value("baseline") != QLatin1String("median")) {
        options.baselineRank = value("baseline").toInt(&ok);
        if (!ok)
            return needs("baseline", "median or a rank number");
    }
    if (given("threshold")) {
        options.thresholdPercent = value("threshold").toDouble(&ok);
        if (!ok || options.thresholdPercent < 0)
            return needs("threshold", "a percentage, such as 2 or 0.5");
    }
    if (given("depth")) {
        options.site.depth = value("depth").toInt(&ok);
        if (!ok || options.site.depth < 1)
            return needs("depth", "a number of frames, 1 or more");
    }
    if (given("device")) {
        options.device = value("device").toInt(&ok);
        if (!ok || *options.device < 0 || *options.device > 65535)
            return needs("device", "a device number, such as 0");
    }
    if (given("step")) {
        request.files.step = value("step").toLongLong(&ok);
        if (!ok || *request.files.step < 0)
            return needs("step", "a step number, such as 20");
    }
    if (given("layout")) {
        std::string why;
        options.layout = ParallelLayout::parse(value("layout").toStdString(), &why);
        if (!options.layout)
            return source.spelled("layout") + " " + value("layout").toStdString() + ": " + why;
    }
    if (given("device-memory")) {
        const std::optional<int64_t> bytes = parseByteSizeWithUnit(value("device-memory"));
        if (!bytes)
            return needs("device-memory", "a size with its unit, such as 80GiB");
        options.deviceMemoryBytes = *bytes;
    }
    if (given("present-on")) {
        options.presentOn = ComparisonOptions::parsePresentOn(value("present-on").toStdString());
        if (!options.presentOn)
            return needs("present-on", "a number of ranks K or a range K-M, such as 1 or 3-4");
    }
    if (given("categories")) {
        try {
            options.categories = CategoryRules::read(value("categories"));
        } catch (const std::exception& e) {
            return source.spelled("categories") + ": " + e.what();
        }
    }
    return {};
}

std::string readComparisonOptions(const CommandLine& cl, JobRequest& request)
{
    const OptionSource source {
        [&cl](const char* name) -> std::optional<QString> {
            if (!cl.isSet(name))
                return std::nullopt;
            // A flag has no value: being there is its value.
            const QString v = cl.value(name);
            return v.isEmpty() ? QStringLiteral("true") : v;
        },
        [](const char* name) { return std::string("--") + name; },
    };
    return readJobOptions(source, request);
}

std::string optionError(const JobError& error)
{
    return error.option.empty() ? error.what : "--" + error.text();
}

OpenedJob openJob(const CommandLine& cl, const QStringList& paths, const JobRequest& request)
{
    OpenedJob opened;
    Job& job = opened.job.emplace(paths, request.files);
    for (const Phrase& note : job.scanNotes())
        cl.console().err("note: " + note.english() + "\n");
    if (!job.error().empty()) {
        opened.error = optionError(job.error());
        return opened;
    }
    // Said before the load, so that the output is never taken for the whole folder.
    if (const std::string note = job.stepNote(); !note.empty())
        cl.console().err("note: " + note + "\n");
    job.load();
    for (const std::string& line : job.messages())
        cl.console().err(line + "\n");
    opened.failures = job.failures();
    const Job::Result result = job.compare(request.options);
    opened.comparison = result.comparison;
    opened.holdsNothing = result.holdsNothing;
    for (const JobError& note : result.notes)
        cl.console().err("note: " + optionError(note) + "\n");
    if (result.holdsNothing)
        cl.console().err(cl.prefix() + Job::nothingToCompare(int(job.inputs().size())).english() + "\n");
    opened.error = result.error.empty() ? std::string() : optionError(result.error);
    return opened;
}

} // namespace RankScope::Cli
