// SPDX-License-Identifier: MIT
// A workspace's side of the write capture (proc/write_capture.h): the
// folder `<workspace folder>/captured` where the supervisors of its
// commands keep what they were about to change, and the look counter they
// read. A look of the store bumps the counter; `finish` takes the old
// content of each file a shell call changed from here, by the state the
// index saw, and only when its hash is the one the index has.
#pragma once

#include "core/result.h"
#include "proc/write_capture.h"

#include <map>
#include <memory>
#include <string>

#include "checkpoint/path_state.h"
#include "checkpoint/settings.h"
#include "checkpoint/tree_index.h"

namespace hermes::checkpoint {

class CapturedFiles {
 public:
  // `dir`: the workspace's folder in the store.
  explicit CapturedFiles(const std::string& dir);

  // What this host's commands in `root` run under: the folder and the
  // counter, made on first use, and what the settings leave out (files over
  // the size cap, ignored folders and `.git`).
  Result<std::shared_ptr<const proc::WriteCapture>> capture_for(const std::string& root,
                                                                const Settings& settings) const;
  // A look is about to read the tree, or has: a file changed from now on
  // is kept again, in the state the look saw.
  void note_look() const;
  // The look count now (captures made from now on carry it or a later one).
  uint64_t look() const;

  // Reads which captures are kept, for open and drop.
  void scan();
  // The capture of the file state `stamp`, opened for reading; invalid when
  // none was kept. The caller checks its content against the index's hash.
  proc::UniqueFd open(const Stamp& stamp) const;
  // Removes it once stored.
  void drop(const Stamp& stamp);
  // Removes the captures made before look `look` (UINT64_MAX: every one):
  // the looks since have seen what they were kept for, or it never came.
  void remove_before(uint64_t look) const;

 private:
  std::string dir_;                              // the captures
  std::string looks_;                            // the counter
  std::map<std::string, std::string> by_state_;  // scan: state -> file name
};

}  // namespace hermes::checkpoint
