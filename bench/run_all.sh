#!/usr/bin/env bash
# Runs every benchmark binary built in the given build folder, then the
# scripted side-by-side benchmarks. Usage: bench/run_all.sh BUILD_DIR
set -euo pipefail
build="${1:?usage: run_all.sh BUILD_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
shopt -s nullglob
for bin in "$build"/bench/*_bench; do
  echo "== $(basename "$bin")"
  "$bin" --benchmark_min_time=0.2
done
for script in "$here"/*_vs_*.sh; do
  echo "== $(basename "$script")"
  "$script" "$build"
done
