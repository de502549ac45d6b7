// SPDX-License-Identifier: MIT
// Commands that start other commands (wrappers like sudo or nice, eval,
// `sh -c`, shells fed a script, find -exec, xargs, watch, ssh, trap) and
// the builtins that change the session (cd, export, alias, read …).
#include <algorithm>
#include <map>

#include "shell/evaluator.h"
#include "shell/parser_internal.h"

namespace hermes::shell {
namespace {

struct Wrapper {
  std::string_view name;
  std::string_view options_with_value;  // short options taking an argument
  int operands = 0;                     // positional operands before the command
};

// Programs that run the rest of their arguments as a command.
constexpr Wrapper kWrappers[] = {
    {"sudo", "ugCDhprtUT", 0},
    {"doas", "uC", 0},
    {"env", "uCS", 0},
    {"exec", "a", 0},
    {"command", "", 0},
    {"builtin", "", 0},
    {"nice", "n", 0},
    {"ionice", "cnpPu", 0},
    {"nohup", "", 0},
    {"setsid", "", 0},
    {"time", "fo", 0},
    {"stdbuf", "ioe", 0},
    {"timeout", "sk", 1},
    {"chroot", "", 1},
    {"busybox", "", 0},
    {"pkexec", "u", 0},
    {"unbuffer", "", 0},
    {"caffeinate", "tw", 0},
    {"taskset", "", 1},
    {"chrt", "", 1},
    {"flock", "wEc", 1},
    {"strace", "abeEIoOpPsSuU", 0},
    {"ltrace", "aeElnopsSu", 0},
    {"valgrind", "", 0},
    {"xvfb-run", "afnsepw", 0},
    {"systemd-run", "pEu", 0},
    {"nsenter", "tSGn", 0},
    {"unshare", "", 0},
    {"runuser", "ugl", 0},
    {"firejail", "", 0},
    {"catchsegv", "", 0},
    {"proxychains", "f", 0},
    {"proxychains4", "f", 0},
    {"torsocks", "", 0},
    {"dbus-launch", "", 0},
    {"fakeroot", "ls", 0},
};

const Wrapper* find_wrapper(std::string_view name) {
  for (const Wrapper& w : kWrappers) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

bool is_assignment_word(std::string_view w) {
  size_t eq = w.find('=');
  return eq != std::string_view::npos && eq > 0 && is_name(w.substr(0, eq));
}

// Skips a wrapper's options; returns the index after them, or npos when the
// wrapper only looks something up (`command -v`).
size_t skip_options(const std::vector<std::string>& argv, size_t i, const Wrapper& w,
                    std::vector<std::pair<std::string, std::string>>& env) {
  bool is_env = w.name == "env";
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--") return i + 1;
    if (is_env && is_assignment_word(a)) {
      size_t eq = a.find('=');
      env.emplace_back(a.substr(0, eq), a.substr(eq + 1));
      continue;
    }
    if (a.size() < 2 || a[0] != '-') return i;
    if ((w.name == "command" || w.name == "type") && (a == "-v" || a == "-V"))
      return std::string::npos;
    if (is_env && (a.rfind("-S", 0) == 0 || a.rfind("--split-string", 0) == 0))
      return std::string::npos;
    if (a.rfind("--", 0) == 0)
      continue;  // --opt=value; long options with separate values are rare here
    char last = a.back();
    if (a.size() == 2 && w.options_with_value.find(last) != std::string_view::npos) ++i;
  }
  return i;
}

}  // namespace

bool is_shell_name(std::string_view name) {
  static constexpr std::string_view kShells[] = {"sh",   "bash",  "dash", "zsh",   "ksh",  "mksh",
                                                 "ash",  "yash",  "posh", "rbash", "fish", "csh",
                                                 "tcsh", "ksh93", "lksh", "oksh"};
  return std::find(std::begin(kShells), std::end(kShells), name) != std::end(kShells);
}

std::string_view base_name(std::string_view word) {
  size_t slash = word.rfind('/');
  return slash == std::string_view::npos ? word : word.substr(slash + 1);
}

size_t command_word(const std::vector<std::string>& argv,
                    std::vector<std::pair<std::string, std::string>>& env) {
  size_t i = 0;
  for (int hops = 0; i < argv.size() && hops < 16; ++hops) {
    const Wrapper* w = find_wrapper(base_name(argv[i]));
    if (!w) return i;
    size_t next = skip_options(argv, i + 1, *w, env);
    if (next == std::string::npos) return i;  // env -S, command -v: handled as runners
    next += static_cast<size_t>(w->operands);
    if (w->name == "timeout" || w->name == "taskset" || w->name == "chrt") {
      while (next < argv.size() && !argv[next].empty() && argv[next][0] == '-') ++next;
    }
    if (next >= argv.size()) return i;  // `sudo -s`, bare `nohup`: the wrapper itself runs
    i = next;
  }
  return i;
}

// ---- builtins -------------------------------------------------------------

void Evaluator::declare(const std::vector<std::string>& args, bool export_all) {
  bool exporting = export_all, functions = false;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 1 && (a[0] == '-' || a[0] == '+')) {
      exporting = exporting || a.find('x') != std::string::npos;
      functions = functions || a.find('f') != std::string::npos;
      continue;
    }
    if (functions) continue;
    size_t eq = a.find('=');
    std::string name = a.substr(0, eq);
    bool append = !name.empty() && name.back() == '+';
    if (append) name.pop_back();
    if (!is_name(name)) continue;
    if (eq != std::string::npos) {
      std::string value = a.substr(eq + 1);
      if (!value.empty() && value[0] == '(') value = std::string(1, kUnknown);
      assign(name, append ? lookup(name).value_or("") + value : value);
    }
    if (exporting) out_.env.exported.insert(name);
  }
}

