// SPDX-License-Identifier: MIT
// Structural checks over the parsed commands.
#include "tools/approval/command_checks.h"

#include "core/strings.h"
#include "tools/approval/command_render.h"

#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <string_view>

namespace hermes::approval {
namespace {

using shell::Command;
using shell::Input;

constexpr const char* kDynamicWord = "command word only known at run time";

template <size_t N>
bool one_of(std::string_view name, const std::string_view (&names)[N]) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

bool is_interpreter(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "python", "python2", "python3",    "pypy",      "pypy3",  "perl",    "ruby",
      "node",   "nodejs",  "php",        "lua",       "luajit", "Rscript", "bun",
      "deno",   "pwsh",    "powershell", "osascript", "tclsh",  "wish",    "irb",
      "jshell", "groovy",  "julia",      "elixir",    "guile",  "racket",  "sbcl"};
  if (one_of(name, kNames)) return true;
  // python3.12, perl5.36, ruby3.2 …
  for (std::string_view stem : {"python", "perl", "ruby", "php", "lua"}) {
    if (name.substr(0, stem.size()) == stem &&
        name.find_first_not_of("0123456789.", stem.size()) == std::string_view::npos) {
      return true;
    }
  }
  return false;
}

bool is_mkfs(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "mkfs",    "mke2fs",     "mkdosfs",  "mkntfs",     "mkswap",    "mkexfatfs",
      "mkudffs", "mkreiserfs", "mkjfs",    "mkfatfs",    "newfs",     "mformat",
      "mkhfs",   "mkbtrfs",    "mkcramfs", "mksquashfs", "mkfs_msdos"};
  return one_of(name, kNames) || name.rfind("mkfs.", 0) == 0 || name.rfind("newfs_", 0) == 0 ||
         name.rfind("mke2fs.", 0) == 0;
}

bool is_remote_fetch(std::string_view name) {
  static constexpr std::string_view kNames[] = {"curl", "wget",  "fetch",       "aria2c",
                                                "http", "https", "xh",          "nc",
                                                "ncat", "socat", "lwp-request", "GET"};
  return one_of(name, kNames);
}

bool is_decoder(std::string_view name) {
  static constexpr std::string_view kNames[] = {"base64",  "base32", "base16", "basenc",   "xxd",
                                                "openssl", "tr",     "rev",    "uudecode", "gzip",
                                                "gunzip",  "zcat",   "bzcat",  "xzcat"};
  return one_of(name, kNames);
}

// The interpreter reads its program from stdin: no script operand, no
// -c/-e program, no -m module.
bool reads_program_from_stdin(const Command& cmd, bool shell) {
  std::vector<std::string> args = cmd.args();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-" || a == "/dev/stdin" || a == "-s") return true;
    if (a == "--") return i + 1 >= args.size();
    if (a.size() > 1 && (a[0] == '-' || (shell && a[0] == '+'))) {
      if (shell && a[1] != '-' && a.find('c') != std::string::npos) return false;
      if (!shell && (a == "-c" || a == "-e" || a == "-E" || a == "-m" || a == "-r" ||
                     a.rfind("--eval", 0) == 0 || a == "-p" || a == "-n" || a == "-i" ||
                     a == "run" || a == "eval")) {
        return false;
      }
      if (shell && (a == "-o" || a == "-O")) ++i;
      continue;
    }
    return a.rfind("<(", 0) == 0 || a.rfind("/dev/fd/", 0) == 0 ||
           a.rfind("/proc/self/fd/", 0) == 0;
  }
  return cmd.name() != "deno" && cmd.name() != "bun";
}

bool any_source(const Command& cmd, bool (*pred)(std::string_view)) {
  for (const std::string& s : cmd.input.sources) {
    if (pred(s)) return true;
  }
  for (const std::string& a : cmd.args()) {
    if (a.rfind("<(", 0) == 0 && a.size() > 3 && pred(std::string_view(a).substr(2, a.size() - 3)))
      return true;
  }
  return false;
}

