// SPDX-License-Identifier: MIT
// Landlock through its raw system calls (glibc has no wrappers). The rights
// a ruleset handles grow with the ABI; asking for one the kernel does not
// know fails, so the set is masked by the ABI found at run time.
#include "proc/write_fence.h"

#include <dirent.h>
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

// Newer than the installed header (ABI 3 and 5).
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif

constexpr uint64_t kWriteRightsAbi1 =
    LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
    LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
    LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
    LANDLOCK_ACCESS_FS_MAKE_SYM;

constexpr uint64_t kReadRights = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr uint64_t kRunRights = kReadRights | LANDLOCK_ACCESS_FS_EXECUTE;

// Every right that changes the file system, as far as `abi` knows them.
uint64_t write_rights(int abi) {
  uint64_t rights = kWriteRightsAbi1;
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;     // links and renames across dirs
  if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;  // truncate(2), O_TRUNC
  return rights;
}

// Every file-system right `abi` knows: the read-only fence handles them all.
uint64_t all_rights(int abi) {
  uint64_t rights = write_rights(abi) | kRunRights;
  if (abi >= 5) rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
  return rights;
}

// The rights a rule on a non-directory may carry.
constexpr uint64_t kFileRights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
                                 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
                                 LANDLOCK_ACCESS_FS_IOCTL_DEV;

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

enum class IfMissing { kFail, kSkip };

// A ruleset being filled. Rights outside what it handles are masked out.
class RulesetBuilder {
 public:
  // kUnavailable only when Landlock is missing or switched off.
  static Result<RulesetBuilder> create(uint64_t (*handled_for)(int abi)) {
    LandlockSupport support = landlock_support();
    if (support.abi <= 0) return Error::Unavailable(support.why_not);
    landlock_ruleset_attr attr{};
    attr.handled_access_fs = handled_for(support.abi);
    UniqueFd ruleset(static_cast<int>(create_ruleset(&attr, sizeof attr, 0)));
    // The kernel has Landlock (it gave its ABI): any failure now is one to
    // report, not a missing feature.
    if (!ruleset.valid()) return Error::FromErrno(errno, "landlock_create_ruleset");
    return RulesetBuilder(std::move(ruleset), support.abi, attr.handled_access_fs);
  }

  // Allows `rights` beneath `path` (its file rights only, when it is not a
  // directory). With O_NOFOLLOW in `open_flags`, only a regular file that
  // is not a link counts. kSkip passes over a path that is missing (or not
  // such a file); any other failure is an error naming the path.
  Status allow(const std::string& path, uint64_t rights, IfMissing missing, int open_flags = 0) {
    UniqueFd target(::open(path.c_str(), O_PATH | O_CLOEXEC | open_flags));
    struct stat st {};
    int err = !target.valid() || ::fstat(target.get(), &st) != 0 ? errno : 0;
    if (err == 0 && (open_flags & O_NOFOLLOW) && !S_ISREG(st.st_mode)) err = ELOOP;
    if (err != 0) {
      bool absent = err == ENOENT || err == ENOTDIR || err == ELOOP;
      if (absent && missing == IfMissing::kSkip) return {};
      return Error::FromErrno(err, "open \"" + path + "\"");
    }
    return add_rule(target.get(), st.st_mode, rights, path);
  }

  // Allows `rights` beneath what the caller opened.
  Status allow(const OpenedPath& opened, uint64_t rights) {
    struct stat st {};
    if (::fstat(opened.fd.get(), &st) != 0) {
      return Error::FromErrno(errno, "fstat \"" + opened.path + "\"");
    }
    return add_rule(opened.fd.get(), st.st_mode, rights, opened.path);
  }

  // Allows listing beneath `path` and reading beneath it except in the
  // `excluded` paths (relative to it): see WriteFence::read_only.
  Status allow_reading_except(const std::string& path, const std::vector<std::string>& excluded) {
    UniqueFd dir(::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!dir.valid()) return Error::FromErrno(errno, "open \"" + path + "\"");
    HERMES_TRY(add_rule(dir.get(), S_IFDIR, LANDLOCK_ACCESS_FS_READ_DIR, path));
    return carve(dir.get(), path, excluded);
  }

  UniqueFd take() { return std::move(ruleset_); }
  int abi() const { return abi_; }

 private:
  Status add_rule(int fd, mode_t mode, uint64_t rights, const std::string& path) {
    landlock_path_beneath_attr rule{};
    rule.allowed_access = rights & handled_ & (S_ISDIR(mode) ? ~uint64_t{0} : kFileRights);
    rule.parent_fd = fd;
    if (::syscall(SYS_landlock_add_rule, ruleset_.get(), LANDLOCK_RULE_PATH_BENEATH, &rule, 0) !=
        0) {
      return Error::FromErrno(errno, "landlock_add_rule \"" + path + "\"");
    }
    return {};
  }

