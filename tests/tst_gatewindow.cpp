// SPDX-License-Identifier: MIT
// File → Compare With Baseline…: the window gates a job against its baseline in the background and shows the result
// in the before/after view's terms (GateView), with the pass or fail `rankscope gate` gives: the failing ranks marked
// in the plot, what grew where in the tree with its stack, how ranks were paired; a baseline of digests shows what
// its snapshots show.
#include "appearance.h"
#include "formatting.h"
#include "gatereport.h"
#include "gateview.h"
#include "gatewindow.h"
#include "job.h"
#include "stacktext.h"
#include "testprogram.h"
#include "testutils.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace RankScope;

namespace {

QString scenario(const QString& name, const char* side)
{
    return QStringLiteral(RANKSCOPE_GATE_SCENARIOS_DIR) + QLatin1Char('/') + name + QLatin1Char('/')
        + QLatin1String(side);
}

// The gate as the command runs it, for the figures the window must show.
GateResult commandGate(const QString& name)
{
    Job base({ scenario(name, "base") });
    Job now({ scenario(name, "new") });
    base.load();
    now.load();
    return Gate::run(Gate::sideOf(base).inputs, Gate::sideOf(now).inputs, GateOptions {});
}

// Every row of the tree as its texts, depth first: what two views show alike.
QStringList treeText(const QTreeWidget* tree)
{
    QStringList out;
    std::function<void(const QTreeWidgetItem*, int)> walk = [&](const QTreeWidgetItem* item, int depth) {
        QStringList cells;
        for (int c = 0; c < tree->columnCount(); ++c)
            cells.append(item->text(c));
        out.append(QString(depth * 2, QLatin1Char(' ')) + cells.join(QLatin1String(" | ")));
        for (int i = 0; i < item->childCount(); ++i)
            walk(item->child(i), depth + 1);
    };
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        walk(tree->topLevelItem(i), 0);
    return out;
}

std::vector<QTreeWidgetItem*> itemsOf(const QTreeWidget* tree, int type)
{
    std::vector<QTreeWidgetItem*> out;
    std::function<void(QTreeWidgetItem*)> walk = [&](QTreeWidgetItem* item) {
        if (item->type() == type)
            out.push_back(item);
        for (int i = 0; i < item->childCount(); ++i)
            walk(item->child(i));
    };
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        walk(tree->topLevelItem(i));
    return out;
}

} // namespace

class TestGateWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void failShowsTheRankThatGrew();
    void sameJobPasses();
    void everyRankGrowingMidStep();
    void fewerBaselineRanksSaysHowTheyPair();
    void gpusNamedWhereRanksDriveSeveral();
    void digestsShowWhatSnapshotsShow();
    void headlineInChinese();
    void problemsNameTheFile();
    void unreadableRankIsNotAPass();
    void digestsAsTheJobRefused();

private:
    // Gates `baseline` (the scenario's own when empty) with the scenario's new job and waits for the result.
    static void gate(GateWindow& window, const QString& name, const QString& baseline = {});
};

void TestGateWindow::initTestCase()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_GATE_SCENARIOS_DIR));
}

void TestGateWindow::gate(GateWindow& window, const QString& name, const QString& baseline)
{
    QSignalSpy shown(&window, &GateWindow::shown);
    window.gate({ baseline.isEmpty() ? scenario(name, "base") : baseline }, { scenario(name, "new") });
    QVERIFY(shown.wait(120000));
}

