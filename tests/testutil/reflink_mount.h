// SPDX-License-Identifier: MIT
// A file system whose files can share blocks (XFS with reflinks), made in a
// sparse image and loop-mounted for one test's life: where reflinks are
// judged, whatever file system the tests' own temp folder is on. It needs
// root, loop devices and mkfs.xfs (scripts/install-deps installs xfsprogs);
// where one is missing, `unavailable` says which and the test skips.
#pragma once

#include "testutil/temp_dir.h"

#include <cstdint>
#include <string>

namespace hermes::testing {

class ReflinkMount {
 public:
  ReflinkMount();
  ~ReflinkMount();
  ReflinkMount(const ReflinkMount&) = delete;
  ReflinkMount& operator=(const ReflinkMount&) = delete;

  // Why there is no mount here, or "" when `path` is mounted.
  const std::string& unavailable() const { return why_; }
  const std::string& path() const { return path_; }
  // Bytes of the file system's blocks in use now (signed: a test takes
  // differences, and removals free blocks).
  int64_t used_bytes() const;

 private:
  TempDir holder_;  // the image and the mount point
  std::string path_;
  std::string why_;
};

}  // namespace hermes::testing
