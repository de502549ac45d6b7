// SPDX-License-Identifier: MIT
// The in-memory file system: a map from absolute path to node.
#include "testutil/memory_file_system.h"

#include "core/paths.h"

#include <cerrno>

namespace hermes::testing {
namespace {

std::string parent_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

constexpr int kMaxHops = 40;

}  // namespace

// An open file: a snapshot of the content at open time, as a real open
// file keeps its inode.
class MemoryFileSystem::File final : public fs::ReadableFile {
 public:
  File(const MemoryFileSystem& fs, std::string data, fs::FileInfo info)
      : fs_(fs), data_(std::move(data)), info_(info) {}
  Result<size_t> pread(char* buffer, size_t size, uint64_t offset) override {
    HERMES_TRY(fs_.tick(Op::kRead));
    if (offset >= data_.size()) return size_t{0};
    size_t n = std::min<size_t>(size, data_.size() - offset);
    data_.copy(buffer, n, offset);
    return n;
  }
  Result<fs::FileInfo> info() override { return info_; }

 private:
  const MemoryFileSystem& fs_;
  std::string data_;
  fs::FileInfo info_;
};

MemoryFileSystem::MemoryFileSystem(std::string home) : home_(std::move(home)) {
  nodes_["/"] = Node{fs::FileType::kDirectory, "", 0755, next_ino_++, clock_ns_};
}

MemoryFileSystem::Node& MemoryFileSystem::put(const std::string& path, Node node) const {
  make_parents(path);
  node.ino = next_ino_++;
  node.mtime_ns = clock_ns_ += 1000;
  return nodes_[path] = std::move(node);
}

void MemoryFileSystem::make_parents(const std::string& path) const {
  std::string parent = parent_of(path);
  if (nodes_.count(parent)) return;
  make_parents(parent);
  nodes_[parent] = Node{fs::FileType::kDirectory, "", 0755, next_ino_++, clock_ns_};
}

void MemoryFileSystem::add_file(const std::string& path, std::string content, unsigned mode) {
  std::lock_guard lock(mu_);
  put(path, Node{fs::FileType::kRegular, std::move(content), mode});
}

void MemoryFileSystem::add_dir(const std::string& path) {
  std::lock_guard lock(mu_);
  put(path, Node{fs::FileType::kDirectory, "", 0755});
}

void MemoryFileSystem::add_symlink(const std::string& path, std::string target) {
  std::lock_guard lock(mu_);
  put(path, Node{fs::FileType::kSymlink, std::move(target), 0777});
}

std::optional<std::string> MemoryFileSystem::content(const std::string& path) const {
  std::lock_guard lock(mu_);
  auto it = nodes_.find(resolve(path));
  if (it == nodes_.end() || it->second.type != fs::FileType::kRegular) return std::nullopt;
  return it->second.data;
}

void MemoryFileSystem::fail(Op op, int nth, int err) {
  std::lock_guard lock(mu_);
  faults_[op][calls_[op] + nth] = err;
}

int MemoryFileSystem::calls(Op op) const {
  std::lock_guard lock(mu_);
  auto it = calls_.find(op);
  return it == calls_.end() ? 0 : it->second;
}

Status MemoryFileSystem::tick(Op op) const {
  std::lock_guard lock(mu_);
  int n = ++calls_[op];
  auto& planned = faults_[op];
  auto it = planned.find(n);
  if (it == planned.end()) return {};
  int err = it->second;
  planned.erase(it);
  return Error::FromErrno(err, "injected fault");
}

std::string MemoryFileSystem::resolve(const std::string& path) const {
  std::string current = PathResolver::normalize(path);
  for (int hop = 0; hop < kMaxHops; ++hop) {
    // The first symlink along the path, from the root down.
    std::string prefix;
    bool changed = false;
    size_t at = 0;
    while (at < current.size()) {
      size_t next = current.find('/', at + 1);
      prefix = current.substr(0, next);
      auto it = nodes_.find(prefix);
      if (it == nodes_.end()) return current;  // the missing tail stays
      if (it->second.type == fs::FileType::kSymlink) {
        const std::string& target = it->second.data;
        std::string base = target.starts_with('/') ? target : parent_of(prefix) + "/" + target;
        current =
            PathResolver::normalize(next == std::string::npos ? base : base + current.substr(next));
        changed = true;
        break;
      }
      if (next == std::string::npos) break;
      at = next;
    }
    if (!changed) return current;
  }
  return current;
}

fs::FileInfo MemoryFileSystem::info_of(const Node& node) const {
  fs::FileInfo info;
  info.type = node.type;
  info.size = node.data.size();
  info.dev = 1;
  info.ino = node.ino;
  info.mtime_ns = node.mtime_ns;
  info.ctime_ns = node.mtime_ns;
  info.mode = node.mode;
  return info;
}

Result<fs::FileInfo> MemoryFileSystem::stat(const std::string& path) const {
  HERMES_TRY(tick(Op::kStat));
  std::lock_guard lock(mu_);
  auto it = nodes_.find(resolve(path));
  if (it == nodes_.end()) return Error::FromErrno(ENOENT, "stat \"" + path + "\"");
  return info_of(it->second);
}

Result<fs::FileInfo> MemoryFileSystem::lstat(const std::string& path) const {
  HERMES_TRY(tick(Op::kStat));
  std::lock_guard lock(mu_);
  // The link itself: only the directories above it are resolved.
  const std::string normal = PathResolver::normalize(path);
  const std::string name = normal.substr(normal.find_last_of('/') + 1);
  auto it = nodes_.find(PathResolver::normalize(resolve(parent_of(normal)) + "/" + name));
  if (it == nodes_.end()) return Error::FromErrno(ENOENT, "lstat \"" + path + "\"");
  return info_of(it->second);
}

Result<std::unique_ptr<fs::ReadableFile>> MemoryFileSystem::open_read(
    const std::string& path) const {
  HERMES_TRY(tick(Op::kOpen));
  std::lock_guard lock(mu_);
  auto it = nodes_.find(resolve(path));
  if (it == nodes_.end()) return Error::FromErrno(ENOENT, "open \"" + path + "\"");
  if (it->second.type == fs::FileType::kSymlink) {
    return Error::FromErrno(ELOOP, "open \"" + path + "\"");  // a loop: resolve gave up
  }
  return std::unique_ptr<fs::ReadableFile>(
      std::make_unique<File>(*this, it->second.data, info_of(it->second)));
}

Result<std::vector<std::string>> MemoryFileSystem::list_dir(const std::string& path) const {
  HERMES_TRY(tick(Op::kList));
  std::lock_guard lock(mu_);
  std::string dir = resolve(path);
  auto it = nodes_.find(dir);
  if (it == nodes_.end()) return Error::FromErrno(ENOENT, "opendir \"" + path + "\"");
  if (it->second.type != fs::FileType::kDirectory) {
    return Error::FromErrno(ENOTDIR, "opendir \"" + path + "\"");
  }
  std::vector<std::string> names;
  const std::string prefix = dir == "/" ? "/" : dir + "/";
  for (auto child = nodes_.upper_bound(prefix); child != nodes_.end(); ++child) {
    if (!child->first.starts_with(prefix)) break;
    std::string rest = child->first.substr(prefix.size());
    if (!rest.empty() && rest.find('/') == std::string::npos) names.push_back(rest);
  }
  return names;
}

Result<std::string> MemoryFileSystem::read_link(const std::string& path) const {
  std::lock_guard lock(mu_);
  auto it = nodes_.find(PathResolver::normalize(path));
  if (it == nodes_.end()) return Error::FromErrno(ENOENT, "readlink \"" + path + "\"");
  if (it->second.type != fs::FileType::kSymlink) {
    return Error::FromErrno(EINVAL, "readlink \"" + path + "\"");
  }
  return it->second.data;
}

Result<std::string> MemoryFileSystem::read_all(const std::string& path) const {
  HERMES_ASSIGN_OR_RETURN(std::unique_ptr<fs::ReadableFile> file, open_read(path));
  HERMES_ASSIGN_OR_RETURN(fs::FileInfo info, file->info());
  if (info.type != fs::FileType::kRegular) return Error::FromErrno(EISDIR, "read \"" + path + "\"");
  std::string data(info.size, '\0');
  HERMES_ASSIGN_OR_RETURN(size_t n, file->pread(data.data(), data.size(), 0));
  data.resize(n);
  return data;
}

Result<fs::AtomicWriteOutcome> MemoryFileSystem::write_atomic(const std::string& path,
                                                              std::string_view bytes,
                                                              const fs::AtomicWriteOptions&) const {
  // A failed write leaves the old content, as the real one does.
  HERMES_TRY(tick(Op::kWrite));
  std::lock_guard lock(mu_);
  std::string target = resolve(path);
  fs::AtomicWriteOutcome out;
  out.written_path = target;
  auto it = nodes_.find(target);
  out.created = it == nodes_.end();
  unsigned mode = out.created ? 0644 : it->second.mode;
  put(target, Node{fs::FileType::kRegular, std::string(bytes), mode});
  return out;
}

Result<bool> MemoryFileSystem::holds(const std::string& path, std::string_view bytes) const {
  HERMES_ASSIGN_OR_RETURN(std::string data, read_all(path));
  return data == bytes;
}

Status MemoryFileSystem::remove(const std::string& path) const {
  HERMES_TRY(tick(Op::kRemove));
  std::lock_guard lock(mu_);
  auto it = nodes_.find(PathResolver::normalize(path));
  if (it == nodes_.end()) return Error::FromErrno(ENOENT, "unlink \"" + path + "\"");
  if (it->second.type == fs::FileType::kDirectory) {
    return Error::FromErrno(EISDIR, "unlink \"" + path + "\"");
  }
  nodes_.erase(it);
  return {};
}

Status MemoryFileSystem::remove_dir(const std::string& path) const {
  HERMES_TRY(tick(Op::kRemove));
  HERMES_ASSIGN_OR_RETURN(std::vector<std::string> names, list_dir(path));
  if (!names.empty()) return Error::FromErrno(ENOTEMPTY, "rmdir \"" + path + "\"");
  std::lock_guard lock(mu_);
  nodes_.erase(resolve(path));
  return {};
}

Status MemoryFileSystem::set_mode(const std::string& path, unsigned mode) const {
  std::lock_guard lock(mu_);
  auto it = nodes_.find(resolve(path));
  if (it == nodes_.end()) return Error::FromErrno(ENOENT, "chmod \"" + path + "\"");
  it->second.mode = mode & 07777;
  return {};
}

Status MemoryFileSystem::make_dir(const std::string& path, unsigned mode) const {
  HERMES_TRY(tick(Op::kWrite));
  return make_node(path, Node{fs::FileType::kDirectory, "", mode & 07777}, "mkdir");
}

Status MemoryFileSystem::make_symlink(const std::string& target, const std::string& link) const {
  HERMES_TRY(tick(Op::kWrite));
  return make_node(link, Node{fs::FileType::kSymlink, target, 0777}, "symlink");
}

Status MemoryFileSystem::make_node(const std::string& path, Node node, const char* op) const {
  std::lock_guard lock(mu_);
  std::string at = PathResolver::normalize(path);
  std::string context = std::string(op) + " \"" + path + "\"";
  if (nodes_.count(at)) return Error::FromErrno(EEXIST, context);
  if (!nodes_.count(parent_of(at))) return Error::FromErrno(ENOENT, context);
  put(at, std::move(node));
  return {};
}

Result<std::string> MemoryFileSystem::real_path(const std::string& absolute_path) const {
  std::lock_guard lock(mu_);
  return resolve(absolute_path);
}

}  // namespace hermes::testing
