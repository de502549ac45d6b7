// SPDX-License-Identifier: MIT
// Rendering the parsed commands as text for the rules.
#include "tools/approval/command_render.h"

#include "core/strings.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>

namespace hermes::approval {
namespace {

// Programs whose operands are paths worth normalising.
bool takes_paths(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "rm",  "rmdir", "cp",   "mv",    "install",  "tee",     "ln", "chmod",  "chown", "chgrp",
      "sed", "perl",  "ruby", "shred", "truncate", "setfacl", "dd", "unlink", "rsync", "find"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

struct OptionTable {
  std::string_view program;               // "git push" for subcommands
  std::vector<std::string_view> options;  // dangerous ones first
};

const std::vector<OptionTable>& option_tables() {
  static const std::vector<OptionTable> kTables = {
      {"rm",
       {"--recursive", "--force", "--no-preserve-root", "--preserve-root", "--dir", "--interactive",
        "--one-file-system", "--verbose"}},
      {"git push",
       {"--force",
        "--force-with-lease",
        "--force-if-includes",
        "--mirror",
        "--delete",
        "--prune",
        "--all",
        "--tags",
        "--set-upstream",
        "--dry-run",
        "--verbose",
        "--quiet",
        "--no-verify",
        "--follow-tags",
        "--atomic",
        "--porcelain",
        "--progress",
        "--recurse-submodules",
        "--repo",
        "--push-option",
        "--signed"}},
      {"git reset", {"--hard", "--soft", "--mixed", "--merge", "--keep", "--quiet", "--patch"}},
      {"git clean", {"--force", "--dry-run", "--quiet", "--exclude", "--interactive"}},
      {"git branch",
       {"--delete", "--force", "--move", "--copy", "--list", "--all", "--remotes", "--verbose",
        "--set-upstream-to", "--unset-upstream", "--show-current", "--contains", "--merged",
        "--no-merged"}},
      {"git checkout", {"--force", "--ours", "--theirs", "--track", "--detach", "--quiet"}},
      {"chmod", {"--recursive", "--reference", "--verbose", "--changes", "--silent", "--quiet"}},
      {"chown",
       {"--recursive", "--reference", "--verbose", "--changes", "--silent", "--quiet",
        "--dereference", "--no-dereference"}},
      {"sed",
       {"--in-place", "--expression", "--file", "--quiet", "--silent", "--regexp-extended",
        "--separate", "--null-data"}},
      {"shred",
       {"--remove", "--zero", "--force", "--iterations", "--size", "--verbose", "--exact"}},
      {"wipefs", {"--all", "--force", "--backup", "--no-act", "--offset", "--types", "--quiet"}},
      {"docker",
       {"--host", "--context", "--config", "--debug", "--log-level", "--tls", "--tlsverify"}},
      {"find", {}},
  };
  return kTables;
}

bool safe_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("_./~=:,+@%^-").find(c) != std::string_view::npos;
}

std::string quote(const std::string& word) {
  if (!word.empty() && std::all_of(word.begin(), word.end(), safe_char)) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string show_unknown(std::string text) {
  std::replace(text.begin(), text.end(), shell::kUnknown, '?');
  return text;
}

bool git_global_takes_value(std::string_view option) {
  return option == "-C" || option == "-c" || option == "--git-dir" || option == "--work-tree" ||
         option == "--namespace" || option == "--config-env";
}

// git [-C dir] [-c k=v] [--git-dir=…] sub args → sub args.
std::vector<std::string> drop_git_globals(const std::vector<std::string>& words) {
  size_t i = 1;
  while (i < words.size() && words[i].size() > 1 && words[i][0] == '-') {
    i += git_global_takes_value(words[i]) ? 2 : 1;
  }
  std::vector<std::string> out = {words[0]};
  out.insert(out.end(), words.begin() + static_cast<long>(std::min(i, words.size())), words.end());
  return out;
}

// An alias value split as git splits it: blanks, '…', "…" and backslashes.
std::vector<std::string> split_alias(std::string_view value) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (!quote && (c == ' ' || c == '\t' || c == '\n')) {
      if (in_word) out.push_back(std::move(word)), word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\' && i + 1 < value.size() && quote != '\'') {
      word += value[++i];
    } else if (!quote && (c == '\'' || c == '"')) {
      quote = c;
    } else if (quote == c) {
      quote = 0;
    } else {
      word += c;
    }
  }
  if (in_word) out.push_back(std::move(word));
  return out;
}

// `git p` with `p` an alias defined inline: the alias's words in its place,
// through chains of aliases; a shell alias (`!cmd`) stays one `!cmd` word.
std::vector<std::string> expand_git_alias(std::vector<std::string> words,
                                          const std::map<std::string, std::string>& aliases) {
  for (int depth = 0; depth < 8 && words.size() > 1; ++depth) {
    auto it = aliases.find(to_lower(words[1]));
    if (it == aliases.end()) break;
    std::vector<std::string> value = {it->second};
    if (it->second.empty() || it->second[0] != '!') value = split_alias(it->second);
    words.erase(words.begin() + 1);
    words.insert(words.begin() + 1, value.begin(), value.end());
    if (value.empty() || value[0].starts_with('!')) break;
  }
  return words;
}

void append_quoted(std::string& plain, std::string& masked, const std::string& word) {
  std::string q = quote(word);
  plain += word;
  if (q.size() != word.size() || q[0] == '\'') {
    masked += "'" + std::string(q.size() - 2, ' ') + "'";
  } else {
    masked += word;
  }
}

// SQL comments removed (`DR/**/OP`) or read as blanks (`DROP/**/TABLE`).
std::string strip_sql_comments(const std::string& text, const char* replacement) {
  static const RE2 kComment(R"(/\*.*?\*/|--[^\n']*)");
  std::string out = text;
  RE2::GlobalReplace(&out, kComment, replacement);
  return out;
}

}  // namespace

