// SPDX-License-Identifier: MIT
// Structural checks over the parsed commands.
#include "tools/approval/command_checks.h"

#include "tools/approval/command_render.h"

#include <re2/re2.h>

#include <algorithm>
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
bool hidden_credential_write(const Command& cmd, const std::string& origin) {
  for (const shell::Output& o : cmd.outputs) {
    bool relative = !o.target.empty() && o.target[0] != '/' && o.target[0] != '~';
    if (relative && cmd.cwd == "." && !origin.empty() &&
        sensitive_path(normalize_path(origin + "/" + o.target, "."))) {
      return true;
    }
    bool unknown_dir = !shell::is_static(cmd.cwd) || !shell::is_static(o.target);
    if (unknown_dir && credential_name(o.target) && o.target.find('/') == std::string::npos)
      return true;
    if (!shell::is_static(o.target) && credential_name(o.target)) return true;
  }
  return false;
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
  if (hidden_credential_write(cmd, origin))
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
