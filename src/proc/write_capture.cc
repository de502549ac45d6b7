// SPDX-License-Identifier: MIT
// The filter and the supervisor's side of write_capture.h. serve_one runs
// in a forked copy of a multithreaded server: system calls on stack memory
// only, no allocation.
#include "proc/write_capture.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

// Linux 6.6; Debian 12's headers predate it.
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

namespace hermes::proc {

namespace {

#if defined(__x86_64__)
constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
constexpr uint32_t kArch = 0;  // no filter: nothing is kept
#endif

// How a system call's arguments name the path it changes.
enum class Act : uint8_t { kOpen, kOpen2, kWrite, kRemove, kRename, kRename2 };

struct Watched {
  long nr;
  Act act;
  int dir_arg;   // -1: the path is relative to the cwd
  int path_arg;  // the path's argument
  int flags_arg;
};

// The calls that can change a file's bytes or take its name away.
constexpr Watched kWatched[] = {
    {SYS_openat, Act::kOpen, 0, 1, 2},      {SYS_openat2, Act::kOpen2, 0, 1, 2},
    {SYS_truncate, Act::kWrite, -1, 0, -1}, {SYS_unlinkat, Act::kRemove, 0, 1, 2},
    {SYS_renameat, Act::kRename, 2, 3, -1}, {SYS_renameat2, Act::kRename2, 2, 3, 4},
#ifdef SYS_open
    {SYS_open, Act::kOpen, -1, 0, 1},       {SYS_creat, Act::kWrite, -1, 0, -1},
    {SYS_unlink, Act::kRemove, -1, 0, -1},  {SYS_rename, Act::kRename, -1, 1, -1},
#endif
};

constexpr uint32_t kWriteFlags = O_WRONLY | O_RDWR | O_TRUNC;

uint32_t low_word_offset(int arg) {
  return static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * arg);
}

// allow, or notify for the calls above; an open only when it may write,
// an unlinkat only of a file.
template <size_t N>
size_t build_program(std::array<sock_filter, N>& p) {
  size_t n = 0;
  auto put = [&](sock_filter f) { p[n++] = f; };
  constexpr uint32_t kAllow = SECCOMP_RET_ALLOW, kNotify = SECCOMP_RET_USER_NOTIF;
  put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
  put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0));
  put(BPF_STMT(BPF_RET | BPF_K, kAllow));
  put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
#if defined(__x86_64__)
  put(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));  // x32
  put(BPF_STMT(BPF_RET | BPF_K, kAllow));
#endif
  for (const Watched& w : kWatched) {
    bool open = w.act == Act::kOpen, unlinkat = w.act == Act::kRemove && w.flags_arg >= 0;
    uint8_t body = open || unlinkat ? 4 : 1;
    put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(w.nr), 0, body));
    if (open || unlinkat) {
      put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, low_word_offset(w.flags_arg)));
      put(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, open ? kWriteFlags : AT_REMOVEDIR, 0, 1));
      put(BPF_STMT(BPF_RET | BPF_K, open ? kNotify : kAllow));
      put(BPF_STMT(BPF_RET | BPF_K, open ? kAllow : kNotify));
    } else {
      put(BPF_STMT(BPF_RET | BPF_K, kNotify));
    }
  }
  put(BPF_STMT(BPF_RET | BPF_K, kAllow));
  return n;
}

// Decimal digits of `v` appended at `out` (no NUL); returns the end.
char* put_number(char* out, uint64_t v) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) *out++ = digits[--n];
  return out;
}

char* put_text(char* out, const char* text) {
  while (*text) *out++ = *text++;
  return out;
}

// "/proc/<pid>/<what>" or "/proc/<pid>/fd/<fd>".
void proc_path(char* out, pid_t pid, const char* what, int fd = -1) {
  out = put_text(out, "/proc/");
  out = put_number(out, static_cast<uint64_t>(pid));
  *out++ = '/';
  out = put_text(out, what);
  if (fd >= 0) out = put_number(out, static_cast<uint64_t>(fd));
  *out = '\0';
}

