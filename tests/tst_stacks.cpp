// SPDX-License-Identifier: MIT
// How stacks are shown everywhere (StackOrder): the user's frames first, installed packages' next, torch's after them,
// the native run folded into one line; labels that never name two sites alike; and what stays as recorded ("All
// frames", the JSON, --my-code). On the real snapshots of tests/data, edited copies of them and the scenarios.
#include "comparison.h"
#include "diffreport.h"
#include "excesstreemodel.h"
#include "loadedfile.h"
#include "rankfiles.h"
#include "snapshotreader.h"
#include "stacktext.h"
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

// A real snapshot's JSON copy (the fixtures' variant) with its paths edited, as another job would have recorded it.
SnapshotPtr readEdited(const QString& name, const QByteArray& from, const QByteArray& to)
{
    QFile file(QStringLiteral(RANKSCOPE_VARIANTS_DIR "/") + name + QStringLiteral(".json"));
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

// Along every path of a tree: the user's frames, then packages', then torch's, and native frames only inside the
// native node or on paths without a Python frame.
void checkPaths(const ExcessNode& node, FrameKind previous, bool inNative, bool& python)
{
    for (const ExcessNode& child : node.children) {
        if (child.native) {
            QVERIFY(!inNative);
            QVERIFY(!child.children.empty());
            checkPaths(child, FrameKind::Native, true, python);
            continue;
        }
        const FrameKind kind = StackOrder::kindOf(child.file, child.line);
        if (inNative)
            QVERIFY2(kind == FrameKind::Native, child.name.c_str());
        else
            QVERIFY2(kind >= previous || previous == FrameKind::Native, child.name.c_str());
        if (kind == FrameKind::Native && !inNative)
            QVERIFY2(previous == FrameKind::Native || node.parent == nullptr, child.name.c_str());
        python = python || kind != FrameKind::Native;
        checkPaths(child, kind, inNative, python);
    }
}

} // namespace

class TestStacks : public QObject
{
    Q_OBJECT
private slots:
    void kindsOfFrames();
    void yourFramesFirstOnStacksAll();
    void allFramesAsRecorded();
    void sitePackagesJob();
    void labelsTellSitesApart_data();
    void labelsTellSitesApart();
    void labelsAcrossRanksAndPaths();
    void treesFollowTheOrder();
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
}

