// SPDX-License-Identifier: MIT
// The ledger behind child_ledger.h: one mutex, the pids the server spawned
// and the adopted ones it keeps, and the thread that reaps abandoned zombies.
#include "proc/child_ledger.h"
#include "proc/proc_scan.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

namespace hermes::proc {
namespace {

// Rounds of killing before end_adopted gives up on a tree that keeps
// coming back (a fork loop outrunning SIGKILL), and the pause between them,
// during which spawns elsewhere may go on.
constexpr int kEndRounds = 200;
constexpr std::chrono::milliseconds kRoundPause{5};
// How often the reaper thread looks for zombies nobody reaps; one is reaped
// once seen twice, so code that spawned it some other way (std::system in a
// test) has had a whole pass to reap it first.
constexpr std::chrono::seconds kZombiePass{2};

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

struct Child {
  pid_t pid;
  bool zombie;
};

// This process's children from each thread's /proc/self/task/<tid>/children
// (an adopted process lands on one of its threads), else from a /proc walk.
std::vector<Child> own_children() {
  std::vector<Child> children;
  DIR* tasks = ::opendir("/proc/self/task");
  bool listed = false;
  while (dirent* task = tasks ? ::readdir(tasks) : nullptr) {
    if (task->d_name[0] == '.') continue;
    std::ifstream in(std::string("/proc/self/task/") + task->d_name + "/children");
    listed = listed || in.is_open();
    for (pid_t pid; in >> pid;) {
      char state = 0;
      pid_t ppid = -1;
      if (read_process_stat(pid, state, ppid)) children.push_back({pid, state == 'Z'});
    }
  }
  if (tasks) ::closedir(tasks);
  if (listed) return children;
  pid_t pids[kMaxScannedProcesses];
  bool zombie[kMaxScannedProcesses];
  int n = scan_children(::getpid(), pids, zombie, kMaxScannedProcesses);
  for (int i = 0; i < n; ++i) children.push_back({pids[i], zombie[i]});
  return children;
}

// Drops kept pids that exited (reaped here), are no longer this process's
// children, or were reused by a child of our own. Under the lock.
void reap_kept_locked(Ledger& l) {
  std::erase_if(l.kept, [&l](pid_t pid) {
    if (l.spawned.contains(pid)) return true;
    pid_t r = ::waitpid(pid, nullptr, WNOHANG);
    return r == pid || (r < 0 && errno == ECHILD);
  });
}

// SIGKILLs every live descendant of `roots`, from one /proc walk.
void kill_descendants(const std::vector<pid_t>& roots) {
  static_assert(kMaxScannedProcesses > 0);
  std::vector<pid_t> pids(kMaxScannedProcesses), ppids(kMaxScannedProcesses);
  int count = scan_processes(pids.data(), ppids.data(), kMaxScannedProcesses);
  std::unordered_set<pid_t> tree(roots.begin(), roots.end());
  for (bool grew = true; grew;) {
    grew = false;
    for (int i = 0; i < count; ++i) {
      if (tree.contains(pids[i]) || !tree.contains(ppids[i])) continue;
      ::kill(pids[i], SIGKILL);
      tree.insert(pids[i]);
      grew = true;
    }
  }
}

// One round: reaps adopted zombies and SIGKILLs the live adopted processes
// that are not kept, at once as they are listed, then their descendants.
// A "zombie" that can't be reaped is a process whose main thread exited
// while others run: it is killed too. Returns how many it found alive.
int end_adopted_round(Ledger& l) {
  reap_kept_locked(l);
  std::vector<pid_t> alive;
  for (const Child& child : own_children()) {
    if (l.spawned.contains(child.pid) || l.kept.contains(child.pid)) continue;
    if (child.zombie && ::waitpid(child.pid, nullptr, WNOHANG) == child.pid) continue;
    ::kill(child.pid, SIGKILL);
    alive.push_back(child.pid);
  }
  if (!alive.empty()) kill_descendants(alive);
  return static_cast<int>(alive.size());
}

// Reaps the adopted zombies nobody else will: those seen in two passes in a
// row. Cheap when there are none (one waitid).
[[noreturn]] void reap_abandoned_zombies() {
  Ledger& l = ledger();
  std::unordered_set<pid_t> seen;
  for (;;) {
    std::this_thread::sleep_for(kZombiePass);
    std::lock_guard lock(l.mu);
    siginfo_t info{};
    if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid <= 0) {
      seen.clear();
      continue;
    }
    std::unordered_set<pid_t> now;
    for (const Child& child : own_children()) {
      if (!child.zombie || l.spawned.contains(child.pid)) continue;
      if (!seen.contains(child.pid)) {
        now.insert(child.pid);
      } else if (::waitpid(child.pid, nullptr, WNOHANG) == child.pid) {
        l.kept.erase(child.pid);
      }
    }
    seen = std::move(now);
  }
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
  char state = 0;
  pid_t ppid = -1;
  if (!read_process_stat(pid, state, ppid) || ppid != ::getpid()) return;
  Ledger& l = ledger();
  std::lock_guard lock(l.mu);
  if (!l.spawned.contains(pid)) l.kept.insert(pid);
}

void become_subreaper() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
      std::thread(reap_abandoned_zombies).detach();
  });
}

int end_adopted() {
  Ledger& l = ledger();
  int alive = 0;
  for (int round = 0; round < kEndRounds; ++round) {
    if (round > 0) std::this_thread::sleep_for(kRoundPause);
    std::lock_guard lock(l.mu);
    alive = end_adopted_round(l);
    if (alive == 0) return 0;
  }
  return alive;
}

}  // namespace hermes::proc
