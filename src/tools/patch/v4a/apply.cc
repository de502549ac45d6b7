// SPDX-License-Identifier: MIT
// Dry run over an Overlay, validation of every final file, then a journaled
// commit that rolls back on the first failure.
#include "tools/patch/v4a/apply.h"

#include "tools/file_common/write_safety.h"
#include "tools/patch/match/text_lines.h"
#include "tools/patch/unified_diff.h"
#include "tools/patch/v4a/hunks.h"
#include "tools/patch/v4a/overlay.h"
#include "tools/write_pipeline/content_gate.h"
#include "tools/write_pipeline/file_writer.h"

#include <algorithm>
#include <map>

namespace hermes::v4a {
namespace {

std::string add_diff(const std::string& path, const std::string& content) {
  std::string out = "--- /dev/null\n+++ " + patch::diff_label("b", path) + "\n";
  for (auto line : match::line_views(content)) out += "+" + std::string(line) + "\n";
  return out;
}

std::string delete_diff(const std::string& path, const std::string& content) {
  if (content.empty()) return "# Deleted: " + path;
  return patch::unified_diff(content, "", patch::diff_label("a", path), "/dev/null");
}

class DryRun {
 public:
  explicit DryRun(const fs::FileSystem& fs) : overlay(fs) {}
  Overlay overlay;
  std::vector<std::string> problems, diffs, modified, moved, created, deleted;

  void run(const FileOp& op) {
    switch (op.kind) {
      case OpKind::kAdd:
        return add(op);
      case OpKind::kDelete:
        return remove(op);
      case OpKind::kMove:
        return move(op.path, op.move_to);
      case OpKind::kUpdate:
        return update(op);
    }
  }

 private:
  void add(const FileOp& op) {
    modified.push_back(op.path);
    if (overlay.get(op.path).exists) {
      problems.push_back(op.path + ": file already exists — use Update File, not Add File");
      return;
    }
    std::string content;
    for (const auto& line : op.add_lines) content += line + "\n";
    overlay.put(op.path, content);
    diffs.push_back(add_diff(op.path, content));
    created.push_back(op.path);
  }

  void remove(const FileOp& op) {
    modified.push_back(op.path);
    const FileState& s = overlay.get(op.path);
    if (!s.exists) return problems.push_back(op.path + ": file not found for deletion");
    if (!s.unreadable.empty()) return problems.push_back(op.path + ": " + s.unreadable);
    if (!s.regular)
      return problems.push_back(op.path + ": not a regular file — Delete File removes files only");
    diffs.push_back(delete_diff(op.path, s.content));
    overlay.remove(op.path);
    deleted.push_back(op.path);
  }

  void move(const std::string& src, const std::string& dst) {
    moved.push_back(src);
    moved.push_back(dst);
    const FileState& s = overlay.get(src);
    if (!s.unreadable.empty()) return problems.push_back(src + ": " + s.unreadable);
    if (!s.exists || !s.regular)
      return problems.push_back(src + ": source file not found for move");
    if (overlay.get(dst).exists)
      return problems.push_back(dst + ": destination already exists — move would overwrite");
    std::string content = s.content;
    unsigned mode = s.mode;
    overlay.remove(src);
    overlay.put(dst, std::move(content), mode);
    diffs.push_back("# Moved: " + src + " -> " + dst);
    created.push_back(dst);
    deleted.push_back(src);
  }

  void update(const FileOp& op) {
    modified.push_back(op.path);
    const FileState& s = overlay.get(op.path);
    if (!s.exists)
      return problems.push_back(
          op.path +
          ": file not found (Update File needs an existing file; use Add File to create one)");
    if (!s.unreadable.empty()) return problems.push_back(op.path + ": " + s.unreadable);
    if (!s.regular) return problems.push_back(op.path + ": not a regular file");
    std::string_view raw = s.content;
    bool bom = raw.starts_with(write_pipeline::kUtf8Bom);
    std::string body(raw.substr(bom ? write_pipeline::kUtf8Bom.size() : 0));
    auto result = apply_hunks(body, op.hunks);
    if (auto* error = std::get_if<std::string>(&result))
      return problems.push_back(op.path + ": " + *error);
    const HunkOutcome& done = std::get<HunkOutcome>(result);
    if (done.changed) {
      diffs.push_back(patch::unified_diff(body, done.content, patch::diff_label("a", op.path),
                                          patch::diff_label("b", op.path)));
      overlay.put(op.path, (bom ? std::string(write_pipeline::kUtf8Bom) : "") + done.content);
    }
    if (!op.move_to.empty()) move(op.path, op.move_to);
  }
};

// The cause of a file-system error, without its operation prefix.
std::string cause_of(const Error& error) {
  size_t colon = error.message.rfind(": ");
  return colon == std::string::npos ? error.message : error.message.substr(colon + 2);
}

// One step of the commit, with what is needed to undo it.
struct JournalEntry {
  std::string path;
  FileState before;
  std::vector<std::string> created_dirs;
};

class Committer {
 public:
  Committer(Overlay& overlay, const ApplyRequest& request) : overlay_(overlay), request_(request) {}

