// SPDX-License-Identifier: MIT
#include "tools/patch/match/reindent.h"

#include <algorithm>
#include <optional>

#include "tools/patch/match/text_lines.h"

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
    if (cols > base_cols && (style.width == 0 || cols - base_cols < style.width)) style.width = cols - base_cols;
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
    long cols = static_cast<long>(indent_columns(file_base)) + levels * static_cast<long>(file.width);
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
      dp[i][j] = old_lines[i] == new_lines[j] ? dp[i + 1][j + 1] + 1 : std::max(dp[i + 1][j], dp[i][j + 1]);
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

}  // namespace

size_t indent_columns(std::string_view indent) {
  size_t cols = 0;
  for (char c : indent) cols += c == '\t' ? 4 : 1;
  return cols;
}

std::vector<std::string> rebase_new_lines(const std::vector<std::string_view>& old_lines,
                                          const std::vector<std::string_view>& file_lines,
                                          std::vector<std::string> new_lines, bool line_start) {
  std::vector<std::optional<size_t>> same(new_lines.size());
  if (old_lines.size() == file_lines.size()) same = unchanged_lines(old_lines, new_lines);
  std::string_view old_base = indent_of(first_non_blank(old_lines));
  std::string_view file_base = indent_of(first_non_blank(file_lines));
  IndentStyle model = detect_style(old_lines, old_base);
  IndentStyle file = detect_style(file_lines, file_base);
  if (file_base.find('\t') != std::string_view::npos) file.tabs = true;
  if (model.width == 0) model.width = file.width ? file.width : 4;
  if (file.width == 0) file.width = file.tabs ? 4 : model.width;
  for (size_t j = 0; j < new_lines.size(); ++j) {
    if (same[j]) {
      new_lines[j] = std::string(file_lines[*same[j]]);
    } else if (line_start) {
      new_lines[j] = rebase_line(new_lines[j], old_base, model, file_base, file);
    }
  }
  return new_lines;
}

}  // namespace hermes::match
