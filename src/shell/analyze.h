// SPDX-License-Identifier: MIT
// Reading a command as bash would run it, without running it: every simple
// command it would start (inside functions, aliases, substitutions, eval,
// `sh -c`, scripts fed to a shell, find -exec, xargs …) with its words
// expanded wherever their values are static. What cannot be known before
// the command runs is marked with kUnknown inside the text.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shell/ast.h"

namespace hermes::shell {

// Stands for text only known at run time ($RANDOM, $(curl …), `read` from a
// terminal …). Never part of a static value.
inline constexpr char kUnknown = '\x1a';

inline bool is_static(std::string_view text) {
  return text.find(kUnknown) == std::string_view::npos;
}

// What a shell session carries from one command to the next: variables,
// functions and aliases (a snapshot restored before each command), and the
// working directory ("." is the directory the command starts in).
struct Environment {
  std::map<std::string, std::string> vars;
  std::set<std::string> exported;
  std::map<std::string, NodePtr> functions;
  std::map<std::string, std::string> aliases;
  std::string cwd = ".";
  // The directory "." stands for, when the caller knows it ("" otherwise).
  std::string origin;
};

struct Input {
  enum class Kind { kInherited, kPipe, kFile, kHereDoc, kHereString };
  Kind kind = Kind::kInherited;
  // The bytes fed, when static (here-documents, `echo … |`, base64 -d …).
  std::optional<std::string> text;
  // Command words of the pipeline stage that feeds this one.
  std::vector<std::string> sources;
};

struct Output {
  int fd = 1;
  std::string op;      // > >> >| <> &> &>> >&
  std::string target;  // expanded path (or descriptor for >&)
};

// One simple command as it would be started.
struct Command {
  // Every word after expansion, wrappers included (`sudo -u x rm -rf d`).
  std::vector<std::string> argv;
  // Index of the command word behind wrappers (sudo, env, nice, command,
  // builtin, exec, nohup, timeout …); argv.size() when there is none.
  size_t word = 0;
  std::vector<std::pair<std::string, std::string>> env;  // NAME=value for this command
  std::vector<Output> outputs;
  Input input;
  std::string cwd = ".";
  bool background = false;
  // Stages of one pipeline share `pipeline`; `stage` counts from 0.
  int pipeline = 0;
  int stage = 0;
  int stages = 1;
  // How it was reached: "" (typed), "function f", "eval", "bash -c",
  // "stdin of bash", "find -exec", "xargs", "$(…)", "trap" …
  std::string via;

  std::string_view name() const;          // basename of argv[word], "" when none
  std::vector<std::string> args() const;  // argv after the command word
};

struct Analysis {
  std::vector<Command> commands;
  bool limit_exceeded = false;  // too large, deep or expansive to read
  bool syntax_error = false;    // bash would stop reading here too
  // A function that starts itself in the background or in a pipeline.
  bool fork_bomb = false;
  Environment env;  // the session's definitions after the command
};

struct Limits {
  size_t max_input = 256 * 1024;
  size_t max_commands = 1024;     // simple commands one call may start
  size_t max_steps = 50'000;      // commands evaluated, calls, loop rounds
  size_t max_value = 256 * 1024;  // bytes of one expanded value
  size_t max_fields = 4096;       // words one word may expand to
  int max_calls = 24;             // nested function calls / eval / sh -c
};

// The last path component of a command word (/usr/bin/rm → rm).
std::string_view base_name(std::string_view word);
// sh, bash, dash, zsh … : programs that read shell scripts.
bool is_shell_name(std::string_view name);

// Reads `command` in the context of `session`.
Analysis analyze(std::string_view command, const Environment& session = {},
                 const Limits& limits = {});

// The definitions a snapshot script (`export -p`, `declare -f`, `alias -p`
// output) leaves behind; nothing it would run is reported.
Environment load_snapshot(std::string_view script);

// `later`'s functions, aliases and exported variables over `base`.
void merge_definitions(Environment& base, const Environment& later);

}  // namespace hermes::shell