std::optional<Detection> fed_script(const Command& cmd) {
  std::string_view name = cmd.name();
  bool shell = shell::is_shell_name(name);
  if (!shell && !is_interpreter(name)) return std::nullopt;
  bool stdin_fed = cmd.input.kind != Input::Kind::kInherited;
  bool fd_script = false;
  for (const std::string& a : cmd.args()) fd_script = fd_script || a.rfind("<(", 0) == 0;
  if ((!stdin_fed && !fd_script) || !reads_program_from_stdin(cmd, shell)) return std::nullopt;
  if (any_source(cmd, is_remote_fetch)) {
    return Detection{shell ? "pipe remote content to shell" : "pipe remote content to interpreter",
                     false};
  }
  if (any_source(cmd, is_decoder)) return Detection{"decoded content piped to shell", false};
  bool heredoc =
      cmd.input.kind == Input::Kind::kHereDoc || cmd.input.kind == Input::Kind::kHereString;
  if (heredoc)
    return Detection{shell ? "shell execution via heredoc" : "script execution via heredoc", false};
  return Detection{shell ? "pipe content to shell" : "script execution via heredoc", false};
}

// chmod o+w, a=rwx, 0777, 1776 … and setfacl entries granting others write.
bool world_writable_mode(std::string_view mode) {
  if (!mode.empty() &&
      std::all_of(mode.begin(), mode.end(), [](char c) { return c >= '0' && c <= '7'; })) {
    return ((mode.back() - '0') & 2) != 0;
  }
  size_t start = 0;
  while (start <= mode.size()) {
    size_t comma = mode.find(',', start);
    std::string_view clause = mode.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    size_t op = clause.find_first_of("+=");
    if (op != std::string_view::npos) {
      std::string_view who = clause.substr(0, op), perms = clause.substr(op + 1);
      bool others = who.find_first_of("oa") != std::string_view::npos;
      if (others && perms.find('w') != std::string_view::npos) return true;
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return false;
}

bool world_writable(const Command& cmd) {
  std::vector<std::string> args = cmd.args();
  if (cmd.name() == "chmod") {
    return std::any_of(args.begin(), args.end(),
                       [](const std::string& a) { return world_writable_mode(a); });
  }
  if (cmd.name() != "setfacl") return false;
  for (const std::string& a : args) {
    for (std::string_view entry : {"o::", "other::", "o:", "other:"}) {
      size_t at = a.find(entry);
      if (at != std::string::npos && (at == 0 || a[at - 1] == ',') &&
          a.find('w', at) < a.find(',', at)) {
        return true;
      }
    }
  }
  return false;
}

// git push remote :branch, --delete, --mirror.
std::optional<Detection> git_push(const Command& cmd) {
  std::vector<std::string> words = normalized_words(cmd);
  if (words.size() < 2 || words[0] != "git" || words[1] != "push") return std::nullopt;
  bool deletes = false;
  size_t operands = 0;
  for (size_t i = 2; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "--mirror") return Detection{"git force push", false};
    if (w == "--delete" || w == "-d") deletes = true;
    if (w.empty() || w[0] == '-') continue;
    if (++operands > 1 && w[0] == ':') deletes = true;
    if (operands > 1 && w[0] == '+') return Detection{"git force push", false};
  }
  if (deletes) return Detection{"git remote branch delete", false};
  return std::nullopt;
}

std::optional<Detection> git_branch_force_delete(const Command& cmd) {
  std::vector<std::string> words = normalized_words(cmd);
  if (words.size() < 2 || words[0] != "git" || words[1] != "branch") return std::nullopt;
  bool del = false, force = false;
  for (const std::string& w : words) {
    if (w == "--delete" ||
        (w.size() > 1 && w[0] == '-' && w[1] != '-' && w.find('d') != std::string::npos))
      del = true;
    if (w == "--force" ||
        (w.size() > 1 && w[0] == '-' && w[1] != '-' && w.find('f') != std::string::npos))
      force = true;
  }
  return del && force ? std::optional(Detection{"git branch force delete", false}) : std::nullopt;
}

bool credential_name(std::string_view path) {
  static constexpr std::string_view kNames[] = {
      "authorized_keys", ".bashrc",    ".zshrc",          ".profile", ".bash_profile",
      ".bash_login",     ".zprofile",  ".netrc",          ".pgpass",  ".npmrc",
      ".pypirc",         "id_rsa",     "id_ed25519",      "id_ecdsa", ".bash_logout",
      ".zshenv",         ".gitconfig", ".git-credentials"};
  return one_of(shell::base_name(path), kNames);
}

bool sensitive_path(const std::string& path) {
  static const RE2 kSensitive(
      R"(^(?:/etc/|/root/\.ssh(?:/|$)|~/\.ssh(?:/|$)|~/\.hermes/(?:\.env|config\.yaml)$|)"
      R"(~/\.(?:bashrc|zshrc|profile|bash_profile|bash_login|zprofile|netrc|pgpass|npmrc|pypirc)$))");
  return RE2::PartialMatch(path, kSensitive);
}

// A write into a credential or shell start-up file that its text does not
// show: from an unknown directory (cd $x, ~/$x), or relative to a session
// directory that is itself sensitive (an earlier `cd ~/.ssh`).
bool hidden_credential_target(const std::string& target, const Command& cmd,
                              const std::string& origin) {
  bool relative = !target.empty() && target[0] != '/' && target[0] != '~';
  if (relative && cmd.cwd == "." && !origin.empty() &&
      sensitive_path(normalize_path(origin + "/" + target, "."))) {
    return true;
  }
  bool unknown_dir = !shell::is_static(cmd.cwd) || !shell::is_static(target);
  if (unknown_dir && credential_name(target) && target.find('/') == std::string::npos) return true;
  return !shell::is_static(target) && credential_name(target);
}

bool hidden_credential_write(const Command& cmd, const std::string& origin) {
  return std::any_of(cmd.outputs.begin(), cmd.outputs.end(), [&](const shell::Output& o) {
    return hidden_credential_target(o.target, cmd, origin);
  });
}

// Short options that take a value, per program.
std::string_view valued_letters(std::string_view program) {
  static const std::map<std::string_view, std::string_view> kLetters = {
      {"ln", "tS"},       {"cp", "tS"},        {"mv", "tS"},       {"install", "tSmog"},
      {"rsync", "efTBM"}, {"scp", "iPFoclSJ"}, {"truncate", "sr"}, {"curl", "o"},
      {"wget", "O"},      {"sort", "o"},       {"gpg", "o"},       {"tar", "Cf"},
      {"unzip", "d"}};
  auto it = kLetters.find(program);
  return it == kLetters.end() ? std::string_view() : it->second;
}

// A short-option cluster read as its program reads it: in `-sft dir` and
// `-qOfile` the first letter that takes a value ends the cluster, and its
// value is the rest of the word or else the next word.
struct ShortOption {
  bool found = false;      // that letter is `letter`
  bool uses_next = false;  // the value is the next word
  std::string value;
};

ShortOption short_option(std::string_view program, std::string_view word, char letter,
                         const std::string* next) {
  ShortOption out;
  if (word.size() < 2 || word[0] != '-' || word[1] == '-') return out;
  std::string_view valued = valued_letters(program);
  for (size_t k = 1; k < word.size(); ++k) {
    if (valued.find(word[k]) == std::string_view::npos) continue;
    out.found = word[k] == letter;
    if (k + 1 < word.size()) {
      out.value = std::string(word.substr(k + 1));
    } else if (next) {
      out.value = *next, out.uses_next = true;
    }
    return out;
  }
  return out;
}

// The word is an option whose value is the next word.
bool value_follows(std::string_view program, std::string_view word, const std::string* next) {
  return short_option(program, word, '\0', next).uses_next;
}

std::string join_path(const std::string& dir, std::string_view name) {
  return dir.ends_with('/') ? dir + std::string(name) : dir + "/" + std::string(name);
}

// Where a copy, link or sync puts its sources: `-t dir`, else the last
// operand, which may be a directory the sources land in.
void add_destinations(const Command& cmd, std::vector<std::string>& out) {
  std::string program(cmd.name());
  std::vector<std::string> operands;
  std::string target_dir;
  std::vector<std::string> args = cmd.args();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string* next = i + 1 < args.size() ? &args[i + 1] : nullptr;
    ShortOption t = short_option(program, a, 't', next);
    if (a.rfind("--target-directory=", 0) == 0) {
      target_dir = a.substr(19);
    } else if (t.found) {
      target_dir = t.value;
      i += t.uses_next;
    } else if (value_follows(program, a, next)) {
      ++i;
    } else if (a.size() < 2 || a[0] != '-') {
      operands.push_back(a);
    }
  }
  if (target_dir.empty() && operands.size() == 1 && program == "ln") {
    out.push_back(std::string(shell::base_name(operands[0])));  // a link in the directory
    return;
  }
  if (target_dir.empty() && operands.size() >= 2) {
    target_dir = operands.back();
    operands.pop_back();
  }
  if (target_dir.empty()) return;
  out.push_back(target_dir);
  for (const std::string& source : operands)
    out.push_back(join_path(target_dir, shell::base_name(source)));
}

