// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace RankScope {

/// The headless commands (`rankscope info …`). They need no display and print to stdout/stderr.
namespace Cli {
/// True when the arguments name a command rather than files for the GUI.
bool isCommand(const QStringList& arguments);
/// True for the commands that draw (export, report): they need a QApplication, on the offscreen platform.
bool needsWidgets(const QStringList& arguments);
/// Runs the command; returns the process exit code (0 success, 1 a file failed, 2 usage error).
int run(const QStringList& arguments);
} // namespace Cli

} // namespace RankScope
