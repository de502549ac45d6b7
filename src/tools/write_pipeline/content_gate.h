// SPDX-License-Identifier: MIT
// Checks and shims applied to candidate content before it is written
// (docs/tools/write_file.md): lone surrogates, the fail-closed syntax gate
// for JSON/YAML/TOML, and CRLF/BOM preservation.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hermes::write_pipeline {

// The MCP layer decodes a lone `\udXXX` escape into its 3-byte WTF-8 form
// (ED A0..BF xx). Returns the first one outside U+DC80–U+DCFF as `\udxxx`.
std::optional<std::string> find_lone_surrogate(std::string_view content);

// Turns each surrogate-escaped byte (U+DC80–U+DCFF) back into the raw byte
// 0x80–0xFF it stands for; other text is unchanged.
std::string decode_surrogate_escapes(std::string_view content);

// For .json/.yaml/.yml/.toml (`ext` lowercase, with dot): "<Error>: <detail>"
// when `content` does not parse; nullopt when it does or `ext` is not gated.
std::optional<std::string> syntax_error(const std::string& ext, std::string_view content);

// True when the first 4 KB of `text` hold a CRLF.
bool head_has_crlf(std::string_view text);

// Every line ending (CRLF, lone CR, LF) in `text` becomes CRLF.
std::string to_crlf(std::string_view text);

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

}  // namespace hermes::write_pipeline
