#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages loom builds against, and nothing when they are all present.
# Usage: scripts/install-deps.sh [--check]   (--check: list what is missing, exit 1 if anything is)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libcli11-dev libtomlplusplus-dev libfmt-dev nlohmann-json3-dev
  libhdf5-dev libopenmpi-dev openmpi-bin libfftw3-dev libopenblas-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-numpy python3-matplotlib python3-h5py
)
# Installed too, but the build does without them (`loom hit` on one rank only; no Python module, its tests
# skipped), so a mirror that lacks one does not stop `make test`.
optional=(libfftw3-mpi-dev python3-dev pybind11-dev python3-pytest)

absent() {
  local p status
  for p in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || echo "$p"
  done
}
mapfile -t missing < <(absent "${packages[@]}")
mapfile -t missing_optional < <(absent "${optional[@]}")

if [[ ${#missing[@]} -eq 0 && ${#missing_optional[@]} -eq 0 ]]; then
  exit 0
fi
if [[ "${1:-}" == "--check" ]]; then
  echo "missing: ${missing[*]} ${missing_optional[*]}"
  exit 1
fi

# Ubuntu 24.04 (the GPU machine) has everything but toml++ and no registry: say so rather than fail there.
if ! command -v apt-get >/dev/null; then
  echo "install-deps: apt-get not found; please install: ${missing[*]} ${missing_optional[*]}" >&2
  [[ ${#missing[@]} -eq 0 ]] && exit 0
  exit 1
fi
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "install-deps: installing ${missing[*]}" >&2
  if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/loom-apt.log 2>&1; then
    $sudo apt-get update >>/tmp/loom-apt.log 2>&1 || true
    if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}" >>/tmp/loom-apt.log 2>&1; then
      tail -20 /tmp/loom-apt.log >&2
      echo "install-deps: apt-get failed (log: /tmp/loom-apt.log)" >&2
      exit 1
    fi
  fi
fi
if [[ ${#missing_optional[@]} -gt 0 ]]; then
  echo "install-deps: installing ${missing_optional[*]}" >&2
  $sudo apt-get install -y --no-install-recommends "${missing_optional[@]}" >>/tmp/loom-apt.log 2>&1 ||
    echo "install-deps: optional packages not installed, loom builds without them (log: /tmp/loom-apt.log)" >&2
fi
