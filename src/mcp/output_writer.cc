// SPDX-License-Identifier: MIT
#include "mcp/output_writer.h"

#include <unistd.h>

#include <cerrno>
#include <string>

namespace hermes::mcp {

bool OutputWriter::write(const Json& message) {
  std::string line = dump_json(message);
  line += '\n';
  std::lock_guard lock(mu_);
  if (closed_) return false;
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      closed_ = true;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace hermes::mcp
