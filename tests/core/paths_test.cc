// SPDX-License-Identifier: MIT
#include "core/paths.h"

#include "testutil/scoped_env.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

namespace hermes {
namespace {

TEST(PathResolver, NormalizeFoldsDotsAndSlashes) {
  EXPECT_EQ(PathResolver::normalize("/a//b/./c/../d"), "/a/b/d");
  EXPECT_EQ(PathResolver::normalize("/../.."), "/");
}

TEST(PathResolver, ExpandsHome) {
  ::setenv("HOME", "/home/tester", 1);
  EXPECT_EQ(PathResolver::expand_user("~/x"), "/home/tester/x");
  EXPECT_EQ(PathResolver::expand_user("~"), "/home/tester");
  EXPECT_EQ(PathResolver::expand_user("~other/x"), "~other/x");
}

TEST(PathResolver, ResolveOnAnotherMachineUsesItsHomeCwdAndLinks) {
  PathResolver resolver;
  std::vector<std::string> asked;
  auto remote_real = [&](const std::string& p) -> Result<std::string> {
    asked.push_back(p);
    return "/real" + p;
  };
  auto r = resolver.resolve_on("~/a/../b", "/home/remote", "/srv/work", remote_real);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->given, "~/a/../b");
  EXPECT_EQ(r->absolute, "/home/remote/b");
  EXPECT_EQ(r->real, "/real/home/remote/b");
  EXPECT_EQ(resolver.resolve_on("x/y", "/h", "/srv/work", remote_real)->absolute, "/srv/work/x/y");
  EXPECT_EQ(asked.size(), 2u);
  auto failing = [](const std::string&) -> Result<std::string> {
    return Error::Unavailable("ssh: connect refused");
  };
  EXPECT_EQ(resolver.resolve_on("f", "/h", "/w", failing).error().message, "ssh: connect refused");
  EXPECT_FALSE(resolver.resolve_on("", "/h", "/w", remote_real));
  EXPECT_EQ(PathResolver::expand_user("~", "/h"), "/h");
  EXPECT_EQ(PathResolver::expand_user("~u/x", "/h"), "~u/x");
  PathResolver rooted("/");
  EXPECT_TRUE(rooted.resolve_on("/etc", "/h", "/w", remote_real));
}

// "a\0b" would reach open(2) as "a": refused instead of silently truncated.
TEST(PathResolver, NulBytesAreRefusedNotDropped) {
  using namespace std::string_literals;
  PathResolver resolver;
  auto local = resolver.resolve("/tmp/a\0/etc/passwd"s, "/");
  ASSERT_FALSE(local);
  EXPECT_EQ(local.error().message, "path contains a NUL byte");
  auto same = [](const std::string& p) -> Result<std::string> { return p; };
  EXPECT_FALSE(resolver.resolve_on("x\0"s, "/h", "/w", same));
}

TEST(PathResolver, RelativeJoinsSessionCwdThenTerminalCwd) {
  testing::TempDir dir;
  PathResolver resolver;
  auto r = resolver.resolve("sub/f.txt", dir.path());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->absolute, dir.path() + "/sub/f.txt");
  ::setenv("TERMINAL_CWD", dir.path().c_str(), 1);
  auto from_env = resolver.resolve("g.txt", "");
  ASSERT_TRUE(from_env);
  EXPECT_EQ(from_env->absolute, dir.path() + "/g.txt");
  ::setenv("TERMINAL_CWD", "auto", 1);
  auto unset = resolver.resolve("g.txt", "");
  ASSERT_TRUE(unset);
  EXPECT_NE(unset->absolute, dir.path() + "/g.txt");
  ::unsetenv("TERMINAL_CWD");
}

TEST(PathResolver, RealPathFollowsLinksOfMissingFiles) {
  testing::TempDir dir;
  dir.write("real/keep", "");
  ASSERT_EQ(::symlink((dir.path() + "/real").c_str(), dir.file("link").c_str()), 0);
  EXPECT_EQ(PathResolver::real_path(dir.file("link/new.txt")), dir.path() + "/real/new.txt");
}

