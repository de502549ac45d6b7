// SPDX-License-Identifier: MIT
// ShellFileSystem over the portable local backend: every operation against
// the native file system on the same files (same metadata, bytes, names and
// error messages), awkward names, permission errors, a full disk.
#include "backend/shell_file_system.h"

#include "backend/local_backend.h"
#include "core/paths.h"
#include "testutil/status_matchers.h"
#include "testutil/temp_dir.h"
#include "tools/file_common/tmpfs_mount.h"
#include "tools/file_common/write_safety.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>
#include <filesystem>

namespace hermes::file_common {
namespace {

using backend::ShellFileSystem;
using testing::IsError;
using testing::IsOk;
using testing::TempDir;

// As the server does (cli/main.cc): content fed to a command that already
// failed must be an EPIPE, not a kill.
const bool kSigpipeIgnored = std::signal(SIGPIPE, SIG_IGN) != SIG_ERR;

// Names that break naive quoting or option parsing.
const std::vector<std::string> kAwkward = {"sp ace",   "quo'te\"s", "new\nline", "-dash",
                                           "ünï cödé", ".hidden",   "tab\there", "$(echo x)"};

ShellFileSystem portable() {
  EXPECT_TRUE(kSigpipeIgnored);
  return ShellFileSystem(std::make_shared<backend::LocalBackend>(/*portable_files=*/true), {});
}

std::string all_bytes() {
  std::string s;
  for (int i = 0; i < 256; ++i) s += static_cast<char>(i);
  return s;
}

std::string read_via(const fs::FileSystem& fs, const std::string& path) {
  auto file = fs.open_read(path);
  EXPECT_TRUE(file) << file.error().message;
  if (!file) return "";
  std::string out, buf(300000, '\0');
  for (;;) {
    auto n = (*file)->pread(buf.data(), buf.size(), out.size());
    EXPECT_TRUE(n);
    if (!n || *n == 0) return out;
    out.append(buf.data(), *n);
  }
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(ShellFileSystem, MetadataMatchesNative) {
  TempDir dir;
  std::string file = dir.write("f.txt", "hello");
  ::chmod(file.c_str(), 0640);
  std::filesystem::create_symlink(file, dir.file("link"));
  ShellFileSystem fs = portable();
  const fs::FileSystem& native = fs::native_file_system();
  for (const std::string& p : {file, dir.path(), dir.file("link")}) {
    EXPECT_EQ(*fs.stat(p), *native.stat(p)) << p;
    EXPECT_EQ(*fs.lstat(p), *native.lstat(p)) << p;
  }
  EXPECT_EQ(fs.lstat(dir.file("link"))->type, fs::FileType::kSymlink);
  EXPECT_EQ(fs.stat(file)->mode, 0640u);
}

TEST(ShellFileSystem, ErrorsMatchNative) {
  TempDir dir;
  std::string file = dir.write("f", "x");
  ShellFileSystem fs = portable();
  const fs::FileSystem& native = fs::native_file_system();
  auto missing = dir.file("nope");
  for (const std::string& p : {missing, file + "/below"}) {
    auto a = fs.stat(p), b = native.stat(p);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error().code, b.error().code);
    EXPECT_EQ(a.error().message, b.error().message);
    EXPECT_EQ(fs.open_read(p).error().message, native.open_read(p).error().message);
    EXPECT_EQ(fs.read_link(p).error().code, native.read_link(p).error().code);
  }
  EXPECT_EQ(fs.read_link(file).error().message, native.read_link(file).error().message);
  EXPECT_EQ(fs.list_dir(file).error().code, native.list_dir(file).error().code);
  EXPECT_EQ(fs.read_all(missing).error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(fs.read_all(dir.path()));
}

TEST(ShellFileSystem, ReadsEveryByteAcrossWindows) {
  TempDir dir;
  std::string small = dir.write("small", all_bytes());
  std::string big_text;
  for (int i = 0; big_text.size() < (5u << 20) + 123; ++i) {
    big_text += all_bytes() + std::to_string(i);
  }
  std::string big = dir.write("big", big_text);
  ShellFileSystem fs = portable();
  EXPECT_EQ(read_via(fs, small), all_bytes());
  EXPECT_EQ(read_via(fs, big), big_text);
  EXPECT_EQ(*fs.read_all(big), big_text);
  auto opened = fs.open_read(big);
  ASSERT_TRUE(opened);
  auto& file = *opened;
  char c = 0;
  ASSERT_EQ(*file->pread(&c, 1, big_text.size() - 1), 1u);  // a jump past the first window
  EXPECT_EQ(c, big_text.back());
  EXPECT_EQ(*file->pread(&c, 1, big_text.size()), 0u);
  EXPECT_EQ(*file->info(), *fs::native_file_system().stat(big));
  EXPECT_TRUE(*fs.holds(big, big_text));
  EXPECT_FALSE(*fs.holds(big, big_text + "x"));
}

TEST(ShellFileSystem, DirectoryIsOpenedButNotRead) {
  TempDir dir;
  auto file = portable().open_read(dir.path());
  ASSERT_TRUE(file);
  EXPECT_EQ((*file)->info()->type, fs::FileType::kDirectory);
}

TEST(ShellFileSystem, AwkwardNamesRoundTrip) {
  TempDir dir;
  ShellFileSystem fs = portable();
  for (const std::string& name : kAwkward) {
    std::string path = dir.file(name + "/" + name);
    auto out = fs.write_atomic(path, name + all_bytes(), {});
    ASSERT_TRUE(out) << name << ": " << out.error().message;
    EXPECT_EQ(out->written_path, path);
    EXPECT_TRUE(out->created);
    EXPECT_EQ(out->created_dirs, std::vector<std::string>{dir.file(name)});
    EXPECT_EQ(*fs::read_whole_file(path), name + all_bytes());
    EXPECT_EQ(read_via(fs, path), name + all_bytes());
    EXPECT_EQ(*fs.stat(path), *fs::native_file_system().stat(path));
    std::string link = dir.file(name + " link");
    std::filesystem::create_symlink(path, link);
    EXPECT_EQ(*fs.read_link(link), path);
    EXPECT_EQ(*fs.real_path(link), path);
  }
  EXPECT_EQ(sorted(*fs.list_dir(dir.path())),
            sorted(*fs::native_file_system().list_dir(dir.path())));
  EXPECT_EQ(fs.list_dir(dir.path())->size(), 2 * kAwkward.size());
}

TEST(ShellFileSystem, RealPathMatchesNative) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("a/b"));
  std::filesystem::create_directory_symlink(dir.file("a"), dir.file("la"));
  std::filesystem::create_symlink(dir.file("gone"), dir.file("dangling"));
  ShellFileSystem fs = portable();
  for (std::string p : {dir.file("la/b"), dir.file("la/b/new/deeper"), dir.file("dangling"),
                        dir.file("la/b/trailing\n"), std::string("/"), std::string("/nope/x")}) {
    EXPECT_EQ(*fs.real_path(p), PathResolver::real_path(p)) << p;
  }
}

TEST(ShellFileSystem, WriteKeepsModeLinkAndReplacesContent) {
  TempDir dir;
  std::string target = dir.write("t.sh", "old");
  ::chmod(target.c_str(), 0750);
  std::filesystem::create_symlink("t.sh", dir.file("rel-link"));
  ShellFileSystem fs = portable();
  auto out = fs.write_atomic(dir.file("rel-link"), "new", {});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->written_path, dir.file("t.sh"));
  EXPECT_FALSE(out->created);
  EXPECT_TRUE(out->created_dirs.empty());
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("rel-link")));
  EXPECT_EQ(dir.read("t.sh"), "new");
  EXPECT_EQ(fs.stat(target)->mode, 0750u);
  ASSERT_TRUE(fs.write_atomic(dir.file("empty"), "", {}));
  EXPECT_EQ(dir.read("empty"), "");
  mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(fs.stat(dir.file("empty"))->mode, 0666u & ~mask);
}

