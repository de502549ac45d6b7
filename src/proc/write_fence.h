// SPDX-License-Identifier: MIT
// A Landlock write fence for child processes (docs/containment.md, Commands):
// a ruleset, prepared once in the server, that a forked child enters just
// before exec, so the command and everything it starts can create, change,
// rename or delete files only beneath the allowed paths. Reads, execution
// and the network are not restricted. The server itself never enters it.
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

class WriteFence {
 public:
  // A ruleset allowing writes only beneath `paths`: every write right under
  // a directory, writing (and truncating) for any other file (devices such
  // as /dev/null). Missing paths are skipped. kUnavailable (why_not) when
  // Landlock is missing; kIo when a rule cannot be added.
  static Result<WriteFence> build(const std::vector<std::string>& paths);

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
