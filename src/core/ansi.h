// SPDX-License-Identifier: MIT
// Removal of terminal escape sequences from command output, on code points.
#pragma once

#include <string>
#include <string_view>

namespace hermes {

// Strips CSI, OSC (BEL or ESC\ terminated), DCS/SOS/PM/APC strings, nF and
// two-character ESC sequences, 8-bit CSI/OSC and every other C1 control
// (U+0080–U+009F). Works on decoded code points, so UTF-8 text survives;
// invalid bytes are copied through untouched. Other C0 controls are kept.
// Text with no ESC and no C1 character is returned unchanged.
std::string strip_ansi(std::string_view text);

}  // namespace hermes
