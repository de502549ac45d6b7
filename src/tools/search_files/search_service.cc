// SPDX-License-Identifier: MIT
// Root checks, multi-path recovery and the result denylist around the engines.
#include "tools/search_files/search_service.h"

#include "tools/file_common/file_safety.h"
#include "tools/search_files/content_engine.h"
#include "tools/search_files/file_engine.h"
#include "tools/search_files/search_paths.h"

#include <dirent.h>
#include <sys/stat.h>

#include <memory>
#include <optional>

namespace hermes::search {
namespace {

struct Root {
  std::string given;   // as the model wrote it (messages)
  std::string engine;  // what the engine gets: `~` expanded, else unchanged
  std::string real;    // fully resolved
  PathKind kind = PathKind::kMissing;
};

// A root as PathResolver::resolve would resolve it, with the host's `~`,
// workspace and links, and what it is there.
struct FoundRoot {
  ResolvedPath path;
  PathKind kind;
};

Result<FoundRoot> locate_root(SearchHost& host, const SearchDeps& deps, const std::string& given) {
  if (given.empty()) return Error::InvalidArgument("path is empty");
  std::string expanded = host.expand_user(given);
  if (!expanded.starts_with('/'))
    expanded = host.workspace(deps.session_cwd, deps.paths.root()) + "/" + expanded;
  FoundRoot out{{given, PathResolver::normalize(expanded), ""}, PathKind::kMissing};
  SearchHost::Located where = host.locate(out.path.absolute);
  out.path.real = std::move(where.real);
  out.kind = where.kind;
  HERMES_TRY(deps.paths.check_contained(out.path.real));
  return out;
}

std::string basename_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Where the symlinks directly inside `dir` point (resolved). Read on this
// host whatever the backend: the Hermes home is the server's.
std::vector<std::string> link_targets(const std::string& dir) {
  std::vector<std::string> targets;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return targets;
  while (const dirent* e = ::readdir(d)) {
    std::string path = dir + "/" + e->d_name;
    struct stat st;
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
      targets.push_back(PathResolver::real_path(path));
    }
  }
  ::closedir(d);
  return targets;
}

// The read denylist over engine result paths. Engines do not follow links
// below a root, so a result's real path is its root's real path plus the
// rest. The full check costs tens of microseconds, so only paths that can
// be denied pay for it: a `.env`-style name, anything under the Hermes home
// or its root (the scope of file_safety.h), or under what a symlink at the
// top of those points to (a linked credential store).
class ResultDenylist {
 public:
  ResultDenylist(std::vector<Root> roots, std::string cwd, std::string home, SearchHost& host)
      : roots_(std::move(roots)), cwd_(std::move(cwd)), home_(std::move(home)), host_(host) {
    if (home_.empty()) return;
    std::string real = PathResolver::real_path(PathResolver::normalize(home_));
    std::vector<std::string> dirs = {real};
    std::string parent = real.substr(0, real.find_last_of('/'));
    if (basename_of(parent) == "profiles")
      dirs.push_back(parent.substr(0, parent.find_last_of('/')));
    for (const std::string& dir : dirs) {
      candidate_dirs_.push_back(dir);
      for (std::string& target : link_targets(dir)) candidate_dirs_.push_back(std::move(target));
    }
  }

  bool blocked(const std::string& engine_path) const {
    std::string real = real_of(engine_path);
    if (!may_be_blocked(real)) return false;
    return !file_common::check_readable(real, home_);
  }

 private:
  std::string real_of(const std::string& path) const {
    const Root* best = nullptr;
    for (const Root& root : roots_) {
      const std::string& r = root.engine;
      bool under = path.starts_with(r) &&
                   (path.size() == r.size() || path[r.size()] == '/' || r.ends_with('/'));
      if (under && (best == nullptr || r.size() > best->engine.size())) best = &root;
    }
    if (best != nullptr) {
      return PathResolver::normalize(best->real + "/" + path.substr(best->engine.size()));
    }
    std::string absolute = path.starts_with('/') ? path : cwd_ + "/" + path;
    return host_.real_path(PathResolver::normalize(absolute));
  }

  bool may_be_blocked(const std::string& real) const {
    if (file_common::is_blocked_env_basename(basename_of(real))) return true;
    for (const std::string& dir : candidate_dirs_) {
      if (is_within(real, dir)) return true;
    }
    return false;
  }

