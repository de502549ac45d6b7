// SPDX-License-Identifier: MIT
// SshdServer: keys by ssh-keygen, sshd started with posix_spawn, readiness by
// connecting to its port, per-connection children found through /proc.
#include "testutil/sshd_server.h"

#include "proc/child_ledger.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

extern char** environ;

namespace hermes::testing {
namespace {

constexpr const char* kSshd = "/usr/sbin/sshd";
constexpr auto kStartLimit = std::chrono::seconds(10);

// Runs argv with stdin on /dev/null and output to `log`; its exit code.
int run_quiet(const std::vector<std::string>& argv, const std::string& log = "/dev/null") {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Starts argv[0] (an absolute path) with stdout and stderr appended to `log`,
// tied to this thread: the kernel sends it SIGTERM when the thread ends, so
// sshd does not outlive a test process that crashed or was killed.
pid_t spawn_tied(const std::vector<std::string>& argv, const std::string& log) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  pid_t parent = ::getpid();
  // Recorded as this process's own child, so ending adopted processes
  // (proc/child_ledger.h) spares it.
  proc::SpawnRecord record;
  pid_t pid = ::fork();
  if (pid == 0) {  // only async-signal-safe calls until exec
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(null_fd, 0);
    ::dup2(log_fd, 1);
    ::dup2(log_fd, 2);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  record.record(pid);
  ::close(log_fd);
  ::close(null_fd);
  return pid;
}

// A loopback port nothing listens on right now.
int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

bool port_accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

// Parent pid of every process, from /proc/<pid>/stat.
std::multimap<pid_t, pid_t> children_by_parent() {
  std::multimap<pid_t, pid_t> tree;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // read(2), not a stream: a process that exits mid-read fails with ESRCH,
    // which libstdc++'s filebuf turns into an exception.
    int fd = ::open((entry.path() / "stat").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char buf[512];
    ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) continue;
    std::string stat(buf, static_cast<size_t>(n));
    size_t close_paren = stat.rfind(')');
    if (close_paren == std::string::npos) continue;
    // After ") " come the state and the parent pid.
    pid_t parent = 0;
    if (std::sscanf(stat.c_str() + close_paren + 1, " %*c %d", &parent) == 1) {
      tree.emplace(parent, std::stoi(name));
    }
  }
  return tree;
}

}  // namespace

SshdServer::SshdServer() {
  if (::geteuid() != 0) {
    skip_reason_ = "needs root (sshd's privilege separation)";
  } else if (::access(kSshd, X_OK) != 0) {
    skip_reason_ = std::string(kSshd) + " is missing (install openssh-server)";
  } else if (prepare() && launch() && !wait_until_listening()) {
    skip_reason_ = "sshd did not accept connections within 10s: " + log();
  }
}

SshdServer::~SshdServer() {
  if (pid_ <= 0) return;
  kill_connections();
  ::kill(pid_, SIGTERM);
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

bool SshdServer::prepare() {
  ::mkdir("/run/sshd", 0755);  // sshd's privilege-separation directory
  for (const char* key : {"host_key", "client_key", "refused_key"}) {
    if (run_quiet({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", key, "-f",
                   dir_.file(key)}) != 0) {
      skip_reason_ = "ssh-keygen failed (install openssh-client)";
      return false;
    }
  }
  dir_.write("authorized_keys", dir_.read("client_key.pub"));
  dir_.write("known_hosts", "");
  std::filesystem::create_directories(remote_home());
  port_ = free_port();
  dir_.write("sshd_config", "ListenAddress 127.0.0.1:" + std::to_string(port_) + "\n" + "HostKey " +
                                dir_.file("host_key") + "\n" + "AuthorizedKeysFile " +
                                dir_.file("authorized_keys") + "\n" + "PidFile " +
                                dir_.file("sshd.pid") + "\n" +
                                "PermitRootLogin prohibit-password\n"
                                "PasswordAuthentication no\n"
                                "KbdInteractiveAuthentication no\n"
                                "StrictModes no\n"
                                "UsePAM no\n"
                                "MaxSessions 64\n"
                                "MaxStartups 64\n"
                                // The developer's ~/.bashrc must not run (nor slow) every command.
                                "SetEnv HOME=" +
                                remote_home() + "\n");
  return true;
}

bool SshdServer::launch() {
  pid_ = spawn_tied({kSshd, "-D", "-e", "-f", dir_.file("sshd_config")}, dir_.file("sshd.log"));
  if (pid_ > 0) return true;
  skip_reason_ = "cannot fork for sshd";
  return false;
}

bool SshdServer::wait_until_listening() {
  // sshd has no readiness signal; its port accepting is the first sign.
  auto deadline = std::chrono::steady_clock::now() + kStartLimit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (port_accepts(port_)) return true;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) break;  // sshd exited: bad config
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (::waitpid(pid_, nullptr, WNOHANG) == 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
  return false;
}

std::vector<pid_t> SshdServer::descendants() const {
  auto tree = children_by_parent();
  std::vector<pid_t> found;
  std::vector<pid_t> frontier = {pid_};
  while (!frontier.empty()) {
    pid_t parent = frontier.back();
    frontier.pop_back();
    auto [begin, end] = tree.equal_range(parent);
    for (auto it = begin; it != end; ++it) {
      found.push_back(it->second);
      frontier.push_back(it->second);
    }
  }
  return found;
}

int SshdServer::kill_connections() {
  if (pid_ <= 0) return 0;
  std::vector<pid_t> victims = descendants();
  for (pid_t pid : victims) ::kill(pid, SIGKILL);
  return static_cast<int>(victims.size());
}

std::string SshdServer::terminal_yaml(const std::string& key) const {
  std::string yaml = "terminal:\n  backend: ssh\n  ssh_host: 127.0.0.1\n  ssh_user: root\n";
  yaml += "  ssh_port: " + std::to_string(port_) + "\n";
  yaml += "  ssh_key: " + (key.empty() ? client_key() : key) + "\n";
  yaml += "  ssh_options:\n";
  for (const auto& option : ssh_options()) yaml += "    - " + option + "\n";
  return yaml;
}

std::vector<std::string> SshdServer::ssh_options() const {
  return {"UserKnownHostsFile=" + known_hosts()};
}

SshdServer& shared_sshd() {
  static SshdServer server;
  return server;
}

}  // namespace hermes::testing
