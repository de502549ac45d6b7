// SPDX-License-Identifier: MIT
#include "backend/sandbox_backend.h"

#include "backend/local_command.h"
#include "core/paths.h"
#include "proc/spawn.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>

namespace hermes::backend {

SandboxBackend::~SandboxBackend() { cleanup(); }

Status SandboxBackend::start(std::stop_token stop) {
  {
    std::lock_guard lock(mu_);
    if (!private_tmp_.empty()) return {};
    std::string pattern = options_.host_temp_dir + "/hermes-sandbox-XXXXXX";
    if (!::mkdtemp(pattern.data())) {
      return Error::Unavailable("Sandbox backend: cannot create a private /tmp under " +
                                options_.host_temp_dir);
    }
    private_tmp_ = pattern;
  }
  auto probe = run_local_command(bash_argv("true", false), std::chrono::seconds(10), stop);
  if (probe && probe->exit_code == 0) return {};
  cleanup();
  std::string why = probe ? last_line(probe->errors) : probe.error().message;
  return Error::Unavailable("Sandbox backend: bubblewrap cannot run here" +
                            (why.empty() ? std::string() : ": " + why));
}

std::vector<std::string> SandboxBackend::bash_argv(const std::string& script, bool login) const {
  std::lock_guard lock(mu_);
  std::vector<std::string> argv = {"bwrap",
                                   "--die-with-parent",
                                   "--unshare-all",
                                   "--ro-bind",
                                   "/",
                                   "/",
                                   "--dev",
                                   "/dev",
                                   "--proc",
                                   "/proc",
                                   "--bind",
                                   private_tmp_,
                                   "/tmp",
                                   "--setenv",
                                   "TMPDIR",
                                   "/tmp"};
  // The private /tmp hides the host's, and with it a HOME there (a CI
  // runner's, a test run's): `~`, the rc files and the snapshot bootstrap
  // would find nothing. It is shown read-only, as the rest of the root;
  // the binds below still make the workspace in it writable.
  const std::string home_dir = home();
  if (home_dir != "/tmp" && is_within(home_dir, "/tmp")) {
    argv.insert(argv.end(), {"--ro-bind-try", home_dir, home_dir});
  }
  if (options_.network) argv.push_back("--share-net");
  argv.insert(argv.end(), {"--bind", options_.workspace, options_.workspace});
  for (const auto& dir : options_.writable) argv.insert(argv.end(), {"--bind", dir, dir});
  argv.insert(argv.end(), {"--cap-drop", "ALL", "bash"});
  if (login) argv.push_back("-l");
  argv.insert(argv.end(), {"-c", script});
  return argv;
}

bool SandboxBackend::capture_writes(std::shared_ptr<const proc::WriteCapture> capture) {
  // bubblewrap sets no_new_privs on the command itself; set before it
  // starts, it only matters to a set-user-ID bubblewrap, which it would
  // keep from its privileges: such a one is not run so.
  struct ::stat st {};
  std::string bwrap = proc::find_program("bwrap");
  bool setuid = bwrap.empty() || ::stat(bwrap.c_str(), &st) != 0 || (st.st_mode & S_ISUID) != 0;
  return capture_.set(std::move(capture), !setuid);
}

std::shared_ptr<const proc::WriteCapture> SandboxBackend::write_capture() const {
  return capture_.get();
}

std::string SandboxBackend::home() const { return PathResolver::expand_user("~"); }

void SandboxBackend::cleanup() {
  std::lock_guard lock(mu_);
  if (private_tmp_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(private_tmp_, ignored);
  private_tmp_.clear();
}

}  // namespace hermes::backend
