// SPDX-License-Identifier: MIT
// A real temporary directory for tests, removed with its contents on scope
// exit, plus small file helpers.
#pragma once

#include <string>
#include <string_view>

namespace hermes::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // `path()/relative`.
  std::string file(std::string_view relative) const;
  // Writes `content` to `relative` (parents created); returns the full path.
  std::string write(std::string_view relative, std::string_view content) const;
  // The content of `relative` (empty when missing).
  std::string read(std::string_view relative) const;

 private:
  std::string path_;
};

}  // namespace hermes::testing
