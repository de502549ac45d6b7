// SPDX-License-Identifier: MIT
// The grammar half of the reader: tokens, compound commands, simple
// commands, redirections and aliases. Words are in parser_words.cc.
#include "shell/parser.h"

#include <algorithm>

#include "shell/parser_internal.h"

namespace hermes::shell {

struct Parser::Pending {
  std::string delimiter;
  bool strip_tabs = false;
  std::shared_ptr<HereDoc> doc;
};

struct Parser::DepthGuard {
  explicit DepthGuard(Parser& p) : p_(p) {
    if (++p_.depth_ > kMaxNesting) throw LimitExceeded("nesting too deep");
  }
  ~DepthGuard() { --p_.depth_; }
  Parser& p_;
};

Parser::Parser(std::string_view text, AliasLookup aliases, int depth)
    : buf_(text), depth_(depth), aliases_(std::move(aliases)) {
  if (depth_ > kMaxNesting) throw LimitExceeded("nesting too deep");
}

Parser::~Parser() = default;

// ---- tokens ---------------------------------------------------------------

void Parser::skip_blanks() {
  while (pos_ < buf_.size()) {
    char c = buf_[pos_];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '\\' && pos_ + 1 < buf_.size() && buf_[pos_ + 1] == '\n') {
      pos_ += 2;
    } else if (c == '#') {
      while (pos_ < buf_.size() && buf_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

bool Parser::lex_operator(Token& t) {
  static constexpr std::string_view kOps[] = {";;&", "&>>", "<<<", "<<-", ";;", ";&", "&&", "||",
                                              "|&",  "&>",  "<<",  "<>",  "<&", ">&", ">>", ">|",
                                              "<",   ">",   "|",   "&",   ";",  "(",  ")"};
  std::string_view rest = std::string_view(buf_).substr(pos_);
  if (rest.size() >= 2 && (rest[0] == '<' || rest[0] == '>') && rest[1] == '(') return false;
  for (std::string_view op : kOps) {
    if (rest.substr(0, op.size()) == op) {
      t.kind = Token::kOp;
      t.op = op;
      pos_ += op.size();
      return true;
    }
  }
  return false;
}

Token Parser::lex() {
  skip_blanks();
  Token t;
  t.start = pos_;
  if (pos_ >= buf_.size()) {
    read_heredoc_bodies();
    t.kind = Token::kEnd;
  } else if (buf_[pos_] == '\n') {
    ++pos_;
    t.kind = Token::kNewline;
    read_heredoc_bodies();
  } else if (!lex_operator(t)) {
    t.kind = Token::kWord;
    read_parts(t.word, Mode::kNormal, false);
    if (pos_ == t.start) throw SyntaxError("unexpected character");
    t.plain = plain_text(t.word, t.text);
    // `2>file`: a number right before a redirection is its descriptor.
    if (t.plain && !t.text.empty() && t.text.size() < 4 &&
        std::all_of(t.text.begin(), t.text.end(), ::isdigit) && pos_ < buf_.size() &&
        (buf_[pos_] == '<' || buf_[pos_] == '>')) {
      Token op;
      if (lex_operator(op)) {
        op.fd = std::stoi(t.text);
        op.start = t.start;
        op.end = pos_;
        return op;
      }
    }
  }
  t.end = pos_;
  return t;
}

const Token& Parser::peek() {
  if (!peeked_) peeked_ = std::make_unique<Token>(lex());
  return *peeked_;
}

Token Parser::take() {
  peek();
  Token t = std::move(*peeked_);
  peeked_.reset();
  return t;
}

bool Parser::at_op(std::string_view op) {
  const Token& t = peek();
  return t.kind == Token::kOp && t.op == op;
}

bool Parser::at_word(std::string_view word) {
  const Token& t = peek();
  return t.kind == Token::kWord && t.plain && t.text == word;
}

void Parser::expect_op(std::string_view op) {
  if (!at_op(op)) throw SyntaxError("expected " + std::string(op));
  take();
}

void Parser::expect_word(std::string_view word) {
  if (!at_word(word)) throw SyntaxError("expected " + std::string(word));
  take();
}

void Parser::skip_newlines() {
  while (peek().kind == Token::kNewline) take();
}

std::string Parser::read_line() {
  size_t end = buf_.find('\n', pos_);
  std::string line = buf_.substr(pos_, end == std::string::npos ? std::string::npos : end - pos_);
  pos_ = end == std::string::npos ? buf_.size() : end + 1;
  return line;
}

void Parser::read_heredoc_bodies() {
  std::vector<std::unique_ptr<Pending>> pending = std::move(heredocs_);
  heredocs_.clear();
  for (auto& p : pending) {
    std::string body;
    while (pos_ < buf_.size()) {
      std::string line = read_line();
      if (p->strip_tabs) line.erase(0, line.find_first_not_of('\t'));
      if (line == p->delimiter) break;
      body += line + "\n";
    }
    p->doc->body = p->doc->quoted ? literal_word(body, true) : sub_word(body, Mode::kHeredoc, true);
  }
}

// ---- grammar --------------------------------------------------------------

bool Parser::at_terminator(const std::vector<std::string_view>& terminators) {
  const Token& t = peek();
  if (t.kind == Token::kEnd) return true;
  for (std::string_view term : terminators) {
    if ((t.kind == Token::kOp && t.op == term) ||
        (t.kind == Token::kWord && t.plain && t.text == term)) {
      return true;
    }
  }
  return false;
}

NodePtr Parser::parse_list(const std::vector<std::string_view>& terminators) {
  DepthGuard guard(*this);
  auto list = std::make_shared<Node>();
  list->kind = Node::Kind::kList;
  for (;;) {
    skip_newlines();
    if (at_terminator(terminators)) break;
    list->children.push_back(parse_and_or());
    if (at_op(";") || at_op("&")) {
      list->ops.push_back(take().op);
    } else if (peek().kind == Token::kNewline) {
      list->ops.push_back(";");
    } else if (at_terminator(terminators)) {
      list->ops.push_back(";");
      break;
    } else {
      throw SyntaxError("unexpected token");
    }
  }
  return list;
}

NodePtr Parser::next(bool& background) {
  background = false;
  skip_newlines();
  if (peek().kind == Token::kEnd) return nullptr;
  NodePtr node = parse_and_or();
  if (at_op("&")) {
    take();
    background = true;
  } else if (at_op(";")) {
    take();
  } else if (peek().kind != Token::kNewline && peek().kind != Token::kEnd) {
    throw SyntaxError("unexpected token");
  }
  return node;
}

NodePtr Parser::parse_and_or() {
  NodePtr first = parse_pipeline();
  if (!at_op("&&") && !at_op("||")) return first;
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kAndOr;
  node->children.push_back(first);
  while (at_op("&&") || at_op("||")) {
    node->ops.push_back(take().op);
    skip_newlines();
    node->children.push_back(parse_pipeline());
  }
  return node;
}

NodePtr Parser::parse_pipeline() {
  DepthGuard guard(*this);
  bool negated = false;
  for (;;) {
    if (at_word("!")) {
      take();
      negated = !negated;
    } else if (at_word("time")) {
      take();
      if (at_word("-p")) take();
    } else {
      break;
    }
  }
  NodePtr first = parse_command();
  if (!at_op("|") && !at_op("|&") && !negated) return first;
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kPipeline;
  node->negated = negated;
  node->children.push_back(first);
  while (at_op("|") || at_op("|&")) {
    take();
    skip_newlines();
    node->children.push_back(parse_command());
  }
  return node;
}

NodePtr Parser::parse_command() {
  DepthGuard guard(*this);
  NodePtr compound = parse_compound();
  if (!compound) return parse_simple();
  std::vector<Redirect> redirects;
  while (peek().kind == Token::kOp && is_redirect_op(peek().op)) parse_redirect(take(), redirects);
  if (redirects.empty()) return compound;
  auto with = std::make_shared<Node>(*compound);
  for (Redirect& r : redirects) with->redirects.push_back(std::move(r));
  return with;
}

NodePtr Parser::parse_compound() {
  if (at_op("(")) {
    if (pos_ < buf_.size() && buf_[pos_] == '(') return parse_arith_command();
    take();
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::kSubshell;
    node->children.push_back(parse_list({")"}));
    expect_op(")");
    return node;
  }
  const Token& t = peek();
  if (t.kind != Token::kWord || !t.plain) return nullptr;
  if (t.text == "{") {
    take();
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::kGroup;
    node->children.push_back(parse_list({"}"}));
    expect_word("}");
    return node;
  }
  if (t.text == "if") return parse_if();
  if (t.text == "while" || t.text == "until") return parse_loop();
  if (t.text == "for" || t.text == "select") return parse_for();
  if (t.text == "case") return parse_case();
  if (t.text == "[[") return parse_cond();
  if (t.text == "function") {
    take();
    Token name = take();
    if (name.kind != Token::kWord || !name.plain) throw SyntaxError("function name");
    if (at_op("(")) {
      take();
      expect_op(")");
    }
    return parse_function(name.text);
  }
  return nullptr;
}

NodePtr Parser::parse_if() {
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kIf;
  take();  // if / elif
  for (;;) {
    node->children.push_back(parse_list({"then"}));
    expect_word("then");
    node->children.push_back(parse_list({"elif", "else", "fi"}));
    if (at_word("elif")) {
      take();
      continue;
    }
    if (at_word("else")) {
      take();
      node->children.push_back(parse_list({"fi"}));
    }
    expect_word("fi");
    return node;
  }
}

NodePtr Parser::parse_loop() {
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kLoop;
  node->name = take().text;
  node->children.push_back(parse_list({"do"}));
  expect_word("do");
  node->children.push_back(parse_list({"done"}));
  expect_word("done");
  return node;
}

NodePtr Parser::parse_for() {
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kFor;
  take();
  if (at_op("(") && pos_ < buf_.size() && buf_[pos_] == '(') {
    NodePtr arith = parse_arith_command();
    node->name = "";
    node->children.push_back(arith);
  } else {
    Token name = take();
    if (name.kind != Token::kWord || !name.plain) throw SyntaxError("for variable");
    node->name = name.text;
    skip_newlines();
    if (at_word("in")) {
      take();
      node->for_in = true;
      while (peek().kind == Token::kWord) node->words.push_back(take().word);
    }
  }
  if (at_op(";")) take();
  skip_newlines();
  if (at_word("{")) {
    take();
    node->children.push_back(parse_list({"}"}));
    expect_word("}");
    return node;
  }
  expect_word("do");
  node->children.push_back(parse_list({"done"}));
  expect_word("done");
  return node;
}

NodePtr Parser::parse_case() {
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kCase;
  take();
  Token subject = take();
  if (subject.kind != Token::kWord) throw SyntaxError("case subject");
  node->words.push_back(subject.word);
  skip_newlines();
  expect_word("in");
  for (;;) {
    skip_newlines();
    if (at_word("esac")) break;
    if (at_op("(")) take();
    std::vector<Word> patterns;
    for (;;) {
      Token p = take();
      if (p.kind != Token::kWord) throw SyntaxError("case pattern");
      patterns.push_back(p.word);
      if (!at_op("|")) break;
      take();
    }
    expect_op(")");
    node->patterns.push_back(std::move(patterns));
    node->children.push_back(parse_list({";;", ";&", ";;&", "esac"}));
    if (at_op(";;") || at_op(";&") || at_op(";;&")) take();
  }
  expect_word("esac");
  return node;
}

NodePtr Parser::parse_function(std::string name) {
  skip_newlines();
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kFunction;
  node->name = std::move(name);
  node->children.push_back(parse_command());
  return node;
}

// `(( expr))`: the expression is kept as a word so substitutions in it
// are still seen.
NodePtr Parser::parse_arith_command() {
  size_t start = peek().start;  // the `(` was peeked: restart at it
  peeked_.reset();
  pos_ = start;
  size_t close = matching_close(pos_, '(', ')');
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kArith;
  node->words.push_back(
      sub_word(std::string_view(buf_).substr(pos_ + 2, close - pos_ - 3), Mode::kParamArg, true));
  pos_ = close + 1;
  return node;
}

// `[[ … ]]`: read as one word up to the closing `]]` (its `<`, `>`, `&&`
// are operands, not shell operators).
NodePtr Parser::parse_cond() {
  take();
  size_t end = pos_;
  for (;; ++end) {
    end = buf_.find("]]", end);
    if (end == std::string::npos) throw SyntaxError("unterminated [[");
    bool before = end == 0 || std::isspace(static_cast<unsigned char>(buf_[end - 1]));
    char after = end + 2 < buf_.size() ? buf_[end + 2] : ' ';
    if (before && (std::isspace(static_cast<unsigned char>(after)) || after == ';' ||
                   after == '&' || after == '|' || after == ')')) {
      break;
    }
  }
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kSimple;
  node->words.push_back(literal_word("[[", false));
  node->words.push_back(
      sub_word(std::string_view(buf_).substr(pos_, end - pos_), Mode::kParamArg, false));
  node->words.push_back(literal_word("]]", false));
  pos_ = end + 2;
  return node;
}

void Parser::parse_redirect(Token op, std::vector<Redirect>& out) {
  Token target = take();
  if (target.kind != Token::kWord) throw SyntaxError("redirection target");
  Redirect r;
  r.fd = op.fd;
  r.op = op.op;
  r.target = target.word;
  if (r.op == "<<" || r.op == "<<-") {
    auto pending = std::make_unique<Pending>();
    pending->doc = std::make_shared<HereDoc>();
    pending->doc->quoted = !target.plain;
    pending->delimiter = unquoted_text(target.word);
    pending->strip_tabs = r.op == "<<-";
    r.heredoc = pending->doc;
    heredocs_.push_back(std::move(pending));
  }
  out.push_back(std::move(r));
}

// Bash substitutes an alias's text for the command word and reads on.
bool Parser::expand_alias(const Token& word) {
  if (!aliases_ || !word.plain) return false;
  const std::string* value = aliases_(word.text);
  if (!value) return false;
  auto key = std::make_pair(word.start, word.text);
  if (std::find(expanded_.begin(), expanded_.end(), key) != expanded_.end()) return false;
  if (++splices_ > kMaxAliasSplices || buf_.size() + value->size() > kMaxInput) {
    throw LimitExceeded("alias expansion");
  }
  expanded_.push_back(key);
  buf_.replace(word.start, word.end - word.start, *value);
  pos_ = word.start;
  peeked_.reset();
  return true;
}

void Parser::read_array(Assignment& a) {
  size_t close = matching_close(pos_, '(', ')');
  a.array = true;
  a.value =
      sub_word(std::string_view(buf_).substr(pos_ + 1, close - pos_ - 1), Mode::kParamArg, false);
  pos_ = close + 1;
  peeked_.reset();
}

NodePtr Parser::parse_simple() {
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kSimple;
  for (;;) {
    const Token& t = peek();
    if (t.kind == Token::kOp && is_redirect_op(t.op)) {
      parse_redirect(take(), node->redirects);
      continue;
    }
    if (t.kind != Token::kWord) break;
    if (node->words.empty()) {
      if (auto a = split_assignment(t)) {
        Token taken = take();
        if (a->value.parts.empty() && !peeked_ && pos_ < buf_.size() && buf_[pos_] == '(') {
          read_array(*a);
        }
        node->assigns.push_back(std::move(*a));
        continue;
      }
      if (expand_alias(t)) continue;
    }
    Token word = take();
    // `local a=( …)`: an array operand of a declaration builtin.
    if (word.plain && word.text.size() > 1 && word.text.back() == '=' && pos_ < buf_.size() &&
        buf_[pos_] == '(' && split_assignment(word)) {
      size_t close = matching_close(pos_, '(', ')');
      word.word.parts.back().text += buf_.substr(pos_, close + 1 - pos_);
      pos_ = close + 1;
      node->words.push_back(std::move(word.word));
      continue;
    }
    if (node->words.empty() && node->assigns.empty() && word.plain && at_op("(")) {
      take();
      expect_op(")");
      return parse_function(word.text);
    }
    node->words.push_back(std::move(word.word));
  }
  if (node->words.empty() && node->assigns.empty() && node->redirects.empty()) {
    throw SyntaxError("expected a command");
  }
  return node;
}

NodePtr parse_all(std::string_view text, AliasLookup aliases, int depth) {
  Parser parser(text, std::move(aliases), depth);
  auto list = std::make_shared<Node>();
  list->kind = Node::Kind::kList;
  bool background = false;
  while (NodePtr node = parser.next(background)) {
    list->children.push_back(node);
    list->ops.push_back(background ? "&" : ";");
  }
  return list;
}

}  // namespace hermes::shell
