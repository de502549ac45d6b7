// SPDX-License-Identifier: MIT
// fuzzy_replace: match, refuse ambiguity and suspicious approximations,
// then build each replacement and the new text in one front-to-back pass.
#include "tools/patch/match/replace.h"

#include "tools/patch/match/diagnostics.h"
#include "tools/patch/match/reindent.h"
#include "tools/patch/match/text_lines.h"

#include <algorithm>

namespace hermes::match {
namespace {

bool contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

// Escape drift: escaped quotes in both strings that the file does not have.
std::optional<std::string> escape_drift(std::string_view old_text, std::string_view new_text,
                                        std::string_view matched) {
  for (std::string_view esc : {"\\'", "\\\""}) {
    if (contains(old_text, esc) && contains(new_text, esc) && !contains(matched, esc)) {
      return "Escape-drift detected: old_string and new_string contain " + std::string(esc) +
             " but the matched file text does not. The file has the plain quote; send the text "
             "exactly as it appears in the file, without the extra backslashes.";
    }
  }
  return std::nullopt;
}

bool opens_block(std::string_view text) {
  for (auto line : line_views(text)) {
    std::string_view t = rtrim_view(line);
    if (!t.empty() && (t.back() == ':' || t.back() == '{' || t.back() == '(')) return true;
  }
  return false;
}

size_t max_indent(std::string_view text) {
  size_t deepest = 0;
  for (auto line : line_views(text)) {
    if (!is_blank(line)) deepest = std::max(deepest, indent_columns(indent_of(line)));
  }
  return deepest;
}

// Rogue indentation: a new line deeper than any old line, with no block
// opener to explain it. new_string written in the file's indentation is
// measured against the matched file text instead.
std::optional<std::string> rogue_indent(std::string_view old_text, std::string_view new_text,
                                        std::string_view matched) {
  if (opens_block(old_text) || opens_block(new_text)) return std::nullopt;
  bool in_file =
      in_file_indentation(base_indent(old_text), base_indent(matched), base_indent(new_text));
  if (max_indent(new_text) <= max_indent(in_file ? matched : old_text)) return std::nullopt;
  return std::string(
      "Suspicious indentation in new_string: a line is indented deeper than any line of "
      "old_string, and no line opens a block (':', '{' or '('). Check the indentation of "
      "new_string and retry.");
}

// Literal \t / \r become real when the matched text has real ones (\n never).
std::string unescape_like_file(std::string_view new_text, std::string_view matched) {
  bool tab = contains(matched, "\t");
  bool cr = false;
  for (size_t i = 0; i < matched.size() && !cr; ++i) {
    cr = matched[i] == '\r' && (i + 1 == matched.size() || matched[i + 1] != '\n');
  }
  std::string out;
  for (size_t i = 0; i < new_text.size(); ++i) {
    if (new_text[i] == '\\' && i + 1 < new_text.size() &&
        ((tab && new_text[i + 1] == 't') || (cr && new_text[i + 1] == 'r'))) {
      out += new_text[++i] == 't' ? '\t' : '\r';
    } else {
      out += new_text[i];
    }
  }
  return out;
}

std::string without_crlf(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (!(s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n')) out += s[i];
  }
  return out;
}

// The ending new lines take: the majority inside the matched text, else the
// ending of the line the match ends on, else the file's dominant one.
std::string_view region_eol(std::string_view content, Span span) {
  std::string_view r = content.substr(span.begin, span.end - span.begin);
  size_t lf = std::count(r.begin(), r.end(), '\n');
  if (lf > 0) {
    size_t crlf = 0;
    for (size_t at = r.find("\r\n"); at != std::string_view::npos; at = r.find("\r\n", at + 2))
      ++crlf;
    return crlf * 2 > lf ? "\r\n" : "\n";
  }
  size_t nl = content.find('\n', span.end);
  if (nl != std::string_view::npos) return nl > 0 && content[nl - 1] == '\r' ? "\r\n" : "\n";
  size_t lf_all = std::count(content.begin(), content.end(), '\n'), crlf_all = 0;
  for (size_t at = content.find("\r\n"); at != std::string_view::npos;
       at = content.find("\r\n", at + 2))
    ++crlf_all;
  return lf_all > 0 && crlf_all * 2 > lf_all ? "\r\n" : "\n";
}

std::string join_lines(const std::vector<std::string>& lines, std::string_view eol) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? std::string(eol) : "") + lines[i];
  return out;
}

std::string replacement_for(std::string_view content, Span span, const MatchSet& set,
                            std::string_view new_text) {
  std::string_view matched = content.substr(span.begin, span.end - span.begin);
  std::string text = without_crlf(unescape_like_file(new_text, matched));
  std::string_view eol = region_eol(content, span);
  bool trailing = !text.empty() && text.back() == '\n';
  if (trailing) text.pop_back();
  std::vector<std::string> lines;
  for (size_t at = 0;;) {
    size_t nl = text.find('\n', at);
    lines.emplace_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  if (set.strategy != Strategy::kExact) {
    bool line_start = span.begin == 0 || content[span.begin - 1] == '\n';
    lines = rebase_new_lines(line_views(set.pattern), line_views(matched), std::move(lines),
                             line_start);
  }
  return join_lines(lines, eol) + (trailing ? std::string(eol) : "");
}

}  // namespace

std::optional<ReplaceError> check_replace_input(std::string_view old_text,
                                                std::string_view new_text) {
  if (old_text.empty()) return ReplaceError{ReplaceFailure::kInput, "old_string cannot be empty"};
  if (trim_view(old_text).empty()) {
    return ReplaceError{ReplaceFailure::kInput,
                        "old_string is only whitespace — provide non-blank text to match"};
  }
  if (old_text == new_text) {
    return ReplaceError{ReplaceFailure::kInput, "old_string and new_string are identical"};
  }
  return std::nullopt;
}

bool is_already_applied(std::string_view content, std::string_view old_text,
                        std::string_view new_text) {
  if (trim_view(new_text).size() < 8 || !contains(content, new_text)) return false;
  return old_text == new_text || !contains(content, old_text);
}

std::variant<ReplaceOutcome, ReplaceError> fuzzy_replace(const ReplaceRequest& req) {
  auto found = find_matches(req.content, req.old_text, req.options);
  if (!found) {
    if (auto twins = near_ambiguity_message(req.content, req.old_text))
      return ReplaceError{ReplaceFailure::kAmbiguous, *twins};
    return ReplaceError{ReplaceFailure::kNotFound, no_match_message(req.content, req.old_text)};
  }
  if (req.take_first) found->spans.resize(1);
  const MatchSet& set = *found;
  const size_t n = set.spans.size();
  if (n > 1 && !req.replace_all) {
    return ReplaceError{ReplaceFailure::kAmbiguous, ambiguity_message(req.content, set.spans)};
  }
  if (n > 1 && is_similarity(set.strategy)) {
    return ReplaceError{ReplaceFailure::kAmbiguous,
                        "Found " + std::to_string(n) + " approximate matches via the '" +
                            std::string(strategy_name(set.strategy)) +
                            "' strategy; replace_all only applies to exact matches. Make "
                            "old_string match the file exactly, or edit each place separately."};
  }
  if (set.strategy != Strategy::kExact) {
    for (const Span& span : set.spans) {
      std::string_view matched = req.content.substr(span.begin, span.end - span.begin);
      if (auto e = escape_drift(req.old_text, req.new_text, matched))
        return ReplaceError{ReplaceFailure::kRefused, *e};
      if (auto e = rogue_indent(req.old_text, req.new_text, matched))
        return ReplaceError{ReplaceFailure::kRefused, *e};
    }
  }
  // Built once, front to back: no copy of the file that is then shifted.
  std::string out;
  out.reserve(req.content.size() + n * req.new_text.size());
  size_t at = 0;
  for (const Span& span : set.spans) {
    out.append(req.content.substr(at, span.begin - at));
    out += replacement_for(req.content, span, set, req.new_text);
    at = span.end;
  }
  out.append(req.content.substr(at));
  return ReplaceOutcome{std::move(out), n, set.strategy};
}

}  // namespace hermes::match
