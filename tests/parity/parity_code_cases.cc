// SPDX-License-Identifier: MIT
// Parity cases for execute_code: plain output, tool calls from the script,
// a script error, and the session's kernel (on the local backend here, over
// the backend's stream elsewhere): state kept across calls, a reset, a
// crash answered with a fresh kernel next, a shown image.
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
      {"code_kernel_persists",
       [code](ParityEnv& e) {
         return Json::array(
             {code(e, "import json\nx = 41"), code(e, "print(x + 1, json.dumps([1]))"),
              e.call("execute_code", {{"code", "print('x' in globals())"}, {"reset", true}})});
       }},
      {"code_kernel_crash",
       [code](ParityEnv& e) {
         return Json::array({code(e, "x = 1"),
                             code(e, "import os\nprint('bye', flush=True)\nos._exit(3)"),
                             code(e, "print('x' in globals())")});
       }},
      {"code_kernel_image",
       [code](ParityEnv& e) {
         return code(e,
                     "import hermes_tools\n"
                     "hermes_tools.show(b'\\x89PNG\\r\\n\\x1a\\n' + b'0' * 8)\nprint('shown')");
       }},
  };
}

}  // namespace hermes::testing
