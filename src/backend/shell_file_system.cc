// SPDX-License-Identifier: MIT
// ShellFileSystem's reads and small operations. Every path reaches the
// script single-quoted (shell_quote) after `--`, so spaces, quotes, newlines,
// leading dashes and any bytes survive.
#include "backend/shell_file_system.h"

#include "core/paths.h"
#include "core/strings.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

namespace hermes::backend {
namespace {

// Long enough for a slow link, short enough that a wedged target frees the
// call (the stop token ends it sooner when the client cancels).
constexpr std::chrono::minutes kCommandTimeout{5};
// Bytes fetched by open_read with the metadata, then per further window.
constexpr size_t kFirstWindow = 1 << 20;
constexpr size_t kWindow = 4 << 20;

std::string q(const std::string& path) { return shell_quote(path); }

fs::FileType type_of(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFREG:
      return fs::FileType::kRegular;
    case S_IFDIR:
      return fs::FileType::kDirectory;
    case S_IFIFO:
      return fs::FileType::kFifo;
    case S_IFSOCK:
      return fs::FileType::kSocket;
    case S_IFCHR:
      return fs::FileType::kCharDevice;
    case S_IFBLK:
      return fs::FileType::kBlockDevice;
    case S_IFLNK:
      return fs::FileType::kSymlink;
    default:
      return fs::FileType::kOther;
  }
}

template <typename T>
bool parse_number(std::string_view text, T& out, int base = 10) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && end == text.data() + text.size();
}

// `seconds.nanoseconds` as nanoseconds.
bool parse_time(std::string_view text, int64_t& out) {
  size_t dot = text.find('.');
  int64_t sec = 0, ns = 0;
  if (!parse_number(text.substr(0, dot), sec)) return false;
  if (dot != std::string_view::npos && !parse_number(text.substr(dot + 1), ns)) return false;
  out = sec * 1000000000 + ns;
  return true;
}

int errno_for(std::string_view cause) {
  for (int e = 1; e < 134; ++e) {
    if (cause == std::strerror(e)) return e;
  }
  return 0;
}

// Reads through the open_read prefetch, then in windows fetched on demand.
class ShellFile final : public fs::ReadableFile {
 public:
  ShellFile(const ShellFileSystem& fs, std::string path, fs::FileInfo info, std::string head)
      : fs_(fs), path_(std::move(path)), info_(info), window_(std::move(head)) {
    if (window_.size() < kFirstWindow) eof_ = window_.size();
  }

  Result<size_t> pread(char* buffer, size_t size, uint64_t offset) override {
    if (eof_ && offset >= *eof_) return size_t{0};
    if (offset < window_at_ || offset >= window_at_ + window_.size()) HERMES_TRY(fetch(offset));
    if (offset >= window_at_ + window_.size()) return size_t{0};
    size_t n = std::min<uint64_t>(size, window_at_ + window_.size() - offset);
    std::memcpy(buffer, window_.data() + (offset - window_at_), n);
    return n;
  }

  // The metadata taken with the first bytes; fetched anew once the read
  // went past them, so a file that changed meanwhile is noticed.
  Result<fs::FileInfo> info() override {
    if (refetched_) return fs_.fetch_stat(path_, true);
    return info_;
  }

 private:
  Status fetch(uint64_t offset) {
    std::string script = "tail -c +" + std::to_string(offset + 1) + " -- " + q(path_) +
                         " | head -c " + std::to_string(kWindow) +
                         "; r=${PIPESTATUS[0]}; [ $r = 0 ] || [ $r = 141 ]";
    HERMES_ASSIGN_OR_RETURN(window_, fs_.run(script, "read"));
    window_at_ = offset;
    refetched_ = true;
    if (window_.size() < kWindow) eof_ = offset + window_.size();
    return {};
  }

  const ShellFileSystem& fs_;
  std::string path_;
  fs::FileInfo info_;
  std::string window_;
  uint64_t window_at_ = 0;
  std::optional<uint64_t> eof_;
  bool refetched_ = false;
};

}  // namespace

std::vector<std::string> nul_fields(const std::string& text) {
  std::vector<std::string> fields;
  for (size_t at = 0; at < text.size();) {
    size_t nul = text.find('\0', at);
    if (nul == std::string::npos) nul = text.size();
    fields.push_back(text.substr(at, nul - at));
    at = nul + 1;
  }
  return fields;
}

