// SPDX-License-Identifier: MIT
// Default capability rows and the keyword classifier of the reference server.
#include "tools/task/capability_map.h"

#include "core/strings.h"

#include <array>
#include <initializer_list>

namespace hermes::task {
namespace {

struct Bucket {
  const char* capability;
  std::initializer_list<const char*> words;
};

// Order matters: the first bucket with a matching word wins, so
// "latest" lands in coding through "test" exactly as in the reference.
const std::array<Bucket, 7>& buckets() {
  static const std::array<Bucket, 7> kBuckets = {{
      {"image-gen",
       {"generate image", "create image", "image of", "draw ", "illustration", "logo", "thumbnail",
        "imagen", "t\u1ea1o \u1ea3nh", "v\u1ebd "}},
      {"voice",
       {"voice", "tts", "speech", "narration", "audio", "gi\u1ecdng", "\u0111\u1ecdc ", "narrate"}},
      {"vision",
       {"image", "picture", "photo", "screenshot", "visual", "xem \u1ea3nh", "nh\u00ecn \u1ea3nh",
        "describe image", "analyze image"}},
      {"coding",
       {"code", "function", "bug", "refactor", "implement", "typescript", "javascript", "python",
        "api", "script", "commit", "test", "debug", "npm", "git"}},
      {"multimodal", {"multimodal", "video", "diagram", "chart", "mixed"}},
      {"reason", {"reason", "logic", "proof", "math", "solve", "explain why", "why does"}},
      {"planning",
       {"plan", "roadmap", "outline", "steps to", "strategy", "schedule", "k\u1ebf ho\u1ea1ch",
        "l\u1ed9 tr\u00ecnh"}},
  }};
  return kBuckets;
}

std::vector<ProviderModel> rows(std::initializer_list<const char*> entries) {
  std::vector<ProviderModel> out;
  for (const char* entry : entries) out.push_back(parse_provider_model(entry));
  return out;
}

}  // namespace

const std::vector<std::string>& known_capabilities() {
  static const std::vector<std::string> kCaps = {"reasoning", "coding",    "vision", "multimodal",
                                                 "planning",  "image-gen", "voice",  "chat"};
  return kCaps;
}

ProviderModel parse_provider_model(std::string_view text) {
  std::string entry = trim(text);
  size_t slash = entry.find('/');
  if (slash == std::string::npos) return {"", entry};
  return {entry.substr(0, slash), entry.substr(slash + 1)};
}

CapabilityMap default_capability_map() {
  CapabilityMap map;
  map["reasoning"] = rows(
      {"gemini/gemini-3.1-flash-lite", "gemini/gemini-3-flash", "gemini/gemini-3.5-flash-lite",
       "openrouter/nvidia/nemotron-3-ultra-550b-a55b:free",
       "openrouter/nvidia/nemotron-3-super-120b-a12b:free", "opencode-zen/deepseek-v4-flash-free"});
  map["coding"] =
      rows({"gemini/gemini-3.1-flash-lite", "gemini/gemini-3-flash", "opencode-zen/mimo-v2.5-free",
            "opencode-zen/cohere/north-mini-code:free", "opencode-zen/deepseek-v4-flash-free",
            "openrouter/cohere/north-mini-code:free"});
  map["vision"] = rows({"gemini/gemini-3.5-flash-lite", "gemini/gemini-3.1-flash-lite",
                        "openrouter/google/gemma-4-31b-it:free"});
  map["multimodal"] = rows({"gemini/gemini-3.1-flash-lite",
                            "openrouter/nvidia/nemotron-3-nano-omni-30b-a3b-reasoning:free"});
  map["planning"] = rows({"gemini/gemini-3.1-flash-lite"});
  map["image-gen"] = rows({"gemini/imagen-4.0-fast-generate", "gemini/imagen-4.0-generate"});
  map["voice"] = rows({"gemini/gemini-3.1-flash-tts"});
  map["chat"] =
      rows({"gemini/gemini-3.1-flash-lite", "openrouter/nvidia/nemotron-nano-9b-v2:free",
            "opencode-zen/mimo-v2.5-free", "openrouter/poolside/laguna-s-2.1:free",
            "openrouter/poolside/laguna-xs-2.1:free", "opencode-zen/deepseek-v4-flash-free"});
  return map;
}

std::string classify_capability(std::string_view prompt, const CapabilityMap& map) {
  if (map.count(std::string(prompt))) return std::string(prompt);
  // ASCII lower-casing only, like the substring tests need: the Vietnamese
  // keywords are already lower case.
  std::string lower = to_lower(prompt);
  for (const Bucket& bucket : buckets()) {
    for (const char* word : bucket.words) {
      if (lower.find(word) != std::string::npos) return bucket.capability;
    }
  }
  return "reasoning";
}

const std::vector<ProviderModel>& rows_for(const CapabilityMap& map,
                                           const std::string& capability) {
  static const std::vector<ProviderModel> kEmpty;
  if (auto it = map.find(capability); it != map.end()) return it->second;
  if (auto it = map.find("reasoning"); it != map.end()) return it->second;
  return kEmpty;
}

std::string default_model_for(const std::string& provider, const CapabilityMap& map) {
  const std::vector<ProviderModel>& reasoning = rows_for(map, "reasoning");
  for (const ProviderModel& row : reasoning) {
    if (row.provider == provider) return row.model;
  }
  return reasoning.empty() ? std::string() : reasoning.front().model;
}

}  // namespace hermes::task
