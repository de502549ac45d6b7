// SPDX-License-Identifier: MIT
// A small SQL expression reader: it decides only whether a WHERE clause is
// true whatever the row holds; anything it cannot decide is "unknown".
#include "tools/approval/sql_where.h"

#include <cctype>
#include <optional>
#include <string>
#include <vector>

namespace hermes::approval {
namespace {

struct Token {
  enum class Kind { kWord, kNumber, kString, kOp, kOpen, kClose, kComma, kEnd, kOther };
  Kind kind = Kind::kEnd;
  std::string text;  // words lower-cased (SQL names are case-insensitive)
};

using Kind = Token::Kind;

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}

// `'…'` with `''` inside; `"…"` and `` `…` `` quote names.
size_t quoted_end(std::string_view s, size_t at) {
  char q = s[at];
  for (size_t i = at + 1; i < s.size(); ++i) {
    if (s[i] != q) continue;
    if (i + 1 < s.size() && s[i + 1] == q) {
      ++i;
      continue;
    }
    return i + 1;
  }
  return s.size();
}

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '\'' || c == '"' || c == '`') {
      size_t end = quoted_end(s, i);
      bool closed = end > i + 1 && s[end - 1] == c;
      std::string body(s.substr(i + 1, end - i - 1 - (closed ? 1 : 0)));
      out.push_back({c == '\'' ? Kind::kString : Kind::kWord, c == '\'' ? body : "\"" + body});
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
      out.push_back({Kind::kNumber, std::string(s.substr(i, j - i))});
      i = j;
    } else if (word_char(c)) {
      size_t j = i;
      std::string w;
      for (; j < s.size() && word_char(s[j]); ++j)
        w += static_cast<char>(std::tolower(static_cast<unsigned char>(s[j])));
      out.push_back({Kind::kWord, w});
      i = j;
    } else if (std::string_view("=<>!|").find(c) != std::string_view::npos) {
      size_t j = i + 1;
      if (j < s.size() && std::string_view("=<>|").find(s[j]) != std::string_view::npos) ++j;
      out.push_back({Kind::kOp, std::string(s.substr(i, j - i))});
      i = j;
    } else {
      Kind kind = c == '('                                                       ? Kind::kOpen
                  : c == ')'                                                     ? Kind::kClose
                  : c == ','                                                     ? Kind::kComma
                  : std::string_view("+-*/%;").find(c) != std::string_view::npos ? Kind::kOp
                                                                                 : Kind::kOther;
      out.push_back({kind, std::string(1, c)});
      ++i;
    }
  }
  return out;
}

enum class Truth { kTrue, kFalse, kUnknown };

Truth negate(Truth t) {
  return t == Truth::kUnknown ? t : t == Truth::kTrue ? Truth::kFalse : Truth::kTrue;
}

// An operand or a condition. `text` is its canonical spelling, so that the
// same column or expression on both sides of a comparison is seen as such.
struct Value {
  std::string text;
  std::optional<double> number;
  std::optional<std::string> string;
  Truth truth = Truth::kUnknown;

  Truth as_condition() const {
    if (truth != Truth::kUnknown || !number) return truth;
    return *number != 0 ? Truth::kTrue : Truth::kFalse;
  }
};

Value condition(std::string text, Truth truth) { return {std::move(text), {}, {}, truth}; }

template <typename T>
Truth compare(const T& a, const std::string& op, const T& b) {
  bool r = op == "=" || op == "=="    ? a == b
           : op == "!=" || op == "<>" ? a != b
           : op == "<"                ? a < b
           : op == ">"                ? a > b
           : op == "<="               ? a <= b
           : op == ">="               ? a >= b
                                      : false;
  return r ? Truth::kTrue : Truth::kFalse;
}

bool is_comparison(const std::string& op) {
  return op == "=" || op == "==" || op == "!=" || op == "<>" || op == "<" || op == ">" ||
         op == "<=" || op == ">=";
}

