// SPDX-License-Identifier: MIT
#include "checkpoint/checkpoints.h"

#include "core/log.h"
#include "core/paths.h"
#include "fs/atomic_write.h"
#include "fs/contained_write.h"

#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <set>
#include <utility>

#include "checkpoint/tree_index.h"
#include "checkpoint/workspace_files.h"

namespace hermes::checkpoint {

namespace {

using States = std::map<std::string, PathState>;

std::string real_of(const std::string& root, const std::string& rel) {
  return root == "/" ? "/" + rel : root + "/" + rel;
}

bool under_git(const std::string& rel) { return rel == ".git" || rel.starts_with(".git/"); }

// The store's own lock: every call holds it shared, pruning exclusively (so
// no object is collected between its write and the journal line naming it).
Result<FileLock> hold_store(const std::string& dir, bool exclusive = false) {
  return FileLock::acquire(dir + "/gc.lock", !exclusive);
}

// Position of checkpoint `id` in `all`.
Result<size_t> position(const std::vector<Checkpoint>& all, uint64_t id) {
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].id == id) return i;
  }
  return Error::NotFound("No checkpoint " + std::to_string(id) + " in this workspace");
}

// Each path changed by a checkpoint in [from, to), with its state just
// before the first of them that changed it: the workspace before `from`.
States states_before(const std::vector<Checkpoint>& all, size_t from, size_t to) {
  States out;
  for (size_t i = from; i < to; ++i) {
    for (const auto& [rel, after] : all[i].after) {
      if (out.contains(rel)) continue;
      auto it = all[i].before.find(rel);
      out[rel] = it == all[i].before.end() ? PathState{} : it->second;
    }
  }
  return out;
}

// Each path's state as the agent's last call that changed it left it.
States last_written(const std::vector<Checkpoint>& all, size_t from) {
  States out;
  for (size_t i = all.size(); i-- > from;) {
    for (const auto& [rel, after] : all[i].after) out.try_emplace(rel, after);
  }
  return out;
}

bool selected(const std::string& rel, const std::vector<std::string>& paths) {
  if (paths.empty()) return true;
  return std::any_of(paths.begin(), paths.end(), [&](const std::string& p) {
    return rel == p || (rel.size() > p.size() && rel.starts_with(p) && rel[p.size()] == '/');
  });
}

// The states a path-only call (a tool edit, a restore) that began after
// checkpoint `id` left: a shell call ending after them does not claim them.
States written_since(const std::vector<Checkpoint>& all, uint64_t id) {
  States out;
  for (const Checkpoint& c : all) {
    if (c.id <= id || c.coverage == Coverage::kShell) continue;
    for (const auto& [rel, state] : c.after) out[rel] = state;
  }
  return out;
}

// The missing directories above `rel`, which the call may create (write_file
// makes the parents of its file): kept as absent, so a restore removes them.
Status note_missing_parents(const WorkspaceFiles& files, const std::string& real_root,
                            const std::string& rel, Ticket& ticket) {
  for (size_t slash = rel.rfind('/'); slash != std::string::npos && slash > 0;
       slash = rel.rfind('/', slash - 1)) {
    std::string parent = rel.substr(0, slash);
    if (ticket.before.contains(parent)) return {};
    HERMES_ASSIGN_OR_RETURN(PathState state, files.read(real_of(real_root, parent), {}));
    if (state.kind != Kind::kAbsent) return {};
    ticket.before[parent] = state;
    ticket.content[parent] = "";
  }
  return {};
}

int64_t now_seconds() { return static_cast<int64_t>(::time(nullptr)); }

// A command running in the workspace, from any process: a file in its
// `running` folder named `<pid>.<checkpoint id>`, made when the call begins
// and removed when it finishes, or `<pid>.job` for a background job, which
// ends with its process. One whose process is gone (a server killed before
// a call's finish, a job that exited) is removed here.
bool command_running(const Journal& journal) {
  std::string dir = journal.dir() + "/running";
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return false;
  bool running = false;
  while (dirent* e = ::readdir(d)) {
    long pid = std::strtol(e->d_name, nullptr, 10);
    if (pid <= 0) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM) {
      running = true;
    } else {
      ::unlinkat(::dirfd(d), e->d_name, 0);
    }
  }
  ::closedir(d);
  return running;
}

