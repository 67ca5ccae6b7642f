// SPDX-License-Identifier: MIT
#include "beforeafterreport.h"
#include "commands.h"
#include "diffreport.h"
#include "joboptions.h"
#include "loadedfile.h"

#include <nlohmann/json.hpp>

namespace RankScope::Cli {

namespace DiffCommand {

void options(CommandLine& cl)
{
    addComparisonOptions(cl);
    cl.add(names("json"), "Print JSON.");
    cl.add(names("csv"), "Print the findings as CSV.");
    cl.add(names("frames"),
        "With --json or --csv, the frames of each stack: yours (default: from your own innermost frame outward in "
        "call order, the frames inside it and C++ and interpreter runs counted in place) or all (as recorded).",
        "WHICH");
    cl.add(names("fail-on-imbalance"),
        "Exit with 3 when a rank stands out (imbalance, stray device, growth), with 5 when ranks ran out of memory and "
        "none stands out (over_capacity, outside_allocator, fragmentation); with --before and --after: 3 unless the "
        "run after is fixed.");
    cl.add(names("min-confidence"),
        "With --fail-on-imbalance: fail only on a verdict at least this sure (high, medium or low; default low: "
        "any).",
        "LEVEL");
    cl.add(names("before"), "The run before the change (a folder or file; may be repeated).", "DIR");
    cl.add(names("after"), "The run after the change (a folder or file; may be repeated).", "DIR");
}

// --fail-on-imbalance: what the verdict means for a script.
int statusOf(Verdict::Kind kind)
{
    switch (kind) {
    case Verdict::Balanced:
        return 0;
    case Verdict::OverCapacity:
    case Verdict::OutsideAllocator:
    case Verdict::Fragmentation:
        return 5; // out of memory, and no rank stands out
    case Verdict::BurdenImbalance:
    case Verdict::InputImbalance:
    case Verdict::StrayDevice:
    case Verdict::ModelParallelImbalance:
    case Verdict::Growth:
        break;
    }
    return 3;
}

int run(CommandLine& cl)
{
    JobRequest request;
    if (const std::string error = readComparisonOptions(cl, request); !error.empty())
        return cl.fail(error);
    if (cl.isSet("json") && cl.isSet("csv"))
        return cl.fail("--json and --csv exclude each other");
    const enum { Text, Json, Csv } format = cl.isSet("json") ? Json : cl.isSet("csv") ? Csv : Text;
    DiffReport::FrameDetail frames = DiffReport::FrameDetail::Yours;
    if (cl.isSet("frames")) {
        const QString which = cl.value("frames");
        if (which == QLatin1String("all"))
            frames = DiffReport::FrameDetail::All;
        else if (which != QLatin1String("yours"))
            return cl.fail("--frames takes yours or all, not '" + which.toStdString() + "'");
        if (format == Text)
            return cl.fail("--frames goes with --json or --csv");
    }
    const bool failOnImbalance = cl.isSet("fail-on-imbalance");
    // Confidence levels from the surest: a verdict fails the run when it is at least as sure as asked.
    Verdict::Confidence minConfidence = Verdict::Low;
    if (cl.isSet("min-confidence")) {
        const QString level = cl.value("min-confidence");
        if (level == QLatin1String("high"))
            minConfidence = Verdict::High;
        else if (level == QLatin1String("medium"))
            minConfidence = Verdict::Medium;
        else if (level != QLatin1String("low"))
            return cl.fail("--min-confidence takes high, medium or low, not '" + level.toStdString() + "'");
        if (!failOnImbalance)
            return cl.fail("--min-confidence goes with --fail-on-imbalance");
    }
    const QStringList paths = cl.positional();
    const QStringList before = cl.values("before");
    const QStringList after = cl.values("after");
    if (!before.isEmpty() || !after.isEmpty()) {
        if (before.isEmpty() || after.isEmpty() || !paths.isEmpty())
            return cl.fail("--before and --after go together, with no other files");
        if (format == Csv)
            return cl.fail("--csv compares one run; use --json or text with --before and --after");
        const OpenedJob was = openJob(cl, before, request);
        const OpenedJob is = openJob(cl, after, request);
        for (const OpenedJob* run : { &was, &is }) {
            if (!run->error.empty())
                return cl.fail((run == &was ? "--before: " : "--after: ") + run->error);
        }
        if (!was.comparison || !is.comparison)
            return !was.comparison ? was.statusWithoutComparison() : is.statusWithoutComparison();
        const BeforeAfter result = BeforeAfter::compute(was.comparison, is.comparison);
        cl.console().out(format == Json ? BeforeAfterReport::json(result) : BeforeAfterReport::text(result));
        if (was.failures || is.failures)
            return 1;
        return failOnImbalance && !result.fixed ? 3 : 0;
    }
    const OpenedJob opened = openJob(cl, paths, request);
    if (!opened.error.empty())
        return cl.fail(opened.error);
    if (!opened.comparison)
        return opened.statusWithoutComparison();
    const Comparison& comparison = *opened.comparison;
    if (format == Json) {
        // A file that could not be read is part of the answer, not only of stderr: a script reading the JSON must not
        // take the ranks that loaded for the whole job.
        nlohmann::ordered_json out = nlohmann::ordered_json::parse(DiffReport::json(comparison, frames));
        if (opened.failures) {
            nlohmann::ordered_json failed = nlohmann::ordered_json::array();
            for (const LoadedFile& file : opened.job->loaded())
                if (!file.ok() && !file.path.isEmpty())
                    failed.push_back({ { "path", file.path.toStdString() }, { "error", file.error.toStdString() } });
            out["failed"] = std::move(failed);
        }
        cl.console().out(out.dump(2) + "\n");
    } else {
        std::string unread;
        for (const LoadedFile& file : opened.job->loaded())
            if (!file.ok() && !file.path.isEmpty())
                unread += "Not read: " + file.path.toStdString() + ": " + file.error.toStdString() + "\n";
        cl.console().out(format == Csv ? DiffReport::csv(comparison, frames)
                                       : unread + (unread.empty() ? "" : "\n") + DiffReport::text(comparison));
    }
    if (opened.failures)
        return 1;
    if (!failOnImbalance || comparison.verdict().confidence > minConfidence)
        return 0;
    return statusOf(comparison.verdict().kind);
}

} // namespace DiffCommand

const Command diffCommand { "diff",
    "[--at POINT] [--baseline median|RANK] [--threshold PCT] [--my-code[=PKG,...]]\n"
    "       [--depth N] [--device N] [--step N] [--steps] [--layout L] [--categories FILE] [--device-memory SIZE]\n"
    "       [--json|--csv [--frames yours|all]] [--fail-on-imbalance [--min-confidence LEVEL]] FILE|FOLDER...\n"
    "       rankscope diff --before DIR --after DIR [options]",
    "which rank holds what the others don't, and why",
    "Which rank holds what the others don't, and why: findings per allocation site and a verdict. With --before\n"
    "and --after, a run before a fix against the run after it: spreads, top sites, and whether it is fixed.\n"
    "\n"
    "POINT is aligned (default: the rank with the highest peak there, every other rank at the same moment of its\n"
    "own trace), peak (each rank at its own peak), snapshot, oom, event:<i>, event:<i>@<rank>, step:<N> or\n"
    "step:<N>:end. The baseline is the median of the other ranks, or one rank. Every GPU of every rank is compared\n"
    "(--device N: only cuda:N of each rank); memory a rank put on another rank's GPU is a foreign_device finding\n"
    "(verdict stray_device). A folder of several training steps (iteration_<N>/rank<R>_..., snapshot_<step>_<rank>)\n"
    "is compared one step at a time: the latest, or --step N; up to four steps before it are read too, and a rank\n"
    "holding more at every step is a growth (verdict growth). --layout pp=2,dp=4 (slowest first; also tp, cp, ep)\n"
    "compares each rank with its replicas; stages and shards may differ by design (verdict\n"
    "model_parallel_imbalance when their parameters, gradients or optimizer state do).\n"
    "\n"
    "Folders are searched leaving out hidden folders, installed packages (node_modules, site-packages …), virtual\n"
    "environments and build folders, at most 100,000 files; a folder of several jobs is refused with the jobs.\n"
    "Exit status: 0; 1 when a file could not be read; 2 for a usage error; 3 and 5 with --fail-on-imbalance; 6 when\n"
    "every file is an empty snapshot (nothing to compare, no verdict).",
    false, DiffCommand::options, DiffCommand::run };

} // namespace RankScope::Cli
