// SPDX-License-Identifier: MIT
#include "checkpoint/blob_store.h"

#include "fs/atomic_write.h"
#include "proc/unique_fd.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <vector>

#include "checkpoint/store_files.h"

namespace hermes::checkpoint {

namespace {

// An object file: a header line, then the bytes.
//   `full\n<content>`
//   `delta <base> <depth> <prefix> <suffix>\n<middle>`
// The content of a delta is base[0, prefix) + middle + base[size - suffix, size).
struct Header {
  bool delta = false;
  std::string base;
  int depth = 0;
  size_t prefix = 0;
  size_t suffix = 0;
  size_t body = 0;  // offset of the bytes after the header line
};

template <class T>
bool parse_number(std::string_view text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

Result<Header> parse_header(std::string_view object, const std::string& hash) {
  Error bad = Error::Io("checkpoint object " + hash + " is damaged");
  size_t eol = object.find('\n');
  if (eol == std::string_view::npos) return bad;
  Header header;
  header.body = eol + 1;
  std::string_view line = object.substr(0, eol);
  if (line == "full") return header;
  std::vector<std::string_view> parts;
  for (size_t start = 0; start <= line.size();) {
    size_t space = std::min(line.find(' ', start), line.size());
    parts.push_back(line.substr(start, space - start));
    start = space + 1;
  }
  header.delta = true;
  if (parts.size() != 5 || parts[0] != "delta" || !parse_number(parts[2], header.depth) ||
      !parse_number(parts[3], header.prefix) || !parse_number(parts[4], header.suffix)) {
    return bad;
  }
  header.base = std::string(parts[1]);
  return header;
}

size_t common_prefix(std::string_view a, std::string_view b) {
  auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  return static_cast<size_t>(ia - a.begin());
}

size_t common_suffix(std::string_view a, std::string_view b, size_t limit) {
  size_t n = 0;
  while (n < limit && a[a.size() - 1 - n] == b[b.size() - 1 - n]) ++n;
  return n;
}

// The delta object of `bytes` against `base` (content `old`), or "" when
// the two share too little for a delta to pay.
std::string delta_object(std::string_view bytes, std::string_view old, const std::string& base,
                         int depth) {
  size_t prefix = common_prefix(bytes, old);
  size_t limit = std::min(bytes.size(), old.size()) - prefix;
  size_t suffix = common_suffix(bytes, old, limit);
  if (prefix + suffix < bytes.size() / 2) return "";
  std::string object = "delta " + base + " " + std::to_string(depth) + " " +
                       std::to_string(prefix) + " " + std::to_string(suffix) + "\n";
  object.append(bytes.substr(prefix, bytes.size() - prefix - suffix));
  return object;
}

}  // namespace

std::string BlobStore::path_of(const std::string& hash) const {
  return dir_ + "/objects/" + hash.substr(0, 2) + "/" + hash.substr(2);
}

bool BlobStore::has(const std::string& hash) const {
  struct stat st {};
  return hash.size() > 2 && ::stat(path_of(hash).c_str(), &st) == 0;
}

namespace {

// The header of object `hash`, read alone (a full object may be large).
Result<Header> read_header(const std::string& path, const std::string& hash) {
  proc::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return Error::FromErrno(errno, "open \"" + path + "\"");
  char buf[256];
  ssize_t n = ::pread(fd.get(), buf, sizeof buf, 0);
  if (n < 0) return Error::FromErrno(errno, "read \"" + path + "\"");
  return parse_header(std::string_view(buf, static_cast<size_t>(n)), hash);
}

}  // namespace

std::string BlobStore::base_of(const std::string& hash) const {
  auto header = read_header(path_of(hash), hash);
  return header && header->delta ? header->base : "";
}

int BlobStore::depth_of(const std::string& hash) const {
  auto header = read_header(path_of(hash), hash);
  return header && header->delta ? header->depth : 0;
}

Result<std::string> BlobStore::put(std::string_view bytes, const Base* base) const {
  std::string hash = fs::sha256_hex(bytes);
  if (has(hash)) return hash;
  std::string object;
  if (base != nullptr && base->hash != hash && has(base->hash)) {
    int depth = depth_of(base->hash) + 1;
    if (depth <= kMaxDeltaDepth) object = delta_object(bytes, base->content, base->hash, depth);
  }
  if (object.empty()) object = "full\n" + std::string(bytes);
  HERMES_TRY(create_file(path_of(hash), object));
  return hash;
}

Result<std::string> BlobStore::get(const std::string& hash) const {
  // The chain from `hash` down to its full object, then applied upwards.
  std::vector<std::pair<Header, std::string>> chain;
  std::string next = hash;
  for (;;) {
    HERMES_ASSIGN_OR_RETURN(std::string object, fs::read_whole_file(path_of(next)));
    HERMES_ASSIGN_OR_RETURN(Header header, parse_header(object, next));
    bool delta = header.delta;
    std::string base = header.base;
    chain.emplace_back(std::move(header), std::move(object));
    if (!delta) break;
    if (chain.size() > kMaxDeltaDepth + 1) {
      return Error::Io("checkpoint object " + hash + " has a delta loop");
    }
    next = base;
  }
  std::string content = chain.back().second.substr(chain.back().first.body);
  for (auto it = chain.rbegin() + 1; it != chain.rend(); ++it) {
    const Header& h = it->first;
    if (h.prefix + h.suffix > content.size()) {
      return Error::Io("checkpoint object " + hash + " is damaged");
    }
    std::string_view middle = std::string_view(it->second).substr(h.body);
    std::string built;
    built.reserve(h.prefix + middle.size() + h.suffix);
    built.append(content, 0, h.prefix);
    built.append(middle);
    built.append(content, content.size() - h.suffix, h.suffix);
    content = std::move(built);
  }
  return content;
}

}  // namespace hermes::checkpoint
