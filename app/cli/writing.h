// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"
#include "diffsheet.h"
#include "excesstree.h"
#include "job.h"
#include "timelineview.h"

#include <QSize>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace RankScope {
class RankListModel;
}

namespace RankScope::Cli {

/// What the commands that draw (export, report, the MCP server's export_picture) are asked to draw.
struct Picture
{
    DiffSheet::View view = DiffSheet::Diff;
    TimelineView::BandColoring coloring = TimelineView::ColorByAllocation;
    std::optional<ExcessTree::Scope> scope;
    int rankA = -1; ///< -1: the verdict's rank
    int rankB = -1; ///< -1: the rank closest to the baseline
    int finding = -1; ///< index into the findings; -1: Comparison::findingToShow of the ranks drawn
    QSize size { 1600, 1000 };
    double scale = 2;
};

/// What a picture shows: ranks A and B and the finding outlined (-1: none).
struct PictureChoice
{
    int rankA = -1;
    int rankB = -1;
    int finding = -1;
};

/// The ranks and finding `picture` asks for, defaults filled in: A the verdict's rank, or the rank of the finding
/// asked for; the finding rank A's largest (else B's). nullopt with `error` set (naming the option as the command
/// line does: --ranks, --finding) for ranks or a finding the comparison does not have, or a finding of a rank the
/// picture does not show.
std::optional<PictureChoice> choosePicture(const Comparison& comparison, const Picture& picture, std::string& error);

/// Draws the chosen view of a job's comparison with the same widgets as the window, into `ranks` and the sheet
/// returned (what choosePicture chooses); null with `error` set where choosePicture refuses or the views took too
/// long.
std::unique_ptr<DiffSheet> drawSheet(
    const Job& job, const ComparisonPtr& comparison, const Picture& picture, RankListModel& ranks, std::string& error);

/// The steps export and report share: parse the options, check the output's name, load and compare, refuse to replace
/// files without --force, draw the sheet, write. `badName` returns a message for an unusable output name (else
/// empty); `outputs` lists every file the command will write; `write` writes them and returns an error or "".
int runWriting(CommandLine& cl, const std::function<std::string(const QString&)>& badName,
    const std::function<QStringList(const QString&)>& outputs,
    const std::function<QString(DiffSheet&, const Comparison&, const QString& out, double scale)>& write);

/// The options of export and report.
void addOutputOptions(CommandLine& cl, const char* outDescription);

// The commands that draw:
extern const Command exportCommand;
extern const Command reportCommand;
/// The MCP server with every tool, export_picture too.
extern const Command mcpDrawingCommand;

/// Every command the `rankscope` executable has.
const std::vector<const Command*>& allCommands();

} // namespace RankScope::Cli
