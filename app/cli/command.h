// SPDX-License-Identifier: MIT
#pragma once

#include <QCommandLineParser>
#include <QStringList>

#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace RankScope::Cli {

struct Command;

/// Where a command writes and what it reads: the process's streams, or strings in a test that runs the command in
/// the same process.
class Console
{
public:
    virtual ~Console() = default;
    virtual void out(std::string_view text);
    virtual void err(std::string_view text);
    /// Sends what was written on: a reader waiting for an answer (the MCP server's client) gets it now.
    virtual void flush();
    /// Standard input (the MCP server reads its requests from it).
    virtual std::istream& in();
};

/// A Console that keeps what a command writes and reads from a string.
class StringConsole : public Console
{
public:
    explicit StringConsole(const std::string& input = {});
    ~StringConsole() override;
    void out(std::string_view text) override;
    void err(std::string_view text) override;
    std::istream& in() override;

    std::string output;
    std::string errors;

private:
    std::unique_ptr<std::istringstream> m_input;
};

/// One command's command line, read the same way for every command: `--help` prints the command's help, a usage
/// error prints "rankscope CMD: what is wrong" and that help and exits with 2.
class CommandLine
{
public:
    CommandLine(std::string program, const Command& command, Console& console);

    /// An option; `valueName` empty for a flag.
    void add(const QStringList& names, const char* description, const char* valueName = "");
    /// A flag that may carry a value after '=' (`--my-code` or `--my-code=a,b`): value() gives it, or "" without.
    void addWithOptionalValue(const QStringList& names, const char* description);
    /// Reads the arguments after the command's name; nullopt to go on, else the exit code (0 after --help).
    std::optional<int> parse(const QStringList& args);
    /// Prints "rankscope CMD: message" and the help on stderr; returns 2.
    int fail(const std::string& message) const;
    std::string help() const;

    bool isSet(const char* name) const;
    QString value(const char* name) const;
    QStringList values(const char* name) const;
    QStringList positional() const;

    Console& console() const
    {
        return m_console;
    }
    /// "rankscope diff: ", what each line a command prints about itself begins with.
    std::string prefix() const
    {
        return m_program + " " + m_command + ": ";
    }

private:
    std::string m_program;
    std::string m_command;
    std::string m_synopsis;
    std::string m_about;
    QCommandLineParser m_parser;
    Console& m_console;
    /// Options that take an optional value, and the values given after '=' (by each of the option's names).
    QStringList m_optionalValue;
    std::map<QString, QString> m_optionalValues;
};

/// Refuses to replace a file unless `force`: says so on stderr ("rankscope CMD: PATH exists; add --force …").
bool mayWrite(const CommandLine& cl, const QString& path, bool force);

/// One or two names of an option, as QCommandLineOption takes them.
QStringList names(const char* a, const char* b = nullptr);

/// One command of `rankscope CMD …`: the table the usage text, `--help`, dispatch and the tests read.
struct Command
{
    const char* name;
    /// After "rankscope NAME" in the usage and the help: the options in short and the operands.
    const char* synopsis;
    /// One line for the usage text.
    const char* summary;
    /// The help's paragraph: what the command does, and what its options mean together.
    const char* about;
    /// Draws with the window's widgets (needs the GUI libraries and a QApplication, on the offscreen platform).
    bool draws;
    /// Adds the command's options.
    void (*options)(CommandLine& cl);
    /// Runs it once the options are parsed; returns the exit status.
    int (*run)(CommandLine& cl);
};

/// The commands that need only the core: info, diff, top, steps, digest, mcp.
const std::vector<const Command*>& coreCommands();

/// A set of commands, and running them.
class Commands
{
public:
    /// `program`: the executable's name; `window`: whether it opens files in the desktop app too.
    Commands(std::vector<const Command*> commands, std::string program, bool window);

    const std::vector<const Command*>& all() const
    {
        return m_commands;
    }
    const Command* find(const QString& name) const;
    /// True when the arguments (argv, the program first) name a command or ask for help or the version, rather than
    /// files for the window.
    bool isCommand(const QStringList& arguments) const;
    /// True when the arguments name a command that draws.
    bool draws(const QStringList& arguments) const;
    /// Runs the command the arguments name (argv, the program first); returns the exit status.
    int run(const QStringList& arguments, Console& console) const;
    std::string usage() const;

private:
    std::vector<const Command*> m_commands;
    std::string m_program;
    bool m_window = false;
};

} // namespace RankScope::Cli
