// SPDX-License-Identifier: MIT
#include "checkpoint/blob_store.h"

#include "core/strings.h"
#include "fs/atomic_write.h"
#include "fs/contained_write.h"
#include "proc/unique_fd.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <mutex>
#include <set>
#include <vector>

#include "checkpoint/store_files.h"

namespace hermes::checkpoint {

namespace {

// An object file: a header, then the bytes.
//   `full\n<content>`
//   `<hash>.raw`: the content alone, a clone (read as a full object)
//   `D<base><depth><prefix><suffix><middle>`: the base's SHA-256 as its 32
//     bytes, then three LEB128 numbers (a header of about 40 bytes: a
//     one-line edit's delta is mostly the line)
//   `delta <base> <depth> <prefix> <suffix>\n<middle>`: the same in text,
//     as stores written before the binary form hold it (read only)
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

template <class T>
bool read_number(std::string_view object, size_t& at, T& out) {
  uint64_t value = 0;
  if (!read_varint(object, at, value)) return false;
  out = static_cast<T>(value);
  return static_cast<uint64_t>(out) == value;
}

Result<Header> parse_binary_header(std::string_view object, const std::string& hash) {
  Error bad = Error::Io("checkpoint object " + hash + " is damaged");
  if (object.size() < 1 + kHashBytes) return bad;
  Header header{.delta = true, .base = hex_encode(object.substr(1, kHashBytes))};
  size_t at = 1 + kHashBytes;
  if (!read_number(object, at, header.depth) || !read_number(object, at, header.prefix) ||
      !read_number(object, at, header.suffix)) {
    return bad;
  }
  header.body = at;
  return header;
}

Result<Header> parse_header(std::string_view object, const std::string& hash) {
  if (object.starts_with('D')) return parse_binary_header(object, hash);
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

}  // namespace

std::string delta_object(std::string_view bytes, const BlobStore::Base& base, int depth) {
  std::string_view old = base.content;
  size_t prefix = common_prefix(bytes, old);
  size_t limit = std::min(bytes.size(), old.size()) - prefix;
  size_t suffix = common_suffix(bytes, old, limit);
  std::optional<std::string> base_bytes = hex_decode(base.hash);
  if (prefix + suffix < bytes.size() / 2 || !base_bytes || base_bytes->size() != kHashBytes) {
    return "";
  }
  std::string object = "D" + *base_bytes;
  append_varint(object, static_cast<uint64_t>(depth));
  append_varint(object, prefix);
  append_varint(object, suffix);
  object.append(bytes.substr(prefix, bytes.size() - prefix - suffix));
  return object;
}

std::string full_object(std::string_view bytes) { return "full\n" + std::string(bytes); }

void append_varint(std::string& out, uint64_t value) {
  do {
    auto low = static_cast<unsigned char>(value & 0x7f);
    value >>= 7;
    out += static_cast<char>(value != 0 ? low | 0x80 : low);
  } while (value != 0);
}

bool read_varint(std::string_view bytes, size_t& at, uint64_t& out) {
  uint64_t value = 0;
  for (int shift = 0; shift < 64 && at < bytes.size(); shift += 7) {
    auto byte = static_cast<unsigned char>(bytes[at++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      out = value;
      return true;
    }
  }
  return false;
}

std::string base_in_object(std::string_view object, const std::string& hash) {
  auto header = parse_header(object, hash);
  return header && header->delta ? header->base : "";
}

std::string BlobStore::path_of(const std::string& hash) const {
  return dir_ + "/objects/" + hash.substr(0, 2) + "/" + hash.substr(2);
}

bool BlobStore::has(const std::string& hash) const {
  struct stat st {};
  return hash.size() > 2 &&
         (::stat(path_of(hash).c_str(), &st) == 0 || ::stat(raw_path_of(hash).c_str(), &st) == 0);
}

Result<std::string> BlobStore::read_object(const std::string& hash) const {
  auto object = fs::read_whole_file(path_of(hash));
  if (object || object.error().code != ErrorCode::kNotFound) return object;
  auto raw = fs::read_whole_file(raw_path_of(hash));
  if (!raw) return raw.error().code == ErrorCode::kNotFound ? object.error() : raw.error();
  return full_object(*raw);
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

std::string base_in_file(const std::string& path, const std::string& hash) {
  auto header = read_header(path, hash);
  return header && header->delta ? header->base : "";
}

std::string BlobStore::base_of(const std::string& hash) const {
  return base_in_file(path_of(hash), hash);
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
    if (depth <= kMaxDeltaDepth) object = delta_object(bytes, *base, depth);
  }
  if (object.empty()) object = full_object(bytes);
  HERMES_TRY(create_file(path_of(hash), object));
  return hash;
}

Result<std::string> BlobStore::get(const std::string& hash) const {
  return assemble(hash, [this](const std::string& h) { return read_object(h); });
}

namespace {

// The (source device, store) pairs a clone failed for: never tried again,
// so a file system without reflinks costs one attempt, not one a file.
// Never destroyed: a call may run while the process exits.
struct CloneRefusals {
  std::mutex mu;
  std::set<std::pair<dev_t, std::string>> refused;
};
CloneRefusals& clone_refusals() {
  static auto* refusals = new CloneRefusals;
  return *refusals;
}

}  // namespace

std::optional<BlobStore::Cloned> BlobStore::put_clone(int fd, uint64_t max_bytes) const {
  struct stat src {};
  if (::fstat(fd, &src) != 0 || !S_ISREG(src.st_mode) ||
      static_cast<uint64_t>(src.st_size) < kCloneMinBytes ||
      static_cast<uint64_t>(src.st_size) > max_bytes) {
    return std::nullopt;
  }
  std::pair<dev_t, std::string> pair{src.st_dev, dir_};
  CloneRefusals& refusals = clone_refusals();
  {
    std::lock_guard lock(refusals.mu);
    if (refusals.refused.contains(pair)) return std::nullopt;
  }
  auto clone = open_unnamed(dir_ + "/objects", O_RDWR);
  if (!clone) return std::nullopt;
  if (::ioctl(clone->get(), FICLONE, fd) != 0) {
    // Refusals of the file systems, not of this one file: EINVAL may be one
    // file's flags (btrfs nodatacow, DAX), ETXTBSY or EPERM one file's use;
    // those are tried again with the next file.
    if (errno == EOPNOTSUPP || errno == EXDEV || errno == ENOTTY || errno == ENOSYS) {
      std::lock_guard lock(refusals.mu);
      refusals.refused.insert(pair);
    }
    return std::nullopt;
  }
  // The clone's bytes are the file's at one moment; hashing them (not the
  // file) keeps the name true however the file changes meanwhile.
  auto bytes = fs::read_whole_fd(clone->get(), dir_ + "/objects", max_bytes);
  if (!bytes) return std::nullopt;
  Cloned out{.hash = fs::sha256_hex(*bytes), .size = bytes->size()};
  if (!has(out.hash) && !link_unnamed(clone->get(), raw_path_of(out.hash))) return std::nullopt;
  return out;
}

Result<std::string> assemble(const std::string& hash, const ObjectReader& read) {
  // The chain from `hash` down to its full object, then applied upwards. A
  // workspace's own chain (reverse deltas down to a held file) may rest on
  // one of the store's, so the guard allows two chains' length.
  constexpr size_t kMaxChain = 2 * kMaxDeltaDepth + 2;
  std::vector<std::pair<Header, std::string>> chain;
  std::set<std::string> seen;
  std::string next = hash;
  for (;;) {
    // A damaged store could name an object again: stop at once, before
    // the chain holds thousands of copies of it.
    if (!seen.insert(next).second) {
      return Error::Io("checkpoint object " + hash + " has a delta loop");
    }
    HERMES_ASSIGN_OR_RETURN(std::string object, read(next));
    HERMES_ASSIGN_OR_RETURN(Header header, parse_header(object, next));
    bool delta = header.delta;
    std::string base = header.base;
    chain.emplace_back(std::move(header), std::move(object));
    if (!delta) break;
    if (chain.size() > kMaxChain) {
      return Error::Io("checkpoint object " + hash + " has a delta loop");
    }
    next = base;
  }
  std::string content = chain.back().second.substr(chain.back().first.body);
  for (auto it = chain.rbegin() + 1; it != chain.rend(); ++it) {
    const Header& h = it->first;
    if (h.prefix > content.size() || h.suffix > content.size() - h.prefix) {
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
