// SPDX-License-Identifier: MIT
// The secret-redaction engine: vendor-prefixed tokens (also when split by
// control/zero-width characters), headers, Telegram, PEM, URL credentials,
// JWTs and phone numbers. Every pattern is an RE2 compiled once.
#include "core/redact.h"

#include "core/config.h"
#include "core/paths.h"
#include "core/redact_internal.h"
#include "core/strings.h"
#include "core/word_scan.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstdlib>

namespace hermes {
namespace {

using redact_detail::is_token_char;
using redact_detail::mask_token;
using redact_detail::Match;
using redact_detail::sentinel;
using redact_detail::substitute;
using redact_detail::substitute_at;

// Vendor families: the literal prefix (also the sentinel's label) and the
// body that must follow it. Longer prefixes sharing a start come first,
// because RE2 alternation prefers the earliest alternative.
struct Family {
  std::string_view label;
  std::string_view body;
};
constexpr std::array kFamilies = {
    Family{"sk_live_", "[A-Za-z0-9]{10,}"},
    Family{"sk_test_", "[A-Za-z0-9]{10,}"},
    Family{"sk-", "[A-Za-z0-9_-](?:\\.?[A-Za-z0-9_-]){9,}"},
    Family{"sk_", "[A-Za-z0-9_]{10,}"},
    Family{"ghp_", "[A-Za-z0-9]{10,}"},
    Family{"github_pat_", "[A-Za-z0-9_]{10,}"},
    Family{"gho_", "[A-Za-z0-9]{10,}"},
    Family{"ghu_", "[A-Za-z0-9]{10,}"},
    Family{"ghs_", "[A-Za-z0-9]{10,}"},
    Family{"ghr_", "[A-Za-z0-9]{10,}"},
    Family{"xapp-", "[0-9]+-[A-Za-z0-9-]{10,}"},
    Family{"xox", "[baprs]-[A-Za-z0-9-]{10,}"},
    Family{"AIza", "[A-Za-z0-9_-]{30,}"},
    Family{"pplx-", "[A-Za-z0-9]{10,}"},
    Family{"fal_", "[A-Za-z0-9_-]{10,}"},
    Family{"fc-", "[A-Za-z0-9]{10,}"},
    Family{"bb_live_", "[A-Za-z0-9_-]{10,}"},
    Family{"gAAAA", "[A-Za-z0-9_=-]{20,}"},
    Family{"AKIA", "[A-Z0-9]{16}"},
    Family{"rk_live_", "[A-Za-z0-9]{10,}"},
    Family{"SG.", "[A-Za-z0-9_-]{10,}"},
    Family{"hf_", "[A-Za-z0-9]{10,}"},
    Family{"r8_", "[A-Za-z0-9]{10,}"},
    Family{"npm_", "[A-Za-z0-9]{10,}"},
    Family{"pypi-", "[A-Za-z0-9_-]{10,}"},
    Family{"dop_v1_", "[A-Za-z0-9]{10,}"},
    Family{"doo_v1_", "[A-Za-z0-9]{10,}"},
    Family{"am_", "(?:org_)?[A-Za-z0-9]{20,}"},
    Family{"tvly-", "[A-Za-z0-9]{10,}"},
    Family{"exa_", "[A-Za-z0-9]{10,}"},
    Family{"gsk_", "[A-Za-z0-9]{10,}"},
    Family{"syt_", "[A-Za-z0-9]{10,}"},
    Family{"retaindb_", "[A-Za-z0-9]{10,}"},
    Family{"hsk-", "[A-Za-z0-9]{10,}"},
    Family{"mem0_", "[A-Za-z0-9]{10,}"},
    Family{"brv_", "[A-Za-z0-9]{10,}"},
    Family{"xai-", "[A-Za-z0-9]{30,}"},
    Family{"ntn_", "[A-Za-z0-9]{10,}"},
    Family{"fw-", "[A-Za-z0-9]{30,}"},
    Family{"fw_", "[A-Za-z0-9]{30,}"},
    Family{"fpk_", "[A-Za-z0-9]{30,}"},
    Family{"glpat-", "[A-Za-z0-9_-]{10,}"},
    Family{"gloas-", "[A-Za-z0-9_-]{10,}"},
    Family{"gldt-", "[A-Za-z0-9_-]{10,}"},
    Family{"glrtr-", "[A-Za-z0-9_.-]{10,}"},
    Family{"glrt-", "[A-Za-z0-9_.-]{10,}"},
    Family{"glcbt-", "[A-Za-z0-9_-]{10,}"},
    Family{"glptt-", "[A-Za-z0-9_-]{10,}"},
    Family{"glft-", "[A-Za-z0-9_-]{10,}"},
    Family{"glimt-", "[A-Za-z0-9_-]{10,}"},
    Family{"glagent-", "[A-Za-z0-9_-]{10,}"},
    Family{"glsoat-", "[A-Za-z0-9_-]{10,}"},
    Family{"glffct-", "[A-Za-z0-9_-]{10,}"},
    Family{"glwt-", "[A-Za-z0-9_-]{10,}"},
    Family{"GR1348941", "[A-Za-z0-9_-]{10,}"},
    Family{"pk-lf-", "[A-Za-z0-9-]{8,}"},
};

std::string build_prefix_pattern() {
  std::string pattern = "(?:";
  for (size_t i = 0; i < kFamilies.size(); ++i) {
    if (i) pattern += '|';
    pattern += RE2::QuoteMeta(std::string(kFamilies[i].label));
    pattern += kFamilies[i].body;
  }
  return pattern + ")";
}

RE2::Options re_options(bool case_insensitive = false) {
  RE2::Options options;
  options.set_case_sensitive(!case_insensitive);
  options.set_max_mem(64 << 20);
  options.set_log_errors(false);
  return options;
}

// Every pattern of the engine, compiled once on first use.
struct Patterns {
  RE2 prefix{build_prefix_pattern(), re_options()};
  RE2 zhipu{"[0-9a-f]{32}\\.[A-Za-z0-9]{16,}", re_options()};
  RE2 auth_header{
      "((?:proxy-)?authorization:[ \\t]*)([A-Za-z][A-Za-z0-9_.+-]*[ \\t]+)?([^\\s\"']+)",
      re_options(true)};
  RE2 secret_header{
      "((?:x-api-key|x-goog-api-key|api-key|apikey|x-api-token|x-auth-token|"
      "x-access-token)[ \\t]*:[ \\t]*)([^\\s\"']+)",
      re_options(true)};
  RE2 telegram{"(bot)?([0-9]{8,}):([A-Za-z0-9_-]{30,})", re_options()};
  RE2 private_key{"-----BEGIN[A-Z ]*PRIVATE KEY-----(?s:.*?)-----END[A-Z ]*PRIVATE KEY-----",
                  re_options()};
  RE2 db_url{"((?:postgres(?:ql)?|mysql|mongodb(?:\\+srv)?|redis|amqp)://[^:\\s]+:)([^@\\s]+)@",
             re_options(true)};
  RE2 url_token{"((?:https?|wss?|git|ssh|ftp|ftps|sftp)://)([^\\s:@/]{8,})@", re_options(true)};
  RE2 jwt{"eyJ[A-Za-z0-9_-]{10,}(?:\\.[A-Za-z0-9_=-]{4,}){0,2}", re_options()};
  RE2 phone{"\\+[1-9][0-9]{6,14}", re_options()};
  RE2 form_body{"[A-Za-z_][A-Za-z0-9_.-]*=[^&\\s]*(?:&[A-Za-z_][A-Za-z0-9_.-]*=[^&\\s]*)+",
                re_options()};
};

const Patterns& patterns() {
  static const Patterns compiled;
  return compiled;
}

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// True when the bytes before `at` end an escape (`\n`, `\u00e9`, `\x41`):
// JSON-escaped text puts a token right after one, and the escape's last
// character is not a real word boundary.
bool after_escape(std::string_view s, size_t at) {
  if (at >= 2 && s[at - 2] == '\\' && std::isalpha(static_cast<unsigned char>(s[at - 1])))
    return true;
  auto hex_run = [&](size_t n) {
    for (size_t k = 1; k <= n; ++k)
      if (!is_hex(s[at - k])) return false;
    return true;
  };
  if (at >= 6 && s[at - 6] == '\\' && s[at - 5] == 'u' && hex_run(4)) return true;
  return at >= 4 && s[at - 4] == '\\' && s[at - 3] == 'x' && hex_run(2);
}

struct Span {
  size_t begin, end;
};

// Family indices bucketed by the first byte of their label.
using FirstByteIndex = std::array<std::vector<size_t>, 256>;

const FirstByteIndex& families_by_first_byte() {
  static const FirstByteIndex index = [] {
    FirstByteIndex by_first;
    for (size_t i = 0; i < kFamilies.size(); ++i)
      by_first[static_cast<unsigned char>(kFamilies[i].label[0])].push_back(i);
    return by_first;
  }();
  return index;
}

// The first two bytes of every label, one bit per byte pair: most word
// starts fail here without comparing any label. Built at compile time, so
// the hot scan pays no guard for a static's first use.
constexpr std::array<uint64_t, 1024> kLabelPairs = [] {
  std::array<uint64_t, 1024> bits{};
  for (const Family& f : kFamilies) {
    const unsigned pair =
        static_cast<unsigned char>(f.label[0]) << 8 | static_cast<unsigned char>(f.label[1]);
    bits[pair / 64] |= uint64_t{1} << (pair % 64);
  }
  return bits;
}();

// True when the two bytes at `i` begin some family label.
bool label_pair_at(std::string_view text, size_t i) {
  if (i + 1 >= text.size()) return false;
  const unsigned pair =
      static_cast<unsigned char>(text[i]) << 8 | static_cast<unsigned char>(text[i + 1]);
  return (kLabelPairs[pair / 64] >> (pair % 64)) & 1;
}

// True when some family label starts at `i`.
bool label_at(std::string_view text, size_t i) {
  if (!label_pair_at(text, i)) return false;
  std::string_view rest = text.substr(i);
  for (size_t f : families_by_first_byte()[static_cast<unsigned char>(text[i])]) {
    if (starts_with(rest, kFamilies[f].label)) return true;
  }
  return false;
}

// The bytes of a word that are token characters, [A-Za-z0-9_-] (`| 0x20`
// folds the capitals onto the small letters and moves no other byte into
// a-z).
constexpr uint64_t token_bytes(uint64_t word) {
  using namespace word_scan;
  return bytes_between(word | (kOnes * 0x20), 'a' - 1, 'z' + 1) |
         bytes_between(word, '0' - 1, '9' + 1) | bytes_equal(word, '_') | bytes_equal(word, '-');
}

// Whether a label may start at `i`: a label's first two bytes at a token
// boundary, or right after an escape.
bool may_start_token(std::string_view text, size_t i) {
  if (!label_pair_at(text, i)) return false;
  return i == 0 || !is_token_char(text[i - 1]) || after_escape(text, i);
}

// The token at `i`: a label, its body, and no token character after it.
std::optional<Span> token_at(std::string_view text, size_t i, const RE2& re) {
  re2::StringPiece g;
  if (!label_at(text, i) || !re.Match(text, i, text.size(), RE2::ANCHOR_START, &g, 1))
    return std::nullopt;
  const size_t end = i + g.size();
  if (end < text.size() && is_token_char(text[end])) return std::nullopt;
  return Span{i, end};
}

// Of the eight bytes at `i`, those where a token may start (the high bit of
// each): the token characters that follow no token character. Every label
// starts with a letter. With a backslash in them or in the eight bytes
// before, an escape may relieve a boundary inside a token: all eight.
uint64_t token_starts(std::string_view text, size_t i) {
  using namespace word_scan;
  const uint64_t word = load(text.data() + i);
  const bool escape_before = i >= 8 ? any_equal(load(text.data() + i - 8), '\\')
                                    : text.substr(0, i).find('\\') != std::string_view::npos;
  if (any_equal(word, '\\') || escape_before) return kHighBits;
  const uint64_t token = token_bytes(word);
  const uint64_t token_before = token << 8 | (i > 0 && is_token_char(text[i - 1]) ? 0x80 : 0);
  return token & ~token_before;
}

// Every vendor token is at least this long (the shortest: a three-byte
// label and a ten-byte body); tests/core/redact_test.cc checks each family.
constexpr size_t kShortestToken = 13;
static_assert(kShortestToken > 8, "for_each_long_run looks at a word's first and last break only");

// The bytes of a word from `-` to `z`: every byte a vendor token holds (the
// token characters, and `.` and `=` in some bodies) and a few more, which
// only lengthen a run to scan. A blank, a line break or `|` ends a run.
constexpr uint64_t token_run_bytes(uint64_t word) {
  return word_scan::bytes_between(word, '-' - 1, 'z' + 1);
}

bool is_token_run_char(char c) { return c >= '-' && c <= 'z'; }

// Calls `scan(begin, end)` for each maximal run of token-run bytes at least
// `shortest` (> 8) long, eight bytes at a time: a token lies inside such a
// run, and prose (short words) has almost none. Two breaks in one word are
// under eight bytes apart, so only a word's first and last break matter.
template <class Scan>
void for_each_long_run(std::string_view text, size_t shortest, Scan scan) {
  size_t run_start = 0;
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    const uint64_t breaks =
        ~token_run_bytes(word_scan::load(text.data() + i)) & word_scan::kHighBits;
    if (!breaks) continue;
    const size_t first = i + static_cast<size_t>(std::countr_zero(breaks)) / 8;
    if (first >= run_start + shortest) scan(run_start, first);
    run_start = i + static_cast<size_t>(63 - std::countl_zero(breaks)) / 8 + 1;
  }
  for (; i < text.size(); ++i) {
    if (is_token_run_char(text[i])) continue;
    if (i >= run_start + shortest) scan(run_start, i);
    run_start = i + 1;
  }
  if (text.size() >= run_start + shortest) scan(run_start, text.size());
}

// The tokens that start in [begin, end): a word's possible starts come
// from token_starts, each is checked exactly, and RE2 then matches anchored
// there.
void scan_run(std::string_view text, size_t begin, size_t end, const RE2& re,
              std::vector<Span>& out) {
  for (size_t i = begin; i < end;) {
    const size_t block = std::min<size_t>(8, end - i);
    size_t next = i + block;
    uint64_t starts = i + 8 <= text.size() ? token_starts(text, i) : word_scan::kHighBits;
    for (; starts; starts &= starts - 1) {
      const size_t at = i + static_cast<size_t>(__builtin_ctzll(starts)) / 8;
      if (at >= i + block) break;
      if (!may_start_token(text, at)) continue;
      if (auto token = token_at(text, at, re)) {
        out.push_back(*token);
        next = token->end;
        break;
      }
    }
    i = next;
  }
}

// Vendor tokens at a token boundary on both sides: one linear sweep for the
// long runs, then short anchored matches inside them.
std::vector<Span> find_prefix_tokens(std::string_view text) {
  const RE2& re = patterns().prefix;
  std::vector<Span> out;
  for_each_long_run(text, kShortestToken,
                    [&](size_t begin, size_t end) { scan_run(text, begin, end, re, out); });
  return out;
}

// Length in bytes of a control or zero-width character at `i`, else 0:
// C0 controls, DEL, U+200B–U+200F, U+2028–U+202F, U+2060, U+FEFF.
inline size_t control_len(std::string_view s, size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x20 || c == 0x7f) return 1;
  if (c < 0x80 || i + 2 >= s.size()) return 0;
  auto c1 = static_cast<unsigned char>(s[i + 1]);
  auto c2 = static_cast<unsigned char>(s[i + 2]);
  if (c == 0xE2 && c1 == 0x80 && ((c2 >= 0x8B && c2 <= 0x8F) || (c2 >= 0xA8 && c2 <= 0xAF)))
    return 3;
  if (c == 0xE2 && c1 == 0x81 && c2 == 0xA0) return 3;
  if (c == 0xEF && c1 == 0xBB && c2 == 0xBF) return 3;
  return 0;
}

