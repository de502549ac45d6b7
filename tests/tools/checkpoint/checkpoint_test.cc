// SPDX-License-Identifier: MIT
// The checkpoint tool through the dispatcher, with the checkpoints the
// dispatcher records around write_file, patch and terminal
// (docs/checkpoints.md): every change kind restored byte-exactly with
// modes, new files and directories removed, partial restore, undo of a
// restore, hand edits refused, `.git` never touched, two sessions at once,
// and the caps.
#include "fs/atomic_write.h"
#include "proc/write_capture.h"
#include "testutil/reflink_mount.h"
#include "testutil/scoped_env.h"
#include "testutil/scripted_client.h"
#include "testutil/status_matchers.h"
#include "tools/checkpoint/checkpoint_harness.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <set>
#include <thread>
#include <tuple>

namespace hermes::testing {
namespace {

// Every entry under `dir` (but the names in `skip`): its type, mode, and
// content or link target. Two equal snapshots are byte-identical trees.
using Snapshot = std::map<std::string, std::string>;

void snapshot_into(const std::string& dir, const std::string& rel, Snapshot& out,
                   const std::string& skip) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == ".." || (rel.empty() && name == skip)) continue;
    std::string path = dir + "/" + name;
    std::string key = rel.empty() ? name : rel + "/" + name;
    struct stat st {};
    ::lstat(path.c_str(), &st);
    std::string mode = std::to_string(st.st_mode);
    if (S_ISDIR(st.st_mode)) {
      out[key] = "dir " + mode;
      snapshot_into(path, key, out, skip);
    } else if (S_ISLNK(st.st_mode)) {
      std::array<char, 4096> buf{};
      ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
      out[key] = "link " + std::string(buf.data(), static_cast<size_t>(std::max<ssize_t>(n, 0)));
    } else {
      out[key] = "file " + mode + " " + fs::read_whole_file(path).value_or("?");
    }
  }
  ::closedir(d);
}

Snapshot snapshot(const std::string& dir, const std::string& skip = "") {
  Snapshot out;
  snapshot_into(dir, "", out, skip);
  return out;
}

// A workspace with a bit of everything: files of several modes, a nested
// directory, a link.
void seed(const TempDir& work) {
  work.write("f.txt", "alpha\nbeta\ngamma\n");
  work.write("exec.sh", "#!/bin/sh\necho hi\n");
  ::chmod(work.file("exec.sh").c_str(), 0750);
  work.write("dir/inner.txt", "inner\n");
  work.write("dir/sub/deep.txt", "deep\n");
  work.write("other.txt", "other\n");
  ASSERT_EQ(::symlink("f.txt", work.file("link").c_str()), 0);
}

Json restore(CheckpointHarness& h, uint64_t id, Json extra = Json::object()) {
  extra["action"] = "restore";
  extra["id"] = id;
  return h.call("checkpoint", extra);
}

struct ShellCase {
  const char* name;
  const char* command;
};

class ShellChange : public ::testing::TestWithParam<std::tuple<BackendKind, ShellCase>> {
 protected:
  void SetUp() override {
    std::string why = unavailable_reason(std::get<0>(GetParam()));
    if (!why.empty()) GTEST_SKIP() << why;
  }
};

// Each kind of change a shell makes comes back exactly, mode included, on
// each backend whose files are this host's.
TEST_P(ShellChange, RestoreBringsBackTheTreeByteForByte) {
  CheckpointHarness h(std::get<0>(GetParam()));
  seed(h.work());
  Snapshot before = snapshot(h.work().path());
  Json ran = h.sh(std::get<1>(GetParam()).command);
  ASSERT_EQ(ran["exit_code"], 0) << ran.dump();
  ASSERT_NE(snapshot(h.work().path()), before) << "the command changed nothing";
  uint64_t id = h.last_id();
  Json listed = h.call("checkpoint", {{"action", "list"}})["checkpoints"].back();
  EXPECT_EQ(listed["tool"], "terminal");
  EXPECT_FALSE(listed["paths"].empty()) << listed.dump();

  Json restored = restore(h, id);
  EXPECT_EQ(restored["success"], true) << restored.dump();
  EXPECT_EQ(snapshot(h.work().path()), before);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, ShellChange,
    ::testing::Combine(
        ::testing::Values(BackendKind::kLocal, BackendKind::kSandbox, BackendKind::kDocker),
        ::testing::Values(ShellCase{"sed_in_place", "sed -i 's/beta/BETA/' f.txt"},
                          ShellCase{"rm_rf_dir", "rm -rf dir"},
                          ShellCase{"mv", "mv f.txt moved.txt && mv dir dir2"},
                          ShellCase{"chmod", "chmod 600 exec.sh && chmod 700 dir/sub"},
                          ShellCase{"new_dir", "mkdir -p new/deeper && echo n > new/deeper/n.txt"},
                          ShellCase{"symlink", "ln -sfn other.txt link && ln -s dir dirlink"},
                          ShellCase{"truncate_and_append", "echo more >> other.txt && : > f.txt"},
                          ShellCase{"file_becomes_dir", "rm other.txt && mkdir other.txt"})),
    [](const ::testing::TestParamInfo<ShellChange::ParamType>& c) {
      return kind_name(std::get<0>(c.param)) + "_" + std::get<1>(c.param).name;
    });

