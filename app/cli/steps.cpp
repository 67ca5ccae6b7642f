// SPDX-License-Identifier: MIT
#include "commands.h"
#include "steplog.h"
#include "stepsreport.h"

namespace RankScope::Cli {

namespace StepsCommand {

void options(CommandLine& cl)
{
    cl.add(names("json"), "Print JSON.");
    cl.add(names("threshold"),
        "How far above the median of the other ranks a peak must be to count, in percent (default 10).", "PCT");
}

int run(CommandLine& cl)
{
    const bool json = cl.isSet("json");
    double threshold = StepAnalysis::DefaultThresholdPercent;
    if (cl.isSet("threshold")) {
        bool ok = false;
        threshold = cl.value("threshold").toDouble(&ok);
        if (!ok || threshold < 0)
            return cl.fail("--threshold needs a percentage, such as 10");
    }
    const QStringList paths = cl.positional();
    if (paths.isEmpty())
        return cl.fail("no log files given");
    const StepLog log = StepLog::read(paths);
    for (const auto& [path, error] : log.errors)
        cl.console().err(path.toStdString() + ": " + error.toStdString() + "\n");
    if (log.reports.empty() && log.errors.empty()) {
        cl.console().err(cl.prefix() + "no step report lines found (rank=, step= and cur= or peak= on one line)\n");
        return 1;
    }
    const StepAnalysis analysis = StepAnalysis::analyse(log, threshold);
    cl.console().out(json ? StepsReport::json(analysis) : StepsReport::text(analysis));
    return log.errors.empty() ? 0 : 1;
}

} // namespace StepsCommand

const Command stepsCommand { "steps", "[--json] [--threshold PCT] LOG...",
    "per-rank step reports from training logs: which rank departs first",
    "Per-rank step reports from training logs: which rank departs first, at which step and phase. LOG holds lines\n"
    "such as [train] rank=3 step=120 shape=(8, 2048) cur=10240.0MB peak=70144.5MB\n"
    "(resources/python/rankscope_capture.py prints them), from every rank in one log or one log per rank.",
    false, StepsCommand::options, StepsCommand::run };

} // namespace RankScope::Cli