// Token characters and `.` (a table: the window scans ask once per byte).
constexpr std::array<bool, 256> kBodyChars = [] {
  std::array<bool, 256> table = redact_detail::kTokenChars;
  table['.'] = true;
  return table;
}();
bool is_body_char(char c) { return kBodyChars[static_cast<unsigned char>(c)]; }

struct Splice {
  size_t begin, end;
  std::string replacement;
};

// True when a family label starts at `i` once the control characters
// between `i` and `end` are removed (labels are at most 16 bytes).
bool label_across_controls(std::string_view text, size_t i, size_t end) {
  char head[16];
  size_t n = 0;
  while (i < end && n < sizeof head) {
    if (size_t skip = control_len(text, i)) {
      i += skip;
      continue;
    }
    head[n++] = text[i++];
  }
  return label_at(std::string_view(head, n), 0);
}

// A window holds only body and control characters, so with the controls
// removed its token boundaries are its start and the bytes after a `.`:
// the only places where find_prefix_tokens could start a match (a `.` is
// never part of a control character). Most windows (a line break between
// two words) have no label there.
bool window_may_hold_token(std::string_view text, size_t begin, size_t end) {
  if (label_across_controls(text, begin, end)) return true;
  const std::string_view window = text.substr(0, end);  // a search past `end` costs O(n) a window
  for (size_t dot = window.find('.', begin); dot != std::string_view::npos;
       dot = window.find('.', dot + 1))
    if (label_across_controls(text, dot + 1, end)) return true;
  return false;
}

