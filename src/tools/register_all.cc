// SPDX-License-Identifier: MIT
// The tool table of the binary, in tools/list order: file tools, shell tools,
// code, task dispatch, the web, then the conformance suite's fixtures (a
// toolset only `--toolsets …,conformance` enables).
#include "tools/register_all.h"

#include "registry/registry.h"
#include "tools/checkpoint/checkpoint.h"
#include "tools/conformance/conformance.h"
#include "tools/execute_code/execute_code.h"
#include "tools/patch/patch.h"
#include "tools/process/process.h"
#include "tools/read_file/read_file.h"
#include "tools/search_files/search_files.h"
#include "tools/task/task_tools.h"
#include "tools/terminal/terminal.h"
#include "tools/web/web_tools.h"
#include "tools/write_file/write_file.h"

namespace hermes::tools {

void register_all_tools(registry::Registry& registry) {
  read_file::register_read_file(registry);
  write_file::register_write_file(registry);
  patch::register_patch(registry);
  checkpoint_tool::register_checkpoint(registry);
  search::register_search_files(registry);
  terminal::register_terminal(registry);
  process::register_process(registry);
  execute_code::register_execute_code(registry);
  task::register_task(registry);
  web_tools::register_web(registry);
  conformance::register_conformance(registry);
}

}  // namespace hermes::tools
