// SPDX-License-Identifier: MIT
#include "checkpoint/journal.h"

#include "fs/atomic_write.h"
#include "proc/unique_fd.h"

#include <fcntl.h>
#include <unistd.h>

#include <charconv>

#include "checkpoint/record_format.h"

namespace hermes::checkpoint {

namespace {

// Record kinds, the first field of a line.
constexpr std::string_view kHeader = "C";
constexpr std::string_view kBefore = "B";
constexpr std::string_view kAfter = "P";
constexpr std::string_view kEnd = "F";

const char* coverage_name(Coverage coverage) {
  switch (coverage) {
    case Coverage::kPaths:
      return "paths";
    case Coverage::kShell:
      return "shell";
    case Coverage::kNotCaptured:
      return "not-captured";
    case Coverage::kTooLarge:
      return "too-large";
  }
  return "paths";
}

Coverage coverage_from(std::string_view name) {
  if (name == "shell") return Coverage::kShell;
  if (name == "not-captured") return Coverage::kNotCaptured;
  if (name == "too-large") return Coverage::kTooLarge;
  return Coverage::kPaths;
}

template <class T>
bool number(std::string text, T& out) {
  while (!text.empty() && text.back() == ' ') text.pop_back();
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string header_line(const Checkpoint& c) {
  return join_fields({std::string(kHeader), std::to_string(c.id), std::to_string(c.created), c.tool,
                      coverage_name(c.coverage), c.session, c.summary}) +
         "\n";
}

std::string state_lines(std::string_view kind, uint64_t id,
                        const std::map<std::string, PathState>& states) {
  std::string text;
  for (const auto& [path, state] : states) {
    std::vector<std::string> fields{std::string(kind), std::to_string(id), path};
    append_state(fields, state);
    text += join_fields(fields) + "\n";
  }
  return text;
}

std::string end_line(uint64_t id) {
  return join_fields({std::string(kEnd), std::to_string(id)}) + "\n";
}

// Applies one journal line to `out` (checkpoints by id in `by_id`).
Status apply_line(const std::vector<std::string>& f, std::vector<Checkpoint>& out,
                  std::map<uint64_t, size_t>& by_id) {
  Error bad = Error::Io("damaged checkpoint journal");
  uint64_t id = 0;
  if (f.size() < 2 || !number(f[1], id)) return bad;
  if (f[0] == kHeader) {
    if (f.size() != 7) return bad;
    Checkpoint c;
    c.id = id;
    if (!number(f[2], c.created)) return bad;
    c.tool = f[3];
    c.coverage = coverage_from(f[4]);
    c.session = f[5];
    c.summary = f[6];
    by_id[id] = out.size();
    out.push_back(std::move(c));
    return {};
  }
  auto it = by_id.find(id);
  if (it == by_id.end()) return {};  // its header was pruned
  Checkpoint& c = out[it->second];
  if (f[0] == kEnd) {
    c.finished = true;
    return {};
  }
  if (f.size() != 3 + kStateFields) return bad;
  HERMES_ASSIGN_OR_RETURN(PathState state, parse_state(f, 3));
  (f[0] == kBefore ? c.before : c.after)[f[2]] = std::move(state);
  return {};
}

}  // namespace

std::string checkpoint_text(const Checkpoint& c) {
  std::string text = header_line(c) + state_lines(kBefore, c.id, c.before);
  text += state_lines(kAfter, c.id, c.after);
  if (c.finished) text += end_line(c.id);
  return text;
}

Result<std::vector<Checkpoint>> Journal::load() const {
  std::vector<Checkpoint> out;
  auto text = fs::read_whole_file(dir_ + "/journal");
  if (!text && text.error().code == ErrorCode::kNotFound) return out;
  if (!text) return text.error();
  std::map<uint64_t, size_t> by_id;
  std::string_view all = *text;
  for (size_t start = 0; start < all.size();) {
    size_t eol = all.find('\n', start);
    if (eol == std::string_view::npos) break;  // a line cut by a crash
    HERMES_TRY(apply_line(split_fields(all.substr(start, eol - start)), out, by_id));
    start = eol + 1;
  }
  return out;
}

Result<uint64_t> Journal::next_id() const {
  // Rewritten in place, under the lock: a rename per call would cost more
  // than the rest of a tool edit's checkpoint.
  std::string path = dir_ + "/next-id";
  proc::UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  if (!fd.valid()) return Error::FromErrno(errno, "open \"" + path + "\"");
  char buf[32] = {};
  ssize_t n = ::pread(fd.get(), buf, sizeof buf - 1, 0);
  uint64_t id = 1;
  if (n <= 0 || !number(std::string(buf, static_cast<size_t>(n)), id)) id = 1;
  std::string next = std::to_string(id + 1);
  next.resize(20, ' ');  // fixed width: a shorter number never leaves digits behind
  if (::pwrite(fd.get(), next.data(), next.size(), 0) != static_cast<ssize_t>(next.size())) {
    return Error::FromErrno(errno, "write \"" + path + "\"");
  }
  return id;
}

Status Journal::begin(const Checkpoint& c) const {
  return append_file(dir_ + "/journal", header_line(c) + state_lines(kBefore, c.id, c.before));
}

Status Journal::finish(uint64_t id, const std::map<std::string, PathState>& before,
                       const std::map<std::string, PathState>& after) const {
  return append_file(dir_ + "/journal", state_lines(kBefore, id, before) +
                                            state_lines(kAfter, id, after) + end_line(id));
}

Status Journal::rewrite(const std::vector<Checkpoint>& kept) const {
  std::string text;
  for (const Checkpoint& c : kept) text += checkpoint_text(c);
  return replace_file(dir_ + "/journal", text);
}

}  // namespace hermes::checkpoint