// Tokens split by control characters inside one window (a run of token and
// control characters): match on the stripped copy, then mask the original
// span unless it crosses a line break around a self-matching fragment or
// runs into a `KEY=` name.
void scan_split_window(std::string_view text, size_t begin, size_t end, bool sentinels,
                       std::vector<Splice>& out) {
  if (!window_may_hold_token(text, begin, end)) return;
  std::string stripped;
  std::vector<size_t> origin;
  for (size_t i = begin; i < end;) {
    size_t n = control_len(text, i);
    if (n) {
      i += n;
      continue;
    }
    stripped += text[i];
    origin.push_back(i++);
  }
  for (const Span& t : find_prefix_tokens(stripped)) {
    size_t os = origin[t.begin], oe = origin[t.end - 1] + 1;
    std::string_view span = text.substr(os, oe - os);
    if (span.size() == t.end - t.begin) continue;  // contiguous: the main pass handles it
    bool crosses_line = span.find_first_of("\r\n") != std::string_view::npos;
    if (crosses_line && !find_prefix_tokens(span).empty()) continue;
    if (oe < text.size() && text[oe] == '=') continue;
    std::string token = stripped.substr(t.begin, t.end - t.begin);
    out.push_back({os, oe, sentinels ? sentinel(token) : mask_token(token)});
  }
}

