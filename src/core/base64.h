// SPDX-License-Identifier: MIT
// Standard base64 (RFC 4648, with padding): how bytes travel through shell
// commands on a backend (file writes, the execute_code file RPC) without
// quoting trouble.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hermes {

// One line, no wrapping.
std::string base64_encode(std::string_view bytes);

// nullopt for a character outside the alphabet or a length that is not a
// multiple of 4 (what `base64` without wrapping prints).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace hermes
