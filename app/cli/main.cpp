// SPDX-License-Identifier: MIT
// rankscope-cli: the commands that need only the core, for machines without the GUI libraries (a cluster's compute
// nodes, CI). It links no Qt Gui, Widgets or QCustomPlot; the tests check that.
#include "command.h"
#include "parallel.h"

#include <QCoreApplication>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("rankscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));
    const RankScope::Cli::Commands commands(RankScope::Cli::coreCommands(), "rankscope-cli", false);
    RankScope::Cli::Console console;
    const int code = commands.run(QCoreApplication::arguments(), console);
    RankScope::Parallel::finish();
    return code;
}
