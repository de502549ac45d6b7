// SPDX-License-Identifier: MIT
// Content search engines. Both run with NUL after each path (`--null` / `-Z`)
// so a `:` or `-<digits>-` inside a file name can never be misparsed.
#include "tools/search_files/content_engine.h"

#include "core/strings.h"
#include "tools/search_files/engine_common.h"
#include "tools/search_files/zero_probes.h"

#include <algorithm>
#include <charconv>
#include <chrono>

namespace hermes::search {
namespace {

constexpr const char* kNoEngine =
    "Content search requires ripgrep (rg) or grep. Install ripgrep: "
    "https://github.com/BurntSushi/ripgrep#installation";
constexpr const char* kMultilineNote =
    "Pattern contains \\n — multiline mode (-U) was enabled automatically so the "
    "regex can match across line boundaries.";
constexpr const char* kLineOrientedNote =
    "0 results found. Note: search_files content search is line-oriented and does "
    "not run ripgrep with -U/--multiline, so `\\n` in the regex does not match line "
    "breaks. Use context=N to inspect neighboring lines, or escape as `\\\\n` when "
    "searching for a literal backslash+n.";

// Splits `digits<sep>rest`; false when the record has another shape.
bool split_line_number(std::string_view rest, int64_t& line, std::string_view& content) {
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), line);
  if (ec != std::errc() || end == rest.data() || end == rest.data() + rest.size()) return false;
  if (*end != ':' && *end != '-') return false;
  content = std::string_view(end + 1, rest.data() + rest.size() - end - 1);
  return true;
}

// Parses engine records for one output mode into a page and true totals.
class ContentCollector {
 public:
  ContentCollector(const SearchRequest& req, const EngineEnv& env)
      : mode_(req.output_mode), window_(req.offset, req.limit), filter_(env) {}

  // Engine paths are relative to a folder the engine ran in; `prefix`
  // (`<root>/`) turns them back into paths as rg would print them.
  void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }

  bool on_record(std::string_view record) {
    if (mode_ == OutputMode::kFilesOnly) {
      std::string_view path = with_prefix(record);
      if (!record.empty() && !filter_.drop(path) && window_.admit()) {
        out_.files.emplace_back(path);
        window_.keep(path.size());
      }
      return !window_.full();
    }
    size_t nul = record.find('\0');
    if (nul == std::string_view::npos) {
      // A `--` context separator, or the head of a file name that holds a
      // newline: records are lines, but a path ends only at its NUL.
      if (record != "--" || !name_head_.empty()) name_head_.append(record).push_back('\n');
      return true;
    }
    std::string_view name = record.substr(0, nul), rest = record.substr(nul + 1);
    if (!name_head_.empty()) {
      name_head_.append(name);
      name = name_head_;
    }
    std::string_view path = with_prefix(name);
    bool more = on_line(path, rest);
    name_head_.clear();
    return more;
  }

  // True when the engine printed any result, even one the denylist dropped.
  bool saw_results() const { return window_.seen() > 0 || filter_.dropped() > 0; }

  SearchOutcome take() {
    out_.total_count = mode_ == OutputMode::kCount ? count_sum_ : window_.seen();
    out_.truncated = window_.truncated();
    out_.total_is_lower_bound = window_.full();
    out_.omitted = filter_.dropped();
    return std::move(out_);
  }

 private:
  // One `path NUL rest` record of the content or count modes.
  bool on_line(std::string_view path, std::string_view rest) {
    if (mode_ == OutputMode::kCount) return on_count(path, rest);
    int64_t line = 0;
    std::string_view content;
    if (!split_line_number(rest, line, content) || filter_.drop(path)) return true;
    if (content.ends_with('\r')) content.remove_suffix(1);  // CRLF files
    if (window_.admit()) {
      out_.matches.push_back({std::string(path), line, cut_chars(content, kMatchContentChars)});
      window_.keep(path.size() + out_.matches.back().content.size());
    }
    return !window_.full();
  }

  bool on_count(std::string_view path, std::string_view rest) {
    int64_t n = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), n);
    if (ec != std::errc() || n == 0 || filter_.drop(path)) return true;  // grep -c prints zeros
    count_sum_ += n;
    if (window_.admit()) {
      out_.counts.emplace_back(std::string(path), n);
      window_.keep(path.size());
    }
    return !window_.full();
  }

  std::string_view with_prefix(std::string_view path) {
    if (prefix_.empty()) return path;
    joined_.assign(prefix_).append(path);
    return joined_;
  }

  OutputMode mode_;
  std::string prefix_;
  std::string joined_;
  std::string name_head_;  // lines so far of a file name with newlines
  PageWindow window_;
  PathFilter filter_;
  SearchOutcome out_;
  int64_t count_sum_ = 0;
};

void add_mode_flag(OutputMode mode, std::vector<std::string>& argv) {
  if (mode == OutputMode::kFilesOnly) argv.emplace_back("-l");
  if (mode == OutputMode::kCount) argv.emplace_back("-c");
}

// One engine process: its command line, the folder it runs in, and the
// prefix that turns its paths back into paths under the given root.
struct EngineRun {
  std::vector<std::string> argv;
  std::string cwd;
  std::string prefix;
};

// The non-hidden directories and regular files directly in `dir`. grep runs
// inside each root with these as operands: --exclude-dir='.*' matches
// operand names too, so `./sub` or a root below a dot-folder would be
// dropped, and a FIFO given as an operand would be opened and block.
std::vector<std::string> grep_operands(const std::string& dir, SearchHost& host) {
  std::vector<std::string> out;
  for (DirEntry& entry : host.list_dir(dir)) {
    bool is_dir = entry.kind == PathKind::kDirectory;
    if ((is_dir && entry.name.starts_with('.')) || (!is_dir && entry.kind != PathKind::kRegular)) {
      continue;
    }
    out.push_back(std::move(entry.name));
  }
  return out;
}

