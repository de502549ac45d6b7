// SPDX-License-Identifier: MIT
// format_output and its helpers; spill files live under
// $HERMES_HOME/cache/terminal-output and are pruned after 7 days.
#include "tools/terminal/output_pipeline.h"

#include "core/ansi.h"
#include "core/config.h"
#include "core/redact.h"
#include "core/strings.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <random>
#include <set>

namespace hermes::terminal {
namespace {

constexpr int64_t kSpillMaxAgeSeconds = 7 * 24 * 3600;

// The first `n` code points of valid UTF-8 `text`.
std::string_view first_chars(std::string_view text, uint64_t n) {
  size_t i = 0;
  for (uint64_t seen = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == n) break;
  }
  return text.substr(0, i);
}

// The last `n` code points of valid UTF-8 `text`.
std::string_view last_chars(std::string_view text, uint64_t n) {
  size_t i = text.size();
  for (uint64_t seen = 0; i > 0 && seen < n;) {
    --i;
    seen += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  }
  return text.substr(i);
}

// Drops bytes before the first code-point start (the tail window may begin
// mid-sequence).
std::string_view from_char_start(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && i < 4 && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  return text.substr(i);
}

void prune_old_spills(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  time_t now = std::time(nullptr);
  while (dirent* e = ::readdir(d)) {
    if (!starts_with(e->d_name, "out-")) continue;
    std::string path = dir + "/" + e->d_name;
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && now - st.st_mtime > kSpillMaxAgeSeconds) {
      ::unlink(path.c_str());
    }
  }
  ::closedir(d);
}

void make_dirs(const std::string& dir) {
  for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    ::mkdir(dir.substr(0, slash).c_str(), 0700);
    if (slash == std::string::npos) break;
  }
}

// Writes the (already stripped and redacted) full text; "" on failure.
std::string write_spill(const std::string& dir, std::string_view text) {
  make_dirs(dir);
  prune_old_spills(dir);
  std::random_device rd;
  char name[96];
  std::snprintf(name, sizeof name, "/out-%lld-%d-%08x.log",
                static_cast<long long>(std::time(nullptr)), static_cast<int>(::getpid()), rd());
  std::string path = dir + name;
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return {};
  bool ok = true;
  for (size_t off = 0; ok && off < text.size();) {
    ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    ok = n > 0;
    off += ok ? static_cast<size_t>(n) : 0;
  }
  ::close(fd);
  if (!ok) ::unlink(path.c_str());
  return ok ? path : std::string();
}

std::string clean(std::string_view text, const OutputOptions& options) {
  return background_jobs::redact_output(trim(strip_ansi(text)), options.redaction);
}

}  // namespace

FormattedOutput format_output(const proc::OutputCapture& capture, const OutputOptions& options) {
  FormattedOutput out;
  out.total_chars = capture.total_chars();
  if (out.total_chars <= options.max_chars && capture.complete()) {
    out.text = clean(sanitize_utf8(capture.prefix()), options);
    return out;
  }
  out.truncated = true;
  uint64_t head_n = options.max_chars * 2 / 5;
  uint64_t tail_n = options.max_chars - head_n;
  std::string head_src = sanitize_utf8(capture.prefix());
  std::string tail_src = sanitize_utf8(from_char_start(capture.tail()));
  std::string_view head = first_chars(head_src, head_n);
  std::string_view tail = last_chars(tail_src, tail_n);
  uint64_t omitted = out.total_chars - std::min(out.total_chars, head_n + tail_n);
  std::string joined = std::string(head) + "\n\n... [OUTPUT TRUNCATED - " + with_commas(omitted) +
                       " chars omitted out of " + with_commas(out.total_chars) + " total] ...\n\n" +
                       std::string(tail);
  out.text = clean(joined, options);
  if (!options.spill_dir.empty()) {
    std::string full = clean(head_src, options);
    if (!capture.complete()) full += "\n\n... [full output capped at 5,000,000 bytes]\n";
    out.full_output_path = write_spill(options.spill_dir, full);
  }
  return out;
}

bool command_reveals_secrets(std::string_view command) {
  static const std::set<std::string> kDumpers = {"env", "printenv", "set", "export", "declare"};
  static const std::set<std::string> kReaders = {"cat",  "head", "tail", "less", "more",
                                                 "nl",   "bat",  "zcat", "tac",  "view",
                                                 "grep", "awk",  "sed"};
  std::string segment;
  auto check = [&](const std::string& seg) {
    std::vector<std::string> words = split(seg, ' ');
    size_t i = 0;
    while (i < words.size() && words[i].find('=') != std::string::npos) ++i;
    if (i >= words.size()) return false;
    std::string base = words[i].substr(words[i].rfind('/') + 1);
    if (kDumpers.count(base)) return true;
    if (!kReaders.count(base)) return false;
    for (size_t k = i + 1; k < words.size(); ++k) {
      std::string word = words[k];
      std::erase_if(word, [](char q) { return q == '\'' || q == '"'; });
      if (is_secret_bearing_file(word)) return true;
    }
    return false;
  };
  for (char c : command) {
    if (c == ';' || c == '|' || c == '&' || c == '\n' || c == '(' || c == ')') {
      if (check(segment)) return true;
      segment.clear();
      continue;
    }
    segment += c == '\t' ? ' ' : c;
  }
  return check(segment);
}

OutputOptions output_options(const Config& config, std::string_view command) {
  OutputOptions o;
  o.max_chars =
      static_cast<size_t>(std::max<int64_t>(1000, config.get_int("tool_output.max_bytes", 50'000)));
  o.redaction = {.enabled = redaction_enabled(config),
                 .assignments = command_reveals_secrets(command)};
  o.spill_dir = config.home().empty() ? "" : config.home() + "/cache/terminal-output";
  return o;
}

}  // namespace hermes::terminal
