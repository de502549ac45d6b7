// SPDX-License-Identifier: MIT
#include "checkpoint/own_pack.h"

#include "core/strings.h"
#include "fs/atomic_write.h"
#include "proc/unique_fd.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkpoint/blob_store.h"
#include "checkpoint/store_files.h"

namespace hermes::checkpoint {

namespace {

// The base hash of a binary delta object (blob_store.h), or "".
std::string delta_base(std::string_view object) {
  if (!object.starts_with('D') || object.size() < 1 + kHashBytes) return "";
  return hex_encode(object.substr(1, kHashBytes));
}

}  // namespace

bool OwnPack::parse_record(size_t& at) const {
  std::string_view data = data_;
  size_t next = at + 1;
  std::string hash;
  if (data[at] == 'H' && data.size() - next > kHashBytes) {
    hash = hex_encode(data.substr(next, kHashBytes));
    next += kHashBytes;
  } else if (uint64_t of = 0;
             data[at] == 'B' && read_varint(data, next, of) && base_at_.contains(of)) {
    hash = base_at_.at(of);
  } else {
    return false;
  }
  uint64_t size = 0;
  if (!read_varint(data, next, size) || size > data.size() - next) return false;
  records_[hash] = {at, next, size};
  if (std::string base = delta_base(data.substr(next, size)); !base.empty()) {
    base_at_[at] = base;
    based_on_[base] = at;
  }
  at = next + size;
  return true;
}

Status OwnPack::load() const {
  if (loaded_) return loaded_status_;
  loaded_ = true;
  auto data = fs::read_whole_file(path_);
  if (!data && data.error().code != ErrorCode::kNotFound) loaded_status_ = data.error();
  if (!data) return loaded_status_;
  data_ = std::move(*data);
  for (size_t at = 0; at < data_.size() && parse_record(at);) valid_end_ = at;
  return {};
}

std::string OwnPack::record_of(const std::string& hash, std::string_view object,
                               const std::map<std::string, size_t>& based_on) {
  std::string record;
  if (auto earlier = based_on.find(hash); earlier != based_on.end()) {
    record = "B";
    append_varint(record, earlier->second);
  } else {
    record = "H" + *hex_decode(hash);
  }
  append_varint(record, object.size());
  return record.append(object);
}

bool OwnPack::has(const std::string& hash) const { return load() && records_.contains(hash); }

Result<std::string> OwnPack::read(const std::string& hash) const {
  HERMES_TRY(load());
  auto it = records_.find(hash);
  if (it == records_.end()) return Error::NotFound("no object " + hash + " in " + path_);
  return data_.substr(it->second.offset, it->second.size);
}

Status OwnPack::append(const std::string& hash, std::string_view object) const {
  HERMES_TRY(load());
  if (has(hash)) return {};
  if (hash.size() != 2 * kHashBytes || !hex_decode(hash)) {
    return Error::InvalidArgument("not a hash: " + hash);
  }
  std::string record = record_of(hash, object, based_on_);
  proc::UniqueFd fd(::open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
  if (!fd.valid() && errno == ENOENT) {
    HERMES_TRY(make_private_dirs(path_.substr(0, path_.rfind('/'))));
    fd = proc::UniqueFd(::open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
  }
  if (!fd.valid()) return Error::FromErrno(errno, "open \"" + path_ + "\"");
  // Over a record a crash cut short, if any: it is nobody's.
  if (::ftruncate(fd.get(), static_cast<off_t>(valid_end_)) != 0 ||
      ::pwrite(fd.get(), record.data(), record.size(), static_cast<off_t>(valid_end_)) !=
          static_cast<ssize_t>(record.size())) {
    return Error::FromErrno(errno, "append to \"" + path_ + "\"");
  }
  data_.resize(valid_end_);
  data_ += record;
  size_t at = valid_end_;
  if (!parse_record(at))
    return Error::Io("a record appended to \"" + path_ + "\" reads back damaged");
  valid_end_ = at;
  return {};
}

std::vector<std::string> OwnPack::hashes() const {
  (void)load();
  std::vector<std::string> out;
  for (const auto& [hash, record] : records_) out.push_back(hash);
  return out;
}

uint64_t OwnPack::bytes() const {
  struct stat st {};
  return ::stat(path_.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

Status OwnPack::keep_only(const std::set<std::string>& live) const {
  HERMES_TRY(load());
  // In the file's order, so a record naming its hash by offset follows the
  // record it names.
  std::map<size_t, std::string> in_order;
  for (const auto& [hash, record] : records_) {
    if (live.contains(hash)) in_order[record.start] = hash;
  }
  if (in_order.size() == records_.size() && valid_end_ == bytes()) return {};
  std::string kept;
  std::map<std::string, size_t> based_on;
  for (const auto& [start, hash] : in_order) {
    const Record& record = records_.at(hash);
    std::string_view object = std::string_view(data_).substr(record.offset, record.size);
    size_t at = kept.size();
    kept += record_of(hash, object, based_on);
    if (std::string base = delta_base(object); !base.empty()) based_on[base] = at;
  }
  Status written;
  if (!kept.empty()) {
    written = replace_file(path_, kept);
  } else if (::unlink(path_.c_str()) != 0 && errno != ENOENT) {
    written = Error::FromErrno(errno, "remove \"" + path_ + "\"");
  }
  loaded_ = false;
  loaded_status_ = {};
  records_.clear();
  base_at_.clear();
  based_on_.clear();
  data_.clear();
  valid_end_ = 0;
  return written;
}

}  // namespace hermes::checkpoint
