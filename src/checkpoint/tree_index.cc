// SPDX-License-Identifier: MIT
#include "checkpoint/tree_index.h"

#include "fs/beneath.h"
#include "proc/unique_fd.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "checkpoint/record_format.h"

namespace hermes::checkpoint {

namespace {

int64_t nanos(const struct timespec& ts) { return ts.tv_sec * 1000000000LL + ts.tv_nsec; }

Stamp stamp_of(const struct ::stat& st) {
  return Stamp{static_cast<uint64_t>(st.st_size), nanos(st.st_mtim), nanos(st.st_ctim),
               static_cast<uint64_t>(st.st_ino), st.st_mode};
}

struct Dirent64 {
  ino64_t ino;
  off64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[];
};

bool under(const std::string& rel, const std::string& dir) {
  return rel.size() > dir.size() && rel.starts_with(dir) && rel[dir.size()] == '/';
}

// The index's entries `dir` and beneath it.
template <typename Fn>
void for_each_within(const TreeIndex& index, const std::string& dir, Fn fn) {
  for (auto it = index.lower_bound(dir); it != index.end(); ++it) {
    if (it->first != dir && !under(it->first, dir)) {
      // "a-b" sorts between "a" and "a/x": skip past names that only share
      // the prefix.
      if (it->first.starts_with(dir) && it->first[dir.size()] < '/') continue;
      break;
    }
    fn(it->first, it->second);
  }
}

class Walker {
 public:
  Walker(const fs::Beneath& root, int top, const TreeIndex& before, const ScanOptions& options)
      : root_(root), top_(top), before_(before), options_(options) {}

  // The whole tree.
  Status walk_all() {
    if (options_.on_dir) HERMES_TRY(options_.on_dir(top_, ""));
    return walk(top_, "");
  }

  // Only where `scope` points: each subtree walked, each entry looked at.
  Status walk_scope(const ScanScope& scope) {
    for (const std::string& rel : scope.subtrees) {
      if (!skipped(rel) && !within_walked(rel)) HERMES_TRY(look(rel, true));
    }
    for (const std::string& rel : scope.entries) {
      if (!skipped(rel) && !within_walked(rel)) HERMES_TRY(look(rel, false));
    }
    return look_at_other_links();
  }

  // The entries of `before` the walk covered but did not find: a scoped
  // walk covers its subtrees, the entries it looked at, and what was
  // beneath an entry that is no longer a directory.
  std::vector<std::string> gone(bool whole) const {
    std::set<std::string> out;
    auto missing = [&](const std::string& rel, const IndexEntry&) {
      if (!found_.contains(rel)) out.insert(rel);
    };
    if (whole) {
      for (const auto& [rel, entry] : before_) missing(rel, entry);
    }
    for (const std::string& dir : walked_) for_each_within(before_, dir, missing);
    for (const std::string& rel : looked_) {
      auto old = before_.find(rel);
      if (old == before_.end()) continue;
      auto now = found_.find(rel);
      bool dir_now = now != found_.end() && S_ISDIR(now->second.stamp.mode);
      if (old->second.state.kind == Kind::kDir && !dir_now) {
        for_each_within(before_, rel, missing);
      } else {
        missing(rel, old->second);
      }
    }
    return {out.begin(), out.end()};
  }

  // Reads the entries whose metadata moved: after the walk, once it has
  // kept within the entry cap (so a tree over it costs a walk, never a copy).
  Status read_moved() {
    for (const std::string& rel : moved_) {
      IndexEntry& entry = found_.at(rel);
      Capture how{.store = options_.store, .max_bytes = options_.max_bytes};
      HERMES_ASSIGN_OR_RETURN(entry.state, read_state(root_, real_of(rel), how));
    }
    return {};
  }

  TreeIndex& found() { return found_; }

 private:
  std::string real_of(const std::string& rel) const {
    return root_.root() == "/" ? "/" + rel : root_.root() + "/" + rel;
  }

