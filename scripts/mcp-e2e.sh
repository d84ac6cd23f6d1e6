#!/usr/bin/env bash
# scripts/mcp-e2e.sh — `structls mcp` against real MCP clients:
#   1. the official TypeScript SDK client (@modelcontextprotocol/sdk) over stdio, on a copy of the demo
#      workspace: lists the tools and calls each (scripts/mcp-e2e.mjs), failing on any error;
#   2. the MCP Inspector's CLI mode (@modelcontextprotocol/inspector): tools/list and one tools/call,
#      as a smoke test.
# Both are installed from npm into .tools/ (git-ignored) at pinned versions; it needs Node 18 or newer.
# Exit 0 = both passed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SDK_VERSION=1.32.2
INSPECTOR_VERSION=2.12.0
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
trap 'rm -rf "$RUN"' EXIT
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
echo "PASS: mcp-e2e"
