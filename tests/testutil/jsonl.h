// SPDX-License-Identifier: MIT
// Reading a committed JSON Lines corpus (one object per non-empty line), as
// the attack-corpus tests keep theirs.
#pragma once

#include "json/json.h"

#include <fstream>
#include <string>
#include <vector>

namespace hermes::testing {

inline std::vector<Json> read_jsonl(const std::string& path) {
  std::ifstream in(path);
  std::vector<Json> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(Json::parse(line));
  }
  return out;
}

}  // namespace hermes::testing
