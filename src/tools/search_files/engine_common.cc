// SPDX-License-Identifier: MIT
// Shared engine pieces: denylist filter, rg glob arguments, pattern and text
// helpers, and the engine command runner.
#include "tools/search_files/engine_common.h"

namespace hermes::search {

bool PathFilter::drop(std::string_view path) {
  if (!env_.blocked) return false;
  if (!has_last_ || path != last_path_) {
    last_path_.assign(path);
    last_blocked_ = env_.blocked(last_path_);
    has_last_ = true;
  }
  if (last_blocked_) ++dropped_;
  return last_blocked_;
}

std::vector<std::string> rg_glob_args(const std::string& glob) {
  if (glob.find('/') != std::string::npos || glob.starts_with('!')) {
    return {"--glob", glob};
  }
  // A custom type matches the basename like --glob does but keeps ignore
  // rules in force. A type match also lifts the hidden-file rule, so hidden
  // entries are excluded again (a hidden root given explicitly still works).
  return {"--type-add", "hermesglob:" + glob, "--type", "hermesglob", "--glob", "!.*"};
}

bool pattern_has_newline(std::string_view pattern) {
  if (pattern.find('\n') != std::string_view::npos) return true;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '\\') continue;
    size_t run = 0;
    while (i < pattern.size() && pattern[i] == '\\') {
      ++run;
      ++i;
    }
    if (i < pattern.size() && pattern[i] == 'n' && run % 2 == 1) return true;
  }
  return false;
}

std::string cut_chars(std::string_view text, size_t max_chars) {
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    bool continuation = (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80;
    if (!continuation && chars++ == max_chars) return std::string(text.substr(0, i));
  }
  return std::string(text);
}

Result<RunOutcome> run_engine(const EngineEnv& env, std::vector<std::string> argv, char delimiter,
                              const RecordSink& sink) {
  SpawnSpec spec{.argv = std::move(argv),
                 .cwd = env.cwd,
                 .timeout = env.timeout,
                 .delimiter = delimiter,
                 .max_record_bytes = 16384,
                 .stop = env.stop,
                 .fence_root = env.fence_root,
                 .fence_excluded = env.fence_excluded,
                 .fence_files = env.fence_files};
  return env.host->run(spec, sink);
}

std::string list_with_more(const std::vector<std::string>& items, size_t shown) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < shown; ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  if (items.size() > shown) out += " (+" + std::to_string(items.size() - shown) + " more)";
  return out;
}

}  // namespace hermes::search
