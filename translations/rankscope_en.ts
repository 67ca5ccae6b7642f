<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>RankScope::DiffSheet</name>
    <message numerus="yes">
        <source>&lt;b&gt;RankScope&lt;/b&gt; · %n rank(s) compared at &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>
            <numerusform>&lt;b&gt;RankScope&lt;/b&gt; · %n rank compared at &lt;b&gt;%1&lt;/b&gt;</numerusform>
            <numerusform>&lt;b&gt;RankScope&lt;/b&gt; · %n ranks compared at &lt;b&gt;%1&lt;/b&gt;</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::FindingsModel</name>
    <message numerus="yes">
        <source>%1 (%n alike)</source>
        <translation>
            <numerusform>%1 (%n alike)</numerusform>
            <numerusform>%1 (%n alike)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::JobSettingDialog</name>
    <message numerus="yes">
        <source>Sizes of the job&apos;s parallel dimensions, slowest first, as a device mesh is written (pp, dp, tp, cp, ep), e.g. pp=2,dp=4 for Megatron or torchtitan with two pipeline stages of four data-parallel ranks.
Ranks are compared with their replicas (the ranks that differ only in dp). Leave empty to let RankScope guess where the files show groups of ranks running different parts of the model.
This job has %n snapshot file(s).</source>
        <translation>
            <numerusform>Sizes of the job&apos;s parallel dimensions, slowest first, as a device mesh is written (pp, dp, tp, cp, ep), e.g. pp=2,dp=4 for Megatron or torchtitan with two pipeline stages of four data-parallel ranks.
Ranks are compared with their replicas (the ranks that differ only in dp). Leave empty to let RankScope guess where the files show groups of ranks running different parts of the model.
This job has %n snapshot file.</numerusform>
            <numerusform>Sizes of the job&apos;s parallel dimensions, slowest first, as a device mesh is written (pp, dp, tp, cp, ep), e.g. pp=2,dp=4 for Megatron or torchtitan with two pipeline stages of four data-parallel ranks.
Ranks are compared with their replicas (the ranks that differ only in dp). Leave empty to let RankScope guess where the files show groups of ranks running different parts of the model.
This job has %n snapshot files.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::MainWindow</name>
    <message numerus="yes">
        <source>Comparing %n rank(s)…</source>
        <translation>
            <numerusform>Comparing %n rank…</numerusform>
            <numerusform>Comparing %n ranks…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n rank</numerusform>
            <numerusform>%n ranks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n finding(s) (%1)</source>
        <translation>
            <numerusform> · %n finding (%1)</numerusform>
            <numerusform> · %n findings (%1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %1 of %n finding(s) shown by the filter (%2)</source>
        <translation>
            <numerusform> · %1 of %n finding shown by the filter (%2)</numerusform>
            <numerusform> · %1 of %n findings shown by the filter (%2)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::RanksPanel</name>
    <message numerus="yes">
        <source>✗ and %n more file(s) that did not load: see their rows</source>
        <translation>
            <numerusform>✗ and %n more file that did not load: see its row</numerusform>
            <numerusform>✗ and %n more files that did not load: see their rows</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::RecentFiles</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 and %n more</numerusform>
            <numerusform>%1 and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::StartPage</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 and %n more</numerusform>
            <numerusform>%1 and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::StepPeaksChart</name>
    <message numerus="yes">
        <source>%n other rank(s)</source>
        <translation>
            <numerusform>%n other rank</numerusform>
            <numerusform>%n other ranks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::StepsWindow</name>
    <message numerus="yes">
        <source>Reading %n log(s)…</source>
        <translation>
            <numerusform>Reading %n log…</numerusform>
            <numerusform>Reading %n logs…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n report(s)</source>
        <translation>
            <numerusform>%n report</numerusform>
            <numerusform>%n reports</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> from %n rank(s)</source>
        <translation>
            <numerusform> from %n rank</numerusform>
            <numerusform> from %n ranks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::TimelineInput</name>
    <message numerus="yes">
        <source>&lt;b&gt;Rank %1&lt;/b&gt; · %n annotated range(s), too short at this zoom to tell apart</source>
        <translation>
            <numerusform>&lt;b&gt;Rank %1&lt;/b&gt; · %n annotated range, too short at this zoom to tell apart</numerusform>
            <numerusform>&lt;b&gt;Rank %1&lt;/b&gt; · %n annotated ranges, too short at this zoom to tell apart</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;%1 ms, %n trace event(s) inside</source>
        <translation>
            <numerusform>&lt;br&gt;%1 ms, %n trace event inside</numerusform>
            <numerusform>&lt;br&gt;%1 ms, %n trace events inside</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::TimelineView</name>
    <message numerus="yes">
        <source> — peak %1, %n event(s)</source>
        <translation>
            <numerusform> — peak %1, %n event</numerusform>
            <numerusform> — peak %1, %n events</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> — peak %1, digest of %n event(s)</source>
        <translation>
            <numerusform> — peak %1, digest of %n event</numerusform>
            <numerusform> — peak %1, digest of %n events</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n range(s)</source>
        <translation>
            <numerusform>%n range</numerusform>
            <numerusform>%n ranges</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::VerdictBanner</name>
    <message numerus="yes">
        <source>%n file(s) could not be read and are not compared.</source>
        <translation>
            <numerusform>%n file could not be read and is not compared.</numerusform>
            <numerusform>%n files could not be read and are not compared.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) could not be compared at the point asked for; their rows say where they were.</source>
        <translation>
            <numerusform>%n rank could not be compared at the point asked for; its row says where it was.</numerusform>
            <numerusform>%n ranks could not be compared at the point asked for; their rows say where they were.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StackText</name>
    <message numerus="yes">
        <source>Rank %1 · %2 · +%3 over the baseline
%4 in %n allocation(s) here, against %5</source>
        <translation>
            <numerusform>Rank %1 · %2 · +%3 over the baseline
%4 in %n allocation here, against %5</numerusform>
            <numerusform>Rank %1 · %2 · +%3 over the baseline
%4 in %n allocations here, against %5</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 holds %2 in %n allocation(s) at this site.</source>
        <translation>
            <numerusform>Rank %1 holds %2 in %n allocation at this site.</numerusform>
            <numerusform>Rank %1 holds %2 in %n allocations at this site.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%n other rank(s) allocate here too)</source>
        <translation>
            <numerusform> (%n other rank allocates here too)</numerusform>
            <numerusform> (%n other ranks allocate here too)</numerusform>
        </translation>
    </message>
</context>
</TS>
