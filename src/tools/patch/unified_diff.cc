// SPDX-License-Identifier: MIT
// Only the changed window is split into lines: the common byte prefix and
// suffix are cut at line starts, keeping the context lines a hunk can show.
// Then Myers' O((N+M)D) diff on the middle, grouped into hunks like
// difflib.get_grouped_opcodes(3). An edit costs the same in any file size
// bar one newline count.
#include "tools/patch/unified_diff.h"

#include "tools/patch/match/text_lines.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace hermes::patch {
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
std::vector<Edit> myers(const Lines& a, size_t a0, size_t a1, const Lines& b, size_t b0,
                        size_t b1) {
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
        if (down)
          edits.push_back({Op::kInsert, a0 + px, b0 + py});
        else
          edits.push_back({Op::kDelete, a0 + px, b0 + py});
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
  while (suf < a.size() - pre && suf < b.size() - pre &&
         a[a.size() - 1 - suf] == b[b.size() - 1 - suf])
    ++suf;
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

// `line0`: lines of the file before the window the Lines come from.
std::string hunk(const std::vector<Edit>& e, size_t from, size_t to, const Lines& a, const Lines& b,
                 size_t line0) {
  size_t a_start = line0 + e[from].a, b_start = line0 + e[from].b, a_len = 0, b_len = 0;
  std::string body;
  for (size_t k = from; k < to; ++k) {
    switch (e[k].op) {
      case Op::kEqual:
        body += " " + std::string(a[e[k].a]) + "\n", ++a_len, ++b_len;
        break;
      case Op::kDelete:
        body += "-" + std::string(a[e[k].a]) + "\n", ++a_len;
        break;
      case Op::kInsert:
        body += "+" + std::string(b[e[k].b]) + "\n", ++b_len;
        break;
    }
  }
  return "@@ -" + range(a_start, a_len) + " +" + range(b_start, b_len) + " @@\n" + body;
}

bool line_start(std::string_view text, size_t at) { return at == 0 || text[at - 1] == '\n'; }

// The start of the line holding byte `at`, moved up `count` more lines.
size_t lines_back(std::string_view text, size_t at, size_t count) {
  auto begin_of = [&](size_t pos) {
    size_t nl = pos == 0 ? std::string_view::npos : text.rfind('\n', pos - 1);
    return nl == std::string_view::npos ? 0 : nl + 1;
  };
  size_t start = begin_of(at);
  for (size_t k = 0; k < count && start > 0; ++k) start = begin_of(start - 1);
  return start;
}

// Past `count` more lines after `at` (a line start).
size_t lines_forward(std::string_view text, size_t at, size_t count) {
  for (size_t k = 0; k < count && at < text.size(); ++k) {
    size_t nl = text.find('\n', at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  return at;
}

// The part of `from` and `to` that differs, widened to whole lines plus
// kContext lines each side: [start, from_end) and [start, to_end).
struct Window {
  size_t start, from_end, to_end;
};

// Bytes `a` and `b` share at their start, or at their end (`from_end`),
// looking at no more than `limit` bytes; memcmp by blocks, then bytes.
size_t common_run(std::string_view a, std::string_view b, size_t limit, bool from_end) {
  constexpr size_t kBlock = 256;
  auto at = [&](std::string_view s, size_t done, size_t len) {
    return s.data() + (from_end ? s.size() - done - len : done);
  };
  size_t done = 0;
  while (done + kBlock <= limit &&
         std::memcmp(at(a, done, kBlock), at(b, done, kBlock), kBlock) == 0) {
    done += kBlock;
  }
  while (done < limit && *at(a, done, 1) == *at(b, done, 1)) ++done;
  return done;
}

Window changed_window(std::string_view from, std::string_view to) {
  const size_t shorter = std::min(from.size(), to.size());
  size_t pre = common_run(from, to, shorter, false);
  size_t start = lines_back(from, pre, kContext);
  size_t suf = common_run(from, to, shorter - pre, true);
  size_t a1 = from.size() - suf, b1 = to.size() - suf;
  if (!line_start(from, a1) || !line_start(to, b1)) {  // move into the suffix, to a line start
    size_t next = lines_forward(from, a1, 1);
    b1 += next - a1;
    a1 = next;
  }
  size_t a_end = lines_forward(from, a1, kContext);
  return {start, a_end, b1 + (a_end - a1)};
}

}  // namespace

std::string diff_label(std::string_view side, const std::string& path) {
  return path.starts_with('/') ? path : std::string(side) + "/" + path;
}

std::string unified_diff(std::string_view from, std::string_view to, const std::string& from_label,
                         const std::string& to_label) {
  if (from == to) return "";
  const Window w = changed_window(from, to);
  const size_t line0 = static_cast<size_t>(std::count(from.begin(), from.begin() + w.start, '\n'));
  Lines a = match::line_views(from.substr(w.start, w.from_end - w.start));
  Lines b = match::line_views(to.substr(w.start, w.to_end - w.start));
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
    while (last + 1 < changed.size() && changed[last + 1] - changed[last] <= 2 * kContext + 1)
      ++last;
    size_t begin = changed[g] >= kContext ? changed[g] - kContext : 0;
    size_t end = std::min(edits.size(), changed[last] + kContext + 1);
    out += hunk(edits, begin, end, a, b, line0);
    g = last + 1;
  }
  return out;
}

}  // namespace hermes::patch