// The values of an output option: `-o f`, `-qof`, `--output f`,
// `--output=f`; `option` is a short letter or a word like `-out`.
void add_option_values(const Command& cmd, std::string_view option, std::string_view long_opt,
                       std::vector<std::string>& out) {
  std::vector<std::string> args = cmd.args();
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    const std::string* next = i + 1 < args.size() ? &args[i + 1] : nullptr;
    if (option.size() == 1) {
      ShortOption o = short_option(cmd.name(), a, option[0], next);
      if (o.found && !o.value.empty()) out.push_back(o.value);
      if (o.found && o.uses_next) ++i;
      if (o.found) continue;
    }
    if ((a == option || a == long_opt) && next) {
      out.push_back(*next);
      ++i;
    } else if (!long_opt.empty() && a.starts_with(std::string(long_opt) + "=")) {
      out.push_back(std::string(a.substr(long_opt.size() + 1)));
    }
  }
}

// Every file the command writes, replaces or links by its own words (its
// redirections are `outputs`).
std::vector<std::string> written_paths(const Command& cmd) {
  std::vector<std::string> out;
  std::string_view name = cmd.name();
  static constexpr std::string_view kCopiers[] = {"ln", "cp", "mv", "install", "rsync", "scp"};
  static constexpr std::string_view kOperandWriters[] = {"tee", "truncate", "sponge"};
  if (one_of(name, kCopiers)) add_destinations(cmd, out);
  if (one_of(name, kOperandWriters)) {
    std::vector<std::string> args = cmd.args();
    for (size_t i = 0; i < args.size(); ++i) {
      if (value_follows(name, args[i], i + 1 < args.size() ? &args[i + 1] : nullptr))
        ++i;
      else if (args[i].size() < 2 || args[i][0] != '-')
        out.push_back(args[i]);
    }
  }
  if (name == "dd") {
    for (const std::string& a : cmd.args()) {
      if (a.rfind("of=", 0) == 0) out.push_back(a.substr(3));
    }
  }
  if (name == "curl") add_option_values(cmd, "o", "--output", out);
  if (name == "wget") add_option_values(cmd, "O", "--output-document", out);
  if (name == "sort") add_option_values(cmd, "o", "--output", out);
  if (name == "gpg") add_option_values(cmd, "o", "--output", out);
  if (name == "openssl") add_option_values(cmd, "-out", "", out);
  if (name == "tar") add_option_values(cmd, "C", "--directory", out);
  if (name == "unzip") add_option_values(cmd, "d", "", out);
  return out;
}

