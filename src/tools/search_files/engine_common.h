// SPDX-License-Identifier: MIT
// Pieces both search engines share: the page window that keeps one page while
// counting the true total, the denylist filter over engine paths, the glob
// arguments for rg, and the one place that runs an engine command.
#pragma once

#include "tools/search_files/search_process.h"
#include "tools/search_files/search_types.h"

#include <string>
#include <string_view>
#include <vector>

namespace hermes::search {

// Counts results and says which fall in [offset, offset+limit). Counting
// stops at offset+limit+kCountSlack, or once the page holds kMaxPageBytes;
// past either the total is a lower bound.
class PageWindow {
 public:
  PageWindow(int64_t offset, int64_t limit)
      : offset_(offset), limit_(limit), cap_(offset + limit + kCountSlack) {}
  // Accounts one more result; true when it belongs on the page.
  bool admit() {
    int64_t index = seen_++;
    return index >= offset_ && index < offset_ + limit_;
  }
  // Accounts `bytes` kept for the page.
  void keep(size_t bytes) { kept_bytes_ += bytes; }
  bool full() const { return seen_ >= cap_ || kept_bytes_ >= kMaxPageBytes; }
  int64_t seen() const { return seen_; }
  // More results exist than the page shows (or may exist, when full).
  bool truncated() const { return seen_ > offset_ + limit_ || kept_bytes_ >= kMaxPageBytes; }

 private:
  int64_t offset_;
  int64_t limit_;
  int64_t cap_;
  int64_t seen_ = 0;
  size_t kept_bytes_ = 0;
};

// env.blocked with a one-entry cache (an engine prints a file's results
// together) and a count of what it dropped.
class PathFilter {
 public:
  explicit PathFilter(const EngineEnv& env) : env_(env) {}
  // True when results under `path` are dropped; counts each drop.
  bool drop(std::string_view path);
  int64_t dropped() const { return dropped_; }

 private:
  const EngineEnv& env_;
  std::string last_path_;
  bool last_blocked_ = false;
  bool has_last_ = false;
  int64_t dropped_ = 0;
};

// rg arguments selecting files by `glob`. A bare name glob goes through a
// file type (plus `--glob !.*`), because rg's --glob whitelists past
// .gitignore and hidden rules; globs with a `/` or a leading `!` use --glob.
std::vector<std::string> rg_glob_args(const std::string& glob);

// True when a content pattern wants to match a newline: a literal newline or
// `\n` preceded by an even number of further backslashes.
bool pattern_has_newline(std::string_view pattern);

// The first `max_chars` code points of `text` (invalid bytes count as one).
std::string cut_chars(std::string_view text, size_t max_chars);

// Runs `argv` on env's host in env.cwd with env's deadline and stop token.
Result<RunOutcome> run_engine(const EngineEnv& env, std::vector<std::string> argv, char delimiter,
                              const RecordSink& sink);

// `a, b, c, d, e (+k more)` from the first five of `items`.
std::string list_with_more(const std::vector<std::string>& items, size_t shown);

}  // namespace hermes::search
