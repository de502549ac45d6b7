// SPDX-License-Identifier: MIT
// Standard base64 (RFC 4648, with padding): how the file RPC moves scripts,
// modules and requests through shell commands without quoting trouble.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hermes::execute_code {

// One line, no wrapping.
std::string base64_encode(std::string_view bytes);

// nullopt for a character outside the alphabet or a length that is not a
// multiple of 4 (what `base64` without wrapping prints).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace hermes::execute_code
