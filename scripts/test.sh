#!/usr/bin/env bash
# scripts/test.sh — the whole test suite, on a fresh machine: installs what
# the differential tests compare against (ripgrep from apt, the ast-grep CLI
# from npm, pinned), then runs every Go test under the race detector.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v rg >/dev/null; then
  echo "installing ripgrep (the differential tests compare against it)…" >&2
  if [[ $(id -u) -eq 0 ]]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq ripgrep >/dev/null
fi

# The pinned ast-grep CLI, into .tools/ (git-ignored), where the tests look for it.
AST_GREP_VERSION=0.51.1
if [[ "$(.tools/node_modules/.bin/ast-grep --version 2>/dev/null)" != "ast-grep $AST_GREP_VERSION" ]]; then
  echo "installing @ast-grep/cli@$AST_GREP_VERSION (the structural search tests compare against it)…" >&2
  npm install --prefix .tools --no-audit --no-fund --silent "@ast-grep/cli@$AST_GREP_VERSION" >&2
fi

# gopls, pinned: the documentSymbol test compares structls's symbols with its own.
GOPLS_VERSION=v0.21.0
if ! "$(go env GOPATH)/bin/gopls" version 2>/dev/null | grep -q "$GOPLS_VERSION"; then
  echo "installing gopls@$GOPLS_VERSION (the documentSymbol test compares against it)…" >&2
  go install "golang.org/x/tools/gopls@$GOPLS_VERSION"
fi

# The vendored tree-sitter runtime is the upstream module but for its -O3 flag.
scripts/third-party-tree-sitter.sh --check

# The first build compiles 57 tree-sitter grammars (minutes, cold).
# Under STRUCTLS_REQUIRE_TOOLS a differential test whose tool is missing
# fails instead of skipping (internal/testutil/tools.go).
STRUCTLS_REQUIRE_TOOLS=1 go test -race -count=1 -timeout 30m ./...

# structls mcp against real MCP clients from npm: the official TypeScript SDK client over stdio calls every
# tool, and the MCP Inspector's CLI lists them (scripts/mcp-e2e.sh; STRUCTLS_MCP_E2E=0 skips it).
if [[ ${STRUCTLS_MCP_E2E:-1} != 0 ]]; then
  scripts/mcp-e2e.sh
else
  echo "SKIP the MCP client end-to-end test: STRUCTLS_MCP_E2E=0" >&2
fi

# The editor plugins, each tested in the real editor (README, section Editors): Neovim headless
# (0.7.2 from apt, and 0.10 and 0.12 in Debian trixie and sid chroots when running as root), then VS Code
# (code-server from npm, driven by Playwright in Debian's Chromium). They install what they need.
# STRUCTLS_EDITORS=0 skips them.
if [[ ${STRUCTLS_EDITORS:-1} != 0 ]]; then
  scripts/editors-nvim-e2e.sh
  scripts/editors-vscode-e2e.sh
else
  echo "SKIP the editor end-to-end tests: STRUCTLS_EDITORS=0" >&2
fi
