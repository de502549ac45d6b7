// SPDX-License-Identifier: MIT
// What confines the commands the local backend runs under a workspace root
// (docs/containment.md, Commands): a private temporary directory that is the
// children's TMPDIR, the Landlock write fence (writes only beneath the root,
// that directory, the devices shells need and `security.command_write_paths`)
// and, where the kernel has no Landlock, a notice given once per session.
// Where it has Landlock but the fence cannot be built, commands are refused.
#pragma once

#include "core/result.h"
#include "proc/write_fence.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hermes::backend {

class Backend;

struct CommandFenceOptions {
  std::string root;                            // real path of the workspace root
  std::vector<std::string> extra_write_paths;  // absolute, `~` already expanded
  std::string host_temp_dir;                   // where the private directory is made
};

// Thread-safe. Removes its temporary directory on destruction.
class CommandFence {
 public:
  // kUnavailable when the private directory cannot be made. A kernel
  // without Landlock is not an error: the fence then only keeps the
  // directory and the notice.
  static Result<std::unique_ptr<CommandFence>> create(const CommandFenceOptions& options);
  ~CommandFence();
  CommandFence(const CommandFence&) = delete;
  CommandFence& operator=(const CommandFence&) = delete;

  const std::string& root() const { return root_; }
  const std::string& temp_dir() const { return temp_dir_; }
  // The Landlock ruleset children enter; -1 when the kernel has none.
  // kPermissionDenied, saying why and how to fix it, when the kernel has
  // Landlock but the fence could not be built: the command must not run.
  Result<int> write_fence_fd() const;

  // The sentence saying that commands are not write-fenced and why: the
  // first call only, and only when Landlock is unavailable.
  std::optional<std::string> take_notice() const;

 private:
  CommandFence(std::string root, std::string temp_dir, std::optional<proc::WriteFence> landlock,
               std::string why_not, std::string refusal);

  const std::string root_;
  const std::string temp_dir_;
  const std::optional<proc::WriteFence> landlock_;
  const std::string why_not_;
  const std::string refusal_;  // non-empty: commands are refused
  mutable std::atomic<bool> notice_given_{false};
};

// The backend's write-fence fd for SpawnOptions::write_fence_fd (-1: none);
// the refusal when its fence could not be built.
Result<int> write_fence_fd(const Backend& backend);
// CommandFence::take_notice of the backend's fence, if it has one.
std::optional<std::string> fence_notice(const Backend& backend);

}  // namespace hermes::backend
