// SPDX-License-Identifier: MIT
// What a file's bytes are (docs/tools/read_file.md): text, UTF-16 text to
// transcode, or binary with a magic-byte kind; and the extension lists.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::read_file {

enum class Utf16 { kLittleEndian, kBigEndian };

// True when the first 1000 bytes hold a NUL or invalid UTF-8 (one multibyte
// sequence cut at the very end is fine).
bool looks_binary(std::string_view head);
// UTF-16 by BOM, or by zero bytes only at odd (LE) / even (BE) indices of
// the first 512 bytes (at least two).
std::optional<Utf16> detect_utf16(std::string_view head);
// UTF-16 bytes as UTF-8 with CRLF folded to LF (BOM dropped, unpaired
// surrogates become U+FFFD).
std::string transcode_utf16(std::string_view bytes, Utf16 order);
// `PNG image data`, `ELF executable`, … or `unknown binary`.
std::string binary_kind(std::string_view head);
// `<n> bytes` below 1024, `<x.y> KB`, from 1 MiB `<x.y> MB`.
std::string format_size(uint64_t bytes);

// The lower-cased last extension with its dot (`.png`), or empty.
std::string extension_of(std::string_view path);
bool is_binary_extension(std::string_view ext);
bool is_image_extension(std::string_view ext);

}  // namespace hermes::read_file