// The folder restore writes files in before renaming them into place,
// emptied of what a killed restore left there (the caller holds the
// workspace's lock: no other restore of it runs).
Result<proc::UniqueFd> open_stage(const Journal& journal) {
  std::string stage = journal.dir() + "/stage";
  HERMES_TRY(make_private_dirs(stage));
  if (DIR* d = ::opendir(stage.c_str())) {
    while (dirent* e = ::readdir(d)) {
      if (e->d_name[0] != '.') ::unlinkat(::dirfd(d), e->d_name, 0);
    }
    ::closedir(d);
  }
  proc::UniqueFd fd(::open(stage.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) return Error::FromErrno(errno, "open \"" + stage + "\"");
  return fd;
}

// A path read now, in the terms of a recorded state: a directory where the
// scan recorded an ignored folder is that folder (read_state does not know
// the ignored names; the scan does).
PathState as_recorded(PathState now, const PathState& recorded) {
  if (now.kind == Kind::kDir && recorded.kind == Kind::kIgnoredDir) now.kind = Kind::kIgnoredDir;
  return now;
}

}  // namespace

std::optional<std::string> relative_to(const std::string& root, const std::string& real) {
  if (root == "/") {
    return real.size() > 1 && real[0] == '/' ? std::optional(real.substr(1)) : std::nullopt;
  }
  if (real.size() <= root.size() + 1 || !real.starts_with(root) || real[root.size()] != '/') {
    return std::nullopt;
  }
  return real.substr(root.size() + 1);
}

Checkpoints::Checkpoints(std::string dir) : dir_(std::move(dir)), store_(dir_) {}

ScanOptions Checkpoints::scan_options(const Settings& settings) const {
  return ScanOptions{.store = &store_,
                     .max_bytes = settings.max_file_bytes,
                     .ignored = settings.ignored,
                     .max_entries = settings.max_scan_entries};
}

Checkpoints::Workspace& Checkpoints::workspace_of(const Journal& journal) const {
  std::lock_guard lock(workspaces_mu_);
  std::unique_ptr<Workspace>& ws = workspaces_[journal.dir()];
  if (!ws) ws = std::make_unique<Workspace>();
  return *ws;
}

namespace {

// The settings that decide what the index holds: a change means a walk.
std::string index_settings(const Settings& settings) {
  std::string key = std::to_string(settings.max_file_bytes);
  for (const std::string& name : settings.ignored) key += "/" + name;
  return key;
}

// Opens the workspace's watch on first use (or closes it when the setting
// is off); a refusal is logged once and the workspace walks from then on.
void keep_watch(std::optional<ChangeWatch>& watch, bool& refused, bool wanted) {
  if (!wanted) {
    watch.reset();
    return;
  }
  if (watch || refused) return;
  auto opened = ChangeWatch::open();
  if (opened) {
    watch.emplace(std::move(*opened));
    return;
  }
  refused = true;
  log::warn("checkpoints: " + opened.error().message + "; shell changes are found by walking");
}

}  // namespace

Result<Refresh> Checkpoints::refresh(const Journal& journal, const std::string& root,
                                     const Settings& settings, bool report, Keep keep) const {
  Workspace& ws = workspace_of(journal);
  HERMES_TRY(journal.index().read(ws.index));
  // `hashed`: the index names contents never stored. A look that must
  // store them reads the whole tree again.
  std::string hashed = journal.dir() + "/hashed";
  bool only_hashed = ::access(hashed.c_str(), F_OK) == 0;
  bool reread = keep == Keep::kAll && only_hashed;
  if (reread) ws.index.index.clear();
  if (keep == Keep::kHashes && !only_hashed) HERMES_TRY(replace_file(hashed, ""));
  keep_watch(ws.watch, ws.watch_refused, settings.watch);
  ScanOptions options = scan_options(settings);
  options.report_changes = report;
  if (keep == Keep::kHashes) options.store = nullptr;
  ScanScope scope;
  std::string settings_key = index_settings(settings);
  bool armed = std::exchange(ws.armed, false);  // again only if this look succeeds
  if (ws.watch) {
    // Taken before the walk: an event during it stays queued for the next.
    WatchedChanges seen = ws.watch->take();
    if (armed && ws.armed_for == settings_key && !seen.lost && !ws.index.index.empty()) {
      scope = ScanScope{
          .whole = false, .entries = std::move(seen.entries), .subtrees = std::move(seen.subtrees)};
    }
    options.on_dir = [&ws](int dir, const std::string& rel) -> Status {
      if (!ws.watch) return {};
      Status added = ws.watch->add(dir, rel);
      if (!added) {
        log::warn("checkpoints: " + added.error().message + "; shell changes are found by walking");
        ws.watch.reset();
        ws.watch_refused = true;
      }
      return {};
    };
  }
  // Around the look: what a command changes from here on is kept (again)
  // in the state this look sees.
  CapturedFiles captured(journal.dir());
  captured.note_look();
  HERMES_ASSIGN_OR_RETURN(Refresh found, refresh_index(root, ws.index.index, scope, options));
  captured.note_look();
  HERMES_TRY(save(journal, ws, found, scope.whole));
  if (reread) ::unlink(hashed.c_str());
  // A whole walk's temporaries were the size of the tree: hand the memory
  // back, or every later fork (each command's supervisor) copies the page
  // tables of that heap.
  if (scope.whole) ::malloc_trim(0);
  ws.armed = ws.watch.has_value();
  ws.armed_for = settings_key;
  return found;
}

