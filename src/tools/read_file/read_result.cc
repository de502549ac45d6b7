// SPDX-License-Identifier: MIT
// The result JSON: hints in the contract's exact words, advisory `_hint`s,
// and the error/stub shapes.
#include "tools/read_file/read_result.h"

#include "core/strings.h"
#include "tools/read_file/content_kind.h"

namespace hermes {
namespace {

constexpr uint64_t kLargeFileBytes = 512000;

std::string join_hint(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + " " + b;
}

std::string budget_hint(const Page& page, int64_t max_chars) {
  int64_t next = page.first_line + page.lines_shown;
  std::string hint = "Output truncated at the " + with_commas(static_cast<uint64_t>(max_chars)) +
                     "-char read budget after " + std::to_string(page.lines_shown) +
                     " line(s) (showing lines " + std::to_string(page.first_line) + "-" +
                     std::to_string(next - 1) + " of " + std::to_string(page.total_lines) +
                     "). Use offset=" + std::to_string(next) + " to continue.";
  if (page.line_cut) {
    hint += " Line " + std::to_string(page.first_line) +
            " alone exceeds the budget and was cut mid-line; the rest of that line is not "
            "retrievable via offset (use search_files or terminal for it).";
  }
  return hint;
}

std::string page_hint(const Page& page, const PageContext& ctx) {
  if (page.total_lines == 0) return "File is empty (0 bytes).";
  if (page.first_line > page.total_lines) {
    std::string n = std::to_string(page.total_lines);
    return "Note: offset " + std::to_string(page.first_line) + " is beyond the end of the file (" +
           n + " lines total). Retry with offset <= " + n + ".";
  }
  if (page.budget_hit) return budget_hint(page, ctx.max_chars);
  if (!page_truncated(page, ctx.limit)) return "";
  int64_t end = page.first_line + ctx.limit - 1;
  return "Use offset=" + std::to_string(end + 1) + " to continue reading (showing " +
         std::to_string(page.first_line) + "-" + std::to_string(end) + " of " +
         std::to_string(page.total_lines) + " lines)";
}

std::string advisory_hint(const Page& page, const PageContext& ctx, bool truncated) {
  std::string hint;
  if (ctx.file_size > kLargeFileBytes && ctx.limit > 200 && truncated) {
    hint = "This file is large (" + with_commas(ctx.file_size) +
           " bytes). Read only the region you need with a smaller limit, or use search_files to "
           "find it first.";
  }
  if (page.conflict_blocks > 0) {
    hint = join_hint(hint, "This page contains " + std::to_string(page.conflict_blocks) +
                               " unresolved git merge-conflict block(s) (<<<<<<< … >>>>>>>). "
                               "Resolve them before relying on or editing this code.");
  }
  return hint;
}

}  // namespace

bool page_truncated(const Page& page, int64_t limit) {
  return page.budget_hit || page.total_lines > page.first_line + limit - 1;
}

Json page_json(const Page& page, const PageContext& ctx) {
  const bool truncated = page.first_line <= page.total_lines && page_truncated(page, ctx.limit);
  Json out;
  out["content"] = page.content;
  out["total_lines"] = page.total_lines;
  out["file_size"] = ctx.file_size;
  out["truncated"] = truncated;
  if (ctx.extracted_document) {
    out["extracted_document"] = true;
  } else {
    out["is_binary"] = false;
    out["is_image"] = false;
  }
  std::string hint = join_hint(ctx.hint_prefix, page_hint(page, ctx));
  if (!hint.empty()) out["hint"] = hint;
  if (page.budget_hit) {
    out["truncated_by"] = "bytes";
    out["next_offset"] = page.first_line + page.lines_shown;
    if (page.line_cut) out["truncated_lines"] = true;
  }
  if (page.conflict_blocks > 0) out["conflict_blocks"] = page.conflict_blocks;
  std::string advisory = advisory_hint(page, ctx, truncated);
  if (!advisory.empty()) out["_hint"] = advisory;
  return out;
}

Json binary_json(uint64_t size, const std::string& kind) {
  Json out;
  out["content"] = "";
  out["total_lines"] = 0;
  out["file_size"] = size;
  out["truncated"] = false;
  out["is_binary"] = true;
  out["is_image"] = false;
  out["error"] = "Binary file (" + kind + ", " + format_size(size) + ") — cannot display as text.";
  return out;
}

Json not_found_json(const std::string& absolute, const std::vector<std::string>& similar) {
  Json out;
  out["error"] = "File not found: " + absolute;
  if (!similar.empty()) out["similar_files"] = similar;
  return out;
}

Json stub_json(const std::string& given) {
  Json out;
  out["status"] = "unchanged";
  out["message"] =
      "File unchanged since last read. The content from the earlier read_file result in this "
      "conversation is still current — refer to that instead of re-reading.";
  out["path"] = given;
  out["dedup"] = true;
  out["content_returned"] = false;
  return out;
}

Json stub_blocked_json(const std::string& given, int count) {
  Json out;
  out["error"] = "BLOCKED: You have called read_file on this exact region " +
                 std::to_string(count) +
                 " times and the file has NOT changed. STOP re-reading it: the content from your "
                 "earlier read_file result is still current. Use it, or read a different region.";
  out["path"] = given;
  out["already_read"] = count;
  return out;
}

Json repeat_blocked_json(const std::string& given, int count) {
  Json out;
  out["error"] = "BLOCKED: You have read this exact file region " + std::to_string(count) +
                 " times in a row. Use the content you already have, or read a different region "
                 "or file.";
  out["path"] = given;
  out["already_read"] = count;
  return out;
}

std::string repeat_warning() {
  return "You have read this exact file region 3 times consecutively. Use the content you already "
         "have; a 4th identical read will be blocked.";
}

}  // namespace hermes
