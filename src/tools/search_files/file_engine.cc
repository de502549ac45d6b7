// SPDX-License-Identifier: MIT
// File-name search engines and the newest-first ordering. The modification
// time sort is ours for every rg version: rg before 14 sorts per directory,
// not globally, and sorting here keeps rg's parallel walk.
#include "tools/search_files/file_engine.h"

#include "core/paths.h"
#include "core/strings.h"
#include "tools/search_files/engine_common.h"

#include <algorithm>

namespace hermes::search {
namespace {

constexpr const char* kBroadFind =
    "Broad local file search without ripgrep is disabled because find cannot keep "
    "this traversal safely bounded. Install ripgrep or search a narrower directory.";
constexpr const char* kNoEngine =
    "File search requires 'rg' (ripgrep) or 'find'. Install ripgrep for best results: "
    "https://github.com/BurntSushi/ripgrep#installation";

std::string absolute_of(const EngineEnv& env, const std::string& path) {
  return path.starts_with('/') ? path : env.cwd + "/" + path;
}

// The filesystem root, $HOME or an ancestor of $HOME (links resolved).
bool is_broad_root(const EngineEnv& env, const std::string& root) {
  std::string real = env.host->real_path(PathResolver::normalize(absolute_of(env, root)));
  std::string home = env.host->real_path(PathResolver::normalize(env.home));
  return real == "/" || (!home.empty() && is_within(home, real));
}

std::vector<std::string> find_argv(const std::string& find, const std::string& glob,
                                   const std::vector<std::string>& roots) {
  std::vector<std::string> operands;  // `./-x` so a dash root is not an option
  for (const auto& root : roots) operands.push_back(root.starts_with('-') ? "./" + root : root);
  std::vector<std::string> argv = {find, "-H"};
  argv.insert(argv.end(), operands.begin(), operands.end());
  // Prune hidden directories except an explicitly chosen hidden root.
  argv.insert(argv.end(), {"(", "-type", "d", "-name", ".*"});
  for (const auto& operand : operands) argv.insert(argv.end(), {"!", "-path", operand});
  argv.insert(argv.end(),
              {")", "-prune", "-o", "-type", "f", "!", "-name", ".*", "-name", glob, "-print0"});
  return argv;
}

// Newest first by mtime; ties keep discovery order.
void sort_newest_first(const EngineEnv& env, std::vector<std::string>& paths) {
  std::vector<int64_t> mtimes = env.host->mtimes(paths, env.cwd);
  std::vector<std::pair<int64_t, size_t>> keys;
  keys.reserve(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) keys.emplace_back(mtimes[i], i);
  std::stable_sort(keys.begin(), keys.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> sorted;
  sorted.reserve(paths.size());
  for (const auto& key : keys) sorted.push_back(std::move(paths[key.second]));
  paths = std::move(sorted);
}

SearchOutcome page_of(const SearchRequest& req, std::vector<std::string> paths, bool lower_bound) {
  SearchOutcome out;
  out.total_count = static_cast<int64_t>(paths.size());
  out.truncated = out.total_count > req.offset + req.limit;
  out.total_is_lower_bound = lower_bound;
  auto first = std::min<size_t>(paths.size(), static_cast<size_t>(req.offset));
  auto last = std::min<size_t>(paths.size(), static_cast<size_t>(req.offset + req.limit));
  out.files.assign(std::make_move_iterator(paths.begin() + first),
                   std::make_move_iterator(paths.begin() + last));
  return out;
}

SearchOutcome newest_first(const SearchRequest& req, const EngineEnv& env,
                           std::vector<std::string> paths, bool capped, bool timed_out) {
  sort_newest_first(env, paths);
  SearchOutcome out = page_of(req, std::move(paths), capped || timed_out);
  if (capped) {
    out.warning = "Newest-first order covers the first " + std::to_string(kSortCap) +
                  " files found; narrow the path or pattern for an exact order.";
  }
  return out;
}

// Runs a listing engine; `failure_exit` is its lowest exit code that means
// failure (rg: 2, as 1 is "nothing found"; find: 1).
SearchOutcome run_listing(const SearchRequest& req, const EngineEnv& env,
                          std::vector<std::string> argv, const std::string& failure,
                          int failure_exit) {
  const bool sorting = req.order == FileOrder::kModified;
  PageWindow window(req.offset, req.limit);
  PathFilter filter(env);
  std::vector<std::string> paths;
  bool capped = false;
  auto sink = [&](std::string_view path) {
    if (path.empty() || filter.drop(path)) return true;
    if (sorting) {
      paths.emplace_back(path);
      capped = paths.size() >= kSortCap;
      return !capped;
    }
    if (window.admit()) {
      paths.emplace_back(path);
      window.keep(path.size());
    }
    return !window.full();
  };
  auto run = run_engine(env, std::move(argv), '\0', sink);
  if (!run) {
    return SearchOutcome{.error = Error{run.error().code, failure + ": " + run.error().message}};
  }
  if (run->end == RunEnd::kCancelled) {
    return SearchOutcome{.error = Error::Cancelled("Search interrupted")};
  }
  bool timed_out = run->end == RunEnd::kTimedOut;
  bool any = !paths.empty() || window.seen() > 0 || filter.dropped() > 0;
  if (run->end == RunEnd::kExited && run->exit_code >= failure_exit && !any) {
    std::string diagnostics = trim(run->stderr_text);
    return SearchOutcome{.error = Error::InvalidArgument(
                             failure + (diagnostics.empty() ? "." : ": " + diagnostics))};
  }
  SearchOutcome out;
  if (sorting) {
    out = newest_first(req, env, std::move(paths), capped, timed_out);
  } else {
    out.files = std::move(paths);
    out.total_count = window.seen();
    out.truncated = window.truncated();
    out.total_is_lower_bound = window.full() || timed_out;
  }
  if (timed_out) {
    out.limit_reason = "search_timeout";
    out.truncated = true;
  }
  out.omitted = filter.dropped();
  return out;
}

}  // namespace

std::string prepare_file_glob(const std::string& pattern, bool for_rg) {
  std::string glob = pattern;
  if (glob.starts_with("**/") || glob.find('/') != std::string::npos) {
    glob = glob.substr(glob.rfind('/') + 1);
  }
  if (for_rg && !glob.starts_with('*')) glob = "*" + glob;
  return glob;
}

std::vector<std::string> rg_files_argv(const std::string& glob,
                                       const std::vector<std::string>& roots,
                                       const std::string& rg) {
  std::vector<std::string> argv = {rg, "--no-config", "--files", "--null"};
  auto glob_args = rg_glob_args(glob);
  argv.insert(argv.end(), glob_args.begin(), glob_args.end());
  argv.emplace_back("--");
  argv.insert(argv.end(), roots.begin(), roots.end());
  return argv;
}

SearchOutcome search_files(const SearchRequest& req, const std::vector<std::string>& roots,
                           const EngineEnv& env) {
  if (!env.engines.rg.empty()) {
    return run_listing(req, env,
                       rg_files_argv(prepare_file_glob(req.pattern, true), roots, env.engines.rg),
                       "File search failed while running ripgrep", 2);
  }
  for (const auto& root : roots) {
    if (is_broad_root(env, root)) {
      return SearchOutcome{.error = Error::PermissionDenied(kBroadFind)};
    }
  }
  if (env.engines.find.empty()) return SearchOutcome{.error = Error::Unavailable(kNoEngine)};
  return run_listing(req, env,
                     find_argv(env.engines.find, prepare_file_glob(req.pattern, false), roots),
                     "File search failed while running bounded find traversal", 1);
}

}  // namespace hermes::search
