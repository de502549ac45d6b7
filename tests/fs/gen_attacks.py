#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes attacks.jsonl, the attack corpus of attack_corpus_test.cc: each guarded
# place (outside --root, ~/.ssh/authorized_keys, the Hermes config.yaml, outside
# HERMES_WRITE_SAFE_ROOT) crossed with each way in (dangling links, links in
# parent directories, chains, /proc magic links, `..`, absolute paths) and each
# tool (write_file, read_file, patch, V4A Add/Update/Move/Delete, search_files,
# the tools called from execute_code); plus links inside the root that must work.
import json
out = []
def add(name, call, setup, root=False, safe=False, expect="refused", read=False):
    out.append({"name": name, "root": root, "safe_root": safe, "setup": setup,
                "call": call, "expect": expect})

def wf(p): return {"tool": "write_file", "arguments": {"path": p, "content": "pwned\n"}}
def rf(p): return {"tool": "read_file", "arguments": {"path": p}}
def rep(p): return {"tool": "patch", "arguments": {"path": p, "old_string": "CANARY", "new_string": "pwned"}}
def v4a(body): return {"tool": "patch", "arguments": {"mode": "patch", "patch": "*** Begin Patch\n" + body + "*** End Patch\n"}}
def add_file(p): return v4a("*** Add File: " + p + "\n+pwned\n")
def upd(p): return v4a("*** Update File: " + p + "\n@@\n-CANARY\n+pwned\n")
def dele(p): return v4a("*** Delete File: " + p + "\n")
def move(src, dst): return v4a("*** Update File: " + src + "\n*** Move to: " + dst + "\n@@\n-inside\n+pwned\n")
def py(code): return {"tool": "execute_code", "arguments": {"code": "from hermes_tools import *\nprint(" + code + ")\n"}}
def ec_write(p): return py("write_file(%r, 'pwned')" % p)
def ec_read(p): return py("read_file(%r)" % p)

# Guarded places a write must never reach: (label, target, dir, root mode, safe-root mode)
targets = [
  ("outside-root", "$OUT/x.txt", "$OUT", True, False),
  ("authorized_keys", "$HOME/.ssh/authorized_keys", "$HOME/.ssh", False, False),
  ("hermes-config", "$HERMES_HOME/config.yaml", "$HERMES_HOME", False, False),
  ("outside-safe-root", "$OUT/x.txt", "$OUT", False, True),
]
writers = [("write_file", wf), ("v4a-add", add_file), ("execute_code-write", ec_write)]
for label, target, tdir, root, safe in targets:
    base = target.rsplit("/", 1)[1]
    for wname, w in writers:
        add("%s: dangling link to %s" % (wname, label), w("$R/d"), ['ln -s "%s" "$R/d"' % target], root, safe)
        add("%s: link in a parent directory to %s" % (wname, label), w("$R/sub/" + base), ['ln -s "%s" "$R/sub"' % tdir], root, safe)
        add("%s: two-hop dangling chain to %s" % (wname, label), w("$R/a"), ['ln -s b "$R/a"', 'ln -s "%s" "$R/b"' % target], root, safe)
        add("%s: /proc/self/root magic link to %s" % (wname, label), w("$R/m"), ['ln -s "/proc/self/root%s" "$R/m"' % target], root, safe)
    for ename, e in [("patch-replace", rep), ("v4a-update", upd)]:
        add("%s: existing link to %s" % (ename, label), e("$R/d"), ['printf CANARY > "%s"' % target, 'ln -s "%s" "$R/d"' % target], root, safe)
    if label in ("outside-root", "outside-safe-root"):
        for wname, w in writers:
            add("%s: dangling link to a missing directory outside (%s)" % (wname, label), w("$R/p/new/f.txt"), ['ln -s "$OUT/made" "$R/p"'], root, safe)
            add("%s: relative link climbing out (%s)" % (wname, label), w("$R/rel"), ['ln -s ../outside/x.txt "$R/rel"'], root, safe)
        add("write_file: absolute path (%s)" % label, wf(target), [], root, safe)
        add("v4a-delete: link in a parent directory (%s)" % label, dele("$R/sub/" + base), ['printf CANARY > "%s"' % target, 'ln -s "%s" "$R/sub"' % tdir], root, safe)
        add("v4a-move: destination through a dangling link (%s)" % label, move("$R/in.txt", "$R/d"), ['printf "inside\\n" > "$R/in.txt"', 'ln -s "%s" "$R/d"' % target], root, safe)