class Parser {
 public:
  Parser(const std::vector<Token>& tokens, size_t from, size_t to)
      : tokens_(tokens), at_(from), end_(to) {}

  Truth clause() { return or_expr().as_condition(); }

 private:
  static constexpr int kMaxDepth = 64;

  const Token& peek() const {
    static const Token kEndToken;
    return at_ < end_ ? tokens_[at_] : kEndToken;
  }
  bool word(std::string_view w) const { return peek().kind == Kind::kWord && peek().text == w; }
  bool take_word(std::string_view w) { return word(w) ? (++at_, true) : false; }
  bool op(std::string_view o) const { return peek().kind == Kind::kOp && peek().text == o; }

  Value or_expr() {
    Value v = and_expr();
    while (take_word("or")) {
      Value r = and_expr();
      Truth a = v.as_condition(), b = r.as_condition();
      Truth t = a == Truth::kTrue || b == Truth::kTrue     ? Truth::kTrue
                : a == Truth::kFalse && b == Truth::kFalse ? Truth::kFalse
                                                           : Truth::kUnknown;
      v = condition(v.text + " or " + r.text, t);
    }
    return v;
  }

  Value and_expr() {
    Value v = not_expr();
    while (take_word("and")) {
      Value r = not_expr();
      Truth a = v.as_condition(), b = r.as_condition();
      Truth t = a == Truth::kFalse || b == Truth::kFalse ? Truth::kFalse
                : a == Truth::kTrue && b == Truth::kTrue ? Truth::kTrue
                                                         : Truth::kUnknown;
      v = condition(v.text + " and " + r.text, t);
    }
    return v;
  }

  Value not_expr() {
    if (!take_word("not")) return predicate();
    Value v = not_expr();
    return condition("not " + v.text, negate(v.as_condition()));
  }

  Value predicate() {
    Value a = sum();
    if (peek().kind == Kind::kOp && is_comparison(peek().text)) {
      std::string o = tokens_[at_++].text;
      return compared(a, o, sum());
    }
    if (take_word("is")) {
      bool negated = take_word("not");
      Value b = sum();
      Truth t = compared(a, "=", b).truth;
      if (a.text == b.text && !a.text.empty()) t = Truth::kTrue;  // NULL IS NULL too
      return condition(a.text + " is " + b.text, negated ? negate(t) : t);
    }
    bool negated = take_word("not");
    if (take_word("like") || take_word("glob")) {
      Value b = sum();
      bool any =
          b.string && !b.string->empty() && b.string->find_first_not_of("%*") == std::string::npos;
      Truth t = any || (a.text == b.text && !a.text.empty()) ? Truth::kTrue : Truth::kUnknown;
      return condition(a.text + " like " + b.text, negated ? negate(t) : t);
    }
    if (take_word("between")) {
      Value lo = sum();
      take_word("and");
      Value hi = sum();
      Truth t =
          a.number && lo.number && hi.number
              ? (*lo.number <= *a.number && *a.number <= *hi.number ? Truth::kTrue : Truth::kFalse)
              : Truth::kUnknown;
      return condition(a.text + " between", negated ? negate(t) : t);
    }
    if (take_word("in")) {
      skip_group();
      return condition(a.text + " in", Truth::kUnknown);
    }
    return a;
  }

  Value compared(const Value& a, const std::string& o, const Value& b) {
    Truth t = Truth::kUnknown;
    if (a.number && b.number) {
      t = compare(*a.number, o, *b.number);
    } else if (a.string && b.string) {
      t = compare(*a.string, o, *b.string);
    } else if (!a.text.empty() && a.text == b.text && a.text != "null") {
      // The same column or expression on both sides (NULL rows aside).
      t = o == "=" || o == "==" || o == "<=" || o == ">=" ? Truth::kTrue : Truth::kFalse;
    }
    return condition(a.text + " " + o + " " + b.text, t);
  }