void Evaluator::read_builtin(const std::vector<std::string>& args, const Context& ctx) {
  std::vector<std::string> names;
  bool array = false;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 1 && a[0] == '-') {
      char opt = a.back();
      array = array || opt == 'a';
      if (std::string_view("adinNptu").find(opt) != std::string_view::npos && opt != 'a') ++i;
      if (opt == 'a' && i + 1 < args.size()) names.push_back(args[++i]);
      continue;
    }
    names.push_back(a);
  }
  if (names.empty()) names.push_back("REPLY");
  std::optional<std::string> text = ctx.input.text;
  if (text && !array) {
    std::string line = text->substr(0, text->find('\n'));
    std::string ifs = lookup("IFS").value_or(" \t\n");
    for (size_t k = 0; k < names.size(); ++k) {
      size_t start = line.find_first_not_of(ifs);
      line = start == std::string::npos ? "" : line.substr(start);
      size_t end = k + 1 == names.size() ? std::string::npos : line.find_first_of(ifs);
      assign(names[k], line.substr(0, end));
      line = end == std::string::npos ? "" : line.substr(end);
    }
    return;
  }
  for (const std::string& n : names) assign(n, std::string(1, kUnknown));
}

void Evaluator::change_directory(const std::vector<std::string>& args) {
  std::vector<std::string> operands;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] != "--" && !(args[i].size() > 1 && args[i][0] == '-')) operands.push_back(args[i]);
  }
  std::string& cwd = out_.env.cwd;
  if (operands.empty()) {
    cwd = args[0] == "cd" ? "~" : std::string(1, kUnknown);
  } else if (operands[0] == "-") {
    cwd = std::string(1, kUnknown);
  } else if (operands[0][0] == '/' || operands[0][0] == '~' || cwd == ".") {
    cwd = operands[0];
  } else {
    cwd += "/" + operands[0];
  }
}

bool Evaluator::run_builtin(const std::vector<std::string>& argv, const Context& ctx,
                            std::optional<std::string>& output) {
  const std::string& name = argv[0];
  output = std::string();
  if (name == "cd" || name == "pushd" || name == "popd") {
    change_directory(argv);
  } else if (name == "export" || name == "declare" || name == "typeset" || name == "local" ||
             name == "readonly") {
    declare(argv, name == "export");
  } else if (name == "unset") {
    bool functions = std::find(argv.begin(), argv.end(), "-f") != argv.end();
    for (size_t i = 1; i < argv.size(); ++i) {
      if (argv[i][0] == '-') continue;
      if (functions) {
        out_.env.functions.erase(argv[i]);
      } else {
        out_.env.vars.erase(argv[i]);
      }
    }
  } else if (name == "alias") {
    for (size_t i = 1; i < argv.size(); ++i) {
      size_t eq = argv[i].find('=');
      if (eq != std::string::npos && eq > 0)
        out_.env.aliases[argv[i].substr(0, eq)] = argv[i].substr(eq + 1);
    }
  } else if (name == "unalias") {
    for (size_t i = 1; i < argv.size(); ++i) out_.env.aliases.erase(argv[i]);
  } else if (name == "read") {
    read_builtin(argv, ctx);
  } else if (name == "printf" && argv.size() > 2 && argv[1] == "-v") {
    std::vector<std::string> rest(argv.begin() + 3, argv.end());
    bool known =
        std::all_of(rest.begin(), rest.end(), [](const std::string& s) { return is_static(s); });
    assign(argv[2], known ? format_printf(rest) : std::string(1, kUnknown));
  } else if (name == "set" && argv.size() > 1 && argv[1] == "--") {
    positional_.assign(argv.begin() + 2, argv.end());
  } else if (name == "shift") {
    size_t n = argv.size() > 1 ? std::min<size_t>(positional_.size(),
                                                  std::strtoul(argv[1].c_str(), nullptr, 10))
                               : 1;
    positional_.erase(positional_.begin(),
                      positional_.begin() + static_cast<long>(std::min(n, positional_.size())));
  } else if (name == "mapfile" || name == "readarray") {
    if (argv.size() > 1 && is_name(argv.back())) assign(argv.back(), std::string(1, kUnknown));
  } else {
    output.reset();
    return false;
  }
  return true;
}

// ---- commands that run other commands -------------------------------------