TEST(Checkpoint, ToolEditsRestoreExactlyAndListTheirPaths) {
  CheckpointHarness h;
  seed(h.work());
  ::chmod(h.work().file("f.txt").c_str(), 0604);
  Snapshot before = snapshot(h.work().path());
  Json wrote = h.call("write_file", {{"path", "brand/new.txt"}, {"content", "new\n"}});
  ASSERT_FALSE(wrote.contains("error")) << wrote.dump();
  uint64_t first = h.last_id();
  h.call("read_file", {{"path", "f.txt"}});
  Json patched = h.call("patch", {{"mode", "patch"},
                                  {"patch",
                                   "*** Begin Patch\n*** Update File: f.txt\n@@\n alpha\n-beta\n"
                                   "+BETA\n gamma\n*** End Patch\n"}});
  ASSERT_EQ(patched["success"], true) << patched.dump();
  Json list = h.call("checkpoint", {{"action", "list"}})["checkpoints"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["tool"], "write_file");
  EXPECT_EQ(list[0]["paths"], Json::array({"brand", "brand/new.txt"}));
  EXPECT_EQ(list[1]["tool"], "patch");
  EXPECT_EQ(list[1]["paths"], Json::array({"f.txt"}));

  Json diff = h.call("checkpoint", {{"action", "diff"}, {"id", first}});
  EXPECT_NE(diff["diff"].get<std::string>().find("-beta\n+BETA\n"), std::string::npos)
      << diff.dump();
  EXPECT_NE(diff["diff"].get<std::string>().find("--- /dev/null\n+++ b/brand/new.txt\n"),
            std::string::npos)
      << diff.dump();

  Json restored = restore(h, first);
  ASSERT_EQ(restored["success"], true) << restored.dump();
  // The new file is gone, and so is the directory write_file made for it.
  EXPECT_EQ(snapshot(h.work().path()), before);
  EXPECT_EQ(CheckpointHarness::mode_of(h.work().file("f.txt")), 0604u);
}

TEST(Checkpoint, PartialRestoreTouchesOnlyTheNamedPaths) {
  CheckpointHarness h;
  seed(h.work());
  ASSERT_EQ(h.sh("echo x >> f.txt && echo y >> other.txt && rm dir/sub/deep.txt")["exit_code"], 0);
  uint64_t id = h.last_id();
  Json restored = restore(h, id, {{"paths", {"f.txt", "dir"}}});
  ASSERT_EQ(restored["success"], true) << restored.dump();
  EXPECT_EQ(restored["restored"], Json::array({"dir/sub/deep.txt", "f.txt"}));
  EXPECT_EQ(h.work().read("f.txt"), "alpha\nbeta\ngamma\n");
  EXPECT_EQ(h.work().read("dir/sub/deep.txt"), "deep\n");
  EXPECT_EQ(h.work().read("other.txt"), "other\ny\n");
}

TEST(Checkpoint, ARestoreIsACheckpointAndCanBeUndone) {
  CheckpointHarness h;
  seed(h.work());
  ASSERT_EQ(h.sh("sed -i 's/alpha/ALPHA/' f.txt && mkdir made && rm other.txt")["exit_code"], 0);
  Snapshot changed = snapshot(h.work().path());
  Json restored = restore(h, h.last_id());
  ASSERT_EQ(restored["success"], true) << restored.dump();
  uint64_t undo = restored["checkpoint"].get<uint64_t>();
  EXPECT_EQ(h.last_id(), undo);
  Json again = restore(h, undo);
  ASSERT_EQ(again["success"], true) << again.dump();
  EXPECT_EQ(snapshot(h.work().path()), changed);
}

