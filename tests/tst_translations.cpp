// SPDX-License-Identifier: MIT
// The translations are complete and current: no unfinished, vanished or obsolete entry in the committed .ts files,
// none after lupdate re-reads today's sources (so a new tr() string without a translation fails here), the same
// placeholders and accelerators in every translation, and the embedded .qm files translate.
#include "findingsmodel.h"
#include "job.h"
#include "ranklistmodel.h"
#include "testprogram.h"
#include "testutils.h"
#include "verdicttext.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

using namespace RankScope;

class TestTranslations : public QObject
{
    Q_OBJECT
private slots:
    void committedFilesAreComplete_data();
    void committedFilesAreComplete();
    void currentWithTheSources_data();
    void currentWithTheSources();
    void embeddedCatalogsTranslate();
    void englishPlurals();
    void pointsAndRanksInChinese();
    void jobErrorsAndRankNotesInChinese();
};

namespace {

struct Entry
{
    QString context;
    QString source;
    QStringList translations; // one per numerus form
    QString type; // "", "unfinished", "vanished", "obsolete"
};

std::vector<Entry> readTs(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    std::vector<Entry> entries;
    QXmlStreamReader xml(&file);
    QString context;
    Entry entry;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("name"))
            context = xml.readElementText();
        else if (xml.name() == QLatin1String("message"))
            entry = Entry { context, {}, {}, {} };
        else if (xml.name() == QLatin1String("source"))
            entry.source = xml.readElementText();
        else if (xml.name() == QLatin1String("translation")) {
            entry.type = xml.attributes().value(QLatin1String("type")).toString();
            // Either plain text or <numerusform> children.
            QString text;
            while (!(xml.isEndElement() && xml.name() == QLatin1String("translation")) && !xml.atEnd()) {
                xml.readNext();
                if (xml.isStartElement() && xml.name() == QLatin1String("numerusform"))
                    entry.translations.append(xml.readElementText());
                else if (xml.isCharacters())
                    text += xml.text();
            }
            if (entry.translations.isEmpty())
                entry.translations.append(text);
            entries.push_back(entry);
        }
    }
    if (xml.hasError())
        qFatal("%s: %s", qPrintable(path), qPrintable(xml.errorString()));
    return entries;
}

QSet<QString> placeholders(const QString& text)
{
    QSet<QString> found;
    static const QRegularExpression re(QStringLiteral("%(\\d+|n)"));
    for (auto it = re.globalMatch(text); it.hasNext();)
        found.insert(it.next().captured(0));
    return found;
}

// Mnemonics: "&File" must keep one, as "文件(&F)" does; "&&" is a literal ampersand.
bool hasMnemonic(const QString& text)
{
    QString t = text;
    t.replace(QLatin1String("&&"), QString());
    static const QRegularExpression re(QStringLiteral("&[^\\s;&]"));
    return re.match(t).hasMatch();
}

QStringList problems(const std::vector<Entry>& entries)
{
    QStringList out;
    for (const Entry& e : entries) {
        const QString where = e.context + QLatin1String(": \"") + e.source.left(60) + QLatin1Char('"');
        if (!e.type.isEmpty()) {
            out.append(e.type + QLatin1String(" ") + where);
            continue;
        }
        for (const QString& t : e.translations) {
            if (t.trimmed().isEmpty() && !e.source.trimmed().isEmpty())
                out.append(QLatin1String("empty translation ") + where);
            else if (placeholders(t) != placeholders(e.source))
                out.append(QLatin1String("placeholders differ ") + where + QLatin1String(" → ") + t);
            else if (hasMnemonic(e.source) != hasMnemonic(t) && !e.source.contains(QLatin1String(";;")))
                out.append(QLatin1String("accelerator lost ") + where + QLatin1String(" → ") + t);
        }
    }
    return out;
}

QString tsPath(const QString& name)
{
    return QStringLiteral(RANKSCOPE_SOURCE_DIR "/translations/") + name;
}

} // namespace

void TestTranslations::committedFilesAreComplete_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("minimum");
    QTest::newRow("zh_CN") << QStringLiteral("rankscope_zh_CN.ts") << 300;
    QTest::newRow("en (plurals)") << QStringLiteral("rankscope_en.ts") << 5;
}

void TestTranslations::committedFilesAreComplete()
{
    QFETCH(QString, file);
    QFETCH(int, minimum);
    const std::vector<Entry> entries = readTs(tsPath(file));
    QVERIFY2(int(entries.size()) >= minimum, qPrintable(QString::number(entries.size())));
    const QStringList found = problems(entries);
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
}

void TestTranslations::currentWithTheSources_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("options");
    QTest::newRow("zh_CN") << QStringLiteral("rankscope_zh_CN.ts") << QStringList();
    QTest::newRow("en (plurals)") << QStringLiteral("rankscope_en.ts") << QStringList { QStringLiteral("-pluralonly") };
}

void TestTranslations::currentWithTheSources()
{
    QFETCH(QString, file);
    QFETCH(QStringList, options);
    // lupdate on a copy: every tr() string in the code today must already be translated.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString copy = dir.filePath(file);
    QVERIFY(QFile::copy(tsPath(file), copy));
    QProcess lupdate;
    QStringList arguments;
    for (const char* folder : { "app", "widgets", "models" })
        arguments.append(QStringLiteral(RANKSCOPE_SOURCE_DIR "/") + QLatin1String(folder));
    arguments << options << QStringLiteral("-no-obsolete") << QStringLiteral("-locations") << QStringLiteral("none")
              << QStringLiteral("-ts") << copy;
    lupdate.start(QStringLiteral(RANKSCOPE_LUPDATE), arguments);
    QVERIFY2(lupdate.waitForFinished(120000), qPrintable(lupdate.errorString()));
    QVERIFY2(lupdate.exitCode() == 0, lupdate.readAllStandardError().constData());
    const std::vector<Entry> before = readTs(tsPath(file));
    const std::vector<Entry> after = readTs(copy);
    const QStringList found = problems(after);
    QVERIFY2(found.isEmpty(),
        qPrintable(QLatin1String("run `cmake --build <build> --target update_translations` and translate:\n")
            + found.join(QLatin1Char('\n'))));
    QCOMPARE(after.size(), before.size());
}

