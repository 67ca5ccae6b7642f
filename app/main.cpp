// SPDX-License-Identifier: MIT
#include "appearance.h"
#include "command.h"
#include "mainwindow.h"
#include "parallel.h"
#include "writing.h"

#include <QApplication>
#include <QCoreApplication>
#include <QIcon>

#include <cstdio>

int main(int argc, char** argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));

    const RankScope::Cli::Commands commands(RankScope::Cli::allCommands(), "rankscope", true);
    RankScope::Cli::Console console;
    if (commands.draws(arguments)) {
        // Drawing without a display: always offscreen unless told otherwise, so pictures come out the same on a
        // laptop, a login node and in CI.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        // The offscreen platform's chatter about window hints is not the user's business on a terminal.
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext& context, const QString& message) {
            if (type == QtDebugMsg || message.contains(QLatin1String("propagateSizeHints"))
                || message.startsWith(QLatin1String("QStandardPaths:")))
                return;
            std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
        });
        QApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("rankscope"));
        QCoreApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));
        const int code = commands.run(arguments, console);
        RankScope::Parallel::finish();
        return code;
    }
    if (commands.isCommand(arguments)) {
        // Headless: no display connection is opened, so this works on a cluster login node or in CI.
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("rankscope"));
        QCoreApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));
        const int code = commands.run(arguments, console);
        RankScope::Parallel::finish();
        return code;
    }

    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("RankScope"));
    QCoreApplication::setApplicationName(QStringLiteral("RankScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.rankscope.RankScope"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/rankscope-256.png")));
    RankScope::Appearance::restore();

    int code = 0;
    {
        RankScope::MainWindow window;
        window.show();
        if (arguments.size() > 1)
            window.openPaths(arguments.mid(1));
        code = app.exec();
    }
    RankScope::Parallel::finish(); // the closed window's jobs may still be running
    return code;
}
