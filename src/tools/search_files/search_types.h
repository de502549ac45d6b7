// SPDX-License-Identifier: MIT
// Typed request and outcome of one search_files call (docs/tools/search_files.md), and
// the environment the engines run in. JSON stays in search_files_json.cc.
#pragma once

#include "core/result.h"
#include "tools/search_files/search_host.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace hermes::search {

enum class Target { kContent, kFiles };
enum class OutputMode { kContent, kFilesOnly, kCount };
// Newest-first by default (docs/tools/search_files.md); discovery is traversal order.
enum class FileOrder { kModified, kDiscovery };

struct SearchRequest {
  std::string pattern;
  Target target = Target::kContent;
  std::string path = ".";
  std::optional<std::string> file_glob;
  int64_t limit = 50;
  int64_t offset = 0;
  OutputMode output_mode = OutputMode::kContent;
  int64_t context = 0;
  FileOrder order = FileOrder::kModified;
};

struct Match {
  std::string path;
  int64_t line = 0;
  std::string content;
};

struct SearchOutcome {
  // Results counted (after denylist filtering); a lower bound when counting
  // stopped before the engine finished.
  int64_t total_count = 0;
  bool total_is_lower_bound = false;
  std::vector<Match> matches;
  std::vector<std::string> files;
  std::vector<std::pair<std::string, int64_t>> counts;  // engine order
  bool truncated = false;
  std::string limit_reason;
  std::string warning;
  // The search failed (the root is missing or special, an engine failed, is
  // missing or was interrupted): rendered as `error`, and the call is a failure.
  std::optional<Error> error;
  int64_t omitted = 0;  // results dropped by the read denylist
};

// Everything the engines need besides the request.
struct EngineEnv {
  std::string cwd;   // workspace: relative roots and result paths join it
  std::string home;  // $HOME, for the broad-find refusal
  Engines engines;
  // Where the engines run and the disk is read (not owned).
  SearchHost* host = &native_host();
  std::chrono::milliseconds timeout{60'000};
  std::stop_token stop;
  // True when a result path (as the engine printed it) must be dropped.
  std::function<bool(const std::string& engine_path)> blocked;
  // The workspace root (empty: none); local engines are fenced beneath it,
  // and kept out of the `fence_excluded` real paths beneath it.
  std::string fence_root;
  std::vector<std::string> fence_excluded;
  std::vector<std::string> fence_files;  // see SpawnSpec::fence_files
};

// The contract's constants (docs/tools/search_files.md) and our own
// counting bounds.
inline constexpr size_t kMatchContentChars = 500;
inline constexpr int kMaxColumns = 2000;
inline constexpr int kMatchesTextThreshold = 5;
// Counting continues this many records past the page so totals are true for
// all but huge result sets (then flagged as a lower bound).
inline constexpr int64_t kCountSlack = 10'000;
// A page keeps at most this much text, whatever `limit` says.
inline constexpr size_t kMaxPageBytes = 16 << 20;
// `limit` and `offset` are clamped here so sums cannot overflow.
inline constexpr int64_t kMaxPaging = 1'000'000'000;
// Newest-first ordering sorts at most this many discovered files.
inline constexpr size_t kSortCap = 200'000;

}  // namespace hermes::search
