// SPDX-License-Identifier: MIT
// Liveness checks for tests: a zombie (killed, not yet reaped by init) counts
// as dead, since this machine's init may reap late.
#pragma once

#include <dirent.h>
#include <sys/types.h>

#include <fstream>
#include <sstream>
#include <string>

namespace hermes::proc::testing {

// `pid`'s state letter and process group from /proc, or 0 when gone.
inline char proc_state(pid_t pid, pid_t* pgrp = nullptr) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return 0;
  std::istringstream rest(line.substr(line.rfind(')') + 2));
  char state = 0;
  pid_t ppid = 0, group = 0;
  rest >> state >> ppid >> group;
  if (pgrp) *pgrp = group;
  return state;
}

inline bool is_running(pid_t pid) {
  char s = proc_state(pid);
  return s != 0 && s != 'Z' && s != 'X';
}

// True when some live, non-zombie process belongs to group `pgid`.
inline bool group_running(pid_t pgid) {
  DIR* dir = ::opendir("/proc");
  bool found = false;
  while (dirent* e = dir ? ::readdir(dir) : nullptr) {
    pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
    pid_t group = 0;
    char s = pid > 0 ? proc_state(pid, &group) : 0;
    if (s != 0 && s != 'Z' && s != 'X' && group == pgid) found = true;
  }
  if (dir) ::closedir(dir);
  return found;
}

}  // namespace hermes::proc::testing
