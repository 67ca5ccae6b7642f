// SPDX-License-Identifier: MIT
// File → Compare With Baseline…: the window gates a job against its baseline in the background and shows what
// `rankscope gate` says, with the same pass or fail.
#include "gatereport.h"
#include "gatewindow.h"
#include "job.h"
#include "testprogram.h"
#include "testutils.h"

#include <QSignalSpy>
#include <QStatusBar>
#include <QTextBrowser>

using namespace RankScope;

class TestGateWindow : public QObject
{
    Q_OBJECT

private slots:
    void showsTheGate_data();
    void showsTheGate();
};

void TestGateWindow::showsTheGate_data()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_GATE_SCENARIOS_DIR));
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("passes");
    QTest::newRow("one rank grows") << QStringLiteral("gate_one_rank_4") << false;
    QTest::newRow("the same job") << QStringLiteral("gate_same_4") << true;
}

void TestGateWindow::showsTheGate()
{
    QFETCH(QString, name);
    QFETCH(bool, passes);
    const QString folder = QStringLiteral(RANKSCOPE_GATE_SCENARIOS_DIR) + QLatin1Char('/') + name;
    GateWindow window;
    QSignalSpy shown(&window, &GateWindow::shown);
    window.gate({ folder + QStringLiteral("/base") }, { folder + QStringLiteral("/new") });
    QVERIFY(shown.wait(60000));
    QVERIFY(window.passed().has_value());
    QCOMPARE(*window.passed(), passes);
    const QString text = window.view()->toPlainText();
    QVERIFY2(text.contains(passes ? QStringLiteral("pass") : QStringLiteral("FAIL")), qPrintable(text));
    QVERIFY(window.statusBar()->currentMessage().startsWith(passes ? QStringLiteral("Pass") : QStringLiteral("Fail")));
    if (!passes) {
        // The same result the command gives: rank 2 named, with the site that grew most.
        Job base({ folder + QStringLiteral("/base") });
        Job now({ folder + QStringLiteral("/new") });
        base.load();
        now.load();
        const GateResult result = Gate::run(Gate::sideOf(base).inputs, Gate::sideOf(now).inputs, GateOptions {});
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("ranks 2")));
        QVERIFY(text.contains(QString::fromStdString(result.sites->label(result.jobSites.front().site))));
    }
}

RANKSCOPE_TEST_CLASS(TestGateWindow)
#include "tst_gatewindow.moc"
