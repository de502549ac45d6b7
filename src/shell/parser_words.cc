// SPDX-License-Identifier: MIT
// The word half of the reader: quoting, escapes, ANSI-C strings,
// parameter expansions, command, process and arithmetic substitutions.
#include <algorithm>

#include "shell/parser.h"
#include "shell/parser_internal.h"

namespace hermes::shell {
namespace {

bool is_meta(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '&' || c == '|' ||
         c == '(' || c == ')' || c == '<' || c == '>';
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One escape of a $'…' string starting after the backslash; returns the
// bytes and advances `i` past the escape.
std::string ansi_c_escape(std::string_view s, size_t& i) {
  char c = s[i++];
  static constexpr std::string_view kFrom = "abeEfnrtv\\'\"?";
  static constexpr std::string_view kTo = "\a\b\x1b\x1b\f\n\r\t\v\\'\"?";
  if (size_t k = kFrom.find(c); k != std::string_view::npos) return std::string(1, kTo[k]);
  if (c == 'x' || c == 'u' || c == 'U') {
    size_t max = c == 'x' ? 2 : c == 'u' ? 4 : 8;
    uint32_t v = 0;
    size_t n = 0;
    for (; n < max && i < s.size() && hex_digit(s[i]) >= 0; ++n) v = v * 16 + hex_digit(s[i++]);
    if (n == 0) return std::string("\\") + c;
    if (c == 'x' || v < 0x80) return std::string(1, static_cast<char>(v));
    std::string out;  // UTF-8 of the code point
    if (v < 0x800) return out + char(0xC0 | (v >> 6)) + char(0x80 | (v & 0x3F));
    if (v < 0x10000) {
      return out + char(0xE0 | (v >> 12)) + char(0x80 | ((v >> 6) & 0x3F)) +
             char(0x80 | (v & 0x3F));
    }
    return out + char(0xF0 | ((v >> 18) & 0x07)) + char(0x80 | ((v >> 12) & 0x3F)) +
           char(0x80 | ((v >> 6) & 0x3F)) + char(0x80 | (v & 0x3F));
  }
  if (c >= '0' && c <= '7') {
    int v = c - '0';
    for (int k = 0; k < 2 && i < s.size() && s[i] >= '0' && s[i] <= '7'; ++k)
      v = v * 8 + (s[i++] - '0');
    return std::string(1, static_cast<char>(v));
  }
  if (c == 'c' && i < s.size()) return std::string(1, static_cast<char>(s[i++] & 0x1F));
  return std::string("\\") + c;
}

struct LiteralBuffer {
  Word& w;
  std::string text;
  bool quoted = false;
  void add(std::string_view s, bool q) {
    if (q != quoted) flush();
    quoted = q;
    text += s;
  }
  void flush() {
    if (text.empty()) return;
    WordPart p;
    p.text = std::move(text);
    p.quoted = quoted;
    w.parts.push_back(std::move(p));
    text.clear();
  }
};

// The first unquoted `sep` in a ${…} operand at nesting level zero.
size_t find_unquoted(std::string_view s, char sep) {
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\\') {
      ++i;
    } else if (c == '\'') {
      size_t end = s.find('\'', i + 1);
      if (end == std::string_view::npos) return std::string_view::npos;
      i = end;
    } else if (c == '{' || c == '(') {
      ++depth;
    } else if (c == '}' || c == ')') {
      --depth;
    } else if (c == sep && depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

// `\c`: the next character taken literally, as each quoting mode says.
void read_backslash(std::string_view buf, size_t& pos, LiteralBuffer& lit, Mode mode, bool quoted) {
  char next = pos + 1 < buf.size() ? buf[pos + 1] : '\0';
  bool escapes = mode == Mode::kNormal || mode == Mode::kParamArg || next == '$' || next == '`' ||
                 next == '\\' || (next == '"' && mode == Mode::kDouble);
  if (next == '\n') {
    pos += 2;
  } else if (next != '\0' && escapes) {
    lit.add(buf.substr(pos + 1, 1), true);
    pos += 2;
  } else {
    lit.add("\\", quoted);
    ++pos;
  }
}

}  // namespace

bool is_name(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool is_redirect_op(std::string_view op) {
  static constexpr std::string_view kRedirects[] = {"<",  ">",  ">>",  ">|", "<>",  "<&",
                                                    ">&", "&>", "&>>", "<<", "<<-", "<<<"};
  return std::find(std::begin(kRedirects), std::end(kRedirects), op) != std::end(kRedirects);
}

bool plain_text(const Word& w, std::string& text) {
  text.clear();
  for (const WordPart& p : w.parts) {
    if (p.kind != WordPart::Kind::kLiteral || p.quoted) return false;
    text += p.text;
  }
  return true;
}

std::string unquoted_text(const Word& w) {
  std::string text;
  for (const WordPart& p : w.parts)
    text += p.kind == WordPart::Kind::kLiteral ? p.text : "$" + p.text;
  return text;
}

Word literal_word(std::string text, bool quoted) {
  Word w;
  if (text.empty()) return w;
  WordPart p;
  p.text = std::move(text);
  p.quoted = quoted;
  w.parts.push_back(std::move(p));
  return w;
}

std::optional<Assignment> split_assignment(const Token& t) {
  if (t.word.parts.empty()) return std::nullopt;
  const WordPart& first = t.word.parts[0];
  if (first.kind != WordPart::Kind::kLiteral || first.quoted) return std::nullopt;
  size_t eq = first.text.find('=');
  if (eq == std::string::npos || eq == 0) return std::nullopt;
  bool append = first.text[eq - 1] == '+';
  std::string name = first.text.substr(0, append ? eq - 1 : eq);
  if (!is_name(name)) return std::nullopt;
  Assignment a;
  a.name = std::move(name);
  a.append = append;
  a.value = t.word;
  a.value.parts[0].text.erase(0, eq + 1);
  if (a.value.parts[0].text.empty()) a.value.parts.erase(a.value.parts.begin());
  return a;
}

// Index of the `close` that balances the `open` at `from`, skipping quoted
// text; a syntax error when there is none.
size_t Parser::matching_close(size_t from, char open, char close) const {
  int depth = 0;
  for (size_t i = from; i < buf_.size(); ++i) {
    char c = buf_[i];
    if (c == '\\') {
      ++i;
    } else if (c == '\'') {
      i = buf_.find('\'', i + 1);
      if (i == std::string::npos) break;
    } else if (c == '"') {
      for (++i; i < buf_.size() && buf_[i] != '"'; ++i) i += buf_[i] == '\\';
    } else if (c == open) {
      ++depth;
    } else if (c == close && --depth == 0) {
      return i;
    }
  }
  throw SyntaxError(std::string("unbalanced ") + open);
}

Word Parser::sub_word(std::string_view text, Mode mode, bool quoted) {
  Parser sub(text, aliases_, depth_ + 1);
  Word w;
  sub.read_parts(w, mode, quoted);
  if (sub.pos_ != sub.buf_.size()) throw SyntaxError("unexpected text");
  return w;
}

NodePtr Parser::sub_program(std::string_view text) { return parse_all(text, aliases_, depth_ + 1); }

void Parser::read_parts(Word& w, Mode mode, bool quoted) {
  if (depth_ > kMaxNesting) throw LimitExceeded("nesting too deep");
  LiteralBuffer lit{w};
  while (pos_ < buf_.size()) {
    char c = buf_[pos_];
    char next = pos_ + 1 < buf_.size() ? buf_[pos_ + 1] : '\0';
    if (mode == Mode::kNormal) {
      if ((c == '<' || c == '>') && next == '(') {
        lit.flush();
        read_process_subst(w);
        continue;
      }
      // Extended globs: @( …) !( …) +( …) *( …) ?( …).
      if (c == '(' && !lit.text.empty() && !lit.quoted &&
          std::string_view("@!+*?").find(lit.text.back()) != std::string_view::npos) {
        size_t close = matching_close(pos_, '(', ')');
        lit.add(std::string_view(buf_).substr(pos_, close + 1 - pos_), false);
        pos_ = close + 1;
        continue;
      }
      if (is_meta(c)) break;
    }
    if (mode == Mode::kDouble && c == '"') break;
    if (c == '\\') {
      read_backslash(buf_, pos_, lit, mode, quoted);
    } else if (c == '\'' && (mode == Mode::kNormal || mode == Mode::kParamArg)) {
      lit.flush();
      read_single_quote(w);
    } else if (c == '"' && (mode == Mode::kNormal || mode == Mode::kParamArg)) {
      lit.flush();
      ++pos_;
      read_parts(w, Mode::kDouble, true);
      if (pos_ >= buf_.size()) throw SyntaxError("unterminated \"");
      ++pos_;
    } else if (c == '$' && next == '\'' && (mode == Mode::kNormal || mode == Mode::kParamArg)) {
      lit.flush();
      read_ansi_c(w);
    } else if (c == '$' && next == '"' && (mode == Mode::kNormal || mode == Mode::kParamArg)) {
      ++pos_;
    } else if (c == '$') {
      lit.flush();
      read_dollar(w, quoted);
    } else if (c == '`') {
      lit.flush();
      read_backtick(w, quoted);
    } else {
      lit.add(std::string_view(&c, 1), quoted);
      ++pos_;
    }
  }
  lit.flush();
}

void Parser::read_single_quote(Word& w) {
  size_t end = buf_.find('\'', pos_ + 1);
  if (end == std::string::npos) throw SyntaxError("unterminated '");
  w.parts.push_back(
      WordPart{WordPart::Kind::kLiteral, true, buf_.substr(pos_ + 1, end - pos_ - 1)});
  pos_ = end + 1;
}

void Parser::read_ansi_c(Word& w) {
  std::string out;
  size_t i = pos_ + 2;
  std::string_view s(buf_);
  while (i < s.size() && s[i] != '\'') {
    if (s[i] == '\\' && i + 1 < s.size()) {
      ++i;
      out += ansi_c_escape(s, i);
    } else {
      out += s[i++];
    }
  }
  if (i >= s.size()) throw SyntaxError("unterminated $'");
  w.parts.push_back(WordPart{WordPart::Kind::kLiteral, true, std::move(out)});
  pos_ = i + 1;
}

void Parser::read_dollar(Word& w, bool quoted) {
  std::string_view rest = std::string_view(buf_).substr(pos_ + 1);
  WordPart p;
  p.quoted = quoted;
  if (rest.substr(0, 2) == "((") {
    size_t close = matching_close(pos_ + 1, '(', ')');
    p.kind = WordPart::Kind::kArith;
    p.text = buf_.substr(pos_ + 3, close - pos_ - 4);
    p.args.push_back(sub_word(p.text, Mode::kParamArg, true));
    pos_ = close + 1;
  } else if (!rest.empty() && rest[0] == '(') {
    pos_ += 2;
    p.kind = WordPart::Kind::kCommandSubst;
    p.body = parse_substitution_body();
  } else if (!rest.empty() && rest[0] == '{') {
    size_t close = matching_close(pos_ + 1, '{', '}');
    p = parse_param(std::string_view(buf_).substr(pos_ + 2, close - pos_ - 2), quoted);
    pos_ = close + 1;
  } else if (!rest.empty() &&
             (std::isalpha(static_cast<unsigned char>(rest[0])) || rest[0] == '_')) {
    size_t n = 1;
    while (n < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[n])) || rest[n] == '_'))
      ++n;
    p.kind = WordPart::Kind::kParam;
    p.text = std::string(rest.substr(0, n));
    pos_ += 1 + n;
  } else if (!rest.empty() &&
             std::string_view("0123456789@*#?$!-").find(rest[0]) != std::string_view::npos) {
    p.kind = WordPart::Kind::kParam;
    p.text = std::string(1, rest[0]);
    pos_ += 2;
  } else {
    p.text = "$";
    ++pos_;
  }
  w.parts.push_back(std::move(p));
}

WordPart Parser::parse_param(std::string_view inner, bool quoted) {
  WordPart p;
  p.kind = WordPart::Kind::kParam;
  p.quoted = quoted;
  if (inner.size() > 1 && inner[0] == '#') {
    p.op = "len";
    p.text = std::string(inner.substr(1));
    return p;
  }
  size_t n = 0;
  if (!inner.empty() && inner[0] == '!') {
    p.op = "!";
    n = 1;
  }
  size_t name_start = n;
  if (n < inner.size() && std::string_view("@*#?$!-").find(inner[n]) != std::string_view::npos) {
    ++n;
  } else {
    while (n < inner.size() &&
           (std::isalnum(static_cast<unsigned char>(inner[n])) || inner[n] == '_'))
      ++n;
  }
  if (n < inner.size() && inner[n] == '[') {
    size_t close = inner.find(']', n);
    n = close == std::string_view::npos ? inner.size() : close + 1;
  }
  p.text = std::string(inner.substr(name_start, n - name_start));
  std::string_view rest = inner.substr(n);
  if (rest.empty()) return p;
  if (p.op == "!") {
    p.op = "?op";  // ${!prefix*}, ${!x:-…}: not evaluated
    return p;
  }
  static constexpr std::string_view kOps[] = {":-", ":=", ":+", ":?", "-",  "=",  "+",
                                              "?",  "##", "#",  "%%", "%",  "//", "/#",
                                              "/%", "/",  "^^", "^",  ",,", ",",  ":"};
  for (std::string_view op : kOps) {
    if (rest.substr(0, op.size()) != op) continue;
    p.op = std::string(op);
    std::string_view arg = rest.substr(op.size());
    char sep = op[0] == '/' ? '/' : op == ":" ? ':' : '\0';
    size_t at = sep ? find_unquoted(arg, sep) : std::string_view::npos;
    p.args.push_back(sub_word(arg.substr(0, at), Mode::kParamArg, quoted));
    if (at != std::string_view::npos)
      p.args.push_back(sub_word(arg.substr(at + 1), Mode::kParamArg, quoted));
    return p;
  }
  p.op = "?op";
  return p;
}

void Parser::read_backtick(Word& w, bool quoted) {
  std::string body;
  size_t i = pos_ + 1;
  for (; i < buf_.size() && buf_[i] != '`'; ++i) {
    if (buf_[i] == '\\' && i + 1 < buf_.size() &&
        (buf_[i + 1] == '`' || buf_[i + 1] == '\\' || buf_[i + 1] == '$')) {
      ++i;
    }
    body += buf_[i];
  }
  if (i >= buf_.size()) throw SyntaxError("unterminated `");
  WordPart p;
  p.kind = WordPart::Kind::kCommandSubst;
  p.quoted = quoted;
  p.body = sub_program(body);
  w.parts.push_back(std::move(p));
  pos_ = i + 1;
}

void Parser::read_process_subst(Word& w) {
  WordPart p;
  p.kind = WordPart::Kind::kProcessSubst;
  p.text = std::string(1, buf_[pos_]);
  pos_ += 2;
  p.body = parse_substitution_body();
  w.parts.push_back(std::move(p));
}

// The commands of $( …) or <( …), read from the same input up to the
// `)` that closes them.
NodePtr Parser::parse_substitution_body() {
  peeked_.reset();
  ++depth_;
  NodePtr body = parse_list({")"});
  --depth_;
  if (peek().kind != Token::kOp || peek().op != ")") throw SyntaxError("unterminated substitution");
  pos_ = peeked_->end;
  peeked_.reset();
  return body;
}

}  // namespace hermes::shell
