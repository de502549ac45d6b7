// SPDX-License-Identifier: MIT
// The tool table of the binary, in tools/list order: file tools, shell tools,
// code, task dispatch, then the web.
#include "registry/registry.h"
#include "tools/execute_code/execute_code.h"
#include "tools/patch/patch.h"
#include "tools/process/process.h"
#include "tools/read_file/read_file.h"
#include "tools/search_files/search_files.h"
#include "tools/task/task_tools.h"
#include "tools/terminal/terminal.h"
#include "tools/write_file/write_file.h"

namespace hermes {

void register_web(Registry& registry);

void register_all_tools(Registry& registry) {
  register_read_file(registry);
  register_write_file(registry);
  register_patch(registry);
  register_search_files(registry);
  register_terminal(registry);
  register_process(registry);
  register_execute_code(registry);
  register_task(registry);
  register_web(registry);
}

}  // namespace hermes
