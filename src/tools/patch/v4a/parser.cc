// SPDX-License-Identifier: MIT
// A line-by-line V4A parser.
#include "tools/patch/v4a/parser.h"

#include "tools/patch/match/text_lines.h"

#include <regex>

namespace hermes::v4a {
namespace {

using match::trim_view;

// "*** Begin   Patch " and " *** Begin Patch" both count.
std::string squeeze(std::string_view line) {
  std::string out;
  for (char c : trim_view(line)) {
    if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// The path after a header keyword (`*** Update File:` or `***Update File:`).
bool header(std::string_view line, std::string_view keyword, std::string& path) {
  std::string_view t = trim_view(line);
  if (!t.starts_with("***")) return false;
  t = match::ltrim_view(t.substr(3));
  if (!t.starts_with(keyword)) return false;
  path = std::string(trim_view(t.substr(keyword.size())));
  return true;
}

// `@@ hint @@` and `@@ hint` anchor; a bare `@@` or a diff range does not.
std::string hunk_hint(std::string_view line) {
  std::string_view rest = trim_view(line.substr(2));
  if (rest.ends_with("@@")) rest = trim_view(rest.substr(0, rest.size() - 2));
  static const std::regex kRange(R"(^-\d+(,\d+)? \+\d+(,\d+)?$)");
  if (std::regex_match(rest.begin(), rest.end(), kRange)) return "";
  return std::string(rest);
}

class Parser {
 public:
  std::vector<FileOp> ops;
  std::vector<std::string> errors;

  void line(std::string_view raw) {
    std::string path;
    if (header(raw, "Update File:", path)) return start(OpKind::kUpdate, path);
    if (header(raw, "Add File:", path)) return start(OpKind::kAdd, path);
    if (header(raw, "Delete File:", path)) return start(OpKind::kDelete, path);
    if (header(raw, "Move File:", path)) return start_move(path);
    if (ops.empty()) return;  // text before the first header is ignored
    FileOp& op = ops.back();
    if (op.kind == OpKind::kUpdate && header(raw, "Move to:", path)) {
      op.move_to = path;
      return;
    }
    if (op.kind == OpKind::kAdd) {
      if (raw.starts_with("+")) op.add_lines.emplace_back(raw.substr(1));
      return;
    }
    if (op.kind == OpKind::kUpdate) body_line(raw);
  }

  void finish() {
    close_hunk();
    for (const auto& op : ops) {
      if (op.path.empty())
        errors.push_back("Operation with empty file path");
      else if (op.kind == OpKind::kUpdate && op.hunks.empty() && op.move_to.empty())
        errors.push_back("UPDATE '" + op.path + "': no hunks found");
      else if (op.kind == OpKind::kMove && op.move_to.empty())
        errors.push_back("MOVE '" + op.path +
                         "': missing destination path (expected 'src -> dst')");
    }
  }

 private:
  void start(OpKind kind, const std::string& path) {
    close_hunk();
    ops.push_back({kind, path, "", {}, {}});
  }

  void start_move(const std::string& spec) {
    auto arrow = spec.find(" -> ");
    std::string src =
        arrow == std::string::npos ? spec : std::string(trim_view(spec.substr(0, arrow)));
    start(OpKind::kMove, src);
    if (arrow != std::string::npos)
      ops.back().move_to = std::string(trim_view(spec.substr(arrow + 4)));
  }

  void body_line(std::string_view raw) {
    if (squeeze(raw) == "*** End of File") {
      if (open_) hunk_.end_of_file = true;
      close_hunk();
      return;
    }
    if (raw.starts_with("@@")) {
      close_hunk();
      open_ = true;
      hunk_.hint = hunk_hint(raw);
      return;
    }
    if (raw.starts_with("\\")) return;
    if (raw.empty()) {
      // A blank line inside a hunk is blank context; trailing ones are dropped.
      if (open_) ++pending_blank_;
      return;
    }
    open_ = true;
    flush_blanks();
    char c = raw[0];
    std::string text(c == ' ' || c == '-' || c == '+' ? raw.substr(1) : raw);
    if (c != '+') {
      hunk_.old_lines.push_back(text);
      hunk_.removed.push_back(c == '-');
    }
    if (c != '-') hunk_.new_lines.push_back(text);
  }

  void flush_blanks() {
    for (; pending_blank_ > 0; --pending_blank_) {
      hunk_.old_lines.emplace_back();
      hunk_.removed.push_back(false);
      hunk_.new_lines.emplace_back();
    }
  }

  void close_hunk() {
    pending_blank_ = 0;
    if (open_ && !ops.empty() && (!hunk_.old_lines.empty() || !hunk_.new_lines.empty())) {
      ops.back().hunks.push_back(std::move(hunk_));
    } else if (open_ && !ops.empty() && hunk_.end_of_file && !ops.back().hunks.empty()) {
      ops.back().hunks.back().end_of_file = true;
    }
    hunk_ = Hunk{};
    open_ = false;
  }

  Hunk hunk_;
  bool open_ = false;
  int pending_blank_ = 0;
};

// The lines between the last Begin before the first End and that End.
std::pair<size_t, size_t> body_range(const std::vector<std::string_view>& lines) {
  size_t end = lines.size(), begin = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (squeeze(lines[i]) == "*** End Patch") {
      end = i;
      break;
    }
  }
  for (size_t i = 0; i < end; ++i) {
    if (squeeze(lines[i]) == "*** Begin Patch") begin = i + 1;
  }
  return {begin, end};
}

}  // namespace

Result<std::vector<FileOp>> parse_patch(std::string_view text) {
  std::vector<std::string_view> lines = match::line_views(text);  // CRLF tolerated
  auto [begin, end] = body_range(lines);
  Parser parser;
  for (size_t i = begin; i < end; ++i) parser.line(lines[i]);
  parser.finish();
  if (parser.ops.empty() && begin == 0) {
    std::string first = lines.empty() ? "" : std::string(lines[0]);
    return Error::InvalidArgument(
        "Parse error: line 1: '" + first.substr(0, 120) +
        "' does not start a V4A patch (expected '*** Begin Patch' and a file header: '*** Update "
        "File: <path>', '*** Add File: <path>', '*** Delete File: <path>' or '*** Move File: "
        "<src> -> <dst>')");
  }
  if (!parser.errors.empty()) {
    std::string joined;
    for (const auto& e : parser.errors) joined += (joined.empty() ? "" : "; ") + e;
    return Error::InvalidArgument("Parse error: " + joined);
  }
  return std::move(parser.ops);
}

}  // namespace hermes::v4a
