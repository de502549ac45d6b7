// SPDX-License-Identifier: MIT
// prepare_write / commit_write.
#include "tools/write_pipeline/file_writer.h"

#include "tools/file_common/write_safety.h"
#include "tools/write_pipeline/content_gate.h"

namespace hermes::write_pipeline {
namespace {

Result<std::optional<std::string>> current_content(const fs::FileSystem& fs,
                                                   const std::string& path) {
  auto data = fs.read_all(path);
  if (data) return std::optional<std::string>(std::move(data).value());
  if (data.error().code == ErrorCode::kNotFound) return std::optional<std::string>();
  return Error::Io("Failed to read file: " + path + " (" + data.error().message + ")");
}

std::string apply_shims(std::string bytes, const std::optional<std::string>& old,
                        WriteShims shims) {
  if (!old) return bytes;
  if (shims.crlf && head_has_crlf(*old)) bytes = to_crlf(bytes);
  if (shims.bom && old->starts_with(kUtf8Bom) && !bytes.starts_with(kUtf8Bom)) {
    bytes.insert(0, kUtf8Bom);
  }
  return bytes;
}

}  // namespace

Result<PreparedWrite> prepare_write(const std::string& real_path, std::string_view content,
                                    const std::string& hermes_home, WriteShims shims,
                                    std::optional<std::string> old_content,
                                    const fs::FileSystem& fs) {
  HERMES_TRY(file_common::check_write_allowed(real_path, hermes_home, fs));
  if (auto cp = find_lone_surrogate(content)) {
    return Error::InvalidArgument("Refusing to write '" + real_path +
                                  "': content contains a lone surrogate character ('" + *cp +
                                  "') that cannot be encoded as UTF-8. The file was NOT created "
                                  "or modified.");
  }
  std::string bytes = decode_surrogate_escapes(content);
  const std::string ext = file_common::file_extension(real_path);
  if (auto bad = syntax_error(ext, bytes)) {
    return Error::InvalidArgument(
        "Refusing to write '" + real_path + "': candidate content fails " + ext +
        " syntax validation (" + *bad +
        "). The file was NOT created or modified. Fix the content and retry.");
  }
  PreparedWrite out{&fs, real_path, "", std::move(old_content)};
  if (!out.old_content) {
    HERMES_ASSIGN_OR_RETURN(out.old_content, current_content(fs, real_path));
  }
  out.bytes = apply_shims(std::move(bytes), out.old_content, shims);
  return out;
}

Result<CommittedWrite> commit_write(const PreparedWrite& write,
                                    const fs::AtomicWriteOptions& options) {
  auto outcome = write.fs->write_atomic(write.path, write.bytes, options);
  if (!outcome) return Error::Io("Failed to write file: " + outcome.error().message);
  CommittedWrite out{write.bytes.size(), false, std::move(outcome).value()};
  auto holds = write.fs->holds(out.outcome.written_path, write.bytes);
  if (!holds) return out;  // it could not be checked: `verified` stays unset
  if (!*holds) {
    return Error::Io("Post-write verification failed for " + write.path +
                     ": on-disk content hash differs from the intended write. The write did "
                     "not persist correctly — re-read the file and retry.");
  }
  out.verified = true;
  return out;
}

}  // namespace hermes::write_pipeline
