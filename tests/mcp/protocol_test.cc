// SPDX-License-Identifier: MIT
#include "mcp/protocol.h"

#include <gtest/gtest.h>

namespace hermes::mcp {
namespace {

TEST(Protocol, NegotiatesSupportedVersionsElseLatest) {
  EXPECT_EQ(negotiate_version("2024-11-05"), "2024-11-05");
  EXPECT_EQ(negotiate_version("2025-06-18"), "2025-06-18");
  EXPECT_EQ(negotiate_version("1900-01-01"), "2025-11-25");
  EXPECT_EQ(negotiate_version(Json()), "2025-11-25");
}

TEST(Protocol, AnnotationsOmitDefaults) {
  registry::ToolSpec read{
      .name = "r",
      .input_schema = {{"type", "object"}},
      .annotations = {.read_only = true, .destructive = false, .idempotent = true}};
  EXPECT_EQ(tool_to_json(read, "d")["annotations"],
            Json::parse(R"({"readOnlyHint":true,"idempotentHint":true,"openWorldHint":false})"));
  registry::ToolSpec write{.name = "w", .annotations = {.destructive = false}};
  EXPECT_EQ(tool_to_json(write, "d")["annotations"],
            Json::parse(R"({"destructiveHint":false,"openWorldHint":false})"));
  registry::ToolSpec shell{.name = "t", .annotations = {.open_world = true}};
  EXPECT_EQ(tool_to_json(shell, "d")["annotations"], Json::parse(R"({"openWorldHint":true})"));
}

TEST(Protocol, CallResultIsOneTextBlock) {
  Json r = call_result("{\"a\":1}", true);
  EXPECT_EQ(r["content"].size(), 1u);
  EXPECT_EQ(r["content"][0]["type"], "text");
  EXPECT_TRUE(r["isError"].get<bool>());
}

TEST(Protocol, ImagesFollowTheTextAsImageBlocks) {
  Json r = call_result("{}", false, {{"image/png", std::string("\x89PNG", 4)}});
  ASSERT_EQ(r["content"].size(), 2u);
  EXPECT_EQ(r["content"][0]["type"], "text");
  EXPECT_EQ(r["content"][1],
            Json::parse(R"({"type":"image","data":"iVBORw==","mimeType":"image/png"})"));
}

}  // namespace
}  // namespace hermes::mcp
