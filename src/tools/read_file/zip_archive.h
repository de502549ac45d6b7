// SPDX-License-Identifier: MIT
// A read-only zip archive with zip-bomb limits, for .docx/.xlsx extraction.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <memory>
#include <string>

struct zip;

namespace hermes::read_file {

class ZipArchive {
 public:
  // Opens `path`; fails for files over 50 MiB, more than 1024 members, or
  // anything libzip rejects.
  static Result<ZipArchive> open(const std::string& path);
  // The member's bytes; fails when missing, over 32 MiB, compressed more
  // than 200:1, or when the running total passes 100 MiB.
  Result<std::string> read(const std::string& name);
  bool has(const std::string& name) const;

 private:
  struct Closer {
    void operator()(zip* archive) const;
  };
  std::unique_ptr<zip, Closer> archive_;
  uint64_t total_read_ = 0;
};

}  // namespace hermes::read_file
