// SPDX-License-Identifier: MIT
// The machine a search runs on (docs/ARCHITECTURE.md, Backends): this host through system calls
// (native), or a backend's target through shell commands (portable). The
// engines and root checks ask it everything that touches the disk, so both
// paths give the same results.
#pragma once

#include "core/result.h"
#include "tools/search_files/search_process.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::backend {
class Backend;
}  // namespace hermes::backend

namespace hermes::search {

class SearchSessionState;

// Which engines exist (absolute paths on the host, empty when missing).
struct Engines {
  std::string rg;
  std::string grep;
  std::string find;
};

// What `stat` (links followed) says a path is; kMissing when it fails.
enum class PathKind {
  kMissing,
  kDirectory,
  kRegular,
  kFifo,
  kSocket,
  kCharDevice,
  kBlockDevice,
  kOther
};

struct DirEntry {
  std::string name;
  PathKind kind;  // of the entry itself (`lstat`): a symlink is kOther
};

class SearchHost {
 public:
  virtual ~SearchHost() = default;

  // The engines on the host's PATH.
  virtual Engines engines() = 0;
  // Runs an engine command (see search_process.h).
  virtual Result<RunOutcome> run(const SpawnSpec& spec, const RecordSink& sink) = 0;

  // $HOME on the host; `~` and `~/x` expand against it.
  virtual std::string home() = 0;
  // Where relative paths start: the session's cwd, else the host default;
  // kept inside `root` (the workspace root, empty: none) as PathResolver
  // keeps it.
  virtual std::string workspace(const std::string& session_cwd, const std::string& root) = 0;
  // `absolute` with every existing symlink hop resolved (PathResolver's
  // real_path on the host).
  virtual std::string real_path(const std::string& absolute) = 0;
  virtual PathKind kind(const std::string& path) = 0;
  // real_path(absolute) and the kind of what it names, in one question.
  struct Located {
    std::string real;
    PathKind kind = PathKind::kMissing;
  };
  virtual Located locate(const std::string& absolute);
  // The entries of `dir` (no `.`/`..`), sorted by name; empty when unreadable.
  virtual std::vector<DirEntry> list_dir(const std::string& dir) = 0;
  // Modification times (ns since the epoch, links followed; 0 when unknown)
  // of `paths`, relative ones against `cwd`; same order.
  virtual std::vector<int64_t> mtimes(const std::vector<std::string>& paths,
                                      const std::string& cwd) = 0;
  // The first failure to reach the host (a transport error, a timeout,
  // cancellation) of the queries above, which then answered "missing" or
  // "empty"; nullopt while every query ran.
  virtual std::optional<std::string> failure() { return std::nullopt; }

  // `~` and `~/x` against home(); other text (`~user` too) unchanged.
  virtual std::string expand_user(const std::string& path);
};

// This host, through system calls. Stateless; reads PATH at each call.
SearchHost& native_host();

// `backend`'s target through shell commands run by the backend; queries stop
// with `stop`. The engine lookup (`command -v` on the target) is kept in
// `state` (when given) until another tool runs.
std::unique_ptr<SearchHost> backend_host(std::shared_ptr<backend::Backend> backend,
                                         std::stop_token stop, SearchSessionState* state);

}  // namespace hermes::search
