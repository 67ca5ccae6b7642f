<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DataExport</name>
    <message>
        <source>%1: cannot be written: %2</source>
        <translation>%1：无法写入：%2</translation>
    </message>
    <message>
        <source>%1: writing failed (is the disk full?): %2</source>
        <translation>%1：写入失败（磁盘已满？）：%2</translation>
    </message>
</context>
<context>
    <name>Formatting</name>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1（%2 字节）</translation>
    </message>
    <message>
        <source>%1 reserved but unallocated (%2%), largest free block %3</source>
        <translation>%1 已预留但未分配（%2%），最大空闲块 %3</translation>
    </message>
</context>
<context>
    <name>ImageExport</name>
    <message>
        <source>%1: unknown image format; use .png, .svg or .pdf</source>
        <translation>%1：未知的图片格式；请使用 .png、.svg 或 .pdf</translation>
    </message>
    <message>
        <source>Copy Image</source>
        <translation>复制图片</translation>
    </message>
    <message>
        <source>Export Image…</source>
        <translation>导出图片…</translation>
    </message>
    <message>
        <source>Export Image</source>
        <translation>导出图片</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>loading was cancelled</source>
        <translation>已取消加载</translation>
    </message>
    <message>
        <source>not enough memory to load this file</source>
        <translation>内存不足，无法加载此文件</translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>峰值 %1</translation>
    </message>
    <message>
        <source>OOM: %1</source>
        <translation>OOM：%1</translation>
    </message>
    <message>
        <source>the snapshot is empty: no segments and no trace events (taken before anything was allocated, or without _record_memory_history)</source>
        <translation>快照为空：没有内存段，也没有跟踪事件（在分配任何内存之前拍摄，或未启用 _record_memory_history）</translation>
    </message>
    <message>
        <source>Rank %1 holds at most %2 here, below the memory range shown (%3 to %4). Press Y or Home to see it.</source>
        <translation>Rank %1 在此处最多占用 %2，低于所示的内存范围（%3 至 %4）。按 Y 或 Home 键即可看到。</translation>
    </message>
</context>
<context>
    <name>RankName</name>
    <message>
        <source>its name says rank %1, like %2; compared as rank %3</source>
        <translation>文件名表明是 rank %1，与 %2 重复；按 rank %3 参与比较</translation>
    </message>
    <message>
        <source>its name gives local rank %1, which is not a global rank without the node; compared as rank %2, its place among the files</source>
        <translation>文件名给出的是本地 rank %1；没有节点信息时它不是全局 rank，按其在文件中的顺序作为 rank %2 比较</translation>
    </message>
</context>
<context>
    <name>RankScope::BeforeAfterView</name>
    <message>
        <source>Stood out before</source>
        <translation>修改前突出的问题</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>修改前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>修改后</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>What stood out before the change</source>
        <translation>修改前突出的问题</translation>
    </message>
    <message>
        <source>Memory per rank before and after</source>
        <translation>修改前后各 rank 的显存</translation>
    </message>
    <message>
        <source>Choose the run before the change and the run after it.</source>
        <translation>请选择修改前和修改后的两次运行。</translation>
    </message>
    <message>
        <source>Fixed: the ranks agree after the change</source>
        <translation>已修复：修改后各 rank 一致</translation>
    </message>
    <message>
        <source>Not fixed: the ranks still differ after the change</source>
        <translation>未修复：修改后各 rank 仍有差异</translation>
    </message>
    <message>
        <source>%1 (%2%)</source>
        <translation>%1（%2%）</translation>
    </message>
    <message>
        <source>Spread of the ranks (max − median): %1 before, %2 after; the threshold is %3%.</source>
        <translation>各 rank 的差距（最大值 − 中位数）：修改前 %1，修改后 %2；阈值为 %3%。</translation>
    </message>
    <message>
        <source>rank %1 departs at step %2</source>
        <translation>rank %1 在第 %2 步偏离</translation>
    </message>
    <message>
        <source>no rank departs</source>
        <translation>没有 rank 偏离</translation>
    </message>
    <message>
        <source>Step reports: %1 before, %2 after.</source>
        <translation>步报告：修改前%1，修改后%2。</translation>
    </message>
    <message>
        <source>Before: %1&lt;br&gt;After: %2</source>
        <translation>修改前：%1&lt;br&gt;修改后：%2</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank 编号</translation>
    </message>
    <message>
        <source>Highest peak in the step reports</source>
        <translation>步报告中的最高峰值</translation>
    </message>
    <message>
        <source>Memory at the comparison point</source>
        <translation>比较点处的显存</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已消失</translation>
    </message>
    <message>
        <source>still there</source>
        <translation>仍然存在</translation>
    </message>
</context>
<context>
    <name>RankScope::BeforeAfterWindow</name>
    <message>
        <source>Before and After — RankScope</source>
        <translation>修改前后对比 — RankScope</translation>
    </message>
    <message>
        <source>Comparing the snapshots before and after…</source>
        <translation>正在比较修改前后的快照…</translation>
    </message>
    <message>
        <source>Reading the step reports before and after…</source>
        <translation>正在读取修改前后的步报告…</translation>
    </message>
    <message>
        <source>Found no snapshots, nor step reports, in both runs.</source>
        <translation>两次运行中都没有找到快照或步报告。</translation>
    </message>
</context>
<context>
    <name>RankScope::BlockMapView</name>
    <message>
        <source>The allocator&apos;s segments and blocks of one rank at the comparison point</source>
        <translation>某个 rank 在比较点时分配器中的内存段与内存块</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>Rank %1 (%2)</source>
        <translation>Rank %1（%2）</translation>
    </message>
    <message>
        <source>No rank selected</source>
        <translation>未选择 rank</translation>
    </message>
    <message>
        <source>%1: replaying the allocator…</source>
        <translation>%1：正在重放分配器…</translation>
    </message>
    <message>
        <source>allocated (colour: site)</source>
        <translation>已分配（颜色：分配位置）</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>pending free</source>
        <translation>待释放</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>rounding</source>
        <translation>对齐浪费</translation>
    </message>
    <message>
        <source>finding</source>
        <translation>差异项</translation>
    </message>
    <message>
        <source>&lt;b&gt;Block 0x%1&lt;/b&gt;: %2 requested</source>
        <translation>&lt;b&gt;内存块 0x%1&lt;/b&gt;：请求 %2</translation>
    </message>
    <message>
        <source>, %1 after rounding</source>
        <translation>，对齐后 %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;Freed, but still in use by another stream (pending free)</source>
        <translation>&lt;br&gt;已释放，但仍被另一个流使用（待释放）</translation>
    </message>
    <message>
        <source>&lt;br&gt;Allocated</source>
        <translation>&lt;br&gt;已分配</translation>
    </message>
    <message>
        <source>&lt;b&gt;Segment 0x%1&lt;/b&gt;: %2, %3 free inside</source>
        <translation>&lt;b&gt;内存段 0x%1&lt;/b&gt;：%2，其中空闲 %3</translation>
    </message>
    <message>
        <source> (stream %1)</source>
        <translation>（流 %1）</translation>
    </message>
    <message>
        <source>Colour by Site</source>
        <translation>按分配位置着色</translation>
    </message>
    <message>
        <source>Colour by State</source>
        <translation>按状态着色</translation>
    </message>
    <message>
        <source>Reset Zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>free, smaller than the failed %1</source>
        <translation>空闲，小于失败的 %1 请求</translation>
    </message>
    <message>
        <source>allocated, other sites</source>
        <translation>已分配（其他位置）</translation>
    </message>
    <message>
        <source>Link Scale and Zoom with the Other Map</source>
        <translation>与另一张图共用比例并联动缩放</translation>
    </message>
    <message>
        <source>%1 after event %2: %3 reserved in %4 segment(s), %5 allocated in %6 block(s); %7</source>
        <translation>%1，事件 %2 之后：%4 个内存段共预留 %3，%6 个内存块共分配 %5；%7</translation>
    </message>
</context>
<context>
    <name>RankScope::CaptureHelperDialog</name>
    <message>
        <source>Capture Helper</source>
        <translation>采集助手</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;rankscope_capture.py&lt;/b&gt; is one Python file (standard library and torch) to put next to your training script. It prints a step report on every rank, dumps a snapshot per rank, and writes one on the rank that runs out of memory before the error propagates.&lt;/p&gt;&lt;p&gt;Collect the output of all ranks in one log (or one per rank) and open it with File → Open Step Logs…: RankScope names the rank and the step where memory departs. Then dump snapshots just before that step and open them.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;rankscope_capture.py&lt;/b&gt; 是一个 Python 文件（只依赖标准库和 torch），放在训练脚本旁边即可。它在每个 rank 上打印步报告、为每个 rank 导出快照，并在显存不足的 rank 上于错误抛出之前写下一个快照。&lt;/p&gt;&lt;p&gt;把所有 rank 的输出收集到一个日志（或每个 rank 一个日志），用“文件 → 打开步报告日志…”打开：RankScope 会指出显存在哪个 rank、哪一步开始偏离。然后在那一步之前导出快照并打开它们。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Save rankscope_capture.py…</source>
        <translation>保存 rankscope_capture.py…</translation>
    </message>
    <message>
        <source>Save Capture Helper</source>
        <translation>保存采集助手</translation>
    </message>
    <message>
        <source>Python (*.py)</source>
        <translation>Python (*.py)</translation>
    </message>
