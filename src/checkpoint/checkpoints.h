// SPDX-License-Identifier: MIT
// Checkpoints of a workspace (docs/checkpoints.md): before a call that can
// change the workspace, `begin` keeps what it may change (the named paths'
// states; for a shell call, the tree's index brought up to date), and
// `finish` records what the call did change. `list`, `diff` and `restore`
// serve the `checkpoint` tool. The store (objects shared by every
// workspace, one folder per workspace) lives under the Hermes home, never
// in the workspace. Thread- and process-safe: each workspace's files are
// changed under its lock.
#pragma once

#include "core/result.h"
#include "fs/file_system.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint/blob_store.h"
#include "checkpoint/captured_files.h"
#include "checkpoint/change_watch.h"
#include "checkpoint/index_file.h"
#include "checkpoint/journal.h"
#include "checkpoint/settings.h"
#include "checkpoint/tree_index.h"
#include "checkpoint/workspace_objects.h"

namespace hermes::checkpoint {

// A workspace whose files are not this host's (an ssh target, a container's
// own files): its tool edits are read and restored through the backend's
// file system; its shell changes are not captured.
struct Remote {
  // Names the target ("ssh://user@host:22"): its checkpoints are kept apart
  // from this host's at the same path.
  std::string target;
  std::shared_ptr<const fs::FileSystem> files;  // null: this host's files
  bool here() const { return files == nullptr; }
};

// One call about to run.
struct CallInfo {
  std::string root;  // the workspace: a real, symlink-free directory
  std::string tool;
  std::string summary;
  std::string session;
  std::vector<std::string> paths;  // real paths the call names
  bool shell = false;              // it runs commands
  bool shell_captured = true;      // false: its backend's shell changes are not seen
  // Its commands run under the workspace's write capture (write_capture):
  // what they are about to change is kept then, so the tree's contents
  // need not be, only hashed.
  bool writes_captured = false;
  Remote remote;  // the root and paths are the target's
};

// What `finish` needs of `begin`.
struct Ticket {
  std::string root;
  uint64_t id = 0;
  bool shell = false;
  std::map<std::string, PathState> before;     // the named paths
  std::map<std::string, std::string> content;  // their bytes, delta bases for what follows
  // A command's mark in the workspace's `running` folder while it runs: no
  // file is held then (anything may change it), removed by `finish`.
  std::string running;
  // The look count after a shell call's look: captures made before it
  // (proc/write_capture.h) are removed when the call finishes.
  uint64_t look = 0;
  Remote remote;  // where the files are
};

struct RestoreRequest {
  std::string root;
  uint64_t id = 0;
  std::vector<std::string> paths;  // relative to the root; empty: all
  bool force = false;              // overwrite hand edits
  // Hand-edited paths the user agreed to overwrite (asked after a refusal):
  // the restore goes ahead when every hand-edited path is one of them.
  std::vector<std::string> overwrite;
  std::string session;
  Remote remote;
};

struct RestoreReport {
  uint64_t checkpoint = 0;            // the restore's own checkpoint (undo: restore it)
  std::vector<std::string> restored;  // relative paths
  std::vector<std::pair<std::string, std::string>> not_restored;  // path, why
  std::vector<std::string> hand_edited;                           // set: refused, nothing changed
};

struct PathChange {
  std::string path;
  PathState from;
  PathState to;
};

class Checkpoints {
 public:
  // `dir`: the store, `<hermes home>/checkpoints`.
  explicit Checkpoints(std::string dir);

  const BlobStore& store() const { return store_; }
  // The folder of `root`'s journal (on `target`: Remote::target).
  Journal journal_of(const std::string& root, const std::string& target = "") const;
  // The objects `root`'s checkpoints can name.
  WorkspaceObjects objects_of(const std::string& root, const std::string& target = "") const;

  Result<Ticket> begin(const CallInfo& call, const Settings& settings) const;
  Status finish(const Ticket& ticket, const Settings& settings) const;

  // What this host's commands in `root` run under so that a shell call's
  // changes are kept as they happen (proc/write_capture.h): made once per
  // workspace and size cap.
  Result<std::shared_ptr<const proc::WriteCapture>> write_capture(const std::string& root,
                                                                  const Settings& settings) const;

  // Marks process `pid` as a command running in `root` until it exits (a
  // background job): no file is held meanwhile.
  Status note_running(const std::string& root, int pid) const;

  Result<std::vector<Checkpoint>> list(const std::string& root,
                                       const std::string& target = "") const;
  // Each path that differs between the workspace before checkpoint `id`
  // and before checkpoint `to` (none: now), relative paths in order.
  Result<std::vector<PathChange>> changes(const std::string& root, uint64_t id,
                                          std::optional<uint64_t> to,
                                          const Remote& remote = {}) const;
  Result<RestoreReport> restore(const RestoreRequest& request, const Settings& settings) const;

  // Drops checkpoints older than the age cap, then the oldest while the
  // store is over its size cap, and the objects nothing refers to any more.
  Status prune(const Settings& settings, int64_t now) const;
  // Prunes when no process sharing the store has for an hour (the time of
  // the store's `pruned` file), so the caps hold without a walk of the
  // store on every call; false when it was not due.
  Result<bool> prune_if_due(const Settings& settings, int64_t now) const;
  // Bytes of every object in the store.
  uint64_t store_bytes() const;

 private:
  // What this process keeps of one workspace between calls, used under the
  // workspace's lock: its copy of the index, and the watch whose events
  // since the last look say where the tree may have changed.
  struct Workspace {
    IndexCopy index;
    std::optional<ChangeWatch> watch;
    bool watch_refused = false;  // inotify refused once: walk from then on
    // The index was brought up to date with the watch on, under these
    // settings: the events since are the only changes it misses.
    bool armed = false;
    std::string armed_for;
    std::shared_ptr<const proc::WriteCapture> capture;  // made by write_capture
    std::string capture_for;                            // the settings it was made under
  };

  Workspace& workspace_of(const Journal& journal) const;
  // What changed in the tree since the index last saw it (listed when
  // `report`): by the watch's events when armed, else by walking it whole.
  // The index, here and on disk, is brought up to date.
  // What a look stores of the contents it reads.
  enum class Keep {
    kHashes,   // none: the write capture keeps what a command changes
    kChanged,  // what changed (a finish)
    kAll,      // the whole tree's: a look after kHashes ones reads it all again
  };
  Result<Refresh> refresh(const Journal& journal, const std::string& root, const Settings& settings,
                          bool report, Keep keep) const;
  Status save(const Journal& journal, Workspace& ws, const Refresh& found, bool whole) const;
  // A shell call's state before for the journal: its content stored.
  Result<PathState> stored_before(const IndexChange& change, CapturedFiles& captured,
                                  const WorkspaceObjects& objects) const;
  ScanOptions scan_options(const Settings& settings) const;

  std::string dir_;
  BlobStore store_;
  mutable std::mutex workspaces_mu_;
  mutable std::map<std::string, std::unique_ptr<Workspace>> workspaces_;  // by journal folder
};

// `real` relative to `root`, or nullopt when it is the root or outside it.
std::optional<std::string> relative_to(const std::string& root, const std::string& real);

}  // namespace hermes::checkpoint
