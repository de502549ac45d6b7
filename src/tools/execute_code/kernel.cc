// SPDX-License-Identifier: MIT
#include "tools/execute_code/kernel.h"

#include "core/strings.h"

namespace hermes::execute_code {

std::optional<CellEnd> parse_cell_end(std::string_view reply) {
  if (reply == "ok") return CellEnd{};
  if (reply == "interrupted") return CellEnd{.kind = CellEnd::kInterrupted};
  if (reply == "memory") return CellEnd{.kind = CellEnd::kMemory};
  if (!starts_with(reply, "exit ")) return std::nullopt;
  auto code = parse_int(reply.substr(5));
  if (!code || *code < INT32_MIN || *code > INT32_MAX) return std::nullopt;
  return CellEnd{.kind = CellEnd::kExit, .exit_code = static_cast<int>(*code)};
}

void record_cell_end(const CellEnd& end, bool interrupting, CellResult& result) {
  switch (end.kind) {
    case CellEnd::kOk:
      result.run.exit_code = 0;
      break;
    case CellEnd::kExit:
      result.run.exit_code = end.exit_code;
      break;
    case CellEnd::kInterrupted:
      // 130: a cell that raised KeyboardInterrupt itself.
      result.run.exit_code = interrupting ? 0 : 130;
      break;
    case CellEnd::kMemory:
      result.run.exit_code = 1;
      result.memory_exceeded = true;
      result.kernel_lost = true;
      break;
  }
}

}  // namespace hermes::execute_code