Status Checkpoints::save(const Journal& journal, Workspace& ws, const Refresh& found,
                         bool whole) const {
  // An unchanged tree leaves the file as it is (it is the larger part).
  if (!found.any_written && !ws.index.generation.empty()) return {};
  Status saved =
      whole ? journal.index().rewrite(ws.index) : journal.index().append(ws.index, found.written);
  if (!saved) ws.index = IndexCopy{};  // ahead of the file: read it again
  return saved;
}

Journal Checkpoints::journal_of(const std::string& root, const std::string& target) const {
  std::string key = target.empty() ? root : target + '\n' + root;
  return Journal(dir_ + "/workspaces/" + fs::sha256_hex(key).substr(0, 16));
}

WorkspaceObjects Checkpoints::objects_of(const std::string& root, const std::string& target) const {
  return WorkspaceObjects(store_, journal_of(root, target).dir(), root);
}

Result<Ticket> Checkpoints::begin(const CallInfo& call, const Settings& settings) const {
  HERMES_ASSIGN_OR_RETURN(FileLock store_lock, hold_store(dir_));
  const std::string& target = call.remote.target;
  Journal journal = journal_of(call.root, target);
  HERMES_ASSIGN_OR_RETURN(FileLock lock, journal.lock());
  if (::access((journal.dir() + "/root").c_str(), F_OK) != 0) {
    HERMES_TRY(replace_file(journal.dir() + "/root", call.root));
  }
  HERMES_ASSIGN_OR_RETURN(WorkspaceFiles files,
                          WorkspaceFiles::open(call.root, call.remote.files.get()));
  Ticket ticket{.root = call.root, .shell = call.shell && call.shell_captured};
  ticket.remote = call.remote;
  // Hashed only: `finish` stores the contents an edit changed.
  Capture how{.store = nullptr, .max_bytes = settings.max_file_bytes};
  for (const std::string& real : call.paths) {
    std::optional<std::string> rel = relative_to(call.root, real);
    if (!rel || under_git(*rel) || ticket.before.contains(*rel)) continue;
    std::string content;
    how.content = &content;
    HERMES_ASSIGN_OR_RETURN(ticket.before[*rel], files.read(real, how));
    ticket.content[*rel] = std::move(content);
    HERMES_TRY(note_missing_parents(files, call.root, *rel, ticket));
  }
  Coverage coverage = !call.shell           ? Coverage::kPaths
                      : call.shell_captured ? Coverage::kShell
                                            : Coverage::kNotCaptured;
  // A command may change any file: none may be left only in the workspace,
  // and no edit holds one until it has finished (its mark, below; the lock
  // keeps both in one step for every other session).
  if (call.shell) HERMES_TRY(objects_of(call.root, target).store_holds());
  if (ticket.shell) {
    // What changed since the last look (hand edits, other programs) becomes
    // the baseline, so this call's checkpoint holds only what it did.
    auto now = refresh(journal, call.root, settings, false,
                       call.writes_captured ? Keep::kHashes : Keep::kAll);
    if (!now && now.error().code == ErrorCode::kTooLarge) {
      ticket.shell = false;
      coverage = Coverage::kTooLarge;
    } else if (!now) {
      return now.error();
    }
    ticket.look = CapturedFiles(journal.dir()).look();
  }
  HERMES_ASSIGN_OR_RETURN(ticket.id, journal.next_id());
  if (call.shell) {
    ticket.running =
        journal.dir() + "/running/" + std::to_string(::getpid()) + "." + std::to_string(ticket.id);
    HERMES_TRY(replace_file(ticket.running, ""));
  }
  Checkpoint header{.id = ticket.id,
                    .created = now_seconds(),
                    .tool = call.tool,
                    .summary = call.summary,
                    .session = call.session,
                    .coverage = coverage,
                    .before = ticket.before};
  Status begun = journal.begin(header);
  if (!begun && !ticket.running.empty()) ::unlink(ticket.running.c_str());
  HERMES_TRY(begun);
  return ticket;
}

