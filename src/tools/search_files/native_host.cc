// SPDX-License-Identifier: MIT
// The native search host: system calls and local child processes.
#include "core/paths.h"
#include "tools/search_files/search_host.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

namespace hermes::search {
namespace {

PathKind kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return PathKind::kDirectory;
  if (S_ISREG(mode)) return PathKind::kRegular;
  if (S_ISFIFO(mode)) return PathKind::kFifo;
  if (S_ISSOCK(mode)) return PathKind::kSocket;
  if (S_ISCHR(mode)) return PathKind::kCharDevice;
  if (S_ISBLK(mode)) return PathKind::kBlockDevice;
  return PathKind::kOther;
}

class NativeHost final : public SearchHost {
 public:
  Engines engines() override {
    return Engines{.rg = find_executable("rg"),
                   .grep = find_executable("grep"),
                   .find = find_executable("find")};
  }

  Result<RunOutcome> run(const SpawnSpec& spec, const RecordSink& sink) override {
    return run_records(spec, sink);
  }

  std::string home() override {
    const char* home = std::getenv("HOME");
    return home ? home : "";
  }

  std::string expand_user(const std::string& path) override {
    return PathResolver::expand_user(path);
  }

  std::string workspace(const std::string& session_cwd, const std::string& root) override {
    return PathResolver::inside_root(PathResolver::workspace(session_cwd), root);
  }

  std::string real_path(const std::string& absolute) override {
    return PathResolver::real_path(absolute);
  }

  PathKind kind(const std::string& path) override {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 ? kind_of(st.st_mode) : PathKind::kMissing;
  }

  std::vector<DirEntry> list_dir(const std::string& dir) override {
    std::vector<DirEntry> entries;
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return entries;
    while (const dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      struct stat st;
      PathKind kind = ::lstat((dir + "/" + name).c_str(), &st) == 0 && !S_ISLNK(st.st_mode)
                          ? kind_of(st.st_mode)
                          : PathKind::kOther;
      entries.push_back({std::move(name), kind});
    }
    ::closedir(d);
    std::sort(entries.begin(), entries.end(),
              [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    return entries;
  }

  std::vector<int64_t> mtimes(const std::vector<std::string>& paths,
                              const std::string& cwd) override {
    std::vector<int64_t> out;
    out.reserve(paths.size());
    std::string absolute;
    for (const std::string& path : paths) {
      absolute = path.starts_with('/') ? path : cwd + "/" + path;
      struct stat st;
      int64_t mtime = 0;
      if (::stat(absolute.c_str(), &st) == 0) {
        mtime = int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
      }
      out.push_back(mtime);
    }
    return out;
  }
};

}  // namespace

std::string SearchHost::expand_user(const std::string& path) {
  if (path != "~" && !path.starts_with("~/")) return path;
  return home() + path.substr(1);
}

SearchHost::Located SearchHost::locate(const std::string& absolute) {
  Located out{real_path(absolute)};
  out.kind = kind(out.real);
  return out;
}

SearchHost& native_host() {
  static NativeHost host;
  return host;
}

}  // namespace hermes::search
