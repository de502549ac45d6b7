// SPDX-License-Identifier: MIT
// The assignment passes of the redaction engine (KEY=value, `key: value`,
// JSON fields, Python repr fields): run only on secret-bearing text, because
// ordinary source keeps `MAX_TOKENS=100` and `"apiKey": "test"` fixtures.
#include "core/redact_internal.h"
#include "core/strings.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace hermes::redact_detail {
namespace {

RE2::Options options(bool case_insensitive) {
  RE2::Options o;
  o.set_case_sensitive(!case_insensitive);
  o.set_log_errors(false);
  return o;
}

constexpr std::string_view kQuoted = R"(("[^"\n]*"|'[^'\n]*'|[^\s"'][^\s]*))";

struct AssignPatterns {
  // KEY=value anywhere (`export KEY=v`, `5|API_KEY = "v"`).
  RE2 env{std::string("([A-Za-z0-9_.-]+)[ \\t]*=[ \\t]*") + std::string(kQuoted), options(false)};
  // `key: value` at line start, after an optional rendered gutter.
  RE2 yaml{std::string("(?m)^[ \\t]*(?:[0-9]+(?:[|:-]|\\t)[ \\t]*)?([A-Za-z0-9_.-]+)(:[ \\t]*)") +
               std::string(kQuoted),
           options(false)};
  RE2 json{
      "(\"(?:api_?key|token|secret|password|access_token|refresh_token|auth_token|bearer|"
      "secret_value|raw_secret|secret_input|key_material)\")[ \\t]*:[ \\t]*\"([^\"]+)\"",
      options(true)};
  RE2 json_escaped{
      "(\\\\\"(?:api_?key|token|secret|password|access_token|refresh_token|"
      "auth_token|bearer)\\\\\")[ \\t]*:[ \\t]*\\\\\"([^\"\\\\]+)\\\\\"",
      options(true)};
  RE2 repr{
      "'([A-Za-z_][A-Za-z0-9_]*)'([ \\t]*:[ \\t]*)([bB]?)(?:'((?:\\\\.|[^'\\\\\\n])+)'|"
      "\"((?:\\\\.|[^\"\\\\\\n])+)\")",
      options(false)};
  RE2 diagnostic_line{
      "(?m)^(?:[ \\t]*E[ \\t]{2,}|(?:[A-Za-z_][A-Za-z0-9_]*\\.)*[A-Za-z_]"
      "[A-Za-z0-9_]*(?:Error|Exception|Warning):)[^\\n]*",
      options(false)};
};

const AssignPatterns& assign_patterns() {
  static const AssignPatterns compiled;
  return compiled;
}

bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

// Word edges: key edge, a non-letter neighbour, or a camelCase transition
// (`clientSecret`, `APIToken`). One trailing plural `s` is absorbed.
bool word_start(std::string_view s, size_t i) {
  if (i == 0) return true;
  char prev = s[i - 1], cur = s[i];
  if (!is_alpha(prev) || (is_upper(cur) && is_lower(prev))) return true;
  return is_upper(cur) && is_upper(prev) && i + 1 < s.size() && is_lower(s[i + 1]);
}

bool word_end(std::string_view s, size_t j, bool allow_plural = true) {
  if (j >= s.size()) return true;
  char cur = s[j];
  if (!is_alpha(cur) || (is_upper(cur) && is_lower(s[j - 1]))) return true;
  return allow_plural && (cur == 's' || cur == 'S') && word_end(s, j + 1, false);
}

// Keyword spellings; compounds join their halves with nothing or one of `_-. `.
std::vector<std::string> compounds(std::initializer_list<std::string_view> heads,
                                   std::initializer_list<std::string_view> tails) {
  std::vector<std::string> out;
  for (auto h : heads)
    for (auto t : tails)
      for (std::string_view sep : {"", "_", "-", ".", " "})
        out.push_back(std::string(h) + std::string(sep) + std::string(t));
  return out;
}

std::vector<std::string> with(std::vector<std::string> list,
                              std::initializer_list<std::string_view> more) {
  for (auto w : more) list.emplace_back(w);
  return list;
}

