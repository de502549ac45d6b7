// SPDX-License-Identifier: MIT
// The server's own children, so that it can tell them from the processes
// that come back to it.
//
// A process that is a child subreaper (PR_SET_CHILD_SUBREAPER) gets back
// every descendant whose parent dies, instead of init. A command that
// SIGKILLs its ProcessTree supervisor (`kill -9 $PPID`) thus hands its whole
// tree back to the server, and `end_adopted` ends it. To tell those orphans
// from its own children, every spawn in proc/ records the pid under one lock
// held from before the fork until the pid is written down, so an end never
// mistakes a child being born for an orphan; a child is forgotten only after
// its owner reaped it. A thread reaps adopted zombies that nobody else will.
#pragma once

#include <sys/types.h>

#include <mutex>

namespace hermes::proc {

// Holds the ledger's lock across one spawn: construct it before the fork (or
// posix_spawn), call `record` with the new pid, which releases the lock (so
// a failure path after it may reap and forget). Without `record` (the
// spawn failed) the lock is released on destruction.
class SpawnRecord {
 public:
  SpawnRecord();
  ~SpawnRecord();
  SpawnRecord(const SpawnRecord&) = delete;
  SpawnRecord& operator=(const SpawnRecord&) = delete;
  void record(pid_t pid);

 private:
  std::unique_lock<std::mutex> lock_;
};

// After the owner reaped `pid`; also reaps the kept processes that exited.
void forget_child(pid_t pid);

// An adopted process the server keeps on purpose (an SSH control master,
// which outlives the ssh client that started it); never ended, reaped once
// it exits. Ignored unless `pid` is this process's child and not its own.
void keep_adopted(pid_t pid);

// Makes this process a child subreaper and starts the thread that reaps the
// adopted zombies nobody else will (those seen in two passes 2 s apart);
// once, later calls do nothing. ProcessTree::launch and the ssh backend call
// it, so any process that runs trees or SSH masters is one.
void become_subreaper();

// Ends every adopted process that is not kept, with all its descendants
// (whatever they start meanwhile comes back and is ended in the next round,
// up to 200 rounds 5 ms apart), and reaps them; adopted zombies are reaped
// too. Returns how many were still alive in the last round (0: all ended).
int end_adopted();

}  // namespace hermes::proc