void TestStacks::yourFramesFirstOnStacksAll()
{
    // stacks="all" in a notebook: every stack starts with ~25 allocator and dispatcher frames, and CPython's C frames
    // sit between the Python frames, the user's cell among peft, transformers, accelerate, IPython and torch frames.
    const SnapshotPtr snapshot = readReal(QStringLiteral("cranberrii_memory_snapshot"));
    QVERIFY(snapshot);
    int checked = 0;
    for (StackId stack : allocationStacks(*snapshot)) {
        const StackText::Frames all = StackText::stackFrames(*snapshot, stack, false);
        const bool yours = std::any_of(
            all.frames.begin(), all.frames.end(), [](const auto& f) { return kindOf(f) == FrameKind::Yours; });
        const bool python = std::any_of(
            all.frames.begin(), all.frames.end(), [](const auto& f) { return kindOf(f) != FrameKind::Native; });
        const StackText::Frames shown = StackText::stackFrames(*snapshot, stack, true);
        const StackText::Lines lines = StackText::lines(shown);
        if (!python) {
            // Autograd's thread: nothing but native frames, shown as they are.
            QCOMPARE(shown.folded, size_t(0));
            QVERIFY(lines.folded.isEmpty());
            continue;
        }
        QVERIFY(!shown.frames.empty());
        QCOMPARE(kindOf(shown.frames.front()), yours ? FrameKind::Yours : FrameKind::Package);
        if (yours) {
            QVERIFY(shown.frames.front().file.ends_with("3105878423.py"));
            QVERIFY(lines.lines.front().startsWith(QLatin1String("<module>  3105878423.py:")));
        }
        // Never a C or C++ frame while a Python frame is shown: they are folded into the last line.
        const size_t pythonFrames = shown.frames.size() - shown.folded;
        for (size_t i = 0; i < shown.frames.size(); ++i) {
            QCOMPARE(kindOf(shown.frames[i]) == FrameKind::Native, i >= pythonFrames);
            if (i > 0 && i < pythonFrames)
                QVERIFY(kindOf(shown.frames[i - 1]) <= kindOf(shown.frames[i]));
        }
        QVERIFY(shown.folded > 20);
        QCOMPARE(lines.lines.last(), QStringLiteral("+%1 native frames").arg(shown.folded));
        QVERIFY(!lines.folded.isEmpty());
        QVERIFY(lines.folded.front().contains(QLatin1String("CUDACachingAllocator")));
        QCOMPARE(lines.unfolded().size(), lines.lines.size() - 1 + lines.folded.size());
        // The viewer's filter still applies: the unwinder's own frames are gone.
        for (const QString& line : lines.unfolded())
            QVERIFY(!line.contains(QLatin1String("unwind::unwind")));
        // Tooltips: ten lines, the user's first, and what they leave out counted.
        const StackText::Lines tooltip = StackText::lines(shown, 10);
        QCOMPARE(tooltip.lines.front(), lines.lines.front());
        QVERIFY(tooltip.lines.size() <= 11);
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
        QCOMPARE(kindOf(shown.frames.front()), FrameKind::Package);
        const bool titan = std::any_of(shown.frames.begin(), shown.frames.end(),
            [](const StackText::Frame& f) { return f.file.ends_with("site-packages/torchtitan/train.py"); });
        QCOMPARE(shown.frames.front().file.ends_with("site-packages/torchtitan/train.py"), titan);
        QCOMPARE(label.starts_with("train.py:"), titan);
        entry += titan;
        QCOMPARE(label.substr(0, label.find(':')),
            std::string(shown.frames.front().file.substr(shown.frames.front().file.rfind('/') + 1)));
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
    const QStringList files = RankFiles::expand({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/two_trees_4") });
    std::vector<RankInput> ranks;
    for (const LoadedFile& f : LoadedFile::loadAll(files))
        ranks.push_back({ f.rank, f.path, f.snapshot });
    QCOMPARE(ranks.size(), size_t(4));
    const ComparisonPtr c = Comparison::compute(ranks, {});
    std::set<std::string> labels;
    bool vendored = false;
    // Every site held at the point compared (what findings, summaries and reports name) has a label of its own.
    for (SiteId s = 1; s < c->sites().size(); ++s) {
        bool held = false;
        for (size_t r = 0; r < ranks.size(); ++r)
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

void TestStacks::treesFollowTheOrder()
{
    const ComparisonPtr c = oneRank(readReal(QStringLiteral("cranberrii_memory_snapshot")));
    for (ExcessTree::Direction direction : { ExcessTree::TopDown, ExcessTree::BottomUp }) {
        const std::shared_ptr<const ExcessNode> root = ExcessTree::build(*c, 0, direction, ExcessTree::Everything);
        QVERIFY(root->inclusiveBytes > 0);
        bool python = false;
        checkPaths(*root, FrameKind::Yours, false, python);
        QVERIFY(python);
        // The largest branch starts in the user's cell either way: top-down its outermost frame, bottom-up its
        // innermost (the cell has one).
        QVERIFY(root->children.front().file.ends_with("3105878423.py"));
        ExcessTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTree(root, ExcessTree::Everything);
        // The folded run: one row that expands to its frames.
        QModelIndex index = model.index(0, ExcessTreeModel::FrameColumn);
        while (index.isValid() && !model.node(index)->native)
            index = model.index(0, ExcessTreeModel::FrameColumn, index);
        QVERIFY(index.isValid());
        QCOMPARE(index.data().toString(), ExcessTreeModel::nativeText());
        QVERIFY(model.rowCount(index) > 0);
        // It holds the frames the innermost Python frame called, down to the allocator (the largest branch's last
        // frame top-down, its first bottom-up), not the interpreter's or the process's start.
        const ExcessNode* native = model.node(index);
        const ExcessNode* allocator = &native->children.front();
        while (direction == ExcessTree::TopDown && !allocator->children.empty())
            allocator = &allocator->children.front();
        QVERIFY2(allocator->name.find("CUDACachingAllocator") != std::string::npos, allocator->name.c_str());
        QCOMPARE(model.index(0, 0, index).data().toString(),
            QStringLiteral("%1  %2:%3")
                .arg(QString::fromStdString(native->children.front().name),
                    QString::fromStdString(native->children.front().file))
                .arg(native->children.front().line));
        const auto noStart = [](const ExcessNode& n, auto&& self) -> bool {
            if (n.name.find("__libc_init_first") != std::string::npos
                || n.name.find("Py_BytesMain") != std::string::npos)
                return false;
            return std::all_of(
                n.children.begin(), n.children.end(), [&](const ExcessNode& c) { return self(c, self); });
        };
        QVERIFY(noStart(*native, noStart));
    }
}

void TestStacks::reportsFollowTheOrder()
{
    // stacks="all" under torch.compile on a debug CPython: CPython's C frames and Inductor's frame before the user's.
    const QStringList files = RankFiles::expand({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/native_frames_burden_4") });
    std::vector<RankInput> ranks;
    for (const LoadedFile& f : LoadedFile::loadAll(files))
        ranks.push_back({ f.rank, f.path, f.snapshot });
    const ComparisonPtr c = Comparison::compute(ranks, {});
    QVERIFY(!c->findings().empty());
    const Finding& f = c->findings().front();
    QVERIFY(c->sites().label(f.site).starts_with("metrics.py:88 gather_predictions"));

    // The stack pane and exported pages: the user's frame first, the C frames in the last line.
    const StackText::Description d = StackText::describeFinding(*c, 0, -1);
    QVERIFY2(d.frames.lines.front().startsWith(QLatin1String("gather_predictions  metrics.py:88")),
        qPrintable(d.frames.lines.front()));
    QCOMPARE(d.frames.lines.last(), QStringLiteral("+2 native frames"));
    QCOMPARE(d.frames.folded.size(), 2);
    QVERIFY(d.frames.folded.front().startsWith(QLatin1String("partial_vectorcall")));
    // "All frames": as recorded, CPython's frame first.
    QVERIFY(d.allFrames.lines.front().startsWith(QLatin1String("partial_vectorcall")));
    QVERIFY(d.allFrames.folded.isEmpty());

    // diff's text: the same order, the native run counted.
    const std::string text = DiffReport::text(*c);
    const size_t user = text.find("metrics.py:88 gather_predictions\n");
    QVERIFY(user != std::string::npos);
    QVERIFY(text.find("+2 native frames", user) != std::string::npos);
    QVERIFY(text.find("_functoolsmodule.c:259 partial_vectorcall") == std::string::npos);
    // The Markdown report: the finding's stack begins with the user's frame.
    const std::string markdown = DiffReport::markdown(*c, QStringLiteral("job.png"));
    QVERIFY(markdown.find("gather_predictions  metrics.py:88") < markdown.find("+2 native frames"));

    // The JSON keeps the frames as recorded: the viewer's filter, innermost first, CPython's frame first.
    const nlohmann::json j = nlohmann::json::parse(DiffReport::json(*c));
    const nlohmann::json& frames = j["findings"][0]["frames"];
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
    // --my-code keeps exactly the frames SiteTable::isLibraryFrame calls the user's, in the order recorded.
    const SnapshotPtr snapshot = readReal(QStringLiteral("cranberrii_memory_snapshot"));
    const ComparisonPtr c = oneRank(snapshot, { true, 0 });
    SiteTable sites({ true, 0 });
    for (StackId stack : allocationStacks(*snapshot)) {
        std::vector<std::string> expected;
        for (const StackText::Frame& f : StackText::stackFrames(*snapshot, stack, false).frames) {
            if (!SiteTable::isViewerNoise(f.name, f.file) && !SiteTable::isLibraryFrame(f.name, f.file, f.line))
                expected.push_back(std::string(f.file) + ":" + std::to_string(f.line) + " " + std::string(f.name));
        }
        std::vector<std::string> kept;
        for (const SiteTable::SiteFrame& f : sites.frames(sites.site(*snapshot, stack))) {
            kept.push_back(*f.filename + ":" + std::to_string(f.line) + " " + *f.name);
            QCOMPARE(f.kind, FrameKind::Yours);
        }
        QCOMPARE(kept, expected);
    }
    // Its labels are those frames, as before.
    for (const Verdict::TopSite& site : c->verdict().topSites)
        QVERIFY2(site.label.starts_with("3105878423.py:") || site.label == "<no stack recorded>", site.label.c_str());
}

QTEST_GUILESS_MAIN(TestStacks)
#include "tst_stacks.moc"
