// SPDX-License-Identifier: MIT
// What a server offers besides tools: resources (fixed URIs and URI
// templates) and prompts, each in a toolset like a tool, so `--toolsets`
// governs them too. Today only the `conformance` toolset has any
// (docs/conformance.md). A read or get returns the MCP result's JSON
// (`contents`, `messages`): the entries are MCP data, defined at the JSON edge.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "registry/client_channel.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hermes::registry {

struct ResourceSpec {
  std::string uri;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
  std::string toolset;
  // The `contents` array of resources/read.
  std::function<Json(const std::string& uri)> read;
};

// A family of resources named by a URI template (RFC 6570 level 1: `{var}`).
struct ResourceTemplateSpec {
  std::string uri_template;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
  std::string toolset;
  // The `contents` of the resource `uri` whose template variables are `vars`.
  std::function<Json(const std::string& uri, const Json& vars)> read;
};

struct PromptArgument {
  std::string name;
  std::string description;
  bool required = false;
};

struct PromptSpec {
  std::string name;
  std::string title;
  std::string description;
  std::vector<PromptArgument> arguments;
  std::string toolset;
  // The `messages` of prompts/get for these arguments (an object of strings).
  // `client` is where a prompt asks its client a question (request_named):
  // on the 2026-07-28 wire that makes prompts/get answer input_required, as
  // a tool's question does (docs/http.md).
  std::function<Json(const Json& arguments, ClientChannel& client)> get;
};

// The variables of `uri` when it matches `uri_template` (each `{var}` takes
// one or more characters other than `/`), else nullopt.
std::optional<Json> match_uri_template(const std::string& uri_template, const std::string& uri);

}  // namespace hermes::registry
