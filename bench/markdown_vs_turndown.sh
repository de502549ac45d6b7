#!/usr/bin/env bash
# HTML → markdown: web_extract's converter against turndown (npm, with its
# GFM plugin) on the same pages. Usage: bench/markdown_vs_turndown.sh BUILD_DIR [EXTRA.html…]
# turndown comes from bench/turndown/package-lock.json (`npm ci` there).
set -euo pipefail
build="${1:?usage: markdown_vs_turndown.sh BUILD_DIR [pages…]}"; shift
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -d "$here/turndown/node_modules/turndown" ]; then
  echo "turndown not installed: (cd bench/turndown && npm ci)" >&2
  exit 0
fi
out="$(mktemp -d)"
"$build/bench/web_bench" --dump-page > "$out/generated-1mb.html"
printf '%-28s %10s %12s %12s %8s\n' page bytes "ours ms" "turndown ms" ratio
for page in "$out/generated-1mb.html" "$@"; do
  name="$(basename "$page" .html)"
  ours=$("$build/bench/web_bench" --convert "$page" 9 2> "$out/$name.ours.md")
  theirs=$(node "$here/turndown/convert.mjs" "$page" 9 2> "$out/$name.turndown.md")
  ratio=$(awk -v a="$theirs" -v b="$ours" 'BEGIN { printf "%.1fx", a / b }')
  printf '%-28s %10s %12s %12s %8s\n' "$name" "$(wc -c < "$page")" "$ours" "$theirs" "$ratio"
done
echo "outputs side by side: $out/*.ours.md and $out/*.turndown.md"
