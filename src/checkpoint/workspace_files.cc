// SPDX-License-Identifier: MIT
#include "checkpoint/workspace_files.h"

#include "checkpoint/apply_state.h"
#include "checkpoint/remote_state.h"

namespace hermes::checkpoint {

Result<WorkspaceFiles> WorkspaceFiles::open(const std::string& root, const fs::FileSystem* remote) {
  WorkspaceFiles files;
  if (remote != nullptr) {
    files.remote_ = remote;
    return files;
  }
  HERMES_ASSIGN_OR_RETURN(fs::Beneath beneath, fs::Beneath::open_root(root));
  files.root_.emplace(std::move(beneath));
  return files;
}

Result<PathState> WorkspaceFiles::read(const std::string& real_path, const Capture& how) const {
  if (remote_ != nullptr) return read_state_on(*remote_, real_path, how);
  return read_state(*root_, real_path, how);
}

Status WorkspaceFiles::apply(const std::string& real_path, const PathState& have,
                             const PathState& want, const WorkspaceObjects& objects,
                             int stage) const {
  if (remote_ != nullptr) return apply_state_on(*remote_, real_path, have, want, objects);
  return apply_state(*root_, real_path, have, want, objects, stage);
}

}  // namespace hermes::checkpoint