// A missing component keeps the rest as text, whether the kernel's one-call
// probe, the walk's readlink (ENOENT) or its lstat (ENOTDIR) finds it; a link
// before it is still followed.
TEST(PathResolver, RealPathKeepsAMissingTailAsText) {
  testing::TempDir dir;
  dir.write("real/file", "");
  ASSERT_EQ(::symlink((dir.path() + "/real").c_str(), dir.file("link").c_str()), 0);
  EXPECT_EQ(PathResolver::real_path(dir.file("real/gone/a/b")), dir.path() + "/real/gone/a/b");
  EXPECT_EQ(PathResolver::real_path(dir.file("link/gone/a/b")), dir.path() + "/real/gone/a/b");
  EXPECT_EQ(PathResolver::real_path(dir.file("link/file/x")), dir.path() + "/real/file/x");
  ASSERT_EQ(::symlink("real/gone", dir.file("dangling").c_str()), 0);
  EXPECT_EQ(PathResolver::real_path(dir.file("dangling/x")), dir.path() + "/real/gone/x");
  ASSERT_EQ(::symlink("b", dir.file("real/gone-later").c_str()), 0);
  EXPECT_EQ(PathResolver::real_path(dir.file("link/gone-later/c")), dir.path() + "/real/b/c");
}

TEST(PathResolver, RootRefusesDotDotAndSymlinkEscapes) {
  testing::TempDir dir;
  dir.write("ws/a.txt", "x");
  dir.write("outside/secret", "s");
  ASSERT_EQ(::symlink(dir.file("outside").c_str(), dir.file("ws/escape").c_str()), 0);
  PathResolver resolver(dir.file("ws"));
  EXPECT_TRUE(resolver.resolve("a.txt", dir.file("ws")));
  auto dotdot = resolver.resolve("../outside/secret", dir.file("ws"));
  ASSERT_FALSE(dotdot);
  EXPECT_EQ(dotdot.error().code, ErrorCode::kOutsideRoot);
  EXPECT_FALSE(resolver.resolve("escape/secret", dir.file("ws")));
  EXPECT_FALSE(resolver.resolve("escape/new-file", dir.file("ws")));
  EXPECT_FALSE(resolver.resolve("/etc/passwd", dir.file("ws")));
}

// `--root .` confines to the directory the server started in, never `/`.
TEST(PathResolver, ARelativeRootIsTakenFromTheProcessCwd) {
  testing::TempDir dir;
  dir.write("ws/sub/a.txt", "x");
  char before[4096];
  ASSERT_NE(::getcwd(before, sizeof before), nullptr);
  ASSERT_EQ(::chdir(dir.file("ws").c_str()), 0);
  PathResolver dot(".");
  PathResolver sub("sub");
  ASSERT_EQ(::chdir(before), 0);
  EXPECT_EQ(dot.root(), PathResolver::real_path(dir.file("ws")));
  EXPECT_EQ(sub.root(), PathResolver::real_path(dir.file("ws/sub")));
  EXPECT_FALSE(dot.resolve("/etc/passwd", ""));
}

// A server started above its root (`cd /srv && --root
// /srv/proj`) resolves `calc/ops.py` in the root from the first call, as the
// terminal starts there; a session cwd inside the root still comes first.
TEST(PathResolver, RelativePathsStartInsideTheRootFromTheFirstCall) {
  testing::TempDir dir;
  dir.write("proj/calc/ops.py", "x");
  std::string root = PathResolver::real_path(dir.file("proj"));
  PathResolver resolver(root);
  char before[4096];
  ASSERT_NE(::getcwd(before, sizeof before), nullptr);
  ASSERT_EQ(::chdir(dir.path().c_str()), 0);
  auto from_cwd = resolver.resolve("calc/ops.py", "");
  auto from_env = [&] {
    testing::ScopedEnv env("TERMINAL_CWD", dir.path());
    return resolver.resolve("calc/ops.py", "");
  }();
  auto from_session = resolver.resolve("ops.py", root + "/calc");
  ASSERT_EQ(::chdir(before), 0);
  ASSERT_TRUE(from_cwd) << from_cwd.error().message;
  EXPECT_EQ(from_cwd->absolute, root + "/calc/ops.py");
  ASSERT_TRUE(from_env) << from_env.error().message;
  EXPECT_EQ(from_env->absolute, root + "/calc/ops.py");
  ASSERT_TRUE(from_session);
  EXPECT_EQ(from_session->absolute, root + "/calc/ops.py");
  EXPECT_EQ(PathResolver::inside_root(dir.path(), root), root);
  EXPECT_EQ(PathResolver::inside_root(root + "/calc", root), root + "/calc");
  EXPECT_EQ(PathResolver::inside_root(dir.path(), ""), dir.path());
}

TEST(IsWithin, ComparesWholeComponents) {
  EXPECT_TRUE(is_within("/a/b", "/a"));
  EXPECT_TRUE(is_within("/a", "/a"));
  EXPECT_FALSE(is_within("/ab", "/a"));
  EXPECT_TRUE(is_within("/x", "/"));
}

}  // namespace
}  // namespace hermes
