// SPDX-License-Identifier: MIT
#include "tools/execute_code/interpreter.h"

#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <map>

namespace hermes::execute_code {
namespace {

using hermes::testing::TempDir;

std::string make_executable(const TempDir& dir, const std::string& relative) {
  std::string path = dir.write(relative, "#!/bin/sh\n");
  ::chmod(path.c_str(), 0755);
  return path;
}

auto env_of(std::map<std::string, std::string> vars) {
  return [vars](const char* name) {
    auto it = vars.find(name);
    return it == vars.end() ? std::string() : it->second;
  };
}

TEST(Interpreter, ModesParse) {
  EXPECT_EQ(parse_mode("strict").mode, ExecMode::kStrict);
  EXPECT_TRUE(parse_mode("project").valid);
  ParsedMode bad = parse_mode("Strict");
  EXPECT_FALSE(bad.valid);
  EXPECT_EQ(bad.mode, ExecMode::kProject);
}

TEST(Interpreter, SystemPythonIsFound) {
  std::string python = system_python();
  ASSERT_FALSE(python.empty());
  EXPECT_TRUE(probe_python(python));
}

TEST(Interpreter, ProbeRejectsNonPython) {
  EXPECT_FALSE(probe_python("/bin/false"));
  EXPECT_FALSE(probe_python("/nonexistent/python"));
}

TEST(Interpreter, ProjectPrefersAVirtualenvThatPassesTheProbe) {
  TempDir venv;
  std::string python = make_executable(venv, "bin/python");
  auto yes = [](const std::string&) { return true; };
  EXPECT_EQ(choose_interpreter(ExecMode::kProject, env_of({{"VIRTUAL_ENV", venv.path()}}), yes),
            python);
  EXPECT_EQ(choose_interpreter(ExecMode::kStrict, env_of({{"VIRTUAL_ENV", venv.path()}}), yes),
            system_python());
}

TEST(Interpreter, FailedProbeFallsBackWithoutTryingLaterCandidates) {
  TempDir venv, conda;
  make_executable(venv, "bin/python3");
  make_executable(conda, "bin/python");
  std::vector<std::string> probed;
  auto no = [&](const std::string& p) {
    probed.push_back(p);
    return false;
  };
  EXPECT_EQ(choose_interpreter(
                ExecMode::kProject,
                env_of({{"VIRTUAL_ENV", venv.path()}, {"CONDA_PREFIX", conda.path()}}), no),
            system_python());
  EXPECT_EQ(probed, std::vector<std::string>{venv.path() + "/bin/python3"});
}

TEST(Interpreter, CondaIsUsedWhenNoVirtualenv) {
  TempDir conda;
  std::string python = make_executable(conda, "bin/python3");
  auto yes = [](const std::string&) { return true; };
  EXPECT_EQ(choose_interpreter(
                ExecMode::kProject,
                env_of({{"VIRTUAL_ENV", "/nonexistent"}, {"CONDA_PREFIX", conda.path()}}), yes),
            python);
}

TEST(Interpreter, FindOnPathSkipsRelativeAndMissingEntries) {
  TempDir dir;
  std::string tool = make_executable(dir, "bin/tool");
  EXPECT_EQ(find_on_path("tool", ".:/nonexistent::" + dir.path() + "/bin"), tool);
  EXPECT_EQ(find_on_path("tool", "/nonexistent"), "");
}

}  // namespace
}  // namespace hermes::execute_code
