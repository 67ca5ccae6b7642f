// Drives RankScope's MCP server (`BINARY mcp`, stdio) with the official TypeScript SDK client.
//
// Usage: node client.mjs RANKSCOPE_BINARY EXAMPLES_DIR [--core] [--log TRAINING_LOG] [--many JOB_DIR]
//   EXAMPLES_DIR holds 4 rank snapshots; --core: the binary is rankscope-cli (no export_picture);
//   --log: also call steps on that log (skipped without it); --many: a job of many ranks alike out of memory
//   (capacity_loss_64), on which every tool's default answer must stay within the budget and an agent-style session
//   must reach the verdict, the failed request's own frames and the what-if in at most five calls.
//
// Checks, each through client.callTool so the SDK validates structuredContent against outputSchema:
//  1. connect + initialize negotiate a supported protocol; listTools() names exactly the expected
//     tools in order, each with a description and an inputSchema; a tool with an outputSchema
//     always answers (when not an error) with structuredContent.
//  2. open_job: a string job id, 4 files, none failed.
//  3. diff: verdict and ranks deep-equal `BINARY diff --json EXAMPLES_DIR`, finding_count its findings.
//  4. findings: paging (first is number 1) and a filter that matches nothing.
//  5. stack: frames with filename, line, name and a boolean own_code.
//  6. top (by site and by category) and what_if.
//  7. info on the folder; steps on a log (with --log), equal to `BINARY steps --json LOG`.
//  8. export_picture (not --core): a real PNG (signature, IHDR, IDAT inflating to the right size),
//     and nothing written to disk.
//  9. bad input gives tool results with isError (not protocol errors), with the expected texts,
//     and the server still answers afterwards; what is not one job's snapshots (other records, an object without
//     segments, a log, a folder of several jobs, a job of empty snapshots, an OOM no rank has) is refused with the
//     reason and never gets a verdict; a folder's node_modules is left out with a note; my_code takes packages.
// 10. closing the client ends the server process on its own (stdin closed, no signal needed).
// Prints a transcript of each call; exits non-zero with a message on the first failed check.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { inflateSync } from "node:zlib";

const argv = process.argv.slice(2);
const core = argv.includes("--core");
const logIndex = argv.indexOf("--log");
const log = logIndex >= 0 ? resolve(argv[logIndex + 1] ?? "") : null;
const manyIndex = argv.indexOf("--many");
const many = manyIndex >= 0 ? resolve(argv[manyIndex + 1] ?? "") : null;
const positional = argv.filter(
  (a, i) => !a.startsWith("--") && (logIndex < 0 || i !== logIndex + 1) && (manyIndex < 0 || i !== manyIndex + 1));
if (positional.length !== 2) {
  console.error("usage: node client.mjs RANKSCOPE_BINARY EXAMPLES_DIR [--core] [--log TRAINING_LOG]");
  process.exit(2);
}
const binary = resolve(positional[0]);
const examples = resolve(positional[1]);

let serverStderr = "";
function fail(message, detail) {
  console.error(`FAIL: ${message}`);
  if (detail !== undefined) console.error(typeof detail === "string" ? detail : JSON.stringify(detail, null, 2).slice(0, 4000));
  if (serverStderr) console.error(`--- server stderr ---\n${serverStderr.slice(-4000)}`);
  process.exit(1);
}
function check(condition, message, detail) {
  if (!condition) fail(message, detail);
}
process.on("uncaughtException", (error) => fail(`unexpected error: ${error.message}`));
const text = (result) => result.content?.filter((c) => c.type === "text").map((c) => c.text).join("\n") ?? "";

// The server runs in an empty folder of its own, so that anything it writes would show there.
const workdir = mkdtempSync(join(tmpdir(), "rankscope-mcp-"));
const transport = new StdioClientTransport({ command: binary, args: ["mcp"], cwd: workdir, stderr: "pipe" });
transport.stderr.on("data", (chunk) => (serverStderr += chunk));
let negotiated = null;
transport.setProtocolVersion = (version) => (negotiated = version); // the Client calls it after initialize
const client = new Client({ name: "rankscope-mcp-test", version: "1.0.0" });

