#!/usr/bin/env bash
# scripts/editors-install-code-server.sh DEST — installs code-server (VS Code 1.100.3 server + web UI)
# from the npm registry alone, for the VS Code end-to-end test. Nothing comes from GitHub: the one
# binary code-server would download (@vscode/ripgrep) is Debian's /usr/bin/rg, and the native addons
# are built here against the local Node headers.
# Needs Node 20 (code-server 4.90–4.100 pin Node 20), gcc/g++/make/python3, libkrb5-dev, ripgrep.
# See ../shared/reference/editors-testing.md §1.1 for why each step is there.
set -euo pipefail
VER=${CODE_SERVER_VERSION:-4.100.3}
DEST=${1:?usage: editors-install-code-server.sh DEST}
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
