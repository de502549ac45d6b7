// SPDX-License-Identifier: MIT
// Word expansion as bash orders it: braces, then parameters and
// substitutions, then field splitting at IFS. Values that cannot be known
// statically carry kUnknown.
#include <fnmatch.h>

#include <algorithm>
#include <cctype>

#include "shell/evaluator.h"
#include "shell/parser.h"

namespace hermes::shell {
namespace {

// A word as a sequence of unquoted characters (>= 0) and opaque parts
// (-1 - index), so braces are found only in unquoted text.
using Seq = std::vector<int>;

Seq encode(const Word& word) {
  Seq seq;
  for (size_t i = 0; i < word.parts.size(); ++i) {
    const WordPart& p = word.parts[i];
    if (p.kind == WordPart::Kind::kLiteral && !p.quoted) {
      for (char c : p.text) seq.push_back(static_cast<unsigned char>(c));
    } else {
      seq.push_back(-1 - static_cast<int>(i));
    }
  }
  return seq;
}

Word decode(const Seq& seq, const Word& word) {
  Word out;
  std::string text;
  auto flush = [&] {
    if (!text.empty())
      out.parts.push_back(WordPart{WordPart::Kind::kLiteral, false, std::move(text)});
    text.clear();
  };
  for (int v : seq) {
    if (v >= 0) {
      text += static_cast<char>(v);
    } else {
      flush();
      out.parts.push_back(word.parts[static_cast<size_t>(-1 - v)]);
    }
  }
  flush();
  return out;
}

// {a..e} / {1..10..2}: the items, or nothing when it is not a sequence.
std::vector<Seq> sequence_items(const Seq& inner, size_t max) {
  std::string text;
  for (int v : inner) {
    if (v < 0) return {};
    text += static_cast<char>(v);
  }
  size_t dots = text.find("..");
  if (dots == std::string::npos) return {};
  std::string a = text.substr(0, dots), rest = text.substr(dots + 2);
  size_t dots2 = rest.find("..");
  std::string b = rest.substr(0, dots2);
  long step = 1;
  auto is_int = [](const std::string& s) {
    return !s.empty() && s.size() < 10 &&
           std::all_of(s.begin() + (s[0] == '-'), s.end(), ::isdigit) && s != "-";
  };
  if (dots2 != std::string::npos) {
    std::string s = rest.substr(dots2 + 2);
    if (!is_int(s)) return {};
    step = std::labs(std::stol(s));
  }
  std::vector<Seq> out;
  auto push = [&](const std::string& s) { out.emplace_back(s.begin(), s.end()); };
  if (is_int(a) && is_int(b)) {
    long x = std::stol(a), y = std::stol(b);
    if (step == 0) step = 1;
    if (static_cast<size_t>(std::labs(y - x) / step) >= max) throw LimitExceeded("brace sequence");
    for (long v = x; x <= y ? v <= y : v >= y; v += x <= y ? step : -step) push(std::to_string(v));
    return out;
  }
  if (a.size() == 1 && b.size() == 1 && std::isalpha(static_cast<unsigned char>(a[0])) &&
      std::isalpha(static_cast<unsigned char>(b[0]))) {
    for (int c = a[0]; a[0] <= b[0] ? c <= b[0] : c >= b[0]; c += a[0] <= b[0] ? step : -step) {
      push(std::string(1, static_cast<char>(c)));
    }
    return out;
  }
  return {};
}

// The alternatives of the brace group at [open, close], or nothing.
std::vector<Seq> alternatives(const Seq& seq, size_t open, size_t close, size_t max) {
  Seq inner(seq.begin() + static_cast<long>(open) + 1, seq.begin() + static_cast<long>(close));
  std::vector<Seq> alts(1);
  int depth = 0;
  for (int v : inner) {
    if (v == '{') ++depth;
    if (v == '}') --depth;
    if (v == ',' && depth == 0) {
      alts.emplace_back();
    } else {
      alts.back().push_back(v);
    }
  }
  if (alts.size() > 1) return alts;
  return sequence_items(inner, max);
}

void expand_seq(const Seq& seq, size_t max, std::vector<Seq>& out) {
  for (size_t open = 0; open < seq.size(); ++open) {
    if (seq[open] != '{' || (open > 0 && seq[open - 1] == '$')) continue;
    int depth = 0;
    for (size_t close = open; close < seq.size(); ++close) {
      if (seq[close] == '{') ++depth;
      if (seq[close] != '}' || --depth != 0) continue;
      std::vector<Seq> alts = alternatives(seq, open, close, max);
      if (alts.empty()) break;
      for (const Seq& alt : alts) {
        Seq next(seq.begin(), seq.begin() + static_cast<long>(open));
        next.insert(next.end(), alt.begin(), alt.end());
        next.insert(next.end(), seq.begin() + static_cast<long>(close) + 1, seq.end());
        expand_seq(next, max, out);
        if (out.size() > max) throw LimitExceeded("brace expansion");
      }
      return;
    }
  }
  out.push_back(seq);
}

bool has_ifs(char c, const std::string& ifs) { return ifs.find(c) != std::string::npos; }

// Arithmetic we can read: an integer, possibly negative, or a variable
// holding one; nullopt otherwise.
std::optional<long> simple_integer(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(), ::isspace), text.end());
  bool neg = !text.empty() && text[0] == '-';
  std::string digits = text.substr(neg);
  if (digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), ::isdigit)) {
    return std::nullopt;
  }
  long v = std::stol(digits);
  return neg ? -v : v;
}

