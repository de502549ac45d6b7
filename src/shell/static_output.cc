// SPDX-License-Identifier: MIT
// The output of commands whose output follows from their arguments and
// static input alone (echo, printf, cat, base64 -d, xxd -r, rev, tr), so
// `$(printf '\x72\x6d')` and `echo … | base64 -d | sh` read as what they
// produce.
#include "core/base64.h"

#include <algorithm>
#include <cstdlib>

#include "shell/evaluator.h"

namespace hermes::shell {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// Backslash escapes of echo -e, printf formats and %b.
std::string unescape(std::string_view s, bool octal_needs_zero) {
  std::string out;
  static constexpr std::string_view kFrom = "abefnrtv\\";
  static constexpr std::string_view kTo = "\a\b\x1b\f\n\r\t\v\\";
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    if (size_t k = kFrom.find(c); k != std::string_view::npos) {
      out += kTo[k];
    } else if (c == 'x' && i + 1 < s.size() && hex_value(s[i + 1]) >= 0) {
      int v = hex_value(s[++i]);
      if (i + 1 < s.size() && hex_value(s[i + 1]) >= 0) v = v * 16 + hex_value(s[++i]);
      out += static_cast<char>(v);
    } else if (c >= '0' && c <= '7') {
      size_t max = octal_needs_zero && c == '0' ? 3 : 2;
      int v = octal_needs_zero && c == '0' ? 0 : c - '0';
      for (size_t n = 0; n < max && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++n) {
        v = v * 8 + (s[++i] - '0');
      }
      out += static_cast<char>(v);
    } else {
      out += '\\';
      out += c;
    }
  }
  return out;
}

std::optional<std::string> echo(const std::vector<std::string>& argv) {
  bool newline = true, escapes = false;
  size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-' &&
         argv[i].find_first_not_of("neE", 1) == std::string::npos;
       ++i) {
    newline = newline && argv[i].find('n') == std::string::npos;
    if (argv[i].find('e') != std::string::npos) escapes = true;
    if (argv[i].find('E') != std::string::npos) escapes = false;
  }
  std::string out;
  for (size_t k = i; k < argv.size(); ++k) out += (k > i ? " " : "") + argv[k];
  if (escapes) out = unescape(out, true);
  return newline ? out + "\n" : out;
}

std::optional<std::string> tr(const std::vector<std::string>& argv, const std::string& in) {
  auto set = [](const std::string& spec) {
    std::string out;
    for (size_t i = 0; i < spec.size(); ++i) {
      if (i + 2 < spec.size() && spec[i + 1] == '-' && spec[i] <= spec[i + 2]) {
        for (int c = spec[i]; c <= spec[i + 2]; ++c) out += static_cast<char>(c);
        i += 2;
      } else {
        out += spec[i];
      }
    }
    return out;
  };
  if (argv.size() == 3 && argv[1] == "-d") {
    std::string gone = set(argv[2]), out;
    for (char c : in)
      if (gone.find(c) == std::string::npos) out += c;
    return out;
  }
  if (argv.size() != 3 || argv[1].empty() || argv[1][0] == '-') return std::nullopt;
  std::string from = set(argv[1]), to = set(argv[2]);
  if (to.empty()) return std::nullopt;
  std::string out = in;
  for (char& c : out) {
    size_t k = from.find(c);
    if (k != std::string::npos) c = to[std::min(k, to.size() - 1)];
  }
  return out;
}

std::optional<std::string> filter(const std::vector<std::string>& argv, const std::string& in) {
  const std::string& name = argv[0];
  if (name == "cat" && (argv.size() == 1 || (argv.size() == 2 && argv[1] == "-"))) return in;
  if (name == "base64" && argv.size() == 2 &&
      (argv[1] == "-d" || argv[1] == "--decode" || argv[1] == "-D")) {
    std::string text;
    for (char c : in)
      if (!std::isspace(static_cast<unsigned char>(c))) text += c;
    return base64_decode(text);
  }
  if (name == "xxd" && argv.size() >= 2 &&
      std::find(argv.begin(), argv.end(), "-r") != argv.end() &&
      std::find(argv.begin(), argv.end(), "-p") != argv.end()) {
    std::string out;
    int hi = -1;
    for (char c : in) {
      int v = hex_value(c);
      if (v < 0) continue;
      if (hi < 0) {
        hi = v;
      } else {
        out += static_cast<char>(hi * 16 + v);
        hi = -1;
      }
    }
    return out;
  }
  if (name == "rev" && argv.size() == 1) {
    std::string out, line;
    for (char c : in) {
      if (c != '\n') {
        line += c;
        continue;
      }
      out += std::string(line.rbegin(), line.rend()) + "\n";
      line.clear();
    }
    return out + std::string(line.rbegin(), line.rend());
  }
  if (name == "tr") return tr(argv, in);
  return std::nullopt;
}

}  // namespace

std::string format_printf(const std::vector<std::string>& args) {
  if (args.empty()) return "";
  const std::string& format = args[0];
  std::string out;
  size_t next = 1;
  do {
    for (size_t i = 0; i < format.size(); ++i) {
      if (format[i] != '%' || i + 1 >= format.size()) {
        size_t end = format.find('%', i);
        out += unescape(
            std::string_view(format).substr(i, end == std::string::npos ? end : end - i), false);
        if (end == std::string::npos) break;
        i = end - 1;
        continue;
      }
      size_t j = i + 1;
      while (j < format.size() &&
             std::string_view("-+ #0123456789.").find(format[j]) != std::string_view::npos)
        ++j;
      char conv = j < format.size() ? format[j] : 's';
      i = j;
      if (conv == '%') {
        out += '%';
        continue;
      }
      std::string arg = next < args.size() ? args[next++] : "";
      if (conv == 'b') {
        out += unescape(arg, true);
      } else if (conv == 'c') {
        out += arg.substr(0, 1);
      } else if (conv == 'd' || conv == 'i') {
        out += std::to_string(std::strtol(arg.c_str(), nullptr, 0));
      } else {
        out += arg;
      }
    }
  } while (next < args.size() && next > 1);
  return out;
}

std::optional<std::string> static_output(const std::vector<std::string>& argv,
                                         const std::optional<std::string>& input) {
  const std::string& name = argv[0];
  if (name == "echo") return echo(argv);
  if (name == "printf")
    return argv.size() > 1 && argv[1] != "-v"
               ? std::optional(format_printf({argv.begin() + 1, argv.end()}))
               : std::nullopt;
  if (name == "true" || name == ":") return std::string();
  if (!input) return std::nullopt;
  return filter(argv, *input);
}

}  // namespace hermes::shell
