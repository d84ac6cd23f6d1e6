#!/usr/bin/env bash
# scripts/mcp-e2e.sh — `structls mcp` against real MCP clients:
#   1. the official TypeScript SDK client (@modelcontextprotocol/sdk) over stdio, on a copy of the demo
#      workspace: lists the tools and calls each (scripts/mcp-e2e.mjs), failing on any error;
#   2. the MCP Inspector's CLI mode (@modelcontextprotocol/inspector): tools/list and one tools/call,
#      as a smoke test;
#   3. the generic server scenarios of the MCP conformance suite (@modelcontextprotocol/conformance)
#      against `structls mcp --http`: the ones any server must pass, not those that call the suite's
#      own fixture tools, prompts and resources (test_simple_text, test_simple_prompt, …).
# All are installed from npm into .tools/ (git-ignored) at pinned versions; 1 and 2 need Node 18 or newer,
# 3 Node 20.18.1 or newer (it is skipped, saying so, on an older Node). Exit 0 = all passed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SDK_VERSION=1.32.2
INSPECTOR_VERSION=2.12.0
# the newest that runs on Node 20: 0.1.14 and later import fs.globSync (Node 22); the server scenarios are
# the same in 0.1.13-0.1.16
CONFORMANCE_VERSION=0.1.13
CONFORMANCE_NODE=20.18.1 # its undici 7 needs it
# The generic server scenarios of the suite. The others of `conformance list` are left out: they call the
# suite's fixture tools (tools-call-*, elicitation-*, json-schema-2020-12), prompts (prompts-get-*,
# completion-complete) and resources (resources-read-*, resources-templates-read, resources-*subscribe),
# which a server other than the suite's own test server does not have.
CONFORMANCE_SCENARIOS=(server-initialize ping logging-set-level tools-list resources-list prompts-list
  server-sse-multiple-streams dns-rebinding-protection)
TOOLS="$ROOT/.tools"

command -v node >/dev/null || { echo "mcp-e2e: node is not installed (apt-get install nodejs npm)" >&2; exit 2; }
if [[ ! -f "$TOOLS/node_modules/@modelcontextprotocol/sdk/package.json" ]] ||
  ! grep -q "\"version\": \"$SDK_VERSION\"" "$TOOLS/node_modules/@modelcontextprotocol/sdk/package.json"; then
  echo "installing @modelcontextprotocol/sdk@$SDK_VERSION into .tools/…" >&2
  npm install --prefix "$TOOLS" --no-audit --no-fund --silent "@modelcontextprotocol/sdk@$SDK_VERSION" >&2
fi
INSPECTOR="$TOOLS/inspector/node_modules/.bin/mcp-inspector"
if [[ ! -x $INSPECTOR ]] ||
  ! grep -q "\"version\": \"$INSPECTOR_VERSION\"" "$TOOLS/inspector/node_modules/@modelcontextprotocol/inspector/package.json"; then
  echo "installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION into .tools/inspector/…" >&2
  npm install --prefix "$TOOLS/inspector" --no-audit --no-fund --silent "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2
fi

RUN=$(mktemp -d -t structls-mcp-e2e-XXXXXX)
HTTP_PID=""
cleanup() {
  if [[ -n $HTTP_PID ]]; then kill "$HTTP_PID" 2>/dev/null || true; fi
  rm -rf "$RUN"
}
trap cleanup EXIT
(cd "$ROOT" && go build -o "$RUN/structls" ./cmd/structls)

echo "== TypeScript SDK client over stdio" >&2
timeout 300 node "$ROOT/scripts/mcp-e2e.mjs" "$RUN/structls" "$TOOLS"

echo "== MCP Inspector CLI" >&2
mkdir -p "$RUN/ws"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hi") }\n' >"$RUN/ws/main.go"
timeout 120 "$INSPECTOR" --cli "$RUN/structls" mcp --root "$RUN/ws" --method tools/list >"$RUN/list.json"
count=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).tools.length)' "$RUN/list.json")
echo "inspector tools/list: $count tools"
[[ $count -eq 12 ]] || { echo "mcp-e2e: the inspector listed $count tools, want 12" >&2; exit 1; }
timeout 120 "$INSPECTOR" --cli "$RUN/structls" mcp --root "$RUN/ws" --method tools/call --tool-name ast_grep \
  --tool-arg 'pat=fmt.Println($A)' >"$RUN/call.json"
grep -q 'fmt.Println(\\"hi\\")' "$RUN/call.json" || { echo "mcp-e2e: the inspector's ast_grep call found nothing:" >&2; cat "$RUN/call.json" >&2; exit 1; }
echo "inspector tools/call ast_grep: $(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); console.log(JSON.stringify(r.structuredContent))' "$RUN/call.json")"

echo "== MCP conformance suite $CONFORMANCE_VERSION, generic server scenarios, over streamable HTTP" >&2
node_ok=$(node -p '{ const [have, want] = [process.versions.node, process.argv[1]].map((v) => v.split(".").map(Number));
  (have.map((n, i) => n - want[i]).find((d) => d !== 0) ?? 0) >= 0 }' "$CONFORMANCE_NODE")
if [[ $node_ok != true ]]; then
  echo "SKIP the MCP conformance scenarios: @modelcontextprotocol/conformance@$CONFORMANCE_VERSION needs Node $CONFORMANCE_NODE or newer, this is $(node --version)" >&2
else
  CONFORMANCE="$TOOLS/conformance/node_modules/.bin/conformance"
  if [[ ! -x $CONFORMANCE ]] ||
    ! grep -q "\"version\": \"$CONFORMANCE_VERSION\"" "$TOOLS/conformance/node_modules/@modelcontextprotocol/conformance/package.json"; then
    echo "installing @modelcontextprotocol/conformance@$CONFORMANCE_VERSION into .tools/conformance/…" >&2
    npm install --prefix "$TOOLS/conformance" --no-audit --no-fund --silent "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >&2
  fi
  # port 0: the server picks a free port and prints its URL
  "$RUN/structls" mcp --http 127.0.0.1:0 --root "$RUN/ws" 2>"$RUN/http.log" &
  HTTP_PID=$!
  url=""
  for _ in $(seq 100); do
    url=$(sed -n 's/^structls mcp: serving streamable HTTP on \(http:[^ ]*\)$/\1/p' "$RUN/http.log")
    [[ -n $url ]] && break
    kill -0 "$HTTP_PID" 2>/dev/null || break
    sleep 0.1
  done
  [[ -n $url ]] || { echo "mcp-e2e: structls mcp --http did not start; its stderr:" >&2; cat "$RUN/http.log" >&2; exit 1; }
  failed=()
  for scenario in "${CONFORMANCE_SCENARIOS[@]}"; do
    if timeout 120 "$CONFORMANCE" server --url "$url" --scenario "$scenario" -o "$RUN/conformance" >"$RUN/scenario.log" 2>&1; then
      echo "conformance $scenario: $(grep -o 'Passed: [0-9]*/[0-9]*, [0-9]* failed, [0-9]* warnings' "$RUN/scenario.log")"
    else
      failed+=("$scenario")
      echo "conformance $scenario: FAILED" >&2
      cat "$RUN/scenario.log" >&2
    fi
  done
  kill "$HTTP_PID" 2>/dev/null || true
  HTTP_PID=""
  ((${#failed[@]} == 0)) || { echo "mcp-e2e: conformance scenarios failed: ${failed[*]}" >&2; exit 1; }
fi
echo "PASS: mcp-e2e"
