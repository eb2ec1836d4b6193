#!/usr/bin/env bash
# Installs what clipmatrix needs on a fresh Debian machine, skipping what is already there.
#   scripts/install-deps.sh run    -> ffmpeg, CJK fonts, espeak-ng, chromium (the creator consoles' browser
#                                     flows), the console's npm packages, the browser sidecar's playwright-core
#                                     in ${CLIPMATRIX_DATA_DIR:-./data}/browser, and
#                                     the speech-recognition venv + model in ${CLIPMATRIX_DATA_DIR:-./data}/asr
#                                     and the speech-synthesis venv + model + voices in .../tts
#   scripts/install-deps.sh test   -> the same plus the e2e npm packages and moto (the
#                                     S3-compatible server the storage tests start) in .../moto
#   scripts/install-deps.sh console -> only the console's npm packages (what its build needs: `make test`
#                                     builds while `test` installs the rest)
#   scripts/install-deps.sh bench  -> the run set plus sqlite3 (the list benchmark seeds with it), the
#                                     fp32 variant of the speech model in .../tts-fp32 (the TTS benchmark)
#                                     and moto (the scale-out benchmark's S3 server)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-run}"

command -v npm >/dev/null || { echo "npm is missing: install Node.js 20+ first" >&2; exit 1; }
# npm ci only when the lock file changed since the last install.
npm_ci() {
  local dir="$1"
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || ! cmp -s "$dir/package-lock.json" "$dir/node_modules/.ci-lock"; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$dir/package-lock.json" "$dir/node_modules/.ci-lock"
  fi
}
npm_ci web
[ "$mode" = console ] && exit 0

# chromium: the browser flows of the creator consoles (XHS, SPH, shop) run in every mode.
apt_pkgs=(ffmpeg fonts-wqy-zenhei espeak-ng chromium)
# bench/lists.mjs seeds its 100k rows with the sqlite3 command.
[ "$mode" = bench ] && apt_pkgs+=(sqlite3)
# Speech recognition runs in a Python venv: Debian's python3 and its venv module, unless a Python
# with venv is already on the PATH.
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || apt_pkgs+=(python3 python3-venv)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v cargo >/dev/null || { echo "cargo is missing: install Rust (rustup) first" >&2; exit 1; }
[ "$mode" = test ] && [ -f e2e/package-lock.json ] && npm_ci e2e

# The browser sidecar's playwright-core (crates/platforms/src/browser): quick when already there.
scripts/browser/install.sh "${CLIPMATRIX_DATA_DIR:-./data}/browser" >/dev/null
# Speech recognition (faster-whisper + the Whisper base model, ~600 MB): quick when already there.
scripts/asr/install.sh "${CLIPMATRIX_DATA_DIR:-./data}/asr" >/dev/null
# Speech synthesis (Kokoro-82M int8, misaki, onnxruntime, the voices; ~250 MB): quick when already there.
tts_extra=(); [ "$mode" = bench ] && tts_extra=(--fp32)  # the benchmark compares the fp32 variant
scripts/tts/install.sh "${CLIPMATRIX_DATA_DIR:-./data}/tts" "${tts_extra[@]}" >/dev/null
# The S3 server of the storage and multi-node tests and the scale-out benchmark (moto[server], ~320 MB with
# its dependencies): quick when already there.
[ "$mode" = test ] || [ "$mode" = bench ] && scripts/moto/install.sh "${CLIPMATRIX_DATA_DIR:-./data}/moto" >/dev/null
exit 0
