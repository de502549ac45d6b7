// SPDX-License-Identifier: MIT
// The portable file system (docs/ARCHITECTURE.md, Backends): every FileSystem operation as a
// short bash script run on a Backend — `stat -c` for metadata, `head`/`tail
// -c` for bytes, bash globs for listings, base64 on stdin into a temp file
// then `mv -f` for writes. Pagination, encodings and redaction stay in C++
// over the fetched bytes, so results match the native path.
#pragma once

#include "backend/backend.h"
#include "backend/run_bash.h"
#include "fs/file_system.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>

namespace hermes::backend {

class ShellFileSystem final : public fs::FileSystem {
 public:
  // `stop` cancels the commands this instance runs (one tool call's token).
  // An instance serves one call: metadata it has seen (stat, lstat, and the
  // stats real_path fetches along) is reused until it changes a file itself.
  ShellFileSystem(std::shared_ptr<backend::Backend> backend, std::stop_token stop);

  Result<fs::FileInfo> stat(const std::string& path) const override;
  Result<fs::FileInfo> lstat(const std::string& path) const override;
  Result<std::unique_ptr<fs::ReadableFile>> open_read(const std::string& path) const override;
  Result<std::vector<std::string>> list_dir(const std::string& path) const override;
  Result<std::string> read_link(const std::string& path) const override;
  Result<std::string> read_all(const std::string& path) const override;
  Result<fs::AtomicWriteOutcome> write_atomic(const std::string& path, std::string_view bytes,
                                              const fs::AtomicWriteOptions& options) const override;
  Result<bool> holds(const std::string& path, std::string_view bytes) const override;
  Status remove(const std::string& path) const override;
  Status remove_dir(const std::string& path) const override;
  Status set_mode(const std::string& path, unsigned mode) const override;
  Status make_dir(const std::string& path, unsigned mode) const override;
  Status make_symlink(const std::string& target, const std::string& link) const override;
  Result<std::string> real_path(const std::string& absolute_path) const override;
  std::string home() const override { return backend_->home(); }
  Result<fs::Entry> read_entry(const std::string& path, uint64_t max_bytes) const override;

  // Runs `script` on the target. A non-zero exit is an error whose message
  // is `context: <cause>`, the cause (and the error code) taken from the
  // command's stderr as the native system call would report it; a transport
  // failure is the backend's own message.
  Result<std::string> run(const std::string& script, const std::string& context,
                          std::optional<std::string> stdin_data = std::nullopt) const;
  // stat (`follow`) or lstat on the target now, past the memo. A failure
  // reads `<op> "<path>": <cause>`; `op` defaults to the call's own name.
  Result<fs::FileInfo> fetch_stat(const std::string& path, bool follow,
                                  const char* op = nullptr) const;

 private:
  // sha256sum of the file on the target (memoised for what this object wrote).
  Result<std::string> sha256(const std::string& path) const;
  // One run with stderr kept apart; a run cut by the deadline or the stop
  // token is an error, any exit code is returned.
  Result<backend::BashOutcome> exec(const std::string& script,
                                    std::optional<std::string> stdin_data = std::nullopt) const;

  using MemoKey = std::pair<bool, std::string>;  // (follow links, path)
  Result<fs::FileInfo> memo_stat(const std::string& path, bool follow) const;
  // Keeps a success or a not-found; anything else may pass.
  void remember(const MemoKey& key, const Result<fs::FileInfo>& info) const;
  void forget() const;

  std::shared_ptr<backend::Backend> backend_;
  std::stop_token stop_;
  mutable std::mutex memo_mu_;
  mutable std::map<MemoKey, Result<fs::FileInfo>> memo_;  // memo_mu_
  mutable std::map<std::string, std::string> sha_memo_;   // memo_mu_, by path
};

// The `stat -c` format parse_stat_line reads: mode (hex, with the type
// bits), size, device, inode, mtime and ctime with nanoseconds.
inline constexpr const char* kShellStatFormat = "'%f %s %d %i %.9Y %.9Z'";

// The fields of NUL-separated script output, empty ones kept (a final NUL
// ends the last field rather than starting an empty one).
std::vector<std::string> nul_fields(const std::string& text);

// The FileInfo of one `stat -c` line in ShellFileSystem's format.
Result<fs::FileInfo> parse_stat_line(std::string_view line);

// The error for a failed command: `context: <cause>` where the cause is the
// strerror text found at the end of a stderr line (its errno sets the code),
// else the last stderr line as is.
Error command_error(const std::string& context, std::string_view stderr_text);

}  // namespace hermes::backend