std::string normalize_path(std::string_view path, std::string_view cwd) {
  std::string p(path);
  if (!p.empty() && p[0] != '/' && p[0] != '~' && cwd != "." && !cwd.empty()) {
    p = std::string(cwd) + "/" + p;
  }
  const char* home = std::getenv("HOME");
  if (home && std::string_view(home).size() > 1 && p.rfind(home, 0) == 0 &&
      (p.size() == std::strlen(home) || p[std::strlen(home)] == '/')) {
    p = "~" + p.substr(std::strlen(home));
  }
  if (p.rfind("./", 0) == 0 && cwd == ".") return p;
  bool absolute = !p.empty() && p[0] == '/';
  bool home_rel = p == "~" || p.rfind("~/", 0) == 0;
  std::vector<std::string> parts;
  size_t start = home_rel ? 1 : 0;
  for (size_t i = start; i <= p.size();) {
    size_t slash = p.find('/', i);
    std::string part = p.substr(i, slash == std::string::npos ? std::string::npos : slash - i);
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (!absolute && !home_rel) {
        parts.push_back(part);
      }
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (slash == std::string::npos) break;
    i = slash + 1;
  }
  std::string out = home_rel ? "~" : absolute ? "" : "";
  for (size_t k = 0; k < parts.size(); ++k)
    out += (k || absolute || home_rel ? "/" : "") + parts[k];
  if (out.empty()) return absolute ? "/" : ".";
  return out;
}

std::string expand_long_option(std::string_view program, std::string_view arg) {
  if (arg.size() < 4 || arg.substr(0, 2) != "--") return std::string(arg);
  size_t eq = arg.find('=');
  std::string_view name = arg.substr(0, eq);
  for (const OptionTable& t : option_tables()) {
    if (t.program != program) continue;
    if (std::find(t.options.begin(), t.options.end(), name) != t.options.end()) break;
    for (std::string_view option : t.options) {
      if (option.substr(0, name.size()) == name) {
        return std::string(option) +
               std::string(eq == std::string_view::npos ? "" : arg.substr(eq));
      }
    }
  }
  return std::string(arg);
}

std::map<std::string, std::string> inline_git_aliases(const shell::Command& cmd) {
  std::map<std::string, std::string> out;
  auto define = [&](std::string_view key_value, std::string_view value) {
    std::string key = to_lower(key_value.substr(0, key_value.find('=')));
    if (key.rfind("alias.", 0) == 0 && key.size() > 6) out[key.substr(6)] = std::string(value);
  };
  const std::vector<std::string>& argv = cmd.argv;
  for (size_t i = cmd.word + 1; i + 1 < argv.size() && argv[i].starts_with('-'); ++i) {
    if (argv[i] == "-c") {
      const std::string& kv = argv[++i];
      size_t eq = kv.find('=');
      define(kv, eq == std::string::npos ? "" : std::string_view(kv).substr(eq + 1));
    } else if (git_global_takes_value(argv[i])) {
      ++i;
    }
  }
  // GIT_CONFIG_KEY_<n>=alias.p GIT_CONFIG_VALUE_<n>='push -f' git p
  for (const auto& [name, key] : cmd.env) {
    if (!name.starts_with("GIT_CONFIG_KEY_")) continue;
    std::string value_name = "GIT_CONFIG_VALUE_" + name.substr(15);
    for (const auto& [other, value] : cmd.env) {
      if (other == value_name) define(key, value);
    }
  }
  return out;
}

