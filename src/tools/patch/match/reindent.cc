// SPDX-License-Identifier: MIT
#include "tools/patch/match/reindent.h"

#include "tools/patch/match/text_lines.h"
#include "tools/patch/match/unicode_fold.h"

#include <algorithm>
#include <optional>

namespace hermes::match {
namespace {

struct IndentStyle {
  bool tabs = false;
  size_t width = 0;  // columns per level; 0 when no nesting was seen
};

std::string_view first_non_blank(const std::vector<std::string_view>& lines) {
  for (auto l : lines) {
    if (!is_blank(l)) return l;
  }
  return {};
}

// The indentation unit of a block: tabs if any line indents with one, else
// the smallest step deeper than the base.
IndentStyle detect_style(const std::vector<std::string_view>& lines, std::string_view base) {
  IndentStyle style;
  size_t base_cols = indent_columns(base);
  for (auto l : lines) {
    if (is_blank(l)) continue;
    std::string_view ind = indent_of(l);
    if (ind.find('\t') != std::string_view::npos) style.tabs = true;
    size_t cols = indent_columns(ind);
    if (cols > base_cols && (style.width == 0 || cols - base_cols < style.width))
      style.width = cols - base_cols;
  }
  if (style.tabs) style.width = 4;
  return style;
}

std::string render(size_t cols, bool tabs) {
  return tabs ? std::string(cols / 4, '\t') + std::string(cols % 4, ' ') : std::string(cols, ' ');
}

// Re-bases one changed line from the model's base/unit to the file's.
std::string rebase_line(const std::string& line, std::string_view old_base, IndentStyle model,
                        std::string_view file_base, IndentStyle file) {
  if (is_blank(line)) return line;
  std::string_view ind = indent_of(line);
  long rel = static_cast<long>(indent_columns(ind)) - static_cast<long>(indent_columns(old_base));
  long levels = rel / static_cast<long>(model.width), rem = rel % static_cast<long>(model.width);
  std::string out;
  if (rel >= 0) {
    std::string unit = file.tabs ? "\t" : std::string(file.width, ' ');
    out = std::string(file_base);
    for (long k = 0; k < levels; ++k) out += unit;
    out += std::string(static_cast<size_t>(rem), ' ');
  } else {
    long cols =
        static_cast<long>(indent_columns(file_base)) + levels * static_cast<long>(file.width);
    out = render(static_cast<size_t>(std::max(0L, cols)), file.tabs);  // anchored at the left edge
  }
  return out + line.substr(ind.size());
}

// Longest common subsequence of old and new lines: for each new line, the
// old line it is an unchanged copy of.
std::vector<std::optional<size_t>> unchanged_lines(const std::vector<std::string_view>& old_lines,
                                                   const std::vector<std::string>& new_lines) {
  const size_t a = old_lines.size(), b = new_lines.size();
  std::vector<std::vector<unsigned>> dp(a + 1, std::vector<unsigned>(b + 1, 0));
  for (size_t i = a; i-- > 0;) {
    for (size_t j = b; j-- > 0;) {
      dp[i][j] = old_lines[i] == new_lines[j] ? dp[i + 1][j + 1] + 1
                                              : std::max(dp[i + 1][j], dp[i][j + 1]);
    }
  }
  std::vector<std::optional<size_t>> out(b);
  for (size_t i = 0, j = 0; i < a && j < b;) {
    if (old_lines[i] == new_lines[j]) {
      out[j++] = i++;
    } else if (dp[i + 1][j] >= dp[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

// Byte length of the UTF-8 sequence starting with `lead`.
size_t utf8_len(unsigned char lead) {
  return lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : 4;
}

// Code-point boundaries of `s` with the folded length of each prefix:
// (byte offset, folded length) pairs, starting at (0, 0).
std::vector<std::pair<size_t, size_t>> fold_boundaries(std::string_view s) {
  std::vector<std::pair<size_t, size_t>> out{{0, 0}};
  size_t folded = 0;
  for (size_t i = 0; i < s.size();) {
    size_t len = std::min(utf8_len(static_cast<unsigned char>(s[i])), s.size() - i);
    folded += fold_unicode(s.substr(i, len)).size();
    i += len;
    out.emplace_back(i, folded);
  }
  return out;
}

// The byte offset in `b` whose folded prefix length equals that of `a`'s
// first `a_bytes` bytes, walking back to a boundary both sides share.
std::optional<std::pair<size_t, size_t>> shared_prefix(std::string_view a, size_t a_bytes,
                                                       std::string_view b) {
  auto ab = fold_boundaries(a), bb = fold_boundaries(b);
  for (size_t i = ab.size(); i-- > 0;) {
    if (ab[i].first > a_bytes) continue;
    for (const auto& [b_off, b_len] : bb) {
      if (b_len == ab[i].second) return std::pair{ab[i].first, b_off};
    }
  }
  return std::nullopt;
}

// A changed line whose old version equals the file line up to Unicode
// folding: the parts the model did not change are taken from the file.
std::string keep_file_unicode(std::string_view file, std::string_view old_line,
                              const std::string& new_line) {
  if (file == old_line || fold_unicode(file) != fold_unicode(old_line)) return new_line;
  size_t p = 0;
  while (p < old_line.size() && p < new_line.size() && old_line[p] == new_line[p]) ++p;
  size_t q = 0;
  while (q < old_line.size() - p && q < new_line.size() - p &&
         old_line[old_line.size() - 1 - q] == new_line[new_line.size() - 1 - q])
    ++q;
  auto head = shared_prefix(old_line, p, file);
  // Suffixes: the longest one within `q` bytes whose folded length the file
  // line's tail also has.
  auto tail_old = fold_boundaries(old_line), tail_file = fold_boundaries(file);
  size_t old_total = tail_old.back().second, file_total = tail_file.back().second;
  std::optional<std::pair<size_t, size_t>> tail;
  for (auto it = tail_old.begin(); it != tail_old.end() && !tail; ++it) {
    if (old_line.size() - it->first > q) continue;
    for (const auto& [f_off, f_len] : tail_file) {
      if (file_total - f_len == old_total - it->second) {
        tail = std::pair{old_line.size() - it->first, file.size() - f_off};
        break;
      }
    }
  }
  if (!head || !tail || head->first + tail->first > new_line.size()) return new_line;
  return std::string(file.substr(0, head->second)) +
         new_line.substr(head->first, new_line.size() - head->first - tail->first) +
         std::string(file.substr(file.size() - tail->second));
}

// Pairs each changed new line with the old line it replaces, where a run of
// changed lines replaces a run of the same length.
std::vector<std::optional<size_t>> replaced_lines(const std::vector<std::optional<size_t>>& same,
                                                  size_t old_count) {
  std::vector<std::optional<size_t>> out(same.size());
  size_t j = 0, next_old = 0;
  while (j < same.size()) {
    if (same[j]) {
      next_old = *same[j] + 1;
      ++j;
      continue;
    }
    size_t run_end = j;
    while (run_end < same.size() && !same[run_end]) ++run_end;
    size_t old_end = run_end < same.size() ? *same[run_end] : old_count;
    if (old_end - next_old == run_end - j) {
      for (size_t k = j; k < run_end; ++k) out[k] = next_old + (k - j);
    }
    j = run_end;
  }
  return out;
}

}  // namespace

std::string_view base_indent(std::string_view text) {
  return indent_of(first_non_blank(line_views(text)));
}

bool in_file_indentation(std::string_view old_base, std::string_view file_base,
                         std::string_view new_base) {
  return new_base == file_base && old_base != file_base;
}

size_t indent_columns(std::string_view indent) {
  size_t cols = 0;
  for (char c : indent) cols += c == '\t' ? 4 : 1;
  return cols;
}

std::vector<std::string> rebase_new_lines(std::vector<std::string_view> old_lines,
                                          const std::vector<std::string_view>& file_lines,
                                          std::vector<std::string> new_lines, bool line_start) {
  std::string_view old_base = indent_of(first_non_blank(old_lines));
  std::string_view file_base = indent_of(first_non_blank(file_lines));
  std::string_view new_base;
  for (const std::string& l : new_lines) {
    if (!is_blank(l)) {
      new_base = indent_of(l);
      break;
    }
  }
  // new_string in the file's indentation: old_string is read in it too, each
  // line with the indentation of the file line it matched.
  std::vector<std::string> old_in_file;
  if (line_start && old_lines.size() == file_lines.size() &&
      in_file_indentation(old_base, file_base, new_base)) {
    for (size_t i = 0; i < old_lines.size(); ++i) {
      old_in_file.push_back(std::string(indent_of(file_lines[i])) +
                            std::string(old_lines[i].substr(indent_of(old_lines[i]).size())));
    }
    for (size_t i = 0; i < old_lines.size(); ++i) old_lines[i] = old_in_file[i];
    old_base = file_base;
  }
  std::vector<std::optional<size_t>> same(new_lines.size()), replaced(new_lines.size());
  if (old_lines.size() == file_lines.size()) {
    same = unchanged_lines(old_lines, new_lines);
    replaced = replaced_lines(same, old_lines.size());
  }
  IndentStyle model = detect_style(old_lines, old_base);
  IndentStyle file = detect_style(file_lines, file_base);
  if (file_base.find('\t') != std::string_view::npos) file.tabs = true;
  if (model.width == 0) model.width = file.width ? file.width : 4;
  if (file.width == 0) file.width = file.tabs ? 4 : model.width;
  for (size_t j = 0; j < new_lines.size(); ++j) {
    if (same[j]) {
      new_lines[j] = std::string(file_lines[*same[j]]);
      continue;
    }
    if (replaced[j]) {
      std::string kept =
          keep_file_unicode(file_lines[*replaced[j]], old_lines[*replaced[j]], new_lines[j]);
      if (kept != new_lines[j]) {  // the file's own prefix already carries its indentation
        new_lines[j] = std::move(kept);
        continue;
      }
    }
    if (line_start) new_lines[j] = rebase_line(new_lines[j], old_base, model, file_base, file);
  }
  return new_lines;
}

}  // namespace hermes::match
