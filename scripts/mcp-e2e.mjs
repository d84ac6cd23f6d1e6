// scripts/mcp-e2e.mjs — a real MCP client (the official TypeScript SDK) against `structls mcp` over
// stdio, on a copy of the demo workspace (cmd/structls/demo.txtar): it lists the tools and calls each,
// failing on any error. Run by scripts/mcp-e2e.sh, which installs the SDK into .tools/.
//
//   node scripts/mcp-e2e.mjs STRUCTLS_BINARY TOOLS_DIR
import { createRequire } from "node:module";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [bin, toolsDir] = process.argv.slice(2);
const require = createRequire(join(toolsDir, "package.json"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { ListRootsRequestSchema } = require("@modelcontextprotocol/sdk/types.js");

// The demo workspace, written out of its txtar archive.
const root = fileURLToPath(new URL("..", import.meta.url));
const archive = readFileSync(join(root, "cmd/structls/demo.txtar"), "utf8");
const ws = mkdtempSync(join(tmpdir(), "structls-mcp-e2e-"));
let file = null;
for (const line of archive.split(/(?<=\n)/)) {
  const m = line.match(/^-- (.+) --\n$/);
  if (m) {
    file = join(ws, m[1]);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "");
  } else if (file) {
    writeFileSync(file, line, { flag: "a" });
  }
}

const failures = [];
function check(cond, what) {
  if (!cond) failures.push(what);
}

const transport = new StdioClientTransport({ command: bin, args: ["mcp", "--root", ws], stderr: "inherit" });
const client = new Client({ name: "structls-mcp-e2e", version: "1" }, { capabilities: {} });
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  console.log(`tools/list: ${names.length} tools: ${names.join(", ")}`);
  const want = ["ast_edit", "ast_grep", "cancel_job", "dump_syntax_tree", "job_status", "outline", "resolve",
    "scan", "search", "xray_explore", "xray_search", "xray_search_batch"];
  check(JSON.stringify(names) === JSON.stringify(want), `tools listed: ${names}`);
  const called = new Set();

  // call calls a tool; an error result or a protocol error is a failure.
  async function call(name, args, expect, onprogress) {
    called.add(name);
    let res;
    try {
      res = await client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : undefined);
    } catch (err) {
      failures.push(`${name}: ${err.message}`);
      console.log(`${name}: protocol error: ${err.message}`);
      return { text: "", sc: {} };
    }
    const text = (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
    const sc = res.structuredContent || {};
    console.log(`${name} ${JSON.stringify(args)}: ${res.isError ? "ERROR " : ""}${text.length} bytes; ${JSON.stringify(sc)}`);
    check(!res.isError, `${name}: error result: ${text}`);
    check(text.length <= 50 * 1024, `${name}: reply of ${text.length} bytes, over 50 KB`);
    if (expect) check(text.includes(expect), `${name}: the reply lacks ${JSON.stringify(expect)}: ${text}`);
    return { text, sc };
  }

  await call("ast_grep", { pat: "fmt.Println($A)" }, "*18|fmt.Println(name)\n  meta: A=name");
  await call("search", { pattern: "TODO" }, "TODO: support more than one language");
  await call("dump_syntax_tree", { code: "fmt.Println($A)", language: "go", format: "pattern" }, "MetaVar $A");
  await call("dump_syntax_tree", { path: "util/strings.go", format: "ast" }, "function_declaration");
  await call("outline", { paths: ["util/strings.go"] }, "Greeting");
  const scan = await call("scan", {}, "no-os-exit");
  const edit = await call("ast_edit", { ops: [{ pat: "strings.ToUpper($S)", out: "strings.ToLower($S)" }] }, "+20:9 strings.ToLower(s)");
  check(readFileSync(join(ws, "util/strings.go"), "utf8").includes("ToUpper"), "ast_edit wrote the file");
  await call("resolve", { id: edit.sc.id, action: "apply" }, "Applied 1 replacement(s) in 1 file(s)");
  check(readFileSync(join(ws, "util/strings.go"), "utf8").includes("strings.ToLower(s)"), "resolve did not write the edit");
  await call("resolve", { id: scan.sc.id, action: "discard" }, "Discarded");
  let progress = 0;
  await call("xray_search", { pattern: "TODO", evaluator_code: 'return {"matches": [{"line_number": p["line_number"]} for p in match_positions], "value": None}' },
    "TODO: validate the name", () => progress++);
  await call("xray_explore", { pattern: "TODO", max_debug_nodes: 5 }, "ast:");
  await call("xray_search_batch", { scans: [{ driver_regex: "TODO", name: "todo" }, { driver_regex: "Hello" }] }, "scan: 0 todo");
  const job = await call("xray_search", { pattern: "Hello", await_seconds: 0 });
  check(job.sc.job_id, "xray_search with await_seconds 0 gave no job_id");
  await call("job_status", { job_id: job.sc.job_id }, "X-Ray job");
  await call("cancel_job", { job_id: job.sc.job_id }, "X-Ray job");
  for (const name of want) check(called.has(name), `${name} was not called`);
  console.log(`progress notifications received: ${progress}`);

  // Without --root, started in an empty directory: a client that offers MCP roots gets its root.
  const empty = mkdtempSync(join(tmpdir(), "structls-mcp-e2e-cwd-"));
  const rootsClient = new Client({ name: "structls-mcp-e2e-roots", version: "1" }, { capabilities: { roots: {} } });
  rootsClient.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(ws).href, name: "demo" }] }));
  await rootsClient.connect(new StdioClientTransport({ command: bin, args: ["mcp"], cwd: empty, stderr: "inherit" }));
  const res = await rootsClient.callTool({ name: "ast_grep", arguments: { pat: "fmt.Println($A)" } });
  const text = res.content.map((c) => c.text).join("");
  console.log(`ast_grep in a session whose client offers roots (no --root): ${text.length} bytes; ${JSON.stringify(res.structuredContent)}`);
  check(!res.isError && text.includes("*18|fmt.Println(name)"), `the client's root was not used: ${text}`);
  await rootsClient.close();
  rmSync(empty, { recursive: true, force: true });
} catch (err) {
  failures.push(`session: ${err.stack || err}`);
} finally {
  await client.close().catch(() => {});
  rmSync(ws, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(`FAIL: ${failures.length} problem(s):\n- ${failures.join("\n- ")}`);
  process.exit(1);
}
console.log("PASS: every tool answered without an error");
