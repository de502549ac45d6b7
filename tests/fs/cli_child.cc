// SPDX-License-Identifier: MIT
#include "fs/cli_child.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace hermes::testing {
namespace {

std::vector<std::string> merged_env(const std::vector<std::string>& extra) {
  std::vector<std::string> out;
  for (char** e = environ; *e; ++e) {
    std::string entry = *e;
    bool replaced = false;
    for (const auto& x : extra)
      replaced |= entry.substr(0, entry.find('=') + 1) == x.substr(0, x.find('=') + 1);
    if (!replaced) out.push_back(entry);
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

std::string hermes_tools_bin() {
  const char* bin = std::getenv("HERMES_TOOLS_BIN");
  return bin && *bin ? bin : HERMES_TOOLS_PATH;
}

pid_t start_cli(const CliRun& run, const std::string& out_path) {
  std::string in_path = out_path + ".in";
  std::ofstream(in_path) << run.input;
  std::vector<std::string> argv = {hermes_tools_bin()};
  argv.insert(argv.end(), run.args.begin(), run.args.end());
  std::vector<std::string> envv = merged_env(run.env);
  auto argp = pointers(argv);
  auto envp = pointers(envv);
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  int in = ::open(in_path.c_str(), O_RDONLY);
  int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int null = ::open("/dev/null", O_WRONLY);
  if (in < 0 || out < 0 || null < 0 || ::chdir(run.cwd.c_str()) != 0) ::_exit(126);
  ::dup2(in, 0);
  ::dup2(out, 1);
  ::dup2(null, 2);
  ::execve(argp[0], argp.data(), envp.data());
  ::_exit(127);
}

std::string run_cli(const CliRun& run) {
  char tmpl[] = "/tmp/hermes-cli-out-XXXXXX";
  int fd = ::mkstemp(tmpl);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  ::close(fd);
  pid_t pid = start_cli(run, tmpl);
  int status = 0;
  ::waitpid(pid, &status, 0);
  std::stringstream text;
  text << std::ifstream(tmpl).rdbuf();
  ::unlink(tmpl);
  ::unlink((std::string(tmpl) + ".in").c_str());
  return text.str();
}

}  // namespace hermes::testing
