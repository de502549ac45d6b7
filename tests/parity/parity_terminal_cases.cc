// SPDX-License-Identifier: MIT
// Parity cases for the terminal: output, exit codes, cwd and env persisted
// between calls, timeouts, large output, and the file tools following the
// terminal's cwd.
#include "parity/parity_env.h"

namespace hermes::testing {
namespace {

Json steps(ParityEnv& e, std::initializer_list<std::string> commands) {
  Json out = Json::array();
  for (const auto& c : commands) out.push_back(e.terminal(c));
  return out;
}

}  // namespace

std::vector<ParityCase> terminal_cases() {
  return {
      {"term_echo", [](ParityEnv& e) { return e.terminal("echo hello"); }},
      {"term_exit_code",
       [](ParityEnv& e) {
         return steps(e, {"exit 3", "false", "(exit 42)"});
       }},
      {"term_exit_meaning",
       [](ParityEnv& e) {
         return steps(e, {"grep nothing /dev/null", "diff <(echo a) <(echo b)"});
       }},
      {"term_command_not_found", [](ParityEnv& e) { return e.terminal("no-such-cmd-hermes"); }},
      {"term_stderr_merged",
       [](ParityEnv& e) { return e.terminal("echo out; echo err >&2; echo out2"); }},
      {"term_pwd_default", [](ParityEnv& e) { return e.terminal("pwd"); }},
      {"term_cwd_persists",
       [](ParityEnv& e) {
         e.write("sub/deeper/f.txt", "x\n");
         return steps(e, {"cd sub", "pwd", "cd deeper && ls", "pwd"});
       }},
      {"term_cd_missing",
       [](ParityEnv& e) {
         return steps(e, {"cd does-not-exist", "pwd"});
       }},
      {"term_env_persists",
       [](ParityEnv& e) {
         return steps(e, {"export PARITY_A=alpha", "echo $PARITY_A", "unset PARITY_A",
                          "echo ${PARITY_A:-gone}"});
       }},
      {"term_function_alias_persist",
       [](ParityEnv& e) {
         return steps(e,
                      {"greet() { echo \"hi $1\"; }; alias ll='echo aliased'", "greet you", "ll"});
       }},
      {"term_exit_drops_snapshot",
       [](ParityEnv& e) {
         return steps(e, {"export LOST=1; exit 4", "echo ${LOST:-unset}"});
       }},
      {"term_workdir_arg",
       [](ParityEnv& e) {
         e.write("w/x.txt", "");
         return Json::array({e.call("terminal", {{"command", "pwd; ls"}, {"workdir", e.path("w")}}),
                             e.terminal("pwd")});
       }},
      {"term_workdir_missing",
       [](ParityEnv& e) {
         return e.call("terminal", {{"command", "pwd"}, {"workdir", e.path("absent")}});
       }},
      {"term_timeout",
       [](ParityEnv& e) {
         return e.call("terminal",
                       {{"command", "echo started; sleep 20; echo never"}, {"timeout", 1}});
       }},
      {"term_unicode_output",
       [](ParityEnv& e) { return e.terminal("printf 'caf\\xc3\\xa9 \\xe2\\x82\\xac \\xff'"); }},
      {"term_ansi_stripped",
       [](ParityEnv& e) { return e.terminal("printf '\\033[31mred\\033[0m'"); }},
      {"term_large_output", [](ParityEnv& e) { return e.terminal("seq 1 100000"); }},
      {"term_pipefail_and_pipes",
       [](ParityEnv& e) { return e.terminal("printf 'b\\na\\nc\\n' | sort | head -2"); }},
      {"term_heredoc", [](ParityEnv& e) { return e.terminal("cat <<'EOF'\nline $x\nEOF"); }},
      {"term_file_roundtrip",
       [](ParityEnv& e) {
         return Json::array({e.terminal("printf 'made by shell\\n' > shell.txt"),
                             e.call("read_file", {{"path", "shell.txt"}}), e.read("shell.txt")});
       }},
      {"term_cwd_followed_by_file_tools",
       [](ParityEnv& e) {
         e.write("proj/inner.txt", "inner\n");
         return Json::array({e.terminal("cd proj"), e.call("read_file", {{"path", "inner.txt"}}),
                             e.call("write_file", {{"path", "made.txt"}, {"content", "m\n"}}),
                             e.read("proj/made.txt")});
       }},
      {"term_quotes",
       [](ParityEnv& e) { return e.terminal("echo \"a 'b' \\\"c\\\" $((1+2))\" '$HOME'"); }},
      {"term_no_stdin", [](ParityEnv& e) { return e.terminal("cat; echo after"); }},
      {"term_tmp_roundtrip",
       [](ParityEnv& e) { return e.terminal("f=$(mktemp) && echo tmp > $f && cat $f && rm $f"); }},
  };
}

}  // namespace hermes::testing
