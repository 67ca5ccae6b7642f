// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"
#include "job.h"

#include <functional>
#include <optional>
#include <string>

namespace RankScope::Cli {

/// The options every command that compares takes (diff, top, export, report): where, against what, which files.
void addComparisonOptions(CommandLine& cl);

/// What the comparison options say: the job's files and the comparison's options.
struct JobRequest
{
    JobFiles files;
    ComparisonOptions options;
};

/// Where the job's options come from: the command line's options or an MCP tool's arguments. `value` returns the
/// value given for an option (by its command-line name: "at", "my-code"; a flag set gives "true"), nullopt when not
/// given; `spelled` is the option's name as that front end writes it in a message ("--at", "point").
struct OptionSource
{
    std::function<std::optional<QString>(const char* name)> value;
    std::function<std::string(const char* name)> spelled;
};

/// Reads the job's options, in one place for every front end; returns what is wrong with them, or "".
std::string readJobOptions(const OptionSource& source, JobRequest& request);
/// The same from the command line's options.
std::string readComparisonOptions(const CommandLine& cl, JobRequest& request);

/// The exit status of a command whose files all loaded empty (Job::holdsNothing): no verdict, nothing to compare.
constexpr int NothingToCompare = 6;

/// A job opened and compared for a command: the step note and what the load found are said on stderr as it goes.
struct OpenedJob
{
    std::optional<Job> job;
    ComparisonPtr comparison;
    /// A usage error: the paths or an option do not fit the job ("--layout pp=2,dp=4: 8 ranks, …").
    std::string error;
    int failures = 0;
    /// Every file that loaded is an empty snapshot; said on stderr ("nothing to compare: …").
    bool holdsNothing = false;

    /// The exit status when there is no comparison (and no usage error): NothingToCompare, else 1 (no file loaded).
    int statusWithoutComparison() const
    {
        return holdsNothing ? NothingToCompare : 1;
    }
};

/// Makes the job of `paths`, loads it and compares it with the request's options.
OpenedJob openJob(const CommandLine& cl, const QStringList& paths, const JobRequest& request);

/// A job's error as the command line words it: "--layout pp=2,dp=4: …".
std::string optionError(const JobError& error);

} // namespace RankScope::Cli