bool project_secret(std::string_view path) {
  std::string_view base = shell::base_name(path);
  return base == ".env" || base.starts_with(".env.") || base == "config.yaml";
}

// Any write or link onto a credential path by the command's operands: a
// `ln -sf key ~/.ssh/authorized_keys` is as much a write as a redirection.
bool credential_operand_write(const Command& cmd, const std::string& origin) {
  for (const std::string& target : written_paths(cmd)) {
    if (target.empty()) continue;
    std::string path = normalize_path(target, cmd.cwd);
    if (sensitive_path(path) || project_secret(path) ||
        hidden_credential_target(target, cmd, origin)) {
      return true;
    }
  }
  return false;
}

// A git alias defined inline that starts with `!` runs a shell command, with
// the call's remaining words as its arguments: read it as one.
std::optional<Detection> git_shell_alias(const Command& cmd) {
  if (cmd.name() != "git") return std::nullopt;
  std::vector<std::string> words = normalized_words(cmd);
  if (words.size() < 2) return std::nullopt;
  if (!shell::is_static(words[1])) return Detection{kDynamicWord, false};
  if (!words[1].starts_with('!')) return std::nullopt;
  std::string script = words[1].substr(1);
  for (size_t i = 2; i < words.size(); ++i) script += " " + shell_quote(words[i]);
  if (auto d = detect_dangerous(script)) return d;
  return Detection{"shell command via inline git alias", false};
}