// One rank grows: Fail, that rank alone marked in the plot and first in the tree, open on the site that grew most
// with its stack, the user's frame marked; the same figures the command gives.
void TestGateWindow::failShowsTheRankThatGrew()
{
    GateWindow window;
    gate(window, QStringLiteral("gate_one_rank_4"));
    const GateResult expected = commandGate(QStringLiteral("gate_one_rank_4"));
    QCOMPARE(window.passed(), std::optional<bool>(false));
    GateView* view = window.view();
    QVERIFY2(view->headline().startsWith(QLatin1String("Fail: 1 of 4 ranks (2)")), qPrintable(view->headline()));
    QVERIFY(window.statusBar()->currentMessage().startsWith(view->headline()));
    QCOMPARE(view->markedRanks(), (std::vector<std::pair<int, int>> { { 2, 0 } }));
    QVERIFY(!view->plot()->isHidden() && !view->items()->isHidden());
    QVERIFY(view->details().contains(QLatin1String("2% of its peak")));
    QVERIFY(view->details().contains(Formatting::bytes(GateOptions::defaultMinBytes)));

    // The failing rank first, open, with the rank's figures as the gate computed them.
    QTreeWidget* tree = view->items();
    QTreeWidgetItem* failing = tree->topLevelItem(0);
    QCOMPARE(failing->type(), int(GateView::RanksItem));
    QCOMPARE(failing->text(0), QStringLiteral("Rank 2"));
    QCOMPARE(failing->text(1), QStringLiteral("fail"));
    QVERIFY(failing->isExpanded());
    const GateResult::Rank& rank2 = expected.ranks[2];
    QCOMPARE(rank2.rank, 2);
    QVERIFY(failing->text(2).startsWith(QLatin1Char('+') + Formatting::bytes(rank2.largestBytes)));
    QCOMPARE(failing->text(3),
        Formatting::bytes(rank2.totalBefore) + QStringLiteral(" → ") + Formatting::bytes(rank2.totalAfter));
    for (int i = 1; i < tree->topLevelItemCount(); ++i)
        QCOMPARE(tree->topLevelItem(i)->text(1), QStringLiteral("pass"));

    // Its sites: the one that grew most across the job first, with on how many ranks, and open on its stack.
    QVERIFY(failing->childCount() > 0);
    QTreeWidgetItem* site = failing->child(0);
    QCOMPARE(site->type(), int(GateView::SiteItem));
    const GateResult::SiteChange& top = expected.jobSites.front();
    QCOMPARE(site->text(0), QString::fromStdString(expected.sites->label(top.site)));
    QVERIFY(site->text(1).startsWith(QLatin1String("grew")));
    QCOMPARE(site->text(2), QLatin1Char('+') + Formatting::bytes(top.delta()));
    QCOMPARE(site->text(4), QStringLiteral("1 of 4"));
    QVERIFY(site->text(5).endsWith(QLatin1String("% into the step")));
    QVERIFY(site->isExpanded());
    // The stack in call order: one line marked where reading starts, the line the text report marks.
    const StackText::Lines lines = StackText::lines(StackText::siteFrames(*expected.sites, top.site));
    QCOMPARE(site->childCount(), int(lines.lines.size()));
    int marked = -1;
    for (int i = 0; i < site->childCount(); ++i) {
        QCOMPARE(site->child(i)->type(), int(GateView::FrameItem));
        QVERIFY(site->child(i)->text(0).endsWith(lines.lines[i]));
        if (site->child(i)->data(0, GateView::OwnFrameRole).toBool()) {
            QCOMPARE(marked, -1);
            marked = i;
            QVERIFY(site->child(i)->font(0).bold());
        }
    }
    QVERIFY(lines.start >= 0);
    QCOMPARE(marked, lines.start);
    // Native runs (where a stack has them) fold into a line of their own that opens to their frames.
    for (qsizetype i = 0; i < lines.foldLines.size(); ++i)
        QCOMPARE(site->child(lines.foldLines[i])->childCount(), lines.foldSizes[i]);
}

// The control: the same job twice passes, nothing marked, nothing grown, alike ranks said once.
void TestGateWindow::sameJobPasses()
{
    GateWindow window;
    gate(window, QStringLiteral("gate_same_4"));
    QCOMPARE(window.passed(), std::optional<bool>(true));
    GateView* view = window.view();
    QVERIFY2(view->headline().startsWith(QLatin1String("Pass")), qPrintable(view->headline()));
    QVERIFY(view->markedRanks().empty());
    QVERIFY(view->details().contains(QLatin1String("same number")));
    QTreeWidget* tree = view->items();
    QVERIFY(tree->topLevelItemCount() > 0);
    int ranks = 0;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        QCOMPARE(tree->topLevelItem(i)->text(1), QStringLiteral("pass"));
        QVERIFY(!tree->topLevelItem(i)->isExpanded());
        ranks += tree->topLevelItem(i)->text(4).section(QLatin1Char(' '), 0, 0).toInt();
    }
    QCOMPARE(ranks, 4);
    for (const QTreeWidgetItem* site : itemsOf(tree, GateView::SiteItem))
        QVERIFY2(!site->text(2).startsWith(QLatin1Char('+')), qPrintable(site->text(0)));
    // The plot still shows every rank's pair.
    QCOMPARE(view->plot()->plottable(0)->interface1D()->dataCount(), 4);
}

