// SPDX-License-Identifier: MIT
// The capability map (capability → ordered provider/model rows), the prompt
// classifier that picks a capability, and the default model of a provider.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::task {

struct ProviderModel {
  std::string provider;
  std::string model;
};

// Capability name → candidate rows in preference order.
using CapabilityMap = std::map<std::string, std::vector<ProviderModel>>;

// The capabilities a catalog model can be tagged with, in the reference order.
const std::vector<std::string>& known_capabilities();

// The reference's free-tier map (reasoning, coding, vision, multimodal,
// planning, image-gen, voice, chat).
CapabilityMap default_capability_map();

// Parses `provider/model` (the model may itself contain slashes); an entry
// without a slash yields an empty provider.
ProviderModel parse_provider_model(std::string_view text);

// Keyword classification of a prompt (lower-cased substring tests, first
// bucket wins; default `reasoning`). A prompt equal to a key of `map` is used
// as that capability. May return `reason`, which has no row of its own.
std::string classify_capability(std::string_view prompt, const CapabilityMap& map);

// The rows for `capability`, falling back to `reasoning` when it has none.
const std::vector<ProviderModel>& rows_for(const CapabilityMap& map, const std::string& capability);

// First reasoning row hosted by `provider`, else the first reasoning row
// overall, else empty.
std::string default_model_for(const std::string& provider, const CapabilityMap& map);

}  // namespace hermes::task
