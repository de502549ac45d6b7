// SPDX-License-Identifier: MIT
// search_files against the same rg command line run directly, in one run, on
// a generated tree (bench/gen_tree.py: ~2,000 files, 20 MB): a literal, a
// regex, a no-match and a files search, natively and through the portable
// (shell) path; each pair timed in alternation.
#include "core/config.h"
#include "core/paths.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "tools/search_files/content_engine.h"
#include "tools/search_files/file_engine.h"
#include "tools/search_files/search_files.h"
#include "tools/search_files/search_process.h"
#include "tools/search_files/zero_probes.h"

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

extern char** environ;

namespace hermes {
namespace {

// The generated tree, made once per process and removed at exit.
struct Tree {
  std::string dir;
  Tree() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "search-bench-XXXXXX").string();
    dir = ::mkdtemp(tmpl.data());
    std::vector<std::string> argv = {search::find_executable("python3"),
                                     HERMES_SOURCE_DIR "/bench/gen_tree.py", dir};
    auto run = search::run_records({.argv = argv}, [](std::string_view) { return true; });
    if (!run || run->exit_code != 0) std::abort();
  }
  ~Tree() { std::filesystem::remove_all(dir); }
};

const Tree& tree() {
  static Tree instance;
  return instance;
}

// A session as the MCP server gives one, whose cwd is the tree; `portable`
// sends every search through shell commands run by the local backend.
struct ToolRig {
  std::unique_ptr<Config> config = Config::from_yaml("", "/nonexistent-hermes-home");
  PathResolver paths;
  registry::Services services{*config, paths};
  registry::Registry registry;
  registry::Dispatcher dispatcher{registry, services};
  registry::Session session{"bench"};
  registry::NullClientChannel client;
  registry::CallContext ctx{session, services, client, dispatcher, {}, Json()};
  explicit ToolRig(bool portable) {
    if (portable) config->set_override("terminal.portable_files", "true");
    search::register_search_files(registry);
    session.set_cwd(tree().dir);
  }
  Json call(const Json& args) {
    session.notify_other_tool_call();  // keep the loop guard out of the way
    return registry::invoke_tool(registry.all().front(), args, ctx).value;
  }
};

// Runs `argv` in the tree with stdout read to EOF, as a shell would.
void run_direct(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) std::abort();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addchdir_np(&actions, tree().dir.c_str());
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) std::abort();
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  char buf[65536];
  while (::read(fds[0], buf, sizeof buf) > 0) {
  }
  ::close(fds[0]);
  int status;
  ::waitpid(pid, &status, 0);
}

struct Case {
  Json args;
  search::SearchRequest req;
  bool with_probes = false;  // also run the zero-result probes' command lines
  bool portable = false;     // the tool through the portable (shell) path
};

Case content_case(const std::string& pattern) {
  return {{{"pattern", pattern}}, search::SearchRequest{.pattern = pattern}};
}

std::vector<std::vector<std::string>> direct_argvs(const Case& c) {
  const std::string rg = search::find_executable("rg");
  if (c.req.target == search::Target::kFiles) {
    return {search::rg_files_argv(search::prepare_file_glob(c.req.pattern, true), {"."}, rg)};
  }
  std::vector<std::vector<std::string>> argvs = {search::rg_content_argv(c.req, {"."}, rg)};
  if (c.with_probes) {
    for (auto& argv : search::zero_probe_argvs(c.req, {"."}, rg)) argvs.push_back(argv);
  }
  return argvs;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Times the tool and the direct rg lines in alternation, so load drift on a
// shared machine hits both alike; reports both medians and the overhead.
void BM_ToolVsRg(benchmark::State& state, Case c) {
  ToolRig rig(c.portable);
  auto argvs = direct_argvs(c);
  std::vector<double> tool_ms, rg_ms;
  auto timed = [](auto&& fn) {
    auto start = std::chrono::steady_clock::now();
    fn();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  auto tool = [&] { benchmark::DoNotOptimize(rig.call(c.args)); };
  auto direct = [&] {
    for (const auto& argv : argvs) run_direct(argv);
  };
  for (auto _ : state) {
    bool tool_first = tool_ms.size() % 2 == 0;
    if (tool_first) tool_ms.push_back(timed(tool));
    rg_ms.push_back(timed(direct));
    if (!tool_first) tool_ms.push_back(timed(tool));
  }
  double tool_median = median(tool_ms), rg_median = median(rg_ms);
  state.counters["tool_ms"] = tool_median;
  state.counters["rg_ms"] = rg_median;
  state.counters["overhead_pct"] = 100.0 * (tool_median / rg_median - 1.0);
}

Case files_case(const char* order) {
  Case c{{{"pattern", "*.py"}, {"target", "files"}, {"order", order}},
         search::SearchRequest{.pattern = "*.py", .target = search::Target::kFiles}};
  return c;
}

Case nomatch_with_probes() {
  Case c = content_case("zzq_absent_token");
  c.with_probes = true;
  return c;
}

Case portable(Case c) {
  c.portable = true;
  return c;
}

#define SEARCH_PAIR(name, make) \
  BENCHMARK_CAPTURE(BM_ToolVsRg, name, make)->Unit(benchmark::kMillisecond)->Iterations(41)

SEARCH_PAIR(literal, content_case("needle_literal"));
SEARCH_PAIR(regex, content_case("fn_[a-z]+_\\d{3}\\("));
SEARCH_PAIR(nomatch, content_case("zzq_absent_token"));
SEARCH_PAIR(nomatch_vs_rg_plus_probes, nomatch_with_probes());
SEARCH_PAIR(files_newest_first, files_case("modified"));
SEARCH_PAIR(files_discovery, files_case("discovery"));
SEARCH_PAIR(portable_literal, portable(content_case("needle_literal")));
SEARCH_PAIR(portable_nomatch_vs_rg_plus_probes, portable(nomatch_with_probes()));
SEARCH_PAIR(portable_files_newest_first, portable(files_case("modified")));

}  // namespace
}  // namespace hermes

BENCHMARK_MAIN();