Status Checkpoints::finish(const Ticket& ticket, const Settings& settings) const {
  HERMES_ASSIGN_OR_RETURN(FileLock store_lock, hold_store(dir_));
  Journal journal = journal_of(ticket.root, ticket.remote.target);
  HERMES_ASSIGN_OR_RETURN(FileLock lock, journal.lock());
  if (!ticket.running.empty()) ::unlink(ticket.running.c_str());
  HERMES_ASSIGN_OR_RETURN(WorkspaceFiles files,
                          WorkspaceFiles::open(ticket.root, ticket.remote.files.get()));
  WorkspaceObjects objects = objects_of(ticket.root, ticket.remote.target);
  // While a command runs (this session's or another's), anything may change
  // a file: nothing is held. Nor is a target's file: it is read back only
  // here.
  bool busy = files.here() && command_running(journal);
  uint64_t hold_min = !files.here() || busy ? UINT64_MAX : settings.hold_min_bytes;
  States before, after;
  for (const auto& [rel, pre] : ticket.before) {
    std::string newer;
    Capture how{.store = nullptr, .max_bytes = settings.max_file_bytes, .content = &newer};
    HERMES_ASSIGN_OR_RETURN(PathState post, files.read(real_of(ticket.root, rel), how));
    if (post.same_as(pre)) continue;
    Edit edit{
        .rel = rel, .before = pre, .older = ticket.content.at(rel), .after = post, .newer = newer};
    HERMES_TRY(objects.keep_edit(edit, hold_min));
    after[rel] = std::move(post);
  }
  if (ticket.shell) {
    HERMES_ASSIGN_OR_RETURN(Refresh now,
                            refresh(journal, ticket.root, settings, true, Keep::kChanged));
    States others;
    if (!now.changed.empty()) {
      HERMES_ASSIGN_OR_RETURN(std::vector<Checkpoint> all, journal.load());
      others = written_since(all, ticket.id);
    }
    CapturedFiles captured(journal.dir());
    captured.scan();
    for (IndexChange& change : now.changed) {
      auto other = others.find(change.path);
      if (other != others.end() && other->second.same_as(change.is)) continue;
      if (!ticket.before.contains(change.path)) {
        HERMES_ASSIGN_OR_RETURN(before[change.path], stored_before(change, captured, objects));
      }
      after[change.path] = std::move(change.is);
    }
  }
  // Captures from before this call's look have served; with no command
  // running, none kept so far can still be needed.
  if (files.here()) CapturedFiles(journal.dir()).remove_before(busy ? ticket.look : UINT64_MAX);
  return journal.finish(ticket.id, before, after);
}

Result<PathState> Checkpoints::stored_before(const IndexChange& change, CapturedFiles& captured,
                                             const WorkspaceObjects& objects) const {
  PathState was = change.was;
  if (was.kind != Kind::kFile || was.blob.empty() || objects.known(was.blob)) return was;
  // Only hashed by the look before the call: the write capture kept it,
  // stored as a clone of the capture where the file system shares blocks,
  // else as a delta against what replaced it; or nothing did (a process
  // outside the command's tree, a write through a descriptor opened before
  // that look), and only its metadata is recorded.
  std::string want = std::exchange(was.blob, "");
  proc::UniqueFd kept = captured.open(change.was_stamp);
  if (!kept.valid()) return was;
  if (auto cloned = store_.put_clone(kept.get(), was.size)) {
    if (cloned->hash != want) return was;
  } else {
    auto bytes = fs::read_whole_fd(kept.get(), "capture", was.size);
    if (!bytes || fs::sha256_hex(*bytes) != want) return was;
    std::optional<std::string> newer;
    if (change.is.kind == Kind::kFile && !change.is.blob.empty()) {
      if (auto got = store_.get(change.is.blob)) newer = std::move(*got);
    }
    BlobStore::Base base{change.is.blob, newer ? std::string_view(*newer) : std::string_view()};
    HERMES_TRY(store_.put(*bytes, newer ? &base : nullptr));
  }
  captured.drop(change.was_stamp);
  was.blob = std::move(want);
  return was;
}