  Value sum() {
    Value v = product();
    while (op("+") || op("-") || op("||")) {
      std::string o = tokens_[at_++].text;
      Value r = product();
      std::optional<double> n;
      if (v.number && r.number && o != "||")
        n = o == "+" ? *v.number + *r.number : *v.number - *r.number;
      v = Value{v.text + o + r.text, n, {}, Truth::kUnknown};
    }
    return v;
  }

  Value product() {
    Value v = unary();
    while (op("*") || op("/") || op("%")) {
      std::string o = tokens_[at_++].text;
      Value r = unary();
      std::optional<double> n;
      if (v.number && r.number && o == "*") n = *v.number * *r.number;
      if (v.number && r.number && o == "/" && *r.number != 0) n = *v.number / *r.number;
      v = Value{v.text + o + r.text, n, {}, Truth::kUnknown};
    }
    return v;
  }

  Value unary() {
    if (op("-") || op("+")) {
      bool minus = tokens_[at_++].text == "-";
      Value v = unary();
      if (v.number && minus) v.number = -*v.number;
      v.text = (minus ? "-" : "+") + v.text;
      return v;
    }
    return primary();
  }

  Value primary() {
    const Token t = peek();
    if (t.kind == Kind::kEnd) return {};
    ++at_;
    switch (t.kind) {
      case Kind::kOpen: {
        if (++depth_ > kMaxDepth) return {};
        Value v = or_expr();
        --depth_;
        if (peek().kind == Kind::kClose) ++at_;
        v.text = "(" + v.text + ")";
        return v;
      }
      case Kind::kNumber:
        return {t.text, parse_number(t.text), {}, Truth::kUnknown};
      case Kind::kString:
        return {"'" + t.text + "'", {}, t.text, Truth::kUnknown};
      case Kind::kWord:
        if (t.text == "true" || t.text == "false")
          return {t.text, t.text == "true" ? 1.0 : 0.0, {}, Truth::kUnknown};
        if (peek().kind == Kind::kOpen) return {t.text + skip_group(), {}, {}, Truth::kUnknown};
        return {t.text, {}, {}, Truth::kUnknown};
      default:
        return {};
    }
  }

  static std::optional<double> parse_number(const std::string& text) {
    try {
      return std::stod(text);
    } catch (...) {
      return std::nullopt;
    }
  }

  // A parenthesised group (call arguments, IN lists), spelled out as is.
  std::string skip_group() {
    std::string text;
    int open = 0;
    while (peek().kind != Kind::kEnd) {
      const Token& t = tokens_[at_++];
      open += t.kind == Kind::kOpen ? 1 : t.kind == Kind::kClose ? -1 : 0;
      text += t.text + " ";
      if (open <= 0) break;
    }
    return "(" + text + ")";
  }

  const std::vector<Token>& tokens_;
  size_t at_, end_;
  int depth_ = 0;
};

}  // namespace

bool has_always_true_where(std::string_view text) {
  std::vector<Token> tokens = tokenize(text);
  for (size_t i = 0; i < tokens.size(); ++i) {
    bool starts = tokens[i].kind == Kind::kWord &&
                  (tokens[i].text == "update" ||
                   (tokens[i].text == "delete" && i + 1 < tokens.size() &&
                    tokens[i + 1].kind == Kind::kWord && tokens[i + 1].text == "from"));
    if (!starts) continue;
    size_t end = i + 1;
    while (end < tokens.size() && !(tokens[end].kind == Kind::kOp && tokens[end].text == ";"))
      ++end;
    for (size_t w = i + 1; w < end; ++w) {
      if (tokens[w].kind == Kind::kWord && tokens[w].text == "where") {
        if (Parser(tokens, w + 1, end).clause() == Truth::kTrue) return true;
        break;
      }
    }
    i = end;
  }
  return false;
}

}  // namespace hermes::approval