  // A path inside `.git` or an ignored folder (an event's stale name can
  // point there): never in the index.
  bool skipped(const std::string& rel) const {
    for (size_t start = 0, slash; (slash = rel.find('/', start)) != std::string::npos;
         start = slash + 1) {
      std::string part = rel.substr(start, slash - start);
      if (part == ".git" || options_.ignored.contains(part)) return true;
    }
    return false;
  }

  bool within_walked(const std::string& rel) const {
    for (const std::string& dir : walked_) {
      if (rel == dir || under(rel, dir)) return true;
    }
    return false;
  }

  // A file with more than one name changes under all of them, but its
  // events name only the one written through, which may be gone by now:
  // each other name the index has for the inode of a changed file, or of a
  // file whose name went, is looked at as well.
  Status look_at_other_links() {
    auto lost = [&](const std::string& rel, const IndexEntry& entry) {
      auto now = found_.find(rel);
      if (S_ISREG(entry.stamp.mode) &&
          (now == found_.end() || now->second.stamp.ino != entry.stamp.ino)) {
        linked_.insert(entry.stamp.ino);
      }
    };
    for (const std::string& dir : walked_) for_each_within(before_, dir, lost);
    for (const std::string& rel : looked_) {
      if (auto old = before_.find(rel); old != before_.end()) lost(rel, old->second);
    }
    if (linked_.empty()) return {};
    std::vector<std::string> others;
    for (const auto& [rel, entry] : before_) {
      if (linked_.contains(entry.stamp.ino) && !found_.contains(rel)) others.push_back(rel);
    }
    for (const std::string& rel : others) HERMES_TRY(look(rel, false));
    return {};
  }

  // Looks at `rel` from its parent, walked one component at a time from
  // the root without following a link; a missing or non-directory parent
  // means `rel` is gone.
  Status look(const std::string& rel, bool subtree) {
    size_t slash = rel.rfind('/');
    std::string parent = slash == std::string::npos ? "" : rel.substr(0, slash);
    std::string name = slash == std::string::npos ? rel : rel.substr(slash + 1);
    (subtree ? walked_ : looked_).push_back(rel);
    if (parent != parent_rel_ || !parent_fd_.valid()) {
      parent_rel_ = parent;
      int err = 0;
      parent_fd_ = open_dir(parent, err);
      if (!parent_fd_.valid() && err != ENOENT && err != ENOTDIR && err != ELOOP) {
        return Error::FromErrno(err, "open \"" + real_of(parent) + "\"");
      }
    }
    if (!parent_fd_.valid()) return {};
    return visit(parent_fd_.get(), parent, name, subtree);
  }

