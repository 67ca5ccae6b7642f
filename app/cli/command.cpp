// SPDX-License-Identifier: MIT
#include "command.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace RankScope::Cli {

void Console::out(std::string_view text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
}

void Console::err(std::string_view text)
{
    std::fwrite(text.data(), 1, text.size(), stderr);
}

void Console::flush()
{
    std::fflush(stdout);
}

std::istream& Console::in()
{
    return std::cin;
}

StringConsole::StringConsole(const std::string& input)
    : m_input(std::make_unique<std::istringstream>(input))
{ }

StringConsole::~StringConsole() = default;

void StringConsole::out(std::string_view text)
{
    output += text;
}

void StringConsole::err(std::string_view text)
{
    errors += text;
}

std::istream& StringConsole::in()
{
    return *m_input;
}

CommandLine::CommandLine(std::string program, const Command& command, Console& console)
    : m_program(std::move(program))
    , m_command(command.name)
    , m_synopsis(command.synopsis)
    , m_about(command.about)
    , m_console(console)
{
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    m_parser.addOption({ { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help.") });
    if (command.options)
        command.options(*this);
}

void CommandLine::add(const QStringList& names, const char* description, const char* valueName)
{
    m_parser.addOption({ names, QString::fromUtf8(description), QString::fromUtf8(valueName) });
}

void CommandLine::addWithOptionalValue(const QStringList& names, const char* description)
{
    add(names, description);
    m_optionalValue += names;
}

std::optional<int> CommandLine::parse(const QStringList& given)
{
    // QCommandLineParser's flags take no value: "--my-code=a,b" is the flag, its value kept here.
    QStringList args;
    bool options = true;
    for (const QString& arg : given) {
        options = options && arg != QLatin1String("--");
        const qsizetype equals = arg.indexOf(QLatin1Char('='));
        const QString name = arg.startsWith(QLatin1String("--")) ? arg.mid(2, equals - 2) : arg.mid(1, equals - 1);
        if (options && arg.startsWith(QLatin1Char('-')) && equals > 0 && m_optionalValue.contains(name)) {
            for (const QString& n : m_optionalValue)
                m_optionalValues[n] = arg.mid(equals + 1);
            args << QStringLiteral("--") + name;
        } else {
            args << arg;
        }
    }
    if (!m_parser.parse(QStringList { QString::fromStdString(m_program) } + args)) {
        // The parser's own words ("Unknown option 'x'.") name the option as the user typed it.
        QString message = m_parser.errorText();
        if (message.endsWith(QLatin1Char('.')))
            message.chop(1);
        return fail(message.toStdString());
    }
    if (m_parser.isSet(QStringLiteral("help"))) {
        m_console.out(help());
        return 0;
    }
    return std::nullopt;
}

int CommandLine::fail(const std::string& message) const
{
    // One line that says what is wrong, and where the help is: the whole help would scroll that line away.
    m_console.err(prefix() + message + "\n(" + m_program + " " + m_command + " --help: its options)\n");
    return 2;
}

std::string CommandLine::help() const
{
    const QString options = m_parser.helpText();
    return "Usage: " + m_program + " " + m_command + (m_synopsis.empty() ? "" : " " + m_synopsis) + "\n\n" + m_about
        + "\n\n" + options.mid(options.indexOf(QLatin1String("Options:"))).toStdString();
}

bool CommandLine::isSet(const char* name) const
{
    return m_parser.isSet(QString::fromLatin1(name));
}

QString CommandLine::value(const char* name) const
{
    if (const auto it = m_optionalValues.find(QString::fromLatin1(name)); it != m_optionalValues.end())
        return it->second;
    return m_optionalValue.contains(QString::fromLatin1(name)) ? QString() : m_parser.value(QString::fromLatin1(name));
}

QStringList CommandLine::values(const char* name) const
{
    return m_parser.values(QString::fromLatin1(name));
}

QStringList CommandLine::positional() const
{
    return m_parser.positionalArguments();
}

bool mayWrite(const CommandLine& cl, const QString& path, bool force)
{
    if (force || !QFileInfo::exists(path))
        return true;
    cl.console().err(cl.prefix() + path.toStdString() + " exists; add --force to replace it\n");
    return false;
}

QStringList names(const char* a, const char* b)
{
    QStringList list { QString::fromLatin1(a) };
    if (b)
        list.append(QString::fromLatin1(b));
    return list;
}

Commands::Commands(std::vector<const Command*> commands, std::string program, bool window)
    : m_commands(std::move(commands))
    , m_program(std::move(program))
    , m_window(window)
{ }

const Command* Commands::find(const QString& name) const
{
    const auto it = std::find_if(
        m_commands.begin(), m_commands.end(), [&](const Command* c) { return name == QLatin1String(c->name); });
    return it == m_commands.end() ? nullptr : *it;
}

bool Commands::isCommand(const QStringList& arguments) const
{
    if (arguments.size() < 2)
        return !m_window; // without the window, no arguments asks for the usage
    const QString& first = arguments[1];
    return find(first) || first == QLatin1String("--help") || first == QLatin1String("-h")
        || first == QLatin1String("help") || first == QLatin1String("--version");
}

bool Commands::draws(const QStringList& arguments) const
{
    const Command* command = find(arguments.value(1));
    return command && command->draws;
}

int Commands::run(const QStringList& arguments, Console& console) const
{
    QString name = arguments.value(1);
    QStringList rest = arguments.mid(2);
    // "help diff" is "diff --help".
    if (name == QLatin1String("help") && find(rest.value(0))) {
        name = rest.value(0);
        rest = { QStringLiteral("--help") };
    }
    if (const Command* command = find(name)) {
        CommandLine cl(m_program, *command, console);
        if (const std::optional<int> code = cl.parse(rest))
            return *code;
        return command->run(cl);
    }
    if (!m_window && name.isEmpty()) {
        console.err(usage());
        return 2;
    }
    if (!m_window && (name == QLatin1String("export") || name == QLatin1String("report"))) {
        console.err(m_program + ": " + name.toStdString()
            + " draws with the window's widgets: it is a command of rankscope, the desktop build, not of this one\n");
        return 2;
    }
    if (name == QLatin1String("--version")) {
        console.out(m_program + " " + QCoreApplication::applicationVersion().toStdString() + "\n");
        return 0;
    }
    const bool asked = name.isEmpty() || name == QLatin1String("--help") || name == QLatin1String("-h")
        || name == QLatin1String("help");
    if (!asked) {
        console.err(m_program + ": " + name.toStdString() + " is not a command\n\n" + usage());
        return 2;
    }
    console.out(usage());
    return 0;
}

std::string Commands::usage() const
{
    // The synopsis is folded at its options so that each line stays under 80 columns; the summary goes below it.
    const std::string indent = "  ";
    std::string text = "Usage:\n";
    if (m_window)
        text += indent + m_program + " [FILE|FOLDER...]\n" + indent + "    open the snapshots in the desktop app\n";
    for (const Command* c : m_commands) {
        // The first form of the synopsis whole, folded at 80 columns under the command's name.
        std::string synopsis = c->synopsis;
        if (const auto other = synopsis.find("\n       " + std::string("rankscope")); other != std::string::npos)
            synopsis.resize(other);
        std::string line = indent + m_program + " " + c->name;
        const size_t hang = line.size() + 1;
        for (const QString& word :
            QString::fromStdString(synopsis).simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (line.size() + 1 + size_t(word.size()) > 80) {
                text += line + "\n";
                line = std::string(hang, ' ') + word.toStdString();
            } else {
                line += " " + word.toStdString();
            }
        }
        text += line;
        text += "\n" + indent + "    ";
        text += std::string(c->summary) + "\n";
    }
    text += indent + m_program + " --help | --version\n" + indent + m_program + " COMMAND --help\n" + indent
        + "    one command's options, and what they mean\n"
        + "\nFILE is a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot): pickle\n"
          "or JSON, optionally gzip-compressed, or a digest of one (rankscope digest).\n"
          "Folders are searched for snapshot files. Ranks come from the file names\n"
          "(rank3_..., memory_trace_3, ...) or else the order given; a folder of several\n"
          "training steps is compared one step at a time.\n";
    return text;
}

} // namespace RankScope::Cli
