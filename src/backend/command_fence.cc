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

std::vector<std::string> writable_paths(const CommandFenceOptions& options,
                                        const std::string& temp_dir) {
  std::vector<std::string> paths = {options.root, temp_dir};
  paths.insert(paths.end(), std::begin(kDevices), std::end(kDevices));
  for (const std::string& extra : options.extra_write_paths) {
    std::error_code ec;
    if (extra.empty() || extra[0] != '/' || !std::filesystem::exists(extra, ec)) {
      log::warn("security.command_write_paths: '" + extra +
                "' is not an existing absolute path; ignored");
      continue;
    }
    paths.push_back(extra);
  }
  return paths;
}

}  // namespace

Result<std::unique_ptr<CommandFence>> CommandFence::create(const CommandFenceOptions& options) {
  std::string pattern = options.host_temp_dir + "/hermes-fence-XXXXXX";
  if (!::mkdtemp(pattern.data())) {
    return Error::Unavailable("cannot create a private temporary directory under " +
                              options.host_temp_dir);
  }
  auto landlock = proc::WriteFence::build(writable_paths(options, pattern));
  std::string why_not;
  if (!landlock) {
    why_not = landlock.error().message;
    log::warn("commands are not write-fenced: " + why_not);
  }
  std::optional<proc::WriteFence> fence;
  if (landlock) fence.emplace(std::move(*landlock));
  return std::unique_ptr<CommandFence>(
      new CommandFence(options.root, std::move(pattern), std::move(fence), std::move(why_not)));
}

CommandFence::CommandFence(std::string root, std::string temp_dir,
                           std::optional<proc::WriteFence> landlock, std::string why_not)
    : root_(std::move(root)),
      temp_dir_(std::move(temp_dir)),
      landlock_(std::move(landlock)),
      why_not_(std::move(why_not)) {}

CommandFence::~CommandFence() {
  std::error_code ignored;
  std::filesystem::remove_all(temp_dir_, ignored);
}

std::optional<std::string> CommandFence::take_notice() const {
  if (landlock_ || notice_given_.exchange(true)) return std::nullopt;
  return "Commands are not write-fenced: " + why_not_ +
         ". The session cwd stays inside the workspace root '" + root_ +
         "', but commands can write anywhere this user can.";
}

int write_fence_fd(const Backend& backend) {
  const CommandFence* fence = backend.command_fence();
  return fence ? fence->write_fence_fd() : -1;
}

std::optional<std::string> fence_notice(const Backend& backend) {
  const CommandFence* fence = backend.command_fence();
  return fence ? fence->take_notice() : std::nullopt;
}

}  // namespace hermes
