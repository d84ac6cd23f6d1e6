#!/usr/bin/env bash
# scripts/editors-install-code-server.sh [DEST] — installs code-server (VS Code 1.100.3 server + web UI)
# into DEST (default: editors/.cache/code-server-$CODE_SERVER_VERSION of this checkout, git-ignored, where
# scripts/editors-vscode-e2e.sh looks for it) from the npm registry alone, for the VS Code end-to-end test.
# Nothing comes from GitHub: the one binary code-server would download (@vscode/ripgrep) is Debian's
# /usr/bin/rg, and the native addons are built here against the local Node headers.
# Needs Node 20 (code-server 4.90–4.100 pin Node 20), gcc/g++/make/python3, libkrb5-dev, ripgrep.
# Why each step: `--ignore-scripts` because the packages' install scripts fetch prebuilt binaries from GitHub;
# argon2 and VS Code's native modules (node-pty, …) are then rebuilt from source, and the symlinks at the end
# are the rest of code-server's own postinstall.sh.
set -euo pipefail
VER=${CODE_SERVER_VERSION:-4.100.3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,10s/^# \{0,1\}//p' "$0"
  exit 0
fi
DEST=$(realpath -m "${1:-$ROOT/editors/.cache/code-server-$VER}")
echo "installing code-server $VER into $DEST" >&2
if [[ -x "$DEST/node_modules/.bin/code-server" ]] && "$DEST/node_modules/.bin/code-server" --version 2>/dev/null | grep -q "^$VER "; then
  exit 0
fi
mkdir -p "$DEST" && cd "$DEST"
[[ -f package.json ]] || echo '{"name":"structls-code-server-host","private":true}' > package.json
npm install --no-audit --no-fund --ignore-scripts "code-server@$VER"
npm_config_yes=true npm rebuild argon2   # code-server's own native addon; its prebuilt download is unreachable
cd node_modules/code-server/lib/vscode
npm install --no-audit --no-fund --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg   # @vscode/ripgrep's postinstall exits early when bin/ exists
# node-pty's post-install runs `npx node-gyp`; an npmrc with yes=false would make npx refuse
npm_config_yes=true npm rebuild --no-audit --no-fund
# the rest of code-server's postinstall.sh
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
cd extensions && npm install --no-audit --no-fund --omit=dev
echo "code-server $VER installed in $DEST" >&2
