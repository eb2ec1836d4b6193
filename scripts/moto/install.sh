#!/usr/bin/env bash
# Installs moto (an S3-compatible server for the tests) into a Python venv in one folder, normally
# <data dir>/moto; the tests start <dir>/bin/moto_server on a random port themselves.
#
#   scripts/moto/install.sh <dir>      quick when requirements.txt did not change
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
req="$here/requirements.txt"
dir="${1:?usage: scripts/moto/install.sh <dir>}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
py="${PYTHON:-python3}"
. "$here/../lib/venv.sh"
venv_install moto "moto[server]" '^#'
echo "$dir/bin/moto_server"
