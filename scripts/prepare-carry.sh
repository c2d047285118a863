#!/usr/bin/env bash
# Copies what the GPU machine lacks into .carry/ (git-ignored), for the device tool's `carry`: toml++'s headers
# (Debian's libtomlplusplus-dev; the GPU machine's Ubuntu image has no toml++). Used header-only there. Also
# pybind11's headers and CMake package (pybind11-dev) as a prefix, .carry/pybind11: configure there with
# -DLOOM_PYBIND11_DIR=$PWD/.carry/pybind11 to build the Python module. The GPU machine's python3.12 has no headers
# either: CPython 3.12 headers of another build (pyenv's here) go to .carry/python3.12, which cmake/LoomPython.cmake
# uses there (CPython's ABI holds within a minor version).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .carry/include
if [[ -f /usr/include/toml++/toml.h ]]; then
  rm -rf .carry/include/toml++
  cp -r /usr/include/toml++ .carry/include/
  echo "prepared .carry/include/toml++"
else
  echo "toml++ not installed here (scripts/install-deps.sh installs it); the GPU build will take flags only" >&2
fi
if [[ -f /usr/lib/cmake/pybind11/pybind11Config.cmake ]]; then
  rm -rf .carry/pybind11
  mkdir -p .carry/pybind11/include .carry/pybind11/lib/cmake
  cp -r /usr/include/pybind11 .carry/pybind11/include/
  cp -r /usr/lib/cmake/pybind11 .carry/pybind11/lib/cmake/
  echo "prepared .carry/pybind11"
else
  echo "pybind11 not installed here (scripts/install-deps.sh installs it); the GPU build will skip the Python module" >&2
fi
py312=$(ls -d /root/.pyenv/versions/3.12.*/include/python3.12 /usr/include/python3.12 2>/dev/null | head -1 || true)
if [[ -n $py312 && -f $py312/Python.h ]]; then
  rm -rf .carry/python3.12
  cp -r "$py312" .carry/python3.12
  echo "prepared .carry/python3.12 (from $py312)"
else
  echo "no CPython 3.12 headers here; the GPU machine's python3.12 cannot build the Python module" >&2
fi
