// SPDX-License-Identifier: MIT
// What every local execute_code run stands on, per-call script or kernel: a
// private staging directory for the generated files and the RPC socket,
// output pipes read without blocking, and the interpreter's environment.
#pragma once

#include "core/result.h"
#include "proc/output_capture.h"
#include "proc/unique_fd.h"
#include "registry/call_status.h"

#include <string>
#include <vector>

namespace hermes::rpc {
class RpcServer;
}  // namespace hermes::rpc

namespace hermes::execute_code {

// A private (0700) temporary directory, removed with its contents.
class StagingDir {
 public:
  static Result<StagingDir> create();
  StagingDir(StagingDir&& other) noexcept : path_(std::exchange(other.path_, "")) {}
  StagingDir& operator=(StagingDir&&) = delete;
  ~StagingDir();
  const std::string& path() const { return path_; }

 private:
  explicit StagingDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// Creates `path` (0600, which must not exist) holding `content`.
Status write_private_file(const std::string& path, const std::string& content);

// A pipe whose read end is ours (non-blocking) and write end the child's.
struct OutputPipe {
  proc::UniqueFd read;
  proc::UniqueFd write;
};
Result<OutputPipe> make_output_pipe();

// Reads what `fd` has into `capture` (and `status`, when given); false at
// EOF or on a hard error.
bool drain(int fd, proc::OutputCapture& capture, registry::CallStatus* status = nullptr);

// `env` plus the RPC socket and token, Python's I/O settings and the staging
// directory first on PYTHONPATH (where hermes_tools.py is).
std::vector<std::string> python_env(std::vector<std::string> env, const std::string& staging,
                                    const rpc::RpcServer& server);

}  // namespace hermes::execute_code
