// SPDX-License-Identifier: MIT
#include "cli.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCoreApplication>

int main(int argc, char** argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));

    if (RankScope::Cli::isCommand(arguments)) {
        // Headless: no display connection is opened, so this works on a cluster login node or in CI.
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("rankscope"));
        QCoreApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));
        return RankScope::Cli::run(arguments);
    }

    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("RankScope"));
    QCoreApplication::setApplicationName(QStringLiteral("RankScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.rankscope.RankScope"));

    RankScope::MainWindow window;
    window.show();
    if (arguments.size() > 1)
        window.openPaths(arguments.mid(1));
    return app.exec();
}
