// SPDX-License-Identifier: MIT
// posix_spawnp with two pipes and a poll loop; every fd is O_CLOEXEC and the
// child is always reaped.
#include "tools/write_file/spawn_capture.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "core/strings.h"

extern char** environ;

namespace hermes {
namespace {

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read_end, write_end;
};

Status make_pipe(Pipe& p) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Error::FromErrno(errno, "pipe2");
  p.read_end.reset(fds[0]);
  p.write_end.reset(fds[1]);
  return {};
}

// Feeds `input` and drains output until EOF or the deadline.
bool pump(Fd& in, int out_fd, std::string_view input, std::string& output,
          std::chrono::steady_clock::time_point deadline) {
  ::fcntl(in.get(), F_SETFL, O_NONBLOCK);
  if (input.empty()) in.reset();  // the child sees EOF
  while (true) {
    pollfd fds[2] = {{out_fd, POLLIN, 0}, {in.get(), POLLOUT, 0}};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) return false;
    if (in.get() >= 0 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t n = ::write(in.get(), input.data(), input.size());
      if (n > 0) input.remove_prefix(static_cast<size_t>(n));
      if (n < 0 && errno != EAGAIN) input = {};  // the child stopped reading
      if (input.empty()) in.reset();
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[8192];
      ssize_t n = ::read(out_fd, buf, sizeof buf);
      if (n == 0) return true;
      if (n > 0) output.append(buf, static_cast<size_t>(n));
    }
  }
}

}  // namespace

bool program_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  for (const auto& dir : split(path ? path : "/usr/bin:/bin", ':')) {
    std::string candidate = dir + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

Result<CapturedRun> run_captured(const std::vector<std::string>& argv, std::string_view input,
                                 std::chrono::milliseconds timeout) {
  if (argv.empty() || !program_on_path(argv[0])) return Error::NotFound(argv.empty() ? "" : argv[0]);
  Pipe in, out;
  HERMES_TRY(make_pipe(in));
  HERMES_TRY(make_pipe(out));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.read_end.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out.write_end.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, out.write_end.get(), 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The server ignores SIGPIPE; the linter gets the default back.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return Error::FromErrno(rc, "spawn " + argv[0]);
  in.read_end.reset();
  out.write_end.reset();
  CapturedRun run;
  bool finished = pump(in.write_end, out.read_end.get(), input, run.output,
                       std::chrono::steady_clock::now() + timeout);
  if (!finished) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished) return Error::Timeout(argv[0] + " timed out");
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace hermes