// A NUL-terminated string of the stopped process, a page at a time (a
// read across into an unmapped page fails whole).
bool read_string(pid_t pid, uint64_t addr, char* out, size_t cap) {
  constexpr uint64_t kPage = 4096;
  size_t have = 0;
  while (have + 1 < cap) {
    size_t want = static_cast<size_t>(kPage - (addr + have) % kPage);
    if (want > cap - 1 - have) want = cap - 1 - have;
    iovec local{out + have, want};
    iovec remote{reinterpret_cast<void*>(addr + have), want};
    ssize_t got = ::process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (got <= 0) return false;
    for (ssize_t i = 0; i < got; ++i) {
      if (out[have + static_cast<size_t>(i)] == '\0') return true;
    }
    have += static_cast<size_t>(got);
  }
  return false;
}

bool read_bytes(pid_t pid, uint64_t addr, void* out, size_t size) {
  iovec local{out, size};
  iovec remote{reinterpret_cast<void*>(addr), size};
  return ::process_vm_readv(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(size);
}

// Whether the directory open as `dir` is the workspace root or beneath
// it, by walking `..` (which works in any mount namespace the process is
// in: the workspace is bound at its own inode).
bool beneath_root(int dir, const capture_internal::Plan& plan) {
  int cur = ::fcntl(dir, F_DUPFD_CLOEXEC, 0);
  struct ::stat st {};
  for (int depth = 0; cur >= 0 && depth < 256; ++depth) {
    if (::fstat(cur, &st) != 0) break;
    if (st.st_dev == plan.root_dev && st.st_ino == plan.root_ino) {
      ::close(cur);
      return true;
    }
    int up = ::openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
    struct ::stat up_st {};
    if (up < 0 || ::fstat(up, &up_st) != 0 ||
        (up_st.st_dev == st.st_dev && up_st.st_ino == st.st_ino)) {
      if (up >= 0) ::close(up);
      break;
    }
    ::close(cur);
    cur = up;
  }
  if (cur >= 0) ::close(cur);
  return false;
}

// The path of what `fd` is open on, as this process sees it.
bool path_of_fd(int fd, char (&path)[4096]) {
  char self[64];
  proc_path(self, ::getpid(), "fd/", fd);
  ssize_t n = ::readlink(self, path, sizeof path - 1);
  if (n <= 0) return false;
  path[n] = '\0';
  return true;
}

// Whether the directory open as `dir`, beneath the root, lies in an ignored
// folder: its path beneath the root (as this process sees it) has a
// component of that name. A path seen otherwise (another mount namespace)
// is not judged.
bool in_ignored(int dir, const capture_internal::Plan& plan) {
  char path[4096];
  if (!path_of_fd(dir, path)) return false;
  size_t root_len = std::strlen(plan.root);
  if (std::strncmp(path, plan.root, root_len) != 0) return false;
  for (char* part = path + root_len; *part != '\0';) {
    while (*part == '/') ++part;
    char* end = part;
    while (*end != '\0' && *end != '/') ++end;
    size_t len = static_cast<size_t>(end - part);
    for (const char* name = plan.ignored; *name != '\0'; name += std::strlen(name) + 1) {
      if (len > 0 && std::strlen(name) == len && std::strncmp(part, name, len) == 0) return true;
    }
    part = end;
  }
  return false;
}

// Each inode copied since which look: a file changed again before the
// next look needs no second copy (only the state a look saw is ever used).
// Open addressing over a few slots; a slot of an older look is free.
uint64_t current_look(int looks_fd) {
  uint64_t look = 0;
  if (::pread(looks_fd, &look, sizeof look, 0) != static_cast<ssize_t>(sizeof look)) return 0;
  return look;
}

constexpr size_t kProbe = 8;

capture_internal::Copied::Entry* seen_slot(capture_internal::Copied& copied,
                                           const struct ::stat& st, size_t i) {
  return &copied.slots[(st.st_ino * 31 + st.st_dev + i) % std::size(copied.slots)];
}

bool copied_this_look(const struct ::stat& st, uint64_t look, const capture_internal::Plan& plan) {
  if (plan.copied == nullptr) return false;
  for (size_t i = 0; i < kProbe; ++i) {
    const auto* slot = seen_slot(*plan.copied, st, i);
    if (slot->dev == st.st_dev && slot->ino == st.st_ino && slot->look == look) return true;
  }
  return false;
}

void mark_copied(const struct ::stat& st, uint64_t look, const capture_internal::Plan& plan) {
  if (plan.copied == nullptr) return;
  auto* chosen = seen_slot(*plan.copied, st, 0);
  for (size_t i = 0; i < kProbe; ++i) {
    if (seen_slot(*plan.copied, st, i)->look != look) {
      chosen = seen_slot(*plan.copied, st, i);
      break;
    }
  }
  *chosen = {st.st_dev, st.st_ino, look};
}

bool copy_bytes(int from, int to, uint64_t size) {
  if (::ioctl(to, FICLONE, from) == 0) return true;
  loff_t in = 0, out = 0;
  while (static_cast<uint64_t>(in) < size) {
    ssize_t n = ::copy_file_range(from, &in, to, &out, size - static_cast<uint64_t>(in), 0);
    if (n > 0) continue;
    if (n == 0) return true;  // shorter than it was: the stamp check below fails
    if (errno != EXDEV && errno != ENOSYS && errno != EOPNOTSUPP && errno != EINVAL) return false;
    char buf[65536];
    for (;;) {
      ssize_t r = ::pread(from, buf, sizeof buf, in);
      if (r < 0) return false;
      if (r == 0) return true;
      if (::pwrite(to, buf, static_cast<size_t>(r), out) != r) return false;
      in += r;
      out += r;
    }
  }
  return true;
}

bool same_state(const struct ::stat& a, const struct ::stat& b) {
  return a.st_ino == b.st_ino && a.st_dev == b.st_dev && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

// Keeps the file named `name` in `parent` (stat'ed as `st`), about to lose
// that name, as `kept` by a second name: no bytes copied. False when it
// could not (another file system): copy it then.
bool keep_by_link(int parent, const char* name, const struct ::stat& st, const char* kept,
                  const capture_internal::Plan& plan) {
  if (st.st_nlink != 1) return false;
  if (::linkat(parent, name, plan.dir_fd, kept, 0) != 0) return errno == EEXIST;
  struct ::stat now {};
  if (::fstatat(plan.dir_fd, kept, &now, AT_SYMLINK_NOFOLLOW) != 0 || !same_state(now, st)) {
    ::unlinkat(plan.dir_fd, kept, 0);  // another file took the name meanwhile
  }
  return true;
}

// Keeps the file open as `file` (O_PATH, stat'ed as `st`) as `kept`, a
// copy (a clone where the file system can) made only if the file did not
// change meanwhile. It replaces a `kept` that is a second name of the file
// itself (kept by keep_by_link for a call that then failed, or a file
// still written through a descriptor): that one would change with it.
bool keep_by_copy(int file, const struct ::stat& st, const char* kept,
                  const capture_internal::Plan& plan) {
  char self[64];
  proc_path(self, ::getpid(), "fd/", file);
  int from = ::open(self, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (from < 0) return false;
  int to = ::openat(plan.dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  struct ::stat before {
  }, after{};
  bool kept_it = false;
  if (to >= 0 && ::fstat(from, &before) == 0 && same_state(before, st) &&
      copy_bytes(from, to, static_cast<uint64_t>(st.st_size)) && ::fstat(from, &after) == 0 &&
      same_state(after, st)) {
    proc_path(self, ::getpid(), "fd/", to);
    char temp[96];
    put_text(put_text(temp, kept), ".new")[0] = '\0';
    ::unlinkat(plan.dir_fd, temp, 0);
    kept_it = ::linkat(AT_FDCWD, self, plan.dir_fd, temp, AT_SYMLINK_FOLLOW) == 0 &&
              ::renameat(plan.dir_fd, temp, plan.dir_fd, kept) == 0;
  }
  if (to >= 0) ::close(to);
  ::close(from);
  return kept_it;
}

// `kept`: the capture's name for `st` at look `look`.
void name_of(const struct ::stat& st, uint64_t look, char* kept) {
  char* end = put_number(kept, look);
  *end++ = '-';
  end = put_number(end, st.st_ino);
  *end++ = '.';
  end = put_number(end, static_cast<uint64_t>(st.st_size));
  *end++ = '.';
  end = put_number(end, static_cast<uint64_t>(st.st_mtim.tv_sec) * 1000000000ULL +
                            static_cast<uint64_t>(st.st_mtim.tv_nsec));
  *end = '\0';
}

// Opens the directory holding the path at `addr` of the stopped call, as
// that process resolves it (its root, cwd or directory descriptor `dirfd`;
// `in_root`: openat2's RESOLVE_IN_ROOT, `dirfd` is its root), and points
// `name` at its last component in `path`. -1 when there is nothing to
// keep: unreadable, a device, or no such directory.
int open_parent(const seccomp_notif& req, int dirfd, uint64_t addr, bool in_root, char* path,
                size_t cap, const char*& name, bool& by_proc, const capture_internal::Plan& plan) {
  by_proc = false;
  if (!read_string(req.pid, addr, path, cap) || path[0] == '\0') return -1;
  // Devices (`2>/dev/null`, /dev/tty): most of a shell's opens for writing.
  if (std::strncmp(path, "/dev/", 5) == 0 && std::strncmp(plan.root, "/dev/", 5) != 0) return -1;
  char base_path[64];
  const char* rel = path;
  if (path[0] == '/' && !in_root) {
    proc_path(base_path, req.pid, "root");
    while (*rel == '/') ++rel;
    // /proc/self is the stopped process, not this one.
    for (const char* self : {"proc/self/", "proc/thread-self/"}) {
      size_t len = std::strlen(self);
      if (std::strncmp(rel, self, len) != 0) continue;
      proc_path(base_path, req.pid, "");
      rel += len;
      by_proc = true;
      break;
    }
  } else if (dirfd == AT_FDCWD) {
    proc_path(base_path, req.pid, "cwd");
  } else {
    proc_path(base_path, req.pid, "fd/", dirfd);
  }
  while (in_root && *rel == '/') ++rel;
  char* slash = std::strrchr(const_cast<char*>(rel), '/');
  name = slash ? slash + 1 : rel;
  if (*name == '\0' || std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) return -1;
  int base = ::open(base_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (base < 0 || !slash) return base;
  *slash = '\0';
  int parent = ::openat(base, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
  ::close(base);
  return parent;
}

// Whether the file open as `file` (a link followed) lies beneath the root,
// by its path as this process sees it.
bool file_beneath_root(int file, const capture_internal::Plan& plan) {
  char path[4096];
  if (!path_of_fd(file, path)) return false;
  size_t len = std::strlen(plan.root);
  return std::strncmp(path, plan.root, len) == 0 && path[len] == '/';
}

// The directory open as `dir` through this host's mount of it, when the
// stopped process saw it through another (bubblewrap's bind of the
// workspace): a link or a clone into the capture folder fails across
// mounts (EXDEV). -1 when they are the same mount, or the path does not
// lead to the same directory here.
int host_view(int dir, const capture_internal::Plan& plan) {
  struct ::statx seen {
  }, store{};
  if (::statx(dir, "", AT_EMPTY_PATH, STATX_MNT_ID, &seen) != 0 ||
      ::statx(plan.dir_fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &store) != 0 ||
      seen.stx_mnt_id == store.stx_mnt_id) {
    return -1;
  }
  char path[4096];
  if (!path_of_fd(dir, path) || path[0] != '/') return -1;
  int host = ::open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  struct ::stat a {
  }, b{};
  if (host >= 0 && (::fstat(host, &a) != 0 || ::fstat(dir, &b) != 0 || a.st_dev != b.st_dev ||
                    a.st_ino != b.st_ino)) {
    ::close(host);
    host = -1;
  }
  return host;
}

// Keeps `file`, `name` in `parent` (stat'ed as `st`), as the capture of
// look `look`: by a second name when the call takes its only name away,
// else by a copy. Through this host's mount of the workspace where it can
// (host_view), so that a link or a clone need not be a copy.
void keep(int parent, int file, const char* name, bool follow, bool removing,
          const struct ::stat& st, uint64_t look, const capture_internal::Plan& plan) {
  int host = host_view(parent, plan);
  int host_file =
      host < 0 ? -1 : ::openat(host, name, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
  struct ::stat same {};
  if (host_file >= 0 &&
      (::fstat(host_file, &same) != 0 || same.st_dev != st.st_dev || same.st_ino != st.st_ino)) {
    ::close(host_file);
    host_file = -1;
  }
  if (host_file >= 0) {
    parent = host;
    file = host_file;
  }
  char kept[96];
  name_of(st, look, kept);
  struct ::stat have {};
  bool exists = ::fstatat(plan.dir_fd, kept, &have, AT_SYMLINK_NOFOLLOW) == 0;
  bool shares = exists && have.st_ino == st.st_ino && have.st_dev == st.st_dev;
  if (removing && !exists && keep_by_link(parent, name, st, kept, plan)) {
    // kept by a second name: a later write must still copy it
  } else if ((!exists || shares) && keep_by_copy(file, st, kept, plan)) {
    mark_copied(st, look, plan);
  }
  if (host_file >= 0) ::close(host_file);
  if (host >= 0) ::close(host);
}

// Keeps the file `name` in `parent` when it is a regular file beneath the
// workspace, in the state the current look saw: by a link when the call
// takes its only name away (`removing`), else by a copy. `by_proc`: the
// name is one of /proc's links to the file (`/proc/self/fd/3`), judged by
// where the file is.
void keep_file(int parent, const char* name, bool follow, bool removing, bool by_proc,
               const capture_internal::Plan& plan) {
  int file = ::openat(parent, name, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
  struct ::stat st {
  }, own{};
  uint64_t look = current_look(plan.looks_fd);
  bool wanted = file >= 0 && ::fstat(file, &st) == 0 && S_ISREG(st.st_mode) &&
                st.st_dev == plan.root_dev && static_cast<uint64_t>(st.st_size) <= plan.max_bytes &&
                !copied_this_look(st, look, plan);
  if (wanted && by_proc) {
    wanted = file_beneath_root(file, plan);
  } else if (wanted) {
    wanted = beneath_root(parent, plan) && !in_ignored(parent, plan);
    // A link followed: the file it reaches must be the workspace's too.
    if (wanted && follow && ::fstatat(parent, name, &own, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(own.st_mode)) {
      wanted = file_beneath_root(file, plan);
    }
  }
  if (wanted) keep(parent, file, name, follow, removing, st, look, plan);
  if (file >= 0) ::close(file);
}

// The call's paths, resolved as the stopped process would, and each file
// the call may change or take away kept.
void consider(const seccomp_notif& req, const Watched& w, const capture_internal::Plan& plan) {
  const __u64* a = req.data.args;
  bool removing = w.act == Act::kRemove || w.act == Act::kRename || w.act == Act::kRename2;
  bool follow = !removing, in_root = false;
  if (w.act == Act::kOpen || w.act == Act::kOpen2) {
    uint64_t flags = a[w.flags_arg];
    if (w.act == Act::kOpen2) {
      open_how how{};
      if (!read_bytes(req.pid, a[2], &how, sizeof how)) return;
      flags = how.flags;
      in_root = (how.resolve & RESOLVE_IN_ROOT) != 0;
    }
    if ((flags & kWriteFlags) == 0) return;
    if ((flags & O_CREAT) && (flags & O_EXCL)) return;  // a new file, or the call fails
    follow = (flags & O_NOFOLLOW) == 0;
  }
  if (w.act == Act::kRemove && w.flags_arg >= 0 && (a[w.flags_arg] & AT_REMOVEDIR)) return;
  if (w.act == Act::kRename2 && (a[w.flags_arg] & RENAME_EXCHANGE)) return;
  char path[4096];
  const char* name = nullptr;
  bool by_proc = false;
  int dirfd = w.dir_arg < 0 ? AT_FDCWD : static_cast<int>(a[w.dir_arg]);
  int parent =
      open_parent(req, dirfd, a[w.path_arg], in_root, path, sizeof path, name, by_proc, plan);
  if (parent < 0) return;
  bool target_inside = beneath_root(parent, plan);
  if (!(w.act == Act::kRename2 && (a[w.flags_arg] & RENAME_NOREPLACE))) {
    keep_file(parent, name, follow, removing, by_proc, plan);
  }
  ::close(parent);
  // A file moved out of the workspace leaves it: keep the one moved (by a
  // second name). One moved within it is still there, under its new name.
  if (w.act != Act::kRename && w.act != Act::kRename2) return;
  if (target_inside) return;
  int from_dirfd = w.dir_arg < 0 ? AT_FDCWD : static_cast<int>(a[0]);
  int from = open_parent(req, from_dirfd, a[w.dir_arg < 0 ? 0 : 1], false, path, sizeof path, name,
                         by_proc, plan);
  if (from < 0) return;
  keep_file(from, name, false, true, false, plan);
  ::close(from);
}

// The filter with its listener. Once the supervisor has the call, only a
// fatal signal interrupts the wait: a handler without SA_RESTART would
// otherwise see EINTR from an open that never returns it (Linux 5.19;
// tried without before).
long seccomp_with_listener(const sock_fprog& prog) {
  long fd =
      ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &prog);
  if (fd < 0 && errno == EINVAL) {
    fd = ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
  }
  return fd;
}

}  // namespace

bool write_capture_available(bool no_new_privs) {
  // Tried once on a thread of its own (a filter and no_new_privs hold for
  // the thread that sets them, and end with it): a kernel may list the
  // action and still refuse the filter (a container's own profile, or a
  // listener already on this process's chain: one is allowed per chain).
  static const bool kernel_offers = [] {
    std::ifstream actions("/proc/sys/kernel/seccomp/actions_avail");
    std::string all((std::istreambuf_iterator<char>(actions)), {});
    if (kArch == 0 || all.find("user_notif") == std::string::npos) return false;
    bool installed = false;
    std::thread([&installed] {
      ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
      int listener = capture_internal::install_filter();
      installed = listener >= 0;
      if (installed) ::close(listener);
    }).join();
    return installed;
  }();
  if (!kernel_offers) return false;
  if (no_new_privs) return true;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (::syscall(SYS_capget, &header, data) != 0) return false;
  return (data[CAP_SYS_ADMIN / 32].effective & (1U << (CAP_SYS_ADMIN % 32))) != 0;
}

std::string captured_state(uint64_t ino, uint64_t size, int64_t mtime_ns) {
  return std::to_string(ino) + "." + std::to_string(size) + "." + std::to_string(mtime_ns);
}

namespace capture_internal {

void make_plan(const WriteCapture& capture, int dir_fd, int looks_fd, Plan& plan) {
  plan.dir_fd = dir_fd;
  plan.looks_fd = looks_fd;
  plan.root_dev = capture.root_dev;
  plan.root_ino = capture.root_ino;
  plan.max_bytes = capture.max_bytes;
  std::string root = capture.root == "/" ? "" : capture.root;
  root.copy(plan.root, std::min(root.size(), sizeof plan.root - 1));
  size_t at = 0;
  for (const std::string& name : capture.ignored) {
    if (name.empty() || at + name.size() + 2 > sizeof plan.ignored) continue;
    name.copy(plan.ignored + at, name.size());
    at += name.size() + 1;  // the array is zeroed: each name ends with NUL
  }
}

int install_filter() noexcept {
  if (kArch == 0) return -1;
  std::array<sock_filter, 96> program{};
  size_t n = build_program(program);
  sock_fprog prog{static_cast<unsigned short>(n), program.data()};
  long fd = seccomp_with_listener(prog);
  // Without CAP_SYS_ADMIN a filter needs no_new_privs: a backend takes the
  // capture only where its commands may have it (write_capture_available).
  if (fd < 0 && errno == EACCES && ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) {
    fd = seccomp_with_listener(prog);
  }
  return fd < 0 ? -1 : static_cast<int>(fd);
}

void hurry(int listener) noexcept {
  ::ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 0);
}

bool serve_one(int listener, const Plan& plan) noexcept {
  seccomp_notif req;
  std::memset(&req, 0, sizeof req);
  if (::ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) {
    return errno == EINTR || errno == ENOENT;  // ENOENT: that process was killed meanwhile
  }
  for (const Watched& w : kWatched) {
    if (w.nr != req.data.nr) continue;
    // The path is read from the process's memory: only while it still
    // waits in this call is what was read the call's own.
    uint64_t id = req.id;
    if (::ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0) consider(req, w, plan);
    break;
  }
  seccomp_notif_resp resp;
  std::memset(&resp, 0, sizeof resp);
  resp.id = req.id;
  resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
  ::ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
  return true;
}

}  // namespace capture_internal

}  // namespace hermes::proc
