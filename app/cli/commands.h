// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"

namespace RankScope::Cli {

// One file each. The core's commands:
extern const Command infoCommand;
extern const Command diffCommand;
extern const Command topCommand;
extern const Command stepsCommand;
extern const Command digestCommand;
extern const Command gateCommand;
/// The MCP server with the core's tools (every tool but export_picture).
extern const Command mcpCommand;

} // namespace RankScope::Cli
