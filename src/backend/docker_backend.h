// SPDX-License-Identifier: MIT
// The docker backend (docs/ARCHITECTURE.md): one long-lived container per
// session started with the hardening options below, `docker exec` per
// command, and the container recreated once if it vanished.
#pragma once

#include "backend/backend.h"
#include "proc/capture_server.h"

#include <array>
#include <mutex>

namespace hermes::backend {

// The container's own tmpfs mounts (`--tmpfs POINT:OPTIONS`). Docker
// mounts the shallower first, so one hides a bind above it
// (files_on_this_host weighs them).
struct DockerTmpfs {
  const char* point;
  const char* options;
};
inline constexpr std::array<DockerTmpfs, 3> kDockerTmpfs = {{
    {"/tmp", "rw,nosuid,size=512m"},
    {"/var/tmp", "rw,noexec,nosuid,size=256m"},
    {"/run", "rw,noexec,nosuid,size=64m"},
}};

struct DockerOptions {
  std::string docker = "docker";  // the CLI to run
  std::string image = "nikolaik/python-nodejs:python3.11-nodejs20";
  std::string cwd = "/root";
  std::vector<std::string> volumes;  // `-v` values
  bool network = true;
  std::string cpus = "1";
  std::string memory = "5g";
  // Variables forwarded by name (`-e NAME`); values come from our env.
  std::vector<std::string> forward_env;
  std::string host_temp_dir = "/tmp";  // where the write capture's folder lives
};

// Where the container sees the write capture's folder
// (proc/capture_server.h): its socket and its helper.
inline constexpr const char* kDockerCaptureMount = "/.hermes-capture";

class DockerBackend final : public Backend {
 public:
  explicit DockerBackend(DockerOptions options) : options_(std::move(options)) {}
  ~DockerBackend() override;

  std::string name() const override { return "docker"; }
  bool native_files() const override { return false; }
  // Starts the container (`docker run -d … sleep infinity`).
  Status start(std::stop_token stop) override;
  std::vector<std::string> bash_argv(const std::string& script, bool login) const override;
  std::optional<std::string> transport_error(const BashOutcome& outcome) const override;
  bool has_transport() const override { return true; }
  bool outlives_its_launcher() const override { return true; }
  // Commands started from now on run under the capture's filter, installed
  // in the container by the helper and served by this server's thread;
  // false when the container has no helper (proc/capture_server.h).
  bool capture_writes(std::shared_ptr<const proc::WriteCapture> capture) override;
  // Recreates a vanished container, once per session.
  bool recover() override;
  std::string home() const override;
  std::string default_cwd() const override { return options_.cwd; }
  void cleanup() override;

  // The `docker run` argv for a container called `name`.
  std::vector<std::string> run_argv(const std::string& name) const;
  std::string container_id() const;

 private:
  Status create_container(std::stop_token stop);

  DockerOptions options_;
  mutable std::mutex mu_;
  std::string container_;   // mu_: id, empty until started
  std::string home_;        // mu_
  bool recreated_ = false;  // mu_
  // Bound into every container this backend starts, when the helper is
  // built and the kernel offers the capture; null otherwise.
  std::unique_ptr<proc::CaptureServer> capture_;  // mu_
};

}  // namespace hermes::backend