std::vector<std::string> grep_argv(const SearchRequest& req, const std::string& grep,
                                   const std::vector<std::string>& operands) {
  std::vector<std::string> argv = {grep, "-rnHE", "-Z", "--exclude-dir=.*"};
  if (req.context > 0) argv.insert(argv.end(), {"-C", std::to_string(req.context)});
  if (req.file_glob) argv.insert(argv.end(), {"--include", *req.file_glob});
  add_mode_flag(req.output_mode, argv);
  argv.insert(argv.end(), {"-e", req.pattern, "--"});
  argv.insert(argv.end(), operands.begin(), operands.end());
  return argv;
}

// Runs `runs` in order into one collector, so paging and totals span them,
// within one overall deadline.
SearchOutcome run_collect(const SearchRequest& req, const EngineEnv& env,
                          std::vector<EngineRun> runs) {
  ContentCollector collector(req, env);
  const char delimiter = req.output_mode == OutputMode::kFilesOnly ? '\0' : '\n';
  const auto deadline = std::chrono::steady_clock::now() + env.timeout;
  std::string diagnostics;
  bool failed = false, timed_out = false;
  for (EngineRun& run : runs) {
    EngineEnv run_env = env;
    run_env.cwd = run.cwd;
    run_env.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    collector.set_prefix(run.prefix);
    auto ran = run_engine(run_env, std::move(run.argv), delimiter,
                          [&](std::string_view r) { return collector.on_record(r); });
    if (!ran) {
      return SearchOutcome{.error =
                               Error{ran.error().code, "Search failed: " + ran.error().message}};
    }
    if (ran->end == RunEnd::kCancelled) {
      return SearchOutcome{.error = Error::Cancelled("Search interrupted")};
    }
    failed |= ran->end == RunEnd::kExited && ran->exit_code == 2;
    diagnostics += ran->stderr_text;
    timed_out = ran->end == RunEnd::kTimedOut;
    if (ran->end != RunEnd::kExited) break;
  }
  if (failed && !collector.saw_results()) {
    diagnostics = trim(diagnostics);
    // Exit 2 with nothing found: the engine refused the pattern or the root.
    return SearchOutcome{
        .error = Error::InvalidArgument("Search failed: " +
                                        (diagnostics.empty() ? "Search error" : diagnostics))};
  }
  SearchOutcome out = collector.take();
  if (timed_out) {
    out.limit_reason = "search_timeout";
    out.truncated = out.total_is_lower_bound = true;
  }
  return out;
}

std::string join_path(const std::string& cwd, const std::string& path) {
  return path.starts_with('/') ? path : cwd + "/" + path;
}

SearchOutcome search_with_grep(const SearchRequest& req, const std::vector<std::string>& roots,
                               const EngineEnv& env) {
  std::vector<EngineRun> runs;
  for (const auto& root : roots) {
    std::string absolute = join_path(env.cwd, root);
    if (env.host->kind(absolute) != PathKind::kDirectory) {
      runs.push_back({grep_argv(req, env.engines.grep, {root}), env.cwd, ""});
      continue;
    }
    auto operands = grep_operands(absolute, *env.host);  // none: grep would read stdin
    std::string prefix = root.ends_with('/') ? root : root + "/";
    if (!operands.empty())
      runs.push_back({grep_argv(req, env.engines.grep, operands), absolute, prefix});
  }
  SearchOutcome out = run_collect(req, env, std::move(runs));
  if (!out.error && out.total_count == 0 && pattern_has_newline(req.pattern)) {
    out.warning = kLineOrientedNote;
  }
  return out;
}

}  // namespace

std::vector<std::string> rg_content_argv(const SearchRequest& req,
                                         const std::vector<std::string>& roots,
                                         const std::string& rg) {
  std::vector<std::string> argv = {
      rg, "--no-config", "--line-number", "--no-heading", "--with-filename", "--null"};
  if (req.output_mode == OutputMode::kContent) {
    argv.insert(argv.end(),
                {"--max-columns", std::to_string(kMaxColumns), "--max-columns-preview"});
  }
  if (pattern_has_newline(req.pattern)) argv.emplace_back("--multiline");
  if (req.context > 0) argv.insert(argv.end(), {"-C", std::to_string(req.context)});
  if (req.file_glob) {
    auto glob = rg_glob_args(*req.file_glob);
    argv.insert(argv.end(), glob.begin(), glob.end());
  }
  add_mode_flag(req.output_mode, argv);
  argv.insert(argv.end(), {"-e", req.pattern, "--"});
  argv.insert(argv.end(), roots.begin(), roots.end());
  return argv;
}

SearchOutcome search_content(const SearchRequest& req, const std::vector<std::string>& roots,
                             const EngineEnv& env) {
  if (env.engines.rg.empty()) {
    if (env.engines.grep.empty()) return SearchOutcome{.error = Error::Unavailable(kNoEngine)};
    return search_with_grep(req, roots, env);
  }
  std::vector<EngineRun> runs = {{rg_content_argv(req, roots, env.engines.rg), env.cwd, ""}};
  SearchOutcome out = run_collect(req, env, std::move(runs));
  if (out.error) return out;
  if (pattern_has_newline(req.pattern)) out.warning = kMultilineNote;
  if (out.total_count == 0 && out.omitted == 0) {
    std::string hint = zero_result_hint(req, roots, env);
    if (!hint.empty()) out.warning = out.warning.empty() ? hint : out.warning + " " + hint;
  }
  return out;
}

}  // namespace hermes::search