// Replaces each (ordered, disjoint) splice's range of `text`.
void apply_splices(std::string& text, const std::vector<Splice>& splices) {
  if (splices.empty()) return;
  std::string out;
  size_t copied = 0;
  for (const Splice& s : splices) {
    out.append(std::string_view(text).substr(copied, s.begin - copied));
    out += s.replacement;
    copied = s.end;
  }
  out.append(std::string_view(text).substr(copied));
  text = std::move(out);
}

// Where the window around a split point starts: back over body characters
// and control characters (1-byte C0/DEL or a 3-byte zero-width sequence).
size_t window_begin(std::string_view text, size_t at) {
  while (at >= 8) {  // whole words of body characters first
    const uint64_t word = word_scan::load(text.data() + at - 8);
    if ((token_bytes(word) | word_scan::bytes_equal(word, '.')) != word_scan::kHighBits) break;
    at -= 8;
  }
  while (at > 0) {
    if (is_body_char(text[at - 1]) || control_len(text, at - 1) == 1) {
      --at;
    } else if (at >= 3 && control_len(text, at - 3) == 3) {
      at -= 3;
    } else {
      break;
    }
  }
  return at;
}

size_t window_end(std::string_view text, size_t at) {
  while (at < text.size()) {
    size_t n = control_len(text, at);
    if (!n && !is_body_char(text[at])) break;
    at += n ? n : 1;
  }
  return at;
}

