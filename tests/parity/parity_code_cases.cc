// SPDX-License-Identifier: MIT
// Parity cases for execute_code: plain output, tool calls from the script
// through the file RPC, and a script error.
#include "parity/parity_env.h"

namespace hermes::testing {

std::vector<ParityCase> code_cases() {
  auto code = [](ParityEnv& e, const std::string& source) {
    return e.call("execute_code", {{"code", source}});
  };
  return {
      {"code_print", [code](ParityEnv& e) { return code(e, "print('hi', 6 * 7)"); }},
      {"code_tool_calls",
       [code](ParityEnv& e) {
         e.write("data.txt", "from the host\n");
         return Json::array({code(e,
                                  "from hermes_tools import read_file, write_file, terminal\n"
                                  "print(read_file('data.txt')['content'])\n"
                                  "write_file('out.txt', 'written by code\\n')\n"
                                  "print(terminal('pwd')['output'])\n"),
                             e.read("out.txt")});
       }},
      {"code_exception", [code](ParityEnv& e) { return code(e, "raise ValueError('boom')"); }},
  };
}

}  // namespace hermes::testing
