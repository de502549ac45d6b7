// SPDX-License-Identifier: MIT
#include "backend/command_fence.h"

#include "backend/backend.h"
#include "core/link_walk.h"
#include "core/log.h"
#include "fs/beneath.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>

namespace hermes::backend {
namespace {

// What shells and common tools open for writing outside any project:
// discarding output, terminals (ptys and the controlling tty), entropy.
// File rules cover exactly these; /dev/pts covers every pty beneath it.
constexpr const char* kDevices[] = {"/dev/null", "/dev/zero", "/dev/full",   "/dev/tty",
                                    "/dev/ptmx", "/dev/pts",  "/dev/random", "/dev/urandom"};

// The first symbolic link on `path`, as "'<link>' -> '<its text>'", or ""
// (for the message only: the refusal is decided by the no-link open).
std::string first_link(const std::string& path) {
  std::string prefix;
  for (const std::string& part : path_components(path)) {
    prefix += "/" + part;
    std::error_code ec;
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(prefix, ec))) {
      return "'" + prefix + "' -> '" + std::filesystem::read_symlink(prefix, ec).string() + "'";
    }
  }
  return "";
}

// A security.command_write_paths entry opened without following any link,
// itself or on the way (the kernel's no-symlink walk, fs/beneath.h): its rule
// is bound to the folder the entry names, never to wherever a link planted
// there (by a command of an earlier session, another user in /tmp, a swap
// racing the session start) points.
Result<proc::OpenedPath> open_write_path(const std::string& entry) {
  const std::string named = "security.command_write_paths entry '" + entry + "'";
  if (entry.empty() || entry[0] != '/')
    return Error::InvalidArgument(named + " is not an absolute path");
  HERMES_ASSIGN_OR_RETURN(fs::Beneath slash, fs::Beneath::open_root("/"));
  auto fd = slash.open(entry, O_PATH);
  struct stat st {};
  if (fd && ::fstat(fd->get(), &st) != 0) return Error::FromErrno(errno, named + ": fstat");
  // A final link comes back as itself (O_PATH|O_NOFOLLOW).
  bool is_link = fd && S_ISLNK(st.st_mode);
  if (fd && !is_link) return proc::OpenedPath{entry, std::move(*fd)};
  std::string link = first_link(entry);
  if (!is_link && link.empty()) return Error{fd.error().code, named + ": " + fd.error().message};
  std::error_code ec;
  std::string real = std::filesystem::canonical(entry, ec).string();
  return Error::PermissionDenied(
      named + " goes through the symbolic link " + (link.empty() ? "'" + entry + "'" : link) +
      ", so the fence would allow writes wherever it points" +
      (real.empty() ? "" : "; list the real path '" + real + "' instead if it is meant"));
}

// The private directory mkdtemp just made, opened without following a link
// in its name: a command of another session that may write in the
// temporary directory (`/tmp` listed in command_write_paths) could swap the
// fresh folder for a link between mkdtemp and this open.
Result<proc::OpenedPath> open_private_dir(const std::string& dir) {
  proc::UniqueFd fd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) {
    return Error::FromErrno(errno, "open the private temporary directory \"" + dir +
                                       "\" (replaced since it was made?)");
  }
  return proc::OpenedPath{dir, std::move(fd)};
}

// The fence over the root, the private directory, every configured path
// (each an absolute path without links that can be opened) and the devices
// there are. kUnavailable when the kernel has no Landlock.
Result<proc::WriteFence> build_fence(const CommandFenceOptions& options,
                                     const std::string& temp_dir) {
  proc::LandlockSupport landlock = proc::landlock_support();
  if (landlock.abi <= 0) return Error::Unavailable(landlock.why_not);
  std::vector<proc::OpenedPath> opened;
  HERMES_ASSIGN_OR_RETURN(proc::OpenedPath private_dir, open_private_dir(temp_dir));
  opened.push_back(std::move(private_dir));
  for (const std::string& entry : options.extra_write_paths) {
    HERMES_ASSIGN_OR_RETURN(proc::OpenedPath configured, open_write_path(entry));
    opened.push_back(std::move(configured));
  }
  return proc::WriteFence::build({options.root}, {std::begin(kDevices), std::end(kDevices)},
                                 opened);
}

// Why commands are refused when the kernel has Landlock but the fence
// cannot be built, and how to fix it.
std::string refusal_for(const Error& error) {
  return "Commands are refused: their write fence cannot be built (" + error.message +
         "). Make every security.command_write_paths entry an existing absolute path without "
         "symbolic links that this user can open (or remove it), or set HERMES_LANDLOCK=off to "
         "run commands without the fence.";
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

}  // namespace hermes::backend
