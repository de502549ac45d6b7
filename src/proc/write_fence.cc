// SPDX-License-Identifier: MIT
// Landlock through its raw system calls (glibc has no wrappers). The rights
// a ruleset handles grow with the ABI; asking for one the kernel does not
// know fails, so the set is masked by the ABI found at run time.
#include "proc/write_fence.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace hermes::proc {
namespace {

// Newer than the installed header (ABI 3).
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif

constexpr uint64_t kWriteRightsAbi1 =
    LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
    LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
    LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
    LANDLOCK_ACCESS_FS_MAKE_SYM;

// Every right that changes the file system, as far as `abi` knows them.
// Reading, listing, executing and (ABI 5) device ioctls stay unhandled, so
// they are allowed everywhere.
uint64_t write_rights(int abi) {
  uint64_t rights = kWriteRightsAbi1;
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;     // links and renames across dirs
  if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;  // truncate(2), O_TRUNC
  return rights;
}

// The rights a rule on a non-directory may carry.
constexpr uint64_t kFileRights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE;

long create_ruleset(const landlock_ruleset_attr* attr, size_t size, uint32_t flags) {
  return ::syscall(SYS_landlock_create_ruleset, attr, size, flags);
}

std::string why_unavailable(int err) {
  if (err == ENOSYS) return "this kernel has no Landlock (landlock_create_ruleset: ENOSYS)";
  if (err == EOPNOTSUPP) {
    return "Landlock is disabled on this system (landlock_create_ruleset: EOPNOTSUPP; "
           "add landlock to the lsm= boot parameter)";
  }
  return Error::FromErrno(err, "landlock_create_ruleset").message;
}

}  // namespace

LandlockSupport landlock_support() {
  const char* setting = std::getenv("HERMES_LANDLOCK");
  if (setting && std::string_view(setting) == "off") {
    return {0, "Landlock is switched off (HERMES_LANDLOCK=off)"};
  }
  long abi = create_ruleset(nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 0) return {0, why_unavailable(errno)};
  return {static_cast<int>(abi), ""};
}

Result<WriteFence> WriteFence::build(const std::vector<std::string>& paths) {
  LandlockSupport support = landlock_support();
  if (support.abi <= 0) return Error::Unavailable(support.why_not);
  const uint64_t handled = write_rights(support.abi);
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = handled;
  UniqueFd ruleset(static_cast<int>(create_ruleset(&attr, sizeof attr, 0)));
  if (!ruleset.valid()) return Error::Unavailable(why_unavailable(errno));
  for (const std::string& path : paths) {
    UniqueFd target(::open(path.c_str(), O_PATH | O_CLOEXEC));
    struct stat st {};
    if (!target.valid() || ::fstat(target.get(), &st) != 0) continue;
    landlock_path_beneath_attr rule{};
    rule.allowed_access = S_ISDIR(st.st_mode) ? handled : kFileRights & handled;
    rule.parent_fd = target.get();
    if (::syscall(SYS_landlock_add_rule, ruleset.get(), LANDLOCK_RULE_PATH_BENEATH, &rule, 0) !=
        0) {
      return Error::FromErrno(errno, "landlock_add_rule \"" + path + "\"");
    }
  }
  return WriteFence(std::move(ruleset), support.abi);
}

bool WriteFence::enter(int ruleset_fd) noexcept {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  return ::syscall(SYS_landlock_restrict_self, ruleset_fd, 0) == 0;
}

}  // namespace hermes::proc
