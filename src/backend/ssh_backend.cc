// SPDX-License-Identifier: MIT
#include "backend/ssh_backend.h"

#include "backend/local_command.h"
#include "backend/run_bash.h"
#include "core/strings.h"
#include "fs/atomic_write.h"
#include "proc/child_ledger.h"

#include <sys/stat.h>

namespace hermes::backend {
namespace {

constexpr std::chrono::seconds kConnectLimit{30};

// The pid in `ssh -O check`'s "Master running (pid=N)"; -1 without one.
pid_t master_pid(std::string_view answer) {
  constexpr std::string_view kMark = "(pid=";
  size_t at = answer.find(kMark);
  if (at == std::string_view::npos) return -1;
  pid_t pid = 0;
  for (size_t i = at + kMark.size(); i < answer.size() && answer[i] >= '0' && answer[i] <= '9';
       ++i) {
    if (pid > 4'000'000) return -1;
    pid = pid * 10 + (answer[i] - '0');
  }
  return pid > 0 ? pid : -1;
}

// What OpenSSH prints when the transport, not the remote command, failed.
constexpr std::string_view kTransportSigns[] = {
    "ssh: ",
    "Permission denied (",
    "Connection closed by",
    "Connection reset by",
    "closed by remote host",
    "Host key verification failed",
    "kex_exchange_identification",
    "client_loop: ",
    "Broken pipe",
    "Connection timed out",
    "Control socket connect",
};

}  // namespace

SshBackend::SshBackend(SshTarget target) : target_(std::move(target)) {
  std::string id = target_.user + "@" + target_.host + ":" + std::to_string(target_.port);
  control_path_ = target_.control_dir + "/" + fs::sha256_hex(id).substr(0, 16) + ".sock";
}

std::string SshBackend::display() const {
  return (target_.user.empty() ? "" : target_.user + "@") + target_.host + ":" +
         std::to_string(target_.port);
}

std::vector<std::string> SshBackend::base_argv() const {
  // ssh keeps the first value of an option: the user's come first so they
  // can override ours.
  std::vector<std::string> argv = {"ssh"};
  for (const auto& option : target_.options) argv.insert(argv.end(), {"-o", option});
  argv.insert(argv.end(), {"-o", "ControlMaster=auto", "-o", "ControlPersist=300", "-o",
                           "ControlPath=" + control_path_, "-o", "BatchMode=yes", "-o",
                           "StrictHostKeyChecking=accept-new", "-o", "ConnectTimeout=10", "-o",
                           "LogLevel=ERROR", "-p", std::to_string(target_.port)});
  if (!target_.key.empty())
    argv.insert(argv.end(), {"-i", target_.key, "-o", "IdentitiesOnly=yes"});
  argv.push_back(target_.user.empty() ? target_.host : target_.user + "@" + target_.host);
  return argv;
}

std::vector<std::string> SshBackend::bash_argv(const std::string& script, bool login) const {
  std::vector<std::string> argv = base_argv();
  // The remote side joins the words and hands them to the user's shell.
  argv.push_back(std::string(login ? "bash -l -c " : "bash -c ") + shell_quote(script));
  return argv;
}

Status SshBackend::start(std::stop_token stop) {
  std::lock_guard lock(mu_);
  if (started_) return {};
  // The master this start leaves behind comes back to the server, which
  // keeps it (keep_control_master).
  proc::become_subreaper();
  ::mkdir(target_.control_dir.c_str(), 0700);
  std::vector<std::string> argv = base_argv();
  argv.push_back("printf '%s' \"$HOME\"");
  auto probe = run_local_command(argv, kConnectLimit, stop);
  if (!probe) return Error::Unavailable("SSH backend: " + probe.error().message);
  if (probe->exit_code != 0) {
    std::string why = last_line(probe->errors);
    if (probe->exit_code < 0)
      why = "no answer within " + std::to_string(kConnectLimit.count()) + "s";
    return Error::Unavailable(
        "SSH backend: cannot connect to " + display() + ": " +
        (why.empty() ? "ssh exited with code " + std::to_string(probe->exit_code) : why));
  }
  keep_control_master();
  home_ = probe->output;
  started_ = true;
  return {};
}

// The control master outlives the ssh client that started it and comes back
// to the server (a child subreaper): the server keeps it rather than ending
// it with a command's leftovers.
void SshBackend::keep_control_master() const {
  auto check =
      run_local_command({"ssh", "-o", "ControlPath=" + control_path_, "-O", "check", target_.host},
                        std::chrono::seconds(5));
  if (!check) return;
  if (pid_t pid = master_pid(check->errors + check->output); pid > 0) proc::keep_adopted(pid);
}

std::optional<std::string> SshBackend::transport_error(const BashOutcome& outcome) const {
  if (outcome.exit_code != 255) return std::nullopt;
  const std::string& text = outcome.stderr_text.empty() ? outcome.output : outcome.stderr_text;
  for (std::string_view sign : kTransportSigns) {
    if (text.find(sign) != std::string::npos) {
      return "SSH backend: connection to " + display() + " failed: " + last_line(text);
    }
  }
  // Through the control master a dropped connection ends the client with
  // 255 and no message at all; a remote `exit 255` leaves the master alive.
  auto check =
      run_local_command({"ssh", "-o", "ControlPath=" + control_path_, "-O", "check", target_.host},
                        std::chrono::seconds(5));
  if (check && check->exit_code == 0) return std::nullopt;
  return "SSH backend: connection to " + display() +
         " failed: the connection was lost during the command";
}

std::string SshBackend::home() const {
  std::lock_guard lock(mu_);
  return home_;
}

std::string SshBackend::default_cwd() const {
  std::string home = this->home();
  if (target_.cwd.empty() || target_.cwd == "~") return home;
  if (target_.cwd.starts_with("~/")) return home + target_.cwd.substr(1);
  return target_.cwd;
}

}  // namespace hermes::backend
