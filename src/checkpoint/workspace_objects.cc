// SPDX-License-Identifier: MIT
#include "checkpoint/workspace_objects.h"

#include "fs/atomic_write.h"
#include "fs/beneath.h"
#include "fs/contained_write.h"
#include "proc/unique_fd.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <map>

#include "checkpoint/store_files.h"

namespace hermes::checkpoint {

namespace {

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// A hash as the store names objects: 64 lowercase hex digits (the folders
// also hold a killed writer's temp files).
bool is_hash(const std::string& name) {
  return name.size() == 64 && name.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The holds' hashes, each with its file's size.
std::map<std::string, uint64_t> list_holds(const std::string& dir) {
  std::map<std::string, uint64_t> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    struct stat st {};
    if (is_hash(name) && ::stat((dir + "/" + name).c_str(), &st) == 0) {
      out[name] = static_cast<uint64_t>(st.st_size);
    }
  }
  ::closedir(d);
  return out;
}

}  // namespace

std::string WorkspaceObjects::hold_path(const std::string& hash) const {
  return dir_ + "/held/" + hash;
}

// A hold's file: `<resting> <size>\n<path relative to the root>`.
std::optional<WorkspaceObjects::Hold> WorkspaceObjects::hold_of(const std::string& hash) const {
  proc::UniqueFd fd(::open(hold_path(hash).c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return std::nullopt;
  // A count, a size and a relative path: a path is at most PATH_MAX.
  auto text = fs::read_whole_fd(fd.get(), hold_path(hash), 8192);
  if (!text) return std::nullopt;
  size_t space = text->find(' '), eol = text->find('\n');
  if (space == std::string::npos || eol == std::string::npos || space > eol) return std::nullopt;
  Hold hold;
  const char* begin = text->data();
  if (std::from_chars(begin, begin + space, hold.resting).ec != std::errc() ||
      std::from_chars(begin + space + 1, begin + eol, hold.size).ec != std::errc()) {
    return std::nullopt;
  }
  hold.rel = text->substr(eol + 1);
  return hold;
}

Status WorkspaceObjects::hold(const std::string& hash, const Hold& hold) const {
  return replace_file(hold_path(hash), std::to_string(hold.resting) + " " +
                                           std::to_string(hold.size) + "\n" + hold.rel);
}

Result<std::string> WorkspaceObjects::read_held(const std::string& hash, const Hold& hold) const {
  Error changed = Error::Unavailable("it was kept only as the workspace's file " + hold.rel +
                                     ", which has changed since");
  HERMES_ASSIGN_OR_RETURN(fs::Beneath root, fs::Beneath::open_root(root_));
  std::string real = root_ == "/" ? "/" + hold.rel : root_ + "/" + hold.rel;
  auto fd = root.open(real, O_RDONLY | O_NONBLOCK);
  if (!fd) return changed;
  auto bytes = fs::read_whole_fd(fd->get(), real, hold.size);
  if (!bytes || fs::sha256_hex(*bytes) != hash) return changed;
  return std::move(*bytes);
}

Result<std::string> WorkspaceObjects::read_object(const std::string& hash) const {
  auto shared = shared_.read_object(hash);
  if (shared || shared.error().code != ErrorCode::kNotFound) return shared;
  if (pack_.has(hash)) return pack_.read(hash);
  std::optional<Hold> held = hold_of(hash);
  if (!held) return Error::NotFound("checkpoint object " + hash + " is missing");
  HERMES_ASSIGN_OR_RETURN(std::string bytes, read_held(hash, *held));
  return full_object(bytes);
}

Result<std::string> WorkspaceObjects::get(const std::string& hash) const {
  return assemble(hash, [this](const std::string& h) { return read_object(h); });
}

std::string WorkspaceObjects::base_of(const std::string& hash) const {
  if (shared_.has(hash)) return shared_.base_of(hash);
  auto own = pack_.read(hash);
  return own ? base_in_object(*own, hash) : "";
}

bool WorkspaceObjects::known(const std::string& hash) const {
  return shared_.has(hash) || pack_.has(hash) || exists(hold_path(hash));
}

Status WorkspaceObjects::keep_edit(const Edit& edit, uint64_t hold_min_bytes) const {
  const std::string& older_hash = edit.before.blob;
  const std::string& newer_hash = edit.after.blob;
  bool older_file = edit.before.kind == Kind::kFile && !older_hash.empty();
  bool newer_file = edit.after.kind == Kind::kFile && !newer_hash.empty();
  if (older_file && newer_file && older_hash == newer_hash) {
    // Only the mode moved: the content is kept once (a hold still holds),
    // never as a delta against itself.
    if (!known(older_hash)) HERMES_TRY(shared_.put(edit.older));
    return {};
  }
  bool older_stored = older_file && (shared_.has(older_hash) || pack_.has(older_hash));
  std::optional<Hold> next;  // the new content's hold, once the old one is kept
  if (newer_file && !shared_.has(newer_hash) && !pack_.has(newer_hash)) {
    std::optional<Hold> existing = hold_of(newer_hash);
    if (existing) {
      // Held already (for another name of the same content): it is this
      // file's now, which was just written with it.
      existing->rel = edit.rel;
      HERMES_TRY(hold(newer_hash, *existing));
    } else if (edit.newer.size() >= hold_min_bytes && !older_stored) {
      next = Hold{.resting = 0, .size = edit.newer.size(), .rel = edit.rel};
      if (older_file) {
        std::optional<Hold> old = hold_of(older_hash);
        next->resting = (old ? old->resting : 0) + 1;
        // A chain that long is cut: the old content is stored whole.
        if (next->resting > kMaxDeltaDepth) next->resting = 0;
      }
    } else {
      BlobStore::Base base{older_hash, edit.older};
      HERMES_TRY(
          shared_.put(edit.newer, older_stored && shared_.has(older_hash) ? &base : nullptr));
    }
  }
  // The old content first: if keeping it fails, nothing rests on a hold
  // that was never written.
  if (older_file && !older_stored) HERMES_TRY(keep_older(edit, next ? next->resting : 0));
  if (next && !hold(newer_hash, *next)) {
    // The delta's base, kept in the store instead.
    HERMES_TRY(shared_.put(edit.newer));
  }
  // The file no longer has that content: whatever held it is stored now.
  if (older_file) ::unlink(hold_path(older_hash).c_str());
  return {};
}

Status WorkspaceObjects::keep_older(const Edit& edit, int resting) const {
  BlobStore::Base newer{edit.after.blob, edit.newer};
  if (resting > 0) {
    std::string object = delta_object(edit.older, newer, resting);
    // A pack that cannot be written leaves the store's copy below.
    if (!object.empty() && pack_.append(edit.before.blob, object)) return {};
  }
  bool newer_shared = edit.after.kind == Kind::kFile && shared_.has(edit.after.blob);
  HERMES_TRY(shared_.put(edit.older, newer_shared ? &newer : nullptr));
  return {};
}

Status WorkspaceObjects::store_holds() const {
  for (const auto& [hash, size] : list_holds(dir_ + "/held")) {
    std::optional<Hold> held = hold_of(hash);
    if (!held) continue;
    // A file changed since is left held: what rested on it is lost, and
    // restore says so.
    auto bytes = read_held(hash, *held);
    if (!bytes) continue;
    HERMES_TRY(shared_.put(*bytes));
    ::unlink(hold_path(hash).c_str());
  }
  return {};
}

std::vector<std::string> WorkspaceObjects::own_hashes() const {
  std::vector<std::string> out = pack_.hashes();
  for (const auto& [hash, size] : list_holds(dir_ + "/held")) out.push_back(hash);
  return out;
}

uint64_t WorkspaceObjects::own_bytes() const {
  uint64_t total = pack_.bytes();
  for (const auto& [hash, size] : list_holds(dir_ + "/held")) total += size;
  return total;
}

Status WorkspaceObjects::keep_only(const std::set<std::string>& live) const {
  for (const auto& [hash, size] : list_holds(dir_ + "/held")) {
    if (!live.contains(hash)) ::unlink(hold_path(hash).c_str());
  }
  return pack_.keep_only(live);
}

}  // namespace hermes::checkpoint