  // Validates every final file (denylist, surrogates, syntax gate).
  std::vector<std::string> prepare() {
    std::vector<std::string> problems;
    for (const auto& path : overlay_.changed()) {
      const FileState& now = overlay_.get(path);
      if (!now.exists) {
        if (Status allowed =
                file_common::check_write_allowed(path, request_.hermes_home, *request_.fs);
            !allowed) {
          problems.push_back(path + ": " + allowed.error().message);
        }
        continue;
      }
      const FileState& before = overlay_.original(path);
      auto prepared = write_pipeline::prepare_write(
          path, now.content, request_.hermes_home, write_pipeline::WriteShims{false, false},
          before.exists ? std::optional<std::string>(before.content) : std::nullopt, *request_.fs);
      if (!prepared)
        problems.push_back(path + ": " + prepared.error().message);
      else
        prepared_.emplace(path, std::move(prepared).value());
    }
    return problems;
  }

  // Writes everything; on a failure restores what was done and says so.
  std::optional<std::string> commit(
      std::vector<std::pair<std::string, write_pipeline::LintReport>>& lint) {
    for (const auto& path : overlay_.changed()) {
      JournalEntry entry{path, overlay_.original(path), {}};
      auto failure = step(entry);
      journal_.push_back(std::move(entry));
      if (failure) return rollback(*failure);
    }
    for (const auto& [path, prepared] : prepared_) {
      const FileState& before = overlay_.original(path);
      lint.emplace_back(
          path, write_pipeline::lint_delta(
                    path, prepared.bytes,
                    before.exists ? std::optional<std::string>(before.content) : std::nullopt,
                    request_.on_host, request_.stop));
    }
    return std::nullopt;
  }

 private:
  std::optional<std::string> step(JournalEntry& entry) {
    auto it = prepared_.find(entry.path);
    if (it == prepared_.end()) {
      auto removed = request_.fs->remove(entry.path);
      if (!removed) return "Failed to delete " + entry.path + ": " + cause_of(removed.error());
      return std::nullopt;
    }
    auto done = write_pipeline::commit_write(it->second, request_.write_options);
    if (!done)
      return "Failed to " + std::string(entry.before.exists ? "update " : "add ") + entry.path +
             ": " + done.error().message;
    entry.created_dirs = done->outcome.created_dirs;
    const unsigned mode = overlay_.get(entry.path).mode;
    if (!entry.before.exists && mode != 0) (void)request_.fs->set_mode(entry.path, mode);
    return std::nullopt;
  }

  std::string rollback(const std::string& failure) {
    std::vector<std::string> undo_errors;
    const fs::FileSystem& fs = *request_.fs;
    for (auto it = journal_.rbegin(); it != journal_.rend(); ++it) {
      if (it->before.exists) {
        auto restored = fs.write_atomic(it->path, it->before.content, {});
        if (!restored)
          undo_errors.push_back("Failed to restore " + it->path + ": " + restored.error().message);
        else
          (void)fs.set_mode(it->path, it->before.mode);
      } else if (auto removed = fs.remove(it->path);
                 !removed && removed.error().code != ErrorCode::kNotFound) {
        undo_errors.push_back("Failed to remove " + it->path + ": " + cause_of(removed.error()));
      }
      // Best effort: a directory something else now uses stays.
      for (auto dir = it->created_dirs.rbegin(); dir != it->created_dirs.rend(); ++dir)
        (void)fs.remove_dir(*dir);
    }
    if (undo_errors.empty()) {
      return "Apply phase failed (every change was rolled back; no files were modified):\n  • " +
             failure;
    }
    std::string out =
        "Apply phase failed (state may be inconsistent — run `git diff` to assess):\n  • " +
        failure;
    for (const auto& e : undo_errors) out += "\n  • " + e;
    return out;
  }

  Overlay& overlay_;
  const ApplyRequest& request_;
  std::map<std::string, write_pipeline::PreparedWrite> prepared_;
  std::vector<JournalEntry> journal_;
};

std::string bullets(const std::string& head, const std::vector<std::string>& items) {
  std::string out = head;
  for (const auto& item : items) out += "\n  • " + item;
  return out;
}

}  // namespace

Result<patch::PatchSuccess> apply_patch(const ApplyRequest& request) {
  DryRun dry(*request.fs);
  for (const auto& op : request.ops) dry.run(op);
  if (dry.problems.empty() && dry.overlay.changed().empty()) {
    dry.problems.push_back("Patch contains no changes (only context lines were provided)");
  }
  Committer committer(dry.overlay, request);
  if (dry.problems.empty()) dry.problems = committer.prepare();
  if (!dry.problems.empty()) {
    return Error::InvalidArgument(
        bullets("Patch validation failed (no files were modified):", dry.problems));
  }
  patch::PatchSuccess out;
  if (auto failure = committer.commit(out.lint)) return Error::Io(*failure);
  for (size_t i = 0; i < dry.diffs.size(); ++i) out.diff += (i ? "\n" : "") + dry.diffs[i];
  out.files_modified = dry.modified;
  for (const auto& p : dry.moved) {
    if (std::find(out.files_modified.begin(), out.files_modified.end(), p) ==
        out.files_modified.end()) {
      out.files_modified.push_back(p);
    }
  }
  out.files_created = dry.created;
  out.files_deleted = dry.deleted;
  return out;
}

}  // namespace hermes::v4a
