// SPDX-License-Identifier: MIT
// Each listener handed over is served by a forked copy of this server, as a
// tree's supervisor serves its own (serve_one is written for a fork: no
// allocation): a listener is the container's to misuse (handed over twice,
// or read by its sender too, a receive blocks for good), and then only
// that container's own commands wait.
#include "proc/capture_server.h"

#include "proc/child_ledger.h"
#include "proc/fd_passing.h"
#include "proc/unix_socket.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <vector>

namespace hermes::proc {

// A forked copy of this server serving one listener.
struct ServingChild {
  pid_t pid;
  UniqueFd exited;  // a pidfd, readable once the child has exited
};

namespace {

namespace fs = std::filesystem;

// A helper's connection has this long to hand its listener over.
constexpr timeval kHandOverLimit{0, 500'000};
// Listeners served at once: the container's own process limit
// (`--pids-limit`); a handover beyond it is refused.
constexpr size_t kMostServed = 256;
// How long accepting pauses when this process is out of descriptors.
constexpr int kBackOffMs = 100;
// Where a serving child keeps its descriptors.
constexpr int kListenerFd = 3, kDirFd = 4, kLooksFd = 5;

// A serving child's record of what it copied: written only after the fork.
capture_internal::Copied g_copied;

// Whether `fd` is a seccomp filter's listener, not any other descriptor a
// peer may send.
bool is_listener(int fd) {
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  char target[64] = {};
  ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
  return n > 0 && std::string_view(target, static_cast<size_t>(n)) == "anon_inode:seccomp notify";
}

// In the forked child: `listener`, `dir` and `looks` at their fixed
// numbers, nothing else open, then served until every process under the
// filter is gone (or this server is: PR_SET_PDEATHSIG).
[[noreturn]] void serve_listener(int listener, int dir, int looks,
                                 const capture_internal::Plan& plan) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  int moved[] = {::fcntl(listener, F_DUPFD, 10), ::fcntl(dir, F_DUPFD, 10),
                 ::fcntl(looks, F_DUPFD, 10)};
  for (int i = 0; i < 3; ++i) ::dup2(moved[i], kListenerFd + i);
  ::close_range(kLooksFd + 1, ~0U, 0);
  int null_fd = ::open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3; ++fd) ::dup2(null_fd, fd);
  if (null_fd > 2) ::close(null_fd);
  for (;;) {
    pollfd polled{kListenerFd, POLLIN, 0};
    if (::poll(&polled, 1, -1) < 0) {
      if (errno == EINTR) continue;
      ::_exit(1);
    }
    bool open = (polled.revents & POLLIN) && capture_internal::serve_one(kListenerFd, plan);
    if (!open || (polled.revents & (POLLHUP | POLLERR | POLLNVAL))) ::_exit(0);
  }
}

// A forked child serving `listener` for `capture`, or nullopt.
std::optional<ServingChild> start_serving(int listener, const WriteCapture& capture) {
  capture_internal::Plan plan;
  capture_internal::make_plan(capture, kDirFd, kLooksFd, plan);
  plan.copied = &g_copied;
  SpawnRecord record;
  pid_t pid = ::fork();
  if (pid == 0) serve_listener(listener, capture.dir.get(), capture.looks.get(), plan);
  if (pid < 0) return std::nullopt;
  record.record(pid);
  ServingChild served{pid, UniqueFd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)))};
  if (!served.exited.valid()) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    forget_child(pid);
    return std::nullopt;
  }
  return served;
}

void end_served(ServingChild& served) {
  ::kill(served.pid, SIGKILL);
  ::waitpid(served.pid, nullptr, 0);
  forget_child(served.pid);
}

}  // namespace

std::string capture_exec_program() {
  std::error_code ec;
  fs::path beside = fs::read_symlink("/proc/self/exe", ec).parent_path() / "hermes-capture-exec";
  if (!ec && ::access(beside.c_str(), X_OK) == 0) return beside;
  const char* built = HERMES_CAPTURE_EXEC_BUILT;
  return ::access(built, X_OK) == 0 ? built : "";
}

