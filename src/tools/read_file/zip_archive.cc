// SPDX-License-Identifier: MIT
// libzip with the zip-bomb limits checked before any member is inflated.
#include "tools/read_file/zip_archive.h"

#include <zip.h>

#include <sys/stat.h>

namespace hermes::read_file {
namespace {
constexpr uint64_t kMaxFile = 50ull << 20;
constexpr uint64_t kMaxMember = 32ull << 20;
constexpr uint64_t kMaxTotal = 100ull << 20;
constexpr int64_t kMaxMembers = 1024;
constexpr uint64_t kMaxRatio = 200;
}  // namespace

void ZipArchive::Closer::operator()(zip* archive) const { zip_discard(archive); }

Result<ZipArchive> ZipArchive::open(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Error::FromErrno(errno, "stat");
  if (static_cast<uint64_t>(st.st_size) > kMaxFile) return Error::TooLarge("file exceeds 50 MiB");
  int err = 0;
  zip* archive = zip_open(path.c_str(), ZIP_RDONLY, &err);
  if (!archive) {
    zip_error_t error;
    zip_error_init_with_code(&error, err);
    std::string message =
        std::string("not a valid zip archive (") + zip_error_strerror(&error) + ")";
    zip_error_fini(&error);
    return Error::InvalidArgument(message);
  }
  ZipArchive out;
  out.archive_.reset(archive);
  if (zip_get_num_entries(archive, 0) > kMaxMembers)
    return Error::TooLarge("more than 1024 members");
  return out;
}

bool ZipArchive::has(const std::string& name) const {
  return zip_name_locate(archive_.get(), name.c_str(), 0) >= 0;
}

Result<std::string> ZipArchive::read(const std::string& name) {
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat(archive_.get(), name.c_str(), 0, &st) != 0)
    return Error::NotFound("missing " + name);
  if (st.size > kMaxMember) return Error::TooLarge(name + " exceeds 32 MiB");
  if (st.comp_size > 0 && st.size / st.comp_size > kMaxRatio)
    return Error::TooLarge(name + " has a compression ratio above 200");
  if (total_read_ + st.size > kMaxTotal)
    return Error::TooLarge("uncompressed total exceeds 100 MiB");
  zip_file_t* file = zip_fopen_index(archive_.get(), st.index, 0);
  if (!file) return Error::InvalidArgument("cannot open " + name);
  std::string data(st.size, '\0');
  zip_int64_t n = zip_fread(file, data.data(), st.size);
  zip_fclose(file);
  if (n < 0 || static_cast<uint64_t>(n) != st.size)
    return Error::InvalidArgument("corrupt member " + name);
  total_read_ += st.size;
  return data;
}

}  // namespace hermes::read_file
