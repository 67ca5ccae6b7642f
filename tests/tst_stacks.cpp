// SPDX-License-Identifier: MIT
// How stacks are shown everywhere (StackOrder): in the order they were called, reading starting at the user's frame,
// native runs folded into one line each in their place, trees built from the true stacks; labels that never name two
// sites alike; and what stays as recorded ("All frames", the JSON, --my-code). On the real snapshots of tests/data,
// edited copies of them and the scenarios.
#include "comparison.h"
#include "diffreport.h"
#include "excesstreemodel.h"
#include "loadedfile.h"
#include "rankfiles.h"
#include "snapshotreader.h"
#include "stacktext.h"
#include "testprogram.h"
#include "testutils.h"

#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QTest>

#include <set>

using namespace RankScope;
using namespace TestUtils;

namespace {

SnapshotPtr readReal(const QString& name)
{
    return SnapshotReader::read(dataDir() + QLatin1Char('/') + name + QStringLiteral(".pickle")).snapshot;
}

// A real snapshot's protocol 0 copy (the fixtures' variant) with its paths edited, as another job would have recorded
// it. Protocol 0 writes each string as a line of text, so a path can give way to one of another length; the file is
// a 25th of the JSON copy's size, which CI's sanitizer stage took 20 s to read.
SnapshotPtr readEdited(const QString& name, const QByteArray& from, const QByteArray& to)
{
    QFile file(QStringLiteral(RANKSCOPE_VARIANTS_DIR "/") + name + QStringLiteral(".p0.pickle"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QByteArray text = file.readAll();
    if (!text.contains(from))
        return {};
    text.replace(from, to);
    QBuffer buffer(&text);
    buffer.open(QIODevice::ReadOnly);
    return SnapshotReader::read(&buffer).snapshot;
}

// Every rank of one of the scenarios, compared.
ComparisonPtr scenario(const char* name)
{
    std::vector<RankInput> ranks;
    for (const LoadedFile& f :
        LoadedFile::loadAll(RankFiles::expand({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/") + QLatin1String(name) })))
        ranks.push_back({ f.rank, f.path, f.snapshot });
    return Comparison::compute(ranks, {});
}

ComparisonPtr oneRank(const SnapshotPtr& snapshot, const SiteOptions& site = {})
{
    ComparisonOptions options;
    options.site = site;
    return Comparison::compute({ RankInput(0, QStringLiteral("rank0.pickle"), snapshot) }, options);
}

// The stacks a snapshot's trace allocates at, each once.
std::vector<StackId> allocationStacks(const Snapshot& snapshot)
{
    std::set<StackId> stacks;
    for (const auto& trace : snapshot.deviceTraces) {
        for (const TraceEntry& e : trace) {
            if (e.action() == TraceAction::Alloc && e.stack != EmptyStack)
                stacks.insert(e.stack);
        }
    }
    return { stacks.begin(), stacks.end() };
}

FrameKind kindOf(const StackText::Frame& f)
{
    return StackOrder::kindOf(f.file, f.line);
}

// Every edge of a tree is a call of one of the stacks it was built from: top-down a caller over the frame it called,
// bottom-up the other way; a native node only below a Python frame, native frames only under it.
using FrameText = std::tuple<std::string, std::string, int64_t>;
FrameText textOf(const ExcessNode& n)
{
    return { n.name, n.file, n.line };
}
FrameText textOf(const SiteTable::SiteFrame& f)
{
    return { *f.name, *f.filename, f.line };
}

void checkCalls(
    const ExcessNode& node, const std::set<std::pair<FrameText, FrameText>>& calls, bool inNative, int& checked)
{
    for (const ExcessNode& child : node.children) {
        if (child.native) {
            QVERIFY(!inNative && node.parent && !child.children.empty());
            QVERIFY(StackOrder::kindOf(node.file, node.line) != FrameKind::Native);
            checkCalls(child, calls, true, checked);
            continue;
        }
        if (child.noStack) {
            QVERIFY(!node.parent && child.children.empty());
            continue;
        }
        QVERIFY2(!StackOrder::isUnsymbolised(child.file, child.line), child.name.c_str());
        if (inNative)
            QVERIFY2(StackOrder::kindOf(child.file, child.line) == FrameKind::Native, child.name.c_str());
        if (node.parent && !node.native) {
            QVERIFY2(calls.count({ textOf(node), textOf(child) }), (node.name + " > " + child.name).c_str());
            ++checked;
        }
        checkCalls(child, calls, inNative, checked);
    }
}

// The calls a tree may show: each site's tree path, outermost first (top-down) or innermost first (bottom-up).
std::set<std::pair<FrameText, FrameText>> callsOf(const SiteTable& sites, ExcessTree::Direction direction)
{
    std::set<std::pair<FrameText, FrameText>> calls;
    for (SiteId s = 1; s < sites.size(); ++s) {
        const std::vector<SiteTable::SiteFrame>& frames = sites.frames(s);
        const StackOrder::TreePath path = sites.treePath(s);
        for (size_t i = 0; i + 1 < path.frames.size(); ++i) {
            const FrameText inner = textOf(frames[path.frames[i]]);
            const FrameText outer = textOf(frames[path.frames[i + 1]]);
            if (direction == ExcessTree::TopDown)
                calls.insert({ outer, inner });
            else if (i + 1 > path.native)
                calls.insert({ inner, outer });
        }
    }
    return calls;
}

} // namespace

class TestStacks : public QObject
{
    Q_OBJECT
private slots:
    void kindsOfFrames();
    void callOrderOnStacksAll();
    void allFramesAsRecorded();
    void sitePackagesJob();
    void labelsTellSitesApart_data();
    void labelsTellSitesApart();
    void labelsAcrossRanksAndPaths();
    void sitesAlikeWhateverCameBefore();
    void treesFollowTheCalls();
    void treeOfAKnownStack();
    void reportsFollowTheOrder();
    void myCodeKeepsItsMeaning();
};

void TestStacks::kindsOfFrames()
{
    QCOMPARE(StackOrder::kindOf("/home/me/proj/train.py", 12), FrameKind::Yours);
    QCOMPARE(StackOrder::kindOf("/tmp/ipykernel_114/3105878423.py", 21), FrameKind::Yours);
    QCOMPARE(StackOrder::kindOf("/opt/venv/lib/python3.11/site-packages/torchtitan/components/loss.py", 22),
        FrameKind::Package);
    QCOMPARE(StackOrder::kindOf("/usr/lib/python3/dist-packages/megatron/core/transformer.py", 80), FrameKind::Package);
    QCOMPARE(
        StackOrder::kindOf("D:\\Dev\\x\\.venv\\Lib\\site-packages\\cs336_basics\\model.py", 39), FrameKind::Package);
    QCOMPARE(StackOrder::kindOf("/opt/venv/lib/python3.11/site-packages/six.py", 3), FrameKind::Package);
    QCOMPARE(
        StackOrder::kindOf("/opt/venv/lib/python3.11/site-packages/torch/nn/modules/linear.py", 134), FrameKind::Torch);
    QCOMPARE(StackOrder::kindOf("D:\\Dev\\x\\.venv\\Lib\\site-packages\\torch\\functional.py", 373), FrameKind::Torch);
    QCOMPARE(StackOrder::kindOf("/home/me/pytorch/torch/nn/functional.py", 2000), FrameKind::Torch);
    QCOMPARE(
        StackOrder::kindOf("/opt/venv/lib/python3.11/site-packages/ipykernel/kernelapp.py", 739), FrameKind::Torch);
    QCOMPARE(StackOrder::kindOf("/usr/lib/python3.10/asyncio/events.py", 80), FrameKind::Torch);
    QCOMPARE(StackOrder::kindOf("<frozen runpy>", 198), FrameKind::Torch);
    QCOMPARE(StackOrder::kindOf("/tmp/torchinductor_me/cx/cxqz7k2mhbq3vwl4.py", 412), FrameKind::Torch);
    QCOMPARE(StackOrder::kindOf("CUDACachingAllocator.cpp", 0), FrameKind::Native);
    QCOMPARE(StackOrder::kindOf("??", 0), FrameKind::Native);
    QCOMPARE(StackOrder::kindOf("", 0), FrameKind::Native);
    QCOMPARE(StackOrder::kindOf("/usr/local/src/conda/python-3.10.14/Objects/typeobject.c", 7494), FrameKind::Native);
    // glibc's thread start carries a path and a line like a Python frame (bcrafton's stacks end in it).
    QCOMPARE(StackOrder::kindOf("./misc/../sysdeps/unix/sysv/linux/x86_64/clone3.S", 81), FrameKind::Native);
    QVERIFY(SiteTable::isLibraryFrame("__clone3", "./misc/../sysdeps/unix/sysv/linux/x86_64/clone3.S", 81));

    // Innermost first: native 0, torch 1, yours 2, native 3, package 4, yours 5.
    const std::vector<FrameKind> kinds = { FrameKind::Native, FrameKind::Torch, FrameKind::Yours, FrameKind::Native,
        FrameKind::Package, FrameKind::Yours };
    QCOMPARE(StackOrder::shown(kinds), (std::vector<uint32_t> { 2, 5, 4, 1, 0, 3 }));
    QCOMPARE(StackOrder::shown(kinds, true), (std::vector<uint32_t> { 5, 2, 4, 1, 3, 0 }));
    QCOMPARE(StackOrder::pythonCount(kinds), size_t(4));
    // Shown, the stack keeps that order: reading starts at the user's innermost frame, each native run folds in place,
    // a tree leaves out the native frame between Python frames and keeps the one the innermost Python frame called.
    QCOMPARE(StackOrder::readingStart(kinds), size_t(2));
    const std::vector<bool> none(kinds.size(), false);
    QCOMPARE(StackOrder::foldedRuns(kinds, none), (std::vector<StackOrder::Run> { { 0, 1 }, { 3, 1 } }));
    const StackOrder::TreePath path = StackOrder::treePath(kinds, none);
    QCOMPARE(path.frames, (std::vector<uint32_t> { 0, 1, 2, 4, 5 }));
    QCOMPARE(path.native, size_t(1));
    // Autograd's thread, native alone: unsymbolised frames (`__xmknodat ??:0`) fold into their neighbours.
    const std::vector<FrameKind> native(4, FrameKind::Native);
    const std::vector<bool> unsymbolised = { false, true, true, false };
    QVERIFY(StackOrder::isUnsymbolised("??", 0) && StackOrder::isUnsymbolised("", 0));
    QVERIFY(!StackOrder::isUnsymbolised("??", 12) && !StackOrder::isUnsymbolised("engine.cpp", 0));
    QCOMPARE(StackOrder::foldedRuns(native, unsymbolised), (std::vector<StackOrder::Run> { { 1, 2 } }));
    QCOMPARE(StackOrder::treePath(native, unsymbolised).frames, (std::vector<uint32_t> { 0, 3 }));
    QCOMPARE(StackOrder::treePath(native, unsymbolised).native, size_t(0));
    QCOMPARE(StackOrder::readingStart(native), size_t(0));

    // `python -m torchtitan.train` from an installed torchtitan: its frames lead, before flash-attn's and torch's.
    const std::vector<std::string_view> files = { "/v/site-packages/torchtitan/components/loss.py",
        "/v/site-packages/torch/nn/functional.py", "/v/site-packages/flash_attn/flash_attn_interface.py",
        "/v/site-packages/torchtitan/train.py", "/usr/lib/python3.11/runpy.py" };
    const std::vector<std::string_view> names = { "cross_entropy_loss", "cross_entropy", "forward", "<module>",
        "_run_code" };
    std::vector<FrameKind> titan;
    for (std::string_view file : files)
        titan.push_back(StackOrder::kindOf(file, 10));
    QCOMPARE(titan,
        (std::vector<FrameKind> {
            FrameKind::Package, FrameKind::Torch, FrameKind::Package, FrameKind::Package, FrameKind::Torch }));
    StackOrder::markEntry(titan, files, names);
    QCOMPARE(titan,
        (std::vector<FrameKind> {
            FrameKind::Entry, FrameKind::Torch, FrameKind::Package, FrameKind::Entry, FrameKind::Torch }));
    QCOMPARE(StackOrder::shown(titan), (std::vector<uint32_t> { 0, 3, 2, 1, 4 }));
    QCOMPARE(StackOrder::readingStart(titan), size_t(0));
    QVERIFY(!StackOrder::isOthers(FrameKind::Entry) && StackOrder::isOthers(FrameKind::Package));
}

void TestStacks::callOrderOnStacksAll()
{
    // stacks="all" in a notebook: every stack starts with ~25 allocator and dispatcher frames, and CPython's C frames
    // sit between the Python frames, the user's cell among peft, transformers, accelerate, IPython and torch frames.
    const SnapshotPtr snapshot = readReal(QStringLiteral("cranberrii_memory_snapshot"));
    QVERIFY(snapshot);
    int checked = 0;
    for (StackId stack : allocationStacks(*snapshot)) {
        const StackText::Frames all = StackText::stackFrames(*snapshot, stack, false);
        std::vector<StackText::Frame> python;
        std::vector<StackText::Frame> native;
        for (const StackText::Frame& f : all.frames) {
            if (!SiteTable::isViewerNoise(f.name, f.file))
                (kindOf(f) == FrameKind::Native ? native : python).push_back(f);
        }
        const StackText::Frames shown = StackText::stackFrames(*snapshot, stack, true);
        const StackText::Lines lines = StackText::lines(shown);
        if (python.empty()) {
            // Autograd's thread: nothing but native frames, shown as they are but for unsymbolised ones.
            for (const StackText::Frame& f : std::span(shown.frames).first(shown.frames.size() - shown.folded))
                QVERIFY(!StackOrder::isUnsymbolised(f.file, f.line) || shown.frames.size() == shown.folded);
            continue;
        }
        // The frames shown are the Python frames in the order called, never reordered; the native ones are folded.
        const std::span<const StackText::Frame> lineFrames =
            std::span(shown.frames).first(shown.frames.size() - shown.folded);
        QVERIFY(std::equal(lineFrames.begin(), lineFrames.end(), python.begin(), python.end()));
        QVERIFY(std::equal(
            shown.frames.begin() + ptrdiff_t(lineFrames.size()), shown.frames.end(), native.begin(), native.end()));
        // Reading starts at the cell's innermost frame where the stack has one, else at an installed package's.
        const StackText::Frame& start = lineFrames[shown.start];
        const auto yours =
            std::find_if(python.begin(), python.end(), [](auto& f) { return kindOf(f) == FrameKind::Yours; });
        if (yours != python.end()) {
            QVERIFY(start == *yours);
            QVERIFY(start.file.ends_with("3105878423.py"));
        } else {
            QCOMPARE(kindOf(start), FrameKind::Package);
        }
        QVERIFY(lines.start >= 0);
        QVERIFY(
            lines.lines[lines.start].startsWith(QString::fromUtf8(start.name.data(), qsizetype(start.name.size()))));
        QVERIFY(!lines.dimmed.contains(lines.start));
        // The allocator's run folded into the first line, in its place; the user's lines never dimmed.
        QVERIFY(shown.folded > 20);
        QVERIFY(lines.lines.front().endsWith(QLatin1String(" native frames")));
        QCOMPARE(lines.foldLines.front(), 0);
        QVERIFY(lines.folded.front().contains(QLatin1String("CUDACachingAllocator")));
        QCOMPARE(lines.foldLines.size(), lines.foldSizes.size());
        QCOMPARE(lines.unfolded().size(), lines.lines.size() - lines.foldLines.size() + lines.folded.size());
        for (int line = 0; line < lines.lines.size(); ++line) {
            if (lines.lines[line].contains(QLatin1String("3105878423.py")))
                QVERIFY(!lines.dimmed.contains(line));
        }
        // The viewer's filter still applies: the unwinder's own frames are gone.
        for (const QString& line : lines.unfolded())
            QVERIFY(!line.contains(QLatin1String("unwind::unwind")));
        // Tooltips: eleven lines at most, around where reading starts.
        const StackText::Lines tooltip = StackText::lines(shown, 10);
        QVERIFY(tooltip.lines.size() <= 11);
        QVERIFY(tooltip.start >= 0);
        QCOMPARE(tooltip.lines[tooltip.start], lines.lines[lines.start]);
        ++checked;
    }
    QVERIFY(checked > 50);
}

void TestStacks::allFramesAsRecorded()
{
    const SnapshotPtr snapshot = readReal(QStringLiteral("cranberrii_memory_snapshot"));
    QVERIFY(snapshot);
    for (StackId stack : allocationStacks(*snapshot)) {
        const StackText::Frames all = StackText::stackFrames(*snapshot, stack, false);
        const std::span<const FrameId> recorded = snapshot->stacks.frames(stack);
        QCOMPARE(all.frames.size(), recorded.size());
        QCOMPARE(all.folded, size_t(0));
        for (size_t i = 0; i < recorded.size(); ++i) {
            const Frame& f = snapshot->frames.frame(recorded[i]);
            QVERIFY(all.frames[i].name == snapshot->strings.view(f.name));
            QVERIFY(all.frames[i].file == snapshot->strings.view(f.filename));
            QCOMPARE(all.frames[i].line, f.line);
        }
        const StackText::Lines lines = StackText::lines(all);
        QVERIFY(lines.folded.isEmpty());
        QVERIFY(lines.lines.front().startsWith(QLatin1String("torch::unwind::unwind()")));
    }
}

void TestStacks::sitePackagesJob()
{
    // torchtitan run from an installed package: every Python frame is under site-packages. The notebook's cell
    // becomes torchtitan's train.py: its frames and peft's, transformers' and accelerate's lead, never the allocator.
    const SnapshotPtr snapshot = readEdited(QStringLiteral("cranberrii_memory_snapshot"),
        "/tmp/ipykernel_114/3105878423.py", "/opt/conda/lib/python3.10/site-packages/torchtitan/train.py");
    QVERIFY(snapshot);
    const ComparisonPtr c = oneRank(snapshot);
    const SiteTable& sites = c->sites();
    int python = 0;
    int entry = 0;
    for (SiteId s = 1; s < sites.size(); ++s) {
        if (sites.pythonFrames(s) == 0)
            continue;
        ++python;
        const std::string label = sites.label(s);
        QVERIFY2(label.find("CUDACachingAllocator") == std::string::npos, label.c_str());
        // torchtitan's own frame (the edited cell's) first, the entry script's package; where a stack has none
        // (autograd's thread running bitsandbytes' backward), another package's.
        const StackText::Frames shown = StackText::siteFrames(sites, s);
        const StackText::Frame& start = shown.frames[shown.start];
        QCOMPARE(kindOf(start), FrameKind::Package);
        const bool titan = std::any_of(shown.frames.begin(), shown.frames.end(),
            [](const StackText::Frame& f) { return f.file.ends_with("site-packages/torchtitan/train.py"); });
        QCOMPARE(start.file.ends_with("site-packages/torchtitan/train.py"), titan);
        QCOMPARE(label.starts_with("train.py:"), titan);
        entry += titan;
        QCOMPARE(label.substr(0, label.find(':')), std::string(start.file.substr(start.file.rfind('/') + 1)));
    }
    QVERIFY(python > 50);
    QVERIFY(entry > 50);
    // The one-rank summary names its sites by those frames too.
    const Verdict& v = c->verdict();
    QVERIFY(!v.topSites.empty());
    for (const Verdict::TopSite& site : v.topSites)
        QVERIFY2(site.label.find("CUDACachingAllocator") == std::string::npos, site.label.c_str());
    const std::string text = DiffReport::text(*c);
    QVERIFY(text.find("CUDACachingAllocator.cpp:0") == std::string::npos);
    QVERIFY(text.find("train.py:21 <module>") != std::string::npos);
}

void TestStacks::labelsTellSitesApart_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("shared");
    // Labels that named several sites alike before: the notebook's 103 stacks at one cell line, the same two model
    // lines reached through other frames (as Model_BasicNCA3D.py:62 update ← :89 forward twice), free-standing
    // autograd stacks that all began in the allocator.
    QTest::newRow("notebook") << QStringLiteral("cranberrii_memory_snapshot")
                              << QStringLiteral("3105878423.py:21 <module>");
    QTest::newRow("model lines") << QStringLiteral("jasper_snapshot")
                                 << QStringLiteral("latent_cnn.py:69 forward \u2190 counterfactuals.py:115 "
                                                   "generate_counterfactuals");
    QTest::newRow("two callers") << QStringLiteral("bcrafton_memory_snapshot")
                                 << QStringLiteral("model.py:41 forward \u2190 model.py:397 forward");
    QTest::newRow("windows") << QStringLiteral("magma27_memory_snapshot")
                             << QStringLiteral("model.py:509 forward \u2190 model.py:382 forward");
    QTest::newRow("few stacks") << QStringLiteral("jog_my_snapshot") << QStringLiteral("model.py:7 __init__");
}

void TestStacks::labelsTellSitesApart()
{
    QFETCH(QString, name);
    QFETCH(QString, shared);
    const SnapshotPtr snapshot = readReal(name);
    QVERIFY(snapshot);
    SiteTable sites;
    for (StackId stack = 1; stack < snapshot->stacks.size(); ++stack)
        sites.site(*snapshot, stack);
    QVERIFY(sites.size() > 5);
    for (int count : { 1, 2, 8 }) {
        std::set<std::string> labels;
        int sharing = 0;
        for (SiteId s = 1; s < sites.size(); ++s) {
            const std::string label = sites.label(s, count);
            QVERIFY2(labels.insert(label).second, label.c_str());
            sharing += count == 2 && QString::fromStdString(label).startsWith(shared);
            // A site with Python frames is never named by a native one.
            if (sites.pythonFrames(s) > 0)
                QCOMPARE(sites.frames(s)[sites.shown(s).front()].kind == FrameKind::Native, false);
        }
        if (count == 2)
            QVERIFY2(sharing >= 2, qPrintable(shared));
    }
    // The label stays what it was where nothing else wears it, and is the same however often it is asked for.
    QCOMPARE(sites.label(1), sites.label(1));
    // The one-rank summary (what `diff` says of a single file) lists each site once.
    const ComparisonPtr c = oneRank(snapshot);
    std::set<std::string> top;
    for (const Verdict::TopSite& site : c->verdict().topSites)
        QVERIFY2(top.insert(site.label).second, site.label.c_str());
}

void TestStacks::labelsAcrossRanksAndPaths()
{
    // Rank 3 runs a vendored copy of the model: the same file name and line as the others', another site. Its
    // labels show the path that tells them apart.
    const ComparisonPtr c = scenario("two_trees_4");
    QCOMPARE(c->ranks().size(), size_t(4));
    std::set<std::string> labels;
    bool vendored = false;
    // Every site held at the point compared (what findings, summaries and reports name) has a label of its own.
    for (SiteId s = 1; s < c->sites().size(); ++s) {
        bool held = false;
        for (size_t r = 0; r < c->ranks().size(); ++r)
            held = held || c->siteTotal(s, r).second > 0;
        if (!held)
            continue;
        const std::string label = c->sites().label(s);
        QVERIFY2(labels.insert(label).second, label.c_str());
        vendored = vendored || label.find("vendored/cs336_basics/model.py:") != std::string::npos;
    }
    QVERIFY(vendored);
    QVERIFY(!c->findings().empty());
    for (const Finding& f : c->findings()) {
        const std::string label = c->sites().label(f.site);
        QVERIFY2(label.find("vendored/cs336_basics/model.py:") != std::string::npos, label.c_str());
    }
}

// One table maps the stacks of every rank, and filters each frame text once for all the ranks whose code lives alike.
// A rank whose entry script lives elsewhere keys the same file otherwise (here by its full path, as the tree it shares
// with the script is only "/"): its sites must be what a table of its own gives, whichever ranks came before.
void TestStacks::sitesAlikeWhateverCameBefore()
{
    const SnapshotPtr here = readReal(QStringLiteral("jasper_snapshot"));
    const SnapshotPtr moved = readEdited(QStringLiteral("jasper_snapshot"),
        "/oscar/home/jsolt/FourierNN/counterfactuals.py", "/srv/job/counterfactuals.py");
    QVERIFY(here && moved);
    SiteTable both;
    SiteTable alone;
    std::set<std::string> hereKeys;
    for (StackId stack : allocationStacks(*here)) {
        for (const SiteTable::SiteFrame& f : both.frames(both.site(*here, stack)))
            hereKeys.insert(*f.fileKey);
    }
    std::set<std::string> movedKeys;
    for (StackId stack : allocationStacks(*moved)) {
        const std::vector<SiteTable::SiteFrame>& shared = both.frames(both.site(*moved, stack));
        const std::vector<SiteTable::SiteFrame>& own = alone.frames(alone.site(*moved, stack));
        QCOMPARE(shared.size(), own.size());
        for (size_t i = 0; i < own.size(); ++i) {
            QCOMPARE(*shared[i].fileKey, *own[i].fileKey);
            QCOMPARE(*shared[i].nameKey, *own[i].nameKey);
            QCOMPARE(shared[i].line, own[i].line);
            QVERIFY(shared[i].kind == own[i].kind);
            movedKeys.insert(*own[i].fileKey);
        }
    }
    QVERIFY(hereKeys.count("code:regressors/latent_cnn.py"));
    QVERIFY(movedKeys.count("/oscar/home/jsolt/FourierNN/regressors/latent_cnn.py"));
    QVERIFY(!movedKeys.count("code:regressors/latent_cnn.py"));
}

void TestStacks::treesFollowTheCalls()
{
    const ComparisonPtr c = oneRank(readReal(QStringLiteral("cranberrii_memory_snapshot")));
    for (ExcessTree::Direction direction : { ExcessTree::TopDown, ExcessTree::BottomUp }) {
        const std::shared_ptr<const ExcessNode> root = ExcessTree::build(*c, 0, direction, ExcessTree::Everything);
        QVERIFY(root->inclusiveBytes > 0);
        // Every allocation has a root: the frames add up to what the rank holds at the point.
        QCOMPARE(root->inclusiveBytes, c->ranks()[0].bytesAtPoint);
        QCOMPARE(root->selfBytes, int64_t(0));
        int64_t roots = 0;
        for (const ExcessNode& child : root->children)
            roots += child.inclusiveBytes;
        QCOMPARE(roots, root->inclusiveBytes);
        int checked = 0;
        checkCalls(*root, callsOf(c->sites(), direction), false, checked);
        QVERIFY(checked > 100);
        ExcessTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTree(root, ExcessTree::Everything);
        // Top-down the largest branch starts where the process did (IPython's kernel), not in the user's cell; reading
        // starts at the cell's first frame along it, others' frames dimmed above it.
        const QModelIndex start = model.readingStart();
        QVERIFY(start.isValid());
        QVERIFY(model.node(start)->file.ends_with("3105878423.py"));
        QVERIFY(!model.data(start, ExcessTreeModel::OthersRole).toBool());
        if (direction == ExcessTree::TopDown) {
            QVERIFY(start.parent().isValid());
            QVERIFY(!root->children.front().file.ends_with("3105878423.py"));
            QVERIFY(model.data(model.index(0, 0), ExcessTreeModel::OthersRole).toBool());
            // The folded run: one row under the allocating Python frame that expands to its frames, down to the
            // allocator, not the interpreter's frames or the process's start.
            QModelIndex index = model.index(0, ExcessTreeModel::FrameColumn);
            while (index.isValid() && !model.node(index)->native)
                index = model.index(0, ExcessTreeModel::FrameColumn, index);
            QVERIFY(index.isValid());
            QCOMPARE(index.data().toString(), ExcessTreeModel::nativeText());
            const ExcessNode* allocator = model.node(index);
            while (!allocator->children.empty())
                allocator = &allocator->children.front();
            QVERIFY2(allocator->name.find("CUDACachingAllocator") != std::string::npos, allocator->name.c_str());
        } else {
            // Bottom-up from the allocating Python frame (peft's, bitsandbytes', torch's) out to the cell that called
            // it: every frame before it someone else's.
            for (QModelIndex up = start.parent(); up.isValid(); up = up.parent())
                QVERIFY(model.data(up, ExcessTreeModel::OthersRole).toBool());
            QVERIFY(StackOrder::kindOf(model.node(start)->file, model.node(start)->line) == FrameKind::Yours);
        }
    }
}

void TestStacks::treeOfAKnownStack()
{
    // stacks="all" under torch.compile on a debug CPython: the finding's stack, innermost first, is CPython's C
    // frames, Inductor's frame, the user's gather_predictions and its callers. Top down it reads from the callers
    // down to the user's frame, Inductor's below it, the C frames folded under it; nothing moved.
    const ComparisonPtr c = scenario("native_frames_burden_4");
    QVERIFY(!c->findings().empty());
    const Finding& f = c->findings().front();
    const StackText::Frames shown = StackText::siteFrames(c->sites(), f.site);
    const std::span<const StackText::Frame> python = std::span(shown.frames).first(shown.frames.size() - shown.folded);
    QVERIFY(python.size() >= 2);
    QCOMPARE(python[shown.start].name, std::string_view("gather_predictions"));

    for (ExcessTree::Direction direction : { ExcessTree::TopDown, ExcessTree::BottomUp }) {
        const std::shared_ptr<const ExcessNode> root = ExcessTree::build(*c, f.rank, direction);
        int64_t excess = 0;
        for (const Finding& g : c->findings())
            excess += g.rank == f.rank ? g.excessBytes : 0;
        QCOMPARE(root->inclusiveBytes, excess);
        // The finding's path through the tree, frame by frame: its Python frames in the order called (top-down from
        // the outermost), then top-down the folded C frames.
        QStringList expected;
        for (const StackText::Frame& g : python)
            expected.append(QString::fromUtf8(g.name.data(), qsizetype(g.name.size())));
        if (direction == ExcessTree::TopDown)
            std::reverse(expected.begin(), expected.end());
        const ExcessNode* node = root.get();
        for (const QString& name : expected) {
            const auto child = std::find_if(node->children.begin(), node->children.end(),
                [&](const ExcessNode& n) { return !n.native && QString::fromStdString(n.name) == name; });
            QVERIFY2(child != node->children.end(), qPrintable(name));
            node = &*child;
        }
        if (direction == ExcessTree::TopDown) {
            QCOMPARE(node->children.size(), size_t(1));
            QVERIFY(node->children.front().native);
            QCOMPARE(node->children.front().inclusiveBytes, node->inclusiveBytes);
        } else {
            QVERIFY(node->children.empty());
            QCOMPARE(root->children.front().name, std::string(python.front().name));
        }
    }
}

void TestStacks::reportsFollowTheOrder()
{
    // stacks="all" under torch.compile on a debug CPython: CPython's C frames and Inductor's frame before the user's.
    const ComparisonPtr c = scenario("native_frames_burden_4");
    QVERIFY(!c->findings().empty());
    const Finding& f = c->findings().front();
    QVERIFY(c->sites().label(f.site).starts_with("metrics.py:88 gather_predictions"));

    // The stack pane and exported pages: in the order called, the C frames folded into the first line, reading
    // starting at the user's frame.
    const StackText::Description d = StackText::describeFinding(*c, 0, -1);
    QVERIFY(d.frames.start > 0);
    QVERIFY2(d.frames.lines[d.frames.start].startsWith(QLatin1String("gather_predictions  metrics.py:88")),
        qPrintable(d.frames.lines[d.frames.start]));
    QCOMPARE(d.frames.lines.front(), QStringLiteral("+2 native frames"));
    QCOMPARE(d.frames.foldLines, QList<int> { 0 });
    QCOMPARE(d.frames.folded.size(), 2);
    QVERIFY(d.frames.folded.front().startsWith(QLatin1String("partial_vectorcall")));
    // "All frames": as recorded, CPython's frame first.
    QVERIFY(d.allFrames.lines.front().startsWith(QLatin1String("partial_vectorcall")));
    QVERIFY(d.allFrames.folded.isEmpty());

    // diff's text: the same order, the native run counted where it was called (before the user's frame it called).
    const std::string text = DiffReport::text(*c);
    const size_t user = text.find("gather_predictions  metrics.py:88");
    QVERIFY(user != std::string::npos);
    QVERIFY(text.rfind("+2 native frames", user) != std::string::npos);
    QVERIFY(text.find("_functoolsmodule.c:259 partial_vectorcall") == std::string::npos);
    // The Markdown report: the finding's stack in the order called, the C frames it called first.
    const std::string markdown = DiffReport::markdown(*c, QStringLiteral("job.png"));
    QVERIFY(markdown.find("+2 native frames") < markdown.find("gather_predictions  metrics.py:88"));

    // The JSON reads as the text: from the user's frame outward, the frames inside it counted; with every frame, as
    // recorded: the viewer's filter, innermost first, CPython's frame first.
    const nlohmann::json yours = nlohmann::json::parse(DiffReport::json(*c));
    const nlohmann::json& read = yours["stacks"][yours["findings"][0]["stack"].get<size_t>()]["frames"];
    // Inside it: CPython's two C frames and Inductor's generated frame.
    QCOMPARE(read[0]["inner_frames"].get<size_t>(), size_t(3));
    QCOMPARE(read[1]["name"].get<std::string>(), std::string("gather_predictions"));
    QVERIFY(read[1]["own_code"].get<bool>());
    const nlohmann::json j = nlohmann::json::parse(DiffReport::json(*c, DiffReport::FrameDetail::All));
    const nlohmann::json& frames = j["stacks"][j["findings"][0]["stack"].get<size_t>()]["frames"];
    const DeviceHistory& h = c->history(size_t(c->rankIndex(f.rank)));
    const StackText::Frames recorded = StackText::stackFrames(h.snapshot(), f.stack, false);
    std::vector<StackText::Frame> kept;
    for (const StackText::Frame& g : recorded.frames) {
        if (!SiteTable::isViewerNoise(g.name, g.file))
            kept.push_back(g);
    }
    QCOMPARE(frames.size(), kept.size());
    for (size_t i = 0; i < kept.size(); ++i) {
        QCOMPARE(frames[i]["name"].get<std::string>(), std::string(kept[i].name));
        QCOMPARE(frames[i]["filename"].get<std::string>(), std::string(kept[i].file));
        QCOMPARE(frames[i]["line"].get<int64_t>(), kept[i].line);
    }
    QCOMPARE(frames[0]["name"].get<std::string>(), std::string("partial_vectorcall"));
}

void TestStacks::myCodeKeepsItsMeaning()
{
    // --my-code keeps exactly the frames SiteTable::isLibraryFrame calls the user's, in the order recorded; a stack
    // with none of them keeps all its frames, so its memory never goes to "<no stack recorded>".
    const SnapshotPtr snapshot = readReal(QStringLiteral("cranberrii_memory_snapshot"));
    const ComparisonPtr c = oneRank(snapshot, { true, 0, {} });
    QVERIFY(c->sites().frameworksCounted().empty()); // the notebook's cells are the user's own code
    SiteTable sites({ true, 0, {} });
    std::set<std::string> others; // the labels of the comparison's sites that keep every frame
    for (StackId stack : allocationStacks(*snapshot)) {
        std::vector<std::string> expected;
        std::vector<std::string> all;
        for (const StackText::Frame& f : StackText::stackFrames(*snapshot, stack, false).frames) {
            const std::string text = std::string(f.file) + ":" + std::to_string(f.line) + " " + std::string(f.name);
            if (SiteTable::isViewerNoise(f.name, f.file))
                continue;
            all.push_back(text);
            if (!SiteTable::isLibraryFrame(f.name, f.file, f.line))
                expected.push_back(text);
        }
        const bool yours = !expected.empty();
        const SiteId site = sites.site(*snapshot, stack);
        std::vector<std::string> kept;
        for (const SiteTable::SiteFrame& f : sites.frames(site)) {
            kept.push_back(*f.filename + ":" + std::to_string(f.line) + " " + *f.name);
            if (yours)
                QCOMPARE(f.kind, FrameKind::Yours);
        }
        QCOMPARE(kept, yours ? expected : all);
    }
    for (SiteId site = 1; site < c->sites().size(); ++site) {
        const auto& frames = c->sites().frames(site);
        if (std::none_of(frames.begin(), frames.end(), [](const auto& f) { return f.kind == FrameKind::Yours; }))
            others.insert(c->sites().label(site));
    }
    // Its labels are those frames, as before, or where no frame is the user's, the stack's own.
    for (const Verdict::TopSite& site : c->verdict().topSites)
        QVERIFY2(
            site.label.starts_with("3105878423.py:") || site.label == "<no stack recorded>" || others.count(site.label),
            site.label.c_str());
}

RANKSCOPE_TEST_CLASS(TestStacks)
#include "tst_stacks.moc"
