// SPDX-License-Identifier: MIT
// PATH narrowed to one folder for the scope of a test, in this process and in
// the shells the local backend starts. Those shells get the standard
// directories appended to a PATH without /usr/bin (the terminal environment
// rule), so BASH_ENV narrows PATH again inside them, as the profile of a
// machine without the hidden tools would.
#pragma once

#include "testutil/scoped_env.h"
#include "testutil/temp_dir.h"

#include <fstream>
#include <string>

namespace hermes::testing {

class ScopedShellPath {
 public:
  explicit ScopedShellPath(const std::string& dir)
      : path_("PATH", dir), bash_env_("BASH_ENV", write_profile(dir)) {}

 private:
  std::string write_profile(const std::string& dir) {
    std::string file = profile_dir_.file("path.sh");
    std::ofstream(file) << "PATH='" << dir << "'\n";
    return file;
  }

  TempDir profile_dir_;
  ScopedEnv path_;
  ScopedEnv bash_env_;
};

}  // namespace hermes::testing