// Whether a word holds a byte that may start a control or zero-width
// character (a C0 control, DEL, or any non-ASCII byte).
constexpr uint64_t may_hold_control(uint64_t word) {
  return word_scan::any_below(word, 0x20) | word_scan::any_equal(word, 0x7f) |
         word_scan::any_high(word);
}

// Tokens split by control/zero-width characters. Only a control character
// with a token-body byte on each side (further controls skipped) can split
// one; the tight loop looks for those, then scans just that window.
void redact_split_tokens(std::string& text, bool sentinels) {
  std::vector<Splice> splices;
  size_t scanned = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (i + 8 <= text.size() && !may_hold_control(word_scan::load(text.data() + i))) {
      i += 7;
      continue;
    }
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != 0x7f && c != 0xE2 && c != 0xEF) continue;
    if (i < scanned || !is_body_char(text[i - 1])) continue;
    size_t after = i;
    for (size_t n; after < text.size() && (n = control_len(text, after)) != 0;) after += n;
    if (after == i || after >= text.size() || !is_body_char(text[after])) continue;
    size_t begin = window_begin(text, i), end = window_end(text, after);
    // Shorter than any token even with its controls (a line break between
    // two words): nothing to find.
    if (end - begin >= kShortestToken) scan_split_window(text, begin, end, sentinels, splices);
    scanned = end;
  }
  apply_splices(text, splices);
}

