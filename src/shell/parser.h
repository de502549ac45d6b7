// SPDX-License-Identifier: MIT
// A hand-written reader of bash's grammar. Input is hostile: every loop
// consumes input, nesting is depth-bounded, and a limit or a syntax error
// is an exception the caller turns into a verdict.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "shell/ast.h"

namespace hermes::shell {

// The input is larger, nests deeper or expands further than we read.
struct LimitExceeded : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bash would refuse it too (unterminated quote, stray `)`, …).
struct SyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr int kMaxNesting = 128;
inline constexpr size_t kMaxAliasSplices = 256;

// The value of an alias, or nullptr. Consulted when a command word is read,
// so aliases defined by earlier commands apply to later ones.
using AliasLookup = std::function<const std::string*(const std::string&)>;

struct Token;
enum class Mode;

class Parser {
 public:
  Parser(std::string_view text, AliasLookup aliases, int depth = 0);
  ~Parser();

  // The next complete command (an and-or list), nullptr at the end of the
  // input. `background` tells whether it ended with `&`.
  NodePtr next(bool& background);

 private:
  struct Pending;

  // Tokens.
  void skip_blanks();
  Token lex();
  const Token& peek();
  Token take();
  bool at_op(std::string_view op);
  bool at_word(std::string_view word);
  void expect_op(std::string_view op);
  void expect_word(std::string_view word);
  void skip_newlines();
  bool lex_operator(Token& t);
  void read_heredoc_bodies();
  std::string read_line();

  // Words.
  void read_parts(Word& w, Mode mode, bool quoted);
  void read_single_quote(Word& w);
  void read_ansi_c(Word& w);
  void read_dollar(Word& w, bool quoted);
  void read_backtick(Word& w, bool quoted);
  void read_process_subst(Word& w);
  NodePtr parse_substitution_body();
  size_t matching_close(size_t from, char open, char close) const;
  WordPart parse_param(std::string_view inner, bool quoted);
  Word sub_word(std::string_view text, Mode mode, bool quoted);
  NodePtr sub_program(std::string_view text);

  // Grammar.
  NodePtr parse_list(const std::vector<std::string_view>& terminators);
  bool at_terminator(const std::vector<std::string_view>& terminators);
  NodePtr parse_and_or();
  NodePtr parse_pipeline();
  NodePtr parse_command();
  NodePtr parse_compound();
  NodePtr parse_simple();
  NodePtr parse_if();
  NodePtr parse_loop();
  NodePtr parse_for();
  NodePtr parse_case();
  NodePtr parse_function(std::string name);
  NodePtr parse_arith_command();
  NodePtr parse_cond();
  void parse_redirect(Token op, std::vector<Redirect>& out);
  bool expand_alias(const Token& word);
  void read_array(Assignment& a);

  struct DepthGuard;

  std::string buf_;
  size_t pos_ = 0;
  int depth_ = 0;
  AliasLookup aliases_;
  size_t splices_ = 0;
  std::vector<std::pair<size_t, std::string>> expanded_;  // alias at position
  std::unique_ptr<Token> peeked_;
  std::vector<std::unique_ptr<Pending>> heredocs_;
};

// The whole of `text` as one kList node (function bodies, tests).
NodePtr parse_all(std::string_view text, AliasLookup aliases = {}, int depth = 0);

}  // namespace hermes::shell
