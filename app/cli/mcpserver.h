// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"
#include "job.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace RankScope::Cli {

/// What a tool says when it cannot answer (a file that cannot be read, a point past a trace, an unknown job, an
/// argument it does not take, an offset past the end): the agent reads it as a tool result with isError, in the
/// tools' words.
struct ToolError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

/// A Model Context Protocol server over stdio: JSON-RPC 2.0, one message a line, nothing but protocol on the output
/// (what the load says goes to the log, stderr). Requests are answered one at a time, in order, on the calling
/// thread (a tool that draws needs the GUI thread); a second thread reads the input, so a
/// `notifications/cancelled` stops the load of the request it names. Jobs stay open, with what they loaded, until
/// the input ends.
class McpServer
{
public:
    using Json = nlohmann::ordered_json;

    /// A tool's answer: `structured` (checked against the tool's output schema by the client), `text` for clients
    /// that read only text, and a PNG to attach as image content.
    struct Result
    {
        Json structured;
        std::string text;
        QByteArray png;
    };
    struct Tool
    {
        std::string name;
        std::string title;
        std::string description; ///< for an agent: what it answers and when to call it
        Json inputSchema;
        Json outputSchema; ///< null for none
        std::function<Result(const Json& arguments)> call;
        bool readOnly = true; ///< false for a tool that may write a file (the client may ask the user first)
    };
    /// A job an agent opened, and the comparison its last `diff` made, which findings, stack, top, what_if and
    /// export_picture look at.
    struct OpenJob
    {
        std::string id;
        Job job; ///< at the step the last diff asked for, else the step it was opened at
        ComparisonOptions options;
        ComparisonPtr comparison;
        Json diff; ///< the comparison as `rankscope diff --json` writes it
        Json allFrames; ///< its stacks with every frame, made when a stack is asked for so
        int64_t openedStep = -1;
        std::map<int64_t, Job> otherSteps; ///< steps asked for before, kept loaded
        std::vector<JobError> notes; ///< what every answer about the comparison says with it (Job::Result::notes)
    };

    McpServer(Console& console, std::string version);

    /// The core's tools, in the order tools/list gives them: open_job, diff, findings, ranks, stack, top, what_if,
    /// info, steps.
    void addCoreTools();
    void addTool(Tool tool);
    /// Answers requests until the input ends; returns the exit status (0).
    int run();
    /// One message (a request or a notification): the response, or nullopt where none is sent.
    std::optional<Json> handle(const Json& message);

    /// The job `arguments["job"]` names; throws ToolError for an unknown one.
    OpenJob& job(const Json& arguments);
    /// The job's last comparison, made with the default options when the agent has not asked for a diff yet.
    ComparisonPtr comparison(OpenJob& job);
    /// For a tool's load: false once the request was cancelled.
    Job::Progress progress() const;

    static constexpr int MaxJobs = 8;
    /// The most characters of text a tool answers with: an agent holds a few such answers beside its own work.
    /// Lists page (offset, limit, next) and a diff is a summary unless asked for in full.
    static constexpr size_t TextBudget = 8000;

private:
    Json callTool(const Json& params);
    Json toolResult(const Result& result) const;
    Result openJob(const Json& arguments);
    Result diff(const Json& arguments);
    Result findings(const Json& arguments);
    Result ranks(const Json& arguments);
    Result stack(const Json& arguments);
    Result top(const Json& arguments, bool whatIfOnly);
    Result info(const Json& arguments);
    Result steps(const Json& arguments);
    void load(Job& job);
    /// The paths a tool was given, relative ones resolved against the folder the server started in.
    QStringList paths(const Json& arguments, const char* name = "paths") const;
    /// Which comparison an answer belongs to: job, point, my_code, threshold, baseline, step, the comparison's notes
    /// in the tools' words, and, for an answer about rank `rankIndex` that lacks the point, where it is instead.
    static Json compared(
        const OpenJob& open, const Comparison& comparison, const std::vector<JobError>& notes, int rankIndex = -1);
    static std::string comparedText(const Json& compared);
    void write(const Json& message);

    Console& m_console;
    std::string m_version;
    std::vector<Tool> m_tools;
    std::map<std::string, OpenJob> m_jobs;
    std::vector<std::string> m_jobOrder; ///< oldest first: the oldest is closed when a ninth opens
    int m_nextJob = 1;
    std::atomic<bool> m_cancel = false;
    QString m_folder; ///< where the server started: relative paths are resolved against it
};

/// The memory gate's tool (mcpgate.cpp), which every server offers after the core's.
void addGateTool(McpServer& server);

/// The `mcp` command: refuses files, serves the core's tools and those `moreTools` adds until the input ends.
int runMcpServer(CommandLine& cl, const std::function<void(McpServer&)>& moreTools = {});

} // namespace RankScope::Cli
