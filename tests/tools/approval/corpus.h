// SPDX-License-Identifier: MIT
// The approval corpora (tests/tools/approval/corpus/*.txt): one command per
// line, `#` comments; U+23CE stands for a newline inside a command and
// U+241E separates the calls of one session.
#pragma once

#include "tools/approval/dangerous_command.h"

#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace hermes::approval {

struct Session {
  std::vector<std::string> calls;  // the last one is judged
};

inline std::string replace_all_of(std::string text, const std::string& from,
                                  const std::string& to) {
  for (size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size()) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

inline std::vector<Session> load_corpus(const std::string& name) {
  std::ifstream in(std::string(HERMES_APPROVAL_CORPUS_DIR) + "/" + name);
  std::vector<Session> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    line = replace_all_of(line, "\u23ce", "\n");
    Session s;
    for (size_t start = 0;;) {
      size_t sep = line.find(" \u241e ", start);
      s.calls.push_back(line.substr(start, sep == std::string::npos ? sep : sep - start));
      if (sep == std::string::npos) break;
      start = sep + std::string(" \u241e ").size();
    }
    out.push_back(std::move(s));
  }
  return out;
}

// Earlier calls leave their definitions behind, as the gate remembers them.
inline std::optional<Detection> detect_session(const Session& s) {
  shell::Environment env;
  for (size_t i = 0; i + 1 < s.calls.size(); ++i) {
    shell::Environment after;
    detect_dangerous(s.calls[i], env, &after);
    shell::merge_definitions(env, after);
  }
  return detect_dangerous(s.calls.back(), env);
}

}  // namespace hermes::approval
