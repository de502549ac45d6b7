// SPDX-License-Identifier: MIT
// SQL whose WHERE filters nothing out: `DELETE FROM t WHERE 1=1`,
// `UPDATE t SET … WHERE id = id OR 'a' = 'a'`. A statement like that
// changes every row, as one without a WHERE does (docs/approval.md).
#pragma once

#include <string_view>

namespace hermes::approval {

// True when `text` holds a DELETE or UPDATE whose WHERE clause is true for
// every row: constants that are true (`1`, `TRUE`, `2 > 1`, `'a' = 'a'`),
// an operand compared with itself (`id = id`, `x >= x`, `x LIKE x`),
// `LIKE '%'`, and NOT/AND/OR/parentheses over such terms.
bool has_always_true_where(std::string_view text);

}  // namespace hermes::approval