TEST(Checkpoint, HandEditsAreNeverOverwrittenSilently) {
  CheckpointHarness h;
  seed(h.work());
  ASSERT_EQ(h.sh("echo agent >> f.txt && echo agent >> other.txt")["exit_code"], 0);
  uint64_t id = h.last_id();
  h.work().write("f.txt", "edited by hand\n");  // between agent calls
  Json refused = restore(h, id);
  EXPECT_EQ(refused["success"], false) << refused.dump();
  EXPECT_EQ(refused["hand_edited"], Json::array({"f.txt"}));
  EXPECT_EQ(h.work().read("f.txt"), "edited by hand\n");
  EXPECT_EQ(h.work().read("other.txt"), "other\nagent\n") << "nothing is restored when refused";

  Json partial = restore(h, id, {{"paths", {"other.txt"}}});
  EXPECT_EQ(partial["success"], true) << partial.dump();
  EXPECT_EQ(h.work().read("other.txt"), "other\n");

  Json forced = restore(h, id, {{"force", true}});
  EXPECT_EQ(forced["success"], true) << forced.dump();
  EXPECT_EQ(h.work().read("f.txt"), "alpha\nbeta\ngamma\n");
}

// A hand edit made before a shell call is that call's starting point: its
// checkpoint restores to the edit, not to what the agent saw before it.
// A client that can be asked is asked: yes overwrites exactly the paths
// it was asked about, no (or no answer) refuses as without a client.
TEST(Checkpoint, HandEditsAreAskedAboutWhenTheClientCanBeAsked) {
  for (const char* answer : {"accept", "decline"}) {
    CheckpointHarness h;
    ScriptedClient user(Json{{"action", answer}});
    h.talk_to(user);
    h.call("write_file", {{"path", "a.txt"}, {"content", "agent\n"}});
    uint64_t id = h.last_id();
    h.work().write("a.txt", "by hand\n");
    Json restored = restore(h, id);
    EXPECT_EQ(user.asked, 1);
    EXPECT_EQ(user.last_method, "elicitation/create");
    EXPECT_NE(user.last_params.dump().find("a.txt"), std::string::npos) << user.last_params.dump();
    if (std::string(answer) == "accept") {
      EXPECT_EQ(restored["success"], true) << restored.dump();
      EXPECT_EQ(restored["overwritten_hand_edits"], Json::array({"a.txt"}));
      EXPECT_NE(::access(h.work().file("a.txt").c_str(), F_OK), 0);
    } else {
      EXPECT_EQ(restored["success"], false) << restored.dump();
      EXPECT_NE(restored["error"].get<std::string>().find("did not agree"), std::string::npos);
      EXPECT_EQ(h.work().read("a.txt"), "by hand\n");
    }
  }
}

// The user's yes covers the paths the question named, no others: a path
// edited by hand after the question still refuses the restore.
TEST(Checkpoint, AnAgreedOverwriteCoversOnlyThePathsAskedAbout) {
  CheckpointHarness h;
  h.call("patch", {{"mode", "patch"},
                   {"patch",
                    "*** Begin Patch\n*** Add File: a.txt\n+a\n*** Add File: b.txt\n+b\n"
                    "*** End Patch\n"}});
  uint64_t id = h.last_id();
  h.work().write("a.txt", "by hand\n");
  h.work().write("b.txt", "by hand too\n");
  checkpoint::Settings settings;
  checkpoint::RestoreRequest request{.root = h.work().path(), .id = id, .overwrite = {"a.txt"}};
  auto refused = h.checkpoints().restore(request, settings);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->checkpoint, 0u);
  EXPECT_EQ(h.work().read("a.txt"), "by hand\n");
  request.overwrite = {"a.txt", "b.txt"};
  auto agreed = h.checkpoints().restore(request, settings);
  ASSERT_TRUE(agreed.has_value());
  EXPECT_NE(agreed->checkpoint, 0u);
  EXPECT_NE(::access(h.work().file("a.txt").c_str(), F_OK), 0);
}