void TestTranslations::embeddedCatalogsTranslate()
{
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/rankscope_zh_CN.qm")));
    QCOMPARE(zh.translate("RankScope::MainWindow", "&File"), QStringLiteral("文件(&F)"));
    QCOMPARE(zh.translate("RankScope::VerdictText", "Burden imbalance on rank %1: it does work the others do not"),
        QStringLiteral("负载不均：rank %1 做了其他 rank 不做的工作"));
    QCOMPARE(zh.translate("RankScope::MainWindow", "%n rank(s)", nullptr, 3), QStringLiteral("%n 个 rank"));
}

void TestTranslations::englishPlurals()
{
    QTranslator en;
    QVERIFY(en.load(QStringLiteral(":/i18n/rankscope_en.qm")));
    QCoreApplication::installTranslator(&en);
    QCOMPARE(QCoreApplication::translate("RankScope::MainWindow", "%n rank(s)", nullptr, 1), QStringLiteral("1 rank"));
    QCOMPARE(QCoreApplication::translate("RankScope::MainWindow", "%n rank(s)", nullptr, 4), QStringLiteral("4 ranks"));
    QCoreApplication::removeTranslator(&en);
}

// The window names a comparison point in words in Chinese ("事件 5588", not the command line's "event:5588"), and a
// rank column too; the command line, reports and English keep the names --at takes, so scripts read them back.
void TestTranslations::pointsAndRanksInChinese()
{
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/rankscope_zh_CN.qm")));
    QCoreApplication::installTranslator(&zh);
    Verdict v;
    v.rankCount = 4;
    const std::pair<std::string, QString> points[] = { { "event:5588", QStringLiteral("事件 5588") },
        { "event:5588@2", QStringLiteral("rank 2 的事件 5588") }, { "step:3", QStringLiteral("第 3 步开始时") },
        { "step:3:end", QStringLiteral("第 3 步结束时") }, { "snapshot", QStringLiteral("快照") },
        { "peak", QStringLiteral("各 rank 的峰值") } };
    for (const auto& [point, words] : points) {
        v.point = point;
        QCOMPARE(VerdictText::moment(v, false, VerdictText::Translated), words);
        QCOMPARE(VerdictText::moment(v, false, VerdictText::English), QString::fromStdString(point));
    }
    v.point = "event:5588";
    const QString explanation = VerdictText::explanation(v, VerdictText::Translated);
    QVERIFY2(explanation.contains(QStringLiteral("在 事件 5588 处")) && !explanation.contains(QLatin1String("event:")),
        qPrintable(explanation));
    QVERIFY(VerdictText::explanation(v, VerdictText::English).contains(QLatin1String("at event:5588")));
    FindingsModel findings;
    RankListModel ranks;
    QCOMPARE(findings.headerData(FindingsModel::RankColumn, Qt::Horizontal).toString(), QStringLiteral("Rank 编号"));
    QCOMPARE(ranks.headerData(RankListModel::RankColumn, Qt::Horizontal).toString(), QStringLiteral("Rank 编号"));
    QCoreApplication::removeTranslator(&zh);
    // In English the window says what the command line says: exported pictures read as before.
    QCOMPARE(VerdictText::moment(v, false, VerdictText::Translated), QStringLiteral("event:5588"));
}

// What a job cannot do and why a rank is not at the point asked for are made in the core: English for the command
// line (which installs no translator) and its JSON whatever translator is installed, Chinese in the window, with the
// point in words.
void TestTranslations::jobErrorsAndRankNotesInChinese()
{
    RANKSCOPE_REQUIRE_FIXTURE(QStringLiteral(RANKSCOPE_SCENARIOS_DIR));
    Job job({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2") });
    job.load();
    ComparisonOptions missing;
    missing.point = TimelinePoint::parse("event:100@7");
    ComparisonOptions noStep;
    noStep.point = TimelinePoint::parse("step:99");
    const Job::Result result = job.compare(noStep, Job::Points::MayMiss);
    QVERIFY(result.comparison);
    const RankSummary& rank = result.comparison->ranks().front();

    const std::string english = "at event:100@7: no rank 7 among the files";
    QCOMPARE(job.check(missing).text(), english);
    QCOMPARE(job.check(missing).translated(), QString::fromStdString(english));
    QCOMPARE(rank.note.english(), std::string("has no step:99 point; compared at its snapshot"));

    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/rankscope_zh_CN.qm")));
    QCoreApplication::installTranslator(&zh);
    QCOMPARE(job.check(missing).text(), english);
    QCOMPARE(job.check(missing).translated(), QStringLiteral("比较点 rank 7 的事件 100：文件中没有 rank 7"));
    QCOMPARE(rank.note.english(), std::string("has no step:99 point; compared at its snapshot"));
    QCOMPARE(rank.note.translated(), QStringLiteral("没有“第 99 步开始时”这一点；改在其快照处比较"));
    QCOMPARE(Job({ QStringLiteral(RANKSCOPE_SCENARIOS_DIR "/burden_2") }, { 7, false }).error().translated(),
        QStringLiteral("训练步骤 7：这些文件并非来自多个训练步骤"));
    QCoreApplication::removeTranslator(&zh);
}

RANKSCOPE_TEST_CLASS(TestTranslations)
#include "tst_translations.moc"
