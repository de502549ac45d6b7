// SPDX-License-Identifier: MIT
// Liveness checks for tests: a zombie (killed, not yet reaped by init) counts
// as dead, since this machine's init may reap late.
#pragma once

#include <dirent.h>
#include <sys/types.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace hermes::proc::testing {

// `pid`'s state letter, process group and parent from /proc, or 0 when gone.
inline char proc_state(pid_t pid, pid_t* pgrp = nullptr, pid_t* parent = nullptr) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return 0;
  std::istringstream rest(line.substr(line.rfind(')') + 2));
  char state = 0;
  pid_t ppid = 0, group = 0;
  rest >> state >> ppid >> group;
  if (pgrp) *pgrp = group;
  if (parent) *parent = ppid;
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

// Waits up to `limit` for `pid` to stop running.
inline bool dies_within(pid_t pid, std::chrono::milliseconds limit) {
  auto until = std::chrono::steady_clock::now() + limit;
  while (is_running(pid) && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return !is_running(pid);
}

// A shell command that leaves `orphan` running detached — its own session,
// its parent gone — and writes `<orphan pid> <parent pid>` to `file`: the
// setsid double fork a command uses to outlive its caller.
inline std::string leave_orphan(const std::string& file, const std::string& orphan = "sleep 300") {
  return "setsid sh -c '" + orphan + " & echo $! $$ > " + file + "'";
}

// The orphan's pid from leave_orphan's `file`, once its parent has exited
// (without a subreaper it now belongs to init); 0 when it never showed up.
inline pid_t orphan_from(const std::string& file) {
  for (int i = 0; i < 1000; ++i) {
    std::ifstream in(file);
    pid_t pid = 0, parent = 0;
    if (in >> pid >> parent && pid > 0) {
      return dies_within(parent, std::chrono::seconds(5)) ? pid : 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

}  // namespace hermes::proc::testing
