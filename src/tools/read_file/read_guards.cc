// SPDX-License-Identifier: MIT
// Path-level guards: namespace prefixes, the device blocklist walked along
// every symlink hop, and special-file kinds.
#include "tools/read_file/read_guards.h"

#include "core/paths.h"
#include "core/strings.h"
#include "fs/mount_table.h"

#include <array>

namespace hermes::read_file {
namespace {

constexpr std::array<std::string_view, 12> kBlockedDevices = {
    "/dev/zero",    "/dev/random", "/dev/urandom", "/dev/full", "/dev/stdin", "/dev/tty",
    "/dev/console", "/dev/stdout", "/dev/stderr",  "/dev/fd/0", "/dev/fd/1",  "/dev/fd/2"};

constexpr std::array<std::string_view, 12> kBlockedProcSuffixes = {
    "/fd/0",  "/fd/1",         "/fd/2",      "/environ", "/cmdline", "/maps",
    "/smaps", "/smaps_rollup", "/numa_maps", "/mem",     "/auxv",    "/pagemap"};

constexpr int kMaxHops = 40;

std::string parent_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

}  // namespace

bool is_nt_namespace(std::string_view raw) {
  return starts_with(raw, "\\\\?\\") || starts_with(raw, "\\??\\") || starts_with(raw, "\\\\.\\") ||
         starts_with(raw, "//?/") || starts_with(raw, "//./");
}

bool is_blocked_device(std::string_view path) {
  for (std::string_view dev : kBlockedDevices)
    if (path == dev) return true;
  if (!starts_with(path, "/proc/")) return false;
  for (std::string_view suffix : kBlockedProcSuffixes)
    if (ends_with(path, suffix)) return true;
  return false;
}

bool hits_device_blocklist(const fs::FileSystem& fs, const std::string& absolute,
                           const std::string& real) {
  // Resolution found no link on the way: there are no hops to walk (a link
  // swapped in since is refused by the no-symlink open). Under /proc the
  // resolver keeps magic links (`fd/N`) as they are: their hop is walked.
  if (absolute == real && !starts_with(real, "/proc/")) return is_blocked_device(real);
  std::string hop = absolute;
  for (int i = 0; i < kMaxHops; ++i) {
    if (is_blocked_device(hop)) return true;
    // A hop is spelled lexically, so it may name a place the brief check's
    // walk never went: not beneath a mount whose server may not answer
    // (no device lies there; `real` is still judged below).
    if (fs::may_wait_on_server_at(hop)) break;
    auto info = fs.lstat(hop);
    if (!info || info->type != fs::FileType::kSymlink) break;
    auto target = fs.read_link(hop);
    if (!target) break;
    hop = PathResolver::normalize(starts_with(*target, "/") ? *target
                                                            : parent_of(hop) + "/" + *target);
  }
  return is_blocked_device(real);
}

std::optional<std::string> special_file_kind(fs::FileType type) {
  switch (type) {
    case fs::FileType::kFifo:
    case fs::FileType::kSocket:
    case fs::FileType::kCharDevice:
    case fs::FileType::kBlockDevice:
      return std::string(fs::file_type_name(type));
    default:
      return std::nullopt;
  }
}

}  // namespace hermes::read_file
