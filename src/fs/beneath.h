// SPDX-License-Identifier: MIT
// The one way the local file tools reach a file: a directory fd of the
// workspace root (`/` without a root) and a walk beneath it that follows no
// symbolic link at all. Callers pass real paths (every link already resolved
// and judged by the guards), so the walk only has to prove that the path
// still names what was judged: a link that appears on the way — a swap
// racing the call, a /proc magic link — is refused, and nothing outside the
// root is ever opened. The walk is the kernel's openat2(RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS) where it exists, otherwise
// one openat(O_NOFOLLOW) per component. Every final operation (open,
// create, mkdir, link, rename, unlink) is done relative to the fd of the
// directory the walk reached.
#pragma once

#include "core/result.h"
#include "proc/unique_fd.h"

#include <sys/types.h>

#include <string>
#include <vector>

namespace hermes::fs {

// Which walk Beneath uses; kAuto picks openat2 when the kernel has it.
enum class WalkMode { kAuto, kComponents };
// Process-wide; tests force the portable walk with kComponents.
void set_walk_mode(WalkMode mode);
// True when the next walk will use openat2.
bool walk_uses_openat2();

class Beneath {
 public:
  // A directory fd of `root` (absolute and symlink-free; "/" for none).
  static Result<Beneath> open_root(const std::string& root);

  const std::string& root() const { return root_; }

  // Opens `path` with open(2) `flags` (O_CLOEXEC and O_NOFOLLOW added);
  // `mode` only with O_CREAT.
  // `context` starts the error message (default: `open "<path>"`).
  Result<proc::UniqueFd> open(const std::string& path, int flags, mode_t mode = 0,
                              const std::string& context = "") const;

  struct Parent {
    // The containing directory's O_PATH fd: the pinned root's own (no copy:
    // a file right under the root costs no extra system call), or `owned`.
    int dir = -1;
    proc::UniqueFd owned;
    std::string name;  // the final component ("." for the root itself)
  };
  // The directory that holds `path`, for the final *at(2) call. With
  // `created`, missing directories are made (mkdirat, 0777 & ~umask) and
  // their paths appended, outermost first.
  Result<Parent> open_parent(const std::string& path, std::vector<std::string>* created = nullptr,
                             const std::string& context = "") const;

 private:
  Beneath(proc::UniqueFd fd, std::string root) : fd_(std::move(fd)), root_(std::move(root)) {}
  // `path` relative to the root ("" for the root itself), or kOutsideRoot.
  Result<std::string> relative(const std::string& path) const;
  // A fresh O_PATH fd of the root to walk from.
  proc::UniqueFd base() const;
  // `name` in the root directory itself.
  Parent in_root(std::string name) const;
  // Invalid on failure, with errno set (ELOOP for a link on the way).
  proc::UniqueFd walk(const std::string& rel, int flags, mode_t mode) const;
  // mkdir -p of `rel` one O_NOFOLLOW component at a time.
  Result<proc::UniqueFd> walk_dirs(const std::string& rel, const std::string& path,
                                   std::vector<std::string>& created) const;

  proc::UniqueFd fd_;  // the pinned root; empty for `/`
  std::string root_;
};

// The error for a failed walk of `path`: a refused link or an escape gets
// its own text, anything else is errno's with `context` ("open \"<path>\"").
Error walk_error(int err, const std::string& context, const std::string& path);

}  // namespace hermes::fs
