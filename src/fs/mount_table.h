// SPDX-License-Identifier: MIT
// The mounts on which a path lookup may wait for a network server or a
// user-space daemon (NFS, SMB, 9p, Ceph, FUSE …): a lookup there can take
// a round trip, or hang for as long as the server is gone. A call that must
// not wait (a brief call on an HTTP event loop or the stdio reader) keeps
// off them; it goes where it may wait instead.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::fs {

struct Mount {
  std::string point;  // absolute, unescaped
  std::string type;   // `nfs4`, `fuse.sshfs`, …
};

// The mounts listed in /proc/<pid>/mountinfo text; malformed lines are
// skipped.
std::vector<Mount> parse_mountinfo(std::string_view text);

// Whether a lookup on a file system of `type` may wait on a server.
bool may_wait_on_server(std::string_view type);

// The points of the mounts that may wait on a server.
class WaitingMounts {
 public:
  // `every_mount`: whatever their type (a table known only in part).
  explicit WaitingMounts(const std::vector<Mount>& mounts, bool every_mount = false);
  // True when `absolute_path` is one of the points or lies beneath one.
  bool covers(std::string_view absolute_path) const;
  bool empty() const { return points_.empty(); }

 private:
  std::vector<std::string> points_;
};

// This process's mounts, kept current: re-read whenever the kernel reports
// that the mount table changed (poll on /proc/self/mountinfo), by a thread
// started on the first call. Without /proc, nothing is covered; a table
// too long to read whole covers everything.
bool may_wait_on_server_at(std::string_view absolute_path);
// Whether this process has any such mount (a check costs nothing without).
bool any_mount_may_wait();

}  // namespace hermes::fs
