// SPDX-License-Identifier: MIT
#include "tools/patch/v4a/hunks.h"

#include "tools/patch/match/replace.h"
#include "tools/patch/match/text_lines.h"

#include <algorithm>

namespace hermes::v4a {
namespace {

using match::ReplaceError;
using match::ReplaceFailure;
using match::ReplaceOutcome;

constexpr size_t kHintBefore = 500, kHintAfter = 2000;

std::string join(const std::vector<std::string>& lines, std::string_view eol) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? std::string(eol) : "") + lines[i];
  return out;
}

std::string_view dominant_eol(std::string_view text) {
  size_t lf = std::count(text.begin(), text.end(), '\n'), crlf = 0;
  for (size_t at = text.find("\r\n"); at != std::string_view::npos; at = text.find("\r\n", at + 2))
    ++crlf;
  return lf > 0 && crlf * 2 > lf ? "\r\n" : "\n";
}

size_t line_start(std::string_view text, size_t at) {
  at = std::min(at, text.size());
  size_t nl = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
  return nl == std::string_view::npos ? 0 : nl + 1;
}

size_t line_end(std::string_view text, size_t at) {
  size_t nl = text.find('\n', std::min(at, text.size()));
  return nl == std::string_view::npos ? text.size() : nl + 1;
}

// The replace-mode advice names replace_all, which V4A does not have.
std::string v4a_advice(std::string message) {
  const std::string from = "Provide more context to make it unique, or use replace_all=True.";
  auto at = message.find(from);
  if (at != std::string::npos) {
    message.replace(at, from.size(),
                    "Add an '@@ <nearby line>' anchor or more context lines to pick one.");
  }
  return message;
}

std::string label(size_t index, const Hunk& hunk) {
  return "hunk " + std::to_string(index + 1) +
         (hunk.hint.empty() ? " (no hint)" : " '" + hunk.hint + "'");
}

// An addition-only hunk: after the line holding its anchor, else at the end.
// `error` is set when the anchor is missing or ambiguous.
std::string insert_addition(const std::string& content, const Hunk& hunk, std::string& error) {
  std::string_view eol = dominant_eol(content);
  std::string added = join(hunk.new_lines, eol);
  if (hunk.hint.empty()) {
    if (content.empty()) return added + std::string(eol);
    if (content.back() == '\n') return content + added + std::string(eol);
    return content + std::string(eol) + added;  // the file had no final newline; keep it so
  }
  std::vector<size_t> hits;
  for (size_t at = content.find(hunk.hint); at != std::string::npos;
       at = content.find(hunk.hint, line_end(content, at))) {
    hits.push_back(at);
  }
  if (hits.size() != 1) {
    error = "addition-only hunk context hint '" + hunk.hint + "' " +
            (hits.empty() ? "not found"
                          : "is ambiguous (" + std::to_string(hits.size()) + " occurrences)");
    return content;
  }
  size_t at = line_end(content, hits[0]);
  std::string prefix = content.substr(0, at);
  if (prefix.empty() || prefix.back() != '\n') prefix += eol;
  return prefix + added + std::string(eol) + content.substr(at);
}

class HunkApplier {
 public:
  HunkApplier(std::string& content, const Hunk& hunk, size_t& cursor)
      : content_(content),
        hunk_(hunk),
        cursor_(cursor),
        old_(join(hunk.old_lines, "\n")),
        new_(join(hunk.new_lines, "\n")) {}

  // nullopt on success, else the matcher's error.
  std::optional<ReplaceError> run() {
    auto first = attempt(0, content_.size(), false);
    if (!first || first->kind == ReplaceFailure::kRefused) return first;
    if (first->kind == ReplaceFailure::kAmbiguous) return disambiguate(*first);
    if (size_t hint = hint_pos(); hint != std::string::npos) {
      size_t from = hint > kHintBefore ? hint - kHintBefore : 0;
      if (!attempt(line_start(content_, from), line_end(content_, hint + kHintAfter), false))
        return std::nullopt;
    }
    return first;
  }

 private:
  size_t hint_pos() const {
    return hunk_.hint.empty() ? std::string::npos : content_.find(hunk_.hint);
  }

  std::optional<ReplaceError> disambiguate(const ReplaceError& ambiguous) {
    if (hunk_.end_of_file) {
      size_t from = content_.size();
      for (size_t k = 0; k < hunk_.old_lines.size() && from > 0; ++k)
        from = line_start(content_, from - 1);
      if (!attempt(from, content_.size(), false)) return std::nullopt;
    }
    if (size_t hint = hint_pos(); hint != std::string::npos) {
      if (!attempt(line_end(content_, hint), content_.size(), true)) return std::nullopt;
    }
    if (cursor_ > 0 && !attempt(line_start(content_, cursor_), content_.size(), true))
      return std::nullopt;
    return ambiguous;
  }

  // fuzzy_replace on content[w0, w1); on success splices the result in.
  std::optional<ReplaceError> attempt(size_t w0, size_t w1, bool take_first) {
    std::string_view window = std::string_view(content_).substr(w0, w1 - w0);
    auto r = match::fuzzy_replace({window,
                                   old_,
                                   new_,
                                   false,
                                   {.line_anchored = true, .literal_lines = hunk_.removed},
                                   take_first});
    if (auto* e = std::get_if<ReplaceError>(&r)) return *e;
    const std::string& done = std::get<ReplaceOutcome>(r).content;
    size_t same = std::mismatch(window.begin(), window.end(), done.begin(), done.end()).first -
                  window.begin();
    cursor_ = w0 + same;
    content_ = content_.substr(0, w0) + done + content_.substr(w1);
    return std::nullopt;
  }

  std::string& content_;
  const Hunk& hunk_;
  size_t& cursor_;
  std::string old_, new_;
};

}  // namespace

std::variant<HunkOutcome, std::string> apply_hunks(std::string content,
                                                   const std::vector<Hunk>& hunks) {
  HunkOutcome out;
  size_t cursor = 0;
  for (size_t i = 0; i < hunks.size(); ++i) {
    const Hunk& hunk = hunks[i];
    if (hunk.old_lines == hunk.new_lines) continue;
    if (hunk.old_lines.empty()) {
      std::string error;
      std::string added = insert_addition(content, hunk, error);
      if (!error.empty()) return error;
      content = std::move(added);
      out.changed = true;
      continue;
    }
    HunkApplier applier(content, hunk, cursor);
    std::string before = content;
    auto error = applier.run();
    if (!error) {
      out.changed = out.changed || content != before;
      continue;
    }
    if (match::is_already_applied(content, join(hunk.old_lines, "\n"), join(hunk.new_lines, "\n")))
      continue;
    if (error->kind == ReplaceFailure::kAmbiguous)
      return label(i, hunk) + " is ambiguous — " + v4a_advice(error->message);
    return label(i, hunk) + " not found — " + error->message;
  }
  out.content = std::move(content);
  return out;
}

}  // namespace hermes::v4a
