// SPDX-License-Identifier: MIT
// Keeping a file's old content at the moment a command is about to change
// it (docs/checkpoints.md, Shell changes): the command's process tree runs
// under a seccomp filter that stops each open for writing, truncate, unlink
// and rename, and its supervisor (process_tree.h), told by the kernel
// (SECCOMP_RET_USER_NOTIF), copies the regular file about to be changed
// beneath the workspace into a folder before letting the call go on. So
// the checkpoint store needs no copy of the whole tree made in advance:
// what it keeps is what the commands touched.
//
// A file is kept once per look of the checkpoint store (a counter in a
// file the store bumps), under a name giving the look and the file's state
// (`<look>-<inode>.<size>.<mtime ns>`): the state the store's index saw,
// which it matches by content hash before using it. What a capture misses (a write through a
// descriptor opened before the look, io_uring, a 32-bit program, a process outside the tree) is
// never wrong, only missing: the store then keeps that file's metadata.
#pragma once

#include "proc/unique_fd.h"

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hermes::proc {

// Where and what a tree's supervisor keeps. The descriptors stay the
// caller's; the supervisor works on copies of them.
struct WriteCapture {
  UniqueFd dir;    // the folder the old contents go to
  UniqueFd looks;  // 8 bytes: the store's look counter (native endian)
  std::string root;
  dev_t root_dev = 0;
  ino_t root_ino = 0;
  uint64_t max_bytes = 0;  // larger files are not kept
  // Folder names whose files are not kept (`.git`, build output: the
  // store records those folders by their metadata only).
  std::vector<std::string> ignored;
};

// Whether this kernel lets a child of this process run under the filter:
// SECCOMP_RET_USER_NOTIF is offered and the child may install a filter
// (no_new_privs will be set: `no_new_privs`, else CAP_SYS_ADMIN).
bool write_capture_available(bool no_new_privs);

// A capture is named `<look>-<state>`: the look it was made after, then the
// file's state as here.
std::string captured_state(uint64_t ino, uint64_t size, int64_t mtime_ns);

namespace capture_internal {

// The files copied at each look, so that one is copied once a look: per
// served listener (a command's tree), never shared between two.
struct Copied {
  struct Entry {
    uint64_t dev = 0, ino = 0, look = 0;
  };
  Entry slots[8192];
};

// What the supervisor needs, with no allocation after fork.
struct Plan {
  Copied* copied = nullptr;  // the caller's; null: a file is copied at each write
  int dir_fd = -1;
  int looks_fd = -1;
  dev_t root_dev = 0;
  ino_t root_ino = 0;
  uint64_t max_bytes = 0;
  char root[4096] = {};     // the root's path, for the names beneath it
  char ignored[2048] = {};  // names, each ended by NUL, then an empty one
};
// `capture` as a Plan for the supervisor, whose descriptors are `dir_fd`
// and `looks_fd`.
void make_plan(const WriteCapture& capture, int dir_fd, int looks_fd, Plan& plan);

// In the command's child, just before exec: installs the filter and
// returns its listener (-1: the kernel refused; the command runs without).
int install_filter() noexcept;
// In the supervisor, once: the stopped process and the supervisor hand the
// CPU to each other directly (Linux 6.6; ignored before): a round trip for
// `> /dev/null` went from about 42 to 9 µs on a busy two-core machine.
void hurry(int listener) noexcept;
// In the supervisor: takes one notification from `listener`, keeps the
// file it names when it should, and lets the system call go on. False when
// the listener is done (every filtered process is gone).
bool serve_one(int listener, const Plan& plan) noexcept;

}  // namespace capture_internal

}  // namespace hermes::proc
