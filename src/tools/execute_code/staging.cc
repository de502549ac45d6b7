// SPDX-License-Identifier: MIT
#include "tools/execute_code/staging.h"

#include "proc/child_env.h"
#include "rpc/rpc_server.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>

namespace hermes::execute_code {
namespace {

// Room for "/hermes_rpc_<32 hex>.sock" inside sockaddr_un's 108 bytes.
constexpr size_t kMaxStagingPath = 50;

}  // namespace

Result<StagingDir> StagingDir::create() {
  std::error_code ec;
  std::string base = std::filesystem::temp_directory_path(ec).string();
  if (ec || base.size() > kMaxStagingPath) base = "/tmp";
  std::string path = base + "/hermes_sandbox_XXXXXX";
  if (!::mkdtemp(path.data())) return Error::FromErrno(errno, "mkdtemp \"" + path + "\"");
  return StagingDir(std::move(path));
}

StagingDir::~StagingDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

Status write_private_file(const std::string& path, const std::string& content) {
  proc::UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (!fd.valid()) return Error::FromErrno(errno, "open \"" + path + "\"");
  for (size_t done = 0; done < content.size();) {
    ssize_t n = ::write(fd.get(), content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error::FromErrno(errno, "write \"" + path + "\"");
    done += static_cast<size_t>(n);
  }
  return {};
}

Result<OutputPipe> make_output_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Error::FromErrno(errno, "pipe");
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  return OutputPipe{proc::UniqueFd(fds[0]), proc::UniqueFd(fds[1])};
}

bool drain(int fd, proc::OutputCapture& capture, registry::CallStatus* status) {
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      capture.append(std::string_view(buf, static_cast<size_t>(n)));
      if (status) status->add_output(std::string_view(buf, static_cast<size_t>(n)));
      continue;
    }
    return n < 0 && (errno == EAGAIN || errno == EINTR);
  }
}

std::vector<std::string> python_env(std::vector<std::string> env, const std::string& staging,
                                    const rpc::RpcServer& server) {
  proc::set_env(env, "HERMES_RPC_SOCKET", server.socket_path());
  proc::set_env(env, "HERMES_RPC_TOKEN", server.token());
  proc::set_env(env, "PYTHONDONTWRITEBYTECODE", "1");
  proc::set_env(env, "PYTHONIOENCODING", "utf-8");
  proc::set_env(env, "PYTHONUTF8", "1");
  std::string inherited = proc::get_env(env, "PYTHONPATH");
  proc::set_env(env, "PYTHONPATH", inherited.empty() ? staging : staging + ":" + inherited);
  return env;
}

}  // namespace hermes::execute_code