std::string slice(const std::string& v, const std::string& off_text, const std::string* len_text) {
  auto off = simple_integer(off_text);
  if (!off) return std::string(1, kUnknown);
  long size = static_cast<long>(v.size());
  long start = *off < 0 ? std::max(0L, size + *off) : std::min(*off, size);
  long count = size - start;
  if (len_text) {
    auto len = simple_integer(*len_text);
    if (!len) return std::string(1, kUnknown);
    count = *len < 0 ? std::max(0L, size + *len - start) : std::min(*len, count);
  }
  return v.substr(static_cast<size_t>(start), static_cast<size_t>(count));
}

std::string change_case(std::string v, const std::string& op, const std::string& pattern) {
  bool upper = op[0] == '^';
  for (size_t i = 0; i < v.size() && (op.size() == 2 || i == 0); ++i) {
    if (!pattern.empty() && !glob_match(pattern, std::string(1, v[i]))) continue;
    v[i] = static_cast<char>(upper ? std::toupper(static_cast<unsigned char>(v[i]))
                                   : std::tolower(static_cast<unsigned char>(v[i])));
  }
  return v;
}

// ${v#p} ${v##p} ${v%p} ${v%%p}.
std::string trim_pattern(const std::string& v, const std::string& op, const std::string& pat) {
  bool prefix = op[0] == '#', longest = op.size() == 2;
  size_t n = v.size();
  for (size_t k = 0; k <= n; ++k) {
    size_t len = longest ? n - k : k;
    std::string piece = prefix ? v.substr(0, len) : v.substr(n - len);
    if (glob_match(pat, piece)) return prefix ? v.substr(len) : v.substr(0, n - len);
  }
  return v;
}

// ${v/p/r} ${v//p/r} ${v/#p/r} ${v/%p/r}: longest match at each place.
std::string replace_pattern(const std::string& v, const std::string& op, const std::string& pat,
                            const std::string& rep) {
  std::string out;
  bool all = op == "//", anchor_start = op == "/#", anchor_end = op == "/%";
  for (size_t i = 0; i <= v.size(); ++i) {
    size_t found = std::string::npos;
    if (!pat.empty() && (!anchor_start || i == 0)) {
      for (size_t len = v.size() - i; len > 0 && found == std::string::npos; --len) {
        if (anchor_end && i + len != v.size()) continue;
        if (glob_match(pat, v.substr(i, len))) found = len;
      }
    }
    if (found != std::string::npos) {
      out += rep;
      out += all ? "" : v.substr(i + found);
      if (!all) return out;
      i += found - 1;
      continue;
    }
    if (i < v.size()) out += v[i];
  }
  return out;
}

}  // namespace