TEST(ShellFileSystem, WriteFailuresMatchNative) {
  TempDir dir;
  std::string file = dir.write("plain", "x");
  ShellFileSystem fs = portable();
  auto a = fs.write_atomic(file + "/child", "x", {});
  auto b = fs::atomic_write(file + "/child", "x");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, b.error().message);
  std::filesystem::create_directory(dir.file("d"));
  a = fs.write_atomic(dir.file("d"), "x", {});
  b = fs::atomic_write(dir.file("d"), "x");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, b.error().message);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 2);
}

TEST(ShellFileSystem, RemoveAndMode) {
  TempDir dir;
  std::string file = dir.write("sub/f", "x");
  ShellFileSystem fs = portable();
  ASSERT_TRUE(fs.set_mode(file, 0604));
  EXPECT_EQ(fs.stat(file)->mode, 0604u);
  EXPECT_EQ(fs.remove(dir.file("sub")).error().message,
            fs::native_file_system().remove(dir.file("sub")).error().message);
  EXPECT_FALSE(fs.remove_dir(dir.file("sub")));  // not empty
  ASSERT_TRUE(fs.remove(file));
  EXPECT_EQ(fs.remove(file).error().code, ErrorCode::kNotFound);
  ASSERT_TRUE(fs.remove_dir(dir.file("sub")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("sub")));
}

