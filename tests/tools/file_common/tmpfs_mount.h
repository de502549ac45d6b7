// SPDX-License-Identifier: MIT
// A tiny tmpfs for "disk full" tests, unmounted on scope exit even when an
// assertion ends the test early. Mounting needs root.
#pragma once

#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace hermes::testing {

class TmpfsMount {
 public:
  // Mounts a `size` tmpfs (e.g. "64k") on the existing directory `dir`.
  TmpfsMount(std::string dir, const std::string& size) : dir_(std::move(dir)) {
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0)
      mounted_ = true;
    else
      error_ = std::strerror(errno);
  }
  ~TmpfsMount() {
    if (mounted_) ::umount(dir_.c_str());
  }
  TmpfsMount(const TmpfsMount&) = delete;
  TmpfsMount& operator=(const TmpfsMount&) = delete;

  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }

 private:
  std::string dir_;
  bool mounted_ = false;
  std::string error_;
};

}  // namespace hermes::testing