// Every rank holds more mid-step under peaks that stay alike: every rank fails and is marked, the activation sites
// named on all four with the moment.
void TestGateWindow::everyRankGrowingMidStep()
{
    GateWindow window;
    gate(window, QStringLiteral("gate_midstep_all_4"));
    QCOMPARE(window.passed(), std::optional<bool>(false));
    GateView* view = window.view();
    QCOMPARE(view->markedRanks().size(), size_t(4));
    const std::vector<QTreeWidgetItem*> sites = itemsOf(view->items(), GateView::SiteItem);
    QVERIFY(!sites.empty());
    const bool onAll = std::any_of(sites.begin(), sites.end(), [](const QTreeWidgetItem* site) {
        return site->text(4) == QLatin1String("4 of 4") && site->text(1).contains(QLatin1String("activations"));
    });
    QVERIFY(onAll);
    for (int i = 0; i < view->items()->topLevelItemCount(); ++i) {
        QCOMPARE(view->items()->topLevelItem(i)->text(1), QStringLiteral("fail"));
        QVERIFY(view->items()->topLevelItem(i)->text(5).endsWith(QLatin1String("% into the step")));
    }
}

// A baseline of two ranks for a job of four: the view says which ranks are weighed against which.
void TestGateWindow::fewerBaselineRanksSaysHowTheyPair()
{
    GateWindow window;
    gate(window, QStringLiteral("gate_fewer_base_grow_2_4"));
    GateView* view = window.view();
    QCOMPARE(window.passed(), std::optional<bool>(false));
    QVERIFY2(view->details().contains(QLatin1String("The baseline has 2 ranks: ranks 2, 3 have none of their own "
                                                    "there, so rank R is weighed against baseline rank R modulo 2.")),
        qPrintable(view->details()));
    QCOMPARE(view->markedRanks(), (std::vector<std::pair<int, int>> { { 3, 0 } }));
    QTreeWidgetItem* failing = view->items()->topLevelItem(0);
    QCOMPARE(failing->text(0), QStringLiteral("Rank 3"));
    QVERIFY(failing->toolTip(0).contains(QLatin1String("Weighed against the baseline's rank 1")));
}

// Ranks driving three GPUs each: the failing GPU is named and marked alone.
void TestGateWindow::gpusNamedWhereRanksDriveSeveral()
{
    GateWindow window;
    gate(window, QStringLiteral("gate_multi_gpu_grow_4"));
    GateView* view = window.view();
    QCOMPARE(window.passed(), std::optional<bool>(false));
    QCOMPARE(view->markedRanks(), (std::vector<std::pair<int, int>> { { 3, 2 } }));
    QCOMPARE(view->items()->topLevelItem(0)->text(0), QStringLiteral("Rank 3, cuda:2"));
    QVERIFY(view->items()->topLevelItem(0)->child(0)->text(1).startsWith(QLatin1String("appeared")));
}

// A baseline of digests gives the view its snapshots give, row for row.
void TestGateWindow::digestsShowWhatSnapshotsShow()
{
    for (const QString& name : { QStringLiteral("gate_one_rank_4"), QStringLiteral("gate_fewer_base_grow_2_4") }) {
        QTemporaryDir digests;
        TestUtils::writeDigests(scenario(name, "base"), digests.path());
        GateWindow fromFiles;
        gate(fromFiles, name);
        GateWindow fromDigests;
        gate(fromDigests, name, digests.path());
        QCOMPARE(fromDigests.passed(), fromFiles.passed());
        QCOMPARE(fromDigests.view()->headline(), fromFiles.view()->headline());
        QCOMPARE(fromDigests.view()->details(), fromFiles.view()->details());
        QCOMPARE(fromDigests.view()->markedRanks(), fromFiles.view()->markedRanks());
        QCOMPARE(treeText(fromDigests.view()->items()), treeText(fromFiles.view()->items()));
    }
}

// The window's words in Chinese, switched while it is open: the headline, the tree's pass and fail.
void TestGateWindow::headlineInChinese()
{
    const auto english = qScopeGuard([] { Appearance::setLanguage(QString()); });
    GateWindow window;
    gate(window, QStringLiteral("gate_one_rank_4"));
    const QString before = window.view()->headline();
    Appearance::setLanguage(QStringLiteral("zh_CN"));
    QTRY_VERIFY(window.view()->headline() != before);
    const QString zh = window.view()->headline();
    QVERIFY2(!zh.contains(QLatin1String("Fail")) && zh.contains(QLatin1Char('2')), qPrintable(zh));
    QVERIFY(std::any_of(zh.begin(), zh.end(), [](QChar c) { return c.script() == QChar::Script_Han; }));
    QVERIFY(window.view()->items()->topLevelItem(0)->text(1) != QLatin1String("fail"));
    QVERIFY(!window.view()->items()->headerItem()->text(0).contains(QLatin1String("Ranks")));
}