// Calls a tool; the result must be a (non-)error as `expectError` says; prints a transcript line.
async function call(name, args, expectError = false) {
  let result;
  try {
    result = await client.callTool({ name, arguments: args });
  } catch (error) {
    fail(`${name} ${JSON.stringify(args)} threw instead of returning a result: ${error.message}`);
  }
  const summary = text(result).replace(/\s+/g, " ").slice(0, 200);
  console.log(`${name} ${JSON.stringify(args)}${result.isError ? " [isError]" : ""}\n  -> ${summary}`);
  check(!!result.isError === expectError, `${name}: isError is ${!!result.isError}, expected ${expectError}`, result);
  if (!expectError && outputSchemas.has(name))
    check(result.structuredContent && typeof result.structuredContent === "object", `${name}: no structuredContent`, result);
  return result;
}
const outputSchemas = new Set();

try {
  await client.connect(transport);
} catch (error) {
  fail(`cannot connect to ${binary} mcp (no answer to initialize: is each message flushed?): ${error.message}`);
}

// 1. Protocol and tool list.
check(SUPPORTED_PROTOCOL_VERSIONS.includes(negotiated), `negotiated protocol version ${negotiated} is not supported`);
const server = client.getServerVersion();
console.log(`connected to ${server?.name} ${server?.version}, protocol ${negotiated}`);
check(client.getServerCapabilities()?.tools, "the server does not offer tools");
const { tools } = await client.listTools();
const expected = ["open_job", "diff", "findings", "ranks", "stack", "top", "what_if", "info", "steps", "gate"];
if (!core) expected.push("export_picture");
check(isDeepStrictEqual(tools.map((t) => t.name), expected), "listTools() names differ", { got: tools.map((t) => t.name), expected });
for (const tool of tools) {
  check(typeof tool.description === "string" && tool.description.length > 0, `${tool.name} has no description`);
  check(tool.inputSchema?.type === "object", `${tool.name} has no inputSchema`, tool);
  if (tool.outputSchema) outputSchemas.add(tool.name);
}
console.log(`tools: ${tools.map((t) => t.name).join(", ")} (with outputSchema: ${[...outputSchemas].join(", ")})`);

// 2. open_job
const opened = (await call("open_job", { paths: [examples] })).structuredContent;
const job = opened.job;
check(typeof job === "string" && job.length > 0, "open_job: job is not a string id", opened);
check(opened.files.length === 4, `open_job: ${opened.files.length} files, expected 4`, opened);
check(opened.failed.length === 0, "open_job: some files failed", opened.failed);

// 3. diff in full equals the command line's diff --json
const diff = (await call("diff", { job, detail: "full" })).structuredContent;
const cli = JSON.parse(execFileSync(binary, ["diff", "--json", examples], { encoding: "utf8", maxBuffer: 1 << 28 }));
check(isDeepStrictEqual(diff.verdict, cli.verdict), "diff: verdict differs from diff --json", { mcp: diff.verdict, cli: cli.verdict });
check(isDeepStrictEqual(diff.ranks, cli.ranks), "diff: ranks differ from diff --json", { mcp: diff.ranks, cli: cli.ranks });
check(diff.finding_count === cli.findings.length, `diff: finding_count ${diff.finding_count}, diff --json has ${cli.findings.length}`);

// 4. findings
const page = (await call("findings", { job, limit: 5 })).structuredContent;
check(page.total >= 1 && page.findings[0]?.number === 1, "findings: expected at least one, numbered from 1", page);
const none = (await call("findings", { job, filter: "no-such-frame-xyz" })).structuredContent;
check(none.matched === 0 && none.findings.length === 0, "findings: the filter should match nothing", none);

