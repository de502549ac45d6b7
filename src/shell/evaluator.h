// SPDX-License-Identifier: MIT
// The evaluator behind analyze(): walks the tree as bash would run it,
// recording simple commands and tracking what it can know statically.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "shell/analyze.h"
#include "shell/ast.h"

namespace hermes::shell {

// Where a command runs: its stdin, the redirections of enclosing compound
// commands, its pipeline position and how it was reached.
struct Context {
  bool background = false;
  Input input;
  std::vector<Output> outputs;
  int pipeline = 0;
  int stage = 0;
  int stages = 1;
  std::string via;
};

// Text pieces of an expanded word before field splitting.
struct Piece {
  std::string text;
  bool split = false;        // an unquoted expansion: split at IFS
  bool quoted = false;       // keeps an empty field alive
  bool field_break = false;  // between the words of "$@"
};

class Evaluator {
 public:
  Evaluator(Analysis& out, const Limits& limits) : out_(out), limits_(limits) {}

  void run_script(std::string_view text, const Context& ctx);

  Environment& env() { return out_.env; }

 private:
  // Evaluation; each returns the command's stdout when static.
  std::optional<std::string> run(const NodePtr& node, const Context& ctx);
  std::optional<std::string> run_list(const Node& node, const Context& ctx);
  std::optional<std::string> run_pipeline(const Node& node, const Context& ctx);
  std::optional<std::string> run_simple(const Node& node, const Context& ctx);
  std::optional<std::string> run_for(const Node& node, const Context& ctx);
  std::optional<std::string> run_argv(
      std::vector<std::string> argv, Context ctx,
      std::vector<std::pair<std::string, std::string>> prefix_env = {});
  // `body` by value: a function that redefines itself while it runs would
  // otherwise free the node being walked.
  std::optional<std::string> call_function(const std::string& name, NodePtr body,
                                           const std::vector<std::string>& args,
                                           const Context& ctx);
  void run_nested(const std::string& text, const Context& ctx, const std::string& via,
                  std::vector<std::string> positional, bool subshell);
  Context with_redirects(const std::vector<Redirect>& redirects, Context ctx);
  void step();

  // Builtins that change the session, and commands that start others.
  bool run_builtin(const std::vector<std::string>& argv, const Context& ctx,
                   std::optional<std::string>& output);
  void run_runners(const Command& cmd, const Context& ctx);
  void assign(const std::string& name, std::string value);
  void declare(const std::vector<std::string>& args, bool export_all);
  void read_builtin(const std::vector<std::string>& args, const Context& ctx);
  void change_directory(const std::vector<std::string>& args);

  // Expansion (expand.cc).
  std::vector<std::string> expand_words(const std::vector<Word>& words);
  std::vector<std::string> expand_fields(const Word& word);
  std::string expand_string(const Word& word);
  void expand_parts(const Word& word, std::vector<Piece>& out);
  void expand_param(const WordPart& part, std::vector<Piece>& out);
  std::string param_value(const WordPart& part);
  std::optional<std::string> lookup(const std::string& name);
  std::string substitute(const WordPart& part);
  std::vector<std::string> split_fields(const std::vector<Piece>& pieces);
  std::string checked(std::string value);

  Analysis& out_;
  const Limits& limits_;
  std::vector<std::string> positional_;
  std::string arg0_ = "bash";
  std::vector<std::string> calls_;  // function call stack
  std::vector<bool> call_spawns_;   // each call started in the background / a pipeline
  int nesting_ = 0;
  size_t steps_ = 0;
  int next_pipeline_ = 1;
};

// Brace expansion of the unquoted text of a word (expand.cc).
std::vector<Word> brace_expand(const Word& word, size_t max_fields);

// A glob pattern test (fnmatch), for ${x#pat}, case arms, ${x/pat/rep}.
bool glob_match(const std::string& pattern, const std::string& text);

// stdout of commands whose output is static (static_output.cc).
std::optional<std::string> static_output(const std::vector<std::string>& argv,
                                         const std::optional<std::string>& input);
// printf's formatting, for `printf` and `printf -v`.
std::string format_printf(const std::vector<std::string>& args);

// Index of the command word behind wrappers, argv.size() when none
// (runners.cc). `env` receives the NAME=value operands of env.
size_t command_word(const std::vector<std::string>& argv,
                    std::vector<std::pair<std::string, std::string>>& env);

}  // namespace hermes::shell
