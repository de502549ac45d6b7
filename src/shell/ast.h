// SPDX-License-Identifier: MIT
// The syntax tree of a shell command as bash reads it: words made of
// literal, quoted and expansion parts, simple commands with assignments and
// redirections, and the compound forms (pipelines, lists, groups, loops,
// case, functions).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hermes::shell {

struct Node;
using NodePtr = std::shared_ptr<const Node>;
struct WordPart;

struct Word {
  std::vector<WordPart> parts;
};

struct WordPart {
  enum class Kind {
    kLiteral,       // text
    kParam,         // $name, ${name op args}
    kCommandSubst,  // $(body) or `body`
    kProcessSubst,  // <(body) or >(body)
    kArith,         // $((text))
  };
  Kind kind = Kind::kLiteral;
  // Inside quotes (or escaped): no brace expansion, splitting or tilde.
  bool quoted = false;
  // kLiteral: the text; kParam: the parameter name; kArith: the expression.
  std::string text;
  // kParam: "" (plain), ":-", "-", ":=", "=", ":+", "+", ":?", "?", "#",
  // "##", "%", "%%", "/", "//", "/#", "/%", "^", "^^", ",", ",,", ":"
  // (slice), "len" (${#name}), "!" (indirect), "?op" (unsupported).
  std::string op;
  std::vector<Word> args;
  NodePtr body;  // substitutions
};

struct HereDoc {
  bool quoted = false;  // a quoted delimiter: the body is not expanded
  Word body;
};

struct Redirect {
  int fd = -1;                       // -1: the operator's default
  std::string op;                    // < > >> >| <> >& <& &> &>> << <<- <<<
  Word target;                       // file, fd or here-string word
  std::shared_ptr<HereDoc> heredoc;  // << and <<-
};

struct Assignment {
  std::string name;
  bool append = false;  // name+=value
  bool array = false;   // name=( …): not evaluated
  Word value;
};

struct Node {
  enum class Kind {
    kSimple,    // assigns, words, redirects
    kPipeline,  // children; negated
    kAndOr,     // children joined by ops ("&&" / "||")
    kList,      // children; ops[i] is ";" or "&" after child i
    kSubshell,  // children[0]
    kGroup,     // children[0]
    kIf,        // children: cond, then, [cond, then]…, [else]
    kLoop,      // while/until: children[0] cond, children[1] body
    kFor,       // name, words (items; none = "$@"), children[0] body
    kCase,      // words[0] subject, arms: patterns[i] → children[i]
    kFunction,  // name, children[0] body
    kArith,     // (( text)) / for (())
  };
  Kind kind = Kind::kSimple;
  std::vector<Assignment> assigns;
  std::vector<Word> words;
  std::vector<Redirect> redirects;
  std::vector<NodePtr> children;
  std::vector<std::string> ops;
  std::vector<std::vector<Word>> patterns;
  std::string name;
  bool negated = false;
  bool for_in = false;  // kFor: an explicit `in` list
};

}  // namespace hermes::shell
