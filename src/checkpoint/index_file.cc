// SPDX-License-Identifier: MIT
#include "checkpoint/index_file.h"

#include "fs/contained_write.h"
#include "proc/unique_fd.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <random>

#include "checkpoint/store_files.h"

namespace hermes::checkpoint {

namespace {

constexpr std::string_view kMagic = "hermes-index\t";

std::string new_generation() {
  std::random_device random;
  std::string out;
  for (int i = 0; i < 4; ++i) {
    char part[9];
    std::snprintf(part, sizeof part, "%08x", random());
    out += part;
  }
  return out;
}

// The generation a file's first line names ("" for none).
std::string header_generation(std::string_view text, size_t& body) {
  size_t eol = text.find('\n');
  body = 0;
  if (!text.starts_with(kMagic) || eol == std::string_view::npos) return "";
  body = eol + 1;
  return std::string(text.substr(kMagic.size(), eol - kMagic.size()));
}

Result<std::string> read_from(int fd, uint64_t offset, uint64_t size) {
  std::string bytes(size - offset, '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n =
        ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error::FromErrno(errno, "read checkpoint index");
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

// The complete lines of `text` (a line still being appended is left).
std::string_view whole_lines(std::string_view text) {
  size_t last = text.rfind('\n');
  return last == std::string_view::npos ? std::string_view() : text.substr(0, last + 1);
}

}  // namespace

Status IndexFile::read(IndexCopy& copy) const {
  proc::UniqueFd fd(::open(path_.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid() && errno == ENOENT) {
    copy = IndexCopy{};
    return {};
  }
  if (!fd.valid()) return Error::FromErrno(errno, "open checkpoint index");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return Error::FromErrno(errno, "stat checkpoint index");
  auto size = static_cast<uint64_t>(st.st_size);
  HERMES_ASSIGN_OR_RETURN(std::string head, read_from(fd.get(), 0, std::min<uint64_t>(size, 128)));
  size_t body = 0;
  std::string generation = header_generation(head, body);
  if (!generation.empty() && generation == copy.generation && size >= copy.read_bytes) {
    HERMES_ASSIGN_OR_RETURN(std::string tail, read_from(fd.get(), copy.read_bytes, size));
    std::string_view lines = whole_lines(tail);
    if (lines.empty()) return {};
    if (parse_index(lines, copy.index)) {  // else read whole: a damaged line
      copy.read_bytes += lines.size();
      return {};
    }
  }
  HERMES_ASSIGN_OR_RETURN(std::string text, read_from(fd.get(), 0, size));
  std::string_view lines = whole_lines(std::string_view(text).substr(body));
  copy = IndexCopy{.generation = generation,
                   .read_bytes = body + lines.size(),
                   .whole_bytes = body + lines.size()};
  if (generation.empty() || !parse_index(lines, copy.index)) copy = IndexCopy{};
  return {};
}

Status IndexFile::rewrite(IndexCopy& copy) const {
  std::string generation = new_generation();
  std::string text = std::string(kMagic) + generation + "\n" + index_text(copy.index);
  HERMES_TRY(replace_file(path_, text));
  copy.generation = generation;
  copy.read_bytes = copy.whole_bytes = text.size();
  return {};
}

Status IndexFile::append(IndexCopy& copy, const std::vector<std::string>& paths) const {
  std::string lines = index_lines(copy.index, paths);
  uint64_t appended = copy.read_bytes - copy.whole_bytes + lines.size();
  if (copy.generation.empty() || appended > copy.whole_bytes / 2 + (1 << 20)) return rewrite(copy);
  HERMES_TRY(append_file(path_, lines));
  copy.read_bytes += lines.size();
  return {};
}

}  // namespace hermes::checkpoint