void redact_prefix_tokens(std::string& text, bool sentinels) {
  redact_split_tokens(text, sentinels);
  std::vector<Splice> splices;
  for (const Span& t : find_prefix_tokens(text)) {
    std::string_view token = std::string_view(text).substr(t.begin, t.end - t.begin);
    splices.push_back({t.begin, t.end, sentinels ? sentinel(token) : mask_token(token)});
  }
  apply_splices(text, splices);
}

bool already_masked(std::string_view value) {
  return value == "***" || starts_with(value, "«redacted");
}

// The credential of a header match (group `value_group`) masked, the rest kept.
std::optional<std::string> mask_header_value(const Match& m, size_t value_group) {
  std::string_view value = m.groups[value_group];
  if (already_masked(value)) return std::nullopt;
  std::string out(m.text.substr(m.begin, m.offset(value_group) - m.begin));
  return out + mask_token(value);
}

// Where a header name ends just before a `:` (blanks allowed): the start of
// the name, for each name in `names` (lower case).
std::vector<size_t> header_starts(std::string_view text,
                                  std::initializer_list<std::string_view> names) {
  std::vector<size_t> starts;
  for (size_t at = text.find(':'); at != std::string_view::npos; at = text.find(':', at + 1)) {
    size_t end = at;
    while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
    size_t begin = end;
    while (begin > 0 && (is_token_char(text[begin - 1]))) --begin;
    if (end - begin > 24) continue;
    std::string word = to_lower(text.substr(begin, end - begin));
    for (std::string_view name : names) {
      // `x-api-key` also ends `api-key`: the longest name wins by position.
      if (ends_with(word, name) &&
          (word.size() == name.size() || word[word.size() - name.size() - 1] == '-')) {
        starts.push_back(end - name.size());
        break;
      }
    }
  }
  return starts;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }

// Telegram candidates: `[bot]<8+ digits>:` — the start of the digit run
// (or of `bot`).
std::vector<size_t> telegram_starts(std::string_view text) {
  std::vector<size_t> starts;
  for (size_t at = text.find(':'); at != std::string_view::npos; at = text.find(':', at + 1)) {
    size_t begin = at;
    while (begin > 0 && is_digit(text[begin - 1])) --begin;
    if (at - begin < 8) continue;
    if (begin >= 3 && text.substr(begin - 3, 3) == "bot") begin -= 3;
    starts.push_back(begin);
  }
  return starts;
}

// Zhipu candidates: 32 lower-case hex digits right before a `.`.
std::vector<size_t> zhipu_starts(std::string_view text) {
  std::vector<size_t> starts;
  for (size_t at = text.find('.'); at != std::string_view::npos; at = text.find('.', at + 1)) {
    if (at < 32) continue;
    bool hex = true;
    for (size_t k = at - 32; k < at && hex; ++k) hex = is_lower_hex(text[k]);
    if (hex) starts.push_back(at - 32);
  }
  return starts;
}

