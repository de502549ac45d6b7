// SPDX-License-Identifier: MIT
// The `conformance` toolset: the fixture tools the official MCP conformance
// suite (@modelcontextprotocol/conformance) calls, with the names, arguments
// and results its scenarios ask for (docs/conformance.md). Off by default and
// outside `all`: only `--toolsets …,conformance` lists them. They run on the
// machinery the product tools use: the dispatcher, the ClientChannel's
// notifications and requests (logging, progress, sampling, elicitation).
#pragma once

#include "registry/registry.h"

namespace hermes::conformance {

// Every fixture, in the order the suite's reference server lists them.
void register_conformance(registry::Registry& registry);

// The fixtures that only return content (text, image, audio, resources, an
// error, a JSON Schema 2020-12 input schema).
void register_content_fixtures(registry::Registry& registry);
// The fixtures that talk to the client while they run: log messages,
// progress, sampling and elicitation requests.
void register_client_fixtures(registry::Registry& registry);
// The input-required scenarios' tools and prompt: named questions
// (elicitation, sampling, roots) that the 2026-07-28 wire turns into
// input_required rounds.
void register_input_required_fixtures(registry::Registry& registry);
// The resources (static text and binary, watched, a URI template) and the
// prompts the suite reads and gets.
void register_resource_fixtures(registry::Registry& registry);
void register_prompt_fixtures(registry::Registry& registry);
// The tools the tasks extension's scenarios call (greet, slow_compute,
// failing_job, protocol_error_job, confirm_delete, multi_input,
// test_tool_with_task).
void register_task_fixtures(registry::Registry& registry);

}  // namespace hermes::conformance
