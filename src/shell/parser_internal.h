// SPDX-License-Identifier: MIT
// Pieces shared by the grammar (parser.cc) and word (parser_words.cc)
// halves of the reader.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "shell/ast.h"

namespace hermes::shell {

// Input (after alias substitution) beyond this is not read.
inline constexpr size_t kMaxInput = 1 << 20;

enum class Mode {
  kNormal,    // a command word: ends at an unquoted metacharacter
  kDouble,    // inside "…"
  kParamArg,  // an operand inside ${…}, [[ … ]] or (( …)): blanks are text
  kHeredoc,   // an unquoted here-document body
};

struct Token {
  enum Kind { kWord, kOp, kNewline, kEnd } kind = kEnd;
  std::string op;
  int fd = -1;  // `2>`: the descriptor before a redirection
  Word word;
  bool plain = false;  // only unquoted literal text (reserved words, names)
  std::string text;    // that text when plain
  size_t start = 0, end = 0;
};

bool is_name(std::string_view s);
bool is_redirect_op(std::string_view op);
// True (and the text) when the word is unquoted literal text only.
bool plain_text(const Word& w, std::string& text);
// The word's literal text with quotes removed (here-doc delimiters).
std::string unquoted_text(const Word& w);
Word literal_word(std::string text, bool quoted);
// `name=value` / `name+=value` at the start of a simple command.
std::optional<Assignment> split_assignment(const Token& t);

}  // namespace hermes::shell
