// SPDX-License-Identifier: MIT
// Landlock fences for child processes (docs/containment.md): a ruleset,
// prepared in the server, that a child enters just before exec, so it and
// everything it starts are held to it; the server itself never enters one.
// The write fence (commands) lets them create, change, rename or delete
// files only beneath the allowed paths, and restricts neither reads,
// execution nor the network. The read-only fence (search engines) also
// limits what they may read and run, and allows no change anywhere.
#pragma once

#include "core/result.h"
#include "proc/unique_fd.h"

#include <string>
#include <vector>

namespace hermes::proc {

// The Landlock ABI this kernel offers: 0 when it is missing (ENOSYS),
// disabled at boot (EOPNOTSUPP) or switched off with HERMES_LANDLOCK=off,
// with the reason in `why_not`.
struct LandlockSupport {
  int abi = 0;
  std::string why_not;
};
LandlockSupport landlock_support();

// A path the caller has already opened (O_PATH): its rule is bound to the
// object the caller judged, not to whatever the path names by the time the
// fence is built.
struct OpenedPath {
  std::string path;  // for messages
  UniqueFd fd;
};

// What a read-only fence allows (see WriteFence::read_only).
struct ReadOnlyPaths {
  std::vector<std::string> readable;  // listed and read beneath; must exist
  // Real paths beneath a `readable` path whose files are not read (their
  // names can still be listed); see WriteFence::read_only.
  std::vector<std::string> excluded;
  std::vector<std::string> runnable;        // read and executed beneath; skipped when missing
  std::vector<std::string> readable_files;  // regular files read; missing ones and links skipped
  std::vector<OpenedPath> readable_opened;  // listed and read beneath what the caller opened
};

class WriteFence {
 public:
  // A ruleset allowing writes only beneath `paths`, `opened` and
  // `if_present`: every write right under a directory, writing (and
  // truncating) for any other file (devices such as /dev/null). Missing
  // `if_present` paths are skipped. kUnavailable (why_not) only when
  // Landlock is missing or switched off; any other failure — a path of
  // `paths` that cannot be opened, a ruleset or rule the kernel refuses — is
  // an error naming what failed.
  static Result<WriteFence> build(const std::vector<std::string>& paths,
                                  const std::vector<std::string>& if_present = {},
                                  const std::vector<OpenedPath>& opened = {});

  // A ruleset under which a child can read only what `paths` allows and
  // change nothing (no write, create, rename, delete or truncate anywhere).
  // A readable path with `excluded` paths beneath it is carved: listing is
  // allowed beneath it, but reading only beneath the entries off the way to
  // an excluded path, found (without following links) when the fence is
  // built; so no file of an excluded folder can be read, by any path, while
  // it stays there, and nothing made later in a folder on the way is read.
  // kUnavailable (why_not) when Landlock is missing; kIo when a rule cannot
  // be added, a `readable` path that cannot be opened included.
  static Result<WriteFence> read_only(const ReadOnlyPaths& paths);

  // The ruleset fd, close-on-exec, for SpawnOptions::write_fence_fd.
  int fd() const { return ruleset_.get(); }
  int abi() const { return abi_; }

  // Restricts the calling thread and its future children: no_new_privs,
  // then landlock_restrict_self. Only system calls: safe between fork and
  // exec. False when the kernel refused (the child must not run unfenced).
  static bool enter(int ruleset_fd) noexcept;

 private:
  WriteFence(UniqueFd ruleset, int abi) : ruleset_(std::move(ruleset)), abi_(abi) {}
  UniqueFd ruleset_;
  int abi_ = 0;
};

}  // namespace hermes::proc
