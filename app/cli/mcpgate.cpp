// SPDX-License-Identifier: MIT
#include "gatereport.h"
#include "mcpserver.h"

namespace RankScope::Cli {

namespace McpGate {

using Json = McpServer::Json;

// gate: an open job against a baseline's files or digests, as `rankscope gate` answers.
McpServer::Result gate(McpServer& server, const Json& args)
{
    McpServer::OpenJob& open = server.job(args);
    const Json& paths = args.value("baseline", Json());
    QStringList baselinePaths;
    if (paths.is_array()) {
        for (const Json& p : paths) {
            if (p.is_string())
                baselinePaths << QString::fromStdString(p.get<std::string>());
        }
    }
    if (baselinePaths.isEmpty() || baselinePaths.size() != qsizetype(paths.size()))
        throw ToolError("baseline needs the baseline job's files or folders (snapshots or digests), as strings");
    GateOptions options;
    if (const Json& t = args.value("tolerance_percent", Json()); !t.is_null()) {
        if (!t.is_number() || t.get<double>() < 0)
            throw ToolError("tolerance_percent needs a per cent, 0 or more");
        options.tolerancePercent = t.get<double>();
    }
    if (const Json& m = args.value("min_bytes", Json()); !m.is_null()) {
        if (!m.is_number_integer() || m.get<int64_t>() < 0)
            throw ToolError("min_bytes needs a whole number of bytes, 0 or more");
        options.minBytes = m.get<int64_t>();
    }
    Job baseline(baselinePaths);
    if (!baseline.error().empty())
        throw ToolError("baseline " + baseline.error().text());
    baseline.load(server.progress());
    if (baseline.wasCancelled())
        throw ToolError("cancelled");
    open.job.load(server.progress());
    const Gate::Side base = Gate::sideOf(baseline);
    const Gate::Side now = Gate::sideOf(open.job);
    if (!now.digests.empty())
        throw ToolError(
            now.digests.front() + " is a digest; the job gated must be snapshots, the baseline may be digests");
    std::string problems;
    for (const std::string& line : baseline.messages())
        problems += line + "\n";
    for (const std::string& error : base.errors)
        problems += error + "\n";
    if (base.inputs.empty() || now.inputs.empty())
        throw ToolError(
            problems + (base.inputs.empty() ? "no baseline rank could be read" : "no rank of the job could be read"));
    const GateResult result = Gate::run(base, now, options);
    McpServer::Result r;
    r.structured = Json::parse(GateReport::json(result));
    r.text = GateReport::text(result) + problems;
    return r;
}

} // namespace McpGate

void addGateTool(McpServer& server)
{
    using Json = McpServer::Json;
    const Json number = { { "type", "integer" } };
    const Json objects = { { "type", "array" }, { "items", { { "type", "object" } } } };
    server.addTool({ "gate", "Gate a job against its baseline",
        "Whether any rank of an open job holds more memory than the same rank of a baseline job (its snapshots or "
        "digests from `rankscope digest`), across the aligned training step, not only at the peak: per rank the "
        "peak before and after, the largest growth at the same moment of the step and when, and what grew, "
        "appeared or disappeared there by site (with stacks) and category. passed is false when a growth is beyond "
        "tolerance_percent of the baseline rank's peak (default 2) and beyond min_bytes (default 16 MiB): a CI gate.",
        { { "type", "object" },
            { "properties",
                { { "job", { { "type", "string" }, { "description", "The job id open_job returned: the new run." } } },
                    { "baseline",
                        { { "type", "array" }, { "items", { { "type", "string" } } },
                            { "description", "The baseline's files or folders (snapshots or digests)." } } },
                    { "tolerance_percent",
                        { { "type", "number" }, { "description", "Per cent of the baseline rank's peak (2)." } } },
                    { "min_bytes",
                        { { "type", "integer" }, { "description", "Bytes a growth must exceed (16 MiB)." } } } } },
            { "required", { "job", "baseline" } } },
        { { "type", "object" },
            { "properties",
                { { "passed", { { "type", "boolean" } } },
                    { "regressed_ranks", { { "type", "array" }, { "items", number } } }, { "ranks", objects },
                    { "sites", objects } } },
            { "required", { "passed", "regressed_ranks", "ranks", "sites" } } },
        [&server](const Json& args) { return McpGate::gate(server, args); } });
}

} // namespace RankScope::Cli