// 5. stack
const stack = (await call("stack", { job, finding: 1 })).structuredContent;
check(stack.frames.length > 0, "stack: no frames", stack);
for (const f of stack.frames) {
  if (f.inner_frames !== undefined || f.native_frames !== undefined) continue; // what is folded, counted
  check(typeof f.filename === "string" && Number.isInteger(f.line) && typeof f.name === "string" && typeof f.own_code === "boolean",
    "stack: a frame lacks filename, line, name or boolean own_code", f);
}
check(stack.comparison?.job === job, "stack: does not name the comparison it answers", stack);

// 6. top and what_if
const top = (await call("top", { job })).structuredContent;
check(typeof top.rank === "number" && top.bytes > 0, "top: expected a rank and bytes > 0", top);
await call("top", { job, by: "category" });
const whatIf = (await call("what_if", { job })).structuredContent;
check(Array.isArray(whatIf.what_if), "what_if: what_if is not an array", whatIf);

// 7. info and steps
const info = (await call("info", { paths: [examples] })).structuredContent;
check(info.files?.length === 4, "info: expected 4 files", info);
if (log) {
  const steps = (await call("steps", { paths: [log] })).structuredContent;
  const cliSteps = JSON.parse(execFileSync(binary, ["steps", "--json", log], { encoding: "utf8" }));
  // The ranks' rows come in pages (20 by default); a log of fewer ranks is one page, the rest as steps --json.
  const { rank_count: stepRanks, offset: _offset, limit: _limit, next: stepsNext, ...stepsPage } = steps;
  check(isDeepStrictEqual(stepsPage, cliSteps) && stepRanks === cliSteps.ranks.length && stepsNext === null,
    "steps: differs from steps --json", { mcp: steps, cli: cliSteps });
} else {
  console.log("steps: skipped (no --log)");
}

// 8. export_picture returns a real PNG and writes nothing
if (!core) {
  const examplesBefore = readdirSync(examples);
  const picture = await call("export_picture", { job, width: 800, height: 500 });
  const image = picture.content.find((c) => c.type === "image");
  check(image && image.mimeType === "image/png", "export_picture: no image/png content", picture.content.map((c) => c.type));
  const png = Buffer.from(image.data, "base64");
  check(png.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])), "export_picture: not a PNG signature");
  let ihdr = null, end = false;
  const idat = [];
  for (let at = 8; at + 12 <= png.length; ) {
    const length = png.readUInt32BE(at), type = png.toString("latin1", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") ihdr = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), depth: data[8], colour: data[9], interlace: data[12] };
    if (type === "IDAT") idat.push(data);
    if (type === "IEND") end = true;
    at += 12 + length;
  }
  check(ihdr && ihdr.width > 0 && ihdr.height > 0 && end && idat.length > 0, "export_picture: PNG lacks IHDR, IDAT or IEND", ihdr);
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[ihdr.colour];
  check(channels && ihdr.interlace === 0, "export_picture: unexpected PNG colour type or interlacing", ihdr);
  const rowBytes = Math.ceil((ihdr.width * channels * ihdr.depth) / 8);
  const inflated = inflateSync(Buffer.concat(idat));
  check(inflated.length === ihdr.height * (1 + rowBytes),
    `export_picture: IDAT inflates to ${inflated.length} bytes, expected ${ihdr.height * (1 + rowBytes)}`, ihdr);
  const sc = picture.structuredContent;
  check(sc.png_bytes === png.length && sc.width === ihdr.width && sc.height === ihdr.height,
    "export_picture: structuredContent does not match the PNG", { structuredContent: sc, ihdr });
  console.log(`  PNG ${ihdr.width}x${ihdr.height}, depth ${ihdr.depth}, colour type ${ihdr.colour}, ${png.length} bytes`);
  check(readdirSync(workdir).length === 0, "export_picture wrote into the server's folder", readdirSync(workdir));
  check(isDeepStrictEqual(readdirSync(examples), examplesBefore), "export_picture wrote into the examples folder");
}

