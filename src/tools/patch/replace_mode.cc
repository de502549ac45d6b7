// SPDX-License-Identifier: MIT
#include "tools/patch/replace_mode.h"

#include "core/log.h"
#include "fs/atomic_write.h"
#include "tools/file_common/write_safety.h"
#include "tools/patch/match/replace.h"
#include "tools/patch/unified_diff.h"
#include "tools/write_pipeline/content_gate.h"
#include "tools/write_pipeline/file_writer.h"

namespace hermes::patch {
namespace {

std::string already_applied_note(const std::string& path) {
  return "File already contains the target text — the edit appears to be already applied to " +
         path + ". No write performed; do not re-send this patch.";
}

PatchSuccess no_change(const std::string& path) {
  PatchSuccess out;
  out.no_change = true;
  out.note = already_applied_note(path);
  out.files_modified = {path};
  return out;
}

// Not found: the caller can re-read; every other refusal asks for other input.
Error replace_error(const match::ReplaceError& error) {
  return Error{error.kind == match::ReplaceFailure::kNotFound ? ErrorCode::kNotFound
                                                              : ErrorCode::kInvalidArgument,
               error.message};
}

Error write_failed(const Error& cause) {
  return Error{cause.code, "Failed to write changes: " + cause.message};
}

}  // namespace

Result<PatchSuccess> run_replace(const ResolvedPath& path, const ReplaceArgs& args,
                                 const std::string& hermes_home,
                                 const file_common::FileAccess& access) {
  HERMES_TRY(file_common::check_write_allowed(path.real, hermes_home, access.fs()));
  auto raw = access.fs().read_all(path.real);
  if (!raw) {
    return Error{raw.error().code,
                 "Failed to read file: " + path.absolute + " (" + raw.error().message + ")"};
  }
  const bool bom = std::string_view(*raw).starts_with(write_pipeline::kUtf8Bom);
  std::string_view content =
      std::string_view(*raw).substr(bom ? write_pipeline::kUtf8Bom.size() : 0);
  if (auto bad = match::check_replace_input(args.old_text, args.new_text)) {
    if (args.old_text == args.new_text &&
        match::is_already_applied(content, args.old_text, args.new_text)) {
      return no_change(path.absolute);
    }
    return replace_error(*bad);
  }
  auto replaced =
      match::fuzzy_replace({content, args.old_text, args.new_text, args.replace_all, {}});
  if (auto* error = std::get_if<match::ReplaceError>(&replaced)) {
    if (match::is_already_applied(content, args.old_text, args.new_text))
      return no_change(path.absolute);
    return replace_error(*error);
  }
  auto& done = std::get<match::ReplaceOutcome>(replaced);
  std::string bytes = bom ? std::string(write_pipeline::kUtf8Bom) + done.content : done.content;
  auto prepared = write_pipeline::prepare_write(
      path.real, bytes, hermes_home, write_pipeline::WriteShims{.crlf = false, .bom = true}, *raw,
      access.fs());
  if (!prepared) return write_failed(prepared.error());
  auto committed = write_pipeline::commit_write(*prepared);
  if (!committed) return write_failed(committed.error());
  PatchSuccess out;
  out.diff =
      unified_diff(content, done.content, diff_label("a", path.given), diff_label("b", path.given));
  out.files_modified = {path.absolute};
  out.lint.emplace_back(path.absolute,
                        write_pipeline::lint_delta(path.real, prepared->bytes, *raw,
                                                   access.files_on_host(), access.stop()));
  if (done.strategy != match::Strategy::kExact) out.strategy = done.strategy;
  // Which tier fired, so each tier's worth shows in the logs.
  log::debug("patch " + path.absolute + ": " + std::string(match::strategy_name(done.strategy)) +
             ", " + std::to_string(done.count) + " replaced");
  return out;
}

}  // namespace hermes::patch
