#!/usr/bin/env bash
# Configures the CUDA build the GPU scripts share (Release, LOOM_CUDA=ON, sm_90), with the carried toml++ headers
# when .carry/ holds them (scripts/prepare-carry.sh; the GPU machine has no toml++). Usage, from the repo root:
#   scripts/configure-gpu-build.sh BUILD_DIR LOG_FILE [--if-missing]
# --if-missing: nothing to do when BUILD_DIR is configured already. On failure prints the log's tail, exits 1.
set -uo pipefail
build=$1 log=$2
[[ ${3:-} == --if-missing && -f $build/build.ninja ]] && exit 0
toml_flag=()
[[ -f .carry/include/toml++/toml.h ]] && toml_flag=(-DLOOM_TOMLPP_INCLUDE_DIR="$PWD/.carry/include")
if ! cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOM_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
     "${toml_flag[@]}" > "$log" 2>&1; then
  tail -40 "$log"
  echo "configure FAILED"
  exit 1
fi
