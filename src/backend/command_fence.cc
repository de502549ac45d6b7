// SPDX-License-Identifier: MIT
#include "backend/command_fence.h"

#include "backend/backend.h"
#include "core/log.h"

#include <stdlib.h>

#include <filesystem>

namespace hermes {
namespace {

// What shells and common tools open for writing outside any project:
// discarding output, terminals (ptys and the controlling tty), entropy.
// File rules cover exactly these; /dev/pts covers every pty beneath it.
constexpr const char* kDevices[] = {"/dev/null", "/dev/zero", "/dev/full",   "/dev/tty",
                                    "/dev/ptmx", "/dev/pts",  "/dev/random", "/dev/urandom"};

// The fence over the root, the private directory, every configured path
// (each must be an absolute path that can be opened) and the devices there
// are.
Result<proc::WriteFence> build_fence(const CommandFenceOptions& options,
                                     const std::string& temp_dir) {
  std::vector<std::string> paths = {options.root, temp_dir};
  for (const std::string& extra : options.extra_write_paths) {
    if (extra.empty() || extra[0] != '/') {
      return Error::InvalidArgument("security.command_write_paths: '" + extra +
                                    "' is not an absolute path");
    }
    paths.push_back(extra);
  }
  return proc::WriteFence::build(paths, {std::begin(kDevices), std::end(kDevices)});
}

// Why commands are refused when the kernel has Landlock but the fence
// cannot be built, and how to fix it.
std::string refusal_for(const Error& error) {
  return "Commands are refused: their write fence cannot be built (" + error.message +
         "). Make every security.command_write_paths entry an existing absolute path this user "
         "can open (or remove it), or set HERMES_LANDLOCK=off to run commands without the "
         "fence.";
}

}  // namespace

Result<std::unique_ptr<CommandFence>> CommandFence::create(const CommandFenceOptions& options) {
  std::string pattern = options.host_temp_dir + "/hermes-fence-XXXXXX";
  if (!::mkdtemp(pattern.data())) {
    return Error::Unavailable("cannot create a private temporary directory under " +
                              options.host_temp_dir);
  }
  auto landlock = build_fence(options, pattern);
  std::string why_not, refusal;
  if (!landlock && landlock.error().code == ErrorCode::kUnavailable) {
    why_not = landlock.error().message;
    log::warn("commands are not write-fenced: " + why_not);
  } else if (!landlock) {
    refusal = refusal_for(landlock.error());
    log::warn(refusal);
  }
  std::optional<proc::WriteFence> fence;
  if (landlock) fence.emplace(std::move(*landlock));
  return std::unique_ptr<CommandFence>(new CommandFence(
      options.root, std::move(pattern), std::move(fence), std::move(why_not), std::move(refusal)));
}

CommandFence::CommandFence(std::string root, std::string temp_dir,
                           std::optional<proc::WriteFence> landlock, std::string why_not,
                           std::string refusal)
    : root_(std::move(root)),
      temp_dir_(std::move(temp_dir)),
      landlock_(std::move(landlock)),
      why_not_(std::move(why_not)),
      refusal_(std::move(refusal)) {}

CommandFence::~CommandFence() {
  std::error_code ignored;
  std::filesystem::remove_all(temp_dir_, ignored);
}

Result<int> CommandFence::write_fence_fd() const {
  if (!refusal_.empty()) return Error::PermissionDenied(refusal_);
  return landlock_ ? landlock_->fd() : -1;
}

std::optional<std::string> CommandFence::take_notice() const {
  if (landlock_ || !refusal_.empty() || notice_given_.exchange(true)) return std::nullopt;
  return "Commands are not write-fenced: " + why_not_ +
         ". The session cwd stays inside the workspace root '" + root_ +
         "', but commands can write anywhere this user can.";
}

Result<int> write_fence_fd(const Backend& backend) {
  const CommandFence* fence = backend.command_fence();
  return fence ? fence->write_fence_fd() : -1;
}

std::optional<std::string> fence_notice(const Backend& backend) {
  const CommandFence* fence = backend.command_fence();
  return fence ? fence->take_notice() : std::nullopt;
}

}  // namespace hermes