// Every offset where `literal` occurs.
std::vector<size_t> literal_starts(std::string_view text, std::string_view literal) {
  std::vector<size_t> starts;
  for (size_t at = find_bytes(text, literal); at != std::string_view::npos;
       at = find_bytes(text, literal, at + literal.size()))
    starts.push_back(at);
  return starts;
}

void redact_zhipu(std::string& text, bool sentinels) {
  auto edge = [](char c) { return is_token_char(c) || c == '.'; };
  substitute_at(text, patterns().zhipu, zhipu_starts(text),
                [&](const Match& m) -> std::optional<std::string> {
                  if (m.begin > 0 && edge(m.text[m.begin - 1])) return std::nullopt;
                  if (m.end < m.text.size() && edge(m.text[m.end])) return std::nullopt;
                  return sentinels ? std::string("«redacted-secret»") : mask_token(m.groups[0]);
                });
}

void redact_auth_headers(std::string& text) {
  substitute_at(text, patterns().auth_header,
                header_starts(text, {"proxy-authorization", "authorization"}),
                [](const Match& m) { return mask_header_value(m, 3); });
}

void redact_secret_headers(std::string& text) {
  substitute_at(text, patterns().secret_header,
                header_starts(text, {"x-api-key", "x-goog-api-key", "api-key", "apikey",
                                     "x-api-token", "x-auth-token", "x-access-token"}),
                [](const Match& m) { return mask_header_value(m, 2); });
}

void redact_telegram(std::string& text) {
  substitute_at(text, patterns().telegram, telegram_starts(text),
                [](const Match& m) -> std::optional<std::string> {
                  return std::string(m.groups[1]) + std::string(m.groups[2]) + ":***";
                });
}

// Where each URL scheme before a `://` starts.
std::vector<size_t> scheme_starts(std::string_view text) {
  std::vector<size_t> starts;
  for (size_t at : literal_starts(text, "://")) {
    size_t begin = at;
    while (begin > 0 &&
           (std::isalnum(static_cast<unsigned char>(text[begin - 1])) || text[begin - 1] == '+'))
      --begin;
    if (begin < at) starts.push_back(begin);
  }
  return starts;
}

void redact_urls(std::string& text) {
  substitute_at(text, patterns().db_url, scheme_starts(text),
                [](const Match& m) -> std::optional<std::string> {
                  std::string_view pw = m.groups[2];
                  // An f-string/template placeholder names a variable, not a password.
                  if (pw.size() >= 2 && pw.front() == '{' && pw.back() == '}') return std::nullopt;
                  return std::string(m.groups[1]) + "***@";
                });
  substitute_at(text, patterns().url_token, scheme_starts(text),
                [](const Match& m) -> std::optional<std::string> {
                  if (already_masked(m.groups[2])) return std::nullopt;
                  return std::string(m.groups[1]) + mask_token(m.groups[2]) + "@";
                });
}

// Phone candidates: a `+` followed by at least seven digits, the first not
// 0 (`a + 7` in code never reaches the regex).
std::vector<size_t> phone_starts(std::string_view text) {
  std::vector<size_t> starts;
  for (size_t at : literal_starts(text, "+")) {
    size_t digits = 0;
    while (digits < 7 && at + 1 + digits < text.size() && is_digit(text[at + 1 + digits])) ++digits;
    if (digits == 7 && text[at + 1] != '0') starts.push_back(at);
  }
  return starts;
}

void redact_phones(std::string& text) {
  substitute_at(text, patterns().phone, phone_starts(text),
                [](const Match& m) -> std::optional<std::string> {
                  if (m.end < m.text.size() && is_alnum(m.text[m.end])) return std::nullopt;
                  if (m.begin > 0 && is_alnum(m.text[m.begin - 1])) return std::nullopt;
                  std::string_view phone = m.groups[0];
                  size_t keep = phone.size() <= 8 ? 2 : 4;
                  return std::string(phone.substr(0, keep)) + "****" +
                         std::string(phone.substr(phone.size() - keep));
                });
}

