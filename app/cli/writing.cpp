// SPDX-License-Identifier: MIT
#include "writing.h"

#include "commands.h"
#include "joboptions.h"
#include "ranklistmodel.h"

namespace RankScope::Cli {

namespace {

struct Output
{
    QString out;
    bool force = false;
    Picture picture;
};

// Returns what is wrong with the output options given, or "".
std::string readOutputOptions(const CommandLine& cl, Output& o)
{
    Picture& p = o.picture;
    o.out = cl.value("out");
    if (cl.isSet("out") && o.out.isEmpty())
        return "--out needs a file name";
    o.force = cl.isSet("force");
    if (cl.isSet("view")) {
        const auto view = DiffSheet::parseView(cl.value("view"));
        if (!view)
            return "--view needs diff, timelines, blockmaps, overview or flame";
        p.view = *view;
    }
    if (cl.isSet("scope")) {
        if (cl.value("scope") != QLatin1String("excess") && cl.value("scope") != QLatin1String("everything"))
            return "--scope needs excess or everything";
        p.scope = cl.value("scope") == QLatin1String("excess") ? ExcessTree::Excess : ExcessTree::Everything;
    }
    if (cl.isSet("colour")) {
        const auto coloring = TimelineView::parseColoring(cl.value("colour"));
        if (!coloring)
            return "--colour needs allocation, site or category";
        p.coloring = *coloring;
    }
    if (cl.isSet("ranks")) {
        const QStringList pair = cl.value("ranks").split(QLatin1Char(','));
        bool okA = false, okB = pair.size() < 2;
        p.rankA = pair.value(0).toInt(&okA);
        p.rankB = pair.size() > 1 ? pair[1].toInt(&okB) : -1;
        if (!okA || !okB || pair.size() > 2 || p.rankA == p.rankB)
            return "--ranks needs one or two different rank numbers, such as 0,3";
    }
    if (cl.isSet("finding")) {
        bool ok = false;
        p.finding = cl.value("finding").toInt(&ok) - 1;
        if (!ok || p.finding < 0)
            return "--finding needs a finding number, 1 for the largest";
    }
    if (cl.isSet("size")) {
        const QStringList wh = cl.value("size").split(QLatin1Char('x'));
        bool okW = false, okH = false;
        p.size = QSize(wh.value(0).toInt(&okW), wh.value(1).toInt(&okH));
        if (!okW || !okH || wh.size() != 2 || p.size.width() < 200 || p.size.height() < 150 || p.size.width() > 10000
            || p.size.height() > 10000)
            return "--size needs WIDTHxHEIGHT in pixels, such as 1600x1000 (200x150 to 10000x10000)";
    }
    if (cl.isSet("scale")) {
        bool ok = false;
        p.scale = cl.value("scale").toDouble(&ok);
        if (!ok || p.scale < 0.5 || p.scale > 4)
            return "--scale needs a factor from 0.5 to 4, such as 2";
    }
    return {};
}

} // namespace

void addOutputOptions(CommandLine& cl, const char* outDescription)
{
    cl.add(names("o", "out"), outDescription, "FILE");
    cl.add(names("force"), "Replace the output if it exists.");
    cl.add(names("view"), "What to draw: diff (default), timelines, blockmaps, overview or flame (rank A by frame).",
        "VIEW");
    cl.add(names("scope"),
        "What the flame graph shows of rank A: excess (beyond its baseline) or everything (at the point); default: "
        "its excess where it has any, else everything.",
        "excess|everything");
    cl.add(names("colour", "color"),
        "What the timelines' colours say: allocation (each its own, the default), site or category.", "BY");
    cl.add(names("ranks"), "Ranks A and B (default: the verdict's rank and the rank closest to the baseline).", "A,B");
    cl.add(names("finding"),
        "The finding to outline, counting from 1 (the largest); its rank is drawn as A unless --ranks says otherwise. "
        "Default: rank A's largest finding.",
        "N");
    cl.add(names("size"), "The page in pixels (default 1600x1000); one too low for the views it shows grows taller.",
        "WxH");
    cl.add(names("scale"), "Pixels per page pixel in PNG (default 2).", "S");
    addComparisonOptions(cl);
}

std::optional<PictureChoice> choosePicture(const Comparison& c, const Picture& p, std::string& error)
{
    const auto [defaultA, defaultB] = c.defaultPair();
    if (p.finding >= int(c.findings().size())) {
        error = "--finding " + std::to_string(p.finding + 1) + ": there are only " + std::to_string(c.findings().size())
            + " findings";
        return std::nullopt;
    }
    // The picture outlines a finding it shows: one asked for brings its rank in as A, unless the ranks are given too.
    const int findingRank = p.finding >= 0 ? c.findings()[size_t(p.finding)].rank : -1;
    PictureChoice choice;
    choice.rankA = p.rankA >= 0 ? p.rankA : findingRank >= 0 ? findingRank : defaultA;
    choice.rankB = p.rankB >= 0 ? p.rankB : (choice.rankA == defaultB ? defaultA : defaultB);
    for (int rank : { choice.rankA, choice.rankB }) {
        if (rank >= 0 && c.rankIndex(rank) < 0) {
            error = "--ranks " + std::to_string(rank) + ": no such rank among the files";
            return std::nullopt;
        }
    }
    if (findingRank >= 0 && findingRank != choice.rankA && findingRank != choice.rankB) {
        error = "--finding " + std::to_string(p.finding + 1) + ": it is rank " + std::to_string(findingRank)
            + "'s, and the picture shows ranks " + std::to_string(choice.rankA) + " and "
            + std::to_string(choice.rankB);
        return std::nullopt;
    }
    choice.finding = c.findingToShow(choice.rankA, choice.rankB, p.finding);
    return choice;
}

std::unique_ptr<DiffSheet> drawSheet(
    const Job& job, const ComparisonPtr& comparison, const Picture& p, RankListModel& ranks, std::string& error)
{
    const std::optional<PictureChoice> choice = choosePicture(*comparison, p, error);
    if (!choice)
        return nullptr;
    const QList<LoadedFile>& files = job.loaded();
    for (int i = 0; i < files.size(); ++i) {
        ranks.addLoading(i, files[i].path, files[i].rank);
        ranks.setLoaded(i, files[i]);
    }
    ranks.setComparison(comparison);
    auto sheet = std::make_unique<DiffSheet>(p.view);
    sheet->setScope(p.scope);
    if (sheet->timelines())
        sheet->timelines()->setBandColoring(p.coloring);
    sheet->setComparison(comparison, choice->rankA, choice->rankB, choice->finding, &ranks);
    if (!sheet->prepare(p.size))
        error = "drawing the views took too long";
    return sheet;
}

int runWriting(CommandLine& cl, const std::function<std::string(const QString&)>& badName,
    const std::function<QStringList(const QString&)>& outputs,
    const std::function<QString(DiffSheet&, const Comparison&, const QString& out, double scale)>& write)
{
    JobRequest request;
    Output o;
    for (const std::string& error : { readComparisonOptions(cl, request), readOutputOptions(cl, o) }) {
        if (!error.empty())
            return cl.fail(error);
    }
    if (o.out.isEmpty())
        return cl.fail("--out FILE is required");
    if (const std::string bad = badName(o.out); !bad.empty()) {
        cl.console().err(cl.prefix() + o.out.toStdString() + ": " + bad + "\n");
        return 2;
    }
    const OpenedJob opened = openJob(cl, cl.positional(), request);
    if (!opened.error.empty())
        return cl.fail(opened.error);
    if (!opened.comparison)
        return opened.statusWithoutComparison();
    for (const QString& out : outputs(o.out)) {
        if (!mayWrite(cl, out, o.force))
            return 4;
    }
    RankListModel ranks;
    std::string error;
    const std::unique_ptr<DiffSheet> sheet = drawSheet(*opened.job, opened.comparison, o.picture, ranks, error);
    if (!sheet) {
        cl.console().err(cl.prefix() + error + "\n");
        return 2;
    }
    if (const QString failed = write(*sheet, *opened.comparison, o.out, o.picture.scale); !failed.isEmpty()) {
        cl.console().err(cl.prefix() + failed.toStdString() + "\n");
        return 4;
    }
    return opened.failures ? 1 : 0;
}

const std::vector<const Command*>& allCommands()
{
    static const std::vector<const Command*> commands = [] {
        std::vector<const Command*> all;
        for (const Command* c : coreCommands())
            all.push_back(c == &mcpCommand ? &mcpDrawingCommand : c);
        all.push_back(&exportCommand);
        all.push_back(&reportCommand);
        return all;
    }();
    return commands;
}

} // namespace RankScope::Cli