  // Reading beneath every entry of `dir` but the excluded ones, descending
  // into the folders on the way to one. Entries are opened without
  // following links; links and special files get no rule (engines do not
  // follow links below their roots).
  Status carve(int dir, const std::string& path, const std::vector<std::string>& excluded) {
    UniqueFd listing(::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    DIR* entries = listing.valid() ? ::fdopendir(listing.get()) : nullptr;
    if (entries == nullptr) return Error::FromErrno(errno, "list \"" + path + "\"");
    listing.release();
    Status status;
    while (const dirent* e = ::readdir(entries)) {
      std::string_view name = e->d_name;
      if (name == "." || name == "..") continue;
      bool is_excluded = false;
      std::vector<std::string> below;
      for (const std::string& rel : excluded) {
        if (!rel.starts_with(name)) continue;
        if (rel.size() == name.size()) is_excluded = true;
        if (rel.size() > name.size() && rel[name.size()] == '/')
          below.push_back(rel.substr(name.size() + 1));
      }
      if (is_excluded) continue;
      UniqueFd entry(::openat(dir, e->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC));
      struct stat st {};
      if (!entry.valid() || ::fstat(entry.get(), &st) != 0) continue;  // gone meanwhile
      std::string entry_path = path + (path == "/" ? "" : "/") + std::string(name);
      if (S_ISDIR(st.st_mode) && !below.empty()) {
        status = carve(entry.get(), entry_path, below);
      } else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
        status = add_rule(entry.get(), st.st_mode, kReadRights, entry_path);
      }
      if (!status) break;
    }
    ::closedir(entries);
    return status;
  }

  RulesetBuilder(UniqueFd ruleset, int abi, uint64_t handled)
      : ruleset_(std::move(ruleset)), abi_(abi), handled_(handled) {}
  UniqueFd ruleset_;
  int abi_ = 0;
  uint64_t handled_ = 0;
};

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

Result<WriteFence> WriteFence::build(const std::vector<std::string>& paths,
                                     const std::vector<std::string>& if_present,
                                     const std::vector<OpenedPath>& opened) {
  HERMES_ASSIGN_OR_RETURN(RulesetBuilder rules, RulesetBuilder::create(write_rights));
  for (const std::string& path : paths)
    HERMES_TRY(rules.allow(path, ~uint64_t{0}, IfMissing::kFail));
  for (const OpenedPath& path : opened) HERMES_TRY(rules.allow(path, ~uint64_t{0}));
  for (const std::string& path : if_present) {
    HERMES_TRY(rules.allow(path, ~uint64_t{0}, IfMissing::kSkip));
  }
  int abi = rules.abi();
  return WriteFence(rules.take(), abi);
}

namespace {

bool within(const std::string& path, const std::string& dir) {
  return path == dir || dir == "/" ||
         (path.starts_with(dir) && path.size() > dir.size() && path[dir.size()] == '/');
}

// The rules for one readable path: none when it lies in an excluded path,
// carved when excluded paths lie beneath it, else reading beneath it all.
Status allow_readable(RulesetBuilder& rules, const std::string& path,
                      const std::vector<std::string>& excluded) {
  std::vector<std::string> beneath;
  for (const std::string& out : excluded) {
    if (within(path, out)) return {};
    if (within(out, path)) beneath.push_back(out.substr(path == "/" ? 1 : path.size() + 1));
  }
  if (beneath.empty()) return rules.allow(path, kReadRights, IfMissing::kFail);
  return rules.allow_reading_except(path, beneath);
}

}  // namespace

Result<WriteFence> WriteFence::read_only(const ReadOnlyPaths& paths) {
  HERMES_ASSIGN_OR_RETURN(RulesetBuilder rules, RulesetBuilder::create(all_rights));
  for (const std::string& path : paths.readable)
    HERMES_TRY(allow_readable(rules, path, paths.excluded));
  for (const OpenedPath& path : paths.readable_opened) HERMES_TRY(rules.allow(path, kReadRights));
  for (const std::string& path : paths.runnable)
    HERMES_TRY(rules.allow(path, kRunRights, IfMissing::kSkip));
  for (const std::string& path : paths.readable_files) {
    HERMES_TRY(rules.allow(path, LANDLOCK_ACCESS_FS_READ_FILE, IfMissing::kSkip, O_NOFOLLOW));
  }
  int abi = rules.abi();
  return WriteFence(rules.take(), abi);
}

bool WriteFence::enter(int ruleset_fd) noexcept {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  return ::syscall(SYS_landlock_restrict_self, ruleset_fd, 0) == 0;
}

}  // namespace hermes::proc
