// SPDX-License-Identifier: MIT
// FileAccess: which file system a call gets (docs/ARCHITECTURE.md, Backends) and how paths
// resolve on it.
#include "tools/file_common/file_access.h"

#include "testutil/temp_dir.h"
#include "testutil/tool_session.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace hermes::file_common {
namespace {

using testing::TempDir;

class Call : public testing::ToolSession {
 public:
  Call(const std::string& yaml, const std::string& cwd) : ToolSession(yaml), ctx_(context()) {
    session().set_cwd(cwd);
  }
  registry::CallContext& ctx() { return ctx_; }

 private:
  registry::CallContext ctx_;
};

TEST(FileAccess, NativeOnlyOnThePlainLocalBackend) {
  TempDir dir;
  Call native("", dir.path());
  auto a = FileAccess::for_call(native.ctx());
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->native());
  EXPECT_TRUE(a->files_on_host());
  EXPECT_EQ(&a->fs(), &fs::native_file_system());
  Call portable("terminal:\n  portable_files: true\n", dir.path());
  auto b = FileAccess::for_call(portable.ctx());
  ASSERT_TRUE(b);
  EXPECT_FALSE(b->native());
  EXPECT_TRUE(b->files_on_host());
  EXPECT_NE(dynamic_cast<const backend::ShellFileSystem*>(&b->fs()), nullptr);
}

TEST(FileAccess, PortablePathsResolveLikeNativeOnes) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("real/sub"));
  std::filesystem::create_directory_symlink(dir.file("real"), dir.file("link"));
  Call native("", dir.path());
  Call portable("terminal:\n  portable_files: true\n", dir.path());
  auto a = FileAccess::for_call(native.ctx());
  auto b = FileAccess::for_call(portable.ctx());
  for (const std::string& given : std::vector<std::string>{"link/sub/new.txt", "./link/../link/sub",
                                                           "~/x", dir.file("link")}) {
    auto x = a->resolve(given), y = b->resolve(given);
    ASSERT_TRUE(x && y) << given;
    EXPECT_EQ(x->absolute, y->absolute) << given;
    EXPECT_EQ(x->real, y->real) << given;
  }
  EXPECT_EQ(b->workspace(), dir.path());
  EXPECT_EQ(b->resolve("").error().code, ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace hermes::file_common