// make_dir and make_symlink as the native calls: exact bits, the link's
// target kept as given (awkward names included), an existing entry refused
// with the same message, a link never made inside an existing directory.
TEST(ShellFileSystem, MakeDirAndSymlinkMatchNative) {
  TempDir dir;
  ShellFileSystem shell = portable();
  const fs::FileSystem& native = fs::native_file_system();
  for (const auto* files : {static_cast<const fs::FileSystem*>(&shell), &native}) {
    std::string base = dir.file(files == &native ? "native" : "shell");
    ASSERT_TRUE(files->make_dir(base, 0755));
    ASSERT_TRUE(files->make_dir(base + "/d", 0751));
    EXPECT_EQ(files->lstat(base + "/d")->mode, 0751u);
    for (const std::string& name : kAwkward) {
      ASSERT_TRUE(files->make_symlink("../" + name, base + "/" + name)) << name;
      EXPECT_EQ(*files->read_link(base + "/" + name), "../" + name);
    }
  }
  for (const char* taken : {"native/d", "native/-dash"}) {
    Status by_shell = shell.make_symlink("x", dir.file(taken));
    Status by_native = native.make_symlink("x", dir.file(taken));
    ASSERT_FALSE(by_shell);
    EXPECT_EQ(by_shell.error().code, by_native.error().code);
    EXPECT_EQ(by_shell.error().message, by_native.error().message);
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("native/d/x")));
  EXPECT_EQ(shell.make_dir(dir.file("native/d"), 0700).error().message,
            native.make_dir(dir.file("native/d"), 0700).error().message);
  EXPECT_EQ(shell.make_dir(dir.file("none/d"), 0700).error().code, ErrorCode::kNotFound);
}

