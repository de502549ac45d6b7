// SPDX-License-Identifier: MIT
#include "backend/docker_backend.h"

#include "backend/local_command.h"
#include "backend/run_bash.h"
#include "core/strings.h"

namespace hermes::backend {
namespace {

// Image pulls can be slow; a run that takes longer has failed.
constexpr std::chrono::minutes kStartLimit{10};

}  // namespace

DockerBackend::~DockerBackend() { cleanup(); }

std::vector<std::string> DockerBackend::run_argv(const std::string& name) const {
  std::vector<std::string> argv = {options_.docker,
                                   "run",
                                   "-d",
                                   "--init",
                                   "--name",
                                   name,
                                   "--label",
                                   "hermes-agent=1",
                                   "-w",
                                   options_.cwd,
                                   "--cap-drop",
                                   "ALL",
                                   "--cap-add",
                                   "DAC_OVERRIDE",
                                   "--cap-add",
                                   "CHOWN",
                                   "--cap-add",
                                   "FOWNER",
                                   "--cap-add",
                                   "SETUID",
                                   "--cap-add",
                                   "SETGID",
                                   "--security-opt",
                                   "no-new-privileges",
                                   "--cpus",
                                   options_.cpus,
                                   "--memory",
                                   options_.memory,
                                   "--pids-limit",
                                   "256",
                                   "--shm-size",
                                   "1g"};
  for (const DockerTmpfs& tmpfs : kDockerTmpfs) {
    argv.insert(argv.end(), {"--tmpfs", std::string(tmpfs.point) + ":" + tmpfs.options});
  }
  if (!options_.network) argv.push_back("--network=none");
  for (const auto& volume : options_.volumes) argv.insert(argv.end(), {"-v", volume});
  {
    std::lock_guard lock(mu_);
    if (capture_) {
      argv.insert(argv.end(), {"-v", capture_->folder() + ":" + kDockerCaptureMount + ":ro"});
    }
  }
  argv.insert(argv.end(), {options_.image, "sleep", "infinity"});
  return argv;
}

Status DockerBackend::create_container(std::stop_token stop) {
  auto run = run_local_command(run_argv("hermes-" + random_hex(4)), kStartLimit, stop);
  if (!run) return Error::Unavailable("Docker backend: " + run.error().message);
  std::string id = trim(run->output);
  if (run->exit_code != 0 || id.empty()) {
    return Error::Unavailable("Docker backend: cannot start a container from " + options_.image +
                              ": " + last_line(run->errors.empty() ? run->output : run->errors));
  }
  std::lock_guard lock(mu_);
  container_ = id;
  return {};
}

Status DockerBackend::start(std::stop_token stop) {
  {
    std::lock_guard lock(mu_);
    if (!container_.empty()) return {};
  }
  std::unique_ptr<proc::CaptureServer> made;
  if (auto capture = proc::CaptureServer::start(options_.host_temp_dir)) made = std::move(*capture);
  {
    std::lock_guard lock(mu_);
    if (!capture_) capture_.swap(made);
  }
  made.reset();  // another start's was kept
  HERMES_TRY(create_container(stop));
  // A daemon that does not see this host's folders (another machine's, a
  // VM's) binds an empty one: its commands then run without the helper.
  const std::string helper =
      std::string(kDockerCaptureMount) + "/" + proc::CaptureServer::kHelperName;
  auto probe = run_local_command(
      bash_argv("printf '%s' \"$HOME\"; if [ -x " + helper + " ]; then printf '\\n%s' helper; fi",
                false),
      std::chrono::seconds(30), stop);
  std::string out = probe && probe->exit_code == 0 ? probe->output : "";
  bool helper_there = out.ends_with("\nhelper");
  if (helper_there) out.resize(out.size() - std::string("\nhelper").size());
  std::unique_ptr<proc::CaptureServer> unused;
  std::lock_guard lock(mu_);
  home_ = out.empty() ? "/root" : out;
  if (!helper_there) unused.swap(capture_);
  return {};
}

std::vector<std::string> DockerBackend::bash_argv(const std::string& script, bool login) const {
  std::vector<std::string> argv = {options_.docker, "exec", "-i"};
  for (const auto& name : options_.forward_env) argv.insert(argv.end(), {"-e", name});
  argv.push_back(container_id());
  if (std::lock_guard lock(mu_); capture_ && capture_->capturing()) {
    const std::string at = kDockerCaptureMount;
    argv.insert(argv.end(), {at + "/" + proc::CaptureServer::kHelperName,
                             at + "/" + proc::CaptureServer::kSocketName, "--"});
  }
  argv.push_back("bash");
  if (login) argv.push_back("-l");
  argv.insert(argv.end(), {"-c", script});
  return argv;
}

std::optional<std::string> DockerBackend::transport_error(const BashOutcome& outcome) const {
  if (outcome.exit_code == 0) return std::nullopt;
  const std::string& text = outcome.stderr_text.empty() ? outcome.output : outcome.stderr_text;
  // The CLI names the container it was given; a command's own output that
  // merely mentions these phrases must not cost the session its container.
  std::string id = container_id();
  if (id.empty() || (text.find("No such container: " + id) == std::string::npos &&
                     text.find(id + " is not running") == std::string::npos)) {
    return std::nullopt;
  }
  return "Docker backend: the session's container is gone: " + last_line(text);
}

bool DockerBackend::capture_writes(std::shared_ptr<const proc::WriteCapture> capture) {
  std::lock_guard lock(mu_);
  if (!capture_) return false;
  capture_->set(std::move(capture));
  return true;
}

bool DockerBackend::recover() {
  {
    std::lock_guard lock(mu_);
    if (recreated_) return false;
    recreated_ = true;
    container_.clear();
  }
  return create_container({}).has_value();
}

std::string DockerBackend::home() const {
  std::lock_guard lock(mu_);
  return home_;
}

std::string DockerBackend::container_id() const {
  std::lock_guard lock(mu_);
  return container_;
}

void DockerBackend::cleanup() {
  std::string id;
  {
    std::lock_guard lock(mu_);
    id.swap(container_);
  }
  if (!id.empty())
    (void)run_local_command({options_.docker, "rm", "-f", id}, std::chrono::seconds(30));
  std::unique_ptr<proc::CaptureServer> ended;
  {
    std::lock_guard lock(mu_);
    ended.swap(capture_);
  }
}

}  // namespace hermes::backend
