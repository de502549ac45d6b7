// SPDX-License-Identifier: MIT
#include "http/auth.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <cctype>

namespace hermes::http {
namespace {

std::array<unsigned char, 32> sha256(std::string_view text) {
  std::array<unsigned char, 32> out{};
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), out.data());
  return out;
}

std::optional<std::array<unsigned char, 32>> parse_hex_digest(std::string_view hex) {
  if (hex.size() != 64) return std::nullopt;
  std::array<unsigned char, 32> out{};
  for (size_t i = 0; i < 32; ++i) {
    unsigned value = 0;
    for (char c : hex.substr(i * 2, 2)) {
      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        value |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        value |= static_cast<unsigned>(c - 'A' + 10);
      else
        return std::nullopt;
    }
    out[i] = static_cast<unsigned char>(value);
  }
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace

Result<TokenTable> TokenTable::parse(std::string_view text) {
  TokenTable table;
  int number = 0;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++number;
    if (line.empty() || line.front() == '#') continue;
    size_t colon = line.find(':');
    std::string_view label = colon == std::string_view::npos ? "" : line.substr(0, colon);
    std::string_view secret = colon == std::string_view::npos ? "" : line.substr(colon + 1);
    std::optional<std::array<unsigned char, 32>> digest;
    if (secret.starts_with("sha256:")) {
      digest = parse_hex_digest(secret.substr(7));
    } else if (!secret.empty()) {
      digest = sha256(secret);
    }
    if (label.empty() || !digest) {
      return Error::InvalidArgument("token line " + std::to_string(number) +
                                    ": expected label:token or label:sha256:<64 hex digits>");
    }
    table.entries_.push_back({std::string(label), *digest});
  }
  return table;
}

std::optional<std::string> TokenTable::principal(std::string_view authorization) const {
  constexpr std::string_view kScheme = "Bearer ";
  if (authorization.size() <= kScheme.size()) return std::nullopt;
  for (size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) !=
        std::tolower(static_cast<unsigned char>(kScheme[i]))) {
      return std::nullopt;
    }
  }
  auto presented = sha256(trim(authorization.substr(kScheme.size())));
  const Entry* match = nullptr;
  for (const Entry& entry : entries_) {  // every entry compared: no early exit
    if (CRYPTO_memcmp(entry.digest.data(), presented.data(), presented.size()) == 0) match = &entry;
  }
  if (!match) return std::nullopt;
  return match->label;
}

}  // namespace hermes::http
