// SPDX-License-Identifier: MIT
#include "commands.h"
#include "mcpserver.h"

#include <QCoreApplication>

namespace RankScope::Cli {

int runMcpServer(CommandLine& cl, const std::function<void(McpServer&)>& moreTools)
{
    if (!cl.positional().isEmpty())
        return cl.fail("takes no files: an agent opens them with open_job");
    McpServer server(cl.console(), QCoreApplication::applicationVersion().toStdString());
    server.addCoreTools();
    addGateTool(server);
    if (moreTools)
        moreTools(server);
    return server.run();
}

namespace McpCommand {

int run(CommandLine& cl)
{
    return runMcpServer(cl);
}

} // namespace McpCommand

const Command mcpCommand { "mcp", "", "a Model Context Protocol server on stdio, for coding agents",
    "A Model Context Protocol server over stdio (JSON-RPC 2.0, one message a line): an agent opens a job's rank\n"
    "files (open_job) and asks for the verdict (diff), the findings and their stacks, what fills a GPU (top) and\n"
    "the peaks without each site (what_if), snapshot figures (info), step reports (steps) and the job gated\n"
    "against a baseline (gate). Register it with an agent client as the command `rankscope mcp`. Logs go to\n"
    "stderr; files are only read.",
    false, nullptr, McpCommand::run };

} // namespace RankScope::Cli