bool glob_match(const std::string& pattern, const std::string& text) {
  return ::fnmatch(pattern.c_str(), text.c_str(), FNM_EXTMATCH) == 0;
}

std::vector<Word> brace_expand(const Word& word, size_t max_fields) {
  Seq seq = encode(word);
  if (std::find(seq.begin(), seq.end(), '{') == seq.end()) return {word};
  std::vector<Seq> seqs;
  expand_seq(seq, max_fields, seqs);
  std::vector<Word> out;
  for (const Seq& s : seqs) out.push_back(decode(s, word));
  return out;
}

std::string Evaluator::checked(std::string value) {
  if (value.size() > limits_.max_value) throw LimitExceeded("value too large");
  return value;
}

std::optional<std::string> Evaluator::lookup(const std::string& name) {
  if (name.size() == 1 && std::isdigit(static_cast<unsigned char>(name[0]))) {
    if (name == "0") return arg0_;
    size_t i = static_cast<size_t>(name[0] - '1');
    return i < positional_.size() ? std::optional(positional_[i]) : std::nullopt;
  }
  if (name == "#") return std::to_string(positional_.size());
  if (name == "*" || name == "@") {
    std::string joined;
    for (size_t i = 0; i < positional_.size(); ++i) joined += (i ? " " : "") + positional_[i];
    return joined;
  }
  auto it = out_.env.vars.find(name);
  if (it != out_.env.vars.end()) return it->second;
  if (name == "HOME") return "~";
  if (name == "IFS") return " \t\n";
  if (name == "PWD") return out_.env.cwd;
  return std::string(1, kUnknown);  // the server's environment is not ours to read
}

std::string Evaluator::param_value(const WordPart& part) {
  const std::string& op = part.op;
  if (op == "?op" || part.text.find('[') != std::string::npos) return std::string(1, kUnknown);
  std::optional<std::string> value = lookup(part.text);
  if (op == "!") value = value && is_static(*value) ? lookup(*value) : std::string(1, kUnknown);
  if (op == "len")
    return value && is_static(*value) ? std::to_string(value->size()) : std::string(1, kUnknown);
  std::string v = value.value_or("");
  std::string arg = part.args.empty() ? "" : expand_string(part.args[0]);
  bool colon = !op.empty() && op[0] == ':' && op.size() == 2;
  bool empty = !value || (colon && v.empty());
  if (op == "-" || op == ":-") return empty ? arg : v;
  if (op == "=" || op == ":=") {
    if (empty) assign(part.text, arg);
    return empty ? arg : v;
  }
  if (op == "+" || op == ":+") return empty ? "" : arg;
  if (op == "?" || op == ":?") return v;
  if (op.empty()) return v;
  if (!is_static(v) || !is_static(arg)) return std::string(1, kUnknown);
  if (op == ":") {
    std::string len = part.args.size() > 1 ? expand_string(part.args[1]) : "";
    return is_static(len) ? slice(v, arg, part.args.size() > 1 ? &len : nullptr)
                          : std::string(1, kUnknown);
  }
  if (op[0] == '^' || op[0] == ',') return change_case(v, op, arg);
  if (op[0] == '#' || op[0] == '%') return trim_pattern(v, op, arg);
  std::string rep = part.args.size() > 1 ? expand_string(part.args[1]) : "";
  return is_static(rep) ? replace_pattern(v, op, arg, rep) : std::string(1, kUnknown);
}

