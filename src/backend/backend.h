// SPDX-License-Identifier: MIT
// A backend is the machine (or sandbox, or container) the tools act on. Every
// backend reduces to one primitive: a local argv that runs `bash [-l] -c
// <script>` on the target with its stdin and merged output wired to the local
// child, so killing the local child ends the call (docs/ARCHITECTURE.md). The
// terminal, the portable file system, search and execute_code's file RPC are
// all built on that primitive; only the local backend also offers the native
// file-system fast path (docs/ARCHITECTURE.md, Backends).
#pragma once

#include "core/result.h"

#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::proc {
struct WriteCapture;
}

namespace hermes::backend {

struct BashOutcome;
class CommandFence;

class Backend {
 public:
  virtual ~Backend() = default;

  // `local`, `ssh`, `sandbox` or `docker`.
  virtual std::string name() const = 0;
  // Where the file tools may use system calls instead of shell commands.
  virtual bool native_files() const = 0;

  // Prepares the target once per session: connection check, container
  // start. The error message is shown to the model as is. Thread-safe;
  // later calls return the first outcome.
  virtual Status start(std::stop_token stop) = 0;
  // The local argv that runs `bash [-l] -c script` on the target. Valid
  // after a successful start().
  virtual std::vector<std::string> bash_argv(const std::string& script, bool login) const = 0;
  // The environment of that local process; nullopt inherits the server's.
  virtual std::optional<std::vector<std::string>> launch_env() const { return std::nullopt; }
  // What confines the processes this backend starts on this host (the local
  // backend under a workspace root); nullptr for none. Valid after start().
  virtual const CommandFence* command_fence() const { return nullptr; }

  // A transport failure (ssh could not connect, the container is gone)
  // rather than the command's own result, as a message; nullopt otherwise.
  virtual std::optional<std::string> transport_error(const BashOutcome&) const {
    return std::nullopt;
  }
  // True when transport_error can report one: run_bash then holds the start
  // of a command's output back until it can no longer be a transport
  // failure; other backends' output streams at once.
  virtual bool has_transport() const { return false; }
  // True when killing the local launcher leaves the command running on the
  // target (an ssh or docker exec session): run_bash then ends it there.
  virtual bool outlives_its_launcher() const { return false; }
  // True when the launcher's processes are the command's own, on this host:
  // terminal commands then run under a whole-tree supervisor
  // (proc/process_tree.h), so nothing they start outlives a kill.
  virtual bool runs_on_this_host() const { return false; }
  // Runs this backend's commands from now on under `capture`
  // (proc/write_capture.h): each tree's supervisor keeps what it is about
  // to change (docker: a thread of this server, proc/capture_server.h).
  // False, and nothing changes, when they cannot be: no one here can serve
  // the filter, or the kernel does not allow it.
  virtual bool capture_writes(std::shared_ptr<const proc::WriteCapture>) { return false; }
  // The capture the trees this server supervises start under now; null
  // for none (docker's commands install theirs in the container).
  virtual std::shared_ptr<const proc::WriteCapture> write_capture() const { return nullptr; }

  // Called after a transport error: true when the target was rebuilt (a
  // vanished container recreated) and the command should run once more.
  virtual bool recover() { return false; }

  // The target's `$HOME` (for `~`) and the session's default cwd there.
  virtual std::string home() const = 0;
  virtual std::string default_cwd() const = 0;
  // The target's temp directory.
  virtual std::string temp_dir() const { return "/tmp"; }

  // Ends the session's use of the target (stops the container, closes the
  // ssh master, removes sandbox directories). Idempotent.
  virtual void cleanup() {}
};

}  // namespace hermes::backend
