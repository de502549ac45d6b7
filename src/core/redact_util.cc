// SPDX-License-Identifier: MIT
// The substitute loop and the head/tail mask shared by every redaction pass.
#include "core/redact_internal.h"

#include <vector>

namespace hermes::redact_detail {

namespace {

// One regex applied at chosen positions, with the output assembled as it goes.
class Substitution {
 public:
  Substitution(std::string_view text, const RE2& re)
      : text_(text), re_(re), pieces_(static_cast<size_t>(re.NumberOfCapturingGroups() + 1)) {
    match_.text = text;
    match_.groups.resize(pieces_.size());
  }

  // Matches at or after `pos` (or exactly at it); returns where to go on,
  // or npos when there is no further match.
  size_t step(size_t pos, RE2::Anchor anchor, const Replacer& replace) {
    if (!re_.Match(text_, pos, text_.size(), anchor, pieces_.data(),
                   static_cast<int>(pieces_.size())))
      return std::string_view::npos;
    for (size_t i = 0; i < pieces_.size(); ++i) {
      match_.groups[i] = pieces_[i].data() ? std::string_view(pieces_[i].data(), pieces_[i].size())
                                           : std::string_view();
    }
    match_.begin = static_cast<size_t>(pieces_[0].data() - text_.data());
    match_.end = match_.begin + pieces_[0].size();
    if (std::optional<std::string> replacement = replace(match_)) {
      out_.append(text_.substr(copied_, match_.begin - copied_));
      out_ += *replacement;
      copied_ = match_.end;
      changed_ = true;
    }
    return match_.end > match_.begin ? match_.end : match_.begin + 1;
  }

  size_t copied() const { return copied_; }

  // Puts the result in `text` (the string viewed) when anything changed.
  void finish(std::string& text) {
    if (!changed_) return;
    out_.append(text_.substr(copied_));
    text = std::move(out_);
  }

 private:
  std::string_view text_;
  const RE2& re_;
  std::vector<re2::StringPiece> pieces_;
  Match match_;
  std::string out_;
  size_t copied_ = 0;
  bool changed_ = false;
};

}  // namespace

void substitute(std::string& text, const RE2& re, const Replacer& replace) {
  Substitution sub(text, re);
  for (size_t pos = 0; pos <= text.size();) pos = sub.step(pos, RE2::UNANCHORED, replace);
  sub.finish(text);
}

void substitute_at(std::string& text, const RE2& re, const std::vector<size_t>& starts,
                   const Replacer& replace) {
  Substitution sub(text, re);
  size_t next = 0;
  for (size_t start : starts) {
    if (start < next || start < sub.copied()) continue;  // inside an earlier match
    size_t after = sub.step(start, RE2::ANCHOR_START, replace);
    if (after != std::string_view::npos) next = after;
  }
  sub.finish(text);
}

namespace {

// Byte offsets of each code point start.
std::vector<size_t> code_points(std::string_view s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  return starts;
}

}  // namespace

std::string mask_token(std::string_view token) {
  std::vector<size_t> cps = code_points(token);
  if (cps.size() < 18) return "***";
  return std::string(token.substr(0, cps[6])) + "..." +
         std::string(token.substr(cps[cps.size() - 4]));
}

}  // namespace hermes::redact_detail
