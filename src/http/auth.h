// SPDX-License-Identifier: MIT
// Static bearer tokens: each one names a principal (the label it was given),
// and everything a principal creates (sessions, tasks) is its own. Tokens are
// kept only as SHA-256 digests and compared in constant time.
#pragma once

#include "core/result.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::http {

class TokenTable {
 public:
  // Lines of `label:token` or `label:sha256:<64 hex>`; blank lines and lines
  // starting with '#' are skipped. An error names the first bad line.
  static Result<TokenTable> parse(std::string_view text);

  bool empty() const { return entries_.empty(); }
  // The principal of an `Authorization` header value, or nullopt.
  std::optional<std::string> principal(std::string_view authorization) const;

 private:
  struct Entry {
    std::string label;
    std::array<unsigned char, 32> digest;
  };
  std::vector<Entry> entries_;
};

}  // namespace hermes::http
