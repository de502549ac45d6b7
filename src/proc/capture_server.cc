// SPDX-License-Identifier: MIT
#include "proc/capture_server.h"

#include "proc/fd_passing.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace hermes::proc {
namespace {

namespace fs = std::filesystem;

// A handed-over listener a helper's connection has this long to arrive.
constexpr timeval kHandOverLimit{1, 0};

// One listener served, with its own copies of the capture's descriptors.
struct Served {
  UniqueFd listener;
  UniqueFd dir;
  UniqueFd looks;
  std::unique_ptr<capture_internal::Plan> plan;
  std::unique_ptr<capture_internal::Copied> copied;
};

// Whether `fd` is a seccomp filter's listener, not any other descriptor a
// peer may send.
bool is_listener(int fd) {
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  char target[64] = {};
  ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
  return n > 0 && std::string_view(target, static_cast<size_t>(n)) == "anon_inode:seccomp notify";
}

Result<UniqueFd> listen_at(const std::string& path) {
  UniqueFd sock(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!sock.valid()) return Error::FromErrno(errno, "socket");
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) return Error::Unavailable("socket path too long");
  path.copy(addr.sun_path, path.size());
  if (::bind(sock.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(sock.get(), 64) != 0) {
    return Error::FromErrno(errno, "bind " + path);
  }
  // The container's user may be any: the folder, not the socket, is what
  // keeps this host's other users from finding it.
  ::chmod(path.c_str(), 0666);
  return sock;
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
  std::string pattern = temp_dir + "/hermes-capture-XXXXXX";
  if (!::mkdtemp(pattern.data())) return Error::FromErrno(errno, "mkdtemp " + pattern);
  std::error_code ec;
  std::string copy = pattern + "/" + kHelperName;
  fs::copy_file(helper, copy, ec);
  auto listening = listen_at(pattern + "/" + kSocketName);
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC));
  if (ec || !listening || !wake.valid() || ::chmod(copy.c_str(), 0755) != 0 ||
      ::chmod(pattern.c_str(), 0711) != 0) {
    fs::remove_all(pattern, ec);
    if (!listening) return listening.error();
    return Error::Unavailable("cannot prepare " + pattern);
  }
  std::unique_ptr<CaptureServer> server(
      new CaptureServer(std::move(pattern), std::move(*listening), std::move(wake)));
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
  fs::remove_all(folder_, ignored);
}

void CaptureServer::set(std::shared_ptr<const WriteCapture> capture) {
  std::lock_guard lock(mu_);
  capture_ = std::move(capture);
}

bool CaptureServer::capturing() const {
  std::lock_guard lock(mu_);
  return capture_ != nullptr;
}

namespace {

// Takes the listener a helper hands over on a new connection and, when it
// is one, answers with a byte: the helper's command may start, its calls
// are served from now on.
void accept_listener(int socket, const std::shared_ptr<const WriteCapture>& capture,
                     std::vector<Served>& served) {
  UniqueFd peer(::accept4(socket, nullptr, nullptr, SOCK_CLOEXEC));
  if (!peer.valid() || capture == nullptr) return;
  ::setsockopt(peer.get(), SOL_SOCKET, SO_RCVTIMEO, &kHandOverLimit, sizeof kHandOverLimit);
  Served one{.listener = UniqueFd(receive_fd(peer.get()))};
  if (!one.listener.valid() || !is_listener(one.listener.get())) return;
  one.dir = UniqueFd(::fcntl(capture->dir.get(), F_DUPFD_CLOEXEC, 0));
  one.looks = UniqueFd(::fcntl(capture->looks.get(), F_DUPFD_CLOEXEC, 0));
  if (!one.dir.valid() || !one.looks.valid()) return;
  one.plan = std::make_unique<capture_internal::Plan>();
  one.copied = std::make_unique<capture_internal::Copied>();
  capture_internal::make_plan(*capture, one.dir.get(), one.looks.get(), *one.plan);
  one.plan->copied = one.copied.get();
  capture_internal::hurry(one.listener.get());
  char ok = 1;
  if (::send(peer.get(), &ok, 1, MSG_NOSIGNAL) == 1) served.push_back(std::move(one));
}

}  // namespace

void CaptureServer::serve(std::stop_token stop) {
  std::vector<Served> served;
  std::vector<pollfd> polled;
  while (!stop.stop_requested()) {
    polled.assign({{wake_.get(), POLLIN, 0}, {socket_.get(), POLLIN, 0}});
    for (const Served& one : served) polled.push_back({one.listener.get(), POLLIN, 0});
    if (::poll(polled.data(), polled.size(), -1) < 0) continue;  // EINTR
    if (polled[0].revents) return;
    // From the last, so that erasing one leaves the others' places alone.
    for (size_t i = served.size(); i-- > 0;) {
      short events = polled[i + 2].revents;
      if (events == 0) continue;
      bool open = (events & POLLIN) &&
                  capture_internal::serve_one(served[i].listener.get(), *served[i].plan);
      // Every process under that filter is gone.
      if (!open || (events & (POLLHUP | POLLERR | POLLNVAL))) {
        served.erase(served.begin() + static_cast<ptrdiff_t>(i));
      }
    }
    if (polled[1].revents & POLLIN) {
      std::shared_ptr<const WriteCapture> capture;
      {
        std::lock_guard lock(mu_);
        capture = capture_;
      }
      accept_listener(socket_.get(), capture, served);
    }
  }
}

}  // namespace hermes::proc