Result<std::shared_ptr<const proc::WriteCapture>> Checkpoints::write_capture(
    const std::string& root, const Settings& settings) const {
  Journal journal = journal_of(root);
  HERMES_ASSIGN_OR_RETURN(FileLock lock, journal.lock());
  Workspace& ws = workspace_of(journal);
  std::string key = index_settings(settings);
  if (!ws.capture || ws.capture_for != key) {
    HERMES_ASSIGN_OR_RETURN(ws.capture, CapturedFiles(journal.dir()).capture_for(root, settings));
    ws.capture_for = key;
  }
  return ws.capture;
}

Status Checkpoints::note_running(const std::string& root, int pid) const {
  // Named by the job's pid alone: the mark ends when the process does.
  return replace_file(journal_of(root).dir() + "/running/" + std::to_string(pid) + ".job", "");
}

Result<std::vector<Checkpoint>> Checkpoints::list(const std::string& root,
                                                  const std::string& target) const {
  Journal journal = journal_of(root, target);
  HERMES_ASSIGN_OR_RETURN(FileLock lock, journal.lock());
  return journal.load();
}

Result<std::vector<PathChange>> Checkpoints::changes(const std::string& root_dir, uint64_t id,
                                                     std::optional<uint64_t> to,
                                                     const Remote& remote) const {
  Journal journal = journal_of(root_dir, remote.target);
  HERMES_ASSIGN_OR_RETURN(FileLock lock, journal.lock());
  HERMES_ASSIGN_OR_RETURN(std::vector<Checkpoint> all, journal.load());
  HERMES_ASSIGN_OR_RETURN(size_t from, position(all, id));
  size_t end = all.size();
  if (to) {
    HERMES_ASSIGN_OR_RETURN(end, position(all, *to));
    if (end < from) return Error::InvalidArgument("`to` must be a later checkpoint than `id`");
  }
  States old_states = states_before(all, from, end);
  States later = states_before(all, end, all.size());
  States last = last_written(all, from);
  HERMES_ASSIGN_OR_RETURN(WorkspaceFiles files, WorkspaceFiles::open(root_dir, remote.files.get()));
  WorkspaceObjects objects = objects_of(root_dir, remote.target);
  std::vector<PathChange> out;
  for (const auto& [rel, was] : old_states) {
    PathState now;
    if (auto it = later.find(rel); it != later.end()) {
      now = it->second;
    } else {
      // Now: kept in the store unless it is already (the workspace's own
      // objects included), so the text comes from one place.
      std::string bytes;
      Capture how{.store = nullptr, .max_bytes = UINT64_MAX, .content = &bytes};
      HERMES_ASSIGN_OR_RETURN(now, files.read(real_of(root_dir, rel), how));
      if (now.kind == Kind::kFile && !objects.known(now.blob)) HERMES_TRY(store_.put(bytes));
    }
    now = as_recorded(as_recorded(std::move(now), was), last[rel]);
    if (!was.same_as(now)) out.push_back({rel, was, now});
  }
  return out;
}