// Any keyword (lower-case spelling) occurring in `key` at word edges.
bool has_bounded_keyword(std::string_view key, const std::vector<std::string>& keywords) {
  std::string lower = to_lower(key);
  for (const std::string& kw : keywords) {
    for (size_t at = lower.find(kw); at != std::string::npos; at = lower.find(kw, at + 1)) {
      if (word_start(key, at) && word_end(key, at + kw.size())) return true;
    }
  }
  return false;
}

const std::vector<std::string>& secret_keywords() {
  static const auto list =
      with(compounds({"api", "auth", "access", "refresh", "session", "secret"}, {"key", "token"}),
           {"token", "secret", "passwd", "password", "pass", "pw", "credential", "auth", "key"});
  return list;
}

const std::vector<std::string>& strong_keywords() {
  static const auto list = with(
      compounds({"api", "auth", "access", "refresh", "session", "id", "bearer"}, {"key", "token"}),
      {"keymaterial", "key_material", "secret", "passwd", "password", "pass", "pw", "credential",
       "auth", "bearer"});
  return list;
}

const std::vector<std::string>& yaml_keywords() {
  static const auto list =
      with(compounds({"api"}, {"key"}), {"token", "secret", "passwd", "password", "credential"});
  return list;
}

const std::vector<std::string>& password_keywords() {
  static const std::vector<std::string> list = {"passwd", "password", "pass", "pw"};
  return list;
}

bool all_of(std::string_view v, std::string_view allowed_extra, bool hex_only = false) {
  return std::all_of(v.begin(), v.end(), [&](char c) {
    if (hex_only) return std::isxdigit(static_cast<unsigned char>(c)) != 0;
    return std::isalnum(static_cast<unsigned char>(c)) ||
           allowed_extra.find(c) != std::string_view::npos;
  });
}

// Shape test for values under ambiguous keys (`token`, `key`).
bool looks_opaque(std::string_view v) {
  if (v.size() >= 16 && all_of(v, "", true)) return true;
  if (v.size() >= 20 && all_of(v, "_./+=-")) return true;
  if (v.size() < 12) return false;
  int kinds = std::any_of(v.begin(), v.end(), is_lower) +
              std::any_of(v.begin(), v.end(), is_upper) +
              std::any_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
  return kinds >= 2;
}

// A path segment that is really a secret (16+ chars, mixed case and digits).
bool opaque_segment(std::string_view seg) {
  return seg.size() >= 16 && seg.find('.') == std::string_view::npos && looks_opaque(seg) &&
         std::any_of(seg.begin(), seg.end(), is_lower) &&
         std::any_of(seg.begin(), seg.end(), is_upper);
}

// `$VAR`, `$(cmd`, `~/x` or `/abs/path`: configuration, not a credential.
bool is_reference(std::string_view v) {
  if (v.size() >= 2 && v[0] == '$' && (is_alpha(v[1]) || v[1] == '_' || v[1] == '{' || v[1] == '('))
    return true;
  if (v.empty() || (v[0] != '/' && v[0] != '~')) return false;
  for (const std::string& seg : split(v, '/'))
    if (opaque_segment(seg)) return false;
  return true;
}

bool should_redact(std::string_view key, std::string_view value, bool check_keyword) {
  for (std::string_view lookup : {"os.getenv", "os.environ", "process.env", "$ENV{"})
    if (starts_with(value, lookup)) return false;
  if (value == "***" || starts_with(value, "«redacted")) return false;
  if (check_keyword && !has_bounded_keyword(key, secret_keywords())) return false;
  if (is_reference(value) && !has_bounded_keyword(key, password_keywords())) return false;
  return has_bounded_keyword(key, strong_keywords()) || looks_opaque(value);
}

std::string mask_value(std::string_view value, bool sentinels) {
  return sentinels ? sentinel(value) : mask_token(value);
}