bool dynamic_word(const Command& cmd) {
  if (cmd.word >= cmd.argv.size()) return false;
  for (size_t i = 0; i <= cmd.word; ++i) {
    if (!shell::is_static(cmd.argv[i])) return true;
  }
  // A glob in the command word picks the program at run time (/bin/r?).
  const std::string& word = cmd.argv[cmd.word];
  size_t open = word.find('[');
  return word.find_first_of("*?") != std::string::npos ||
         (open != std::string::npos && word.find(']', open + 1) != std::string::npos);
}

// kill $(pgrep …) / kill `pidof …`: processes chosen by name at run time.
bool kills_by_lookup(const shell::Analysis& analysis) {
  bool lookup = false, kill = false;
  for (const Command& cmd : analysis.commands) {
    std::string_view name = cmd.name();
    lookup = lookup || ((name == "pgrep" || name == "pidof") && cmd.via == "$(…)");
    kill = kill ||
           (name == "kill" && !std::all_of(cmd.argv.begin(), cmd.argv.end(), shell::is_static));
  }
  return lookup && kill;
}

std::optional<Detection> check_command(const Command& cmd, const std::string& origin) {
  if (dynamic_word(cmd)) return Detection{kDynamicWord, false};
  std::string_view name = cmd.name();
  if (is_mkfs(name)) return Detection{"format filesystem (mkfs)", true};
  if (auto d = fed_script(cmd)) return d;
  if (world_writable(cmd)) return Detection{"world/other-writable permissions", false};
  if (auto d = git_push(cmd)) return d;
  if (auto d = git_branch_force_delete(cmd)) return d;
  if (auto d = git_shell_alias(cmd)) return d;
  if (hidden_credential_write(cmd, origin) || credential_operand_write(cmd, origin))
    return Detection{"write to sensitive system or credential file", false};
  return std::nullopt;
}

}  // namespace

std::optional<Detection> check_parsed(const shell::Analysis& analysis) {
  if (analysis.fork_bomb) return Detection{"fork bomb", true};
  std::optional<Detection> first;
  if (kills_by_lookup(analysis)) first = Detection{"kill Hermes processes", false};
  for (const Command& cmd : analysis.commands) {
    std::optional<Detection> d = check_command(cmd, analysis.env.origin);
    if (d && d->hardline) return d;
    if (d && !first) first = d;
  }
  return first;
}

}  // namespace hermes::approval
