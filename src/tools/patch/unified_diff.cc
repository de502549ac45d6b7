// SPDX-License-Identifier: MIT
// Common prefix/suffix trimmed, then Myers' O((N+M)D) diff on the middle,
// grouped into hunks like difflib.get_grouped_opcodes(3).
#include "tools/patch/unified_diff.h"

#include <algorithm>
#include <vector>

#include "tools/patch/match/text_lines.h"

namespace hermes {
namespace {

constexpr size_t kContext = 3;

enum class Op { kEqual, kDelete, kInsert };

struct Edit {
  Op op;
  size_t a, b;  // line index in from / to
};

using Lines = std::vector<std::string_view>;

constexpr long kMaxDistance = 4000;  // beyond this, replace the middle wholesale

// Replace a[a0,a1) by b[b0,b1) without alignment.
std::vector<Edit> wholesale(size_t a0, size_t a1, size_t b0, size_t b1) {
  std::vector<Edit> edits;
  for (size_t i = a0; i < a1; ++i) edits.push_back({Op::kDelete, i, b0});
  for (size_t j = b0; j < b1; ++j) edits.push_back({Op::kInsert, a1, j});
  return edits;
}

// Myers' greedy forward search; trace[d] keeps V for diagonals -d..d only,
// so memory is O(D^2).
std::vector<Edit> myers(const Lines& a, size_t a0, size_t a1, const Lines& b, size_t b0, size_t b1) {
  const long n = static_cast<long>(a1 - a0), m = static_cast<long>(b1 - b0);
  const long max = std::min(n + m, kMaxDistance);
  std::vector<long> v(2 * static_cast<size_t>(max) + 3, 0);
  auto at = [&](long k) -> long& { return v[static_cast<size_t>(k + max + 1)]; };
  std::vector<std::vector<long>> trace;
  for (long d = 0; d <= max; ++d) {
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? at(k + 1) : at(k - 1) + 1;
      long y = x - k;
      while (x < n && y < m && a[a0 + x] == b[b0 + y]) ++x, ++y;
      at(k) = x;
    }
    trace.emplace_back(v.begin() + (max + 1 - d), v.begin() + (max + 2 + d));
    for (long k = -d; k <= d; k += 2) {
      if (at(k) < n || at(k) - k < m) continue;
      long x = n, y = m;
      std::vector<Edit> edits;
      for (long dd = d; dd > 0; --dd) {
        const auto& pv = trace[static_cast<size_t>(dd - 1)];  // V after step dd-1
        auto pat = [&](long kk) { return pv[static_cast<size_t>(kk + dd - 1)]; };
        long kk = x - y;
        bool down = kk == -dd || (kk != dd && pat(kk - 1) < pat(kk + 1));
        long prev_k = down ? kk + 1 : kk - 1;
        long px = pat(prev_k), py = px - prev_k;
        long sx = down ? px : px + 1, sy = down ? py + 1 : py;  // after the one edit
        while (x > sx && y > sy) --x, --y, edits.push_back({Op::kEqual, a0 + x, b0 + y});
        if (down) edits.push_back({Op::kInsert, a0 + px, b0 + py});
        else edits.push_back({Op::kDelete, a0 + px, b0 + py});
        x = px, y = py;
      }
      while (x > 0 && y > 0) --x, --y, edits.push_back({Op::kEqual, a0 + x, b0 + y});
      std::reverse(edits.begin(), edits.end());
      return edits;
    }
  }
  return wholesale(a0, a1, b0, b1);
}

std::vector<Edit> diff_lines(const Lines& a, const Lines& b) {
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  std::vector<Edit> edits;
  for (size_t i = 0; i < pre; ++i) edits.push_back({Op::kEqual, i, i});
  auto mid = myers(a, pre, a.size() - suf, b, pre, b.size() - suf);
  edits.insert(edits.end(), mid.begin(), mid.end());
  for (size_t i = suf; i > 0; --i) edits.push_back({Op::kEqual, a.size() - i, b.size() - i});
  return edits;
}

std::string range(size_t start, size_t length) {
  size_t beginning = start + 1;
  if (length == 1) return std::to_string(beginning);
  if (length == 0) --beginning;
  return std::to_string(beginning) + "," + std::to_string(length);
}

std::string hunk(const std::vector<Edit>& e, size_t from, size_t to, const Lines& a, const Lines& b) {
  size_t a_start = e[from].a, b_start = e[from].b, a_len = 0, b_len = 0;
  std::string body;
  for (size_t k = from; k < to; ++k) {
    switch (e[k].op) {
      case Op::kEqual: body += " " + std::string(a[e[k].a]) + "\n", ++a_len, ++b_len; break;
      case Op::kDelete: body += "-" + std::string(a[e[k].a]) + "\n", ++a_len; break;
      case Op::kInsert: body += "+" + std::string(b[e[k].b]) + "\n", ++b_len; break;
    }
  }
  return "@@ -" + range(a_start, a_len) + " +" + range(b_start, b_len) + " @@\n" + body;
}

}  // namespace

std::string unified_diff(std::string_view from, std::string_view to, const std::string& from_label,
                         const std::string& to_label) {
  Lines a = match::line_views(from), b = match::line_views(to);
  std::vector<Edit> edits = diff_lines(a, b);
  std::vector<size_t> changed;
  for (size_t k = 0; k < edits.size(); ++k) {
    if (edits[k].op != Op::kEqual) changed.push_back(k);
  }
  if (changed.empty()) return "";
  std::string out = "--- " + from_label + "\n+++ " + to_label + "\n";
  size_t g = 0;
  while (g < changed.size()) {
    size_t last = g;
    while (last + 1 < changed.size() && changed[last + 1] - changed[last] <= 2 * kContext + 1) ++last;
    size_t begin = changed[g] >= kContext ? changed[g] - kContext : 0;
    size_t end = std::min(edits.size(), changed[last] + kContext + 1);
    out += hunk(edits, begin, end, a, b);
    g = last + 1;
  }
  return out;
}

}  // namespace hermes