std::vector<std::string> normalized_words(const shell::Command& cmd) {
  std::vector<std::string> words(cmd.argv.begin() + static_cast<long>(cmd.word), cmd.argv.end());
  if (words.empty()) return words;
  std::string program(cmd.name());
  if (program == "git") words = expand_git_alias(drop_git_globals(words), inline_git_aliases(cmd));
  if (program == "git" && words.size() > 1) program += " " + words[1];
  bool paths = takes_paths(cmd.name());
  bool options_done = false;
  for (size_t i = 1; i < words.size(); ++i) {
    std::string& w = words[i];
    if (w == "--") options_done = true;
    if (!options_done && w.rfind("--", 0) == 0) {
      w = expand_long_option(program, w);
    } else if (paths && !w.empty() && (options_done || w[0] != '-')) {
      size_t eq = cmd.name() == "dd" ? w.find('=') : std::string::npos;
      w = eq == std::string::npos ? normalize_path(w, cmd.cwd)
                                  : w.substr(0, eq + 1) + normalize_path(w.substr(eq + 1), cmd.cwd);
    }
  }
  return words;
}

std::vector<CommandTexts> render(const shell::Analysis& analysis) {
  CommandTexts texts;
  const shell::Command* previous = nullptr;
  for (const shell::Command& cmd : analysis.commands) {
    std::string plain, masked;
    std::vector<std::string> words;
    for (const auto& [name, value] : cmd.env) words.push_back(name + "=" + value);
    for (std::string& w : normalized_words(cmd)) words.push_back(std::move(w));
    size_t command_at = 0;  // where the command word starts in `plain`
    for (size_t i = 0; i < words.size(); ++i) {
      if (i) plain += ' ', masked += ' ';
      if (i == cmd.env.size()) command_at = plain.size();
      append_quoted(plain, masked, show_unknown(words[i]));
    }
    for (const shell::Output& o : cmd.outputs) {
      std::string target = o.op == ">&" ? o.target : normalize_path(o.target, cmd.cwd);
      std::string text =
          " " + (o.fd == 1 ? "" : std::to_string(o.fd)) + o.op + " " + show_unknown(target);
      plain += text, masked += text;
    }
    if (cmd.input.kind != shell::Input::Kind::kInherited &&
        cmd.input.kind != shell::Input::Kind::kPipe) {
      std::string op = cmd.input.kind == shell::Input::Kind::kFile      ? " < "
                       : cmd.input.kind == shell::Input::Kind::kHereDoc ? " << "
                                                                        : " <<< ";
      plain += op, masked += op;
      append_quoted(plain, masked,
                    show_unknown(cmd.input.text.value_or(
                        cmd.input.sources.empty() ? "?" : cmd.input.sources[0])));
    }
    bool piped = previous && cmd.pipeline != 0 && cmd.pipeline == previous->pipeline &&
                 cmd.stage == previous->stage + 1;
    if (previous) {
      texts.plain += piped ? " | " : " ; ";
      texts.masked += piped ? " | " : " ; ";
    }
    texts.plain += plain;
    texts.masked += masked;
    if (cmd.background) texts.plain += " &", texts.masked += " &";
    if (!plain.empty()) texts.segments.push_back(plain);
    // An assignment's value may hold blanks (X='a b' cmd): the command alone too.
    if (!cmd.env.empty() && command_at > 0) texts.segments.push_back(plain.substr(command_at));
    if (cmd.word > 0) {  // wrappers kept, for the rules about sudo itself
      std::string full;
      for (const std::string& w : cmd.argv) full += (full.empty() ? "" : " ") + show_unknown(w);
      texts.segments.push_back(full);
    }
    previous = &cmd;
  }
  std::vector<CommandTexts> out = {texts};
  for (const char* replacement : {"", " "}) {
    std::string stripped = strip_sql_comments(texts.plain, replacement);
    if (stripped == texts.plain) break;
    CommandTexts sql;
    sql.plain = std::move(stripped);
    out.push_back(std::move(sql));
  }
  return out;
}

}  // namespace hermes::approval