// read_entry in one round trip gives what lstat, read_link and read_all
// give natively: a link's target kept to the byte (newlines included), a
// file's bytes up to the cap, only the metadata past it.
TEST(ShellFileSystem, ReadEntryMatchesNative) {
  TempDir dir;
  dir.write("f", all_bytes());
  dir.write("big", std::string(5000, 'b'));
  ASSERT_EQ(::symlink("target\nwith newline\n", dir.file("link").c_str()), 0);
  ASSERT_EQ(::symlink("-dash", dir.file("-dash").c_str()), 0);
  std::filesystem::create_directory(dir.file("d"));
  ShellFileSystem shell = portable();
  const fs::FileSystem& native = fs::native_file_system();
  for (const char* name : {"f", "big", "link", "-dash", "d"}) {
    auto by_shell = shell.read_entry(dir.file(name), 4096);
    auto by_native = native.read_entry(dir.file(name), 4096);
    ASSERT_TRUE(by_shell) << name << ": " << by_shell.error().message;
    ASSERT_TRUE(by_native) << name;
    EXPECT_EQ(by_shell->info, by_native->info) << name;
    EXPECT_EQ(by_shell->target, by_native->target) << name;
    EXPECT_EQ(by_shell->bytes, by_native->bytes) << name;
  }
  EXPECT_EQ(shell.read_entry(dir.file("link"), 4096)->target, "target\nwith newline\n");
  EXPECT_EQ(shell.read_entry(dir.file("f"), 4096)->bytes, all_bytes());
  EXPECT_FALSE(shell.read_entry(dir.file("big"), 4096)->bytes.has_value());
  EXPECT_EQ(shell.read_entry(dir.file("none"), 4096).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(shell.read_entry(dir.file("f/under"), 4096).error().code, ErrorCode::kNotFound);
}

// A target reached through `prefix` (e.g. setpriv to another user), with
// its own home.
class CustomBackend final : public backend::Backend {
 public:
  CustomBackend(std::vector<std::string> prefix, std::string home)
      : prefix_(std::move(prefix)), home_(std::move(home)) {}
  std::string name() const override { return "custom"; }
  bool native_files() const override { return false; }
  Status start(std::stop_token) override { return {}; }
  std::vector<std::string> bash_argv(const std::string& script, bool) const override {
    std::vector<std::string> argv = prefix_;
    argv.insert(argv.end(), {"bash", "-c", script});
    return argv;
  }
  std::string home() const override { return home_; }
  std::string default_cwd() const override { return "/"; }

 private:
  std::vector<std::string> prefix_;
  std::string home_;
};

TEST(ShellFileSystem, PermissionDenied) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to switch to nobody";
  TempDir dir;
  ::chmod(dir.path().c_str(), 0755);
  std::string secret = dir.write("secret", "s");
  ::chmod(secret.c_str(), 0600);
  std::string locked = dir.file("locked");
  std::filesystem::create_directory(locked);
  ::chmod(locked.c_str(), 0700);
  // As nobody, so permission bits bite.
  ShellFileSystem fs(
      std::make_shared<CustomBackend>(
          std::vector<std::string>{"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"},
          "/"),
      {});
  auto open = fs.open_read(secret);
  ASSERT_FALSE(open);
  EXPECT_EQ(open.error().code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(open.error().message, "open \"" + secret + "\": Permission denied");
  EXPECT_EQ(fs.list_dir(locked).error().code, ErrorCode::kPermissionDenied);
  auto write = fs.write_atomic(secret, "new", {});
  ASSERT_FALSE(write);
  EXPECT_EQ(write.error().code, ErrorCode::kPermissionDenied);
  auto deep = fs.write_atomic(locked + "/a/b", "x", {});
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.error().code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(dir.read("secret"), "s");
}

TEST(ShellFileSystem, FullDiskLeavesOldFileAndNoTemp) {
  TempDir dir;
  std::string mnt = dir.file("mnt");
  std::filesystem::create_directory(mnt);
  testing::TmpfsMount tmpfs(mnt, "64k");
  if (!tmpfs.mounted()) GTEST_SKIP() << "cannot mount a tmpfs (needs root): " << tmpfs.error();
  std::string path = mnt + "/f";
  ShellFileSystem fs = portable();
  ASSERT_TRUE(fs.write_atomic(path, "original", {}));
  auto out = fs.write_atomic(path, std::string(256 * 1024, 'x'), {});
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().message, "write: No space left on device");
  EXPECT_EQ(*fs::read_whole_file(path), "original");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(mnt), {}), 1);
}