Result<RestoreReport> Checkpoints::restore(const RestoreRequest& request,
                                           const Settings& settings) const {
  HERMES_ASSIGN_OR_RETURN(FileLock store_lock, hold_store(dir_));
  Journal journal = journal_of(request.root, request.remote.target);
  HERMES_ASSIGN_OR_RETURN(FileLock lock, journal.lock());
  HERMES_ASSIGN_OR_RETURN(std::vector<Checkpoint> all, journal.load());
  HERMES_ASSIGN_OR_RETURN(size_t from, position(all, request.id));
  States want = states_before(all, from, all.size());
  std::erase_if(want, [&](const auto& kv) { return !selected(kv.first, request.paths); });
  States last = last_written(all, from);
  HERMES_ASSIGN_OR_RETURN(WorkspaceFiles files,
                          WorkspaceFiles::open(request.root, request.remote.files.get()));
  WorkspaceObjects objects = objects_of(request.root, request.remote.target);
  RestoreReport report;
  States have;
  Capture how{.store = &store_, .max_bytes = settings.max_file_bytes};
  for (const auto& [rel, state] : want) {
    HERMES_ASSIGN_OR_RETURN(PathState now, files.read(real_of(request.root, rel), how));
    have[rel] = as_recorded(as_recorded(std::move(now), last[rel]), state);
    if (!have[rel].same_as(last[rel])) report.hand_edited.push_back(rel);
  }
  bool agreed = std::all_of(report.hand_edited.begin(), report.hand_edited.end(), [&](auto& p) {
    return std::find(request.overwrite.begin(), request.overwrite.end(), p) !=
           request.overwrite.end();
  });
  if (!report.hand_edited.empty() && !request.force && !agreed) return report;
  std::erase_if(want, [&](const auto& kv) { return have[kv.first].same_as(kv.second); });
  Checkpoint header{.id = 0,
                    .created = now_seconds(),
                    .tool = "checkpoint",
                    .summary = "restore " + std::to_string(request.id),
                    .session = request.session};
  HERMES_ASSIGN_OR_RETURN(header.id, journal.next_id());
  for (const auto& [rel, state] : want) header.before[rel] = have[rel];
  HERMES_TRY(journal.begin(header));
  proc::UniqueFd stage;
  if (files.here()) {
    HERMES_ASSIGN_OR_RETURN(stage, open_stage(journal));
  }
  // Removals deepest first (a directory's entries before it), then the
  // rest parents first.
  std::vector<std::string> order;
  for (auto it = want.rbegin(); it != want.rend(); ++it) {
    if (it->second.kind == Kind::kAbsent) order.push_back(it->first);
  }
  for (const auto& [rel, state] : want) {
    if (state.kind != Kind::kAbsent) order.push_back(rel);
  }
  States after;
  for (const std::string& rel : order) {
    std::string real = real_of(request.root, rel);
    Status applied = files.apply(real, have[rel], want[rel], objects, stage.get());
    if (!applied) {
      report.not_restored.emplace_back(rel, applied.error().message);
      continue;
    }
    report.restored.push_back(rel);
    Capture keep{.store = &store_, .max_bytes = settings.max_file_bytes};
    // A read that fails now (a target gone away) must not leave the restore
    // unfinished: the path is left out of its after-states, so the next
    // restore of it asks before overwriting.
    auto now = files.read(real, keep);
    if (!now) {
      log::warn("checkpoint restore: reading back " + rel + ": " + now.error().message);
      continue;
    }
    if (!now->same_as(have[rel])) after[rel] = std::move(*now);
  }
  std::sort(report.restored.begin(), report.restored.end());
  HERMES_TRY(journal.finish(header.id, {}, after));
  report.checkpoint = header.id;
  return report;
}

namespace {

std::vector<std::string> workspace_dirs(const std::string& store_dir) {
  std::vector<std::string> dirs;
  std::string parent = store_dir + "/workspaces";
  DIR* d = ::opendir(parent.c_str());
  if (d == nullptr) return dirs;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") dirs.push_back(parent + "/" + name);
  }
  ::closedir(d);
  return dirs;
}

// Every object file (path, bytes, hash).
struct ObjectFile {
  std::string path;
  uint64_t bytes = 0;
  std::string hash;
};

std::vector<ObjectFile> object_files(const std::string& store_dir) {
  std::vector<ObjectFile> out;
  std::string objects = store_dir + "/objects";
  DIR* top = ::opendir(objects.c_str());
  if (top == nullptr) return out;
  while (dirent* fan = ::readdir(top)) {
    std::string prefix = fan->d_name;
    // Two hex digits: ".." is two characters as well, and the store's own
    // files (gc.lock) must never be taken for unreferenced objects.
    if (prefix.size() != 2 || !std::isxdigit(static_cast<unsigned char>(prefix[0])) ||
        !std::isxdigit(static_cast<unsigned char>(prefix[1]))) {
      continue;
    }
    DIR* sub = ::opendir((objects + "/" + prefix).c_str());
    if (sub == nullptr) continue;
    while (dirent* e = ::readdir(sub)) {
      std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      std::string path = objects + "/" + prefix + "/" + name;
      struct stat st {};
      if (::stat(path.c_str(), &st) != 0) continue;
      // A clone counts at its whole size, though its blocks are shared: the
      // size cap errs on the side of keeping less.
      if (name.ends_with(BlobStore::kRawSuffix)) {
        name.resize(name.size() - BlobStore::kRawSuffix.size());
      }
      out.push_back({path, static_cast<uint64_t>(st.st_size), prefix + name});
    }
    ::closedir(sub);
  }
  ::closedir(top);
  return out;
}

