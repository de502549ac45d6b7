// SPDX-License-Identifier: MIT
// Tiers 1–7 and the tier loop; tiers 8–9 live in approximate.cc.
#include "tools/patch/match/strategies.h"

#include "core/strings.h"
#include "tools/patch/match/match_internal.h"
#include "tools/patch/match/unicode_fold.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <unordered_map>

namespace hermes::match {
namespace detail {

std::string_view key_view(std::string_view line, Key key, std::string& storage) {
  switch (key) {
    case Key::kRaw:
      return line;
    case Key::kTrim:
      return trim_view(line);
    case Key::kLstrip:
      return ltrim_view(line);
    case Key::kFoldTrim:
      if (!has_foldable(line)) return trim_view(line);
      storage = std::string(trim_view(fold_unicode(line)));
      return storage;
  }
  return line;
}

const std::vector<std::string_view>& Subject::keys(Key key) {
  auto& cache = caches_[static_cast<size_t>(key)];
  if (cache) return cache->views;
  cache = std::make_unique<Cache>();
  const size_t n = lines().size();
  cache->storage.resize(key == Key::kFoldTrim ? n : 0);
  cache->views.reserve(n);
  cache->hashes.reserve(n);
  std::string scratch;
  for (size_t i = 0; i < n; ++i) {
    std::string& store = key == Key::kFoldTrim ? cache->storage[i] : scratch;
    std::string_view view = key_view(line(i), key, store);
    cache->views.push_back(view);
    cache->hashes.push_back(std::hash<std::string_view>{}(view));
  }
  return cache->views;
}

const std::vector<size_t>& Subject::hashes(Key key) {
  keys(key);
  return caches_[static_cast<size_t>(key)]->hashes;
}

Pattern make_pattern(std::string_view text) {
  return {text, line_views(text), !text.empty() && text.back() == '\n'};
}

Span block_span(const Subject& file, const Pattern& pattern, size_t first) {
  const LineSpan& last = file.lines()[first + pattern.lines.size() - 1];
  return {file.lines()[first].begin, pattern.trailing_newline ? last.next : last.end};
}

std::vector<size_t> find_line_blocks(Subject& file, const Pattern& pattern,
                                     const std::vector<Key>& kinds) {
  const size_t m = pattern.lines.size(), n = file.lines().size();
  if (m == 0 || m > n) return {};
  std::vector<std::string> storage(m);
  std::vector<std::string_view> want(m);
  std::vector<size_t> want_hash(m);
  for (size_t j = 0; j < m; ++j) {
    want[j] = key_view(pattern.lines[j], kinds[j], storage[j]);
    want_hash[j] = std::hash<std::string_view>{}(want[j]);
  }
  // The rarest pattern line picks the candidate windows.
  size_t anchor = 0, best = SIZE_MAX;
  for (size_t j = 0; j < m && best > 1; ++j) {
    const auto& hashes = file.hashes(kinds[j]);
    size_t count = 0;
    for (size_t i = j; i + (m - j) <= n; ++i)
      count += hashes[i] == want_hash[j];  // line j of a window
    if (count < best) best = count, anchor = j;
    if (count == 0) return {};
  }
  const auto& anchor_hashes = file.hashes(kinds[anchor]);
  std::vector<size_t> starts;
  for (size_t i = anchor; i + (m - anchor) <= n; ++i) {
    if (anchor_hashes[i] != want_hash[anchor]) continue;
    size_t s = i - anchor;
    bool all = true;
    for (size_t j = 0; j < m && all; ++j) all = file.keys(kinds[j])[s + j] == want[j];
    if (all) starts.push_back(s);
  }
  return starts;
}

}  // namespace detail

namespace {

using detail::Key;
using detail::Pattern;
using detail::Subject;

// Indent width with a tab as four columns; only compared within one side.
int indent_width(std::string_view line) {
  int w = 0;
  for (char c : indent_of(line)) w += c == '\t' ? 4 : 1;
  return w;
}

// Whitespace-tolerant tiers keep relative structure: each line is deeper,
// level or shallower than the block's first line in the file exactly as in
// the pattern.
bool same_structure(const Subject& file, size_t first, const Pattern& pattern) {
  int file_base = -1, pattern_base = -1;
  for (size_t j = 0; j < pattern.lines.size(); ++j) {
    std::string_view f = file.line(first + j), p = pattern.lines[j];
    if (is_blank(f) || is_blank(p)) continue;
    if (file_base < 0) {
      file_base = indent_width(f);
      pattern_base = indent_width(p);
      continue;
    }
    int df = indent_width(f) - file_base, dp = indent_width(p) - pattern_base;
    if ((df > 0) != (dp > 0) || (df < 0) != (dp < 0)) return false;
  }
  return true;
}

std::vector<Span> non_overlapping(std::string_view hay, std::string_view needle) {
  std::vector<Span> out;
  if (needle.empty()) return out;
  for (size_t at = find_bytes(hay, needle); at != std::string_view::npos;
       at = find_bytes(hay, needle, at + needle.size())) {
    out.push_back({at, at + needle.size()});
  }
  return out;
}

std::vector<Span> line_tier(Subject& file, const Pattern& pattern, const std::vector<Key>& kinds,
                            bool check_structure) {
  std::vector<Span> out;
  size_t last_end = 0;
  for (size_t s : detail::find_line_blocks(file, pattern, kinds)) {
    if (check_structure && !same_structure(file, s, pattern)) continue;
    Span span = detail::block_span(file, pattern, s);
    if (!out.empty() && span.begin < last_end) continue;  // overlapping window
    out.push_back(span);
    last_end = span.end;
  }
  return out;
}

// Runs of spaces/tabs collapsed to one space. Output byte k came from the
// original range [begin[k], begin[k + 1]) (the last one ends at the size).
struct Collapsed {
  std::string text;
  std::vector<uint32_t> begin;
  size_t original_size = 0;
  size_t end_of(size_t k) const { return k + 1 < begin.size() ? begin[k + 1] : original_size; }
};

Collapsed collapse_blanks(std::string_view s) {
  Collapsed out;
  out.original_size = s.size();
  out.text.resize(s.size());
  out.begin.resize(s.size());
  size_t k = 0;
  for (size_t i = 0; i < s.size();) {
    // Copy the run up to the next blank in bulk; offsets are consecutive.
    size_t stop = i;
    while (stop < s.size() && s[stop] != ' ' && s[stop] != '\t') ++stop;
    std::memcpy(out.text.data() + k, s.data() + i, stop - i);
    for (size_t b = i; b < stop; ++b) out.begin[k++] = static_cast<uint32_t>(b);
    if (stop == s.size()) break;
    size_t j = stop;
    while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
    out.text[k] = ' ';
    out.begin[k++] = static_cast<uint32_t>(stop);
    i = j;
  }
  out.text.resize(k);
  out.begin.resize(k);
  return out;
}

std::vector<Span> whitespace_tier(Subject& file, const Pattern& pattern) {
  std::string needle = collapse_blanks(pattern.text).text;
  Collapsed hay = collapse_blanks(file.text());
  std::vector<Span> out;
  for (Span s : non_overlapping(hay.text, needle)) {
    // A trailing collapsed run is consumed whole only when the pattern itself
    // ended in whitespace (otherwise the needle ends on a non-blank byte).
    Span span{hay.begin[s.begin], hay.end_of(s.end - 1)};
    size_t first_line = line_index_at(file.lines(), span.begin);
    if (first_line + pattern.lines.size() <= file.lines().size() &&
        !same_structure(file, first_line, pattern)) {
      continue;
    }
    out.push_back(span);
  }
  return out;
}

bool has_escapes(std::string_view s) {
  return s.find("\\n") != std::string_view::npos || s.find("\\t") != std::string_view::npos ||
         s.find("\\r") != std::string_view::npos;
}

std::string unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() &&
        (s[i + 1] == 'n' || s[i + 1] == 't' || s[i + 1] == 'r')) {
      out += s[i + 1] == 'n' ? '\n' : s[i + 1] == 't' ? '\t' : '\r';
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<Span> unicode_tier(Subject& file, const Pattern& pattern) {
  const bool file_folds = has_foldable(file.text());
  if (!has_foldable(pattern.text) && !file_folds) return {};
  std::vector<Span> out;
  if (file_folds) {
    FoldedText hay = fold_unicode_mapped(file.text());
    for (Span s : non_overlapping(hay.text, fold_unicode(pattern.text))) {
      out.push_back({hay.unit_begin[s.begin], hay.unit_end[s.end - 1]});
    }
  } else {
    out = non_overlapping(file.text(), fold_unicode(pattern.text));  // folding the file is a no-op
  }
  if (!out.empty()) return out;
  return line_tier(file, pattern, std::vector<Key>(pattern.lines.size(), Key::kFoldTrim), true);
}

std::vector<Span> spans_of(Subject& file, const Pattern& pattern,
                           const std::vector<size_t>& starts) {
  std::vector<Span> out;
  for (size_t s : starts) {
    if (!same_structure(file, s, pattern)) continue;
    Span span = detail::block_span(file, pattern, s);
    if (out.empty() || span.begin >= out.back().end) out.push_back(span);
  }
  return out;
}

bool at_line_start(std::string_view text, size_t at) { return at == 0 || text[at - 1] == '\n'; }
bool at_line_end(std::string_view text, size_t at) {
  return at == text.size() || text[at] == '\n' || text.substr(at, 2) == "\r\n" ||
         (at > 0 && text[at - 1] == '\n');
}

void keep_line_anchored(std::string_view text, std::vector<Span>& spans) {
  std::erase_if(spans, [&](const Span& s) {
    return !at_line_start(text, s.begin) || !at_line_end(text, s.end);
  });
}

}  // namespace

std::string_view strategy_name(Strategy strategy) {
  static constexpr std::string_view kNames[] = {"exact",
                                                "line_trimmed",
                                                "whitespace_normalized",
                                                "indentation_flexible",
                                                "escape_normalized",
                                                "trimmed_boundary",
                                                "unicode_normalized",
                                                "block_anchor",
                                                "context_aware"};
  return kNames[static_cast<size_t>(strategy)];
}

bool is_similarity(Strategy strategy) {
  return strategy == Strategy::kBlockAnchor || strategy == Strategy::kContextAware;
}

std::optional<MatchSet> find_matches(std::string_view content, std::string_view pattern_text,
                                     const MatchOptions& options) {
  if (pattern_text.empty()) return std::nullopt;
  Subject file(content);
  Pattern pattern = detail::make_pattern(pattern_text);
  const size_t m = pattern.lines.size();
  std::string unescaped = has_escapes(pattern_text) ? unescape(pattern_text) : std::string();
  auto tier = [&](Strategy s) -> std::vector<Span> {
    switch (s) {
      case Strategy::kExact:
        return non_overlapping(content, pattern_text);
      case Strategy::kLineTrimmed:
        return line_tier(file, pattern, std::vector<Key>(m, Key::kTrim), true);
      case Strategy::kWhitespaceNormalized:
        return whitespace_tier(file, pattern);
      case Strategy::kIndentationFlexible:
        return line_tier(file, pattern, std::vector<Key>(m, Key::kLstrip), true);
      case Strategy::kEscapeNormalized:
        return non_overlapping(content, unescaped);
      case Strategy::kTrimmedBoundary: {
        std::vector<Key> kinds(m, Key::kRaw);
        kinds.front() = kinds.back() = Key::kTrim;
        return line_tier(file, pattern, kinds, true);
      }
      case Strategy::kUnicodeNormalized:
        return unicode_tier(file, pattern);
      case Strategy::kBlockAnchor:
        return spans_of(file, pattern,
                        detail::block_anchor_starts(file, pattern, options.literal_lines));
      case Strategy::kContextAware:
        return spans_of(file, pattern,
                        detail::context_aware_starts(file, pattern, options.literal_lines));
    }
    return {};
  };
  for (int s = 0; s <= static_cast<int>(Strategy::kContextAware); ++s) {
    auto strategy = static_cast<Strategy>(s);
    std::vector<Span> spans = tier(strategy);
    if (options.line_anchored) keep_line_anchored(content, spans);
    if (spans.empty()) continue;
    std::string matched =
        strategy == Strategy::kEscapeNormalized ? unescaped : std::string(pattern_text);
    return MatchSet{strategy, std::move(spans), std::move(matched)};
  }
  return std::nullopt;
}

}  // namespace hermes::match