// 9. Errors are tool results, and the server lives on
await call("diff", { job: "nojob" }, true);
await call("open_job", { paths: ["/nonexistent/x.pickle"] }, true);
const layout = await call("diff", { job, layout: "pp=2,dp=4" }, true);
check(text(layout) === "layout pp=2,dp=4: 8 ranks, but 4 snapshot files are given", "diff layout: unexpected error text", text(layout));
const point = await call("diff", { job, point: "event:999999" }, true);
check(text(point).includes("trace has events 0 to"), "diff point: unexpected error text", text(point));
const after = (await call("findings", { job })).structuredContent;
check(after.total >= 1, "findings after the errors: no findings", after);

// 9b. What a tool does not take is refused, not ignored; an offset past the end is an error.
const unknown = await call("what_if", { job, point: "peak" }, true);
check(text(unknown).startsWith("unknown argument point"), "what_if point: unexpected error text", text(unknown));
await call("findings", { job, offset: 1000 }, true);
await call("info", { paths: ["/nonexistent/x.pickle"] }, true);

// 9d. What is not one job's snapshots: refused or noted with the reason, never a verdict.
const inputs = mkdtempSync(join(tmpdir(), "rankscope-mcp-inputs-"));
const put = (path, content) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
};
const rankFiles = readdirSync(examples).filter((f) => /rank\d/.test(f)).sort().slice(0, 2);
const copyRanks = (folder) => {
  mkdirSync(folder, { recursive: true });
  rankFiles.forEach((f, i) => copyFileSync(join(examples, f), join(folder, `rank${i}.pickle`)));
  return folder;
};
const records = put(join(inputs, "records", "calls.json"), JSON.stringify([{ tool: "diff", args: {} }]));
const noSegments = put(join(inputs, "object.json"), JSON.stringify({ tool: "info", args: {} }));
const trainLog = put(join(inputs, "train.log"), "rank=0 step=1 cur=10MB peak=12MB\n");
for (const path of [records, noSegments, trainLog]) {
  for (const tool of ["open_job", "info"]) {
    const refused = await call(tool, { paths: [path] }, true);
    check(text(refused).includes(`${path}: not a PyTorch memory snapshot`) || text(refused).includes(`${path}: not a memory snapshot`),
      `${tool} on ${path}: no reason given`, text(refused));
  }
}
const project = copyRanks(join(inputs, "project"));
copyRanks(join(project, "node_modules", "pkg"));
const withPackages = (await call("open_job", { paths: [project] })).structuredContent;
check(withPackages.file_count === 2 && withPackages.notes.some((n) => n.includes("node_modules: not searched")),
  "open_job on a folder with node_modules: not left out with a note", withPackages);
const jobs = join(inputs, "jobs");
copyRanks(join(jobs, "a"));
copyRanks(join(jobs, "b"));
const several = await call("open_job", { paths: [jobs] }, true);
check(text(several).includes("holds the snapshots of 2 jobs") && text(several).includes("a (2 files), b (2 files)"),
  "open_job on a folder of several jobs: the jobs are not listed", text(several));
put(join(inputs, "empty", "rank0.json"), JSON.stringify({ segments: [], device_traces: [[]] }));
put(join(inputs, "empty", "rank1.json"), "[]");
const emptyJob = (await call("open_job", { paths: [join(inputs, "empty")] })).structuredContent;
check(emptyJob.nothing_to_compare?.startsWith("nothing to compare"), "open_job on empty snapshots: not said", emptyJob);
for (const tool of ["diff", "top", "findings"]) {
  const nothing = await call(tool, { job: emptyJob.job }, true);
  check(text(nothing).startsWith("nothing to compare: each of the 2 files is an empty snapshot"),
    `${tool} on empty snapshots: not refused as nothing to compare`, text(nothing));
}
const noOom = await call("diff", { job, point: "oom" }, true);
check(text(noOom) === "point oom: no rank ran out of memory (no file has an OOM event)", "diff point oom: unexpected text", text(noOom));
const named = (await call("diff", { job, my_code: "torchtitan,einops" })).structuredContent;
check(isDeepStrictEqual(named.comparison.my_code_packages, ["torchtitan", "einops"]), "diff my_code packages: not taken", named.comparison);
const badName = await call("diff", { job, my_code: "torch titan" }, true);
check(text(badName).startsWith("my_code needs the top-level names of installed packages"), "diff my_code: unexpected text", text(badName));
rmSync(inputs, { recursive: true, force: true });

