// SPDX-License-Identifier: MIT
// object_with_room: members added after a long text leave the text where it
// is (a plain object copies it each time its storage grows).
#include "json/json.h"

#include <gtest/gtest.h>

#include <string>

namespace hermes {
namespace {

// Adds `members` small members after a 4 KB "content" and says whether the
// content's buffer stayed in place.
bool content_stays(Json out, int members) {
  out["content"] = std::string(4096, 'x');
  const char* before = out["content"].get_ref<const std::string&>().data();
  for (int i = 0; i < members; ++i) out["key" + std::to_string(i)] = i;
  return out["content"].get_ref<const std::string&>().data() == before;
}

TEST(ObjectWithRoom, LaterMembersDoNotCopyALongValue) {
  EXPECT_TRUE(content_stays(object_with_room(12), 11));
}

TEST(ObjectWithRoom, APlainObjectCopiesItWhenItGrows) {
  EXPECT_FALSE(content_stays(Json::object(), 11));
}

TEST(ObjectWithRoom, IsAnEmptyObject) {
  Json out = object_with_room(4);
  EXPECT_TRUE(out.is_object());
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(dump_json(out), "{}");
}

}  // namespace
}  // namespace hermes