namespace {

// `sh -c 'text' arg0 args…`: the text and its positional parameters, or the
// script operand's index (npos: the script comes from stdin).
struct ShellCall {
  std::optional<std::string> command;
  std::vector<std::string> positional;
  size_t script = std::string::npos;
};

ShellCall read_shell_call(const std::vector<std::string>& args) {
  ShellCall call;
  bool want_command = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--" || a == "-") {
      if (a == "-") break;
      continue;
    }
    if (!want_command && a.size() > 1 && (a[0] == '-' || a[0] == '+') && a[1] != '-') {
      want_command = want_command || a.find('c') != std::string::npos;
      if (a.find_first_of("oO") != std::string::npos) ++i;
      continue;
    }
    if (a.rfind("--", 0) == 0) continue;
    if (want_command) {
      call.command = a;
      call.positional.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      if (!call.positional.empty()) call.positional.erase(call.positional.begin());  // $0
      return call;
    }
    call.script = i;
    return call;
  }
  return call;
}

std::string join(const std::vector<std::string>& words, size_t from) {
  std::string out;
  for (size_t i = from; i < words.size(); ++i) out += (i > from ? " " : "") + words[i];
  return out;
}

// find … -exec cmd args ; — each command find would start.
std::vector<std::vector<std::string>> find_exec_commands(const std::vector<std::string>& args) {
  std::vector<std::vector<std::string>> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "-exec" && args[i] != "-execdir" && args[i] != "-ok" && args[i] != "-okdir")
      continue;
    std::vector<std::string> cmd;
    for (++i; i < args.size() && args[i] != ";" && args[i] != "+"; ++i) cmd.push_back(args[i]);
    if (!cmd.empty()) out.push_back(std::move(cmd));
  }
  return out;
}

// xargs [options] cmd args: the command with one unknown operand.
std::vector<std::string> xargs_command(const std::vector<std::string>& args) {
  static constexpr std::string_view kWithValue = "adEeIiLlnPs";
  size_t i = 0;
  for (; i < args.size() && args[i].size() > 1 && args[i][0] == '-'; ++i) {
    if (args[i] == "--") {
      ++i;
      break;
    }
    if (args[i].size() == 2 && kWithValue.find(args[i][1]) != std::string_view::npos) ++i;
  }
  std::vector<std::string> cmd(args.begin() + static_cast<long>(std::min(i, args.size())),
                               args.end());
  if (cmd.empty()) cmd.push_back("echo");
  cmd.push_back(std::string(1, kUnknown));
  return cmd;
}

// ssh [options] host command…: the remote command text.
std::optional<std::string> ssh_command(const std::vector<std::string>& args) {
  static constexpr std::string_view kWithValue = "BbcDEeFIiJLlmOoPpQRSWw";
  size_t i = 0;
  for (; i < args.size() && args[i].size() > 1 && args[i][0] == '-'; ++i) {
    if (args[i].size() == 2 && kWithValue.find(args[i][1]) != std::string_view::npos) ++i;
  }
  if (i + 1 >= args.size()) return std::nullopt;
  return join(args, i + 1);
}

}  // namespace

void Evaluator::run_runners(const Command& cmd, const Context& ctx) {
  std::string name(cmd.name());
  std::vector<std::string> args = cmd.args();
  Context c = ctx;
  c.outputs.clear();
  c.background = false;
  if (name == "eval" || name == "watch") {
    std::string text = join(args, 0);
    if (is_static(text)) run_nested(text, ctx, name, positional_, name == "watch");
  } else if (name == "trap" && !args.empty() && is_static(args[0])) {
    run_nested(args[0], c, "trap", positional_, false);
  } else if (is_shell_name(name)) {
    ShellCall call = read_shell_call(args);
    if (call.command) {
      if (is_static(*call.command))
        run_nested(*call.command, c, name + " -c", call.positional, true);
    } else if (call.script == std::string::npos && cmd.input.text) {
      Context fed = c;
      fed.input = Input{};
      run_nested(*cmd.input.text, fed, "stdin of " + name, {}, true);
    }
  } else if ((name == "su" || name == "script" || name == "sg") && args.size() > 1) {
    auto it = std::find(args.begin(), args.end(), "-c");
    if (it != args.end() && it + 1 != args.end() && is_static(*(it + 1))) {
      run_nested(*(it + 1), c, name + " -c", {}, true);
    }
  } else if (name == "env") {
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].rfind("-S", 0) != 0 && args[i].rfind("--split-string", 0) != 0) continue;
      std::string text = args[i].size() > 2 && args[i][1] == 'S' ? args[i].substr(2)
                         : i + 1 < args.size()                   ? join(args, i + 1)
                                                                 : "";
      if (is_static(text)) run_nested(text, c, "env -S", positional_, true);
      break;
    }
  } else if (name == "find") {
    for (auto& inner : find_exec_commands(args)) {
      c.via = "find -exec";
      run_argv(std::move(inner), c);
    }
  } else if (name == "xargs") {
    c.via = "xargs";
    run_argv(xargs_command(args), c);
  } else if (name == "ssh") {
    if (auto text = ssh_command(args); text && is_static(*text))
      run_nested(*text, c, "ssh", {}, true);
  }
}

}  // namespace hermes::shell
