// SPDX-License-Identifier: MIT
// The three zero-result probes, in the contract's order.
#include "tools/search_files/zero_probes.h"

#include "tools/search_files/engine_common.h"

#include <charconv>
#include <vector>

namespace hermes::search {
namespace {

constexpr int kProbeRecords = 50;
constexpr std::chrono::milliseconds kProbeTimeout{30'000};
constexpr std::string_view kRegexMeta = ".[](){}?*+^$\\|";
// Heavy trees the hidden/ignored probe does not descend into.
constexpr const char* kPrunedDirs[] = {".git",        "node_modules",  "__pycache__",
                                       ".venv",       "venv",          ".tox",
                                       ".mypy_cache", ".pytest_cache", ".ruff_cache"};

struct Probe {
  std::vector<std::string> flags;
  std::string (*message)(int64_t total, size_t files, const std::string& paths);
};

std::string case_message(int64_t total, size_t files, const std::string& paths) {
  return "0 exact matches, but " + std::to_string(total) + " case-insensitive match(es) in " +
         std::to_string(files) + " file(s): " + paths + " — the pattern's casing may be wrong.";
}

std::string hidden_message(int64_t total, size_t files, const std::string& paths) {
  return "0 matches in visible files, but " + std::to_string(total) + " match(es) in " +
         std::to_string(files) + " hidden or gitignored file(s): " + paths +
         " — these are excluded by default.";
}

std::string literal_message(int64_t total, size_t files, const std::string& paths) {
  return "0 regex matches, but " + std::to_string(total) + " literal match(es) in " +
         std::to_string(files) + " file(s): " + paths +
         " — the pattern contains regex metacharacters that likely need escaping "
         "(or pass a simpler substring).";
}

std::vector<std::string> hidden_flags() {
  std::vector<std::string> flags = {"--hidden", "--no-ignore"};
  // Both forms: globs are relative to the root, so `**/x/**` alone misses a
  // root that is itself `x/`.
  for (const char* dir : kPrunedDirs) {
    flags.insert(flags.end(), {"--glob", std::string("!") + dir + "/**", "--glob",
                               std::string("!**/") + dir + "/**"});
  }
  return flags;
}

std::vector<Probe> probes_for(const SearchRequest& req) {
  std::vector<Probe> probes = {{{"-i"}, case_message}, {hidden_flags(), hidden_message}};
  if (req.pattern.find_first_of(kRegexMeta) != std::string::npos) {
    probes.push_back({{"-F"}, literal_message});
  }
  return probes;
}

std::vector<std::string> probe_argv(const Probe& probe, const SearchRequest& req,
                                    const std::vector<std::string>& roots, const std::string& rg) {
  std::vector<std::string> argv = {rg, "--no-config", "--null", "--count-matches"};
  argv.insert(argv.end(), probe.flags.begin(), probe.flags.end());
  if (pattern_has_newline(req.pattern)) argv.emplace_back("--multiline");
  if (req.file_glob) {
    auto glob = rg_glob_args(*req.file_glob);
    argv.insert(argv.end(), glob.begin(), glob.end());
  }
  argv.insert(argv.end(), {"-e", req.pattern, "--"});
  argv.insert(argv.end(), roots.begin(), roots.end());
  return argv;
}

// Runs one probe; returns its message when it found anything.
std::string run_probe(const Probe& probe, const SearchRequest& req,
                      const std::vector<std::string>& roots, const EngineEnv& env) {
  EngineEnv probe_env = env;
  probe_env.timeout = std::min(env.timeout, kProbeTimeout);
  PathFilter filter(env);
  std::vector<std::string> paths;
  int64_t total = 0;
  int records = 0;
  auto sink = [&](std::string_view record) {
    size_t nul = record.find('\0');
    int64_t n = 0;
    std::string_view count = nul == std::string_view::npos ? "" : record.substr(nul + 1);
    auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
    if (ec == std::errc() && n > 0 && !filter.drop(record.substr(0, nul))) {
      total += n;
      paths.emplace_back(record.substr(0, nul));
    }
    return ++records < kProbeRecords;
  };
  auto run = run_engine(probe_env, probe_argv(probe, req, roots, env.engines.rg), '\n', sink);
  if (!run || total == 0) return {};
  return probe.message(total, paths.size(), list_with_more(paths, 5));
}

}  // namespace

std::string zero_result_hint(const SearchRequest& req, const std::vector<std::string>& roots,
                             const EngineEnv& env) {
  if (env.engines.rg.empty()) return {};
  for (const Probe& probe : probes_for(req)) {
    std::string hint = run_probe(probe, req, roots, env);
    if (!hint.empty()) return hint;
  }
  return {};
}

std::vector<std::vector<std::string>> zero_probe_argvs(const SearchRequest& req,
                                                       const std::vector<std::string>& roots,
                                                       const std::string& rg) {
  std::vector<std::vector<std::string>> argvs;
  for (const Probe& probe : probes_for(req)) argvs.push_back(probe_argv(probe, req, roots, rg));
  return argvs;
}

}  // namespace hermes::search
