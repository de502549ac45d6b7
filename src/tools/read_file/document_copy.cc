// SPDX-License-Identifier: MIT
#include "tools/read_file/document_copy.h"

#include "proc/unique_fd.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace hermes::read_file {
namespace {

constexpr uint64_t kMaxCopy = 64ull << 20;

// A host temp file with the given bytes, unlinked on scope exit.
class HostCopy {
 public:
  Status create(const std::string& bytes) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir && *dir ? dir : "/tmp") + "/hermes-doc-XXXXXX";
    proc::UniqueFd fd(::mkostemp(path_.data(), O_CLOEXEC));
    if (fd.get() < 0) {
      path_.clear();
      return Error::FromErrno(errno, "create temp file");
    }
    for (size_t at = 0; at < bytes.size();) {
      ssize_t n = ::write(fd.get(), bytes.data() + at, bytes.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return Error::FromErrno(n < 0 ? errno : EIO, "write temp file");
      at += static_cast<size_t>(n);
    }
    return {};
  }
  ~HostCopy() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

Result<std::string> extract_document_copy(const fs::FileSystem& fs, const std::string& path,
                                          uint64_t size, DocumentKind kind, std::stop_token stop) {
  if (size > kMaxCopy) return Error::TooLarge("file exceeds 64 MiB");
  HERMES_ASSIGN_OR_RETURN(std::string bytes, fs.read_all(path));
  HostCopy copy;
  HERMES_TRY(copy.create(bytes));
  return extract_document(copy.path(), kind, stop);
}

}  // namespace hermes::read_file
