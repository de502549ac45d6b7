// SPDX-License-Identifier: MIT
// Where a workspace's files are read and put back: beneath its root's fd on
// this host (path_state.h, apply_state.h), or through the backend's file
// system when they are the target's (remote_state.h).
#pragma once

#include "core/result.h"
#include "fs/beneath.h"
#include "fs/file_system.h"

#include <optional>
#include <string>

#include "checkpoint/path_state.h"
#include "checkpoint/workspace_objects.h"

namespace hermes::checkpoint {

class WorkspaceFiles {
 public:
  // `remote`: the target's file system (it must outlive this object);
  // nullptr: this host's, beneath `root`.
  static Result<WorkspaceFiles> open(const std::string& root, const fs::FileSystem* remote);

  Result<PathState> read(const std::string& real_path, const Capture& how) const;
  // apply_state; `stage` serves this host only.
  Status apply(const std::string& real_path, const PathState& have, const PathState& want,
               const WorkspaceObjects& objects, int stage) const;
  bool here() const { return remote_ == nullptr; }

 private:
  std::optional<fs::Beneath> root_;
  const fs::FileSystem* remote_ = nullptr;
};

}  // namespace hermes::checkpoint