# Outside --root: `..`, absolute paths, reads, search, delete through a parent link.
for name, call in [
    ("write_file: .. climbing out", wf("$R/../outside/x.txt")),
    ("read_file: .. climbing out", rf("$R/../outside/secret.txt")),
    ("read_file: absolute path outside", rf("$OUT/secret.txt")),
    ("read_file: link to a file outside", rf("$R/l")),
    ("read_file: link in a parent directory", rf("$R/sub/secret.txt")),
    ("read_file: /proc/self/root magic link", rf("$R/m")),
    ("read_file: /proc/self/cwd magic link", rf("$R/cwd/secret.txt")),
    ("execute_code-read: link to a file outside", ec_read("$R/l")),
    ("execute_code-read: .. climbing out", ec_read("$R/../outside/secret.txt")),
    ("patch-replace: absolute path outside", rep("$OUT/secret.txt")),
    ("patch-replace: link in a parent directory", rep("$R/sub/secret.txt")),
    ("v4a-update: .. in the header", upd("$R/../outside/secret.txt")),
    ("v4a-delete: link in a parent directory", dele("$R/sub/secret.txt")),
    ("v4a-delete: absolute path outside", dele("$OUT/secret.txt")),
    ("v4a-move: source outside moved in", move("$R/sub/secret.txt", "$R/taken.txt")),
    ("search_files: link to a directory outside", {"tool": "search_files", "arguments": {"pattern": "CANARY", "path": "$R/sub"}}),
    ("search_files: .. climbing out", {"tool": "search_files", "arguments": {"pattern": "CANARY", "path": "$R/../outside"}}),
]:
    add(name, call, ['printf "CANARY\\ninside\\n" > "$OUT/secret.txt"', 'ln -s "$OUT/secret.txt" "$R/l"',
                     'ln -s "$OUT" "$R/sub"', 'ln -s "/proc/self/root$OUT/secret.txt" "$R/m"',
                     'ln -s /proc/self/cwd/../outside "$R/cwd"'], True)

# Secret files reached through links (no root): refused, named by the real path.
for name, target in [(".env", "$OUT/.env"), ("Hermes auth.json", "$HERMES_HOME/auth.json"),
                     ("Hermes mcp token", "$HERMES_HOME/mcp-tokens/t.json")]:
    add("read_file: link to %s" % name, rf("$R/innocent.txt"),
        ['mkdir -p "$(dirname "%s")"' % target, 'printf CANARY > "%s"' % target, 'ln -s "%s" "$R/innocent.txt"' % target])
    add("execute_code-read: link to %s" % name, ec_read("$R/innocent.txt"),
        ['mkdir -p "$(dirname "%s")"' % target, 'printf CANARY > "%s"' % target, 'ln -s "%s" "$R/innocent.txt"' % target])

# What must keep working: links that stay inside the root.
add("write_file: link inside the root writes its target", wf("$R/link"), ['ln -s real.txt "$R/link"'], True, expect="inside")
add("write_file: dangling link inside the root creates its target", wf("$R/dl"), ['ln -s made/new.txt "$R/dl"'], True, expect="inside")
add("read_file: directory link inside the root", rf("$R/alias/f.txt"), ['mkdir "$R/dir"', 'echo hi > "$R/dir/f.txt"', 'ln -s dir "$R/alias"'], True, expect="inside")
add("v4a-add: through a directory link inside the root", add_file("$R/alias/g.txt"), ['mkdir "$R/dir"', 'ln -s "$R/dir" "$R/alias"'], True, expect="inside")
add("patch-replace: through an absolute link inside the root", rep("$R/abs"), ['printf CANARY > "$R/t.txt"', 'ln -s "$R/t.txt" "$R/abs"'], True, expect="inside")

import os
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "attacks.jsonl"), "w") as f:
    for e in out:
        f.write(json.dumps(e) + "\n")
print(len(out), sum(1 for e in out if e["expect"] == "refused"))
