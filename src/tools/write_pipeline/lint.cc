// SPDX-License-Identifier: MIT
// Linters per extension and the pre-existing-error filter.
#include "tools/write_pipeline/lint.h"

#include "backend/local_command.h"
#include "core/strings.h"
#include "tools/file_common/write_safety.h"
#include "tools/write_pipeline/content_gate.h"

#include <set>
#include <vector>

namespace hermes::write_pipeline {
namespace {

constexpr std::chrono::seconds kLintTimeout{20};

// Compiles stdin without writing __pycache__ into the user's tree.
constexpr const char* kPythonCheck =
    "import sys\n"
    "src = sys.stdin.buffer.read()\n"
    "try:\n"
    "    compile(src, sys.argv[1], 'exec', dont_inherit=True)\n"
    "except SyntaxError as e:\n"
    "    sys.stdout.write('SyntaxError: %s (line %s, column %s)' % (e.msg, e.lineno, e.offset))\n"
    "    sys.exit(1)\n"
    "except ValueError as e:\n"
    "    sys.stdout.write('ValueError: %s' % e)\n"
    "    sys.exit(1)\n";

struct Linter {
  std::vector<std::string> argv;  // "{path}" is replaced by the file path
  bool content_on_stdin;
};

std::optional<Linter> linter_for(const std::string& ext) {
  if (ext == ".py") return Linter{{"python3", "-c", kPythonCheck, "{path}"}, true};
  if (ext == ".js" || ext == ".cjs") return Linter{{"node", "--check", "-"}, true};
  if (ext == ".mjs") return Linter{{"node", "--input-type=module", "--check", "-"}, true};
  if (ext == ".ts") return Linter{{"tsc", "--noEmit", "{path}"}, false};
  if (ext == ".go") return Linter{{"go", "vet", "{path}"}, false};
  if (ext == ".rs") return Linter{{"rustfmt", "--check", "{path}"}, false};
  return std::nullopt;
}

// node prints a stack after the message; keep what a model can act on.
std::string clean_output(std::string_view raw) {
  std::string out;
  for (const auto& line : split(raw, '\n')) {
    if (starts_with(line, "at ") || starts_with(line, "Node.js v")) continue;
    out += (out.empty() ? "" : "\n") + line;
  }
  return out;
}

LintReport skipped(std::string message) { return {"skipped", "", std::move(message)}; }

LintReport lint_content(const std::string& path, std::string_view content, bool on_host,
                        std::stop_token stop) {
  const std::string ext = file_common::file_extension(path);
  if (ext == ".json" || ext == ".yaml" || ext == ".yml" || ext == ".toml") {
    auto error = syntax_error(ext, content);
    return error ? LintReport{"error", *error, ""} : LintReport{"ok", "", ""};
  }
  auto linter = linter_for(ext);
  if (!linter) return skipped("No linter for " + ext + " files");
  if (!linter->content_on_stdin && !on_host) {
    return skipped(linter->argv[0] + " checks the file on disk, which is on another machine");
  }
  std::vector<std::string> argv = linter->argv;
  for (auto& arg : argv) {
    if (arg == "{path}") arg = path;
  }
  auto run = backend::run_local_command(
      argv, kLintTimeout, stop, /*separate_stderr=*/false,
      linter->content_on_stdin ? std::optional<std::string>(std::string(content)) : std::nullopt);
  if (!run) {
    if (run.error().code == ErrorCode::kNotFound) return skipped(argv[0] + " not available");
    return skipped("No linter available for " + ext + " (" + run.error().message + ")");
  }
  if (run->exit_code == -1) {
    return skipped("No linter available for " + ext + " (" + argv[0] + " timed out)");
  }
  if (run->exit_code == 0) return {"ok", "", ""};
  return {"error", clean_output(run->output), ""};
}

std::string new_lines_only(const std::string& now, const std::string& before) {
  std::set<std::string> old_lines;
  for (const auto& line : split(before, '\n')) old_lines.insert(line);
  std::string out;
  for (const auto& line : split(now, '\n')) {
    if (!old_lines.count(line)) out += (out.empty() ? "" : "\n") + line;
  }
  return out;
}

}  // namespace

bool lints_with_a_process(const std::string& path) {
  return linter_for(file_common::file_extension(path)).has_value();
}

LintReport lint_delta(const std::string& path, std::string_view new_content,
                      const std::optional<std::string>& old_content, bool on_host,
                      std::stop_token stop) {
  LintReport now = lint_content(path, new_content, on_host, stop);
  // A linter that reads the file on disk cannot see the old content.
  auto linter = linter_for(file_common::file_extension(path));
  if (now.status != "error" || !old_content || (linter && !linter->content_on_stdin)) return now;
  LintReport before = lint_content(path, *old_content, on_host, stop);
  if (before.status != "error") return now;
  std::string fresh = new_lines_only(now.output, before.output);
  if (fresh.empty()) {
    now.message = "Pre-existing lint errors only: this edit introduced no new ones.";
    return now;
  }
  now.output =
      "New lint errors introduced by this edit (pre-existing errors filtered out):\n" + fresh;
  return now;
}

}  // namespace hermes::write_pipeline
