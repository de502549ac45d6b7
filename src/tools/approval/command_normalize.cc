// SPDX-License-Identifier: MIT
// Normalisation and variant generation for the dangerous-command detector.
// Everything is linear-time (RE2 or single passes): input is hostile.
#include "tools/approval/command_normalize.h"

#include <re2/re2.h>
#include <utf8proc.h>

#include <cstdlib>
#include <map>

namespace hermes::approval {
namespace {

constexpr size_t kMaxChars = 128'000;
constexpr size_t kMaxUnseparated = 4'096;
constexpr size_t kMaxSeparators = 25'000;
constexpr int kMaxDepth = 3;

// Confusable letters NFKC leaves alone (Cyrillic/Greek look-alikes), and
// invisible characters that split words.
const std::map<std::string, std::string>& lookalikes() {
  static const std::map<std::string, std::string> kMap = {
      {"\u0430", "a"}, {"\u0435", "e"}, {"\u043e", "o"}, {"\u0440", "p"}, {"\u0441", "c"},
      {"\u0445", "x"}, {"\u0443", "y"}, {"\u0456", "i"}, {"\u0455", "s"}, {"\u0501", "d"},
      {"\u04cf", "l"}, {"\u043c", "m"}, {"\u0433", "r"}, {"\u0432", "b"}, {"\u043a", "k"},
      {"\u03bf", "o"}, {"\u03b1", "a"}, {"\u03c1", "p"}, {"\u0391", "A"}, {"\u039c", "M"},
      {"\u0420", "P"}, {"\u0421", "C"}, {"\u0415", "E"}, {"\u041e", "O"}, {"\u2044", "/"},
      {"\u2215", "/"}, {"\u200b", ""},  {"\u200c", ""},  {"\u200d", ""},  {"\u2060", ""},
      {"\ufeff", ""},  {"\u00ad", ""},  {"\u2212", "-"}, {"\u2010", "-"}, {"\u2011", "-"},
      {"\u2013", "-"}, {"\u2014", "-"},
  };
  return kMap;
}

std::string nfkc(const std::string& text) {
  utf8proc_uint8_t* out = utf8proc_NFKC(reinterpret_cast<const utf8proc_uint8_t*>(text.c_str()));
  if (!out) return text;  // invalid UTF-8: match the bytes as they are
  std::string result(reinterpret_cast<char*>(out));
  std::free(out);
  return result;
}

std::string fold_lookalikes(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    auto b = static_cast<unsigned char>(text[i]);
    size_t len = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
    len = std::min(len, text.size() - i);
    std::string cp = text.substr(i, len);
    auto it = len > 1 ? lookalikes().find(cp) : lookalikes().end();
    out += it == lookalikes().end() ? cp : it->second;
    i += len;
  }
  return out;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size()) {
    text.replace(pos, from.size(), to);
  }
}

// `r\m` → `rm`; a backslash before a newline joins lines.
std::string unescape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      if (text[i + 1] != '\n') out += text[i + 1];
      ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One `$'…'` body with \xHH, \NNN (octal) and \n-style escapes decoded.
std::string decode_ansi_c(std::string_view body) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 >= body.size()) {
      out += body[i];
      continue;
    }
    char c = body[++i];
    if (c == 'x' && i + 1 < body.size() && hex_value(body[i + 1]) >= 0) {
      int v = hex_value(body[++i]);
      if (i + 1 < body.size() && hex_value(body[i + 1]) >= 0) v = v * 16 + hex_value(body[++i]);
      out += static_cast<char>(v);
    } else if (c >= '0' && c <= '7') {
      int v = c - '0';
      for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7';
           ++k) {
        v = v * 8 + (body[++i] - '0');
      }
      out += static_cast<char>(v);
    } else {
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    }
  }
  return out;
}

// `$'\x72\x6d'` → `rm`: bash's ANSI-C quoting hides command words.
std::string decode_ansi_c_quotes(const std::string& text) {
  std::string out;
  size_t pos = 0;
  for (size_t start; (start = text.find("$'", pos)) != std::string::npos;) {
    size_t end = start + 2;
    while (end < text.size() && text[end] != '\'') end += text[end] == '\\' ? 2 : 1;
    if (end >= text.size()) break;
    out.append(text, pos, start - pos);
    out += decode_ansi_c(std::string_view(text).substr(start + 2, end - start - 2));
    pos = end + 1;
  }
  return out + text.substr(pos);
}

// `x=rm; $x -rf /` → `x=rm; rm -rf /`.
void substitute_variables(std::string& text) {
  static const RE2 kAssign(R"((?:^|[\s;&|(])([A-Za-z_]\w*)=([^\s;&|()]+))");
  re2::StringPiece input(text);
  std::string name, value;
  std::vector<std::pair<std::string, std::string>> vars;
  while (vars.size() < 32 && RE2::FindAndConsume(&input, kAssign, &name, &value)) {
    std::erase_if(value, [](char c) { return c == '\'' || c == '"'; });
    vars.emplace_back(name, value);
  }
  for (const auto& [n, v] : vars) {
    replace_all(text, "${" + n + "}", v);
    // Only whole names: `$xy` must not take `$x`'s value.
    RE2 ref("\\$" + n + "\\b");
    RE2::GlobalReplace(&text, ref, v);
  }
}

}  // namespace

std::string fold_text(std::string_view command) {
  static const RE2 kAnsi(R"(\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b.)");
  std::string text(command);
  std::erase(text, '\0');
  RE2::GlobalReplace(&text, kAnsi, "");
  return fold_lookalikes(nfkc(text));
}

