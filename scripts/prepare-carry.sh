#!/usr/bin/env bash
# Copies what the GPU machine lacks into .carry/ (git-ignored), for the device tool's `carry`: toml++'s headers
# (Debian's libtomlplusplus-dev; the GPU machine's Ubuntu image has no toml++). Used header-only there.
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