void add_states(const States& states, std::set<std::string>& live) {
  for (const auto& [rel, state] : states) {
    if (!state.blob.empty()) live.insert(state.blob);
  }
}

// The objects of the workspace whose folder is `dir`.
WorkspaceObjects objects_in(const BlobStore& store, const std::string& dir) {
  auto root = fs::read_whole_file(dir + "/root");
  return WorkspaceObjects(store, dir, root ? *root : "");
}

// `live` and every delta base its objects rest on.
void add_bases(const WorkspaceObjects& objects, std::set<std::string>& live) {
  std::vector<std::string> pending(live.begin(), live.end());
  while (!pending.empty()) {
    std::string base = objects.base_of(pending.back());
    pending.pop_back();
    if (!base.empty() && live.insert(base).second) pending.push_back(base);
  }
}

}  // namespace

uint64_t Checkpoints::store_bytes() const {
  uint64_t total = 0;
  for (const ObjectFile& f : object_files(dir_)) total += f.bytes;
  for (const std::string& dir : workspace_dirs(dir_)) {
    total += objects_in(store_, dir).own_bytes();
  }
  return total;
}

Result<bool> Checkpoints::prune_if_due(const Settings& settings, int64_t now) const {
  constexpr int64_t kPruneEvery = 3600;
  std::string marker = dir_ + "/pruned";
  struct stat st {};
  if (::stat(marker.c_str(), &st) == 0 && now - st.st_mtime < kPruneEvery) return false;
  // Marked first: the other processes sharing the store skip this round.
  HERMES_TRY(replace_file(marker, ""));
  struct timespec times[2] = {{now, 0}, {now, 0}};
  ::utimensat(AT_FDCWD, marker.c_str(), times, 0);
  HERMES_TRY(prune(settings, now));
  return true;
}

Status Checkpoints::prune(const Settings& settings, int64_t now) const {
  HERMES_ASSIGN_OR_RETURN(FileLock store_lock, hold_store(dir_, true));
  for (int round = 0;; ++round) {
    std::set<std::string> live;  // what any workspace needs of the shared store
    uint64_t total = 0;
    bool dropped = round == 0;
    for (const std::string& dir : workspace_dirs(dir_)) {
      Journal journal(dir);
      HERMES_ASSIGN_OR_RETURN(FileLock lock, journal.lock());
      HERMES_ASSIGN_OR_RETURN(std::vector<Checkpoint> all, journal.load());
      size_t before = all.size();
      std::erase_if(
          all, [&](const Checkpoint& c) { return now - c.created > settings.max_age_seconds; });
      // Over the size cap: each further round drops the oldest quarter.
      if (round > 0) all.erase(all.begin(), all.begin() + static_cast<long>((all.size() + 3) / 4));
      if (all.size() != before) {
        dropped = true;
        HERMES_TRY(journal.rewrite(all));
      }
      std::set<std::string> needed;
      for (const Checkpoint& c : all) {
        add_states(c.before, needed);
        add_states(c.after, needed);
      }
      IndexCopy index;
      HERMES_TRY(journal.index().read(index));
      for (const auto& [rel, entry] : index.index) {
        if (!entry.state.blob.empty()) needed.insert(entry.state.blob);
      }
      // A live delta keeps its bases, in this workspace's own objects or
      // the shared store.
      WorkspaceObjects objects = objects_in(store_, dir);
      add_bases(objects, needed);
      HERMES_TRY(objects.keep_only(needed));
      total += objects.own_bytes();
      live.insert(needed.begin(), needed.end());
    }
    for (const ObjectFile& f : object_files(dir_)) {
      if (live.contains(f.hash)) {
        total += f.bytes;
      } else {
        ::unlink(f.path.c_str());
      }
    }
    if (total <= settings.max_store_bytes || !dropped) return {};
  }
}

}  // namespace hermes::checkpoint
