// SPDX-License-Identifier: MIT
// posix_spawn + poll runner behind search_process.h. Written here because the
// shared src/proc/ runner did not exist when search_files needed one.
#include "tools/search_files/search_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/strings.h"

extern char** environ;

namespace hermes::search {
namespace {

using Clock = std::chrono::steady_clock;

// Owns one file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// Owns a spawned child: kills its process group and reaps it unless reaped.
class Child {
 public:
  explicit Child(pid_t pid) : pid_(pid) {}
  ~Child() {
    if (pid_ > 0) {
      kill_group();
      wait();
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  void kill_group() const { ::kill(-pid_, SIGKILL); }
  // Blocks until the child exits; returns its exit code (128+signal).
  int wait() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
  }

 private:
  pid_t pid_;
};

// Splits a byte stream into records for the sink, bounding each record.
class RecordSplitter {
 public:
  RecordSplitter(const SpawnSpec& spec, const RecordSink& sink)
      : delimiter_(spec.delimiter), max_(spec.max_record_bytes), sink_(sink) {}

  // Feeds a chunk; false once the sink asked to stop.
  bool feed(std::string_view chunk) {
    while (!chunk.empty()) {
      const void* hit = std::memchr(chunk.data(), delimiter_, chunk.size());
      if (hit == nullptr) {
        append(chunk);
        return true;
      }
      size_t n = static_cast<const char*>(hit) - chunk.data();
      if (!emit(chunk.substr(0, n))) return false;
      chunk.remove_prefix(n + 1);
    }
    return true;
  }
  // Emits an unterminated final record, if any.
  bool finish() { return partial_.empty() || emit({}); }

 private:
  void append(std::string_view piece) {
    if (partial_.size() < max_) partial_.append(piece.substr(0, max_ - partial_.size()));
  }
  bool emit(std::string_view tail) {
    if (partial_.empty()) return sink_(tail.substr(0, max_));
    append(tail);
    bool more = sink_(partial_);
    partial_.clear();
    return more;
  }

  char delimiter_;
  size_t max_;
  const RecordSink& sink_;
  std::string partial_;
};

Result<pid_t> spawn(const SpawnSpec& spec, int out_fd, int err_fd) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  // Our own SIGPIPE disposition (ignored by the server) must not leak into
  // the child: a killed reader has to end it.
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETPGROUP);
  // The child sees its basename as argv[0], so diagnostics read `grep: …`.
  const std::string& program = spec.argv[0];
  std::string name = program.substr(program.find_last_of('/') + 1);
  std::vector<char*> argv = {name.data()};
  for (size_t i = 1; i < spec.argv.size(); ++i) argv.push_back(const_cast<char*>(spec.argv[i].c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, program.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return Error::FromErrno(rc, "spawn \"" + spec.argv[0] + "\"");
  return pid;
}

// Reads what is available on `fd`; false at EOF or a hard error.
bool drain(int fd, std::string& chunk) {
  char buf[65536];
  ssize_t n;
  do {
    n = ::read(fd, buf, sizeof buf);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return n < 0 && errno == EAGAIN;
  chunk.assign(buf, static_cast<size_t>(n));
  return true;
}

}  // namespace

Result<RunOutcome> run_records(const SpawnSpec& spec, const RecordSink& sink) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return Error::FromErrno(errno, "pipe2");
  Fd out_read(out_pipe[0]), out_write(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) return Error::FromErrno(errno, "pipe2");
  Fd err_read(err_pipe[0]), err_write(err_pipe[1]);
  HERMES_ASSIGN_OR_RETURN(pid_t pid, spawn(spec, out_write.get(), err_write.get()));
  Child child(pid);
  out_write.reset();
  err_write.reset();

  RunOutcome outcome;
  RecordSplitter splitter(spec, sink);
  const auto deadline = Clock::now() + spec.timeout;
  pollfd fds[2] = {{out_read.get(), POLLIN, 0}, {err_read.get(), POLLIN, 0}};
  std::string chunk;
  bool done = false;
  while (!done && (fds[0].fd >= 0 || fds[1].fd >= 0)) {
    if (spec.stop.stop_requested()) {
      outcome.end = RunEnd::kCancelled;
      break;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      outcome.end = RunEnd::kTimedOut;
      break;
    }
    int wait_ms = static_cast<int>(std::min<int64_t>(left.count(), 100));
    if (::poll(fds, 2, wait_ms) < 0) {
      if (errno == EINTR) continue;  // revents are undefined after a failed poll
      return Error::FromErrno(errno, "poll");
    }
    for (int i = 0; i < 2 && !done; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      chunk.clear();
      bool open = drain(fds[i].fd, chunk);
      if (!open) fds[i].fd = -1;
      if (i == 1) {
        size_t room = spec.max_stderr_bytes - std::min(spec.max_stderr_bytes, outcome.stderr_text.size());
        outcome.stderr_text.append(chunk.substr(0, room));
      } else if (!(open ? splitter.feed(chunk) : splitter.finish())) {
        outcome.end = RunEnd::kSinkDone;
        done = true;
      }
    }
  }
  if (outcome.end != RunEnd::kExited) child.kill_group();
  outcome.exit_code = child.wait();
  return outcome;
}

std::string find_executable(std::string_view name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  for (const std::string& dir : split(path, ':')) {
    if (dir.empty() || dir[0] != '/') continue;  // relative PATH entries are unsafe
    std::string candidate = dir + "/" + std::string(name);
    struct stat st;
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return {};
}

}  // namespace hermes::search
