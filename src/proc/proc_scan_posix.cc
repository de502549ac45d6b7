// SPDX-License-Identifier: MIT
// /proc walks for proc_scan.h: fixed buffers on the stack, raw system calls.
#include "proc/proc_scan.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace hermes::proc {
namespace {

// A decimal number at the start of `s`; -1 when there is none.
pid_t leading_number(const char* s) {
  if (*s < '0' || *s > '9') return -1;
  pid_t value = 0;
  for (; *s >= '0' && *s <= '9'; ++s) value = value * 10 + (*s - '0');
  return value;
}

}  // namespace

bool read_process_stat(pid_t pid, char& state, pid_t& ppid) {
  char path[32] = "/proc/";
  char digits[16];
  int n = 0;
  for (pid_t v = pid; v > 0; v /= 10) digits[n++] = static_cast<char>('0' + v % 10);
  int at = 6;
  while (n > 0) path[at++] = digits[--n];
  for (const char* tail = "/stat"; *tail;) path[at++] = *tail++;
  path[at] = '\0';
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[512];
  ssize_t len = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (len <= 0) return false;
  buf[len] = '\0';
  // The command name may hold ')' and spaces: fields resume after the last
  // ')' as " <state> <ppid> …".
  const char* close_paren = nullptr;
  for (const char* p = buf; *p; ++p) {
    if (*p == ')') close_paren = p;
  }
  if (!close_paren || close_paren + 4 >= buf + len) return false;
  state = close_paren[2];
  ppid = leading_number(close_paren + 4);
  return ppid >= 0;
}

namespace {

// Calls `on_process(pid)` for every numeric entry of /proc.
template <typename OnProcess>
void for_each_process(OnProcess on_process) {
  int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  alignas(dirent64) char buf[8192];
  for (long n; (n = ::syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0;) {
    for (long off = 0; off < n;) {
      const auto* entry = reinterpret_cast<const dirent64*>(buf + off);
      off += entry->d_reclen;
      pid_t pid = leading_number(entry->d_name);
      if (pid > 0) on_process(pid);
    }
  }
  ::close(dir);
}

}  // namespace

pid_t read_live_ppid(pid_t pid) {
  char state = 0;
  pid_t ppid = -1;
  if (!read_process_stat(pid, state, ppid) || state == 'Z' || state == 'X') return -1;
  return ppid;
}

int scan_processes(pid_t* pids, pid_t* ppids, int capacity) {
  int count = 0;
  for_each_process([&](pid_t pid) {
    pid_t ppid = count < capacity ? read_live_ppid(pid) : -1;
    if (ppid > 0) {
      pids[count] = pid;
      ppids[count++] = ppid;
    }
  });
  return count;
}

int scan_children(pid_t parent, pid_t* pids, bool* zombie, int capacity) {
  int count = 0;
  for_each_process([&](pid_t pid) {
    char state = 0;
    pid_t ppid = -1;
    if (count >= capacity || !read_process_stat(pid, state, ppid) || ppid != parent) return;
    pids[count] = pid;
    zombie[count++] = state == 'Z';
  });
  return count;
}

bool contains_pid(const pid_t* pids, int count, pid_t pid) {
  for (int i = 0; i < count; ++i) {
    if (pids[i] == pid) return true;
  }
  return false;
}

}  // namespace hermes::proc