void Evaluator::expand_param(const WordPart& part, std::vector<Piece>& out) {
  if (part.text == "@" && part.op.empty() && part.quoted) {
    for (size_t i = 0; i < positional_.size(); ++i) {
      if (i) out.push_back(Piece{"", false, false, true});
      out.push_back(Piece{positional_[i], false, true, false});
    }
    return;
  }
  out.push_back(Piece{checked(param_value(part)), !part.quoted, part.quoted, false});
}

// $(…) / `…`: the body runs in a subshell; its static output is the value.
std::string Evaluator::substitute(const WordPart& part) {
  Environment saved = out_.env;
  Context ctx;
  ctx.via = "$(…)";
  ++nesting_;
  std::optional<std::string> output = run(part.body, ctx);
  --nesting_;
  out_.env = std::move(saved);
  if (!output) return std::string(1, kUnknown);
  while (!output->empty() && output->back() == '\n') output->pop_back();
  return checked(std::move(*output));
}

void Evaluator::expand_parts(const Word& word, std::vector<Piece>& out) {
  for (const WordPart& part : word.parts) {
    switch (part.kind) {
      case WordPart::Kind::kLiteral:
        out.push_back(Piece{part.text, false, part.quoted, false});
        break;
      case WordPart::Kind::kParam:
        expand_param(part, out);
        break;
      case WordPart::Kind::kCommandSubst:
        out.push_back(Piece{substitute(part), !part.quoted, part.quoted, false});
        break;
      case WordPart::Kind::kProcessSubst: {
        size_t before = out_.commands.size();
        substitute(part);
        std::string name =
            before < out_.commands.size() ? std::string(out_.commands[before].name()) : "";
        out.push_back(Piece{part.text + "(" + name + ")", false, true, false});
        break;
      }
      case WordPart::Kind::kArith: {
        std::string expr = part.args.empty() ? part.text : expand_string(part.args[0]);
        auto v = simple_integer(expr);
        out.push_back(Piece{v ? std::to_string(*v) : std::string(1, kUnknown), !part.quoted,
                            part.quoted, false});
        break;
      }
    }
  }
}

std::vector<std::string> Evaluator::split_fields(const std::vector<Piece>& pieces) {
  std::string ifs = lookup("IFS").value_or(" \t\n");
  std::vector<std::string> fields;
  std::string current;
  bool alive = false;
  auto end_field = [&] {
    if (alive) fields.push_back(std::move(current));
    if (fields.size() > limits_.max_fields) throw LimitExceeded("too many fields");
    current.clear();
    alive = false;
  };
  for (const Piece& p : pieces) {
    if (p.field_break) {
      end_field();
    } else if (!p.split) {
      current += p.text;
      alive = alive || p.quoted || !p.text.empty();
    } else {
      for (char c : p.text) {
        if (has_ifs(c, ifs)) {
          end_field();
        } else {
          current += c;
          alive = true;
        }
      }
    }
  }
  end_field();
  return fields;
}

std::vector<std::string> Evaluator::expand_fields(const Word& word) {
  std::vector<std::string> fields;
  for (const Word& w : brace_expand(word, limits_.max_fields)) {
    std::vector<Piece> pieces;
    expand_parts(w, pieces);
    for (std::string& f : split_fields(pieces)) fields.push_back(std::move(f));
    if (fields.size() > limits_.max_fields) throw LimitExceeded("too many fields");
  }
  return fields;
}

std::vector<std::string> Evaluator::expand_words(const std::vector<Word>& words) {
  std::vector<std::string> out;
  for (const Word& w : words) {
    for (std::string& f : expand_fields(w)) out.push_back(std::move(f));
    if (out.size() > limits_.max_fields) throw LimitExceeded("too many words");
  }
  return out;
}

std::string Evaluator::expand_string(const Word& word) {
  std::vector<Piece> pieces;
  expand_parts(word, pieces);
  std::string out;
  for (const Piece& p : pieces) out += p.field_break ? " " : p.text;
  return checked(std::move(out));
}

}  // namespace hermes::shell
