// SPDX-License-Identifier: MIT
// The attack corpus (attacks.jsonl): every file tool, V4A Add/Update/Move/
// Delete and the tools called from execute_code, each aimed at a guarded
// place through dangling links, links in parent directories, `..`, absolute
// paths and /proc magic links, against the real binary — once with the
// kernel's openat2 walk and once with the per-component fallback. An attack
// is refused when the call reports an error, nothing outside the workspace
// changed (every file, link and directory compared) and no canary leaked.
#include "fs/cli_child.h"
#include "json/json.h"
#include "testutil/jsonl.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

namespace hermes::testing {
namespace {

namespace fs = std::filesystem;

struct Attack {
  std::string name;
  bool root = false;
  bool safe_root = false;
  std::vector<std::string> setup;
  std::string call;  // JSON line with $R, $OUT, $HOME, $HERMES_HOME
  std::string expect;
};

std::vector<Attack> load_corpus() {
  std::vector<Attack> out;
  for (const Json& j :
       testing::read_jsonl(std::string(HERMES_SOURCE_DIR) + "/tests/fs/attacks.jsonl")) {
    out.push_back({j["name"], j["root"], j["safe_root"], j["setup"].get<std::vector<std::string>>(),
                   j["call"].dump(), j["expect"]});
  }
  return out;
}

// Every entry below `dir` but those below `except`: its kind and content or
// link text.
std::map<std::string, std::string> snapshot(const std::string& dir,
                                            const std::string& except = "") {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    if (!except.empty() && p.string().rfind(except, 0) == 0) continue;
    auto status = fs::symlink_status(p, ec);
    if (fs::is_symlink(status)) {
      out[p] = "link:" + fs::read_symlink(p, ec).string();
    } else if (fs::is_directory(status)) {
      out[p] = "dir";
    } else {
      std::stringstream text;
      text << std::ifstream(p).rdbuf();
      out[p] = "file:" + text.str();
    }
  }
  return out;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

class AttackCorpus : public ::testing::TestWithParam<const char*> {
 protected:
  // Runs one attack in a fresh world; returns a failure description or "".
  std::string run(const Attack& attack) {
    TempDir base;
    const std::string R = base.file("root"), OUT = base.file("outside"), HOME = base.file("home"),
                      HH = HOME + "/.hermes";
    for (const auto& d : {R, OUT, HOME + "/.ssh", HH}) fs::create_directories(d);
    std::string script = "set -e\nexport R='" + R + "' OUT='" + OUT + "' HOME='" + HOME +
                         "' HERMES_HOME='" + HH + "'\n";
    for (const auto& step : attack.setup) script += step + "\n";
    if (std::system(("/bin/sh -c '" + replace_all(script, "'", "'\\''") + "'").c_str()) != 0)
      return "setup failed";
    // The server's own checkpoint store is the one thing it writes there.
    const std::string store = HH + "/checkpoints";
    const auto outside_before = snapshot(OUT), home_before = snapshot(HOME, store);
    std::string call = attack.call;
    for (auto [from, to] :
         {std::pair{"$R", R}, {"$OUT", OUT}, {"$HOME", HOME}, {"$HERMES_HOME", HH}}) {
      call = replace_all(call, from, to);
    }
    CliRun cli;
    if (attack.root) cli.args = {"--root", R};
    cli.args.insert(cli.args.end(), {"call", "-"});
    cli.env = {"HOME=" + HOME, "HERMES_HOME=" + HH, std::string("HERMES_FS_WALK=") + GetParam()};
    if (attack.safe_root) cli.env.push_back("HERMES_WRITE_SAFE_ROOT=" + R);
    cli.cwd = R;
    cli.input = call + "\n";
    const std::string output = run_cli(cli);
    if (output.empty()) return "no output";
    if (snapshot(OUT) != outside_before)
      return "ESCAPE: the outside directory changed; output: " + output;
    if (snapshot(HOME, store) != home_before)
      return "ESCAPE: the home directory changed; output: " + output;
    if (attack.expect == "inside") {
      return output.find("\"error\"") == std::string::npos
                 ? ""
                 : "refused a link inside the root: " + output;
    }
    if (output.find("CANARY") != std::string::npos) return "LEAK: the canary was read: " + output;
    if (output.find("error") == std::string::npos) return "not refused: " + output;
    return "";
  }
};

TEST_P(AttackCorpus, EveryAttemptIsRefusedAndNothingOutsideChanges) {
  const auto corpus = load_corpus();
  ASSERT_GE(corpus.size(), 60u);
  int refused = 0;
  for (const auto& attack : corpus) {
    std::string failure = run(attack);
    EXPECT_EQ(failure, "") << attack.name;
    if (failure.empty() && attack.expect == "refused") ++refused;
  }
  RecordProperty("refused", refused);
}

INSTANTIATE_TEST_SUITE_P(Walks, AttackCorpus, ::testing::Values("openat2", "components"),
                         [](const auto& walk) { return std::string(walk.param); });

}  // namespace
}  // namespace hermes::testing
