// SPDX-License-Identifier: MIT
// write_file's handler: the guard sequence of docs/tools/write_file.md and
// the write itself under the path lock.
#include "tools/write_file/write_file.h"

#include "core/config.h"
#include "core/paths.h"
#include "fs/path_lock.h"
#include "registry/session.h"
#include "tools/file_common/file_access.h"
#include "tools/file_common/read_tracker.h"
#include "tools/file_common/write_safety.h"
#include "tools/write_file/write_guards.h"
#include "tools/write_pipeline/file_writer.h"

#include <string>
#include <unordered_set>

namespace hermes::write_file {
namespace {

// Overwriting a large file that mostly stayed the same earns a nudge
// toward patch.
std::string rewrite_hint(const std::optional<std::string>& old, const std::string& now) {
  if (!old || now.size() < 20000 || now.size() > 400000) return "";
  std::unordered_multiset<std::string_view> before;
  std::string_view rest = *old;
  for (size_t nl; (nl = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(nl + 1)) {
    before.insert(rest.substr(0, nl));
  }
  size_t total = 0, same = 0;
  rest = now;
  for (size_t nl; (nl = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(nl + 1)) {
    ++total;
    auto it = before.find(rest.substr(0, nl));
    if (it != before.end()) {
      ++same;
      before.erase(it);
    }
  }
  if (total == 0 || same * 5 < total * 4) return "";
  return "Only " + std::to_string(total - same) + " of " + std::to_string(total) +
         " lines actually changed. Use patch for targeted edits instead of rewriting the whole "
         "file.";
}

WriteFileStale stale(const ResolvedPath& path, const Error& reason) {
  return WriteFileStale{
      Error{reason.code, "Refusing to overwrite " + path.given + ": " + reason.message +
                             " The file was NOT modified. Reload it with "
                             "read_file (from offset 1, whole file) and retry, "
                             "or use patch for a targeted edit."},
      path.given, path.real};
}

Result<WriteFileOutput> write_locked(const WriteFileParams& params, const ResolvedPath& path,
                                     registry::CallContext& ctx,
                                     const file_common::FileAccess& access) {
  const fs::FileSystem& fs = access.fs();
  auto& tracker = ctx.session.state<file_common::ReadTracker>();
  if (Status fresh = check_not_stale(tracker, path.real, fs); !fresh) {
    return WriteFileOutput{stale(path, fresh.error())};
  }
  HERMES_ASSIGN_OR_RETURN(
      write_pipeline::PreparedWrite prepared,
      write_pipeline::prepare_write(path.real, params.content, ctx.services.config.home(),
                                    write_pipeline::WriteShims{}, std::nullopt, fs));
  HERMES_ASSIGN_OR_RETURN(write_pipeline::CommittedWrite committed,
                          write_pipeline::commit_write(prepared));
  file_common::FileVersion version;
  if (file_common::stat_version(fs, path.real, version)) tracker.record_write(path.real, version);
  WriteFileWritten out;
  out.bytes_written = committed.bytes_written;
  out.dirs_created = path.given.find('/') != std::string::npos;
  out.verified = committed.verified;
  out.lint = write_pipeline::lint_delta(path.real, prepared.bytes, prepared.old_content,
                                        access.files_on_host(), ctx.stop);
  out.resolved_path = path.real;  // through a symlink: its final target
  out.absolute_path = path.absolute;
  out.hint = rewrite_hint(prepared.old_content, prepared.bytes);
  return WriteFileOutput{std::move(out)};
}

}  // namespace

Result<WriteFileOutput> write_file(const WriteFileParams& params, registry::CallContext& ctx) {
  HERMES_ASSIGN_OR_RETURN(file_common::FileAccess access, file_common::FileAccess::for_call(ctx));
  HERMES_ASSIGN_OR_RETURN(ResolvedPath path, access.resolve(params.path));
  HERMES_TRY(file_common::check_write_paths({path}, params.cross_profile, ctx, access.fs()));
  HERMES_TRY(check_file_target(params.path, path.real, access.fs()));
  HERMES_TRY(check_not_display_text(params.content));
  HERMES_ASSIGN_OR_RETURN(auto lock, file_common::take_writer_locks({path.real}, ctx));
  HERMES_ASSIGN_OR_RETURN(WriteFileOutput out, write_locked(params, path, ctx, access));
  if (auto* written = std::get_if<WriteFileWritten>(&out)) {
    written->warning =
        file_common::outside_workspace_warning(path, access.workspace()).value_or("");
  }
  return out;
}

const Error* write_file_failure(const WriteFileOutput& output) {
  const auto* stale_write = std::get_if<WriteFileStale>(&output);
  return stale_write ? &stale_write->error : nullptr;
}

}  // namespace hermes::write_file
