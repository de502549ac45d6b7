// SPDX-License-Identifier: MIT
// The one path resolver every tool uses: `~` expansion, relative paths against
// the session workspace, full symlink resolution, and the opt-in workspace
// root (`--root` / `security.workspace_root`). Thread-safe (immutable).
#pragma once

#include "core/result.h"

#include <functional>
#include <string>
#include <string_view>

namespace hermes {

struct ResolvedPath {
  std::string given;     // the argument as the model wrote it
  std::string absolute;  // `~` expanded, joined to the workspace, `..` folded
  std::string real;      // every existing symlink hop resolved
};

// The real path of an absolute path, found earlier in the same call (the
// scheduler's check of whether the call is brief), so that resolving that
// path again costs no system call. The kernel still refuses any link met
// when the file is opened (fs/beneath.h).
struct KnownRealPath {
  std::string absolute;  // normalized
  std::string real;
};

class PathResolver {
 public:
  // `root` empty means no containment (the upstream default).
  explicit PathResolver(std::string root = "");

  // The workspace for relative paths: the session's recorded cwd, else an
  // absolute `$TERMINAL_CWD` (``, `.`, `./`, `auto`, `cwd` mean unset), else
  // the process cwd.
  static std::string workspace(const std::string& session_cwd);
  // `dir` when its real path lies in `root` (a real path; empty: no root),
  // else `root`: with `--root` set, relative paths and the terminal start
  // inside the root from the first call, wherever the server was started.
  static std::string inside_root(const std::string& dir, const std::string& root);
  // `~` and `~/x` against $HOME; other text unchanged.
  static std::string expand_user(std::string_view path);
  // `~` and `~/x` against `home`.
  static std::string expand_user(std::string_view path, const std::string& home);
  // Folds `.`, `..` and repeated slashes without touching the disk.
  static std::string normalize(std::string_view absolute_path);
  // resolve_links (core/link_walk.h): every symlink resolved, a dangling one
  // to its target; on a link loop, `absolute_path` itself. A not-yet-existing
  // file still resolves through its parent's links.
  static std::string real_path(const std::string& absolute_path);

  // Resolves `given` (a relative path against workspace(session_cwd) kept
  // inside the root); fails with kOutsideRoot when a root is set and the real
  // path leaves it (symlinks included), kInvalidArgument for an empty path.
  // `known`, when it names this absolute path, gives its real path.
  Result<ResolvedPath> resolve(std::string_view given, const std::string& session_cwd,
                               const KnownRealPath* known = nullptr) const;
  // The same rules on another machine: `home` for `~`, `cwd` for relative
  // paths, `real_path` resolving links there (its error is returned).
  using RealPathFn = std::function<Result<std::string>(const std::string&)>;
  Result<ResolvedPath> resolve_on(std::string_view given, const std::string& home,
                                  const std::string& cwd, const RealPathFn& real_path) const;
  // kOutsideRoot unless `real` is the root or below it (component-wise).
  Status check_contained(const std::string& real) const;

  const std::string& root() const { return root_; }

 private:
  std::string root_;  // real path of the workspace root, or empty
};

// True when `path` equals `dir` or lies below it, comparing whole components.
bool is_within(std::string_view path, std::string_view dir);

}  // namespace hermes