// Replaces the value group `vg` of an assignment, keeping its quotes.
std::optional<std::string> render_quoted(const Match& m, size_t kg, size_t vg, bool sentinels,
                                         bool check_keyword,
                                         const std::vector<std::string>* names) {
  std::string_view key = m.groups[kg];
  std::string_view raw = m.groups[vg];
  bool quoted = raw.size() >= 2 && (raw[0] == '"' || raw[0] == '\'') && raw.back() == raw[0];
  std::string_view value = quoted ? raw.substr(1, raw.size() - 2) : raw;
  // Lower-case config keys stop at `&` (form bodies go pair by pair).
  if (!quoted && std::any_of(key.begin(), key.end(), is_lower))
    value = value.substr(0, value.find('&'));
  if (value.empty() || value[0] == '=' || value.find("://") != std::string_view::npos)
    return std::nullopt;
  if (names && !has_bounded_keyword(key, *names)) return std::nullopt;
  if (!should_redact(key, value, check_keyword)) return std::nullopt;
  size_t value_at = m.offset(vg) + (quoted ? 1 : 0);
  std::string out(m.text.substr(m.begin, value_at - m.begin));
  out += mask_value(value, sentinels);
  out += m.text.substr(value_at + value.size(), m.end - value_at - value.size());
  return out;
}

bool is_repr_secret_key(std::string_view key) {
  static constexpr std::array<std::string_view, 20> kExact = {
      "access_token", "refresh_token", "id_token",      "auth_token",   "token",
      "api_key",      "apikey",        "client_secret", "secret",       "password",
      "passwd",       "private_key",   "credential",    "credentials",  "authorization",
      "bearer",       "secret_value",  "raw_secret",    "secret_input", "key_material"};
  std::string folded = to_lower(key);
  if (std::find(kExact.begin(), kExact.end(), folded) != kExact.end()) return true;
  for (std::string_view suffix :
       {"apikey", "api_key", "token", "secret", "password", "passwd", "credential", "credentials"})
    if (ends_with(folded, suffix)) return true;
  return false;
}

void redact_repr_fields(std::string& text) {
  substitute(text, assign_patterns().repr, [](const Match& m) -> std::optional<std::string> {
    if (!is_repr_secret_key(m.groups[1])) return std::nullopt;
    bool single = m.groups[4].data() != nullptr;
    std::string_view value = single ? m.groups[4] : m.groups[5];
    if (starts_with(value, "os.getenv") || starts_with(value, "os.environ") ||
        value.find("***") != std::string_view::npos || starts_with(value, "«redacted:"))
      return std::nullopt;
    std::string quote = single ? "'" : "\"";
    return "'" + std::string(m.groups[1]) + "'" + std::string(m.groups[2]) +
           std::string(m.groups[3]) + quote + "***" + quote;
  });
}

}  // namespace

void redact_assignments(std::string& out, bool sentinels) {
  const AssignPatterns& p = assign_patterns();
  if (out.find('=') != std::string::npos) {
    substitute(out, p.env, [&](const Match& m) {
      if (m.begin > 0 && (is_token_char(m.text[m.begin - 1]) || m.text[m.begin - 1] == '.'))
        return std::optional<std::string>();
      return render_quoted(m, 1, 2, sentinels, true, nullptr);
    });
  }
  if (out.find(':') == std::string::npos) return;
  if (out.find('"') != std::string::npos) {
    substitute(out, p.json, [&](const Match& m) -> std::optional<std::string> {
      if (!should_redact(m.groups[1], m.groups[2], false)) return std::nullopt;
      return std::string(m.groups[1]) + ": \"" + mask_value(m.groups[2], sentinels) + "\"";
    });
    substitute(out, p.json_escaped, [&](const Match& m) -> std::optional<std::string> {
      if (!should_redact(m.groups[1], m.groups[2], false)) return std::nullopt;
      return std::string(m.groups[1]) + ": \\\"" + mask_value(m.groups[2], sentinels) + "\\\"";
    });
  }
  if (out.find('\'') != std::string::npos) redact_repr_fields(out);
  substitute(out, p.yaml, [&](const Match& m) {
    return render_quoted(m, 1, 3, sentinels, true, &yaml_keywords());
  });
}

void redact_diagnostic_repr_fields(std::string& text) {
  if (text.find('\'') == std::string::npos) return;
  substitute(text, assign_patterns().diagnostic_line,
             [](const Match& m) -> std::optional<std::string> {
               std::string line(m.groups[0]);
               redact_repr_fields(line);
               if (line == m.groups[0]) return std::nullopt;
               return line;
             });
}

}  // namespace hermes::redact_detail
