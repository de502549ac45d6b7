// SPDX-License-Identifier: MIT
// The objects one workspace's checkpoints can name (docs/checkpoints.md,
// "Holds"): the shared store's, and two kinds of its own, in its folder:
//
// - a hold (`held/<hash>`): a large file a tool edit wrote is left in the
//   workspace instead of copied into the store; its content is read from
//   there, and only while its hash still matches;
// - an own object (in `own.pack`, checkpoint/own_pack.h): the content that
//   edit replaced, as a delta against the hold (a reverse delta), so each
//   further edit of the file costs about the bytes it changed, not a copy
//   of the file.
//
// A hold is copied into the shared store before anything but a tool edit
// may change its file (a shell call, a restore); a hand edit or another
// program changing it in between loses the older contents resting on it,
// and restore then names them as not restored. Callers hold the
// workspace's lock around every change.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checkpoint/blob_store.h"
#include "checkpoint/own_pack.h"
#include "checkpoint/path_state.h"

namespace hermes::checkpoint {

// One path a tool edit changed: its states and bytes before and after.
struct Edit {
  std::string rel;
  const PathState& before;
  std::string_view older;
  const PathState& after;
  std::string_view newer;
};

class WorkspaceObjects {
 public:
  // `dir`: the workspace's folder of the store; `root`: the workspace.
  WorkspaceObjects(const BlobStore& shared, std::string dir, std::string root)
      : shared_(shared), pack_(dir + "/own.pack"), dir_(std::move(dir)), root_(std::move(root)) {}

  const BlobStore& shared() const { return shared_; }

  // The content of object `hash`, every delta applied.
  Result<std::string> get(const std::string& hash) const;
  // The object `hash`'s delta base, or "" (full, held or missing).
  std::string base_of(const std::string& hash) const;
  // Stored in the shared store, as an own object or held.
  bool known(const std::string& hash) const;

  // Keeps both contents of a tool edit: the new one held when the file is
  // at least `hold_min_bytes` and no copy of the old one is stored (the old
  // then a delta against it), else stored as the shared store does.
  Status keep_edit(const Edit& edit, uint64_t hold_min_bytes) const;
  // Copies each held file whose content is still its hash into the shared
  // store, then drops the hold: before a call that may change any file.
  Status store_holds() const;

  // The hashes of every own object and hold, and the bytes they take.
  std::vector<std::string> own_hashes() const;
  uint64_t own_bytes() const;
  // Drops every own object and hold not in `live` (pruning).
  Status keep_only(const std::set<std::string>& live) const;

 private:
  struct Hold {
    int resting = 0;  // deltas chained down to this hold
    uint64_t size = 0;
    std::string rel;
  };

  std::string hold_path(const std::string& hash) const;
  // The hold of `hash`, read from its small file (a damaged or oversized
  // one reads as none).
  std::optional<Hold> hold_of(const std::string& hash) const;
  Status hold(const std::string& hash, const Hold& hold) const;
  // The held file's bytes, when its content is still `hash`.
  Result<std::string> read_held(const std::string& hash, const Hold& hold) const;
  Result<std::string> read_object(const std::string& hash) const;
  // Stores `older`, the content an edit replaced: as an own delta against
  // the new content, to be held, when `resting` (the hold's chain length
  // with it) is not 0; else in the shared store.
  Status keep_older(const Edit& edit, int resting) const;

  const BlobStore& shared_;
  OwnPack pack_;
  std::string dir_;
  std::string root_;
};

}  // namespace hermes::checkpoint