  // Invalid on failure, with the error in `err`.
  proc::UniqueFd open_dir(const std::string& rel, int& err) const {
    proc::UniqueFd dir(::fcntl(top_, F_DUPFD_CLOEXEC, 0));
    for (size_t start = 0; dir.valid() && start < rel.size();) {
      size_t slash = rel.find('/', start);
      if (slash == std::string::npos) slash = rel.size();
      std::string part = rel.substr(start, slash - start);
      int next = ::openat(dir.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      err = errno;
      dir.reset(next);
      start = slash + 1;
    }
    if (!dir.valid() && err == 0) err = errno;
    return dir;
  }

  // Walks the directory open as `dir`, whose path relative to the root is
  // `rel` ("" for the root).
  Status walk(int dir, const std::string& rel) {
    // getdents64 straight: readdir's DIR* would cost an allocation and an
    // extra fd per directory on a path that runs once per shell command.
    alignas(Dirent64) char buf[32768];
    for (;;) {
      long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
      if (n < 0) return Error::FromErrno(errno, "read directory \"" + real_of(rel) + "\"");
      if (n == 0) return {};
      for (long at = 0; at < n;) {
        auto* entry = reinterpret_cast<Dirent64*>(buf + at);
        at += entry->reclen;
        std::string_view name = entry->name;
        if (name == "." || name == "..") continue;
        HERMES_TRY(visit(dir, rel, std::string(name), true));
      }
    }
  }

  Status visit(int dir, const std::string& parent, const std::string& name, bool recurse) {
    std::string rel = parent.empty() ? name : parent + "/" + name;
    struct ::stat st {};
    if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) return {};  // removed while we walked
      return Error::FromErrno(errno, "stat \"" + real_of(rel) + "\"");
    }
    bool is_dir = S_ISDIR(st.st_mode);
    if (is_dir && name == ".git") return {};
    if (is_dir && options_.ignored.contains(name)) return note_ignored(rel, st);
    Stamp stamp = stamp_of(st);
    auto old = before_.find(rel);
    if (old != before_.end() && old->second.stamp == stamp) {
      found_.emplace(rel, old->second);
    } else {
      found_.emplace(rel, IndexEntry{{}, stamp});
      moved_.push_back(rel);
      if (S_ISREG(st.st_mode) && st.st_nlink > 1) linked_.insert(stamp.ino);
    }
    HERMES_TRY(within_cap());
    if (!is_dir) return {};
    if (!recurse) {
      // A directory the index did not have as one came without its own
      // event (a stale name): walk it rather than trust the events.
      bool was_dir = old != before_.end() && old->second.state.kind == Kind::kDir;
      if (was_dir) return {};
      walked_.push_back(rel);
    }
    proc::UniqueFd child(
        ::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!child.valid()) {
      // Gone, or not ours to read (its entries stay unknown, as unwatched).
      if (errno == ENOENT || errno == ENOTDIR || errno == EACCES) return {};
      return Error::FromErrno(errno, "open \"" + real_of(rel) + "\"");
    }
    if (options_.on_dir) HERMES_TRY(options_.on_dir(child.get(), rel));
    return walk(child.get(), rel);
  }

  Status within_cap() const {
    if (options_.max_entries != 0 && found_.size() > options_.max_entries) {
      return Error::TooLarge("the workspace has more than " + std::to_string(options_.max_entries) +
                             " entries");
    }
    return {};
  }

  // An ignored directory: kept by its metadata only, never entered. Its
  // times and size change with what is inside, which is not watched
  // either, so only its inode and mode stamp it: a walk and a look by
  // events agree on it.
  Status note_ignored(const std::string& rel, const struct ::stat& st) {
    PathState state = state_of_stat(st);
    state.kind = Kind::kIgnoredDir;
    found_.insert_or_assign(
        rel, IndexEntry{state, Stamp{.ino = static_cast<uint64_t>(st.st_ino), .mode = st.st_mode}});
    return within_cap();
  }

  const fs::Beneath& root_;
  int top_;
  const TreeIndex& before_;
  const ScanOptions& options_;
  TreeIndex found_;                  // the entries the walk covered, as they are now
  std::vector<std::string> moved_;   // entries whose stamp moved: read after the walk
  std::vector<std::string> walked_;  // subtrees walked whole (a scoped walk)
  std::vector<std::string> looked_;  // entries looked at alone (a scoped walk)
  std::set<uint64_t> linked_;        // inodes of moved files with other names
  std::string parent_rel_;           // the scoped walk's last parent, kept open
  proc::UniqueFd parent_fd_;
};

// What the walk found against `index`, and `index` brought up to date
// (with the walk's own nodes: a second copy of a large index would stay
// behind as heap that every later fork copies).
Refresh apply(TreeIndex& index, TreeIndex& found, const std::vector<std::string>& gone, bool whole,
              bool report) {
  Refresh out;
  auto note = [&](const std::string& rel, const IndexEntry& was, const PathState& is) {
    out.any_written = true;
    if (!whole) out.written.push_back(rel);
    if (report && !was.state.same_as(is)) out.changed.push_back({rel, was.state, is, was.stamp});
  };
  for (auto& [rel, entry] : found) {
    auto old = index.find(rel);
    if (old == index.end()) {
      note(rel, IndexEntry{}, entry.state);
    } else if (!(old->second.stamp == entry.stamp) || !old->second.state.same_as(entry.state)) {
      note(rel, old->second, entry.state);
    }
  }
  for (const std::string& rel : gone) note(rel, index.at(rel), PathState{});
  if (whole) {
    index.swap(found);
  } else {
    for (const std::string& rel : gone) index.erase(rel);
    while (!found.empty()) {
      auto kept = index.insert(found.extract(found.begin()));
      if (!kept.inserted) kept.position->second = std::move(kept.node.mapped());
    }
  }
  std::sort(out.changed.begin(), out.changed.end(),
            [](const IndexChange& a, const IndexChange& b) { return a.path < b.path; });
  return out;
}

// The index size after the walk: over the cap, nothing is read or kept.
Status check_cap(const TreeIndex& index, const TreeIndex& found,
                 const std::vector<std::string>& gone, uint64_t max_entries) {
  if (max_entries == 0) return {};
  uint64_t size = index.size() - gone.size();
  for (const auto& [rel, entry] : found) size += index.contains(rel) ? 0 : 1;
  if (size <= max_entries) return {};
  return Error::TooLarge("the workspace has more than " + std::to_string(max_entries) + " entries");
}

}  // namespace