constexpr std::array<std::string_view, 16> kSensitiveParams = {
    "access_token",  "refresh_token", "id_token",  "token", "api_key", "apikey",
    "client_secret", "password",      "auth",      "jwt",   "session", "secret",
    "key",           "code",          "signature", "sig"};

// A whole text that is one `k=v&k=v` form body: sensitive values → `***`.
void redact_form_body(std::string& text) {
  std::string_view body = text;
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.front())))
    body.remove_prefix(1);
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back())))
    body.remove_suffix(1);
  if (body.find('\n') != std::string_view::npos || !RE2::FullMatch(body, patterns().form_body))
    return;
  std::string out;
  for (const std::string& pair : split(body, '&')) {
    size_t eq = pair.find('=');
    std::string key = to_lower(pair.substr(0, eq));
    bool hide =
        std::find(kSensitiveParams.begin(), kSensitiveParams.end(), key) != kSensitiveParams.end();
    if (!out.empty()) out += '&';
    out += hide ? pair.substr(0, eq) + "=***" : pair;
  }
  text = std::move(out);
}

bool contains(std::string_view text, std::string_view needle) {
  return find_bytes(text, needle) != std::string_view::npos;
}

}  // namespace

namespace redact_detail {

std::string_view vendor_label(std::string_view token) {
  std::string_view best;
  for (const Family& f : kFamilies) {
    if (f.label.size() > best.size() && starts_with(token, f.label)) best = f.label;
  }
  return best;
}

std::string sentinel(std::string_view token) {
  std::string_view label = vendor_label(token);
  if (label.empty()) return "«redacted-secret»";
  return "«redacted:" + std::string(label) + "…»";
}

}  // namespace redact_detail

bool redaction_enabled(const Config& config) {
  return config.get_bool("security.redact_secrets", true, "HERMES_REDACT_SECRETS");
}

bool is_secret_bearing_file(std::string_view path) {
  static constexpr std::array<std::string_view, 15> kNames = {
      ".env",         ".env.local", ".env.development", ".env.production", ".env.test",
      ".env.staging", ".envrc",     ".bashrc",          ".bash_profile",   ".bash_login",
      ".profile",     ".zshrc",     ".zprofile",        ".zlogin",         ".zshenv"};
  size_t slash = path.find_last_of('/');
  std::string dir(slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash));
  std::string base = to_lower(slash == std::string_view::npos ? path : path.substr(slash + 1));
  if (std::find(kNames.begin(), kNames.end(), base) != kNames.end()) return true;
  if (base != "config.yaml" && !starts_with(base, "config.yaml.good.") &&
      !starts_with(base, "config.yaml.corrupt."))
    return false;
  if (contains("/" + dir + "/", "/.hermes/")) return true;
  std::string home = PathResolver::real_path(Config::default_home());
  return is_within(PathResolver::real_path(dir), home);
}

std::string redact_secrets(std::string_view text, const RedactOptions& options) {
  if (text.empty()) return std::string(text);
  const bool sentinels = options.mode == RedactMode::kFileRead;
  std::string out(text);  // the one copy: each pass rebuilds it only to change it
  if (contains(out, "PRIVATE KEY-----"))
    substitute(out, patterns().private_key,
               [](const Match&) { return std::optional<std::string>("[REDACTED PRIVATE KEY]"); });
  redact_prefix_tokens(out, sentinels);
  redact_zhipu(out, sentinels);
  if (options.assignments)
    redact_detail::redact_assignments(out, sentinels);
  else if (options.mode == RedactMode::kOutput)
    redact_detail::redact_diagnostic_repr_fields(out);
  if (contains(out, ":")) {
    redact_auth_headers(out);
    redact_secret_headers(out);
    redact_telegram(out);
  }
  if (contains(out, "://") && contains(out, "@")) redact_urls(out);
  if (contains(out, "eyJ"))
    substitute_at(out, patterns().jwt, literal_starts(out, "eyJ"), [](const Match& m) {
      return std::optional<std::string>(mask_token(m.groups[0]));
    });
  if (contains(out, "&") && contains(out, "=")) redact_form_body(out);
  if (contains(out, "+")) redact_phones(out);
  return out;
}

}  // namespace hermes
