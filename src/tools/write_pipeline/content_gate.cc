// SPDX-License-Identifier: MIT
// Content checks for writes; parsers: nlohmann-json, yaml-cpp, toml++.
#include "tools/write_pipeline/content_gate.h"

#include "json/json.h"

#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>

namespace hermes::write_pipeline {
namespace {

// The code point of the WTF-8 surrogate at `i` (ED A0..BF xx), or 0.
unsigned surrogate_at(std::string_view s, size_t i) {
  if (i + 2 >= s.size()) return 0;
  auto b0 = static_cast<unsigned char>(s[i]);
  auto b1 = static_cast<unsigned char>(s[i + 1]);
  auto b2 = static_cast<unsigned char>(s[i + 2]);
  if (b0 != 0xED || b1 < 0xA0 || b1 > 0xBF || (b2 & 0xC0) != 0x80) return 0;
  return 0xD000u | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
}

bool is_escaped_byte(unsigned cp) { return cp >= 0xDC80 && cp <= 0xDCFF; }

std::string toml_error(std::string_view content) {
#if TOML_EXCEPTIONS
  try {
    (void)toml::parse(content);
    return "";
  } catch (const toml::parse_error& e) {
    return std::string(e.description()) + " (line " + std::to_string(e.source().begin.line) +
           ", column " + std::to_string(e.source().begin.column) + ")";
  }
#else
  auto result = toml::parse(content);
  if (result) return "";
  const auto& e = result.error();
  return std::string(e.description()) + " (line " + std::to_string(e.source().begin.line) +
         ", column " + std::to_string(e.source().begin.column) + ")";
#endif
}

std::string yaml_error(std::string_view content) {
  try {
    (void)YAML::LoadAll(std::string(content));
    return "";
  } catch (const YAML::Exception& e) {
    return e.what();
  }
}

std::string json_error(std::string_view content) {
  try {
    Json parsed = Json::parse(content);
    return "";
  } catch (const Json::exception& e) {
    return e.what();
  }
}

}  // namespace

std::optional<std::string> find_lone_surrogate(std::string_view content) {
  for (size_t i = content.find('\xED'); i != std::string_view::npos;
       i = content.find('\xED', i + 1)) {
    unsigned cp = surrogate_at(content, i);
    if (cp == 0 || is_escaped_byte(cp)) continue;
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\u%04x", cp);
    return std::string(buf);
  }
  return std::nullopt;
}

std::string decode_surrogate_escapes(std::string_view content) {
  if (content.find('\xED') == std::string_view::npos) return std::string(content);
  std::string out;
  out.reserve(content.size());
  for (size_t i = 0; i < content.size(); ++i) {
    unsigned cp = content[i] == '\xED' ? surrogate_at(content, i) : 0;
    if (is_escaped_byte(cp)) {
      out += static_cast<char>(cp - 0xDC00);
      i += 2;
    } else {
      out += content[i];
    }
  }
  return out;
}

std::optional<std::string> syntax_error(const std::string& ext, std::string_view content) {
  std::string detail;
  std::string kind;
  if (ext == ".json") {
    kind = "JSONDecodeError";
    detail = json_error(content);
  } else if (ext == ".yaml" || ext == ".yml") {
    kind = "YAMLError";
    detail = yaml_error(content);
  } else if (ext == ".toml") {
    kind = "TOMLDecodeError";
    detail = toml_error(content);
  }
  if (detail.empty()) return std::nullopt;
  return kind + ": " + detail;
}

bool head_has_crlf(std::string_view text) {
  return text.substr(0, 4096).find("\r\n") != std::string_view::npos;
}

std::string to_crlf(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 32);
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;  // the LF emits it
    if (c == '\r' || c == '\n') {
      out += "\r\n";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace hermes::write_pipeline
