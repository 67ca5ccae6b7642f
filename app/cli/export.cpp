// SPDX-License-Identifier: MIT
#include "imageexport.h"
#include "writing.h"

namespace RankScope::Cli {

namespace ExportCommand {

void options(CommandLine& cl)
{
    addOutputOptions(cl, "The picture to write: .png, .svg or .pdf.");
}

int run(CommandLine& cl)
{
    return runWriting(
        cl,
        [](const QString& out) {
            return ImageExport::formatOf(out) == ImageExport::Unknown
                ? std::string("use a .png, .svg or .pdf file name")
                : std::string();
        },
        [](const QString& out) { return QStringList { out }; },
        [](DiffSheet& sheet, const Comparison&, const QString& out, double scale) {
            return ImageExport::save(&sheet, out, scale);
        });
}

} // namespace ExportCommand

const Command exportCommand { "export",
    "--out FILE.png|.svg|.pdf [--view diff|timelines|blockmaps|overview|flame]\n"
    "       [--scope excess|everything] [--colour allocation|site|category] [--ranks A,B] [--finding N]\n"
    "       [--size WxH] [--scale S] [--force] [diff options] FILE|FOLDER...",
    "draw the comparison as the app shows it",
    "Draws the comparison as the app shows it: PNG, SVG or PDF, with no display. Ranks A and B default to the\n"
    "verdict's rank and the rank closest to the baseline; N counts findings from 1 (the largest, the default).\n"
    "Pictures are 1600x1000 at scale 2 unless told otherwise. An existing file is only replaced with --force;\n"
    "exit status 4 when the output could not be written.",
    true, ExportCommand::options, ExportCommand::run };

} // namespace RankScope::Cli