  std::vector<Root> roots_;
  std::string cwd_;
  std::string home_;
  SearchHost& host_;
  std::vector<std::string> candidate_dirs_;
};

SearchOutcome search_roots(const SearchRequest& req, SearchDeps& deps, std::vector<Root> roots) {
  std::vector<std::string> engine_roots, files;
  for (const Root& root : roots) {
    if (auto error = special_root_error(root.given, root.kind))
      return SearchOutcome{.error = Error::InvalidArgument(*error)};
    engine_roots.push_back(root.engine);
    if (root.kind == PathKind::kRegular) files.push_back(root.real);
  }
  // Roots that are all files: the fence binds them (a `.env` swapped in
  // for one would pass the filter under the file's name).
  if (!deps.env.fence_root.empty() && files.size() == roots.size())
    deps.env.fence_files = std::move(files);
  auto denylist = std::make_shared<ResultDenylist>(std::move(roots), deps.env.cwd, deps.hermes_home,
                                                   *deps.env.host);
  deps.env.blocked = [denylist](const std::string& path) { return denylist->blocked(path); };
  if (req.target == Target::kFiles) return search_files(req, engine_roots, deps.env);
  return search_content(req, engine_roots, deps.env);
}

std::string multi_path_note(size_t parts, size_t searched,
                            const std::vector<std::string>& missing) {
  std::string note = "path contained " + std::to_string(parts) + " entries; searched " +
                     std::to_string(searched) + " that exist";
  if (missing.empty()) return note;
  note += "; skipped missing: ";
  for (size_t i = 0; i < missing.size() && i < 3; ++i) note += (i ? ", " : "") + missing[i];
  if (missing.size() > 3) note += " (+" + std::to_string(missing.size() - 3) + " more)";
  return note;
}

// A missing root that is really several paths: searches the existing ones.
// nullopt when it does not split into 2+ parts with at least one existing.
std::optional<Result<SearchOutcome>> try_multi_path(const SearchRequest& req, SearchDeps& deps) {
  std::vector<std::string> parts = split_multi_path(req.path);
  if (parts.size() < 2) return std::nullopt;
  std::vector<Root> existing;
  std::vector<std::string> missing;
  SearchHost& host = *deps.env.host;
  for (const std::string& part : parts) {
    auto located = locate_root(host, deps, part);
    if (nt_namespace_error(part) || !located || located->kind == PathKind::kMissing) {
      missing.push_back(part);
      continue;
    }
    const ResolvedPath& resolved = located->path;
    if (Status readable =
            file_common::check_readable(resolved.real, deps.hermes_home, resolved.absolute);
        !readable) {
      return Result<SearchOutcome>(readable.error());
    }
    existing.push_back(Root{part, host.expand_user(part), resolved.real, located->kind});
  }
  if (auto failure = host.failure()) return Result<SearchOutcome>(Error::Unavailable(*failure));
  if (existing.empty()) return std::nullopt;
  size_t searched = existing.size();
  SearchOutcome out = search_roots(req, deps, std::move(existing));
  std::string note = multi_path_note(parts.size(), searched, missing);
  out.warning = out.warning.empty() ? note : note + " " + out.warning;
  return Result<SearchOutcome>(std::move(out));
}

}  // namespace

Result<SearchOutcome> run_search(const SearchRequest& req, SearchDeps& deps) {
  if (auto error = nt_namespace_error(req.path)) return Error::PermissionDenied(*error);
  SearchHost& host = *deps.env.host;
  deps.env.cwd = host.workspace(deps.session_cwd, deps.paths.root());
  deps.env.home = host.home();
  deps.env.fence_root = deps.paths.root();
  // The string filter below judges the paths the engine prints; the fence
  // keeps it from reading the denylist's stores by any other path (a folder
  // swapped for a link while it runs).
  if (!deps.env.fence_root.empty())
    deps.env.fence_excluded = file_common::denied_read_paths(deps.hermes_home);
  HERMES_ASSIGN_OR_RETURN(FoundRoot located, locate_root(host, deps, req.path));
  const ResolvedPath& root = located.path;
  HERMES_TRY(file_common::check_readable(root.real, deps.hermes_home, root.absolute));
  PathKind kind = located.kind;
  if (auto failure = host.failure()) return Error::Unavailable(*failure);
  const auto now = SearchSessionState::Clock::now();
  if (kind == PathKind::kMissing) {
    if (auto cached = deps.state.cached_not_found(root.real, now)) {
      return SearchOutcome{.error = Error::NotFound(*cached)};
    }
    if (auto multi = try_multi_path(req, deps)) return std::move(*multi);
    std::string message = path_not_found_message(req.path, deps.env.cwd, host);
    if (auto failure = host.failure()) return Error::Unavailable(*failure);
    deps.state.remember_not_found(root.real, message, now);
    return SearchOutcome{.error = Error::NotFound(message)};
  }
  deps.state.forget_not_found(root.real);
  return search_roots(req, deps, {Root{req.path, host.expand_user(req.path), root.real, kind}});
}

}  // namespace hermes::search
