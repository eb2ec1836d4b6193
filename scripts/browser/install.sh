#!/usr/bin/env bash
# Installs the browser sidecar's packages into one folder, normally <data dir>/browser:
#   <dir>/node_modules/playwright-core   (scripts/browser/package.json + package-lock.json, like e2e/)
# (<dir>/driver.mjs is written there by the server itself, from the copy built into it; the browser is
# Debian's chromium, installed by scripts/install-deps.sh: nothing here downloads a browser.)
#
#   scripts/browser/install.sh <dir>      prints the folder on stdout; progress goes to stderr
#
# Idempotent and quick when the lock file did not change.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:?usage: scripts/browser/install.sh <dir>}"
mkdir -p "$dir/profiles"
dir="$(cd "$dir" && pwd)"
if [ ! -f "$dir/node_modules/.ci-lock" ] || ! cmp -s "$here/package-lock.json" "$dir/node_modules/.ci-lock"; then
  echo "browser: installing playwright-core into $dir" >&2
  cp "$here/package.json" "$here/package-lock.json" "$dir/"
  (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
  cp "$here/package-lock.json" "$dir/node_modules/.ci-lock"
fi
echo "$dir"
