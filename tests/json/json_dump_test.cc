// SPDX-License-Identifier: MIT
// dump_json must give exactly nlohmann's text (compact, UTF-8 kept, invalid
// UTF-8 replaced): checked on hand-picked values and on random byte strings
// weighted towards the bytes the fast path treats specially.
#include "json/json.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace hermes {
namespace {

std::string reference(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

TEST(DumpJson, ScalarsAndContainersMatchNlohmann) {
  Json value = Json::parse(R"({"b":true,"n":null,"i":-42,"u":18446744073709551615,
    "f":0.1,"e":1e300,"neg":-0.0,"a":[1,[2,{}],[]],"s":"x\"y\\z\n\t\u0001\u007f"})");
  value["z"] = Json::object();
  value["big"] = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(dump_json(value), reference(value));
}

TEST(DumpJson, Utf8PassesThroughAndBadBytesAreReplaced) {
  for (const std::string s :
       {"caf\xC3\xA9", "\xE2\x82\xAC and \xF0\x9F\x98\x80", "\xED\xA0\x80 surrogate",
        "\xC0\xAF overlong", "\xF4\x90\x80\x80 too high", "cut \xE2\x82", "\xFF\xFE", "\x80",
        "\xEF\xBB\xBF bom", "tail \xC3"}) {
    Json value = {{s, s}, {"list", {s, 1}}};
    EXPECT_EQ(dump_json(value), reference(value)) << s;
  }
}

TEST(DumpJson, RandomStringsMatchNlohmann) {
  std::mt19937 rng(20261203);
  const std::string special =
      "\"\\\n\r\t\b\f\x01\x1f\x7f\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xED\xC0";
  for (int round = 0; round < 20000; ++round) {
    std::string s(rng() % 40, ' ');
    for (char& c : s) {
      unsigned pick = rng() % 4;
      c = pick == 0   ? static_cast<char>(rng() % 256)
          : pick == 1 ? special[rng() % special.size()]
                      : static_cast<char>('a' + rng() % 26);
    }
    Json value = Json::array({s, Json::object({{s, s}})});
    ASSERT_EQ(dump_json(value), reference(value)) << "round " << round;
  }
}

}  // namespace
}  // namespace hermes
