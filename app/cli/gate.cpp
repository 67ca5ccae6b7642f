// SPDX-License-Identifier: MIT
#include "bytesize.h"
#include "commands.h"
#include "dataexport.h"
#include "gatereport.h"
#include "joboptions.h"

namespace RankScope::Cli {

namespace GateCommand {

void options(CommandLine& cl)
{
    cl.add(
        names("baseline"), "The baseline job: its snapshots or digests (a folder or files; may be repeated).", "BASE");
    cl.add(names("tolerance"), "A growth fails the gate beyond this per cent of the baseline rank's peak (default 2).",
        "PCT");
    cl.add(names("min-bytes"), "…and only beyond this size (default 16MiB).", "SIZE");
    cl.add(names("junit"), "Also write the result as JUnit XML to FILE.", "FILE");
    cl.add(names("markdown"), "Also write a Markdown summary to FILE.", "FILE");
    cl.add(names("json"), "Print JSON.");
}

// Loads one side; on what stops the gate, prints it and returns the exit status.
std::optional<int> load(const CommandLine& cl, Job& job, const std::string& what)
{
    if (!job.error().empty())
        return cl.fail(what + ": " + optionError(job.error()));
    if (const std::string note = job.stepNote(); !note.empty())
        cl.console().err("note: " + what + ": " + note + "\n");
    job.load();
    for (const std::string& line : job.messages())
        cl.console().err(line + "\n");
    return std::nullopt;
}

int run(CommandLine& cl)
{
    GateOptions options;
    if (cl.isSet("tolerance")) {
        bool ok = false;
        options.tolerancePercent = cl.value("tolerance").toDouble(&ok);
        if (!ok || options.tolerancePercent < 0)
            return cl.fail("--tolerance takes a per cent, 0 or more, such as 2 or 0.5");
    }
    if (cl.isSet("min-bytes")) {
        const std::optional<int64_t> size = parseByteSize(cl.value("min-bytes"));
        if (!size)
            return cl.fail("--min-bytes takes a size, such as 64MiB or 0");
        options.minBytes = *size;
    }
    const QStringList baselinePaths = cl.values("baseline");
    const QStringList paths = cl.positional();
    if (baselinePaths.isEmpty())
        return cl.fail("--baseline BASE is required: the job to gate against (snapshots or digests)");
    if (paths.isEmpty())
        return cl.fail("no snapshot files given for the new job");

    Job baseline(baselinePaths);
    Job current(paths);
    // The baseline named with its paths: "no snapshot files given" alone would not say which side lacks them.
    if (const std::optional<int> status =
            load(cl, baseline, "--baseline " + baselinePaths.join(QLatin1String(", ")).toStdString()))
        return *status;
    if (const std::optional<int> status = load(cl, current, "the new job"))
        return *status;
    const Gate::Side base = Gate::sideOf(baseline);
    const Gate::Side now = Gate::sideOf(current);
    if (!now.digests.empty())
        return cl.fail(now.digests.front()
            + " is a digest; the new job must be snapshots (a digest keeps too little of its trace to find the "
              "baseline's moments in it), the baseline may be digests");
    for (const std::string& error : base.errors)
        cl.console().err(error + "\n");
    const int failures = baseline.failures() + current.failures() + int(base.errors.size());
    if (base.inputs.empty() || now.inputs.empty()) {
        cl.console().err(
            cl.prefix() + (base.inputs.empty() ? "no baseline rank" : "no rank of the new job") + " could be read\n");
        return 1;
    }
    const GateResult result = Gate::run(base, now, options);
    cl.console().out(cl.isSet("json") ? GateReport::json(result) : GateReport::text(result));
    int status = failures ? 1 : result.passed() ? 0 : 4;
    const auto write = [&](const char* option, const QByteArray& bytes) {
        if (!cl.isSet(option))
            return;
        if (const QString error = DataExport::write(cl.value(option), bytes); !error.isEmpty()) {
            cl.console().err(cl.prefix() + error.toStdString() + "\n");
            status = 1;
        }
    };
    write("junit", GateReport::junit(result));
    write("markdown", QByteArray::fromStdString(GateReport::markdown(result)));
    return status;
}

} // namespace GateCommand

const Command gateCommand { "gate",
    "--baseline BASE [--tolerance PCT] [--min-bytes SIZE]\n"
    "       [--junit FILE] [--markdown FILE] [--json] NEW...",
    "whether any rank holds more than its baseline across the step (for CI)",
    "A job against its baseline (snapshots, or digests from `rankscope digest`), rank by rank across the aligned\n"
    "step, not only at the peak: each rank's peak, the largest difference of what it holds at the same moment of\n"
    "the step and where, and what grew, appeared or disappeared there by site and category. Ranks are paired by\n"
    "number; where the new job has more ranks, rank R is weighed against baseline rank R modulo the baseline's\n"
    "count. A growth beyond --tolerance per cent of the baseline rank's peak and beyond --min-bytes fails the\n"
    "gate. Exit status: 0 within the tolerance, 4 on a regression, 1 when a file could not be read or written\n"
    "(the answer still printed), 2 for a usage error.",
    false, GateCommand::options, GateCommand::run };

} // namespace RankScope::Cli
