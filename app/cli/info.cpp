// SPDX-License-Identifier: MIT
#include "commands.h"
#include "infoformat.h"
#include "job.h"
#include "joboptions.h"
#include "loadedfile.h"
#include "rankfiles.h"

namespace RankScope::Cli {

namespace InfoCommand {

void options(CommandLine& cl)
{
    cl.add(names("json"), "Print JSON: {\"files\":[{\"path\",\"rank\",\"devices\":[...]}]}.");
}

int run(CommandLine& cl)
{
    const bool json = cl.isSet("json");
    const RankFiles::Scan scan = RankFiles::scan(cl.positional());
    for (const Phrase& note : Job::scanNotes(scan))
        cl.console().err("note: " + note.english() + "\n");
    // A folder of several jobs, or a search stopped at its file limit: refused as diff and gate refuse it.
    if (const JobError refused = Job::scanError(scan); !refused.empty())
        return cl.fail(optionError(refused));
    const QStringList& paths = scan.files;
    if (paths.isEmpty())
        return cl.fail("no snapshot files given");
    std::vector<FileInfoEntry> entries;
    int failures = 0;
    for (const LoadedFile& file : LoadedFile::loadAll(paths)) {
        if (!file.note.isEmpty())
            cl.console().err("warning: " + file.path.toStdString() + ": " + file.note.toStdString() + "\n");
        if (file.isEmpty())
            cl.console().err("note: " + file.path.toStdString() + ": " + LoadedFile::emptyNote().toStdString() + "\n");
        if (!file.ok()) {
            ++failures;
            cl.console().err(file.path.toStdString() + ": " + file.error.toStdString() + "\n");
        }
        entries.push_back(FileInfoEntry::of(file));
    }
    cl.console().out(json ? InfoFormat::json(entries) : InfoFormat::text(entries));
    return failures ? 1 : 0;
}

} // namespace InfoCommand

const Command infoCommand { "info", "[--json] FILE|FOLDER...", "print per-device figures of each snapshot",
    "Per-device figures of each snapshot, summed as PyTorch defines them.", false, InfoCommand::options,
    InfoCommand::run };

} // namespace RankScope::Cli