TEST(Checkpoint, AHandEditBeforeAShellCallIsNotUndoneByItsRestore) {
  CheckpointHarness h;
  seed(h.work());
  ASSERT_EQ(h.sh("true")["exit_code"], 0);
  h.work().write("f.txt", "by hand\n");
  ASSERT_EQ(h.sh("echo agent >> f.txt")["exit_code"], 0);
  Json restored = restore(h, h.last_id());
  ASSERT_EQ(restored["success"], true) << restored.dump();
  EXPECT_EQ(h.work().read("f.txt"), "by hand\n");
}

std::map<std::string, std::string> hashes_under(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& [rel, entry] : snapshot(dir)) out[rel] = fs::sha256_hex(entry);
  return out;
}

TEST(Checkpoint, TheWorkspaceGitFolderIsNeverReadNorWritten) {
  // Even when `checkpoints.ignore` does not name it.
  CheckpointHarness h("approvals:\n  yolo: true\ncheckpoints:\n  ignore: [node_modules]\n");
  seed(h.work());
  h.work().write(".git/HEAD", "ref: refs/heads/main\n");
  h.work().write(".git/objects/ab/cdef", "secret object bytes\n");
  h.work().write(".git/config", "[core]\n");
  ASSERT_EQ(h.sh("echo changed >> .git/config && echo x >> f.txt")["exit_code"], 0);
  auto git_before = hashes_under(h.work().file(".git"));
  Json restored = restore(h, h.last_id());
  ASSERT_EQ(restored["success"], true) << restored.dump();
  EXPECT_EQ(hashes_under(h.work().file(".git")), git_before);
  EXPECT_EQ(h.work().read(".git/config"), "[core]\nchanged\n");
  // Its content never reached the store.
  EXPECT_FALSE(h.checkpoints().store().has(fs::sha256_hex("secret object bytes\n")));
  EXPECT_FALSE(h.checkpoints().store().has(fs::sha256_hex("[core]\n")));
  Json wrote = h.call("write_file", {{"path", ".git/new"}, {"content", "x"}});
  Json list = h.call("checkpoint", {{"action", "list"}})["checkpoints"];
  EXPECT_TRUE(list.back()["paths"].empty()) << list.dump();
}

TEST(Checkpoint, TwoSessionsAtOnceKeepTheirOwnCheckpoints) {
  CheckpointHarness h;
  registry::Session other("two");
  other.set_cwd(h.work().path());
  constexpr int kCalls = 15;
  auto run = [&](registry::Session& session, const std::string& name) {
    for (int i = 0; i < kCalls; ++i) {
      h.call_in(session, "write_file",
                {{"path", name + std::to_string(i) + ".txt"}, {"content", name}});
    }
  };
  std::thread a([&] { run(h.session(), "a"); });
  std::thread b([&] { run(other, "b"); });
  a.join();
  b.join();
  Json list = h.call("checkpoint", {{"action", "list"}})["checkpoints"];
  ASSERT_EQ(list.size(), 2u * kCalls);
  std::set<uint64_t> ids;
  for (const Json& c : list) {
    ids.insert(c["id"].get<uint64_t>());
    ASSERT_EQ(c["paths"].size(), 1u) << c.dump();
  }
  EXPECT_EQ(ids.size(), 2u * kCalls);
  // Everything since the first checkpoint: all 30 files go.
  Json restored = restore(h, list[0]["id"].get<uint64_t>());
  ASSERT_EQ(restored["success"], true) << restored.dump();
  EXPECT_EQ(restored["restored"].size(), 2u * kCalls);
  for (int i = 0; i < kCalls; ++i) {
    EXPECT_FALSE(::access(h.work().file("a" + std::to_string(i) + ".txt").c_str(), F_OK) == 0);
    EXPECT_FALSE(::access(h.work().file("b" + std::to_string(i) + ".txt").c_str(), F_OK) == 0);
  }
}

TEST(Checkpoint, AFileOverTheSizeCapIsReportedNotRestored) {
  CheckpointHarness h("approvals:\n  yolo: true\ncheckpoints:\n  max_file_bytes: 100\n");
  h.work().write("big.bin", std::string(1000, 'x'));
  h.work().write("small.txt", "small\n");
  ASSERT_EQ(h.sh("echo y >> big.bin && echo y >> small.txt")["exit_code"], 0);
  Json restored = restore(h, h.last_id());
  EXPECT_EQ(restored["success"], false) << restored.dump();
  ASSERT_EQ(restored["not_restored"].size(), 1u) << restored.dump();
  EXPECT_EQ(restored["not_restored"][0]["path"], "big.bin");
  EXPECT_EQ(h.work().read("small.txt"), "small\n");
}