Result<std::unique_ptr<CaptureServer>> CaptureServer::start(const std::string& temp_dir) {
  std::string helper = capture_exec_program();
  if (helper.empty()) return Error::Unavailable("hermes-capture-exec is not built");
  if (!write_capture_available(true)) return Error::Unavailable("no write capture here");
  std::string parent = temp_dir + "/hermes-capture-XXXXXX";
  if (!::mkdtemp(parent.data())) return Error::FromErrno(errno, "mkdtemp " + parent);
  std::string folder = parent + "/bound";
  std::string copy = folder + "/" + kHelperName;
  std::error_code ec;
  bool made = ::mkdir(folder.c_str(), 0711) == 0 && ::chmod(folder.c_str(), 0711) == 0 &&
              fs::copy_file(helper, copy, ec) && ::chmod(copy.c_str(), 0755) == 0;
  // The container's processes may run as any user; this host's other
  // users cannot reach the socket (the folder's parent is 0700).
  auto listening = made ? listen_unix(folder + "/" + kSocketName, 0666, 64)
                        : Result<UniqueFd>(Error::Unavailable("cannot prepare " + folder));
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC));
  if (!listening || !wake.valid()) {
    fs::remove_all(parent, ec);
    if (!listening) return listening.error();
    return Error::FromErrno(errno, "eventfd");
  }
  std::unique_ptr<CaptureServer> server(
      new CaptureServer(std::move(folder), std::move(*listening), std::move(wake)));
  server->thread_ = std::jthread([s = server.get()](std::stop_token stop) { s->serve(stop); });
  return server;
}

CaptureServer::CaptureServer(std::string folder, UniqueFd socket, UniqueFd wake)
    : folder_(std::move(folder)), socket_(std::move(socket)), wake_(std::move(wake)) {}

CaptureServer::~CaptureServer() {
  uint64_t one = 1;
  [[maybe_unused]] ssize_t w = ::write(wake_.get(), &one, sizeof one);
  thread_ = {};  // joins
  std::error_code ignored;
  fs::remove_all(fs::path(folder_).parent_path(), ignored);
}

void CaptureServer::set(std::shared_ptr<const WriteCapture> capture) {
  std::lock_guard lock(mu_);
  capture_ = std::move(capture);
}

bool CaptureServer::capturing() const {
  std::lock_guard lock(mu_);
  return capture_ != nullptr;
}

std::shared_ptr<const WriteCapture> CaptureServer::capture() const {
  std::lock_guard lock(mu_);
  return capture_;
}

// Takes the listener a helper hands over on a new connection and, once a
// child serves it, answers with a byte: the helper's command may start.
// False when this process is out of descriptors.
bool CaptureServer::accept_listener(std::vector<ServingChild>& served) {
  UniqueFd peer(::accept4(socket_.get(), nullptr, nullptr, SOCK_CLOEXEC));
  if (!peer.valid()) return errno != EMFILE && errno != ENFILE;
  std::shared_ptr<const WriteCapture> capture = this->capture();
  if (capture == nullptr || served.size() >= kMostServed) return true;
  ::setsockopt(peer.get(), SOL_SOCKET, SO_RCVTIMEO, &kHandOverLimit, sizeof kHandOverLimit);
  UniqueFd listener(receive_fd(peer.get()));
  if (!listener.valid() || !is_listener(listener.get())) return true;
  std::optional<ServingChild> serving = start_serving(listener.get(), *capture);
  if (!serving) return true;
  char ok = 1;
  if (::send(peer.get(), &ok, 1, MSG_NOSIGNAL) != 1)
    end_served(*serving);
  else
    served.push_back(std::move(*serving));
  return true;
}

void CaptureServer::serve(std::stop_token stop) {
  std::vector<ServingChild> served;
  std::vector<pollfd> polled;
  auto paused_until = std::chrono::steady_clock::time_point::min();
  while (!stop.stop_requested()) {
    bool paused = std::chrono::steady_clock::now() < paused_until;
    polled.assign({{wake_.get(), POLLIN, 0}, {paused ? -1 : socket_.get(), POLLIN, 0}});
    for (const ServingChild& one : served) polled.push_back({one.exited.get(), POLLIN, 0});
    if (::poll(polled.data(), polled.size(), paused ? kBackOffMs : -1) < 0) {
      if (errno != EINTR) ::usleep(kBackOffMs * 1000);
      continue;
    }
    if (polled[0].revents) break;
    // From the last, so that erasing one leaves the others' places alone.
    for (size_t i = served.size(); i-- > 0;) {
      if (polled[i + 2].revents == 0) continue;
      end_served(served[i]);  // it has exited: this reaps it
      served.erase(served.begin() + static_cast<ptrdiff_t>(i));
    }
    bool accepted = true;
    try {
      accepted = !(polled[1].revents & POLLIN) || accept_listener(served);
    } catch (const std::exception&) {
      // Out of memory for one handover: that helper gets no answer, and
      // its command does not run; the server goes on.
    }
    if (!accepted) {
      paused_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBackOffMs);
    }
  }
  for (ServingChild& one : served) end_served(one);
}

}  // namespace hermes::proc