// Counts the commands run on the local host.
class CountingBackend final : public backend::Backend {
 public:
  std::string name() const override { return "local"; }
  bool native_files() const override { return false; }
  Status start(std::stop_token) override { return {}; }
  std::vector<std::string> bash_argv(const std::string& script, bool) const override {
    ++runs;
    return {"bash", "-c", script};
  }
  std::string home() const override { return "/"; }
  std::string default_cwd() const override { return "/"; }
  mutable std::atomic<int> runs{0};
};

// real_path brings the stat of its result and the lstat of its argument in
// the same round trip, a write the hash and stat of what it wrote; any other
// change made through the instance forgets them.
TEST(ShellFileSystem, RealPathPrimesMetadataUntilAChange) {
  TempDir dir;
  std::string file = dir.write("f", "x");
  std::filesystem::create_symlink(file, dir.file("l"));
  auto backend = std::make_shared<CountingBackend>();
  ShellFileSystem fs(backend, {});
  const fs::FileSystem& native = fs::native_file_system();
  ASSERT_EQ(*fs.real_path(dir.file("l")), file);
  EXPECT_EQ(*fs.stat(file), *native.stat(file));
  EXPECT_EQ(*fs.lstat(dir.file("l")), *native.lstat(dir.file("l")));
  ASSERT_EQ(*fs.real_path(dir.file("new/x")), dir.file("new/x"));
  EXPECT_EQ(fs.stat(dir.file("new/x")).error().message,
            native.stat(dir.file("new/x")).error().message);
  EXPECT_EQ(backend->runs, 2);
  ASSERT_TRUE(fs.write_atomic(file, "longer", {}));  // reads the result back
  EXPECT_EQ(*fs.stat(file), *native.stat(file));
  EXPECT_TRUE(*fs.holds(file, "longer"));  // hashed as it was written
  EXPECT_EQ(backend->runs, 3);
  ASSERT_TRUE(fs.set_mode(file, 0600));
  EXPECT_EQ(fs.stat(file)->mode, 0600u);
  EXPECT_EQ(backend->runs, 5);
}

// The `~` entries of the write denylist are the target user's, not the
// server's.
TEST(ShellFileSystem, TargetHomeDrivesTheWriteDenylist) {
  TempDir remote_home;
  auto backend = std::make_shared<CustomBackend>(std::vector<std::string>{}, remote_home.path());
  ShellFileSystem fs(backend, {});
  EXPECT_EQ(fs.home(), remote_home.path());
  std::string keys = remote_home.file(".ssh/authorized_keys");
  EXPECT_THAT(check_write_allowed(keys, "/nonexistent-hermes-home", fs),
              IsError(ErrorCode::kPermissionDenied));
  EXPECT_THAT(check_write_allowed(keys, "/nonexistent-hermes-home", fs::native_file_system()),
              IsOk());
  const std::string ssh_config = remote_home.file(".ssh/config");
  ResolvedPath config{"~/.ssh/config", ssh_config, ssh_config};
  EXPECT_TRUE(is_ssh_config(config, fs.home()));
  EXPECT_FALSE(is_ssh_config(config, fs::native_file_system().home()));
}

// A launcher that cannot start: a Result, never a crash or a hang.
class BrokenBackend final : public backend::Backend {
 public:
  std::string name() const override { return "broken"; }
  bool native_files() const override { return false; }
  Status start(std::stop_token) override { return {}; }
  std::vector<std::string> bash_argv(const std::string&, bool) const override {
    return {"/nonexistent/launcher"};
  }
  std::string home() const override { return "/"; }
  std::string default_cwd() const override { return "/"; }
};

TEST(ShellFileSystem, UnstartableLauncherIsAnError) {
  ShellFileSystem fs(std::make_shared<BrokenBackend>(), {});
  auto info = fs.stat("/");
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error().code, ErrorCode::kUnavailable);
  EXPECT_FALSE(fs.write_atomic("/tmp/x", "y", {}));
}

}  // namespace
}  // namespace hermes::file_common