// Where files can share blocks (XFS here; btrfs alike), the first shell
// call keeps the workspace as clones of its files: the store grows by about
// what the call changed, not by a copy of every file, and restore brings the
// tree back byte for byte.
TEST(Checkpoint, OnAReflinkFileSystemAShellCallCostsAboutWhatItChanged) {
  ReflinkMount mount;
  if (!mount.unavailable().empty()) GTEST_SKIP() << mount.unavailable();
  ScopedEnv on_mount("TMPDIR", mount.path());  // the workspace and the store
  CheckpointHarness h;
  const std::string line = std::string(1000, 'x') + "\n";
  for (int i = 0; i < 32; ++i) {
    std::string body;  // 1 MB, no block like another file's
    for (int j = 0; j < 1024; ++j) body += std::to_string(i) + "." + std::to_string(j) + line;
    h.work().write("f" + std::to_string(i) + ".txt", body);
  }
  Snapshot before = snapshot(h.work().path());
  int64_t used = mount.used_bytes();
  ASSERT_EQ(h.sh("sed -i '1s/^/edited /' f0.txt && rm f1.txt")["exit_code"], 0);
  int64_t added = mount.used_bytes() - used;
  // A copy would add 32 MB; the clones share the files' blocks, and the
  // call's own change is one new 1 MB file.
  EXPECT_LT(added, 6 << 20) << added << " bytes added";

  // Restore clones f0 and f1 back from the store: written as copies, they
  // would take 2 MB (the edited f0's blocks stay, the store's clone of the
  // state after the call).
  used = mount.used_bytes();
  Json restored = restore(h, h.last_id());
  EXPECT_EQ(restored["success"], true) << restored.dump();
  EXPECT_EQ(snapshot(h.work().path()), before);
  EXPECT_LT(mount.used_bytes() - used, 256 << 10) << "restore copied the files";
}

class CapturedOnBackend : public ::testing::TestWithParam<BackendKind> {
 protected:
  void SetUp() override {
    std::string why = unavailable_reason(GetParam());
    if (!why.empty()) GTEST_SKIP() << why;
    if (!proc::write_capture_available(false)) GTEST_SKIP() << "no write capture here";
  }
};

