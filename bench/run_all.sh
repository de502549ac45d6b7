#!/usr/bin/env bash
# Runs every benchmark binary built in the given build folder, then the
# scripted side-by-side benchmarks. Usage: bench/run_all.sh BUILD_DIR
set -euo pipefail
build="${1:?usage: run_all.sh BUILD_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
shopt -s nullglob
benches=("$build"/bench/*_bench)
if [ ${#benches[@]} -eq 0 ]; then
  echo "no benchmark binaries in $build/bench (configure with -DHERMES_BUILD_BENCH=ON)" >&2
  exit 1
fi
for bin in "${benches[@]}"; do
  echo "== $(basename "$bin")"
  "$bin" --benchmark_min_time=0.2
done
for script in "$here"/*_vs_*.sh; do
  echo "== $(basename "$script")"
  "$script" "$build"
done
