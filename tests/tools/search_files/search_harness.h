// SPDX-License-Identifier: MIT
// Calls search_files' handler as the dispatcher would, in a session whose
// cwd is a temporary tree and whose Hermes home is another temporary folder;
// plus helpers to build trees and to hide tools from PATH. Built with
// HERMES_SEARCH_PORTABLE, every session runs with terminal.portable_files, so
// the same tests drive the shell-command path (docs/ARCHITECTURE.md, Backends).
#pragma once

#include "core/config.h"
#include "core/paths.h"
#include "json/json.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "testutil/scoped_shell_path.h"
#include "testutil/temp_dir.h"
#include "tools/search_files/search_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace hermes {

namespace testing {

#ifdef HERMES_SEARCH_PORTABLE
inline constexpr bool kPortable = true;
#else
inline constexpr bool kPortable = false;
#endif

class SearchHarness {
 public:
  // `contained`: the tree is also the workspace root (`--root`).
  // `home_in_tree`: the Hermes home is the tree's `.hermes` (a root that
  // holds it, as $HOME does) instead of a folder of its own.
  explicit SearchHarness(bool contained = false, bool home_in_tree = false)
      : config_(Config::from_yaml("", home_in_tree ? tree_.file(".hermes") : home_.path())),
        paths_(contained ? tree_.path() : std::string()),
        services_{*config_, paths_},
        dispatcher_(registry_, services_),
        ctx_{session_, services_, client_, dispatcher_, {}, Json()} {
    if (kPortable) config_->set_override("terminal.portable_files", "true");
    // As --root sets it: the local backend then fences its commands.
    if (contained) config_->set_override("security.workspace_root", tree_.path());
    search::register_search_files(registry_);
    session_.set_cwd(tree_.path());
  }

  Json call(Json args) { return reply(std::move(args)).value; }
  // The whole reply: the JSON, isError and the failure's code.
  registry::ToolReply reply(Json args) {
    return registry::invoke_tool(registry_.all().front(), args, ctx_);
  }
  const registry::ToolSpec& spec() const { return registry_.all().front(); }
  const TempDir& tree() const { return tree_; }
  const TempDir& home() const { return home_; }
  registry::Session& session() { return session_; }
  // Overrides set before the first call choose the session's backend.
  Config& config() { return *config_; }
  const registry::Services& services() const { return services_; }

 private:
  TempDir tree_;
  TempDir home_;
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  registry::Services services_;
  registry::Registry registry_;
  registry::Dispatcher dispatcher_;
  registry::Session session_{"search-test"};
  registry::NullClientChannel client_;
  registry::CallContext ctx_;
};

// PATH for the scope of one test, in the server and in its shells.
using ScopedPath = ScopedShellPath;

// A bin folder holding links to just the named system tools (so a test can
// run with rg hidden), or scripts written into it. The shell the portable
// path runs on the target and the coreutils its queries use are always
// there: a target without them is not a target (no engine looks for them).
class FakeBin {
 public:
  explicit FakeBin(std::vector<std::string> tools) {
    tools.insert(tools.end(), {"bash", "realpath", "stat", "xargs"});
    for (const auto& tool : tools) {
      std::string target = "/usr/bin/" + tool;
      if (::symlink(target.c_str(), dir_.file(tool).c_str()) != 0) std::abort();
    }
  }
  void script(const std::string& name, const std::string& body) {
    dir_.write(name, "#!/bin/sh\n" + body + "\n");
    ::chmod(dir_.file(name).c_str(), 0755);
  }
  const std::string& path() const { return dir_.path(); }

 private:
  TempDir dir_;
};

// Sets a file's modification time (seconds since the epoch).
inline void set_mtime(const std::string& path, time_t seconds) {
  struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
  ::utimensat(AT_FDCWD, path.c_str(), times, 0);
}

// `n` lines `<prefix> <i>`.
inline std::string numbered_lines(const std::string& prefix, int n) {
  std::string out;
  for (int i = 1; i <= n; ++i) out += prefix + " " + std::to_string(i) + "\n";
  return out;
}

}  // namespace testing
}  // namespace hermes