// 9c. Many ranks alike: every tool's default answer within the budget (text; structured content a few times that at
// most), and an agent-style session that reaches the verdict, the failed request's own frames and the what-if.
const budget = 8000;
if (many) {
  const sizes = [];
  const measured = async (name, args) => {
    const result = await call(name, args);
    const size = { tool: name, args: JSON.stringify(args).replace(many, "JOB"), text: text(result).length,
      structured: JSON.stringify(result.structuredContent ?? null).length };
    sizes.push(size);
    check(size.text <= budget, `${name} on many ranks: ${size.text} characters of text, over ${budget}`, text(result).slice(0, 2000));
    check(size.structured <= 2 * budget, `${name} on many ranks: ${size.structured} characters of structured content`);
    return result;
  };
  // The agent's session: five calls at most.
  const session = [];
  const agent = async (name, args) => {
    session.push(name);
    return measured(name, args);
  };
  const opened = (await agent("open_job", { paths: [many] })).structuredContent;
  const manyJob = opened.job;
  const verdict = await agent("diff", { job: manyJob });
  const v = verdict.structuredContent.verdict;
  check(v.kind === "over_capacity" && v.ranks.length === opened.file_count, "many: the verdict is not over_capacity of every rank", v);
  check(verdict.structuredContent.groups.length === 1, "many: the ranks alike are not one group", verdict.structuredContent.groups);
  check((text(verdict).match(/  asked for /g) ?? []).length === 1, "many: the failed request is said more than once", text(verdict));
  const own = (v.oom?.frames ?? []).filter((f) => f.own_code);
  check(own.length > 0, "many: the verdict's failed request has none of the user's frames", v.oom);
  const failed = await agent("stack", { job: manyJob, oom: true });
  check(failed.structuredContent.frames.find((f) => f.filename !== undefined)?.own_code === true,
    "many: the failed request's stack does not start at the user's frame", failed.structuredContent.frames);
  const whatIf = await agent("what_if", { job: manyJob });
  check(whatIf.structuredContent.what_if.length > 0, "many: no what-if", whatIf.structuredContent);
  check(session.length <= 5, `many: the session took ${session.length} calls`);
  console.log(`agent session on ${opened.file_count} ranks: ${session.join(", ")} (${session.length} calls)`);
  // Every other tool's default answer.
  await measured("findings", { job: manyJob });
  await measured("ranks", { job: manyJob });
  await measured("top", { job: manyJob });
  await measured("info", { paths: [many] });
  if (!core) {
    const picture = await call("export_picture", { job: manyJob, width: 800, height: 500 });
    sizes.push({ tool: "export_picture", args: "{width:800,height:500}", text: text(picture).length,
      structured: JSON.stringify(picture.structuredContent).length });
  }
  console.log("| tool | arguments | text | structured |\n|---|---|---:|---:|");
  for (const s of sizes) console.log(`| ${s.tool} | ${s.args} | ${s.text} | ${s.structured} |`);
}

// 10. Closing ends the server: the SDK closes its stdin and only signals it after 2 s.
const pid = transport.pid;
const started = Date.now();
await client.close();
const took = Date.now() - started;
check(took < 1900, `the server did not exit within ${took} ms of its stdin closing (it had to be signalled)`);
let alive = true;
try {
  process.kill(pid, 0);
} catch {
  alive = false;
}
check(!alive, `the server process ${pid} is still running after close`);
rmSync(workdir, { recursive: true, force: true });
console.log(`closed; server exited in ${took} ms\nPASS: all MCP checks passed${core ? " (core)" : ""}`);
