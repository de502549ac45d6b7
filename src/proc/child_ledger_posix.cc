// SPDX-License-Identifier: MIT
// The ledger behind child_ledger.h: one mutex, the pids the server spawned
// and the adopted ones it keeps.
#include "proc/child_ledger.h"
#include "proc/proc_scan.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <unordered_set>

namespace hermes::proc {
namespace {

// Rounds of killing before end_adopted gives up on a tree that keeps
// coming back (a fork bomb outrunning SIGKILL), and the pause between them.
constexpr int kEndRounds = 200;
constexpr std::chrono::milliseconds kRoundPause{5};

struct Ledger {
  std::mutex mu;
  std::unordered_set<pid_t> spawned;
  std::unordered_set<pid_t> kept;
};

// Never destroyed: a detached reaper thread may still forget a child while
// the process exits.
Ledger& ledger() {
  static Ledger* instance = new Ledger;
  return *instance;
}

// Reaps the kept processes that have exited, by pid. Under the lock.
void reap_kept_locked(Ledger& l) {
  std::erase_if(l.kept, [](pid_t pid) { return ::waitpid(pid, nullptr, WNOHANG) == pid; });
}

void kill_with_descendants(pid_t pid) {
  ::kill(pid, SIGKILL);
  pid_t tree[kMaxScannedProcesses];
  collect_descendants(pid, tree, kMaxScannedProcesses, [](pid_t p) { ::kill(p, SIGKILL); });
}

// One round: reaps adopted zombies, kills the live adopted processes that are
// not kept and their descendants. Returns how many it found alive.
int end_adopted_round(Ledger& l) {
  pid_t pids[kMaxScannedProcesses];
  bool zombie[kMaxScannedProcesses];
  int n = scan_children(::getpid(), pids, zombie, kMaxScannedProcesses);
  int killed = 0;
  for (int i = 0; i < n; ++i) {
    pid_t pid = pids[i];
    if (l.spawned.contains(pid)) continue;
    if (zombie[i]) {
      ::waitpid(pid, nullptr, WNOHANG);
      l.kept.erase(pid);
    } else if (!l.kept.contains(pid)) {
      kill_with_descendants(pid);
      ++killed;
    }
  }
  return killed;
}

}  // namespace

SpawnRecord::SpawnRecord() : lock_(ledger().mu) {}

SpawnRecord::~SpawnRecord() = default;

void SpawnRecord::record(pid_t pid) {
  if (pid > 0) ledger().spawned.insert(pid);
  lock_.unlock();
}

void forget_child(pid_t pid) {
  Ledger& l = ledger();
  std::lock_guard lock(l.mu);
  l.spawned.erase(pid);
  reap_kept_locked(l);
}

void keep_adopted(pid_t pid) {
  Ledger& l = ledger();
  std::lock_guard lock(l.mu);
  l.kept.insert(pid);
}

void become_subreaper() {
  static std::once_flag once;
  std::call_once(once, [] { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); });
}

int end_adopted() {
  Ledger& l = ledger();
  std::lock_guard lock(l.mu);
  int alive = end_adopted_round(l);
  for (int round = 1; round < kEndRounds && alive > 0; ++round) {
    std::this_thread::sleep_for(kRoundPause);
    alive = end_adopted_round(l);
  }
  return alive;
}

}  // namespace hermes::proc