Result<fs::FileInfo> parse_stat_line(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  std::vector<std::string> f = split(line, ' ');
  fs::FileInfo info;
  unsigned mode = 0;
  if (f.size() != 6 || !parse_number(f[0], mode, 16) || !parse_number(f[1], info.size) ||
      !parse_number(f[2], info.dev) || !parse_number(f[3], info.ino) ||
      !parse_time(f[4], info.mtime_ns) || !parse_time(f[5], info.ctime_ns)) {
    return Error::Io("unexpected stat output: " + std::string(line.substr(0, 200)));
  }
  info.type = type_of(mode);
  info.mode = mode & 07777;
  return info;
}

Error command_error(const std::string& context, std::string_view stderr_text) {
  std::vector<std::string> lines = split(trim(stderr_text), '\n');
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    size_t colon = it->rfind(": ");
    if (colon == std::string::npos) continue;
    if (int e = errno_for(it->substr(colon + 2))) {
      return context.empty() ? Error::FromErrno(e, *it) : Error::FromErrno(e, context);
    }
  }
  std::string last = lines.empty() ? "command failed" : lines.back();
  return Error::Io(context.empty() ? last : context + ": " + last);
}

ShellFileSystem::ShellFileSystem(std::shared_ptr<backend::Backend> backend, std::stop_token stop)
    : backend_(std::move(backend)), stop_(std::move(stop)) {}

Result<backend::BashOutcome> ShellFileSystem::exec(const std::string& script,
                                                   std::optional<std::string> stdin_data) const {
  backend::BashRun run{.script = script,
                       .login = false,
                       .stdin_data = std::move(stdin_data),
                       .timeout = kCommandTimeout,
                       .separate_stderr = true};
  HERMES_ASSIGN_OR_RETURN(backend::BashOutcome out,
                          backend::run_bash_captured(*backend_, run, stop_));
  if (out.end != proc::RunEnd::kExited) {
    return Error::Timeout("the " + backend_->name() + " file command did not finish");
  }
  return out;
}

Result<std::string> ShellFileSystem::run(const std::string& script, const std::string& context,
                                         std::optional<std::string> stdin_data) const {
  HERMES_ASSIGN_OR_RETURN(backend::BashOutcome out, exec(script, std::move(stdin_data)));
  if (out.exit_code != 0) return command_error(context, out.stderr_text);
  return std::move(out.output);
}

Result<fs::FileInfo> ShellFileSystem::fetch_stat(const std::string& path, bool follow,
                                                 const char* op) const {
  if (op == nullptr) op = follow ? "stat" : "lstat";
  HERMES_ASSIGN_OR_RETURN(std::string line, run(std::string(follow ? "stat -L -c " : "stat -c ") +
                                                    kShellStatFormat + " -- " + q(path),
                                                std::string(op) + " \"" + path + "\""));
  return parse_stat_line(line);
}

Result<fs::FileInfo> ShellFileSystem::memo_stat(const std::string& path, bool follow) const {
  MemoKey key{follow, path};
  {
    std::lock_guard lock(memo_mu_);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  }
  Result<fs::FileInfo> info = fetch_stat(path, follow);
  remember(key, info);
  return info;
}

void ShellFileSystem::remember(const MemoKey& key, const Result<fs::FileInfo>& info) const {
  if (!info && info.error().code != ErrorCode::kNotFound) return;
  std::lock_guard lock(memo_mu_);
  memo_.insert_or_assign(key, info);
}

void ShellFileSystem::forget() const {
  std::lock_guard lock(memo_mu_);
  memo_.clear();
  sha_memo_.clear();
}

Result<fs::FileInfo> ShellFileSystem::stat(const std::string& path) const {
  return memo_stat(path, true);
}

Result<fs::FileInfo> ShellFileSystem::lstat(const std::string& path) const {
  return memo_stat(path, false);
}

Result<std::unique_ptr<fs::ReadableFile>> ShellFileSystem::open_read(
    const std::string& path) const {
  // Metadata and the first window in one round trip; a non-regular file is
  // never read (a FIFO would block).
  std::string script = "p=" + q(path) + "; stat -L -c " + kShellStatFormat +
                       " -- \"$p\" || exit 1; [ -f \"$p\" ] || exit 0; head -c " +
                       std::to_string(kFirstWindow) + " -- \"$p\"";
  HERMES_ASSIGN_OR_RETURN(std::string out, run(script, "open \"" + path + "\""));
  size_t nl = out.find('\n');
  HERMES_ASSIGN_OR_RETURN(fs::FileInfo info, parse_stat_line(out.substr(0, nl)));
  std::string head = nl == std::string::npos ? "" : out.substr(nl + 1);
  return std::unique_ptr<fs::ReadableFile>(
      std::make_unique<ShellFile>(*this, path, info, std::move(head)));
}