</context>
<context>
    <name>RankScope::ComparePanel</name>
    <message>
        <source>Where each rank is looked at. Aligned (the default): the rank with the highest peak there, every other rank at the same moment of its own trace; or each rank at its own peak, its snapshot, its OOM, a profiler step or an event picked on the timeline (double-click it)</source>
        <translation>每个 rank 在何处比较。对齐（默认）：峰值最高的 rank 取其峰值，其他 rank 取其轨迹中的同一时刻；或各 rank 自己的峰值、快照、OOM、某个 profiler 步骤，或在时间线上选取的事件（双击）</translation>
    </message>
    <message>
        <source>Comparison point</source>
        <translation>比较点</translation>
    </message>
    <message>
        <source>Rank A: by default the rank the verdict names</source>
        <translation>Rank A：默认为结论指出的 rank</translation>
    </message>
    <message>
        <source>Rank A</source>
        <translation>Rank A</translation>
    </message>
    <message>
        <source>Rank B: by default the rank closest to the baseline</source>
        <translation>Rank B：默认为最接近基线的 rank</translation>
    </message>
    <message>
        <source>Rank B</source>
        <translation>Rank B</translation>
    </message>
    <message>
        <source>Swap ranks A and B</source>
        <translation>交换 rank A 和 B</translation>
    </message>
    <message>
        <source>Swap A and B</source>
        <translation>交换 A 和 B</translation>
    </message>
    <message>
        <source>&amp;Point:</source>
        <translation>比较点(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Step:</source>
        <translation>步骤(&amp;S)：</translation>
    </message>
    <message>
        <source>The folder holds snapshots of several training steps (such as iteration_10/, iteration_20/): the ranks of this one are compared</source>
        <translation>该文件夹包含多个训练步骤的快照（例如 iteration_10/、iteration_20/）：比较的是此步骤的各个 rank</translation>
    </message>
    <message>
        <source>Training step</source>
        <translation>训练步骤</translation>
    </message>
    <message>
        <source>&amp;A:</source>
        <translation>&amp;A：</translation>
    </message>
    <message>
        <source>&amp;B:</source>
        <translation>&amp;B：</translation>
    </message>
    <message>
        <source>Wheel: zoom · drag: zoom into a box · Shift+drag: pan · Y: fit memory · Home: everything · click: an allocation&apos;s stack · double-click: compare there</source>
        <translation>滚轮：缩放 · 拖动：框选放大 · Shift+拖动：平移 · Y：内存轴适配 · Home：全部 · 单击：分配的调用栈 · 双击：在此比较</translation>
    </message>
    <message>
        <source>Block map of rank A</source>
        <translation>rank A 的内存块图</translation>
    </message>
    <message>
        <source>Block map of rank B</source>
        <translation>rank B 的内存块图</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>Aligned (one rank: its own peak)</source>
        <translation>对齐（只有一个 rank：其自身峰值）</translation>
    </message>
    <message>
        <source>Aligned (not possible: own peaks)</source>
        <translation>对齐（无法对齐：各自峰值）</translation>
    </message>
    <message>
        <source>Aligned at rank %1&apos;s OOM</source>
        <translation>对齐到 rank %1 的 OOM</translation>
    </message>
    <message>
        <source>Aligned mid-step at rank %1&apos;s event %2</source>
        <translation>对齐到步中 rank %1 的事件 %2</translation>
    </message>
    <message>
        <source>Aligned in each replica group</source>
        <translation>在每个副本组内对齐</translation>
    </message>
    <message>
        <source>Aligned at rank %1&apos;s peak</source>
        <translation>对齐到 rank %1 的峰值</translation>
    </message>
    <message>
        <source>Aligned (the verdict&apos;s moment)</source>
        <translation>对齐（判定所选的时刻）</translation>
    </message>
    <message>
        <source>Each rank&apos;s own peak</source>
        <translation>各 rank 自己的峰值</translation>
    </message>
    <message>
        <source>Snapshot (end of trace)</source>
        <translation>快照（追踪结束时）</translation>
    </message>
    <message>
        <source>Out of memory</source>
        <translation>显存不足（OOM）</translation>
    </message>
    <message>
        <source>Step %1 (start)</source>
        <translation>第 %1 步（开始）</translation>
    </message>
    <message>
        <source>Step %1 (end)</source>
        <translation>第 %1 步（结束）</translation>
    </message>
    <message>
        <source>Rank %1&apos;s event %2 (picked; the others at the same moment)</source>
        <translation>rank %1 的事件 %2（选取；其他 rank 取同一时刻）</translation>
    </message>
    <message>
        <source>Event %1 (picked on the timeline)</source>
        <translation>事件 %1（在时间线上选取）</translation>
    </message>
</context>
<context>
    <name>RankScope::ComparisonExport</name>
    <message>
        <source>Drawing the views took too long.</source>
        <translation>绘制视图耗时过长。</translation>
    </message>
    <message>
        <source>Export Diff Screenshot</source>
        <translation>导出差异截图</translation>
    </message>
    <message>
        <source>Export Findings as JSON</source>
        <translation>将差异项导出为 JSON</translation>
    </message>
    <message>
        <source>Export Findings as CSV</source>
        <translation>将差异项导出为 CSV</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export Findings</source>
        <translation>导出差异项</translation>
    </message>
    <message>
        <source>Export Report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>HTML page (*.html);;Markdown (*.md)</source>
        <translation>HTML 网页 (*.html);;Markdown (*.md)</translation>
    </message>
    <message>
        <source>Name the report .html or .md.</source>
        <translation>请将报告命名为 .html 或 .md。</translation>
    </message>
    <message>
        <source>%1 exists. Replace it with the report&apos;s picture?</source>
        <translation>%1 已存在。要用报告的图片替换它吗？</translation>
    </message>
</context>
<context>
    <name>RankScope::DiffSheet</name>
    <message numerus="yes">
        <source>&lt;b&gt;RankScope&lt;/b&gt; · %n rank(s) compared at &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>
            <numerusform>&lt;b&gt;RankScope&lt;/b&gt; · 在 &lt;b&gt;%1&lt;/b&gt; 比较了 %n 个 rank</numerusform>
        </translation>
    </message>
    <message>
        <source> · A: rank %1 (%2)</source>
        <translation> · A：rank %1（%2）</translation>
    </message>
    <message>
        <source> · B: rank %1 (%2)</source>
        <translation> · B：rank %1（%2）</translation>
    </message>
    <message>
        <source> · finding %1: %2</source>
        <translation> · 差异项 %1：%2</translation>
    </message>
    <message>
        <source>No finding: no rank holds more than its baseline at any site.</source>
        <translation>没有差异项：没有哪个 rank 在任何分配位置上超过其基线。</translation>
    </message>
    <message>
        <source>%1: use a .html or .md file name for a report</source>
        <translation>%1：报告文件名请使用 .html 或 .md</translation>
    </message>
    <message>
        <source>Bars: each rank&apos;s peak during the trace (light) and what it holds at the comparison point (dark); the highest peak outlined.</source>
        <translation>柱状图：每个 rank 在追踪期间的峰值（浅色）和在比较点处占用的显存（深色）；最高峰值已描边。</translation>
    </message>
    <message>
        <source>Timelines: live allocations over the trace on one memory scale and equal heights, every allocation big enough to see as a band of its own (its legend says what the colours mean). </source>
        <translation>时间线：跟踪期间的存活分配，使用同一内存刻度和相同高度，每个大到可见的分配都有自己的色带（图例说明颜色含义）。</translation>
    </message>
    <message>
        <source>Block maps: the allocator&apos;s segments at the comparison point (rows packed by size, one scale for both), blocks at their offsets; the selected finding&apos;s address runs outlined and flagged. </source>
        <translation>块图：比较点处分配器的段（按大小排成行，两图同一比例），块位于其偏移处；选中发现的地址区段加框并标记。</translation>
    </message>
    <message>
        <source>Flame graph: rank A&apos;s memory by frame, from the entry script at the top down to the frames that allocate; each frame as wide as what the rank holds through it.</source>
        <translation>火焰图：rank A 按帧划分的显存，从顶部的入口脚本一直到执行分配的帧；每一帧的宽度等于该 rank 经由它占用的显存。</translation>
    </message>
</context>
<context>
    <name>RankScope::ExcessTreeModel</name>
    <message>
        <source>%1 (%2:%3)
%4 through this frame, %5 allocated in it</source>
        <translation>%1（%2:%3）
经过此帧的超出量 %4，在此帧中分配 %5</translation>
    </message>
    <message>
        <source>Frame</source>
        <translation>帧</translation>
    </message>
    <message>
        <source>Excess</source>
        <translation>超出量</translation>
    </message>
    <message>
        <source>Self</source>
        <translation>自身</translation>
    </message>
    <message>
        <source>Sites</source>
        <translation>位置数</translation>
    </message>
    <message>
        <source>What the rank holds beyond its baseline through this frame and everything it calls</source>
        <translation>该 rank 经过此帧及其调用的所有函数而超出基线的占用</translation>
    </message>
    <message>
        <source>Beyond the baseline at sites whose allocating frame this is</source>
        <translation>以此帧为分配帧的位置上超出基线的占用</translation>
    </message>
    <message>
        <source>Findings whose stack passes through this frame</source>
        <translation>调用栈经过此帧的差异项</translation>
    </message>
    <message>
        <source>Held</source>
        <translation>占用</translation>
    </message>
    <message>
        <source>What the rank holds at the point through this frame and everything it calls</source>
        <translation>该 rank 在比较点经由此帧及其调用的所有函数占用的显存</translation>
    </message>
    <message>
        <source>At sites whose allocating frame this is</source>
        <translation>以此帧为分配帧的位置上的占用</translation>
    </message>
    <message>
        <source>Sites whose stack passes through this frame</source>
        <translation>调用栈经过此帧的分配位置</translation>
    </message>
    <message>
        <source>The C++, CPython and allocator frames below the Python frames, folded: expand to see them
%1 through them</source>
        <translation>Python 栈帧之下的 C++、CPython 和分配器栈帧，已折叠：展开即可查看
经过它们的有 %1</translation>
    </message>
    <message>
        <source>Native frames</source>
        <translation>原生栈帧</translation>
    </message>
    <message>
        <source>Allocations recorded without a stack (made before the recording began, as parameters often are)
%1 held</source>
        <translation>未记录调用栈的分配（在开始记录之前创建，参数通常如此）
持有 %1</translation>
    </message>
    <message>
        <source>&lt;no stack recorded&gt;</source>
        <translation>&lt;未记录调用栈&gt;</translation>
    </message>
</context>
<context>
    <name>RankScope::ExportDialog</name>
    <message>
        <source>Export Diff Screenshot</source>
        <translation>导出差异截图</translation>
    </message>
    <message>
        <source>rankscope-diff.png</source>
        <translation>rankscope-diff.png</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>The suffix chooses the format: .png, .svg or .pdf</source>
        <translation>后缀决定格式：.png、.svg 或 .pdf</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>&amp;File:</source>
        <translation>文件(&amp;F)：</translation>
    </message>
    <message>
        <source>Diff: timelines, block maps, findings and stack</source>
        <translation>差异：时间线、内存块图、差异项和调用栈</translation>
    </message>
    <message>
        <source>Timelines of A and B</source>
        <translation>A 和 B 的时间线</translation>
    </message>
    <message>
        <source>Block maps of A and B</source>
        <translation>A 和 B 的内存块图</translation>
    </message>
    <message>
        <source>Overview of every rank</source>
        <translation>所有 rank 的概览</translation>
    </message>
    <message>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>&amp;View:</source>
        <translation>视图(&amp;V)：</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>Height</source>
        <translation>高度</translation>
    </message>
    <message>
        <source>&amp;Size:</source>
        <translation>尺寸(&amp;S)：</translation>
    </message>
    <message>
        <source>1× (as on screen)</source>
        <translation>1×（与屏幕一致）</translation>
    </message>
    <message>
        <source>2× (sharp text, default)</source>
        <translation>2×（文字清晰，默认）</translation>
    </message>
    <message>
        <source>3×</source>
        <translation>3×</translation>
    </message>
    <message>
        <source>Pixels per point in a PNG; SVG and PDF are vectors and need none</source>
        <translation>PNG 中每个点的像素数；SVG 和 PDF 为矢量格式，无需设置</translation>
    </message>
    <message>
        <source>Scale</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>S&amp;cale:</source>
        <translation>缩放(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Name the file .png, .svg or .pdf.</source>
        <translation>请将文件命名为 .png、.svg 或 .pdf。</translation>
    </message>
    <message>
        <source>%1 exists. Replace it?</source>
        <translation>%1 已存在。要替换吗？</translation>
    </message>
</context>
<context>
    <name>RankScope::FindingsFilterModel</name>
    <message>
        <source>%1 — found in %2</source>
        <translation>%1 — 匹配于 %2</translation>
    </message>
    <message>
        <source>The filter found frame %1 of this finding&apos;s stack (counted from where it allocates):
%2</source>
        <translation>筛选文字出现在此差异项调用栈的第 %1 帧（从分配处算起）：
%2</translation>
    </message>
</context>
<context>
    <name>RankScope::FindingsModel</name>
    <message>
        <source>Rank</source>
        <translation>Rank 编号</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Excess</source>
        <translation>超出量</translation>
    </message>
    <message>
        <source>On rank</source>
        <translation>本 rank</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>分配数</translation>
    </message>
    <message>
        <source>Baseline allocations</source>
        <translation>基线分配数</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>连续区间</translation>
    </message>
    <message>
        <source>Site</source>
        <translation>分配位置</translation>
    </message>
    <message>
        <source>Bytes this rank holds at the site beyond its baseline, at the comparison point</source>
        <translation>比较点时，此 rank 在该分配位置超出其基线的字节数</translation>
    </message>
    <message>
        <source>The median over the other ranks at this site, or the chosen baseline rank&apos;s bytes</source>
        <translation>其他 rank 在此位置的中位数，或所选基线 rank 的字节数</translation>
    </message>
    <message>
        <source>Address ranges of the extra blocks, adjacent blocks of one segment merged</source>
        <translation>多出的内存块的地址区间，同一内存段中相邻的块已合并</translation>
    </message>
    <message>
        <source>%1 · cuda:%2</source>
        <translation>%1 · cuda:%2</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Only on this rank: no other rank allocates at this site (extra work). More or larger: every rank does, this one holds more or bigger tensors there (uneven input). Grows every step: more than at the same moment of the step before, at every step (tensors kept across steps).</source>
        <translation>仅此 rank 有：其他 rank 都不在此位置分配（额外工作）。更多或更大：每个 rank 都在此分配，但此 rank 的张量更多或更大（输入不均）。每步增长：比上一步同一时刻更多，且每一步都如此（张量跨步保留）。</translation>
    </message>
    <message>
        <source>What most of the rank&apos;s memory at this site is for, from its stacks and lifetimes: parameters, gradients, optimizer state, activations, temporaries or other (outside the training step)</source>
        <translation>该 rank 在此位置的大部分显存的用途，依据调用栈和生命周期判断：参数、梯度、优化器状态、激活、临时张量或其他（训练步之外）</translation>
    </message>
    <message>
        <source>Where the memory was allocated: the innermost frames of your own code, else of the package or torch code that allocated it; hover a site for its stack, your frames first</source>
        <translation>内存在哪里分配：你自己代码中最内层的帧，否则是分配它的包或 torch 代码的帧；悬停在位置上可查看其调用栈，你的帧排在最前</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n alike)</source>
        <translation>
            <numerusform>%1（%n 个相近）</numerusform>
        </translation>
    </message>
    <message>
        <source>Ranks %1 hold alike at this site (within the threshold): the figures are rank %2&apos;s, the largest; expand the row for each rank</source>
        <translation>rank %1 在此位置的占用相近（在阈值内）：数值取自其中最大的 rank %2；展开此行可查看每个 rank</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank 数</translation>
    </message>
    <message>
        <source>How many of the compared ranks allocate at this site: 1 of 8 is on one rank only, 7 of 8 on all but one. Filter with on:K or on:K-M, as --present-on takes it</source>
        <translation>所比较的 rank 中有多少个在此位置分配：1/8 表示只在一个 rank 上，7/8 表示除一个以外都有。可用 on:K 或 on:K-M 筛选，与 --present-on 的写法相同</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1/%2</translation>
    </message>
</context>
<context>
    <name>RankScope::FindingsPanel</name>
    <message>
        <source>Filter findings</source>
        <translation>筛选差异项</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>差异项</translation>
    </message>
    <message>
        <source>Top down</source>
        <translation>自顶向下</translation>
    </message>
    <message>
        <source>Bottom up</source>
        <translation>自底向上</translation>
    </message>
    <message>
        <source>Flame</source>
        <translation>火焰图</translation>
    </message>
    <message>
        <source>What if</source>
        <translation>假设</translation>
    </message>
    <message>
        <source>Rank A&apos;s excess (or everything it holds at the point) by frame, from the entry script down to where it allocates</source>
        <translation>Rank A 按帧划分的超出量（或其在比较点占用的全部显存），从入口脚本到分配位置</translation>
    </message>
    <message>
        <source>Rank A&apos;s excess (or everything it holds at the point) by frame, from where it allocates up to its callers</source>
        <translation>Rank A 按帧划分的超出量（或其在比较点占用的全部显存），从分配位置到其调用者</translation>
    </message>
    <message>
        <source>Rank A&apos;s excess (or everything it holds at the point) as a flame graph (right-click to export it as SVG)</source>
        <translation>Rank A 的超出量（或其在比较点占用的全部显存）的火焰图（右键可导出为 SVG）</translation>
    </message>
    <message>
        <source>Rank A&apos;s peak had each of its largest sites, or each category, not been allocated</source>
        <translation>假如 rank A 最大的各个分配位置或各个类别没有分配，其峰值会是多少</translation>
    </message>
    <message>
        <source>Excess</source>
        <translation>超出量</translation>
    </message>
    <message>
        <source>Everything</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>What the trees and the flame graph show of rank A: what it holds beyond its baseline, or everything it holds at the point compared</source>
        <translation>树和火焰图显示 rank A 的哪一部分：超出基线的占用，或在比较点的全部占用</translation>
    </message>
    <message>
        <source>Memory shown by frame</source>
        <translation>按帧显示的显存</translation>
    </message>
    <message>
        <source>median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>rank B</source>
        <translation>rank B</translation>
    </message>
    <message>
        <source>What each rank is compared with: the median of the other ranks, or rank B</source>
        <translation>每个 rank 与什么比较：其他 rank 的中位数，或 rank B</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Base&amp;line:</source>
        <translation>基线(&amp;L)：</translation>
    </message>
    <message>
        <source>A rank is an outlier when it holds more than this much above its baseline</source>
        <translation>当某个 rank 超出其基线的比例大于此值时，视为异常</translation>
    </message>
    <message>
        <source>Outlier threshold</source>
        <translation>异常阈值</translation>
    </message>
    <message>
        <source>&amp;Threshold:</source>
        <translation>阈值(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;My code</source>
        <translation>仅我的代码(&amp;M)</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>How many frames (innermost first) make a site; fewer frames merge more allocations</source>
        <translation>用多少层栈帧（从最内层起）确定一个分配位置；层数越少，合并的分配越多</translation>
    </message>
    <message>
        <source>Stack depth</source>
        <translation>调用栈深度</translation>
    </message>
    <message>
        <source>&amp;Depth:</source>
        <translation>深度(&amp;D)：</translation>
    </message>
    <message>
        <source>No finding: no rank holds more than its baseline at any site. What fills rank A&apos;s GPU is under What if, and by frame under Top down and Flame.</source>
        <translation>没有差异项：没有哪个 rank 在任何分配位置上超过其基线。rank A 的 GPU 被什么占满，请看“假设”，按帧划分请看“自顶向下”和“火焰图”。</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>Baseline, threshold, my code and stack depth: what decides the findings</source>
        <translation>基线、阈值、仅我的代码与调用栈深度：决定差异项的选项</translation>
    </message>
    <message>
        <source>Filter findings: any frame, file, function, rank… (%1)</source>
        <translation>筛选发现：任意帧、文件、函数、Rank…（%1）</translation>
    </message>
    <message>
        <source>No finding matches “%1”: every finding&apos;s site, rank and every frame of its stack were searched.</source>
        <translation>没有与“%1”匹配的发现：已搜索每个发现的位置、Rank 及其调用栈的每一帧。</translation>
    </message>
    <message>
        <source>Group allocations by your own frames only: not torch, site-packages, the standard library or C++. Where no frame is in your own folders, the framework the job runs (torchtitan, Megatron … under site-packages) counts as yours</source>
        <translation>只按你自己代码的栈帧归并分配：不含 torch、site-packages、标准库和 C++。若没有任何栈帧位于你自己的文件夹中，则作业运行的框架（site-packages 下的 torchtitan、Megatron 等）算作你的代码</translation>
    </message>
    <message>
        <source>Searches every cell and every frame of each finding&apos;s stack. on:K keeps the findings whose site K ranks hold (on:1: on one rank only), on:K-M from K to M ranks, as --present-on takes it; &quot;on:1 train.py&quot; does both</source>
        <translation>搜索每个单元格以及每个差异项调用栈中的每个栈帧。on:K 只保留其分配位置有 K 个 rank 持有的差异项（on:1：只在一个 rank 上），on:K-M 为 K 到 M 个 rank，与 --present-on 的写法相同；“on:1 train.py” 两者兼用</translation>
    </message>
</context>
<context>
    <name>RankScope::FlameGraph</name>
    <message>
        <source>%1
%2 beyond the baseline through this frame (%3% of the excess), %4 allocated in it</source>
        <translation>%1
经过此帧超出基线 %2（占超出量的 %3%），在此帧中分配 %4</translation>
    </message>
    <message>
        <source>No excess to show: this rank holds nothing beyond its baseline</source>
        <translation>没有可显示的超出量：该 rank 没有超出基线的占用</translation>
    </message>
    <message>
        <source>Flame graph of the memory held by frame</source>
        <translation>按帧划分的显存占用火焰图</translation>
    </message>
    <message>
        <source>Rank %1: %2 beyond its baseline</source>
        <translation>Rank %1：超出基线 %2</translation>
    </message>
    <message>
        <source>Rank %1: %2 held at the point</source>
        <translation>Rank %1：在比较点占用 %2</translation>
    </message>
    <message>
        <source>%1
%2 held at the point through this frame (%3% of what the rank holds), %4 allocated in it</source>
        <translation>%1
比较点处经过此帧持有 %2（占该 rank 持有量的 %3%），在此帧中分配 %4</translation>
    </message>
</context>
<context>
    <name>RankScope::GateView</name>
    <message>
        <source>Ranks, and what changed where</source>
        <translation>Rank，以及哪里有变化</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Growth</source>
        <translation>增长</translation>
    </message>
    <message>
        <source>Baseline → this job</source>
        <translation>基线 → 本作业</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank 数</translation>
    </message>
    <message>
        <source>When in the step</source>
        <translation>步骤中的时刻</translation>
    </message>
    <message>
        <source>What grew where, rank by rank</source>
        <translation>逐个 rank：哪里增长了</translation>
    </message>
    <message>
        <source>Memory per rank in the baseline and in this job</source>
        <translation>每个 rank 在基线和本作业中的内存</translation>
    </message>
    <message>
        <source>The gate could not run: found no ranks to weigh against the baseline</source>
        <translation>无法把关：找不到可与基线对照的 rank</translation>
    </message>
    <message>
        <source>Pass: no rank holds more than the baseline beyond the tolerance</source>
        <translation>通过：没有 rank 比基线多持有超出容差的内存</translation>
    </message>
    <message>
        <source>Fail: %1 of %2 ranks (%3) hold more than the baseline beyond the tolerance</source>
        <translation>未通过：%2 个 rank 中有 %1 个（%3）比基线多持有超出容差的内存</translation>
    </message>
    <message>
        <source>A rank fails when it grows, at its peak or at any moment of the step aligned with the baseline&apos;s, by more than %1% of its peak in the baseline and more than %2.</source>
        <translation>当一个 rank 在峰值或与基线对齐的步骤中任一时刻增长超过其基线峰值的 %1%，且超过 %2 时，判为未通过。</translation>
    </message>
    <message>
        <source>The baseline has %1 ranks: ranks %2 have none of their own there, so rank R is weighed against baseline rank R modulo %1.</source>
        <translation>基线有 %1 个 rank：rank %2 在基线中没有对应的 rank，因此 rank R 对照基线的 rank（R 除以 %1 的余数）衡量。</translation>
    </message>
    <message>
        <source>Each rank is weighed against the baseline&apos;s rank of the same number (the baseline has %1 ranks).</source>
        <translation>每个 rank 对照基线中编号相同的 rank 衡量（基线有 %1 个 rank）。</translation>
    </message>
    <message>
        <source>Baseline ranks %1 are not in this job.</source>
        <translation>基线的 rank %1 不在本作业中。</translation>
    </message>
    <message>
        <source>Not gated: %1</source>
        <translation>未把关：%1</translation>
    </message>
    <message>
        <source>%1 cuda:%2</source>
        <translation>%1 cuda:%2</translation>
    </message>
    <message>
        <source>Baseline, at the largest growth</source>
        <translation>基线，最大增长时刻</translation>
    </message>
    <message>
        <source>This job, at the largest growth</source>
        <translation>本作业，最大增长时刻</translation>
    </message>
    <message>
        <source>Baseline&apos;s peak</source>
        <translation>基线的峰值</translation>
    </message>
    <message>
        <source>This job&apos;s peak</source>
        <translation>本作业的峰值</translation>
    </message>
    <message>
        <source>Beyond the tolerance</source>
        <translation>超出容差</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank 编号</translation>
    </message>
    <message>
        <source>Your code: reading starts here</source>
        <translation>你的代码：从这里开始阅读</translation>
    </message>
    <message>
        <source>grew</source>
        <translation>增长</translation>
    </message>
    <message>
        <source>appeared</source>
        <translation>新出现</translation>
    </message>
    <message>
        <source>shrank</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>disappeared</source>
        <translation>消失</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>Ranks %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>%1, cuda:%2</source>
        <translation>%1，cuda:%2</translation>
    </message>
    <message>
        <source>fail</source>
        <translation>未通过</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <source>before the trace</source>
        <translation>在跟踪开始之前</translation>
    </message>
    <message>
        <source>%1% into the step</source>
        <translation>步骤的 %1% 处</translation>
    </message>
    <message>
        <source>Largest growth across the aligned step: %1 (%2 of the baseline&apos;s peak), %3 → %4 at event %5 (the baseline&apos;s event %6); %7 allowed.</source>
        <translation>在对齐的步骤中最大增长：%1（基线峰值的 %2），在事件 %5（基线的事件 %6）处 %3 → %4；允许 %7。</translation>
    </message>
    <message>
        <source>Peak: %1 → %2 (%3)%4.</source>
        <translation>峰值：%1 → %2（%3）%4。</translation>
    </message>
    <message>
        <source>, beyond the tolerance</source>
        <translation>，超出容差</translation>
    </message>
    <message>
        <source>Weighed against the baseline&apos;s rank %1, cuda:%2.</source>
        <translation>对照基线的 rank %1、cuda:%2 衡量。</translation>
    </message>
    <message>
        <source>%1 of the baseline&apos;s %2 stretches of the step were found in this job.</source>
        <translation>在本作业中找到了基线步骤 %2 段中的 %1 段。</translation>
    </message>
    <message>
        <source>The sites below are rank %1&apos;s; the other ranks of the row read alike.</source>
        <translation>下面的位置取自 rank %1；这一行的其他 rank 与之相同。</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>%1 → %2 (%3 → %4 allocations)</source>
        <translation>%1 → %2（%3 → %4 次分配）</translation>
    </message>
    <message>
        <source>No growth across the aligned step; %1 allowed.</source>
        <translation>在对齐的步骤中没有增长；允许 %1。</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Grew on the failing ranks %1</source>
        <translation>在未通过的 rank %1 上增长</translation>
    </message>
    <message>
        <source>The gate could not run</source>
        <translation>把关无法运行</translation>
    </message>
    <message>
        <source>Incomplete: no rank gated holds more than the baseline beyond the tolerance</source>
        <translation>不完整：已把关的 rank 中没有比基线多持有超出容差的内存</translation>
    </message>
    <message>
        <source>; ranks not gated: %1</source>
        <translation>；未把关的 rank：%1</translation>
    </message>
    <message>
        <source>The baseline has %1 ranks: rank %2 has none of its own there, so rank R is weighed against baseline rank R modulo %1.</source>
        <translation>基线有 %1 个 rank：rank %2 在其中没有对应的 rank，因此 rank R 与基线中编号为 R 模 %1 的 rank 衡量。</translation>
    </message>
    <message>
        <source>Rank %1 not gated: its baseline, rank %2, could not be read (%3).</source>
        <translation>Rank %1 未把关：其基线 rank %2 无法读取（%3）。</translation>
    </message>
    <message>
        <source>Rank %1 not gated: its file could not be read (%2).</source>
        <translation>Rank %1 未把关：其文件无法读取（%2）。</translation>
    </message>
    <message>
        <source>%1 ✗</source>
        <translation>%1 ✗</translation>
    </message>
    <message>
        <source>not gated</source>
        <translation>未把关</translation>
    </message>
    <message>
        <source>Its baseline, rank %1, could not be read: %2</source>
        <translation>其基线 rank %1 无法读取：%2</translation>
    </message>
    <message>
        <source>Its file could not be read: %1</source>
        <translation>其文件无法读取：%1</translation>
    </message>
    <message>
        <source>Baseline rank %1 is not in this job.</source>
        <translation>基线 rank %1 不在本作业中。</translation>
    </message>
    <message>
        <source>cuda:%1 against cuda:%2</source>
        <translation>cuda:%1 对照 cuda:%2</translation>
    </message>
    <message>
        <source>A rank&apos;s GPUs are weighed against the baseline rank&apos;s GPU at the same place among its GPUs, or its last (%1).</source>
        <translation>一个 rank 的各个 GPU 与基线 rank 中位置相同的 GPU 衡量，没有则与其最后一个 GPU 衡量（%1）。</translation>
    </message>
</context>
<context>
    <name>RankScope::GateWindow</name>
    <message>
        <source>The open job is digests: a job gated must be snapshots.</source>
        <translation>打开的作业是摘要：要把关的作业必须是快照。</translation>
    </message>
    <message>
        <source>Compare With Baseline — RankScope</source>
        <translation>与基线比较 — RankScope</translation>
    </message>
    <message>
        <source>Gating the job against its baseline…</source>
        <translation>正在对照基线为作业把关…</translation>
    </message>
    <message>
        <source>Compare With Base&amp;line…</source>
        <translation>与基线比较(&amp;L)…</translation>
    </message>
    <message>
        <source>Gate the open job against a baseline run: its snapshots or digests, rank by rank</source>
        <translation>对照基线运行（其快照或摘要）逐个 rank 为打开的作业把关</translation>
    </message>
    <message>
        <source>Compare With Baseline</source>
        <translation>与基线比较</translation>
    </message>
    <message>
        <source>Open the job to gate first.</source>
        <translation>请先打开要把关的作业。</translation>
    </message>
    <message>
        <source>The Baseline: Snapshots or Digests</source>
        <translation>基线：快照或摘要</translation>
    </message>
    <message>
        <source>Export &amp;Markdown Summary…</source>
        <translation>导出 Markdown 摘要(&amp;M)…</translation>
    </message>
    <message>
        <source>Export &amp;JUnit XML…</source>
        <translation>导出 JUnit XML(&amp;J)…</translation>
    </message>
    <message>
        <source>The gate&apos;s summary for a pull request, as `rankscope gate --markdown` writes it</source>
        <translation>用于拉取请求的把关摘要，与 `rankscope gate --markdown` 写出的相同</translation>
    </message>
    <message>
        <source>The gate as CI test results, as `rankscope gate --junit` writes them</source>
        <translation>作为 CI 测试结果的把关，与 `rankscope gate --junit` 写出的相同</translation>
    </message>
    <message>
        <source>Export JUnit XML</source>
        <translation>导出 JUnit XML</translation>
    </message>
    <message>
        <source>JUnit XML (*.xml)</source>
        <translation>JUnit XML (*.xml)</translation>
    </message>
    <message>
        <source>Export Markdown Summary</source>
        <translation>导出 Markdown 摘要</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>the baseline %1: %2</source>
        <translation>基线 %1：%2</translation>
    </message>
    <message>
        <source>the open job: %1</source>
        <translation>打开的作业：%1</translation>
    </message>
</context>
<context>
    <name>RankScope::Job</name>
    <message>
        <source>layout</source>
        <comment>an option</comment>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>baseline</source>
        <comment>an option</comment>
        <translation>基线</translation>
    </message>
    <message>
        <source>at</source>
        <comment>an option</comment>
        <translation>比较点</translation>
    </message>
    <message>
        <source>step</source>
        <comment>an option</comment>
        <translation>训练步骤</translation>
    </message>
    <message>
        <source>steps</source>
        <comment>an option</comment>
        <translation>各训练步骤</translation>
    </message>
    <message>
        <source>device</source>
        <comment>an option</comment>
        <translation>设备</translation>
    </message>
    <message>
        <source>needs the snapshots of two or more steps of one rank</source>
        <translation>需要同一 rank 的两个或更多训练步骤的快照</translation>
    </message>
    <message>
        <source>no snapshot files given</source>
        <translation>未给出快照文件</translation>
    </message>
    <message>
        <source>%1: the files are not of several training steps</source>
        <translation>%1：这些文件并非来自多个训练步骤</translation>
    </message>
    <message>
        <source>%1: the files hold steps %2</source>
        <translation>%1：这些文件包含的训练步骤为 %2</translation>
    </message>
    <message>
        <source>%1: %2 ranks, but %3 snapshot files are given</source>
        <translation>%1：%2 个 rank，但给出了 %3 个快照文件</translation>
    </message>
    <message>
        <source>%1: rank %2 (%3) is not among ranks 0 to %4</source>
        <translation>%1：rank %2（%3）不在 rank 0 到 %4 之内</translation>
    </message>
    <message>
        <source>%1: the files hold device %2</source>
        <translation>%1：这些文件只有设备 %2</translation>
    </message>
    <message>
        <source>%1: the files hold devices %2</source>
        <translation>%1：这些文件包含的设备为 %2</translation>
    </message>
    <message>
        <source>%1: no rank %2 among the files</source>
        <translation>%1：文件中没有 rank %2</translation>
    </message>
    <message>
        <source>%1: no such rank among the files</source>
        <translation>%1：文件中没有这个 rank</translation>
    </message>
    <message>
        <source>%1: rank %2&apos;s trace has events 0 to %3</source>
        <translation>%1：rank %2 的追踪只有事件 0 到 %3</translation>
    </message>
    <message>
        <source>%1: rank %2&apos;s trace has no end of ProfilerStep#%3</source>
        <translation>%1：rank %2 的追踪中没有 ProfilerStep#%3 的结束</translation>
    </message>
    <message>
        <source>%1: rank %2&apos;s trace has no ProfilerStep#%3</source>
        <translation>%1：rank %2 的追踪中没有 ProfilerStep#%3</translation>
    </message>
    <message>
        <source>my-code</source>
        <comment>an option</comment>
        <translation>我的代码</translation>
    </message>
    <message>
        <source>%1: not searched (hidden folders)</source>
        <translation>%1：未搜索（隐藏文件夹）</translation>
    </message>
    <message>
        <source>%1: not searched (installed packages and caches)</source>
        <translation>%1：未搜索（已安装的包和缓存）</translation>
    </message>
    <message>
        <source>%1: not searched (Python virtual environments)</source>
        <translation>%1：未搜索（Python 虚拟环境）</translation>
    </message>
    <message>
        <source>%1: not searched (build folders)</source>
        <translation>%1：未搜索（构建文件夹）</translation>
    </message>
    <message>
        <source>%1: more than %2 files, where a search stops; this is not the folder of one job&apos;s snapshots (open that folder, or name the files)</source>
        <translation>%1：文件超过 %2 个，搜索到此为止；这不是单个作业的快照文件夹（请打开该作业的文件夹，或直接指定文件）</translation>
    </message>
    <message>
        <source>%1 holds the snapshots of %2 jobs (the same rank in more than one folder): %3; open one of them</source>
        <translation>%1 包含 %2 个作业的快照（同一 rank 出现在多个文件夹中）：%3；请打开其中一个</translation>
    </message>
    <message>
        <source>nothing to compare: the file is an empty snapshot (no segments, no trace events)</source>
        <translation>没有可比较的内容：该文件是空快照（没有内存段，也没有跟踪事件）</translation>
    </message>
    <message>
        <source>nothing to compare: each of the %1 files is an empty snapshot (no segments, no trace events)</source>
        <translation>没有可比较的内容：%1 个文件都是空快照（没有内存段，也没有跟踪事件）</translation>
    </message>
    <message>
        <source>%1: no rank ran out of memory (no file has an OOM event)</source>
        <translation>%1：没有 rank 内存不足（没有文件含 OOM 事件）</translation>
    </message>
    <message>
        <source>%1: rank %2 does not have it; compared at its snapshot</source>
        <translation>%1：rank %2 没有该点；按其快照比较</translation>
    </message>
    <message>
        <source>%1: ranks %2 do not have it; compared at their snapshots</source>
        <translation>%1：rank %2 没有该点；按各自的快照比较</translation>
    </message>
    <message>
        <source>counts the frames of %1 as your code, since no frame of the files is in your own folders (name the packages to count others instead)</source>
        <translation>将 %1 的栈帧算作你的代码，因为文件中没有任何栈帧位于你自己的文件夹中（可指定其他要计入的包）</translation>
    </message>
    <message>
        <source>%1 (1 file)</source>
        <translation>%1（1 个文件）</translation>
    </message>
    <message>
        <source>%1 (%2 files)</source>
        <translation>%1（%2 个文件）</translation>
    </message>
</context>
<context>
    <name>RankScope::JobSession</name>
    <message>
        <source>layout %1: %2 ranks, but %3 are compared</source>
        <translation>layout %1：%2 个 rank，但比较的是 %3 个</translation>
    </message>
</context>
<context>
    <name>RankScope::JobSettingDialog</name>
    <message>
        <source>Parallel Layout</source>
        <translation>并行布局</translation>
    </message>
    <message numerus="yes">
        <source>Sizes of the job&apos;s parallel dimensions, slowest first, as a device mesh is written (pp, dp, tp, cp, ep), e.g. pp=2,dp=4 for Megatron or torchtitan with two pipeline stages of four data-parallel ranks.
Ranks are compared with their replicas (the ranks that differ only in dp). Leave empty to let RankScope guess where the files show groups of ranks running different parts of the model.
This job has %n snapshot file(s).</source>
        <translation>
            <numerusform>作业各并行维度的大小，按设备网格的写法从最慢的维度开始（pp、dp、tp、cp、ep），例如 Megatron 或 torchtitan 中两个流水线阶段、每阶段四个数据并行 rank 写作 pp=2,dp=4。
各 rank 与其副本（仅 dp 不同的 rank）比较。留空则由 RankScope 在文件显示出各组 rank 运行模型不同部分时自行推断。
此作业有 %n 个快照文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is not a layout: %2</source>
        <translation>%1 不是有效的布局：%2</translation>
    </message>
    <message>
        <source>GPU Memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <source>The total memory of each GPU of the job, as nvidia-smi or the OOM message gives it (80GiB, 79.3GiB …). A snapshot does not record it; with it, an OOM outside PyTorch&apos;s allocator says how much is held outside. Leave empty when unknown.</source>
        <translation>作业中每块 GPU 的总显存，按 nvidia-smi 或 OOM 消息给出的值填写（80GiB、79.3GiB……）。快照不记录它；有了它，发生在 PyTorch 分配器之外的 OOM 就能说明有多少显存被外部占用。未知时留空。</translation>
    </message>
    <message>
        <source>%1 is not a size with its unit, such as 80GiB.</source>
        <translation>%1 不是带单位的大小，例如 80GiB。</translation>
    </message>
    <message>
        <source>Why not</source>
        <translation>无法使用的原因</translation>
    </message>
</context>
<context>
    <name>RankScope::MainWindow</name>
    <message>
        <source>RankScope</source>
        <translation>RankScope</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Snapshots…</source>
        <translation>打开快照(&amp;O)…</translation>
    </message>
    <message>
        <source>Open one snapshot file per rank</source>
        <translation>每个 rank 打开一个快照文件</translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>打开文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>Open every snapshot file in a folder</source>
        <translation>打开文件夹中的所有快照文件</translation>
    </message>
    <message>
        <source>Open &amp;Example</source>
        <translation>打开示例(&amp;E)</translation>
    </message>
    <message>
        <source>Open the bundled four-rank example</source>
        <translation>打开内置的四 rank 示例</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Diff &amp;Screenshot…</source>
        <translation>差异截图(&amp;S)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Ranks A and B, their block maps, the findings and the selected stack as PNG, SVG or PDF</source>
        <translation>将 rank A 和 B、它们的内存块图、差异项和所选调用栈导出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Findings as &amp;CSV…</source>
        <translation>差异项导出为 &amp;CSV…</translation>
    </message>
    <message>
        <source>Every finding, one per line, as rankscope diff --csv writes them</source>
        <translation>每行一个差异项，与 rankscope diff --csv 的输出相同</translation>
    </message>
    <message>
        <source>Findings as &amp;JSON…</source>
        <translation>差异项导出为 &amp;JSON…</translation>
    </message>
    <message>
        <source>The comparison as rankscope diff --json writes it</source>
        <translation>比较结果，与 rankscope diff --json 的输出相同</translation>
    </message>
    <message>
        <source>&amp;Report…</source>
        <translation>报告(&amp;R)…</translation>
    </message>
    <message>
        <source>An HTML or Markdown report for a bug tracker: verdict, ranks, top findings with stacks and the diff picture</source>
        <translation>用于问题跟踪的 HTML 或 Markdown 报告：结论、各 rank、主要差异项及其调用栈，以及差异图</translation>
    </message>
    <message>
        <source>&amp;Cancel Loading</source>
        <translation>取消加载(&amp;C)</translation>
    </message>
    <message>
        <source>Stop loading the files that are still loading</source>
        <translation>停止加载仍在加载的文件</translation>
    </message>
    <message>
        <source>&amp;Close All</source>
        <translation>全部关闭(&amp;C)</translation>
    </message>
    <message>
        <source>Close every snapshot and go back to the start page</source>
        <translation>关闭所有快照并返回起始页</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>Language, colour theme and timeline detail</source>
        <translation>语言、配色主题和时间线细节</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>&amp;X Axis</source>
        <translation>&amp;X 轴</translation>
    </message>
    <message>
        <source>Trace &amp;Events</source>
        <translation>追踪事件(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Time Since Start</source>
        <translation>开始后的时间(&amp;T)</translation>
    </message>
    <message>
        <source>Profiler &amp;Steps</source>
        <translation>Profiler 步(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Swap A and B</source>
        <translation>交换 A 和 B(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+X</source>
        <translation>Ctrl+Shift+X</translation>
    </message>
    <message>
        <source>&amp;Next Finding</source>
        <translation>下一个差异项(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Finding</source>
        <translation>上一个差异项(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About RankScope</source>
        <translation>关于 RankScope(&amp;A)</translation>
    </message>
    <message>
        <source>About RankScope</source>
        <translation>关于 RankScope</translation>
    </message>
    <message>
        <source>&lt;h3&gt;RankScope %1&lt;/h3&gt;&lt;p&gt;Compares the PyTorch CUDA memory snapshots of the ranks of one job.&lt;/p&gt;&lt;p&gt;RankScope&apos;s own code is under the MIT licence. It uses:&lt;/p&gt;&lt;ul&gt;&lt;li&gt;Qt %2 (LGPL-3.0): widgets, SVG and PDF output&lt;/li&gt;&lt;li&gt;QCustomPlot 2.1 (GPL-3.0): the timelines and the rank chart; a binary linking it is distributed under the GPL-3.0&lt;/li&gt;&lt;li&gt;nlohmann_json (MIT): the JSON reader&lt;/li&gt;&lt;li&gt;zlib (Zlib licence): gzip-compressed snapshots&lt;/li&gt;&lt;/ul&gt;</source>
        <translation>&lt;h3&gt;RankScope %1&lt;/h3&gt;&lt;p&gt;比较同一训练任务中各 rank 的 PyTorch CUDA 显存快照。&lt;/p&gt;&lt;p&gt;RankScope 自身的代码采用 MIT 许可证。它使用了：&lt;/p&gt;&lt;ul&gt;&lt;li&gt;Qt %2（LGPL-3.0）：界面组件、SVG 和 PDF 输出&lt;/li&gt;&lt;li&gt;QCustomPlot 2.1（GPL-3.0）：时间线和 rank 柱状图；链接它的二进制文件按 GPL-3.0 分发&lt;/li&gt;&lt;li&gt;nlohmann_json（MIT）：JSON 读取器&lt;/li&gt;&lt;li&gt;zlib（Zlib 许可证）：gzip 压缩的快照&lt;/li&gt;&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>Open Snapshots</source>
        <translation>打开快照</translation>
    </message>
    <message>
        <source>Memory snapshots (*.pickle *.pkl *.json *.gz);;All files (*)</source>
        <translation>显存快照 (*.pickle *.pkl *.json *.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open Folder of Snapshots</source>
        <translation>打开快照文件夹</translation>
    </message>
    <message numerus="yes">
        <source>Comparing %n rank(s)…</source>
        <translation>
            <numerusform>正在比较 %n 个 rank…</numerusform>
        </translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>No snapshots open</source>
        <translation>未打开快照</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n 个 rank</numerusform>
        </translation>
    </message>
    <message>
        <source> · %1 loaded</source>
        <translation> · 已加载 %1 个</translation>
    </message>
    <message>
        <source> · %1 failed</source>
        <translation> · 失败 %1 个</translation>
    </message>
    <message>
        <source> · loading…</source>
        <translation> · 正在加载…</translation>
    </message>
    <message>
        <source> · comparing…</source>
        <translation> · 正在比较…</translation>
    </message>
    <message numerus="yes">
        <source> · %n finding(s) (%1)</source>
        <translation>
            <numerusform> · %n 个差异项（%1）</numerusform>
        </translation>
    </message>
    <message>
        <source>Open Step &amp;Logs…</source>
        <translation>打开步报告日志(&amp;L)…</translation>
    </message>
    <message>
        <source>Training logs with per-rank step reports: which rank departs first, at which step</source>
        <translation>包含各 rank 步报告的训练日志：哪个 rank 最先偏离、在哪一步</translation>
    </message>
    <message>
        <source>Compare &amp;Before and After…</source>
        <translation>对比修改前后(&amp;B)…</translation>
    </message>
    <message>
        <source>Two runs, before and after a fix: folders of snapshots or of training logs</source>
        <translation>修复前后的两次运行：快照文件夹或训练日志文件夹</translation>
    </message>
    <message>
        <source>&amp;Capture Helper…</source>
        <translation>采集助手(&amp;C)…</translation>
    </message>
    <message>
        <source>rankscope_capture.py: step reports, snapshots and an OOM hook for your training script</source>
        <translation>rankscope_capture.py：为训练脚本提供步报告、快照和 OOM 钩子</translation>
    </message>
    <message>
        <source>Open Step Logs</source>
        <translation>打开步报告日志</translation>
    </message>
    <message>
        <source>Training logs (*.log *.txt *.out *.err);;All files (*)</source>
        <translation>训练日志 (*.log *.txt *.out *.err);;所有文件 (*)</translation>
    </message>
    <message>
        <source>The Run Before the Change</source>
        <translation>修改前的运行</translation>
    </message>
    <message>
        <source>The Run After the Change</source>
        <translation>修改后的运行</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Ctrl+,</source>
        <translation>Ctrl+,</translation>
    </message>
    <message>
        <source>&amp;Add to This Job…</source>
        <translation>添加到当前任务(&amp;A)…</translation>
    </message>
    <message>
        <source>Add ranks to the open job; Open starts a new job</source>
        <translation>向已打开的任务添加 rank；“打开”会开始一个新任务</translation>
    </message>
    <message>
        <source>Add Snapshots to This Job</source>
        <translation>向当前任务添加快照</translation>
    </message>
    <message>
        <source>Nothing to Open</source>
        <translation>没有可打开的内容</translation>
    </message>
    <message>
        <source>No memory snapshots or step reports in %1.</source>
        <translation>%1 中没有显存快照，也没有步骤报告。</translation>
    </message>
    <message>
        <source>RankScope opens PyTorch memory snapshots (.pickle, .pkl, .json, optionally .gz; folders are searched) and training logs with step report lines.</source>
        <translation>RankScope 可打开 PyTorch 显存快照（.pickle、.pkl、.json，可为 .gz 压缩；会搜索文件夹）以及含步骤报告行的训练日志。</translation>
    </message>
    <message>
        <source>&amp;Aligned with Rank A</source>
        <translation>与 rank A 对齐(&amp;A)</translation>
    </message>
    <message>
        <source>What the timelines&apos; x axis counts: trace events, seconds since each rank&apos;s first event, profiler steps lined up across ranks, or rank A&apos;s events with rank B at the same moments</source>
        <translation>时间线的 x 轴表示什么：轨迹事件、自各 rank 第一个事件起的秒数、跨 rank 对齐的 profiler 步骤，或 rank A 的事件（rank B 取同一时刻）</translation>
    </message>
    <message>
        <source>Parallel &amp;Layout…</source>
        <translation>并行布局(&amp;L)…</translation>
    </message>
    <message>
        <source>Pipeline, tensor and data parallel sizes of the job: ranks are compared with their replicas, and stages or shards may differ by design</source>
        <translation>作业的流水线、张量和数据并行规模：各 rank 与其副本比较，不同流水线阶段或分片按设计可以不同</translation>
    </message>
    <message>
        <source>&amp;Colour Bands By</source>
        <translation>色带配色依据(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;GPU Memory…</source>
        <translation>GPU 显存(&amp;G)…</translation>
    </message>
    <message>
        <source>Each GPU&apos;s total memory, which snapshots do not record: an OOM outside PyTorch&apos;s allocator then says how much is held outside</source>
        <translation>每块 GPU 的总显存（快照不记录它）：有了它，发生在 PyTorch 分配器之外的 OOM 就能说明有多少显存被外部占用</translation>
    </message>
    <message>
        <source>What the colours of the timelines&apos; bands say: which allocation, where it was made, or what it is for, as the rank chart stacks it</source>
        <translation>时间线色带颜色的含义：哪一次分配、在何处分配，或用途（与排名图的堆叠一致）</translation>
    </message>
    <message>
        <source>The comparison point “%1” belonged to the closed job: this one is compared at its own moment.</source>
        <translation>比较点“%1”属于已关闭的任务：当前任务在其自身的时刻比较。</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Folder Not Opened</source>
        <translation>未打开文件夹</translation>
    </message>
    <message numerus="yes">
        <source> · %1 of %n finding(s) shown by the filter (%2)</source>
        <translation>
            <numerusform> · %n 个差异项中 %1 个经筛选显示（%2）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (an earlier step) could not be read: %2</source>
        <translation>%1（较早的一步）无法读取（读取器的说明：%2）</translation>
    </message>
    <message>
        <source>%1 could not be read: %2</source>
        <translation>%1 无法读取（读取器的说明：%2）</translation>
    </message>
</context>
<context>
    <name>RankScope::Phrase</name>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1 等，另有 %2 个</translation>
    </message>
</context>
<context>
    <name>RankScope::ProgressDelegate</name>
    <message>
        <source>Cancel loading this file</source>
        <translation>取消加载此文件</translation>
    </message>
</context>
<context>
    <name>RankScope::RankChart</name>
    <message>
        <source>Memory per rank</source>
        <translation>各 rank 的显存</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Highest</source>
        <translation>最高</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank 编号</translation>
    </message>
    <message>
        <source>Per rank: the peak of live allocations during the trace (light), what it holds at the comparison point (dark), and the rank with the highest peak (outlined). Click a bar to show that rank as A, Shift+click as B.</source>
        <translation>每个 rank：追踪期间存活分配的峰值（浅色）、在比较点处占用的显存（深色），以及峰值最高的 rank（描边）。点击柱子将该 rank 显示为 A，按住 Shift 点击则显示为 B。</translation>
    </message>
    <message>
        <source>Rank %1: peak %2, %3 at the comparison point (%4).
Click: show it as A. Shift+click: as B.</source>
        <translation>Rank %1：峰值 %2，比较点处 %3（%4）。
点击：显示为 A。Shift+点击：显示为 B。</translation>
    </message>
    <message>
        <source>Rank %1: its file did not load, so it has no bar: %2</source>
        <translation>Rank %1：其文件未能加载，因此没有柱形（读取器的说明：%2）</translation>
    </message>
</context>
<context>
    <name>RankScope::RankListModel</name>
    <message>
        <source>Rank</source>
        <translation>Rank 编号</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Segments</source>
        <translation>内存段</translation>
    </message>
    <message>
        <source>Trace events</source>
        <translation>追踪事件</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>已预留</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>At point</source>
        <translation>比较点处</translation>
    </message>
    <message>
        <source>Excess</source>
        <translation>超出量</translation>
    </message>
    <message>
        <source>Trace</source>
        <translation>追踪</translation>
    </message>
    <message>
        <source>OOMs</source>
        <translation>OOM 次数</translation>
    </message>
    <message>
        <source>The rank, from the file or folder name (rank3_…, memory_trace_3, …) or else the order the files were opened in</source>
        <translation>rank 编号，取自文件或文件夹名（rank3_…、memory_trace_3 等），否则按文件打开的顺序</translation>
    </message>
    <message>
        <source>Entries in the allocator&apos;s trace ring buffer (alloc, free, segment and OOM events)</source>
        <translation>分配器追踪环形缓冲区中的条目（分配、释放、内存段和 OOM 事件）</translation>
    </message>
    <message>
        <source>The highest total of live allocations over the trace (requested bytes), as the maximum of PyTorch&apos;s Active Memory Timeline; ⚠ marks a trace that misses allocations made before it began</source>
        <translation>追踪期间存活分配总量的最高值（按请求字节计），即 PyTorch Active Memory Timeline 的最大值；⚠ 表示追踪缺少其开始前的分配</translation>
    </message>
    <message>
        <source>Memory in blocks handed to tensors when the snapshot was taken (state active_allocated)</source>
        <translation>快照时已分配给张量的内存块中的显存（状态 active_allocated）</translation>
    </message>
    <message>
        <source>Live allocations (requested bytes) at the comparison point: each rank&apos;s peak unless another point was chosen</source>
        <translation>比较点处存活的分配（按请求字节计）：若未选择其他比较点，则为各 rank 的峰值</translation>
    </message>
    <message>
        <source>Bytes at the point minus the baseline: the median of the other ranks, or the chosen baseline rank</source>
        <translation>比较点处的字节数减去基线：其他 rank 的中位数，或所选的基线 rank</translation>
    </message>
    <message>
        <source>Incomplete when the trace frees blocks it never allocated: recording started late or the ring buffer wrapped, so the start of the timeline misses memory</source>
        <translation>当追踪释放了它从未记录分配的内存块时为不完整：记录开始得太晚或环形缓冲区已回绕，因此时间线开头缺少部分显存</translation>
    </message>
    <message>
        <source>Out-of-memory events recorded in the trace</source>
        <translation>追踪中记录的显存不足（OOM）事件</translation>
    </message>
    <message>
        <source>Loading… %1%</source>
        <translation>正在加载… %1%</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>JSON, gzip</source>
        <translation>JSON，gzip</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>pickle, gzip</source>
        <translation>pickle，gzip</translation>
    </message>
    <message>
        <source>pickle</source>
        <translation>pickle</translation>
    </message>
    <message>
        <source>⚠ incomplete</source>
        <translation>⚠ 不完整</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>完整</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>⚠ The trace frees memory it never saw allocated: recording started late or its ring buffer wrapped, so allocations from before it are missing and the peak can be higher (%1)</source>
        <translation>⚠ 轨迹释放了它从未记录分配的内存：记录开始得晚或环形缓冲区已回绕，因此缺少此前的分配，峰值可能更高（%1）</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>Temporaries</source>
        <translation>临时张量</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>Live allocations at the comparison point in this category, judged from each allocation&apos;s stack and lifetime (see the README&apos;s Categories): parameters, gradients and optimizer state are the model&apos;s state; activations are kept for the backward pass; temporaries die within their phase; other is everything outside the training step</source>
        <translation>比较点处属于该类别的存活分配，依据每个分配的调用栈和生命周期判断（见 README 的“类别”一节）：参数、梯度和优化器状态是模型状态；激活保留到反向传播；临时张量在其阶段内释放；其他是训练步之外的一切</translation>
    </message>
    <message>
        <source>The rank&apos;s coordinates in the parallel layout (Compare → Parallel Layout…): ranks are compared with their replicas, which differ only in dp</source>
        <translation>该 rank 在并行布局中的坐标（比较 → 并行布局…）：各 rank 与其副本比较，副本之间只有 dp 不同</translation>
    </message>
    <message>
        <source>Unallocated</source>
        <translation>未分配</translation>
    </message>
    <message>
        <source>At the comparison point, as PyTorch&apos;s out-of-memory message says it: memory reserved by PyTorch but not allocated to tensors (its share of the reserve, and the largest free block, in the cell&apos;s tooltip)</source>
        <translation>比较点处，按 PyTorch 显存不足消息的说法：PyTorch 已预留但未分配给张量的显存（其占预留的比例和最大空闲块见单元格提示）</translation>
    </message>
    <message>
        <source>Memory reserved from CUDA at the comparison point, the figure the CLI and the block maps give: the sum of segment sizes (when the snapshot was taken until the ranks are compared)</source>
        <translation>比较点处从 CUDA 预留的显存，与命令行和块图给出的数字相同：各内存段大小之和（在比较各 rank 之前为快照时的值）</translation>
    </message>
    <message>
        <source>Pinned host</source>
        <translation>锁页主机内存</translation>
    </message>
    <message>
        <source>Pinned host memory of rank %1&apos;s process, never compared with the GPUs: %2 allocated at the snapshot, %3 at most over its host trace, %4 reserved</source>
        <translation>Rank %1 进程的锁页主机内存，不与 GPU 比较：快照时已分配 %2，主机追踪中最多 %3，预留 %4</translation>
    </message>
    <message>
        <source>Pinned host memory allocated by the rank&apos;s process when the snapshot was taken (record_host=True): host memory, shown beside the GPU and never compared with it</source>
        <translation>该 rank 进程在快照时已分配的锁页主机内存（record_host=True）：主机内存，显示在 GPU 旁边，从不与之比较</translation>
    </message>
    <message>
        <source>&lt;no stack recorded&gt;</source>
        <translation>&lt;未记录调用栈&gt;</translation>
    </message>
    <message>
        <source>Ranks %1 ran out of memory alike: asked for %2 with %3 free on the device, at %4 (rank %5&apos;s figures; this rank asked for %6)</source>
        <translation>rank %1 同样耗尽显存：在 %4 申请 %2，当时设备上空闲 %3（数值取自 rank %5；本 rank 申请了 %6）</translation>
    </message>
    <message>
        <source>Rank %1 ran out of memory asking for %2 with %3 free on the device, at %4</source>
        <translation>rank %1 在 %4 申请 %2 时耗尽显存，当时设备上空闲 %3</translation>
    </message>
    <message>
        <source>Could not be read: %1</source>
        <translation>无法读取（读取器的说明：%1）</translation>
    </message>
    <message>
        <source>%1 could not be read: %2</source>
        <translation>%1 无法读取（读取器的说明：%2）</translation>
    </message>
</context>
<context>
    <name>RankScope::RankSummary</name>
    <message>
        <source>could not be aligned with rank %1&apos;s event %2 (its trace runs other code there); compared at its own event %2</source>
        <translation>无法与 rank %1 的事件 %2 对齐（其追踪在该处运行的是其他代码）；改在其自身的事件 %2 处比较</translation>
    </message>
    <message>
        <source>could not be aligned with rank %1&apos;s peak (its trace runs other code there); compared at its own peak</source>
        <translation>无法与 rank %1 的峰值对齐（其追踪在该处运行的是其他代码）；改在其自身的峰值处比较</translation>
    </message>
    <message>
        <source>could not be aligned with rank %1&apos;s OOM (its trace runs other code there); compared where the highest peak is</source>
        <translation>无法与 rank %1 的 OOM 对齐（其追踪在该处运行的是其他代码）；改在最高峰值所在处比较</translation>
    </message>
    <message>
        <source>could not be aligned with rank %1&apos;s event %2 (its trace runs other code there); compared where the highest peak is</source>
        <translation>无法与 rank %1 的事件 %2 对齐（其追踪在该处运行的是其他代码）；改在最高峰值所在处比较</translation>
    </message>
    <message>
        <source>is a digest, which keeps only the peak, the snapshot and OOMs; compared at its snapshot</source>
        <translation>是摘要文件，只保留峰值、快照和 OOM；改在其快照处比较</translation>
    </message>
    <message>
        <source>has no %1 point; compared at its snapshot</source>
        <translation>没有“%1”这一点；改在其快照处比较</translation>
    </message>
</context>
<context>
    <name>RankScope::RanksPanel</name>
    <message>
        <source>⚠ Trace incomplete: it misses allocations from before recording started or its ring buffer wrapped, so the peak can be higher than shown.</source>
        <translation>⚠ 轨迹不完整：缺少记录开始之前或环形缓冲区回绕之前的分配，实际峰值可能高于所示。</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank 列表</translation>
    </message>
    <message>
        <source>Select a rank to show it as A</source>
        <translation>选择一个 rank，将其显示为 A</translation>
    </message>
    <message>
        <source>Rank %1 · allocation of %2 at 0x%3</source>
        <translation>Rank %1 · 位于 0x%3 的 %2 分配</translation>
    </message>
    <message>
        <source>allocated before the trace began</source>
        <translation>在追踪开始前分配</translation>
    </message>
    <message>
        <source>allocated at event %1</source>
        <translation>在事件 %1 分配</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>still live at the end</source>
        <translation>到结束时仍存活</translation>
    </message>
    <message>
        <source>freed at event %1</source>
        <translation>在事件 %1 释放</translation>
    </message>
    <message>
        <source>Rank %1 · block at 0x%2</source>
        <translation>Rank %1 · 位于 0x%2 的内存块</translation>
    </message>
    <message>
        <source>Cancel Loading</source>
        <translation>取消加载</translation>
    </message>
    <message>
        <source>Show as A</source>
        <translation>显示为 A</translation>
    </message>
    <message>
        <source>Show as B</source>
        <translation>显示为 B</translation>
    </message>
    <message>
        <source>Copy Error</source>
        <translation>复制错误信息</translation>
    </message>
    <message>
        <source>Copy Path</source>
        <translation>复制路径</translation>
    </message>
    <message numerus="yes">
        <source>✗ and %n more file(s) that did not load: see their rows</source>
        <translation>
            <numerusform>✗ 另有 %n 个文件未能加载：见其所在行</numerusform>
        </translation>
    </message>
    <message>
        <source>✗ Rank %1 (%2) could not be read: %3</source>
        <translation>✗ Rank %1（%2）无法读取（读取器的说明：%3）</translation>
    </message>
</context>
<context>
    <name>RankScope::RecentFiles</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 及另外 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>Clear Recent</source>
        <translation>清除最近记录</translation>
    </message>
</context>
<context>
    <name>RankScope::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>Timeline &amp;detail:</source>
        <translation>时间线细节(&amp;D)：</translation>
    </message>
    <message>
        <source>System default (%1)</source>
        <translation>系统默认（%1）</translation>
    </message>
    <message>
        <source>The language of menus, views and messages; the command line stays in English</source>
        <translation>菜单、视图和消息的语言；命令行始终为英文</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Colours of the window and the charts</source>
        <translation>窗口和图表的配色</translation>
    </message>
    <message>
        <source>Coarse: at most 2,000 bands</source>
        <translation>粗略：最多 2,000 条色带</translation>
    </message>
    <message>
        <source>Normal: at most 15,000 bands</source>
        <translation>正常：最多 15,000 条色带</translation>
    </message>
    <message>
        <source>Fine: at most 60,000 bands</source>
        <translation>精细：最多 60,000 条色带</translation>
    </message>
    <message>
        <source>Every allocation at least a pixel tall gets a band of its own on the timelines, up to this many; past it the smallest join the grey remainder. More take longer to draw.</source>
        <translation>时间线上每个至少一像素高的分配都有自己的色带，最多这么多条；超出时最小的并入灰色余量。越多绘制越慢。</translation>
    </message>
</context>
<context>
    <name>RankScope::ShortcutsDialog</name>
    <message>
        <source>%1 (when it has the focus)</source>
        <translation>%1（获得焦点时）</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键列表</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Wheel</source>
        <translation>滚轮</translation>
    </message>
    <message>
        <source>Zoom in or out in time</source>
        <translation>在时间上放大或缩小</translation>
    </message>
    <message>
        <source>Drag</source>
        <translation>拖动</translation>
    </message>
    <message>
        <source>Zoom into the box drawn</source>
        <translation>放大到拖出的框</translation>
    </message>
    <message>
        <source>Shift+drag</source>
        <translation>Shift+拖动</translation>
    </message>
    <message>
        <source>Pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>Click</source>
        <translation>单击</translation>
    </message>
    <message>
        <source>Show an allocation&apos;s stack, or an OOM&apos;s failed request</source>
        <translation>显示分配的调用栈，或 OOM 时失败的请求</translation>
    </message>
    <message>
        <source>Double-click</source>
        <translation>双击</translation>
    </message>
    <message>
        <source>Compare every rank at that moment</source>
        <translation>在该时刻比较所有 rank</translation>
    </message>
    <message>
        <source>Right-click</source>
        <translation>右键单击</translation>
    </message>
    <message>
        <source>The timeline&apos;s menu: zoom, axes, colours, compare here</source>
        <translation>时间线菜单：缩放、坐标轴、颜色、在此比较</translation>
    </message>
    <message>
        <source>Drag in the overview</source>
        <translation>在概览中拖动</translation>
    </message>
    <message>
        <source>Show that stretch of the trace</source>
        <translation>显示追踪的这一段</translation>
    </message>
    <message>
        <source>Mouse on the timelines</source>
        <translation>时间线上的鼠标操作</translation>
    </message>
</context>
<context>
    <name>RankScope::StackPane</name>
    <message>
        <source>Allocation stack</source>
        <translation>分配调用栈</translation>
    </message>
    <message>
        <source>All frames</source>
        <translation>所有栈帧</translation>
    </message>
    <message>
        <source>Show every frame, including the interpreter and dispatcher frames the comparison hides</source>
        <translation>显示所有栈帧，包括比较时隐藏的解释器和分发器栈帧</translation>
    </message>
    <message>
        <source>Show all frames</source>
        <translation>显示所有栈帧</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the stack to the clipboard</source>
        <translation>将调用栈复制到剪贴板</translation>
    </message>
    <message>
        <source>Copy stack</source>
        <translation>复制调用栈</translation>
    </message>
    <message>
        <source>Select a finding, a band of the timeline or a block to see where it was allocated</source>
        <translation>选择一个差异项、时间线上的色带或一个内存块，查看它是在哪里分配的</translation>
    </message>
    <message>
        <source>Stack of the selection</source>
        <translation>所选内容的调用栈</translation>
    </message>
    <message>
        <source>(no stack was recorded for this allocation)</source>
        <translation>（此分配没有记录调用栈）</translation>
    </message>
    <message>
        <source>Compiled region: %1</source>
        <translation>编译区域：%1</translation>
    </message>
    <message>
        <source>Metadata: %1</source>
        <translation>元数据：%1</translation>
    </message>
    <message>
        <source>Private pool (%1, %2): CUDA graph or MemPool</source>
        <translation>私有内存池 (%1, %2)：CUDA Graph 或 MemPool</translation>
    </message>
    <message>
        <source>Native frames</source>
        <translation>原生栈帧</translation>
    </message>
    <message>
        <source>Show native frames</source>
        <translation>显示原生栈帧</translation>
    </message>
    <message>
        <source>Unfold the C++, CPython and allocator frames, each run folded into one line</source>
        <translation>展开 C++、CPython 和分配器栈帧（每段连续的栈帧折叠为一行）</translation>
    </message>
</context>
<context>
    <name>RankScope::StartPage</name>
    <message>
        <source>RankScope</source>
        <translation>RankScope</translation>
    </message>
    <message>
        <source>Open the memory snapshots of every rank of a PyTorch job together and see which rank holds more GPU memory than the others, and why.</source>
        <translation>同时打开 PyTorch 训练任务中每个 rank 的显存快照，查看哪个 rank 比其他 rank 占用更多显存，以及原因。</translation>
    </message>
    <message>
        <source>Open snapshots…</source>
        <translation>打开快照…</translation>
    </message>
    <message>
        <source>Choose one snapshot file per rank (.pickle, .json, optionally .gz)</source>
        <translation>为每个 rank 选择一个快照文件（.pickle、.json，可为 .gz 压缩）</translation>
    </message>
    <message>
        <source>Open folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>Open every snapshot file in a folder and its subfolders</source>
        <translation>打开文件夹及其子文件夹中的所有快照文件</translation>
    </message>
    <message>
        <source>Open example</source>
        <translation>打开示例</translation>
    </message>
    <message>
        <source>Four ranks derived from a real snapshot, where rank 0 does extra work</source>
        <translation>由真实快照派生的四个 rank，其中 rank 0 做了额外的工作</translation>
    </message>
    <message>
        <source>Recent:</source>
        <translation>最近打开：</translation>
    </message>
    <message>
        <source>Recent files and folders</source>
        <translation>最近打开的文件和文件夹</translation>
    </message>
    <message>
        <source>Double-click or press Enter to open again</source>
        <translation>双击或按回车键重新打开</translation>
    </message>
    <message>
        <source>Dump one snapshot per rank in your training script:</source>
        <translation>在训练脚本中为每个 rank 导出一个快照：</translation>
    </message>
    <message>
        <source>Example code</source>
        <translation>示例代码</translation>
    </message>
    <message>
        <source>You can also drop files or folders anywhere on this window.</source>
        <translation>也可以将文件或文件夹拖放到此窗口的任意位置。</translation>
    </message>
    <message>
        <source>%1  (folder: %2)</source>
        <translation>%1  （文件夹：%2）</translation>
    </message>
    <message>
        <source>%1  (%2)</source>
        <translation>%1  （%2）</translation>
    </message>
    <message>
        <source>No snapshot yet? Print a step report on every rank first (rankscope_capture.py does it) to learn which rank departs, and at which step:</source>
        <translation>还没有快照？先在每个 rank 上打印步报告（rankscope_capture.py 可以做到），找出哪个 rank 偏离、在哪一步：</translation>
    </message>
    <message>
        <source>Open step logs…</source>
        <translation>打开步报告日志…</translation>
    </message>
    <message>
        <source>Training logs with lines such as [train] rank=3 step=120 shape=(8, 2048) cur=10240.0MB peak=70144.5MB</source>
        <translation>包含类似 [train] rank=3 step=120 shape=(8, 2048) cur=10240.0MB peak=70144.5MB 行的训练日志</translation>
    </message>
    <message>
        <source>Capture helper…</source>
        <translation>采集助手…</translation>
    </message>
    <message>
        <source>How to use rankscope_capture.py in your training script, and a copy of it</source>
        <translation>如何在训练脚本中使用 rankscope_capture.py，并获取一份副本</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 及另外 %n 项</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::StepPeaksChart</name>
    <message>
        <source>Peak per step</source>
        <translation>每步峰值</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Each rank&apos;s peak at every training step of the folder: a rank that keeps tensors from one step to the next climbs while the others stay level. Ranks A and B are bold.</source>
        <translation>文件夹中每个训练步时各 rank 的峰值：跨步保留张量的 rank 会逐步上升，其他 rank 保持平稳。Rank A 和 B 以粗线显示。</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>grows</source>
        <translation>逐步增长</translation>
    </message>
    <message>
        <source>Rank %1 (%2)</source>
        <translation>Rank %1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%n other rank(s)</source>
        <translation>
            <numerusform>其他 %n 个 rank</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::StepsView</name>
    <message>
        <source>Rank</source>
        <translation>Rank 编号</translation>
    </message>
    <message>
        <source>Reports</source>
        <translation>报告数</translation>
    </message>
    <message>
        <source>Max peak</source>
        <translation>最高峰值</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>最大 token 数</translation>
    </message>
    <message>
        <source>Ranks in the step reports</source>
        <translation>步报告中的各 rank</translation>
    </message>
    <message>
        <source>Memory per step</source>
        <translation>每步的显存</translation>
    </message>
    <message>
        <source>Input size per report</source>
        <translation>每条报告的输入大小</translation>
    </message>
    <message>
        <source>Step report summary</source>
        <translation>步报告摘要</translation>
    </message>
    <message>
        <source>Open the training logs of a job: every rank&apos;s step reports, in one log or one log per rank.</source>
        <translation>打开训练任务的日志：所有 rank 的步报告，可以在一个日志中，也可以每个 rank 一个日志。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The ranks agree&lt;/b&gt;: no rank&apos;s peak departs from the others by more than 10% (spread of the peaks: %1).</source>
        <translation>&lt;b&gt;各 rank 一致&lt;/b&gt;：没有哪个 rank 的峰值比其他 rank 高出 10% 以上（峰值差距：%1）。</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>step %1 (%2)</source>
        <translation>第 %1 步（%2）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1 departs first at %2&lt;/b&gt;: %3 against a median of %4 on the other ranks.</source>
        <translation>&lt;b&gt;Rank %1 最先在%2偏离&lt;/b&gt;：%3，而其他 rank 的中位数为 %4。</translation>
    </message>
    <message>
        <source>Its input is larger there (%1 tokens against %2): &lt;b&gt;input imbalance&lt;/b&gt; suspected.</source>
        <translation>它在那一步的输入更大（%1 个 token，其他为 %2）：疑似&lt;b&gt;输入不均&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>Its input is the same size there (%1 tokens): &lt;b&gt;burden imbalance&lt;/b&gt; suspected, extra work on this rank.</source>
        <translation>它在那一步的输入大小相同（%1 个 token）：疑似&lt;b&gt;负载不均&lt;/b&gt;，此 rank 做了额外的工作。</translation>
    </message>
    <message>
        <source>The reports carry no shapes, so input and burden imbalance cannot be told apart.</source>
        <translation>报告中没有形状信息，因此无法区分输入不均和负载不均。</translation>
    </message>
    <message>
        <source>Next: dump a memory snapshot on rank %1 and on one other rank just before step %2, and open both.</source>
        <translation>下一步：在第 %2 步之前，在 rank %1 和另一个 rank 上各导出一个显存快照，并同时打开。</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>rank %1, %2</source>
        <translation>rank %1，%2</translation>
    </message>
    <message>
        <source>rank %1 departs</source>
        <translation>rank %1 偏离</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Allocated memory: peak (solid), current (dotted)</source>
        <translation>已分配显存：峰值（实线），当前（点线）</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>Step (%1)</source>
        <translation>步（%1）</translation>
    </message>
    <message>
        <source>Rank; colour: tokens per batch</source>
        <translation>Rank；颜色：每批 token 数</translation>
    </message>
</context>
<context>
    <name>RankScope::StepsWindow</name>
    <message>
        <source>Step Reports — RankScope</source>
        <translation>步报告 — RankScope</translation>
    </message>
    <message>
        <source>%1 — Step Reports — RankScope</source>
        <translation>%1 — 步报告 — RankScope</translation>
    </message>
    <message numerus="yes">
        <source>Reading %n log(s)…</source>
        <translation>
            <numerusform>正在读取 %n 个日志…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>no step report lines found (a step and a cur= or peak= figure on one line)</source>
        <translation>没有找到步报告行（需要同一行中有步数以及 cur= 或 peak= 数值）</translation>
    </message>
    <message numerus="yes">
        <source>%n report(s)</source>
        <translation>
            <numerusform>%n 条报告</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> from %n rank(s)</source>
        <translation>
            <numerusform>，来自 %n 个 rank</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RankScope::TimelineInput</name>
    <message>
        <source>&lt;b&gt;Rank %1&lt;/b&gt;, event %2</source>
        <translation>&lt;b&gt;Rank %1&lt;/b&gt;，事件 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1 ran out of memory&lt;/b&gt; at event %2, asking for %3 with %4 free on the device</source>
        <translation>&lt;b&gt;Rank %1 耗尽显存&lt;/b&gt;，在事件 %2 申请 %3，当时设备上空闲 %4</translation>
    </message>
    <message>
        <source>Click to show its stack</source>
        <translation>点击显示其调用栈</translation>
    </message>
    <message>
        <source>, %1 s</source>
        <translation>，%1 秒</translation>
    </message>
    <message>
        <source>&lt;br&gt;Live here: %1 (%2 at most in this pixel)</source>
        <translation>&lt;br&gt;此处存活：%1（此像素内最多 %2）</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;br&gt;%1 in allocations smaller than a pixel (%2) here</source>
        <translation>&lt;br&gt;&lt;br&gt;此处 %1 在小于一像素（%2）的分配中</translation>
    </message>
    <message>
        <source>&lt;br&gt;of which %1 are the finding&apos;s</source>
        <translation>&lt;br&gt;其中 %1 属于该发现</translation>
    </message>
    <message>
        <source>&lt;br&gt;Category: %1</source>
        <translation>&lt;br&gt;类别：%1</translation>
    </message>
    <message>
        <source>before the trace began</source>
        <translation>追踪开始前</translation>
    </message>
    <message>
        <source>at event %1</source>
        <translation>于事件 %1</translation>
    </message>
    <message>
        <source>still live at the end</source>
        <translation>到结束时仍存活</translation>
    </message>
    <message>
        <source>freed at event %1</source>
        <translation>在事件 %1 释放</translation>
    </message>
    <message>
        <source>&lt;br&gt;Allocated %1, %2; address 0x%3</source>
        <translation>&lt;br&gt;分配于%1，%2；地址 0x%3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1&lt;/b&gt; · annotated range &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>&lt;b&gt;Rank %1&lt;/b&gt; · 标注区间 &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Rank %1&lt;/b&gt; · %n annotated range(s), too short at this zoom to tell apart</source>
        <translation>
            <numerusform>&lt;b&gt;Rank %1&lt;/b&gt; · %n 个标注区间，在此缩放级别下过短，无法区分</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;br&gt;each &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>&lt;br&gt;均为 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;from &lt;b&gt;%1&lt;/b&gt; to &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>&lt;br&gt;从 &lt;b&gt;%1&lt;/b&gt; 到 &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;%1 ms, %n trace event(s) inside</source>
        <translation>
            <numerusform>&lt;br&gt;%1 ms，其中有 %n 个追踪事件</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;br&gt;From its START to the end of the trace: no END was recorded</source>
        <translation>&lt;br&gt;从其 START 到追踪结束：未记录 END</translation>
    </message>
    <message>
        <source>&lt;br&gt;From the start of the trace to its END: no START was recorded</source>
        <translation>&lt;br&gt;从追踪开始到其 END：未记录 START</translation>
    </message>
    <message>
        <source>&lt;br&gt;Allocated at its start: %1, at its end: %2 (%3%4)</source>
        <translation>&lt;br&gt;开始时已分配：%1，结束时：%2（%3%4）</translation>
    </message>
    <message>
        <source>Compare at Event %1</source>
        <translation>在事件 %1 处比较</translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Reset Zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Fit Memory Axis to View</source>
        <translation>内存轴适配当前视图</translation>
    </message>
    <message>
        <source>Fit Each Rank&apos;s Memory Axis</source>
        <translation>各 rank 内存轴分别适配</translation>
    </message>
    <message>
        <source>Link Zoom Across Ranks</source>
        <translation>各 rank 联动缩放</translation>
    </message>
    <message>
        <source>Colour Bands By</source>
        <translation>色带着色依据</translation>
    </message>
    <message>
        <source>X Axis: Trace Events</source>
        <translation>X 轴：追踪事件</translation>
    </message>
    <message>
        <source>X Axis: Time</source>
        <translation>X 轴：时间</translation>
    </message>
    <message>
        <source>X Axis: Profiler Steps</source>
        <translation>X 轴：Profiler 步</translation>
    </message>
    <message>
        <source>X Axis: Aligned with Rank %1</source>
        <translation>X 轴：与 rank %1 对齐</translation>
    </message>
    <message>
        <source>Pan Earlier</source>
        <translation>平移到更早</translation>
    </message>
    <message>
        <source>Pan Later</source>
        <translation>平移到更晚</translation>
    </message>
</context>
<context>
    <name>RankScope::TimelineOverview</name>
    <message>
        <source>Overview of the whole trace</source>
        <translation>整个跟踪的概览</translation>
    </message>
    <message>
        <source>The whole trace of each rank. Drag the frame to pan, drag elsewhere to choose a stretch, click to centre there, double-click to see everything.</source>
        <translation>每个 rank 的完整跟踪。拖动框以平移，在别处拖动以选择一段，单击以居中，双击显示全部。</translation>
    </message>
</context>
<context>
    <name>RankScope::TimelinePoint</name>
    <message>
        <source>aligned</source>
        <translation>对齐的时刻</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>各 rank 的峰值</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>快照</translation>
    </message>
    <message>
        <source>oom</source>
        <translation>OOM</translation>
    </message>
    <message>
        <source>event:%1@%2</source>
        <translation>rank %2 的事件 %1</translation>
    </message>
    <message>
        <source>event:%1</source>
        <translation>事件 %1</translation>
    </message>
    <message>
        <source>step:%1</source>
        <translation>第 %1 步开始时</translation>
    </message>
    <message>
        <source>step:%1:end</source>
        <translation>第 %1 步结束时</translation>
    </message>
</context>
<context>
    <name>RankScope::TimelineView</name>
    <message>
        <source>Memory timelines</source>
        <translation>显存时间线</translation>
    </message>
    <message>
        <source>Memory timelines of ranks A and B</source>
        <translation>rank A 和 B 的显存时间线</translation>
    </message>
    <message>
        <source>Timelines appear here once two ranks are compared</source>
        <translation>比较两个 rank 后，时间线将显示在这里</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>Rank %1 (%2)</source>
        <translation>Rank %1（%2）</translation>
    </message>
    <message numerus="yes">
        <source> — peak %1, %n event(s)</source>
        <translation>
            <numerusform> — 峰值 %1，%n 个事件</numerusform>
        </translation>
    </message>
    <message>
        <source>Trace event</source>
        <translation>追踪事件</translation>
    </message>
    <message>
        <source>Seconds since the rank&apos;s first event</source>
        <translation>自该 rank 第一个事件起的秒数</translation>
    </message>
    <message>
        <source>Profiler step (ProfilerStep#N), aligned across ranks</source>
        <translation>Profiler 步（ProfilerStep#N），各 rank 对齐</translation>
    </message>
    <message numerus="yes">
        <source> — peak %1, digest of %n event(s)</source>
        <translation>
            <numerusform> — 峰值 %1，摘要（源文件 %n 个事件）</numerusform>
        </translation>
    </message>
    <message>
        <source>Trace event of rank %1; the others at the same moment of their traces</source>
        <translation>rank %1 的轨迹事件；其他 rank 取其轨迹中的同一时刻</translation>
    </message>
    <message>
        <source>Legend of the timelines</source>
        <translation>时间线图例</translation>
    </message>
    <message>
        <source>&amp;Allocation (each its own colour)</source>
        <translation>分配(&amp;A)（各有其色）</translation>
    </message>
    <message>
        <source>&amp;Site (the same colour on every rank)</source>
        <translation>位置(&amp;S)（各 rank 同色）</translation>
    </message>
    <message>
        <source>&amp;Category (parameters, activations …)</source>
        <translation>类别(&amp;C)（参数、激活……）</translation>
    </message>
    <message>
        <source>an allocation (each its own colour)</source>
        <translation>一次分配（各有其色）</translation>
    </message>
    <message>
        <source>an allocation (colour: its site)</source>
        <translation>一次分配（颜色：其位置）</translation>
    </message>
    <message>
        <source>allocations under %1, summed</source>
        <translation>小于 %1 的分配，合计</translation>
    </message>
    <message>
        <source>small allocations, summed</source>
        <translation>小分配，合计</translation>
    </message>
    <message>
        <source>the finding&apos;s allocations (tinted)</source>
        <translation>该发现的分配（着色）</translation>
    </message>
    <message>
        <source>the finding&apos;s allocations among the summed ones</source>
        <translation>合计部分中该发现的分配</translation>
    </message>
    <message>
        <source>other allocations (faded)</source>
        <translation>其他分配（淡化）</translation>
    </message>
    <message>
        <source>comparison point</source>
        <translation>比较点</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>step begins</source>
        <translation>步开始</translation>
    </message>
    <message>
        <source>selected allocation</source>
        <translation>选中的分配</translation>
    </message>
    <message>
        <source>Show Annotated Ranges</source>
        <translation>显示标注区间</translation>
    </message>
    <message>
        <source>Show record_function scopes and NCCL collectives as named strips at the top of each timeline</source>
        <translation>在每条时间线顶部以带名称的条带显示 record_function 作用域和 NCCL 集合通信</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message numerus="yes">
        <source>%n range(s)</source>
        <translation>
            <numerusform>%n 个区间</numerusform>
        </translation>
    </message>
    <message>
        <source>annotated ranges (record_function, NCCL)</source>
        <translation>标注区间（record_function、NCCL）</translation>
    </message>
    <message>
        <source>Zoom &amp;Back</source>
        <translation>上一缩放视图(&amp;B)</translation>
    </message>
    <message>
        <source>The timelines&apos; view before the last zoom or pan</source>
        <translation>时间线在上一次缩放或平移之前的视图</translation>
    </message>
    <message>
        <source>Zoom &amp;Forward</source>
        <translation>下一缩放视图(&amp;F)</translation>
    </message>
    <message>
        <source>The view Zoom Back left</source>
        <translation>“上一缩放视图”离开的那个视图</translation>
    </message>
</context>
<context>
    <name>RankScope::VerdictBanner</name>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>What to change: %1</source>
        <translation>如何修改：%1</translation>
    </message>
    <message>
        <source>Every rank&apos;s trace is incomplete (recording started late or its ring buffer wrapped): allocations from before the traces are not seen.</source>
        <translation>每个 rank 的轨迹都不完整（记录开始得晚或环形缓冲区已回绕）：看不到轨迹开始之前的分配。</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be read and are not compared.</source>
        <translation>
            <numerusform>%n 个文件无法读取，未参与比较。</numerusform>
        </translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) could not be compared at the point asked for; their rows say where they were.</source>
        <translation>
            <numerusform>%n 个 rank 无法在所要求的时刻比较；其所在行说明了实际比较的位置。</numerusform>
        </translation>
    </message>
    <message>
        <source>Less</source>
        <translation>收起</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Show or hide the evidence and what to change</source>
        <translation>显示或隐藏依据与修改建议</translation>
    </message>
    <message>
        <source>This is the answer at the point chosen; at the job&apos;s own moment (Point: %1) the verdict is: %2.</source>
        <translation>这是所选比较点处的结果；在作业自身的时刻（比较点：%1），判定为：%2。</translation>
    </message>
    <message>
        <source>The job cannot use the %1; the ranks were compared without it.</source>
        <translation>该作业无法使用 %1；比较各 rank 时未使用它。</translation>
    </message>
    <message>
        <source>Verdict details</source>
        <translation>结论详情</translation>
    </message>
    <message>
        <source>%1 (confidence: %2)</source>
        <translation>%1（可信度：%2）</translation>
    </message>
    <message>
        <source>Confidence: %1</source>
        <translation>可信度：%1</translation>
    </message>
</context>
<context>
    <name>RankScope::VerdictText</name>
    <message>
        <source>only on this rank</source>
        <translation>仅此 rank 有</translation>
    </message>
    <message>
        <source>more allocations</source>
        <translation>分配更多</translation>
    </message>
    <message>
        <source>larger allocations</source>
        <translation>分配更大</translation>
    </message>
    <message>
        <source>at its peak</source>
        <translation>在各自峰值时</translation>
    </message>
    <message>
        <source>at %1</source>
        <translation>在 %1 处</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>the median of the other ranks</source>
        <translation>其他 rank 的中位数</translation>
    </message>
    <message>
        <source>Balanced: no rank holds notably more than the others</source>
        <translation>均衡：没有哪个 rank 明显比其他 rank 占用更多显存</translation>
    </message>
    <message>
        <source>Burden imbalance on rank %1: it does work the others do not</source>
        <translation>负载不均：rank %1 做了其他 rank 不做的工作</translation>
    </message>
    <message>
        <source>Input imbalance on rank %1: its tensors are larger or more numerous</source>
        <translation>输入不均：rank %1 的张量更大或更多</translation>
    </message>
    <message>
        <source>Rank %1 runs out of memory held outside PyTorch&apos;s allocator</source>
        <translation>Rank %1 显存不足，显存被 PyTorch 分配器之外的部分占用</translation>
    </message>
    <message>
        <source>Only one rank: nothing to compare it with.</source>
        <translation>只有一个 rank：没有可比较的对象。</translation>
    </message>
    <message>
        <source>Burden imbalance on rank %1: it holds %2 (%3) more than %4 %5; %6 of its extra memory is at sites no other rank reaches. Top sites: %7.</source>
        <translation>负载不均：%5，rank %1 比%4多占用 %2（%3）；其多出的显存中有 %6 位于其他 rank 都不会执行到的分配位置。主要分配位置：%7。</translation>
    </message>
    <message>
        <source>Look for memory PyTorch does not manage: other processes on the same GPU (nvidia-smi), a second CUDA context from a rank touching another rank&apos;s device (call torch.cuda.set_device(local_rank) before any CUDA work), and NCCL buffers (NCCL_BUFFSIZE).</source>
        <translation>查找不由 PyTorch 管理的显存：同一 GPU 上的其他进程（nvidia-smi）、某个 rank 访问了其他 rank 的设备而产生的第二个 CUDA 上下文（在任何 CUDA 操作之前调用 torch.cuda.set_device(local_rank)），以及 NCCL 缓冲区（NCCL_BUFFSIZE）。</translation>
    </message>
    <message>
        <source>Rank %1 does work the others do not (evaluation, gathering metrics, checkpointing): spread that work over all ranks or move it off the training peak, and call .detach().cpu() on tensors before gathering, logging or saving them.</source>
        <translation>Rank %1 做了其他 rank 不做的工作（评估、汇总指标、保存检查点）：把这些工作分摊到所有 rank，或移出训练峰值时段；并在汇总、记录或保存张量之前先调用 .detach().cpu()。</translation>
    </message>
    <message>
        <source>Rank %1 gets more or longer samples than the others: use DistributedSampler(drop_last=True) and call sampler.set_epoch(epoch), or build batches by token count and deal them round-robin so every rank gets the same amount of padding.</source>
        <translation>Rank %1 拿到的样本比其他 rank 更多或更长：使用 DistributedSampler(drop_last=True) 并调用 sampler.set_epoch(epoch)，或按 token 数组批并轮流分发，让每个 rank 的填充量相同。</translation>
    </message>
    <message>
        <source>most of the other ranks</source>
        <translation>大多数其他 rank</translation>
    </message>
    <message>
        <source>Input imbalance on rank %1: it holds %2 (%3) more than %4 %5; %6 is at sites shared with %7, with larger or more tensors there. Top sites: %8.</source>
        <translation>输入不均：%5，rank %1 比%4多占用 %2（%3）；其中 %6 位于与%7共有的分配位置，只是这里的张量更大或更多。主要分配位置：%8。</translation>
    </message>
    <message>
        <source>Burden imbalance on rank %1: it holds %2 (%3) more than %4 %5; %6 of its extra memory is at sites not shared with %7 (%8 at sites no other rank reaches). Top sites: %9.</source>
        <translation>负载不均：%5，rank %1 比%4多占用 %2（%3）；其多出的显存中有 %6 位于%7不会执行到的分配位置（其中 %8 位于其他 rank 都不会执行到的位置）。主要分配位置：%9。</translation>
    </message>
    <message>
        <source>One rank: nothing to compare it with</source>
        <translation>只有一个 rank：没有可比较的对象</translation>
    </message>
    <message>
        <source>On cuda:%1: </source>
        <translation>在 cuda:%1 上：</translation>
    </message>
    <message>
        <source>Other ranks&apos; memory on the GPU of rank %1 (cuda:%2)</source>
        <translation>其他 rank 的内存占用了 rank %1 的 GPU（cuda:%2）</translation>
    </message>
    <message>
        <source>Ranks %1 hold %2 on cuda:%3, the GPU rank %4 trains on (%5 of what rank %4 holds there itself): memory that rank %4&apos;s own file cannot show. Top sites: %6.</source>
        <translation>rank %1 在 cuda:%3（rank %4 训练所用的 GPU）上占用了 %2（相当于 rank %4 自身在该 GPU 上占用量的 %5）：这部分内存在 rank %4 自己的文件中看不到。主要位置：%6。</translation>
    </message>
    <message>
        <source>on another rank&apos;s GPU</source>
        <translation>在其他 rank 的 GPU 上</translation>
    </message>
    <message>
        <source>Ranks %1 allocate on another rank&apos;s GPU: call torch.cuda.set_device(local_rank) before any CUDA work, pass map_location= to torch.load (the rank&apos;s own device, or &quot;cpu&quot;), and give device= when creating tensors.</source>
        <translation>rank %1 在其他 rank 的 GPU 上分配内存：在任何 CUDA 操作之前调用 torch.cuda.set_device(local_rank)，给 torch.load 传入 map_location=（该 rank 自己的设备，或 &quot;cpu&quot;），并在创建张量时指定 device=。</translation>
    </message>
    <message>
        <source>at the highest peak (every rank at the same moment of its trace)</source>
        <translation>在最高峰值处（每个 rank 取其轨迹中的同一时刻）</translation>
    </message>
    <message>
        <source>Only one rank: rank %1 holds %2 %3, the most at %4. Open the other ranks&apos; snapshots with it to compare them.</source>
        <translation>只有一个 rank：rank %1 %3占用 %2，占用最多的位置：%4。请同时打开其他 rank 的快照以进行比较。</translation>
    </message>
    <message>
        <source>Rank %1 ran out of memory in a fragmented reserve</source>
        <translation>rank %1 在碎片化的预留内存中耗尽显存</translation>
    </message>
    <message>
        <source>Rank %1 ran out of memory asking for %2 while %3 of PyTorch&apos;s reserve was still free, but the largest free block was %4: the free space lies between live tensors in %5 segment(s). Allocations agree across ranks within %6.</source>
        <translation>rank %1 申请 %2 时显存不足，此时 PyTorch 的预留内存中仍有 %3 空闲，但最大的空闲块只有 %4：空闲空间分散在 %5 个内存段中存活张量之间。各 rank 的分配在 %6 以内一致。</translation>
    </message>
    <message>
        <source>Expandable segments are already on, so the free space is pinned between long-lived tensors: allocate long-lived ones (parameters, optimizer state, caches) before the training loop, keep no tensors from one step to the next, and set max_split_size_mb in PYTORCH_CUDA_ALLOC_CONF so large blocks are not split for small requests.</source>
        <translation>可扩展内存段已开启，空闲空间被长期存活的张量隔开：在训练循环之前分配长期存活的张量（参数、优化器状态、缓存），不要在步与步之间保留张量，并在 PYTORCH_CUDA_ALLOC_CONF 中设置 max_split_size_mb，避免大块被小请求拆分。</translation>
    </message>
    <message>
        <source>Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, so segments grow in place instead of leaving free space split between blocks; also allocate long-lived tensors before the training loop.</source>
        <translation>设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True，让内存段原地增长，而不是把空闲空间分散在各块之间；同时在训练循环之前分配长期存活的张量。</translation>
    </message>
    <message>
        <source>rank %1 holds %2 there</source>
        <translation>rank %1 在该 GPU 上占用 %2</translation>
    </message>
    <message>
        <source>ranks %1 hold %2 there</source>
        <translation>rank %1 在该 GPU 上占用 %2</translation>
    </message>
    <message>
        <source>%1 is in private pools (CUDA graphs, MemPool)</source>
        <translation>%1 位于私有内存池中（CUDA graph、MemPool）</translation>
    </message>
    <message>
        <source>Suspects the files show: %1.</source>
        <translation>文件显示的可疑来源：%1。</translation>
    </message>
    <message>
        <source>the median of its replicas</source>
        <translation>其副本的中位数</translation>
    </message>
    <message>
        <source>Model-parallel imbalance on rank %1: it holds more parameters, gradients or optimizer state</source>
        <translation>模型并行不均：rank %1 持有更多参数、梯度或优化器状态</translation>
    </message>
    <message>
        <source>Model-parallel imbalance: group %1 (ranks %2) holds more model state</source>
        <translation>模型并行不均：组 %1（rank %2）持有更多模型状态</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>temporaries</source>
        <translation>临时张量</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Groups differ by design: %1 holds %2 more than the median of the other groups, mostly %3.</source>
        <translation>各组按设计有所不同：%1 比其他组的中位数多 %2，主要是%3。</translation>
    </message>
    <message>
        <source>Ranks were compared with their replicas in the layout %1, guessed from the files (groups of ranks run different parts of the model); give the layout to confirm or correct it.</source>
        <translation>各 rank 按布局 %1 与其副本比较，该布局由文件推断（各组 rank 运行模型的不同部分）；请给出布局以确认或更正。</translation>
    </message>
    <message>
        <source>Ranks were compared with their replicas in the layout %1.</source>
        <translation>各 rank 按布局 %1 与其副本比较。</translation>
    </message>
    <message>
        <source>Group %1 of the layout (ranks %2) holds %3 more parameters, gradients and optimizer state than the median of the other groups %4 (%5 of what they hold in all): the model is split unevenly between them. Top sites: %6.</source>
        <translation>%4，布局中的组 %1（rank %2）比其他组的中位数多持有 %3 的参数、梯度和优化器状态（占其他组总量的 %5）：模型在各组之间切分不均。主要分配位置：%6。</translation>
    </message>
    <message>
        <source>Rank %1 holds %2 (%3) more than %4 %5, and most of it is parameters, gradients or optimizer state at sites the others share: ranks that should hold the same model hold different amounts of it, as the shards of an uneven split do. Top sites: %6.</source>
        <translation>%5，rank %1 比%4多占用 %2（%3），其中大部分是其他 rank 也有的分配位置上的参数、梯度或优化器状态：本应持有相同模型的 rank 持有的量不同，正如不均匀切分的分片那样。主要分配位置：%6。</translation>
    </message>
    <message>
        <source>Rebalance the split: give every pipeline stage layers of equal memory, counting the embedding and output layers (Megatron: --decoder-first-pipeline-num-layers and --decoder-last-pipeline-num-layers; torchtitan: the pipeline split points), and pick tensor-parallel sizes that divide the hidden, head and vocabulary sizes evenly.</source>
        <translation>重新平衡切分：让每个流水线阶段的层占用相同的显存，并把嵌入层和输出层计算在内（Megatron：--decoder-first-pipeline-num-layers 和 --decoder-last-pipeline-num-layers；torchtitan：流水线切分点），并选择能整除隐藏维度、注意力头数和词表大小的张量并行规模。</translation>
    </message>
    <message>
        <source>Growth on rank %1: it holds more at every step</source>
        <translation>Rank %1 持续增长：每一步占用都更多</translation>
    </message>
    <message>
        <source>Only rank %1 grows.</source>
        <translation>只有 rank %1 在增长。</translation>
    </message>
    <message>
        <source>Ranks %1 grow.</source>
        <translation>Rank %1 都在增长。</translation>
    </message>
    <message>
        <source>grows every step</source>
        <translation>每步增长</translation>
    </message>
    <message>
        <source>Find what keeps tensors from one step to the next: lists of losses or outputs appended without .item() or .detach(), caches and memoized results that grow, hooks or closures that hold tensors, and metrics accumulated on the GPU; keep Python numbers or CPU copies instead.</source>
        <translation>找出把张量从一步保留到下一步的代码：未调用 .item() 或 .detach() 就追加到列表中的损失或输出、不断增长的缓存和记忆化结果、持有张量的钩子或闭包，以及在 GPU 上累加的指标；改为保存 Python 数值或 CPU 副本。</translation>
    </message>
    <message>
        <source>at the highest peak of its replica group (every replica at the same moment of its trace)</source>
        <translation>在其副本组的最高峰值时（每个副本都处于其追踪中的同一时刻）</translation>
    </message>
    <message>
        <source>Rank %1 holds %2 (%3) more %4 than at the same moment of the step before, and more at every step (steps %5: %6 in all), at sites that grow at every step: tensors kept from one step to the next. %7Top sites: %8.</source>
        <translation>%4，rank %1 比上一步同一时刻多占用 %2（%3），且每一步都更多（步 %5：共 %6），增长位于每一步都在增长的分配位置：张量从一步保留到下一步。%7主要分配位置：%8。</translation>
    </message>
    <message>
        <source>Of the device&apos;s %1, that is %2 outside PyTorch.</source>
        <translation>在设备的 %1 中，有 %2 在 PyTorch 之外。</translation>
    </message>
    <message>
        <source>(no stack recorded)</source>
        <translation>（未记录调用栈）</translation>
    </message>
    <message>
        <source>Of the device&apos;s %1, %2 is neither PyTorch&apos;s reserve nor free: no more than the %3 a CUDA context and NCCL usually take.</source>
        <translation>设备的 %1 中，有 %2 既不是 PyTorch 的预留也不空闲：不超过 CUDA 上下文和 NCCL 通常占用的 %3。</translation>
    </message>
    <message>
        <source>Ranks %1 run out of memory held outside PyTorch&apos;s allocator</source>
        <translation>rank %1 因 PyTorch 分配器之外占用的显存而耗尽显存</translation>
    </message>
    <message>
        <source>Over capacity: ranks %1 ran out of memory alike, no rank stands out</source>
        <translation>超出容量：rank %1 同样耗尽显存，没有哪个 rank 特别突出</translation>
    </message>
    <message>
        <source>Over capacity: rank %1 needs more memory than its GPU offers</source>
        <translation>超出容量：rank %1 需要的显存超过其 GPU 所能提供的</translation>
    </message>
    <message>
        <source>Ranks %1 ran out of memory in fragmented reserves</source>
        <translation>rank %1 在碎片化的预留内存中耗尽显存</translation>
    </message>
    <message>
        <source>Rank %1 ran out of memory asking for %2 %3.</source>
        <translation>rank %1 在申请 %2 时耗尽显存（%3）。</translation>
    </message>
    <message>
        <source>ranks %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>%1 ran out of memory asking for %2 %3 with %4 reserved by PyTorch and only %5 free on the device</source>
        <translation>%1 在申请 %2 时耗尽显存（%3），当时 PyTorch 预留了 %4，设备上只剩 %5 空闲</translation>
    </message>
    <message>
        <source>Of the device&apos;s %1, %2 is neither PyTorch&apos;s reserve nor free: more than the %3 a CUDA context and NCCL usually take, so something outside PyTorch&apos;s caching allocator holds it. %4.</source>
        <translation>设备的 %1 中，有 %2 既不是 PyTorch 的预留也不空闲：超过了 CUDA 上下文和 NCCL 通常占用的 %3，因此是 PyTorch 缓存分配器之外的东西占用了它。%4。</translation>
    </message>
    <message>
        <source>Allocations agree across ranks within %1 and %2 did the same without running out of memory, yet %3: the rest of that GPU is held outside PyTorch&apos;s caching allocator.</source>
        <translation>各 rank 的分配相差不超过 %1，%2 做同样的工作并未耗尽显存，然而 %3：该 GPU 的其余显存被 PyTorch 缓存分配器之外的部分占用。</translation>
    </message>
    <message>
        <source>At its OOM rank %1 (the others alike) holds %2</source>
        <translation>在显存耗尽时，rank %1（其他 rank 相同）占用 %2</translation>
    </message>
    <message>
        <source>At its OOM it holds %1</source>
        <translation>在显存耗尽时它占用 %1</translation>
    </message>
    <message>
        <source>The failed request computes the loss: compute the cross-entropy in chunks or with a fused kernel, and never upcast the full logits to float32</source>
        <translation>失败的申请在计算损失：分块计算交叉熵或使用融合内核，且不要把完整的 logits 升为 float32</translation>
    </message>
    <message>
        <source> (without %1 the peak would be %2, -%3).</source>
        <translation>（没有 %1 时峰值将是 %2，减少 %3）。</translation>
    </message>
    <message>
        <source>Activations hold %1 (%2): checkpoint them (torch.utils.checkpoint, activation checkpointing in FSDP, torchtitan or Megatron), or use a smaller micro-batch or sequence length.</source>
        <translation>激活占用 %1（%2）：对其做检查点（torch.utils.checkpoint，或 FSDP、torchtitan、Megatron 中的激活检查点），或使用更小的微批次或序列长度。</translation>
    </message>
    <message>
        <source>Parameters, gradients and optimizer state hold %1 (%2): shard them further (FSDP full sharding, ZeRO stage 3), offload optimizer state to the CPU, or keep it in lower precision (8-bit Adam).</source>
        <translation>参数、梯度和优化器状态占用 %1（%2）：进一步分片（FSDP 完全分片、ZeRO 第 3 阶段），把优化器状态卸载到 CPU，或以更低精度保存（8 位 Adam）。</translation>
    </message>
    <message>
        <source>%1 is free in PyTorch&apos;s reserve, split between live blocks: set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True and allocate long-lived tensors before the training loop.</source>
        <translation>PyTorch 的预留中有 %1 空闲，但被分散在存活的块之间：设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True，并在训练循环之前分配长期存在的张量。</translation>
    </message>
    <message>
        <source>Bring the peak down, in the order of the memory each step addresses: %1</source>
        <translation>降低峰值，按各步骤涉及的显存从多到少排列：%1</translation>
    </message>
    <message>
        <source>mid-step, where a rank holds the most beyond its baseline (every rank at the same moment as rank %1&apos;s event %2)</source>
        <translation>在步中某个 rank 超出其基线最多之处（每个 rank 都取与 rank %1 的事件 %2 相同的时刻）</translation>
    </message>
    <message>
        <source>at rank %1&apos;s OOM (every rank at the same moment of its trace)</source>
        <translation>在 rank %1 的 OOM 处（每个 rank 取其轨迹中的同一时刻）</translation>
    </message>
    <message>
        <source>at rank %1&apos;s event %2 (every rank at the same moment of its trace)</source>
        <translation>在 rank %1 的事件 %2 处（每个 rank 取其轨迹中的同一时刻）</translation>
    </message>
    <message>
        <source>The device memory given (%1) is less than the %2 the files show in use or free (PyTorch&apos;s reserve and the free memory at the OOM, or the most PyTorch reserved at once): check it.</source>
        <translation>给出的设备显存（%1）少于文件显示的已用或空闲的 %2（OOM 时 PyTorch 的预留与空闲显存之和，或 PyTorch 一次预留的最大值）：请检查。</translation>
    </message>
    <message>
        <source>The snapshot does not record the device&apos;s total memory: give it (--device-memory SIZE, or Compare → GPU Memory…) to count what is held outside.</source>
        <translation>快照不记录设备的总显存：请给出它（--device-memory SIZE，或 比较 → GPU 显存…），以统计外部占用了多少。</translation>
    </message>
    <message>
        <source>The snapshot does not record the device&apos;s total memory: the files show at least %1 of it in PyTorch&apos;s reserve or free, and a CUDA context and NCCL usually take up to %2 more; if the GPU has more than that, something outside PyTorch holds the rest (give --device-memory SIZE, or Compare → GPU Memory…, to count it).</source>
        <translation>快照不记录设备的总显存：文件显示至少有 %1 属于 PyTorch 的预留或空闲，CUDA 上下文和 NCCL 通常还会占用最多 %2；如果 GPU 的显存比这更多，其余部分被 PyTorch 之外的东西占用（给出 --device-memory SIZE，或 比较 → GPU 显存…，即可统计）。</translation>
    </message>
    <message>
        <source>Burden imbalance on ranks %1: they do work the others do not</source>
        <translation>负载不均：rank %1 做了其他 rank 不做的工作</translation>
    </message>
    <message>
        <source>Input imbalance on ranks %1: their tensors are larger or more numerous</source>
        <translation>输入不均：rank %1 的张量更大或更多</translation>
    </message>
    <message>
        <source>At the highest peak the ranks are alike (the most above its baseline is rank %1, %2 more, under the %3 threshold; the peak is mostly %4), so they were compared where one holds the most beyond its baseline.</source>
        <translation>在最高峰值处各 rank 相近（超出基线最多的是 rank %1，多 %2，低于 %3 的阈值；峰值主要是%4），因此改在某个 rank 超出基线最多之处比较。</translation>
    </message>
    <message>
        <source>Its growth over the steps is under the %1 threshold, but it is what sets rank %2 apart from the others (%3 more than %4).</source>
        <translation>它在各步间的增长低于 %1 的阈值，但正是这部分让 rank %2 与其他 rank 不同（比%4多 %3）。</translation>
    </message>
    <message>
        <source>Ranks %1 ran out of memory holding about the same (within %2 of each other)</source>
        <translation>rank %1 在占用量大致相同（彼此相差不超过 %2）时耗尽显存</translation>
    </message>
    <message>
        <source>Rank %1 ran out of memory</source>
        <translation>rank %1 耗尽显存</translation>
    </message>
    <message>
        <source>; ranks %1 hold about the same but never reached the allocation that failed (their traces end before it, or a digest cannot show it), so whether it fits there the files cannot tell;</source>
        <translation>；rank %1 占用大致相同，但从未执行到失败的那次分配（其轨迹在此之前结束，或摘要无法显示），因此它在那里是否放得下，文件无法判断；</translation>
    </message>
    <message>
        <source>Ranks %1 all ran out of memory.</source>
        <translation>rank %1 全部耗尽显存。</translation>
    </message>
    <message>
        <source>The failed request&apos;s stack was not recorded.</source>
        <translation>失败申请的调用栈没有记录。</translation>
    </message>
    <message>
        <source>The request was at %1.</source>
        <translation>失败的申请位于 %1。</translation>
    </message>
    <message>
        <source>Balanced: no rank holds more than %1 above %2 %3; every rank holds the same.</source>
        <translation>均衡：%3，没有哪个 rank 比%2多出 %1 以上；各 rank 占用相同。</translation>
    </message>
    <message>
        <source>Balanced: no rank holds more than %1 above %2 %3; the most is rank %4 with %5 more.</source>
        <translation>均衡：%3，没有哪个 rank 比%2多出 %1 以上；最多的是 rank %4，多出 %5。</translation>
    </message>
    <message>
        <source>Input imbalance on ranks %1, which hold about the same: each holds %2 (%3) more than %4 %5; %6 is at sites shared with ranks %7, with larger or more tensors there. Top sites: %8.</source>
        <translation>输入不均：%5，占用大致相同的 rank %1 各比%4多占用 %2（%3）；其中 %6 位于与 rank %7 共有的分配位置，只是这里的张量更大或更多。主要分配位置：%8。</translation>
    </message>
    <message>
        <source>Burden imbalance on ranks %1, which hold about the same: each holds %2 (%3) more than %4 %5; %6 of the extra memory is at sites ranks %7 do not reach. Top sites: %8.</source>
        <translation>负载不均：%5，占用大致相同的 rank %1 各比%4多占用 %2（%3）；多出的显存中有 %6 位于 rank %7 不会执行到的分配位置。主要分配位置：%8。</translation>
    </message>
    <message>
        <source>Two groups of ranks alike: if they are pipeline stages or tensor-parallel shards, give the layout %1 (--layout, or Compare → Parallel Layout…) so each rank is compared with its replicas; if not, the two groups get two kinds of batch.</source>
        <translation>这是两组各自相同的 rank：如果它们是流水线阶段或张量并行分片，请给出布局 %1（--layout，或 比较 → 并行布局…），让每个 rank 与其副本比较；如果不是，说明这两组拿到了两种批次。</translation>
    </message>
    <message>
        <source>Two groups of ranks alike: if they are pipeline stages or tensor-parallel shards, give the layout %1 (--layout, or Compare → Parallel Layout…) so each rank is compared with its replicas; if not, ranks %2 do work the others do not.</source>
        <translation>这是两组各自相同的 rank：如果它们是流水线阶段或张量并行分片，请给出布局 %1（--layout，或 比较 → 并行布局…），让每个 rank 与其副本比较；如果不是，说明 rank %2 做了其他 rank 不做的工作。</translation>
    </message>
    <message>
        <source>Ranks %1 stand out together from ranks %2: if they differ by design (a stage or shard of a parallel layout), give the layout; if not, they get other batches or do other work.</source>
        <translation>rank %1 一起与 rank %2 不同：如果这是设计使然（并行布局中的一个阶段或分片），请给出布局；如果不是，说明它们拿到了不同的批次或做了其他工作。</translation>
    </message>
    <message>
        <source>aligned moments (rank %1&apos;s event %2, mid-step: where a rank holds the most beyond its baseline)</source>
        <translation>对齐的时刻（rank %1 的事件 %2，步中：某个 rank 超出其基线最多之处）</translation>
    </message>
    <message>
        <source>aligned moments (rank %1&apos;s OOM)</source>
        <translation>对齐的时刻（rank %1 的 OOM）</translation>
    </message>
    <message>
        <source>aligned moments (rank %1&apos;s event %2, picked)</source>
        <translation>对齐的时刻（rank %1 的事件 %2，选取）</translation>
    </message>
    <message>
        <source>aligned moments (each replica group at its highest rank&apos;s peak)</source>
        <translation>对齐的时刻（每个副本组取其最高 rank 的峰值）</translation>
    </message>
    <message>
        <source>aligned moments (rank %1&apos;s peak)</source>
        <translation>对齐的时刻（rank %1 的峰值）</translation>
    </message>
    <message>
        <source>Group %1 holds %2 more than the median of the other groups (mostly %3): move layers to the other stages, or keep fewer micro-batches in flight on it.</source>
        <translation>组 %1 比其他组的中位数多占用 %2（主要是%3）：把一些层移到其他阶段，或减少它上面同时在途的微批次。</translation>
    </message>
    <message>
        <source>Ranks %1 do work the others do not (evaluation, gathering metrics, checkpointing): spread that work over all ranks or move it off the training peak, and call .detach().cpu() on tensors before gathering, logging or saving them.</source>
        <translation>rank %1 做了其他 rank 不做的工作（评估、汇总指标、保存检查点）：把这些工作分摊到所有 rank，或移出训练峰值时段；并在汇总、记录或保存张量之前先调用 .detach().cpu()。</translation>
    </message>
    <message>
        <source>Ranks %1 get more or longer samples than the others: use DistributedSampler(drop_last=True) and call sampler.set_epoch(epoch), or build batches by token count and deal them round-robin so every rank gets the same amount of padding.</source>
        <translation>rank %1 拿到的样本比其他 rank 更多或更长：使用 DistributedSampler(drop_last=True) 并调用 sampler.set_epoch(epoch)，或按 token 数组批并轮流分发，让每个 rank 的填充量相同。</translation>
    </message>
    <message>
        <source>Later steps keep the optimizer state that this step creates at its peak, and then peak where the ranks differ.</source>
        <translation>之后的步会保留这一步在峰值处创建的优化器状态，届时峰值就会出现在各 rank 有差异的地方。</translation>
    </message>
    <message>
        <source>, and every rank doing the same work ran out of memory:</source>
        <translation>，且做同样工作的每个 rank 都显存不足：</translation>
    </message>
    <message>
        <source>rank %1 ran with %2 %3 (most: %4)</source>
        <translation>rank %1 使用 %2 %3 运行（多数为：%4）</translation>
    </message>
    <message>
        <source>Allocator settings differ between ranks: %1; a node started without the job&apos;s PYTORCH_CUDA_ALLOC_CONF (or PYTORCH_ALLOC_CONF) allocates differently.</source>
        <translation>各 rank 的分配器设置不同：%1；未带上作业的 PYTORCH_CUDA_ALLOC_CONF（或 PYTORCH_ALLOC_CONF）启动的节点，其分配方式也不同。</translation>
    </message>
    <message>
        <source>%1 nothing in the files shows memory held elsewhere, so the job does not fit. %2: %3. It asked for %4 more %5. Top sites: %6.</source>
        <translation>%1文件中没有迹象表明内存被别处占用，因此该作业放不下。%2：%3。它还请求了 %4（%5）。占用最多的位置：%6。</translation>
    </message>
    <message>
        <source>Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: the request lacked %1 while %2 lay unused in PyTorch&apos;s reserve, in gaps of at most %3; expandable segments map what a request lacks next to what the reserve holds instead of leaving it stranded.</source>
        <translation>设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True：请求还差 %1，而 PyTorch 的预留中有 %2 闲置在最大 %3 的空隙里；可扩展内存段会把请求所缺的部分映射到已预留内存的旁边，而不是让空闲内存搁浅。</translation>
    </message>
    <message>
        <source>%1 is free in PyTorch&apos;s reserve, split between live blocks though expandable segments are on: allocate long-lived tensors before the training loop, and keep no tensors from one step to the next.</source>
        <translation>PyTorch 的预留中有 %1 空闲，尽管已开启可扩展内存段，它们仍被分散在存活的内存块之间：在训练循环之前分配长期存在的张量，并且不要把张量从一步保留到下一步。</translation>
    </message>
    <message>
        <source>The device still had %1 free, more than the %2 asked for: a limit other than the GPU&apos;s memory refused the request (torch.cuda.set_per_process_memory_fraction, or memory taken by another process meanwhile).</source>
        <translation>设备仍有 %1 空闲，超过所请求的 %2：拒绝该请求的是 GPU 内存之外的某个限制（torch.cuda.set_per_process_memory_fraction，或期间被其他进程占用的内存）。</translation>
    </message>
    <message>
        <source>balanced</source>
        <translation>均衡</translation>
    </message>
    <message>
        <source>burden imbalance</source>
        <translation>负担不均</translation>
    </message>
    <message>
        <source>input imbalance</source>
        <translation>输入不均</translation>
    </message>
    <message>
        <source>memory outside the allocator</source>
        <translation>分配器之外的内存</translation>
    </message>
    <message>
        <source>over capacity</source>
        <translation>超出容量</translation>
    </message>
    <message>
        <source>stray device</source>
        <translation>错放设备</translation>
    </message>
    <message>
        <source>fragmentation</source>
        <translation>碎片化</translation>
    </message>
    <message>
        <source>model-parallel imbalance</source>
        <translation>模型并行不均</translation>
    </message>
    <message>
        <source>growth</source>
        <translation>逐步增长</translation>
    </message>
    <message>
        <source>applies too (needed %1, offered %2)</source>
        <translation>同样成立（需要 %1，提供了 %2）</translation>
    </message>
    <message>
        <source>applies too (%1 free between live blocks, the largest %2, for a %3 request)</source>
        <translation>同样成立（存活内存块之间空闲 %1，最大的一块 %2，申请为 %3）</translation>
    </message>
    <message>
        <source>applies too (%1 replica(s) went past the same request)</source>
        <translation>同样成立（%1 个副本越过了同一申请）</translation>
    </message>
    <message>
        <source>applies too, but comes later in the order of decision</source>
        <translation>同样成立，但在判定顺序中排在后面</translation>
    </message>
    <message>
        <source>one rank, nothing to compare it with</source>
        <translation>只有一个 rank，无从比较</translation>
    </message>
    <message>
        <source>other ranks hold %1 on rank %2&apos;s GPU (%3 of what it holds), under the %4 threshold</source>
        <translation>其他 rank 在 rank %2 的 GPU 上占用 %1（为其占用量的 %3），低于 %4 的阈值</translation>
    </message>
    <message>
        <source>the most beyond its baseline is rank %1 with %2 (%3), under the %4 threshold</source>
        <translation>超出基线最多的是 rank %1，多 %2（%3），低于 %4 的阈值</translation>
    </message>
    <message>
        <source>%1 of rank %2&apos;s excess is at sites its baseline reaches too, more than the %3 at sites it does not</source>
        <translation>rank %2 的超出量中有 %1 位于基线也有的分配位置，多于基线没有的位置上的 %3</translation>
    </message>
    <message>
        <source>%1 of rank %2&apos;s excess is at sites its baseline does not reach, more than the %3 at shared sites</source>
        <translation>rank %2 的超出量中有 %1 位于基线没有的分配位置，多于共有位置上的 %3</translation>
    </message>
    <message>
        <source>%1 of the %2 at shared sites is parameters, gradients or optimizer state: shards, not input</source>
        <translation>共有位置上的 %2 中有 %1 是参数、梯度或优化器状态：属于分片，而非输入</translation>
    </message>
    <message>
        <source>no layout splits the ranks into groups, and model state is %1 of the %2 at shared sites</source>
        <translation>没有布局把 rank 分成组，且共有位置上的 %2 中模型状态只占 %1</translation>
    </message>
    <message>
        <source>the groups&apos; model state differs by %1 (%2), under the %3 threshold</source>
        <translation>各组的模型状态相差 %1（%2），低于 %3 的阈值</translation>
    </message>
    <message>
        <source>no rank ran out of memory</source>
        <translation>没有 rank 内存不足</translation>
    </message>
    <message>
        <source>%1 free between live blocks, less than the %2 request</source>
        <translation>存活内存块之间空闲 %1，少于 %2 的申请</translation>
    </message>
    <message>
        <source>a free block of %1 between live blocks was as large as the %2 request</source>
        <translation>存活内存块之间有一个 %1 的空闲块不小于 %2 的申请</translation>
    </message>
    <message>
        <source>no replica went past the failed request (%1 never reached it), and the GPU&apos;s total was not given</source>
        <translation>没有副本越过失败的请求（%1 个从未到达该处），且未给出 GPU 的总内存</translation>
    </message>
    <message>
        <source>no replica went past the failed request, and the GPU&apos;s total was not given</source>
        <translation>没有副本越过失败的请求，且未给出 GPU 的总内存</translation>
    </message>
    <message>
        <source>%1 of the GPU&apos;s %2 is neither reserved nor free, within the %3 a CUDA context and NCCL take</source>
        <translation>GPU 的 %2 中有 %1 既未预留也不空闲，在 CUDA 上下文和 NCCL 通常占用的 %3 以内</translation>
    </message>
    <message>
        <source>fragmentation or memory outside the allocator explains the out-of-memory</source>
        <translation>碎片化或分配器之外的内存解释了这次内存不足</translation>
    </message>
    <message>
        <source>one training step: growth needs two or more</source>
        <translation>只有一个训练步：判断增长需要两步或更多</translation>
    </message>
    <message>
        <source>no rank holds more at every step at sites that grow</source>
        <translation>没有 rank 在不断增长的位置上每一步都占用更多</translation>
    </message>
    <message>
        <source>%1 of the %2 excess is at sites that grow, under half</source>
        <translation>%2 的超出量中只有 %1 位于增长的位置，不到一半</translation>
    </message>
    <message>
        <source>the answer below it is one growth does not override</source>
        <translation>下方规则给出的结论不是增长规则可以覆盖的</translation>
    </message>
    <message>
        <source>no rank allocates on another rank&apos;s GPU</source>
        <translation>没有 rank 在其他 rank 的 GPU 上分配内存</translation>
    </message>
    <message>
        <source>without the %1 other ranks hold on rank %2&apos;s GPU the %3 request still would not have fit (%4 free)</source>
        <translation>即使没有其他 rank 在 rank %2 的 GPU 上占用的 %1，%3 的请求仍然放不下（空闲 %4）</translation>
    </message>
    <message>
        <source>other ranks hold %1 on rank %2&apos;s GPU, less than the %3 imbalance on the ranks&apos; own</source>
        <translation>其他 rank 在 rank %2 的 GPU 上占用 %1，少于各 rank 自身 GPU 上 %3 的不均</translation>
    </message>
    <message>
        <source>rank %1 holds %2 (%3) beyond its baseline, over the %4 threshold</source>
        <translation>rank %1 超出基线 %2（%3），高于 %4 的阈值</translation>
    </message>
    <message>
        <source>%1 rank(s) ran out of memory</source>
        <translation>%1 个 rank 内存不足</translation>
    </message>
    <message>
        <source>a group of the layout holds more model state than the others</source>
        <translation>布局中有一组的模型状态多于其他组</translation>
    </message>
    <message>
        <source>Considered: %1.</source>
        <translation>也考虑过：%1。</translation>
    </message>
    <message>
        <source>high</source>
        <translation>高</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>中</translation>
    </message>
    <message>
        <source>low</source>
        <translation>低</translation>
    </message>
    <message>
        <source>the deciding figure is %1 times its threshold</source>
        <translation>决定性的数字是其阈值的 %1 倍</translation>
    </message>
    <message>
        <source>the deciding figure is only %1 times its threshold</source>
        <translation>决定性的数字只是其阈值的 %1 倍</translation>
    </message>
    <message>
        <source>the point was chosen by hand, not where the ranks differ most</source>
        <translation>比较点是手动选择的，而不是各 rank 差异最大之处</translation>
    </message>
    <message>
        <source>%1 ranks ran out of memory alike</source>
        <translation>%1 个 rank 同样内存不足</translation>
    </message>
    <message>
        <source>%1 replica(s) never reached the failed request, so whether it fits there the files cannot tell</source>
        <translation>%1 个副本从未到达失败的请求，因此文件无法说明它在那里是否放得下</translation>
    </message>
    <message>
        <source>the excess is split between sites only this rank reaches and shared ones (%1% the larger part)</source>
        <translation>超出量分散在仅此 rank 才有的位置和共有位置之间（较大的一部分占 %1%）</translation>
    </message>
    <message>
        <source>its growth over the steps is under the threshold</source>
        <translation>它在各步之间的增长低于阈值</translation>
    </message>
    <message>
        <source>only %1 steps</source>
        <translation>只有 %1 步</translation>
    </message>
    <message>
        <source>the device still had the request free, so what did not fit is a limit, not the GPU</source>
        <translation>设备仍有足够空闲满足该申请，因此放不下的是某个限制，而不是 GPU 本身</translation>
    </message>
    <message>
        <source>The allocator&apos;s setting first, then bring the peak down, in the order of the memory each step addresses: %1</source>
        <translation>先调整分配器的设置，再按各步所涉及内存的多少降低峰值：%1</translation>
    </message>
    <message>
        <source>%1 nothing in the files shows memory held elsewhere, so the job does not fit as the allocator laid it out. %2: %3. It asked for %4 more %5. Top sites: %6.</source>
        <translation>%1文件中没有迹象表明内存被别处占用，因此按分配器的布局该作业放不下。%2：%3。它还申请了 %4（%5）。占用最多的位置：%6。</translation>
    </message>
    <message>
        <source>%1 nothing in the files shows memory held elsewhere, so the job does not fit in what the process was allowed. %2: %3. It asked for %4 more %5. Top sites: %6.</source>
        <translation>%1文件中没有迹象表明内存被别处占用，因此该作业在进程被允许使用的内存里放不下。%2：%3。它还申请了 %4（%5）。占用最多的位置：%6。</translation>
    </message>
    <message>
        <source> — it frees up to %2, more than the %1 gap.</source>
        <translation> —— 它最多可腾出 %2，超过 %1 的缺口。</translation>
    </message>
    <message>
        <source> — it frees up to %2, less than the %1 gap: not enough alone.</source>
        <translation> —— 它最多只能腾出 %2，小于 %1 的缺口：单靠这一项不够。</translation>
    </message>
    <message>
        <source>The device still had %1 free when the request for %2 failed: raise the memory limit the process was given (torch.cuda.set_per_process_memory_fraction, or a framework&apos;s own cap), or bring the peak below it.</source>
        <translation>%2 的申请失败时设备仍有 %1 空闲：提高进程被赋予的内存上限（torch.cuda.set_per_process_memory_fraction，或某个框架自己的上限），或把峰值降到上限以下。</translation>
    </message>
    <message>
        <source>It was %1 from fitting: it needed %2 (%3 held and the request); the GPU offered %4 (%5 reserved by PyTorch and %6 free on the device), of which %7 could hold it, since %8 of the reserve lay unused in %9 segment(s): the request was %1 more than the device had free, less than what lay unused.</source>
        <translation>距离放下只差 %1：它需要 %2（已占用 %3 加上该申请）；GPU 提供了 %4（PyTorch 预留 %5，设备空闲 %6），其中 %7 能容纳它，因为预留中有 %8 闲置在 %9 个内存段里：申请比设备的空闲显存多 %1，少于闲置的部分。</translation>
    </message>
    <message>
        <source>Its largest gap was %1: enough bytes, not in one piece.</source>
        <translation>其中最大的空隙为 %1：字节数足够，只是不连续。</translation>
    </message>
    <message>
        <source>A gap of %1 was as large as the request, yet the allocator did not use it (another stream&apos;s or pool&apos;s, or a size it keeps for smaller requests).</source>
        <translation>有一个 %1 的空隙不小于该申请，但分配器没有使用它（它属于另一个流或内存池，或是为较小申请保留的尺寸）。</translation>
    </message>
    <message>
        <source>Expandable segments were already on.</source>
        <translation>可扩展内存段已经开启。</translation>
    </message>
    <message>
        <source>It was %1 from fitting: it needed %2 (%3 held and the request); the GPU offered %4 (%5 reserved by PyTorch and %6 free on the device), of which %7 could hold it: the request was %1 more than the device had free, and the %8 unused in the reserve would not have covered it (short by %9 even with every gap used).</source>
        <translation>距离放下还差 %1：它需要 %2（已占用 %3 加上该申请）；GPU 提供了 %4（PyTorch 预留 %5，设备空闲 %6），其中 %7 能容纳它：申请比设备的空闲显存多 %1，预留中闲置的 %8 也补不上（即使用上所有空隙，仍缺 %9）。</translation>
    </message>
    <message>
        <source>%1 rank(s) have incomplete traces where the others do not</source>
        <translation>%1 个 rank 的轨迹不完整，而其他 rank 是完整的</translation>
    </message>
    <message>
        <source>the failed request&apos;s own figures decide it (free space, replicas or the device&apos;s total)</source>
        <translation>由失败申请自身的数字决定（空闲空间、副本或设备总显存）</translation>
    </message>
    <message>
        <source>one rank ran out of memory and the GPU&apos;s total was not given, so memory held outside PyTorch cannot be ruled out</source>
        <translation>只有一个 rank 内存不足，且未给出 GPU 的总显存，因此无法排除 PyTorch 之外占用的内存</translation>
    </message>
    <message>
        <source>the largest excess over a baseline is %1% of the threshold</source>
        <translation>超出基线最多的也只是阈值的 %1%</translation>
    </message>
    <message>
        <source>&lt;no stack recorded&gt;</source>
        <translation>&lt;未记录调用栈&gt;</translation>
    </message>
    <message>
        <source>ranks %1 alike asked for %2</source>
        <translation>rank %1 同样请求了 %2</translation>
    </message>
    <message>
        <source>rank %1 asked for %2</source>
        <translation>rank %1 请求了 %2</translation>
    </message>
    <message>
        <source>Over capacity: ranks %1 ran out of memory, not alike: %2</source>
        <translation>超出容量：rank %1 耗尽显存，但各不相同：%2</translation>
    </message>
    <message>
        <source>Their failed requests differ (%1). At its OOM rank %2 holds %3</source>
        <translation>它们失败的请求各不相同（%1）。在显存耗尽时，rank %2 占用 %3</translation>
    </message>
</context>
<context>
    <name>RankScope::ViewWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
</context>
<context>
    <name>RankScope::WhatIfModel</name>
    <message>
        <source>every allocation of %1</source>
        <translation>%1的全部分配</translation>
    </message>
    <message>
        <source>The highest total over the trace had these allocations not been made (%1 with them)</source>
        <translation>假如没有这些分配，整个追踪期间的最高总量（有这些分配时为 %1）</translation>
    </message>
    <message>
        <source>Without</source>
        <translation>去掉</translation>
    </message>
    <message>
        <source>Held there</source>
        <translation>该时刻占用</translation>
    </message>
    <message>
        <source>Peak without</source>
        <translation>去掉后的峰值</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>节省</translation>
    </message>
    <message>
        <source>A site (the largest at the moment looked at) or a category left out of the replay</source>
        <translation>重放时去掉的分配位置（所看时刻最大的）或类别</translation>
    </message>
    <message>
        <source>What the rank holds there at the moment looked at</source>
        <translation>该 rank 在所看时刻于此处占用的显存</translation>
    </message>
    <message>
        <source>The rank&apos;s peak with the trace replayed without these allocations (a failed request counts as allocated at its OOM)</source>
        <translation>去掉这些分配重放追踪后该 rank 的峰值（失败的申请按在其 OOM 处已分配计算）</translation>
    </message>
    <message>
        <source>How much lower that peak is</source>
        <translation>峰值降低了多少</translation>
    </message>
    <message>
        <source>%1, and the failed request</source>
        <translation>%1，以及失败的申请</translation>
    </message>
    <message>
        <source>The failed request goes with these allocations: what is saved counts it too</source>
        <translation>失败的申请随这些分配一起去掉：节省量也计入了它</translation>
    </message>
    <message>
        <source>The highest total over the trace had these allocations not been made (%1 with them); ✓: within the %2 of the %3 the GPU offered at the OOM (PyTorch&apos;s reserve and the free memory) that were not stranded in the reserve</source>
        <translation>假如没有这些分配，整个轨迹中的最高总量（有它们时为 %1）；✓：在 OOM 时 GPU 提供的 %3（PyTorch 的预留与空闲显存）中未搁浅在预留里的 %2 以内</translation>
    </message>
</context>
<context>
    <name>RankScope::WhatIfView</name>
    <message>
        <source>Peak without each site or category</source>
        <translation>去掉各分配位置或类别后的峰值</translation>
    </message>
    <message>
        <source>No rank selected</source>
        <translation>未选择 rank</translation>
    </message>
    <message>
        <source>Rank %1: replaying its trace without each of its largest sites…</source>
        <translation>Rank %1：正在去掉其最大的各个分配位置重放追踪…</translation>
    </message>
    <message>
        <source>at its OOM (event %1)</source>
        <translation>在其 OOM 处（事件 %1）</translation>
    </message>
    <message>
        <source>at the point compared (event %1)</source>
        <translation>在比较点（事件 %1）</translation>
    </message>
    <message>
        <source>Rank %1&apos;s peak is %2. Had these allocations not been made (its largest sites %3, and each category), it would have been:</source>
        <translation>Rank %1 的峰值为 %2。假如没有这些分配（其%3最大的各个分配位置，以及各个类别），峰值将是：</translation>
    </message>
    <message>
        <source>Rank %1 is a digest, which keeps too little of its trace for the peak without a site: open its full snapshot for these figures.</source>
        <translation>Rank %1 是摘要，保留的追踪太少，无法计算去掉某个分配位置后的峰值：请打开其完整快照以获得这些数字。</translation>
    </message>
    <message>
        <source>Rank %1 needed %2 at most (its failed requests counted where they were made); the GPU offered %4 at its OOM (PyTorch&apos;s reserve and the free memory), of which %5 could hold a peak: %6 lay stranded in the reserve. Had these allocations not been made (its largest sites %3, and each category), it would have needed (✓: that alone would have fit):</source>
        <translation>Rank %1 最多需要 %2（失败的申请按其发生处计入）；OOM 时 GPU 提供了 %4（PyTorch 的预留与空闲显存），其中 %5 可以容纳峰值：有 %6 搁浅在预留中。假如没有这些分配（其%3最大的各个分配位置，以及各个类别），它将需要（✓：单是这一项就放得下）：</translation>
    </message>
    <message>
        <source>Rank %1 needed %2 at most (its failed requests counted where they were made); the GPU offered %4 at its OOM (PyTorch&apos;s reserve and the free memory), which does not say what a smaller peak would have fit in: %5. Had these allocations not been made (its largest sites %3, and each category), it would have needed:</source>
        <translation>Rank %1 最多需要 %2（失败的申请按其发生处计入）；OOM 时 GPU 提供了 %4（PyTorch 的预留与空闲显存），这并不能说明更小的峰值能否放下：%5。假如没有这些分配（其%3最大的各个分配位置，以及各个类别），它将需要：</translation>
    </message>
    <message>
        <source>the device still had the request free</source>
        <translation>设备仍有足够空闲满足该申请</translation>
    </message>
    <message>
        <source>the rank held more earlier in its trace and went on</source>
        <translation>该 rank 在轨迹中更早时占用过更多且继续运行了</translation>
    </message>
</context>
<context>
    <name>StackText</name>
    <message>
        <source>… 1 more frame</source>
        <translation>… 还有 1 个栈帧</translation>
    </message>
    <message>
        <source>… %1 more frames</source>
        <translation>… 还有 %1 个栈帧</translation>
    </message>
    <message>
        <source>  ×%1 (repeated)</source>
        <translation>  ×%1（重复）</translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 · %2 · +%3 over the baseline
%4 in %n allocation(s) here, against %5</source>
        <translation>
            <numerusform>Rank %1 · %2 · 比基线多 %3
此处 %n 个分配共 %4，基线为 %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 has no allocation at this site.</source>
        <translation>Rank %1 在此分配位置没有分配。</translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 holds %2 in %n allocation(s) at this site.</source>
        <translation>
            <numerusform>Rank %1 在此分配位置有 %n 个分配，共 %2。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%n other rank(s) allocate here too)</source>
        <translation>
            <numerusform>（另有 %n 个 rank 也在此分配）</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 ran out of memory at event %2
asking for %3, with %4 free on the device</source>
        <translation>Rank %1 在事件 %2 耗尽显存
申请 %3，当时设备上空闲 %4</translation>
    </message>
    <message>
        <source>+1 native frame</source>
        <translation>+1 个原生栈帧</translation>
    </message>
    <message>
        <source>+%1 native frames</source>
        <translation>+%1 个原生栈帧</translation>
    </message>
    <message>
        <source>… 1 inner frame</source>
        <translation>… 1 个内层栈帧</translation>
    </message>
    <message>
        <source>… %1 inner frames</source>
        <translation>… %1 个内层栈帧</translation>
    </message>
</context>
</TS>
