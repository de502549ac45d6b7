// SPDX-License-Identifier: MIT
// Turning a shell command into the texts the dangerous-command rules see:
// NFKC and look-alike folding, escape/quote/$IFS/variable deobfuscation,
// quote-aware splitting at command starts, and nested `-c`/eval payloads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes::approval {

// One command (or nested payload) ready for matching.
struct CommandTexts {
  // The normalised command with quote characters removed.
  std::string plain;
  // The normalised command with quoted spans blanked (quoted prose cannot
  // trigger text rules).
  std::string masked;
  // Each simple command's plain text, starting at its command word.
  std::vector<std::string> segments;
};

// ANSI sequences and NUL removed, NFKC, look-alike and zero-width folding:
// the text the shell parser reads.
std::string fold_text(std::string_view command);

// The text normalisation: ANSI/NUL removal, NFKC, look-alike and zero-width
// folding, `\<newline>` joins, home folding to `~`, `$IFS` → space,
// backslash unescaping, empty quote pairs dropped, simple variable
// assignments substituted, `$(echo x)` / `${v:-x}` resolved.
std::string normalize_command(std::string_view command);

// The texts to match for `command` and, recursively (depth-limited), for
// the payloads of `sh -c`, `bash -lc`, `eval`, `env -S` and interpreter
// `-c`/`-e` flags. The first entry is the command itself.
std::vector<CommandTexts> command_variants(std::string_view command);

// True when the command is too large or too fragmented to analyse
// ("command parser limit exceeded").
bool exceeds_parser_limits(std::string_view command);

}  // namespace hermes::approval