Result<Refresh> refresh_index(const std::string& root, TreeIndex& index, const ScanScope& scope,
                              const ScanOptions& options) {
  HERMES_ASSIGN_OR_RETURN(fs::Beneath beneath, fs::Beneath::open_root(root));
  HERMES_ASSIGN_OR_RETURN(proc::UniqueFd top, beneath.open(root, O_RDONLY | O_DIRECTORY));
  Walker walker(beneath, top.get(), index, options);
  HERMES_TRY(scope.whole ? walker.walk_all() : walker.walk_scope(scope));
  std::vector<std::string> gone = walker.gone(scope.whole);
  HERMES_TRY(check_cap(index, walker.found(), gone, options.max_entries));
  HERMES_TRY(walker.read_moved());
  return apply(index, walker.found(), gone, scope.whole, options.report_changes);
}

namespace {

std::string entry_line(const std::string& rel, const IndexEntry& entry) {
  std::vector<std::string> fields{rel};
  append_state(fields, entry.state);
  const Stamp& s = entry.stamp;
  for (uint64_t v : {s.size, static_cast<uint64_t>(s.mtime_ns), static_cast<uint64_t>(s.ctime_ns),
                     s.ino, uint64_t{s.mode}}) {
    fields.push_back(std::to_string(v));
  }
  return join_fields(fields) + '\n';
}

}  // namespace

std::string index_text(const TreeIndex& index) {
  std::string text;
  for (const auto& [rel, entry] : index) text += entry_line(rel, entry);
  return text;
}

std::string index_lines(const TreeIndex& index, const std::vector<std::string>& paths) {
  std::string text;
  for (const std::string& rel : paths) {
    auto it = index.find(rel);
    text += entry_line(rel, it == index.end() ? IndexEntry{} : it->second);
  }
  return text;
}

Status parse_index(std::string_view text, TreeIndex& index) {
  size_t start = 0;
  while (start < text.size()) {
    size_t eol = text.find('\n', start);
    if (eol == std::string_view::npos) eol = text.size();
    std::vector<std::string> fields = split_fields(text.substr(start, eol - start));
    start = eol + 1;
    if (fields.size() != 1 + kStateFields + 5) return Error::Io("damaged checkpoint index");
    IndexEntry entry;
    HERMES_ASSIGN_OR_RETURN(entry.state, parse_state(fields, 1));
    uint64_t v[5];
    for (size_t i = 0; i < 5; ++i) {
      const std::string& f = fields[1 + kStateFields + i];
      auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v[i]);
      if (ec != std::errc() || end != f.data() + f.size())
        return Error::Io("damaged checkpoint index");
    }
    entry.stamp = Stamp{v[0], static_cast<int64_t>(v[1]), static_cast<int64_t>(v[2]), v[3],
                        static_cast<uint32_t>(v[4])};
    if (entry.state.kind == Kind::kAbsent) {
      index.erase(fields[0]);
    } else {
      index.insert_or_assign(std::move(fields[0]), std::move(entry));
    }
  }
  return {};
}

}  // namespace hermes::checkpoint