Result<std::vector<std::string>> ShellFileSystem::list_dir(const std::string& path) const {
  // Globs rather than ls or find -printf: NUL-separated, no GNU extension.
  std::string script = "shopt -s nullglob dotglob; cd -P -- " + q(path) +
                       " || exit 1; [ -r . ] || { echo \"cd: Permission denied\" >&2; exit 1; }"
                       "; for f in *; do printf '%s\\0' \"$f\"; done";
  HERMES_ASSIGN_OR_RETURN(std::string out, run(script, "opendir \"" + path + "\""));
  return nul_fields(out);
}

Result<fs::Entry> ShellFileSystem::read_entry(const std::string& path, uint64_t max_bytes) const {
  // The lstat line, then the link's target or the file's bytes, in one
  // round trip; exit 2: the bytes could not be read.
  uint64_t most = std::min(max_bytes, fs::kMaxWholeFileBytes);
  std::string script = "p=" + q(path) + "; s=$(stat -c " + kShellStatFormat +
                       " -- \"$p\") || exit 1; printf '%s\\n' \"$s\"" +
                       "; if [ -L \"$p\" ]; then readlink -v -- \"$p\" && printf x || exit 2" +
                       "; elif [ -f \"$p\" ]; then set -- $s; [ \"$2\" -le " +
                       std::to_string(most) + " ] || exit 0; head -c " + std::to_string(most + 1) +
                       " -- \"$p\" || exit 2; fi";
  HERMES_ASSIGN_OR_RETURN(backend::BashOutcome out, exec(script));
  std::string context = "lstat \"" + path + "\"";
  if (out.exit_code == 1) return command_error(context, out.stderr_text);
  size_t nl = out.output.find('\n');
  if (nl == std::string::npos) return command_error(context, out.stderr_text);
  fs::Entry entry;
  HERMES_ASSIGN_OR_RETURN(entry.info, parse_stat_line(out.output.substr(0, nl)));
  std::string rest = out.output.substr(nl + 1);
  if (out.exit_code != 0) {
    Error error = command_error("open \"" + path + "\"", out.stderr_text);
    if (error.code == ErrorCode::kPermissionDenied) return entry;
    return error;
  }
  if (entry.info.type == fs::FileType::kSymlink) {
    // readlink's newline, then the x that keeps a target's own newlines.
    if (rest.ends_with("\nx")) rest.resize(rest.size() - 2);
    entry.target = std::move(rest);
  } else if (entry.info.type == fs::FileType::kRegular && entry.info.size <= most &&
             rest.size() <= most) {
    entry.bytes = std::move(rest);
  }
  return entry;
}

