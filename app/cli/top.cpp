// SPDX-License-Identifier: MIT
#include "commands.h"
#include "diffreport.h"
#include "joboptions.h"

namespace RankScope::Cli {

namespace TopCommand {

void options(CommandLine& cl)
{
    addComparisonOptions(cl);
    cl.add(names("by"), "List sites (default) or categories.", "site|category");
    cl.add(names("rank"), "The rank to look at (default: the rank the verdict is about).", "N");
    cl.add(names("sites"), "How many sites to list, each with its peak without it (default 20).", "N");
    cl.add(names("json"), "Print JSON.");
}

int run(CommandLine& cl)
{
    JobRequest request;
    if (const std::string error = readComparisonOptions(cl, request); !error.empty())
        return cl.fail(error);
    const QString by = cl.value("by");
    if (cl.isSet("by") && by != QLatin1String("site") && by != QLatin1String("category"))
        return cl.fail("--by needs site or category");
    bool ok = true;
    const int sites = cl.isSet("sites") ? cl.value("sites").toInt(&ok) : 20;
    if (!ok || sites < 1)
        return cl.fail("--sites needs a number, 1 or more");
    const int wanted = cl.isSet("rank") ? cl.value("rank").toInt(&ok) : -1;
    if (!ok || (cl.isSet("rank") && wanted < 0))
        return cl.fail("--rank needs a rank number");
    const OpenedJob opened = openJob(cl, cl.positional(), request);
    if (!opened.error.empty())
        return cl.fail(opened.error);
    if (!opened.comparison)
        return opened.statusWithoutComparison();
    const Comparison& c = *opened.comparison;
    const std::optional<RankHoldings> holdings = c.holdingsFor(wanted, size_t(sites));
    if (!holdings)
        return cl.fail("--rank " + std::to_string(wanted) + ": no such rank among the files");
    const RankSummary& r = c.ranks()[size_t(c.rankIndex(holdings->rank))];
    if (!r.note.empty())
        cl.console().err("note: rank " + std::to_string(r.rank) + " " + r.note.english() + "\n");
    const DiffReport::By order = by == QLatin1String("category") ? DiffReport::By::Category : DiffReport::By::Site;
    cl.console().out(cl.isSet("json") ? DiffReport::topJson(c, *holdings, order)
                                      : DiffReport::topText(c, *holdings, order, size_t(sites)));
    return opened.failures ? 1 : 0;
}

} // namespace TopCommand

const Command topCommand { "top",
    "[--at POINT] [--by site|category] [--rank N] [--sites N] [--json] [diff options]\n"
    "       FILE|FOLDER...",
    "what fills a rank's GPU at a point, and the peak without each site",
    "What fills a rank's GPU at a point: the sites (or categories) holding memory there, with bytes, allocations\n"
    "and category, and the peak the rank would have reached had each one's allocations not been made (the trace\n"
    "replayed without them; a failed request counts as allocated at its OOM). One file, or the rank the verdict\n"
    "of a job is about, at its OOM when the verdict is about one (else at the point compared); --rank and --at\n"
    "choose another.",
    false, TopCommand::options, TopCommand::run };

} // namespace RankScope::Cli