// A terminal call runs under the write capture on every backend whose files
// are on this host (docker's commands through the helper in the container):
// the store keeps what the command changed, not a copy of the tree, and
// restore brings the tree back byte for byte.
TEST_P(CapturedOnBackend, ATerminalCallStoresWhatItChangedNotTheTree) {
  CheckpointHarness h(GetParam());
  for (int i = 0; i < 300; ++i) {
    h.work().write("src/f" + std::to_string(i) + ".txt",
                   std::string(3000, static_cast<char>('a' + i % 26)) + std::to_string(i));
  }
  Snapshot before = snapshot(h.work().path());
  ASSERT_EQ(
      h.sh("sed -i 's/a/b/' src/f0.txt && rm src/f1.txt && echo x >> src/f2.txt")["exit_code"], 0);
  Json listed = h.call("checkpoint", {{"action", "list"}})["checkpoints"].back();
  EXPECT_FALSE(listed.contains("note")) << listed.dump();
  // A copy of the tree would be 900 KB.
  EXPECT_LT(h.checkpoints().store_bytes(), 30'000u);
  Json restored = restore(h, h.last_id());
  EXPECT_EQ(restored["success"], true) << restored.dump();
  EXPECT_EQ(snapshot(h.work().path()), before);
}

INSTANTIATE_TEST_SUITE_P(Backends, CapturedOnBackend,
                         ::testing::Values(BackendKind::kLocal, BackendKind::kSandbox,
                                           BackendKind::kDocker),
                         [](const ::testing::TestParamInfo<BackendKind>& c) {
                           return kind_name(c.param);
                         });

// Ignored build output is recorded by its metadata: a build folder made or
// removed is in the checkpoint's paths and diff, and restore names it as
// one it could not bring back rather than removing or faking it.
TEST(Checkpoint, AnIgnoredFolderIsListedAndReportedNotRestored) {
  CheckpointHarness h("approvals:\n  yolo: true\n");
  h.work().write("src.c", "int main;\n");
  ASSERT_EQ(h.sh("mkdir -p build/obj && echo o > build/obj/a.o && echo x >> src.c")["exit_code"],
            0);
  uint64_t id = h.last_id();
  Json listed = h.call("checkpoint", {{"action", "list"}})["checkpoints"].back();
  EXPECT_EQ(listed["paths"], Json::array({"build", "src.c"})) << listed.dump();
  Json diff = h.call("checkpoint", {{"action", "diff"}, {"id", id}});
  EXPECT_NE(diff["diff"].get<std::string>().find("new ignored directory build (contents not kept)"),
            std::string::npos)
      << diff.dump();

  Json restored = restore(h, id);
  EXPECT_EQ(restored["success"], false) << restored.dump();
  ASSERT_EQ(restored["not_restored"].size(), 1u) << restored.dump();
  EXPECT_EQ(restored["not_restored"][0]["path"], "build");
  EXPECT_EQ(h.work().read("src.c"), "int main;\n");
  EXPECT_EQ(h.work().read("build/obj/a.o"), "o\n");

  ASSERT_EQ(h.sh("rm -rf build")["exit_code"], 0);
  Json removed = h.call("checkpoint", {{"action", "list"}})["checkpoints"].back();
  EXPECT_EQ(removed["paths"], Json::array({"build"})) << removed.dump();
  restored = restore(h, h.last_id());
  ASSERT_EQ(restored["not_restored"].size(), 1u) << restored.dump();
  EXPECT_NE(::access(h.work().file("build").c_str(), F_OK), 0);
}

// A background job may change any file until it exits: while it runs a
// large file the agent writes is copied into the store, not held in the
// workspace (docs/checkpoints.md, holds).
TEST(Checkpoint, NothingIsHeldWhileABackgroundJobRuns) {
  CheckpointHarness h;
  Json started = h.call("terminal", {{"command", "sleep 1"}, {"background", true}});
  ASSERT_EQ(started["exit_code"], 0) << started.dump();
  std::string big(100000, 'b');
  h.call("write_file", {{"path", "during.txt"}, {"content", big}});
  auto objects = h.checkpoints().objects_of(h.work().path());
  EXPECT_TRUE(objects.own_hashes().empty());
  EXPECT_TRUE(h.checkpoints().store().has(fs::sha256_hex(big)));

  std::string after(100000, 'a');
  for (int i = 0; i < 100 && objects.own_hashes().empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    h.call("write_file", {{"path", "after" + std::to_string(i) + ".txt"},
                          {"content", after + std::to_string(i)}});
  }
  EXPECT_FALSE(objects.own_hashes().empty()) << "the job ended: files are held again";
}

TEST(Checkpoint, TheAgeCapDropsOldCheckpointsAndTheirObjects) {
  CheckpointHarness h;
  h.call("write_file", {{"path", "a.txt"}, {"content", "one unique content\n"}});
  std::string blob = fs::sha256_hex("one unique content\n");
  ASSERT_TRUE(h.checkpoints().store().has(blob));
  checkpoint::Settings settings;
  ASSERT_THAT(h.checkpoints().prune(settings, ::time(nullptr)), IsOk());
  EXPECT_EQ(h.call("checkpoint", {{"action", "list"}})["checkpoints"].size(), 1u);
  EXPECT_TRUE(h.checkpoints().store().has(blob));
  ASSERT_THAT(h.checkpoints().prune(settings, ::time(nullptr) + 8 * 24 * 3600), IsOk());
  EXPECT_TRUE(h.call("checkpoint", {{"action", "list"}})["checkpoints"].empty());
  EXPECT_FALSE(h.checkpoints().store().has(blob));
}

TEST(Checkpoint, TheSizeCapDropsTheOldestCheckpointsFirst) {
  CheckpointHarness h;
  // Eight files of 300 KB, each written twice with nothing in common: the
  // first contents, 2.4 MB, are stored (the second are held in the files).
  for (int i = 0; i < 8; ++i) {
    for (char first : {'a', 'A'}) {
      h.call("write_file", {{"path", "f" + std::to_string(i)},
                            {"content", std::string(300000, char(first + i))}});
    }
  }
  ASSERT_GT(h.checkpoints().store_bytes(), 2'000'000u);
  checkpoint::Settings settings;
  settings.max_store_bytes = 1 << 20;
  ASSERT_THAT(h.checkpoints().prune(settings, ::time(nullptr)), IsOk());
  EXPECT_LE(h.checkpoints().store_bytes(), settings.max_store_bytes);
  Json list = h.call("checkpoint", {{"action", "list"}})["checkpoints"];
  ASSERT_FALSE(list.empty());
  EXPECT_EQ(list.back()["paths"], Json::array({"f7"}));
  EXPECT_NE(list.front()["paths"], Json::array({"f0"}));
}

// The caps hold as the server runs: a call prunes when no process sharing
// the store has within the hour, the first call of a store included.
TEST(Checkpoint, CallsPruneTheStoreAtMostHourly) {
  CheckpointHarness h;
  h.call("write_file", {{"path", "a.txt"}, {"content", "x"}});
  EXPECT_EQ(::access((h.home().path() + "/checkpoints/pruned").c_str(), F_OK), 0);
  checkpoint::Settings settings;
  int64_t now = ::time(nullptr);
  auto early = h.checkpoints().prune_if_due(settings, now + 60);
  ASSERT_THAT(early, IsOk());
  EXPECT_FALSE(*early);
  EXPECT_EQ(h.call("checkpoint", {{"action", "list"}})["checkpoints"].size(), 1u);
  auto week_later = h.checkpoints().prune_if_due(settings, now + 8 * 24 * 3600);
  ASSERT_THAT(week_later, IsOk());
  EXPECT_TRUE(*week_later);
  EXPECT_TRUE(h.call("checkpoint", {{"action", "list"}})["checkpoints"].empty());
  // The store's own files are not objects: pruning leaves them.
  for (const char* own : {"pruned", "gc.lock"}) {
    EXPECT_EQ(::access((h.home().path() + "/checkpoints/" + own).c_str(), F_OK), 0) << own;
  }
}

TEST(Checkpoint, AWorkspaceOverTheScanCapIsListedAsNotCaptured) {
  CheckpointHarness h("approvals:\n  yolo: true\ncheckpoints:\n  max_scan_entries: 3\n");
  seed(h.work());
  ASSERT_EQ(h.sh("echo x >> f.txt")["exit_code"], 0);
  Json last = h.call("checkpoint", {{"action", "list"}})["checkpoints"].back();
  EXPECT_TRUE(last["paths"].empty()) << last.dump();
  EXPECT_EQ(last["note"],
            "shell changes not captured: the workspace has more entries than "
            "checkpoints.max_scan_entries");
  // Found over the cap by the walk, before any file was read into the store.
  EXPECT_EQ(h.checkpoints().store_bytes(), 0u);
}

// On a target whose files are not this host's (ssh) a command's changes are
// not seen: the call is listed, and says so.
TEST(Checkpoint, AShellCallOnATargetElsewhereIsListedAsNotCaptured) {
  std::string why = unavailable_reason(BackendKind::kSsh);
  if (!why.empty()) GTEST_SKIP() << why;
  CheckpointHarness h(BackendKind::kSsh);
  Json ran = h.sh("echo made > s.txt");
  ASSERT_EQ(ran["exit_code"], 0) << ran.dump();
  ASSERT_EQ(h.work().read("s.txt"), "made\n");
  Json list = h.call("checkpoint", {{"action", "list"}})["checkpoints"];
  ASSERT_EQ(list.size(), 1u) << list.dump();
  EXPECT_EQ(list[0]["tool"], "terminal");
  EXPECT_TRUE(list[0]["paths"].empty());
  EXPECT_EQ(list[0]["note"],
            "shell changes not captured: this backend's files are not on this host");
}

// A target that cannot be reached: the checkpoint tool says why.
TEST(Checkpoint, ATargetThatCannotBeReachedIsTheCheckpointToolsError) {
  CheckpointHarness h("terminal:\n  backend: ssh\n");
  Json list = h.call("checkpoint", {{"action", "list"}});
  EXPECT_EQ(list["error"],
            "SSH backend: no host configured (set terminal.ssh_host or TERMINAL_SSH_HOST)")
      << list.dump();
}

class ToolEditOnBackend : public ::testing::TestWithParam<BackendKind> {
 protected:
  void SetUp() override {
    std::string why = unavailable_reason(GetParam());
    if (!why.empty()) GTEST_SKIP() << why;
  }
};

// A tool edit made through any backend is kept and restored like a local
// one: read beneath the root on this host (the sandbox, docker with the
// workspace bound at its own path), through the backend's file system
// elsewhere (ssh: the test's sshd serves this host, so the files can be
// checked here).
TEST_P(ToolEditOnBackend, IsKeptLikeALocalOne) {
  CheckpointHarness h(GetParam());
  seed(h.work());
  Snapshot before = snapshot(h.work().path());
  Json wrote = h.call("write_file", {{"path", "new/made.txt"}, {"content", "by the backend\n"}});
  ASSERT_FALSE(wrote.contains("error")) << wrote.dump();
  ASSERT_EQ(h.work().read("new/made.txt"), "by the backend\n");
  Json listed = h.call("checkpoint", {{"action", "list"}})["checkpoints"].back();
  EXPECT_EQ(listed["paths"], Json::array({"new", "new/made.txt"})) << listed.dump();
  EXPECT_FALSE(listed.contains("note")) << listed.dump();
  EXPECT_EQ(restore(h, h.last_id())["success"], true);
  EXPECT_EQ(snapshot(h.work().path()), before);
}

INSTANTIATE_TEST_SUITE_P(Backends, ToolEditOnBackend,
                         ::testing::Values(BackendKind::kSandbox, BackendKind::kDocker,
                                           BackendKind::kSsh),
                         [](const ::testing::TestParamInfo<BackendKind>& c) {
                           return kind_name(c.param);
                         });

// Docker whose volumes do not bind the workspace at its own path: its files
// are the container's, read and restored through it; its commands' changes
// are listed as not captured.
TEST(Checkpoint, DockerWithoutTheWorkspaceBoundAtItsPathKeepsToolEditsThroughTheContainer) {
  std::string why = unavailable_reason(BackendKind::kDocker);
  if (!why.empty()) GTEST_SKIP() << why;
  use_docker_shim();
  CheckpointHarness h([](const std::string& work) {
    return "approvals:\n  yolo: true\nterminal:\n  backend: docker\n  cwd: /srv\n"
           "  docker_volumes:\n    - " +
           work + ":/srv\n";
  });
  h.session().set_cwd("/srv");
  h.work().write("kept.txt", "before\n");
  h.call("read_file", {{"path", "/srv/kept.txt"}});
  Json wrote = h.call("write_file", {{"path", "/srv/kept.txt"}, {"content", "after\n"}});
  ASSERT_FALSE(wrote.contains("error")) << wrote.dump();
  h.call("write_file", {{"path", "made/a.txt"}, {"content", "x"}});
  ASSERT_EQ(h.work().read("made/a.txt"), "x");
  Json list = h.call("checkpoint", {{"action", "list"}})["checkpoints"];
  ASSERT_EQ(list.size(), 2u) << list.dump();
  EXPECT_EQ(list[0]["paths"], Json::array({"kept.txt"})) << list.dump();
  EXPECT_EQ(list[1]["paths"], Json::array({"made", "made/a.txt"})) << list.dump();
  EXPECT_FALSE(list[1].contains("note")) << list.dump();
  Json diff = h.call("checkpoint", {{"action", "diff"}, {"id", list[0]["id"]}});
  EXPECT_NE(diff["diff"].get<std::string>().find("-before\n+after\n"), std::string::npos)
      << diff.dump();

  EXPECT_EQ(restore(h, list[0]["id"].get<uint64_t>())["success"], true);
  EXPECT_EQ(h.work().read("kept.txt"), "before\n");
  EXPECT_FALSE(std::filesystem::exists(h.work().file("made")));

  h.sh("echo by-a-command > /srv/c.txt");
  Json shell = h.call("checkpoint", {{"action", "list"}})["checkpoints"].back();
  EXPECT_EQ(shell["tool"], "terminal");
  EXPECT_EQ(shell["note"], "shell changes not captured: this backend's files are not on this host");
}

TEST(Checkpoint, UnknownIdsAndActionsAreErrors) {
  CheckpointHarness h;
  EXPECT_EQ(restore(h, 42)["error"], "No checkpoint 42 in this workspace");
  EXPECT_TRUE(h.call("checkpoint", {{"action", "undo"}}).contains("error"));
  EXPECT_TRUE(h.call("checkpoint", {{"action", "diff"}}).contains("error"));
}

}  // namespace
}  // namespace hermes::testing
