// SPDX-License-Identifier: MIT
#include "writing.h"

namespace RankScope::Cli {

namespace ReportCommand {

void options(CommandLine& cl)
{
    addOutputOptions(cl, "The report to write: .html or .md.");
}

int run(CommandLine& cl)
{
    return runWriting(
        cl,
        [](const QString& out) {
            return DiffSheet::isReportPath(out) ? std::string() : std::string("use a .html or .md file name");
        },
        // Markdown cannot hold the picture: it goes next to the report, named after it.
        [](const QString& out) {
            const QString image = DiffSheet::reportImagePath(out);
            return image.isEmpty() ? QStringList { out } : QStringList { out, image };
        },
        [](DiffSheet& sheet, const Comparison& comparison, const QString& out, double scale) {
            return sheet.writeReport(comparison, out, scale);
        });
}

} // namespace ReportCommand

const Command reportCommand { "report", "--out FILE.html|.md [--force] [export and diff options] FILE|FOLDER...",
    "a bug report: verdict, ranks, findings with stacks, the diff picture",
    "Verdict, ranks, top findings with stacks and the diff picture, for a bug report: one HTML file with the\n"
    "picture embedded, or Markdown with the picture next to it. Exit status 4: the output could not be written.",
    true, ReportCommand::options, ReportCommand::run };

} // namespace RankScope::Cli