// Files the gate cannot read are named in the view; with no rank left the gate says it could not run.
void TestGateWindow::problemsNameTheFile()
{
    QTemporaryDir broken;
    TestUtils::writeFile(broken, QStringLiteral("rank0_memory_snapshot.pickle"), "not a pickle");
    GateWindow window;
    gate(window, QStringLiteral("gate_same_4"), broken.path());
    QVERIFY(!window.passed().has_value());
    QVERIFY2(window.view()->headline().startsWith(QLatin1String("The gate could not run")),
        qPrintable(window.view()->headline()));
    QVERIFY2(window.view()->details().contains(QLatin1String("rank0_memory_snapshot.pickle")),
        qPrintable(window.view()->details()));
    QCOMPARE(window.view()->items()->topLevelItemCount(), 0);
    QVERIFY(window.view()->markedRanks().empty());
    QVERIFY(window.view()->plot()->isHidden() && window.view()->items()->isHidden());
}

// A rank whose file cannot be read is not a pass: the headline says the gate is incomplete, the rank keeps its place
// in the plot unmarked, and the tree says what it lacks with the file; an empty baseline folder is named as such.
void TestGateWindow::unreadableRankIsNotAPass()
{
    QTemporaryDir broken;
    const QString name = QStringLiteral("gate_one_rank_4"); // rank 2 grows, and cannot be read here
    for (int r = 0; r < 4; ++r) {
        const QString file = QStringLiteral("rank%1_memory_snapshot.pickle").arg(r);
        QVERIFY(QFile::copy(QDir(scenario(name, "new")).filePath(file), QDir(broken.path()).filePath(file)));
        if (r == 2)
            QVERIFY(QFile::resize(QDir(broken.path()).filePath(file), 100000));
    }
    GateWindow window;
    QSignalSpy shown(&window, &GateWindow::shown);
    window.gate({ scenario(name, "base") }, { broken.path() });
    QVERIFY(shown.wait(120000));
    const QString headline = window.view()->headline();
    QVERIFY2(headline.startsWith(QLatin1String("Incomplete: ")) && headline.endsWith(QLatin1String("not gated: 2")),
        qPrintable(headline));
    QVERIFY(window.view()->markedRanks().empty());
    QVERIFY2(window.view()->details().contains(QLatin1String("Rank 2 not gated: its file could not be read")),
        qPrintable(window.view()->details()));
    QCOMPARE(window.view()->details().count(QLatin1String("rank2_memory_snapshot.pickle")), 1); // said once
    const QStringList tree = treeText(window.view()->items());
    const auto row = std::find_if(tree.begin(), tree.end(),
        [](const QString& line) { return line.startsWith(QLatin1String("Rank 2 | not gated")); });
    QVERIFY2(row != tree.end(), qPrintable(tree.join(QLatin1Char('\n'))));
    QVERIFY2((row + 1)->contains(QLatin1String("rank2_memory_snapshot.pickle")), qPrintable(*(row + 1)));

    QTemporaryDir empty;
    GateWindow emptyBaseline;
    QSignalSpy emptyShown(&emptyBaseline, &GateWindow::shown);
    emptyBaseline.gate({ empty.path() }, { scenario(name, "new") });
    QVERIFY(emptyShown.wait(120000));
    QCOMPARE(emptyBaseline.view()->headline(), QStringLiteral("The gate could not run"));
    QVERIFY2(emptyBaseline.view()->details().startsWith(QStringLiteral("the baseline %1: ").arg(empty.path())),
        qPrintable(emptyBaseline.view()->details()));
}

// A job of digests cannot be gated (too little of its trace is kept to align): said, not gated.
void TestGateWindow::digestsAsTheJobRefused()
{
    QTemporaryDir digests;
    TestUtils::writeDigests(scenario(QStringLiteral("gate_same_4"), "new"), digests.path());
    GateWindow window;
    QSignalSpy shown(&window, &GateWindow::shown);
    window.gate({ scenario(QStringLiteral("gate_same_4"), "base") }, { digests.path() });
    // While it runs, the view says so and shows nothing of an earlier result.
    QCOMPARE(window.view()->headline(), QStringLiteral("Gating the job against its baseline…"));
    QVERIFY(window.view()->plot()->isHidden());
    QVERIFY(shown.wait(120000));
    QVERIFY(!window.passed().has_value());
    QVERIFY2(window.view()->details().contains(QLatin1String("digests")), qPrintable(window.view()->details()));
    QVERIFY(window.statusBar()->currentMessage().contains(QLatin1String("digests")));
}

RANKSCOPE_TEST_CLASS(TestGateWindow)
#include "tst_gatewindow.moc"
