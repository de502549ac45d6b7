// SPDX-License-Identifier: MIT
#include "checkpoint/tree_index.h"

#include "fs/beneath.h"
#include "proc/unique_fd.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

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

class Walker {
 public:
  // Reads the entries whose metadata moved, once the walk has kept within
  // the entry cap (so a tree over it costs a walk, never a copy).
  Status read_moved() {
    for (const std::string& rel : moved_) {
      IndexEntry& entry = out_.index.at(rel);
      std::string real = root_.root() == "/" ? "/" + rel : root_.root() + "/" + rel;
      Capture how{.store = options_.store, .max_bytes = options_.max_bytes};
      HERMES_ASSIGN_OR_RETURN(entry.state, read_state(root_, real, how));
      auto old = before_.find(rel);
      if (old == before_.end() || !old->second.state.same_as(entry.state)) {
        out_.changed.push_back(rel);
      }
    }
    return {};
  }

  Walker(const fs::Beneath& root, const TreeIndex& before, const ScanOptions& options,
         ScanResult& out)
      : root_(root), before_(before), options_(options), out_(out) {}

  // Walks the directory open as `dir`, whose path relative to the root is
  // `rel` ("" for the root).
  Status walk(int dir, const std::string& rel) {
    // getdents64 straight: readdir's DIR* would cost an allocation and an
    // extra fd per directory on a path that runs once per shell command.
    alignas(Dirent64) char buf[32768];
    for (;;) {
      long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
      if (n < 0)
        return Error::FromErrno(errno, "read directory \"" + root_.root() + "/" + rel + "\"");
      if (n == 0) return {};
      for (long at = 0; at < n;) {
        auto* entry = reinterpret_cast<Dirent64*>(buf + at);
        at += entry->reclen;
        std::string_view name = entry->name;
        if (name == "." || name == "..") continue;
        HERMES_TRY(visit(dir, rel, std::string(name)));
      }
    }
  }

 private:
  Status visit(int dir, const std::string& parent, const std::string& name) {
    std::string rel = parent.empty() ? name : parent + "/" + name;
    struct ::stat st {};
    if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) return {};  // removed while we walked
      return Error::FromErrno(errno, "stat \"" + root_.root() + "/" + rel + "\"");
    }
    bool is_dir = S_ISDIR(st.st_mode);
    if (is_dir && (name == ".git" || options_.ignored.contains(name))) return {};
    Stamp stamp = stamp_of(st);
    auto old = before_.find(rel);
    if (old != before_.end() && old->second.stamp == stamp) {
      out_.index.emplace(rel, old->second);
    } else {
      out_.index.emplace(rel, IndexEntry{{}, stamp});
      moved_.push_back(rel);
    }
    if (options_.max_entries != 0 && out_.index.size() > options_.max_entries) {
      return Error::TooLarge("the workspace has more than " + std::to_string(options_.max_entries) +
                             " entries");
    }
    if (!is_dir) return {};
    proc::UniqueFd child(
        ::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!child.valid()) {
      if (errno == ENOENT || errno == ENOTDIR) return {};
      return Error::FromErrno(errno, "open \"" + root_.root() + "/" + rel + "\"");
    }
    return walk(child.get(), rel);
  }

  const fs::Beneath& root_;
  const TreeIndex& before_;
  std::vector<std::string> moved_;  // entries whose stamp moved: read after the walk
  const ScanOptions& options_;
  ScanResult& out_;
};

}  // namespace

Result<ScanResult> scan_tree(const std::string& root, const TreeIndex& before,
                             const ScanOptions& options) {
  HERMES_ASSIGN_OR_RETURN(fs::Beneath beneath, fs::Beneath::open_root(root));
  HERMES_ASSIGN_OR_RETURN(proc::UniqueFd top, beneath.open(root, O_RDONLY | O_DIRECTORY));
  ScanResult out;
  Walker walker(beneath, before, options, out);
  HERMES_TRY(walker.walk(top.get(), ""));
  HERMES_TRY(walker.read_moved());
  for (const auto& [rel, entry] : before) {
    if (!out.index.contains(rel)) out.changed.push_back(rel);
  }
  return out;
}

std::string index_text(const TreeIndex& index) {
  std::string text;
  for (const auto& [rel, entry] : index) {
    std::vector<std::string> fields{rel};
    append_state(fields, entry.state);
    const Stamp& s = entry.stamp;
    for (uint64_t v : {s.size, static_cast<uint64_t>(s.mtime_ns), static_cast<uint64_t>(s.ctime_ns),
                       s.ino, uint64_t{s.mode}}) {
      fields.push_back(std::to_string(v));
    }
    text += join_fields(fields);
    text += '\n';
  }
  return text;
}

Result<TreeIndex> parse_index(std::string_view text) {
  TreeIndex index;
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
    index.emplace(std::move(fields[0]), std::move(entry));
  }
  return index;
}

}  // namespace hermes::checkpoint
