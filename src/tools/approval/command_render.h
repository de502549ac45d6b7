// SPDX-License-Identifier: MIT
// The parsed form of a command rendered for the rule table: each simple
// command as it would start (wrappers stripped, paths and options
// normalised), and the whole program with quoted operands masked.
#pragma once

#include "tools/approval/command_normalize.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "shell/analyze.h"

namespace hermes::approval {

// `path` as an absolute or `~`-relative path where possible: relative to
// `cwd`, the home directory folded to `~`, `//`, `/./` and `..` collapsed.
std::string normalize_path(std::string_view path, std::string_view cwd);

// `--forc` → `--force`: a long option abbreviated as the program accepts,
// for programs whose options select dangerous behaviour.
std::string expand_long_option(std::string_view program, std::string_view arg);

// git's aliases defined by the command itself, by lower-case name:
// `git -c alias.p='push --force' p`, GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n>.
std::map<std::string, std::string> inline_git_aliases(const shell::Command& cmd);

// The command's words from its command word on, with git's global
// options dropped, an alias defined inline expanded (a shell alias as one
// `!cmd` word), options expanded and path operands normalised.
std::vector<std::string> normalized_words(const shell::Command& cmd);

// One CommandTexts for the whole analysis (segments: one per command), and
// one more with SQL comments removed when a command carries any.
std::vector<CommandTexts> render(const shell::Analysis& analysis);

}  // namespace hermes::approval
