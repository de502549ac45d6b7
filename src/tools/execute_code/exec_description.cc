// SPDX-License-Identifier: MIT
#include "tools/execute_code/exec_description.h"

#include "tools/execute_code/exec_settings.h"
#include "tools/execute_code/stub_module.h"
#include "tools/execute_code/tool_bridge.h"

#include <map>
#include <string>
#include <vector>

namespace hermes::execute_code {
namespace {

std::string return_note(const registry::ToolSpec& spec) {
  static const std::map<std::string, std::string> kNotes = {
      {"web_search", "Returns {\"data\": {\"web\": [{\"url\", \"title\", \"description\"}, ...]}}"},
      {"web_extract", "Returns {\"results\": [{\"url\", \"title\", \"content\", \"error\"}, ...]}"},
      {"read_file", "Lines are 1-indexed. Returns {\"content\": \"...\", \"total_lines\": N}"},
      {"write_file", "Always overwrites the entire file. Returns {\"bytes_written\": N}"},
      {"search_files",
       "target: \"content\" (search inside files) or \"files\" (find files "
       "by name). Returns {\"matches\": [...]} or {\"files\": [...]}"},
      {"patch", "Replaces old_string with new_string in the file, or applies a V4A patch."},
      {"terminal",
       "Foreground only (no background or pty). Returns {\"output\": \"...\", "
       "\"exit_code\": N}"},
  };
  if (auto it = kNotes.find(spec.name); it != kNotes.end()) return it->second;
  // A tool added later: the first sentence of its own description.
  size_t end = spec.description.find(". ");
  return end == std::string::npos ? spec.description : spec.description.substr(0, end + 1);
}

std::string limits_line(const ExecSettings& s) {
  std::string timeout = s.timeout_s % 60 == 0 ? std::to_string(s.timeout_s / 60) + "-minute"
                                              : std::to_string(s.timeout_s) + "-second";
  return "Limits: " + timeout + " timeout, 50KB stdout cap, max " +
         std::to_string(s.max_tool_calls) +
         " tool calls per script. terminal() is "
         "foreground-only (no background or pty).";
}

}  // namespace

std::string describe(const registry::Registry& registry, const registry::Services& services) {
  ExecSettings settings = read_settings(services.config);
  std::vector<const registry::ToolSpec*> tools = sandbox_tools(registry, services);
  std::string text =
      "Run a Python script that can call Hermes tools programmatically. Use this when you "
      "need 3+ tool calls with processing logic between them, need to filter/reduce large "
      "tool outputs before they enter your context, need conditional branching (if X then Y "
      "else Z), or need to loop (fetch N pages, process N files, retry on failure).\n\n"
      "Use normal tool calls instead when: single tool call with no processing, you need to "
      "see the full result and apply complex reasoning, or the task requires interactive user "
      "input.\n\nAvailable via `from hermes_tools import ...`:\n\n";
  std::vector<StubSignature> sigs = stub_signatures(tools);
  for (size_t i = 0; i < tools.size(); ++i) {
    text += "  " + render_signature(sigs[i]) + " -> dict\n    " + return_note(*tools[i]) + "\n";
  }
  text += "\n" + limits_line(settings) + "\n\n";
  text += runs_elsewhere(services.config) && settings.kernel
              ? "Scripts run with the terminal backend's python3 on that machine, in the "
                "session's working directory there (the same as terminal()).\n\n"
          : runs_elsewhere(services.config)
              ? "Scripts run with the terminal backend's python3, in a private temporary "
                "directory on that machine: open files there by absolute path (tool calls "
                "resolve paths as usual).\n\n"
          : settings.mode == ExecMode::kStrict
              ? "Scripts run in a temporary staging directory, isolated from the project: use "
                "absolute paths.\n\n"
              : "Scripts run in the session's working directory (the same as terminal()), with "
                "the active virtualenv's Python when there is one.\n\n";
  text +=
      "Print your final result to stdout: only printed output comes back. Use Python stdlib "
      "(json, re, math, csv, datetime, collections, etc.) for processing between tool calls.\n\n"
      "Helpers (import them from hermes_tools too):\n"
      "  json_parse(text: str) — json.loads with strict=False; use for terminal() output with "
      "control chars\n"
      "  shell_quote(s: str) — shlex.quote(); use when interpolating dynamic strings into "
      "shell commands\n"
      "  retry(fn, max_attempts=3, delay=2) — retry with exponential backoff for transient "
      "failures\n\n"
      "Example:\n"
      "  from hermes_tools import read_file\n"
      "  lines = read_file(\"README.md\")[\"content\"].splitlines()\n"
      "  print(len(lines))";
  return text;
}

}  // namespace hermes::execute_code