Result<std::string> ShellFileSystem::read_link(const std::string& path) const {
  // `readlink` is silent on a non-link; EINVAL is what readlink(2) says.
  std::string script = "p=" + q(path) + "; [ -L \"$p\" ] || [ ! -e \"$p\" ] || { echo \"x: " +
                       std::strerror(EINVAL) + "\" >&2; exit 1; }; readlink -v -- \"$p\"";
  HERMES_ASSIGN_OR_RETURN(std::string out, run(script, "readlink \"" + path + "\""));
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// Checked first, so a FIFO or a huge file on the target is refused before
// any command reads it; `head -c` still bounds a file that grows meanwhile.
Result<std::string> ShellFileSystem::read_all(const std::string& path) const {
  // A missing file reads as the native open reports it.
  HERMES_ASSIGN_OR_RETURN(fs::FileInfo info, fetch_stat(path, true, "open"));
  HERMES_TRY(fs::check_whole_file(info, path));
  HERMES_ASSIGN_OR_RETURN(
      std::string bytes,
      run("head -c " + std::to_string(fs::kMaxWholeFileBytes + 1) + " -- " + q(path),
          "open \"" + path + "\""));
  if (bytes.size() > fs::kMaxWholeFileBytes) {
    return Error::TooLarge("'" + path + "' grew past the 64 MiB limit while being read");
  }
  return bytes;
}

// The target hashes its own copy, so the file is not sent back to compare.
Result<bool> ShellFileSystem::holds(const std::string& path, std::string_view bytes) const {
  HERMES_ASSIGN_OR_RETURN(std::string on_disk, sha256(path));
  return on_disk == fs::sha256_hex(bytes);
}

Result<std::string> ShellFileSystem::sha256(const std::string& path) const {
  {
    std::lock_guard lock(memo_mu_);
    if (auto it = sha_memo_.find(path); it != sha_memo_.end()) return it->second;
  }
  // From stdin: sha256sum escapes odd file names in its output.
  HERMES_ASSIGN_OR_RETURN(std::string out, run("sha256sum < " + q(path), "open \"" + path + "\""));
  if (out.size() < 64) return Error::Io("unexpected sha256sum output: " + out);
  return out.substr(0, 64);
}

Status ShellFileSystem::remove(const std::string& path) const {
  forget();
  // rm refuses a directory as unlink(2) does (EISDIR).
  HERMES_TRY(run("rm -- " + q(path), "unlink \"" + path + "\""));
  return {};
}

Status ShellFileSystem::remove_dir(const std::string& path) const {
  forget();
  HERMES_TRY(run("rmdir -- " + q(path), "rmdir \"" + path + "\""));
  return {};
}

Status ShellFileSystem::set_mode(const std::string& path, unsigned mode) const {
  forget();
  char octal[8];
  std::snprintf(octal, sizeof octal, "%o", mode & 07777);
  HERMES_TRY(run("chmod " + std::string(octal) + " -- " + q(path), "chmod \"" + path + "\""));
  return {};
}

Status ShellFileSystem::make_dir(const std::string& path, unsigned mode) const {
  forget();
  char octal[8];
  std::snprintf(octal, sizeof octal, "%o", mode & 07777);
  HERMES_TRY(run("mkdir -- " + q(path) + " && chmod " + octal + " -- " + q(path),
                 "mkdir \"" + path + "\""));
  return {};
}

Status ShellFileSystem::make_symlink(const std::string& target, const std::string& link) const {
  forget();
  // ln -s into an existing directory would make the link inside it: refuse
  // an existing entry first, as symlink(2) does.
  HERMES_TRY(
      run("l=" + q(link) +
              "; if [ -e \"$l\" ] || [ -L \"$l\" ]; then echo 'ln: File exists' >&2; exit 1; fi"
              "; ln -s -- " +
              q(target) + " \"$l\"",
          "symlink \"" + link + "\""));
  return {};
}

Result<std::string> ShellFileSystem::real_path(const std::string& absolute_path) const {
  // PathResolver::resolve_links's walk: `realpath -m` follows every link,
  // a dangling one too, and keeps the missing tail (an empty first field:
  // a loop). `printf x` keeps trailing newlines of names. Then, in the same
  // round trip, the stat of the result and the lstat of the given path,
  // which a file tool asks for next.
  std::string script =
      "a=" + q(absolute_path) +
      "; r=$(realpath -m -- \"$a\" 2>/dev/null && printf x) || { printf '\\0\\0'; exit 0; }"
      "; r=${r%$'\\n'x}; t=; printf '%s\\0%s\\0' \"$r\" \"$t\""
      "; stat -L -c " +
      std::string(kShellStatFormat) +
      " -- \"$r${t:+/$t}\" 2>&1; printf '\\0'"
      "; stat -c " +
      kShellStatFormat + " -- \"$a\" 2>&1; :";
  HERMES_ASSIGN_OR_RETURN(std::string out, run(script, "realpath \"" + absolute_path + "\""));
  std::vector<std::string> f = nul_fields(out);
  if (f.size() < 2) return Error::Io("unexpected realpath output");
  if (f[0].empty())
    return Error::InvalidArgument("too many levels of symbolic links: " + absolute_path);
  std::string real = f[1].empty() ? f[0] : PathResolver::normalize(f[0] + "/" + f[1]);
  if (f.size() == 4) {
    auto seen = [](const std::string& text, const std::string& context) -> Result<fs::FileInfo> {
      auto info = parse_stat_line(text);
      if (info) return info;
      return command_error(context, text);
    };
    remember({true, real}, seen(f[2], "stat \"" + real + "\""));
    remember({false, absolute_path}, seen(f[3], "lstat \"" + absolute_path + "\""));
  }
  return real;
}

}  // namespace hermes::backend