std::string normalize_command(std::string_view command) {
  static const RE2 kEmptyQuotes(R"(''|"")");
  static const RE2 kIfs(R"(\$\{IFS\}|\$IFS\b)");
  static const RE2 kEchoSubst(R"(\$\(\s*(?:echo|printf)\s+(?:-\w+\s+)?['"]?([\w./+-]*)['"]?\s*\))");
  static const RE2 kBacktickEcho(R"(`\s*(?:echo|printf)\s+['"]?([\w./+-]*)['"]?\s*`)");
  static const RE2 kDefault(R"(\$\{\w+:?[-=]([\w./+-]*)\})");
  std::string text = fold_text(command);
  replace_all(text, "\\\n", "");
  if (const char* home = std::getenv("HOME"); home && std::string_view(home).size() > 1) {
    replace_all(text, home, "~");
  }
  if (const char* hh = std::getenv("HERMES_HOME"); hh && *hh) replace_all(text, hh, "~/.hermes");
  RE2::GlobalReplace(&text, kIfs, " ");
  text = unescape(decode_ansi_c_quotes(text));
  RE2::GlobalReplace(&text, kEmptyQuotes, "");
  RE2::GlobalReplace(&text, kEchoSubst, "\\1");
  RE2::GlobalReplace(&text, kBacktickEcho, "\\1");
  RE2::GlobalReplace(&text, kDefault, "\\1");
  substitute_variables(text);
  return text;
}

namespace {

bool is_separator(std::string_view text, size_t i) {
  char c = text[i];
  if (c == ';' || c == '\n' || c == '&' || c == '|' || c == '(' || c == ')' || c == '`') {
    return true;
  }
  // Brace groups only as words: `${HOME}` is not a separator.
  bool word_start = i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t';
  bool word_end = i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\t';
  return (c == '{' || c == '}') && word_start && word_end;
}

// Drops leading shell keywords so a segment starts at its command word.
std::string strip_keywords(std::string segment) {
  static const RE2 kKeyword(R"(^\s*(?:then|do|else|elif|if|while|until|!|time)\s+)");
  while (RE2::Replace(&segment, kKeyword, "")) {
  }
  size_t start = segment.find_first_not_of(" \t");
  return start == std::string::npos ? "" : segment.substr(start);
}

CommandTexts split_texts(const std::string& text) {
  CommandTexts out;
  std::string segment;
  char quote = 0;
  auto flush = [&] {
    std::string s = strip_keywords(segment);
    if (!s.empty()) out.segments.push_back(std::move(s));
    segment.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
        out.masked += c;
        continue;
      }
      out.plain += c;
      segment += c;
      out.masked += ' ';
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      out.masked += c;
      continue;
    }
    out.plain += c;
    out.masked += c;
    if (is_separator(text, i)) {
      flush();
      continue;
    }
    segment += c;
  }
  flush();
  return out;
}

// The quoted payloads of nested shells, eval, env -S and interpreter flags.
std::vector<std::string> payloads(const std::string& text) {
  static const RE2 kNested[] = {
      RE2(R"((?:^|[\s;&|(`])(?:\S*/)?(?:ba|z|k|da|a|fi)?sh\s+(?:-\w+\s+)*-\w*c\w*\s+'([^']*)')"),
      RE2(R"re((?:^|[\s;&|(`])(?:\S*/)?(?:ba|z|k|da|a|fi)?sh\s+(?:-\w+\s+)*-\w*c\w*\s+"([^"]*)")re"),
      RE2(R"(\beval\s+'([^']*)')"),
      RE2(R"re(\beval\s+"([^"]*)")re"),
      RE2(R"(\benv\s+(?:-\S+\s+)*-S\s*'([^']*)')"),
      RE2(R"re(\benv\s+(?:-\S+\s+)*-S\s*"([^"]*)")re"),
      RE2(R"(\b(?:echo|printf)\s+(?:-\w+\s+)*'([^']*)'\s*\|\s*(?:\S*/)?(?:ba|z|k|da|a)?sh\b)"),
      RE2(R"re(\b(?:echo|printf)\s+(?:-\w+\s+)*"([^"]*)"\s*\|\s*(?:\S*/)?(?:ba|z|k|da|a)?sh\b)re"),
      RE2(R"(\b(?:python[\d.]*|perl|ruby|node|php)\s+(?:-\w+\s+)*-[ceE]\s+'([^']*)')"),
      RE2(R"re(\b(?:python[\d.]*|perl|ruby|node|php)\s+(?:-\w+\s+)*-[ceE]\s+"([^"]*)")re"),
  };
  std::vector<std::string> found;
  for (const RE2& re : kNested) {
    re2::StringPiece input(text);
    std::string payload;
    while (found.size() < 16 && RE2::FindAndConsume(&input, re, &payload)) {
      found.push_back(payload);
    }
  }
  return found;
}

void collect(const std::string& command, int depth, std::vector<CommandTexts>& out) {
  std::string normalized = normalize_command(command);
  out.push_back(split_texts(normalized));
  if (depth >= kMaxDepth) return;
  for (const std::string& payload : payloads(normalized)) collect(payload, depth + 1, out);
}

}  // namespace

std::vector<CommandTexts> command_variants(std::string_view command) {
  std::vector<CommandTexts> out;
  collect(std::string(command), 0, out);
  return out;
}

bool exceeds_parser_limits(std::string_view command) {
  if (command.size() > kMaxChars) return true;
  size_t separators = 0;
  for (size_t i = 0; i < command.size(); ++i) separators += is_separator(command, i);
  return separators >= kMaxSeparators || (command.size() > kMaxUnseparated && separators == 0);
}

}  // namespace hermes::approval
