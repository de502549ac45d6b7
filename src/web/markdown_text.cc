// SPDX-License-Identifier: MIT
#include "web/markdown_text.h"

#include <algorithm>

namespace hermes::web {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

size_t longest_backtick_run(std::string_view text) {
  size_t best = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

}  // namespace

void append_collapsed(std::string& out, std::string_view text) {
  for (char c : text) {
    if (!is_space(c)) {
      out += c;
    } else if (!out.empty() && out.back() != ' ' && out.back() != '\n') {
      out += ' ';
    }
  }
}

std::string backtick_fence(std::string_view text, size_t minimum) {
  return std::string(std::max(minimum, longest_backtick_run(text) + 1), '`');
}

std::string code_span(std::string_view text) {
  size_t longest = longest_backtick_run(text);
  std::string fence(longest + 1, '`');
  bool pad = longest > 0 && (text.front() == '`' || text.back() == '`');
  std::string space = pad ? " " : "";
  return fence + space + std::string(text) + space + fence;
}

std::string tidy_markdown(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t newlines = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
      if (out.empty() || ++newlines > 2) continue;
    } else {
      newlines = 0;
    }
    out += c;
  }
  while (!out.empty() && is_space(out.back())) out.pop_back();
  return out;
}

std::string prefix_lines(std::string_view text, std::string_view first, std::string_view rest) {
  std::string out(first);
  for (char c : text) {
    out += c;
    if (c == '\n') out += rest;
  }
  return out;
}

}  // namespace hermes::web
