// SPDX-License-Identifier: MIT
#include "commands.h"

namespace RankScope::Cli {

const std::vector<const Command*>& coreCommands()
{
    static const std::vector<const Command*> commands = { &infoCommand, &diffCommand, &topCommand, &stepsCommand,
        &digestCommand, &gateCommand, &mcpCommand };
    return commands;
}

} // namespace RankScope::Cli
