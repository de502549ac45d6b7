// SPDX-License-Identifier: MIT
// Reading the process table from /proc without allocating: the ProcessTree
// supervisor walks it between fork and exit (async-signal-safe calls on stack
// memory only), and the server walks it when it ends processes that came
// back to it (proc/child_ledger.h).
#pragma once

#include <sys/types.h>

namespace hermes::proc {

// The most processes one scan holds; the rest of a larger table is skipped.
inline constexpr int kMaxScannedProcesses = 4096;

// The state letter and parent of `pid` from /proc/<pid>/stat; false when it
// is gone.
bool read_process_stat(pid_t pid, char& state, pid_t& ppid);

// The parent of `pid` from /proc/<pid>/stat; -1 when it is gone or a zombie
// (a zombie can't be signalled, and its parent reaps it).
pid_t read_live_ppid(pid_t pid);

// Every live process's (pid, ppid), read from /proc; returns how many.
int scan_processes(pid_t* pids, pid_t* ppids, int capacity);

// The children of `parent` (zombies included, flagged in `zombie`); returns
// how many.
int scan_children(pid_t parent, pid_t* pids, bool* zombie, int capacity);

bool contains_pid(const pid_t* pids, int count, pid_t pid);

// Fills `tree` with the live descendants of `root` (up to `capacity`) and
// returns how many; `on_found` runs for each as it is found.
template <typename OnFound>
int collect_descendants(pid_t root, pid_t* tree, int capacity, OnFound on_found) {
  pid_t pids[kMaxScannedProcesses], ppids[kMaxScannedProcesses];
  int count = scan_processes(pids, ppids, kMaxScannedProcesses);
  int in_tree = 0;
  for (bool grew = true; grew && in_tree < capacity;) {
    grew = false;
    for (int i = 0; i < count && in_tree < capacity; ++i) {
      if (contains_pid(tree, in_tree, pids[i])) continue;
      if (ppids[i] != root && !contains_pid(tree, in_tree, ppids[i])) continue;
      on_found(pids[i]);
      tree[in_tree++] = pids[i];
      grew = true;
    }
  }
  return in_tree;
}

}  // namespace hermes::proc
